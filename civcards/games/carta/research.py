"""CIV's research capability (:class:`civcards.envs.protocol.Encoding`): the action
encoding and observation tensor of :mod:`.encoding` with the OpenSpiel model of :mod:`.spiel`.

The registration (:mod:`.game`) hands it out. This module imports :mod:`.encoding` and
:mod:`.spiel`; :mod:`.spiel` imports :mod:`.encoding`, which imports neither: no circle.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ...carta.game import GameState
from ...carta.moves import format_move
from .encoding import (
    ACTIONS,
    NUM_ACTIONS,
    OBS_HIGH,
    OBS_LAYOUT,
    OBS_SIZE,
    Table,
    encode_observation,
    move_of,
)
from .spiel import SPIEL

__all__ = ["ENCODING"]


class CartaEncoding:
    """CIV's :class:`civcards.envs.protocol.Encoding`."""

    action_size: Final = NUM_ACTIONS
    observation_shape: Final = (OBS_SIZE,)
    observation_high: Final = OBS_HIGH
    actions: Final = ACTIONS
    observation_layout: Final = OBS_LAYOUT
    #: the names the research interfaces had before they became generic
    pettingzoo_name: Final = "civ_carta_v0"
    gymnasium_id: Final = "civcards/Carta-v0"
    openspiel_name: Final = "python_civ_carta"

    def table(self, state: GameState) -> Table:
        return Table(state)

    def legal_mask(self, table: Table) -> npt.NDArray[np.int8]:
        return table.mask()

    def encode_observation(self, table: Table, seat: int | None) -> npt.NDArray[np.float32]:
        return encode_observation(table, seat)

    def action_of(self, table: Table, move: str) -> list[int]:
        return table.actions_for(move)

    def move_of(self, table: Table, action: int) -> str:
        g = table.g
        return format_move(move_of(action, g.active, g.n))

    def spiel(self) -> Any:
        """CIV's OpenSpiel model, with explicit chance nodes (:mod:`.spiel`)."""
        return SPIEL


ENCODING: Final = CartaEncoding()
