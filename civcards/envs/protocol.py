"""What the research environments need from a game: ``Game.encoding()``.

An *encoding* gives a game a fixed action space (``Discrete(action_size)``),
a fixed-size observation tensor, and an *action table*: the game's state
driven one action index at a time (a game may split a move into several
actions, as CIV does for the cards of a hidden step). The PettingZoo, Gymnasium
and OpenSpiel shells of :mod:`civcards.envs` are written against these two
protocols only; a game without an encoding returns None from ``encoding()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from ..game_api import Game, UnknownGameError


class ActionTable(Protocol):
    """A game state driven by action indices."""

    @property
    def state(self) -> Any:
        """The game's own state (``Game`` methods take it)."""
        ...

    @property
    def to_move(self) -> int | None: ...

    @property
    def finished(self) -> bool: ...

    def copy(self) -> Any: ...

    def legal_actions(self) -> list[int]:
        """The legal actions of :attr:`to_move`, sorted."""
        ...

    def mask(self) -> npt.NDArray[np.int8]:
        """1 for each legal action."""
        ...

    def is_legal(self, action: int) -> bool: ...

    def apply(self, action: int) -> None:
        """Play one action; ``ValueError`` if it is not legal now."""
        ...

    def apply_unchecked(self, action: int) -> None: ...

    def apply_move(self, move: str) -> None:
        """Play a whole move of the game's notation (a bot's), checked."""
        ...

    def actions_for(self, move: str) -> list[int]:
        """The actions that play the whole move ``move`` now."""
        ...

    def encode(self, seat: int | None) -> npt.NDArray[np.float32]:
        """The observation tensor of ``seat`` (None: a spectator)."""
        ...

    def describe(self, seat: int | None) -> str:
        """What ``seat`` sees, as text (``render``, observation strings)."""
        ...

    def rewards(self) -> list[float]:
        """One reward per seat at the end (all 0 while the game is on)."""
        ...

    def action_name(self, action: int) -> str:
        """An action as the seat to move would write it now."""
        ...


class Encoding(Protocol):
    """A game's action space and observation tensor (``Game.encoding()``)."""

    action_size: int
    observation_shape: tuple[int, ...]
    #: an upper bound of every entry of the observation
    observation_high: float
    #: the name of every action, by index (seats relative to the acting seat)
    actions: Sequence[str]

    def table(self, state: Any) -> ActionTable:
        """The action table over a new game state."""
        ...

    def legal_mask(self, table: Any) -> npt.NDArray[np.int8]: ...

    def encode_observation(self, table: Any, seat: int | None) -> npt.NDArray[np.float32]:
        """The observation tensor computed from ``Game.observe`` alone (the reference
        that :meth:`ActionTable.encode` must equal)."""
        ...

    def action_of(self, table: Any, move: str) -> list[int]:
        """The actions that play the whole move ``move`` now."""
        ...

    def move_of(self, table: Any, action: int) -> str:
        """The whole move of an action that is one (``ValueError`` otherwise)."""
        ...

    def spiel(self) -> Any | None:
        """The game's OpenSpiel model (explicit chance nodes, resampling), or None
        for the generic one (see :mod:`civcards.envs.openspiel_game`)."""
        ...


def encoding_of(game: Game) -> Encoding:
    """The game's encoding; ``UnknownGameError`` with a sentence if it has none."""
    get = getattr(game, "encoding", None)
    enc = get() if get is not None else None
    if enc is None:
        raise UnknownGameError(
            f"{game.title} has no action encoding, so it has no research environment"
        )
    return enc  # type: ignore[no-any-return]
