"""The half of an OpenSpiel model's core that every game played through an action table
shares: OpenSpiel's player ids, whose turn it is, the legal actions, the observation
tensor, the returns and the adjudication of a game that runs too long.

Each game's model (``civcards/games/<name>/spiel.py``) subclasses :class:`TableCore`
with what is its own: the chance nodes (``chance_outcomes``, ``apply``), the
information strings, the views and the resampling for ISMCTS. The protocol the
generic shell (:mod:`civcards.envs.openspiel_game`) calls is described there.

Nothing here imports OpenSpiel (the shell does) or any game.
"""

from __future__ import annotations

from typing import ClassVar, Final, Generic, Protocol, Self, TypeVar

import numpy as np
import numpy.typing as npt

__all__ = ["CHANCE", "TERMINAL", "GameTable", "TableCore"]

#: OpenSpiel's player ids of a chance node and of a finished game
CHANCE: Final = -1
TERMINAL: Final = -4


class GameTable(Protocol):
    """What :class:`TableCore` needs of a game's action table (its ``encoding.Table``)."""

    @property
    def finished(self) -> bool: ...

    @property
    def to_move(self) -> int | None: ...

    def legal_actions(self) -> list[int]: ...

    def copy(self) -> Self: ...


T = TypeVar("T", bound=GameTable)


class TableCore(Generic[T]):
    """A position of a game whose player actions drive an action table ``T``: the table
    (None until the chance nodes of the deal have made it), each seat's information-state
    lines, the player actions made so far and whether the game was cut at
    ``max_length`` of them.

    A subclass supplies :meth:`encode_table` (with :attr:`observation_size`) and
    :meth:`final_returns`, and overrides :meth:`chance_pending` where chance nodes
    also come once the table is made, and :meth:`truncated_share` where a cut game's
    shares are not ``1 / n`` each.
    """

    __slots__ = ("info", "max_length", "moves", "n", "table", "truncated")

    #: the length of the observation tensor (zeros until the table is made)
    observation_size: ClassVar[int]

    def __init__(self, n: int, max_length: int, info: list[list[str]]) -> None:
        self.n = n
        self.max_length = max_length
        self.table: T | None = None
        #: each seat's information-state lines
        self.info = info
        self.moves = 0
        self.truncated = False

    def copy_shared(self, c: TableCore[T]) -> None:
        """Give ``c`` (a bare copy, for ``__deepcopy__``) this position's shared fields,
        the table copied."""
        c.n, c.max_length = self.n, self.max_length
        c.table = None if self.table is None else self.table.copy()
        c.info = [lst[:] for lst in self.info]
        c.moves = self.moves
        c.truncated = self.truncated

    # -- what the game supplies ----------------------------------------------------

    def chance_pending(self) -> bool:
        """Whether a chance node is to move (before the table is made, by default)."""
        return self.table is None

    def truncated_share(self) -> float:
        """Each seat's return in a game cut at ``max_length`` (a shared victory)."""
        return 1.0 / self.n

    def encode_table(self, table: T, player: int | None) -> npt.NDArray[np.float32]:
        """The observation tensor of ``player`` (None: a spectator) at ``table``."""
        raise NotImplementedError

    def final_returns(self, table: T) -> list[float]:
        """The returns of the finished game at ``table``."""
        raise NotImplementedError

    # -- the shell's protocol --------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.truncated or (self.table is not None and self.table.finished)

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        if self.table is None or self.chance_pending():
            return CHANCE
        seat = self.table.to_move
        assert seat is not None
        return seat

    def legal_actions(self, player: int) -> list[int]:
        t = self.table
        assert t is not None and player == t.to_move
        return list(t.legal_actions())

    def count_move(self) -> None:
        """Count a player action; a game reaching ``max_length`` of them, not over and
        with no chance node to come, is cut."""
        self.moves += 1
        if self.moves >= self.max_length and not self.is_terminal() and not self.chance_pending():
            self.truncated = True

    def returns(self) -> list[float]:
        if self.truncated:
            return [self.truncated_share()] * self.n
        if self.table is None or not self.table.finished:
            return [0.0] * self.n
        return self.final_returns(self.table)

    def encode(self, player: int | None) -> npt.NDArray[np.float32]:
        t = self.table
        if t is None:
            return np.zeros(self.observation_size, dtype=np.float32)
        return self.encode_table(t, player)
