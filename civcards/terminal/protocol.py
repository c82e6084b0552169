"""What the generic terminal loop needs from a game's screen (``Game.terminal_screen()``).

A screen draws one game with Rich: the board as a seat sees it, the help page,
the log, the result, the one-line summaries a spectator reads, and the words
of its menus. The loop itself (:mod:`civcards.terminal.session`) knows
nothing of any game: it moves through ``Game.choices``/``expand``/``play``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from rich.console import RenderableType

from ..game_api import Choice, Expansion


class TerminalScreen(Protocol):
    """One game's screen. ``state`` is the game's state; ``names`` the seats' names."""

    def board(
        self,
        state: Any,
        viewer: int | None,
        names: Sequence[str],
        lang: str,
        *,
        final: bool = False,
    ) -> RenderableType:
        """The table as ``viewer`` sees it (its hand shown). ``final``: the last
        board of a finished game, drawn for everyone (``viewer`` is the last
        human seat, or None)."""
        ...

    def help(self, state: Any, lang: str) -> RenderableType:
        """The help page (``?``): the rules in short, how to enter moves."""
        ...

    def log(self, state: Any, viewer: int, names: Sequence[str], lang: str) -> RenderableType:
        """Every move so far as ``viewer`` may see it (``log``)."""
        ...

    def result(self, state: Any, names: Sequence[str], lang: str) -> RenderableType:
        """How the finished game ended."""
        ...

    def moves_made(self, state: Any) -> int:
        """How many moves were made so far."""
        ...

    def spectator_line(
        self, state: Any, start: int, turn: int, names: Sequence[str], lang: str
    ) -> RenderableType:
        """The public moves from move ``start`` on, made in turn ``turn``, in one line
        (a game between bots only is printed this way)."""
        ...

    def order(self, texts: Sequence[str]) -> list[str]:
        """Moves (or steps) in the order a menu lists them."""
        ...

    def kind(self, text: str) -> str:
        """The kind of a move, by which long menus fold into groups."""
        ...

    def group_label(self, kind: str, count: int, lang: str) -> str:
        """The menu line of a folded group of ``count`` moves of ``kind``."""
        ...

    def hidden_step(
        self, state: Any, text: str, choices: Sequence[Choice], lang: str
    ) -> tuple[Choice, str] | None:
        """A typed whole move (canonical ``text``) that the seat must choose through a
        hidden step first: that step and a note saying so; None otherwise."""
        ...

    def unreadable(self, text: str, error: str) -> str:
        """Why ``text`` cannot be read (``error``: what ``Game.canonical`` said)."""
        ...

    def refusal(self, state: Any, text: str) -> str:
        """Why the typed move ``text`` (canonical) cannot be played now."""
        ...

    def reveal(
        self,
        state: Any,
        seat: int,
        step: Choice,
        expansion: Expansion,
        names: Sequence[str],
        lang: str,
    ) -> list[RenderableType]:
        """The lines shown once ``seat`` has chosen a hidden ``step``: what it revealed."""
        ...
