"""The numbered list of a seat's choices, folded into groups when it is long.

Generic: a game's screen orders the choices, names their kinds and labels a
folded group; the words of each line come from ``Game.describe_move``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..i18n import t
from .protocol import TerminalScreen

#: the most lines a list of choices takes before it is folded or set in columns
MAX_LINES = 14

#: a move (or step) in words: describe(text)
Describe = Callable[[str], str]


@dataclass
class MenuItem:
    """One numbered line: a single option, or a group of options of one kind."""

    label: str
    option: str | None = None
    group: list[str] = field(default_factory=list)


def build_menu(
    options: Sequence[str], lang: str, screen: TerminalScreen, describe: Describe
) -> list[MenuItem]:
    """The top-level items: every option in the screen's order, the largest kinds
    folded until it fits."""
    ordered = screen.order(options)
    kinds: dict[str, list[str]] = {}
    for o in ordered:
        kinds.setdefault(screen.kind(o), []).append(o)
    folded: set[str] = set()
    lines = len(ordered)
    for kind, opts in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
        if lines <= MAX_LINES:
            break
        if len(opts) > 1:
            folded.add(kind)
            lines -= len(opts) - 1
    items: list[MenuItem] = []
    for kind, opts in kinds.items():
        if kind in folded:
            items.append(MenuItem(screen.group_label(kind, len(opts), lang), group=opts))
        else:
            items.extend(MenuItem(describe(o), option=o) for o in opts)
    return items


def common_prefix(options: Sequence[str]) -> str:
    """The words that all ``options`` start with (``monopoly discard``), minus the last differing ones.

    >>> common_prefix(["monopoly discard MR", "monopoly discard SS"])
    'monopoly discard'
    >>> common_prefix(["discovery discard M"])
    'discovery discard'
    """
    if not options:
        return ""
    split = [o.split() for o in options]
    prefix: list[str] = []
    for words in zip(*split, strict=False):
        if all(w == words[0] for w in words):
            prefix.append(words[0])
        else:
            break
    if len(options) == 1:
        prefix = prefix[:-1]
    return " ".join(prefix)


def menu_view(items: Sequence[MenuItem], lang: str, title: str) -> RenderableType:
    """The items, numbered from 1, one per line with the notation beside."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(justify="right", style="bold cyan", no_wrap=True)
    grid.add_column(no_wrap=True, overflow="ellipsis")
    grid.add_column(style="bright_black", no_wrap=True, overflow="ellipsis")
    for i, item in enumerate(items, 1):
        grid.add_row(f"{i}.", item.label, item.option or "")
    return Group(Text(title, style="bold underline"), grid)


def list_view(
    options: Sequence[str], lang: str, describe: Describe, title: str, *, back: bool
) -> RenderableType:
    """A list of concrete options; in columns, without the shared words, when it is long."""
    head = Text(title, style="bold underline")
    if len(options) <= MAX_LINES:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(justify="right", style="bold cyan", no_wrap=True)
        grid.add_column(no_wrap=True, overflow="ellipsis")
        grid.add_column(style="bright_black", no_wrap=True, overflow="ellipsis")
        for i, o in enumerate(options, 1):
            grid.add_row(f"{i}.", describe(o), o)
        if back:
            grid.add_row("0.", t(lang, "ui.back"), "")
        return Group(head, grid)
    prefix = common_prefix(options)
    cells = []
    for i, o in enumerate(options, 1):
        rest = o[len(prefix) :].strip() if prefix else o
        cell = Text(f"{i:>3}. ", style="bold cyan")
        cell.append(rest)
        cells.append(cell)
    if back:
        cells.append(Text(f"{0:>3}. " + t(lang, "ui.back"), style="bold cyan"))
    sub = Text(prefix + " …", style="bright_black") if prefix else Text("")
    return Group(head, sub, Columns(cells, column_first=True, padding=(0, 2)))
