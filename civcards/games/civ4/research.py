"""civ4's research capability (:class:`civcards.envs.protocol.Encoding`): the action
encoding and observation tensor of :mod:`.encoding` with the OpenSpiel model of :mod:`.spiel`.

The registration (:mod:`.game`) hands it out. This module imports :mod:`.encoding` and
:mod:`.spiel`; :mod:`.spiel` imports :mod:`.encoding`, which imports neither: no circle.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ...civ4 import GameState
from .encoding import (
    ACTIONS,
    NUM_ACTIONS,
    OBS_HIGH,
    OBS_LAYOUT,
    OBS_SIZE,
    Table,
    encode_observation,
)
from .spiel import SPIEL

__all__ = ["ENCODING"]


class Civ4Encoding:
    """civ4's :class:`civcards.envs.protocol.Encoding`."""

    action_size: Final = NUM_ACTIONS
    observation_shape: Final = (OBS_SIZE,)
    observation_high: Final = OBS_HIGH
    actions: Final = ACTIONS
    observation_layout: Final = OBS_LAYOUT
    pettingzoo_name: Final = "civ4_v0"
    gymnasium_id: Final = "civcards/Civ4-v0"
    openspiel_name: Final = "python_civ4"

    def table(self, state: GameState) -> Table:
        return Table(state)

    def legal_mask(self, table: Table) -> npt.NDArray[np.int8]:
        return table.mask()

    def encode_observation(self, table: Table, seat: int | None) -> npt.NDArray[np.float32]:
        return encode_observation(table, seat)

    def action_of(self, table: Table, move: str) -> list[int]:
        return table.actions_for(move)

    def move_of(self, table: Table, action: int) -> str:
        return table.move_of(action)

    def spiel(self) -> Any:
        """civ4's OpenSpiel model (:mod:`.spiel`)."""
        return SPIEL


ENCODING: Final = Civ4Encoding()
