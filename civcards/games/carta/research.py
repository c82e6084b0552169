"""CIV's research capability (:class:`civcards.envs.protocol.Encoding`): the action
encoding and observation tensor of :mod:`.encoding` with the OpenSpiel model of :mod:`.spiel`,
which has explicit chance nodes (the shared adapter: :class:`civcards.games.research.TableEncoding`).

The registration (:mod:`.game`) hands it out. This module imports :mod:`.encoding` and
:mod:`.spiel`; :mod:`.spiel` imports :mod:`.encoding`, which imports neither: no circle.
"""

from __future__ import annotations

from typing import Final

from ..research import TableEncoding
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

ENCODING: Final = TableEncoding(
    table=Table,
    encode=encode_observation,
    action_size=NUM_ACTIONS,
    observation_shape=(OBS_SIZE,),
    observation_high=OBS_HIGH,
    actions=ACTIONS,
    observation_layout=OBS_LAYOUT,
    # the names the research interfaces had before they became generic
    pettingzoo_name="civ_carta_v0",
    gymnasium_id="civcards/Carta-v0",
    openspiel_name="python_civ_carta",
    spiel=SPIEL,
)
