"""The small interface every game of the platform offers to bots, sims, server and CLI.

CIV (:mod:`civcards.carta`) is the first game behind it. A game is a module-like
object with a name and functions over an opaque mutable state; moves travel as
their canonical notation strings, so the layers above never need the game's
own move type.
"""

from __future__ import annotations

from typing import Any, Protocol


class State(Protocol):
    """A game in progress, as the generic layers use it."""

    @property
    def to_move(self) -> int | None: ...

    @property
    def finished(self) -> bool: ...

    @property
    def n(self) -> int: ...

    @property
    def winners(self) -> list[int]: ...

    @property
    def victory(self) -> str | None:
        """How the game was won (for CIV ``"hegemony"`` or ``"majority"``), None while on."""
        ...

    @property
    def turn(self) -> int: ...

    def copy(self) -> Any: ...

    def legal_strings(self) -> list[str]: ...

    def apply(self, move: Any) -> None: ...

    def record(self, *, result: bool = True) -> dict[str, object]: ...


class Game(Protocol):
    """A game definition: set-up, views per seat, notation."""

    name: str
    min_players: int
    max_players: int

    def new_game(self, players: int, **options: Any) -> Any: ...

    def observe(self, state: Any, seat: int) -> Any: ...

    def seat_options(self, state: Any) -> list[str]:
        """The choices the seat to move can see (secret-dependent ones end in '?')."""
        ...

    def expand(self, state: Any, option: str) -> tuple[str, list[str]]:
        """What choosing a '?' option reveals, and the full moves it stands for."""
        ...
