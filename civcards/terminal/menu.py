"""The numbered list of a seat's options, folded into groups when it is long.

>>> items = build_menu(["end", "attack C", "attack M"], "en", ["A", "B"])
>>> [i.option for i in items]
['end', 'attack M', 'attack C']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..games.carta.text import describe_move, move_kind
from ..i18n import EFFECT_KINDS, effect_name, t

#: the most lines a list of choices takes before it is folded or set in columns
MAX_LINES = 14

_KIND_ORDER = {k: i for i, k in enumerate(("end", "play", "keep", "take", *EFFECT_KINDS))}


@dataclass
class MenuItem:
    """One numbered line: a single option, or a group of options of one kind."""

    label: str
    option: str | None = None
    group: list[str] = field(default_factory=list)


_CARD_ORDER = str.maketrans("MRESCU", "012345")


def order_options(options: Sequence[str]) -> list[str]:
    """``end`` first, then play/draft moves, then the effects in the order of the rules.

    Within one kind, cards go in the order of the domains (M R E S C U).
    """
    return sorted(
        options, key=lambda o: (_KIND_ORDER.get(move_kind(o), 99), o.translate(_CARD_ORDER))
    )


def build_menu(options: Sequence[str], lang: str, names: list[str]) -> list[MenuItem]:
    """The top-level items: every option, the largest kinds folded until it fits."""
    ordered = order_options(options)
    kinds: dict[str, list[str]] = {}
    for o in ordered:
        kinds.setdefault(move_kind(o), []).append(o)
    folded: set[str] = set()
    lines = len(ordered)
    for kind, opts in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
        if lines <= MAX_LINES:
            break
        if len(opts) > 1 and kind != "end":
            folded.add(kind)
            lines -= len(opts) - 1
    items: list[MenuItem] = []
    for kind, opts in kinds.items():
        if kind in folded:
            key = "move.group_play" if kind == "play" else "move.group"
            eff = effect_name(lang, kind) if kind not in ("play", "keep", "take") else kind
            items.append(MenuItem(t(lang, key, effect=eff, count=len(opts)), group=opts))
        else:
            items.extend(MenuItem(describe_move(lang, o, names), option=o) for o in opts)
    return items


def common_prefix(options: Sequence[str]) -> str:
    """The words that all ``options`` start with (``monopoly discard``), minus the last differing ones."""
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
    options: Sequence[str], lang: str, names: list[str], title: str, *, back: bool
) -> RenderableType:
    """A list of concrete options; in columns, without the shared words, when it is long."""
    head = Text(title, style="bold underline")
    if len(options) <= MAX_LINES:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(justify="right", style="bold cyan", no_wrap=True)
        grid.add_column(no_wrap=True, overflow="ellipsis")
        grid.add_column(style="bright_black", no_wrap=True, overflow="ellipsis")
        for i, o in enumerate(options, 1):
            grid.add_row(f"{i}.", describe_move(lang, o, names), o)
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
