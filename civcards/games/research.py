"""The research capability of a game whose encoding drives its state through a table of
action indices (:class:`civcards.envs.protocol.Encoding`): one class for every such game,
given the game's table class, its observation encoder, its names and its OpenSpiel model.

Each game's ``research`` module builds one (``civcards/games/<name>/research.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any, Generic, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

__all__ = ["IndexTable", "TableEncoding"]


class IndexTable(Protocol):
    """What :class:`TableEncoding` needs of a game's table (its ``encoding.Table``)."""

    def mask(self) -> npt.NDArray[np.int8]: ...

    def actions_for(self, move: str) -> list[int]: ...

    def move_of(self, action: int) -> str: ...


T = TypeVar("T", bound=IndexTable)


class TableEncoding(Generic[T]):
    """A game's :class:`civcards.envs.protocol.Encoding`, built from its table class
    ``table`` (called with a state), its encoder ``encode(table, seat)`` and its names."""

    def __init__(
        self,
        *,
        table: Callable[[Any], T],
        encode: Callable[[T, int | None], npt.NDArray[np.float32]],
        action_size: int,
        observation_shape: tuple[int, ...],
        observation_high: float,
        actions: Sequence[str],
        observation_layout: Any,
        pettingzoo_name: str,
        gymnasium_id: str,
        openspiel_name: str,
        spiel: Any,
        spells_moves: bool = False,
    ) -> None:
        self._table = table
        self._encode = encode
        self._spiel = spiel
        self.action_size = action_size
        self.observation_shape = observation_shape
        self.observation_high = observation_high
        self.actions = actions
        self.observation_layout = observation_layout
        self.pettingzoo_name = pettingzoo_name
        #: every move is spelled as several actions (tokens) and the table's ``state``
        #: lists the moves played (``moves``): a network may spell whole moves (``net``)
        self.spells_moves = spells_moves
        self.gymnasium_id = gymnasium_id
        self.openspiel_name = openspiel_name

    @classmethod
    def of(
        cls,
        encoding: ModuleType,
        *,
        pettingzoo_name: str,
        gymnasium_id: str,
        openspiel_name: str,
        spiel: Any,
    ) -> TableEncoding[Any]:
        """The encoding of a game's ``encoding`` module, which defines ``Table``,
        ``encode_observation``, ``NUM_ACTIONS``, ``OBS_SIZE``, ``OBS_HIGH``, ``ACTIONS`` and
        ``OBS_LAYOUT`` (and ``SPELLS_MOVES`` where its moves are spelled in tokens)."""
        return TableEncoding(
            table=encoding.Table,
            encode=encoding.encode_observation,
            action_size=encoding.NUM_ACTIONS,
            observation_shape=(encoding.OBS_SIZE,),
            observation_high=encoding.OBS_HIGH,
            actions=encoding.ACTIONS,
            observation_layout=encoding.OBS_LAYOUT,
            pettingzoo_name=pettingzoo_name,
            gymnasium_id=gymnasium_id,
            openspiel_name=openspiel_name,
            spiel=spiel,
            spells_moves=bool(getattr(encoding, "SPELLS_MOVES", False)),
        )

    def table(self, state: Any) -> T:
        return self._table(state)

    def legal_mask(self, table: T) -> npt.NDArray[np.int8]:
        return table.mask()

    def encode_observation(self, table: T, seat: int | None) -> npt.NDArray[np.float32]:
        return self._encode(table, seat)

    def action_of(self, table: T, move: str) -> list[int]:
        return table.actions_for(move)

    def move_of(self, table: T, action: int) -> str:
        return table.move_of(action)

    def spiel(self) -> Any:
        """The game's OpenSpiel model."""
        return self._spiel
