"""civ4's research capability (:class:`civcards.envs.protocol.Encoding`): the action
encoding and observation tensor of :mod:`.encoding` with the OpenSpiel model of :mod:`.spiel`
(the shared adapter: :class:`civcards.games.research.TableEncoding`).

The registration (:mod:`.game`) hands it out. This module imports :mod:`.encoding` and
:mod:`.spiel`; :mod:`.spiel` imports :mod:`.encoding`, which imports neither: no circle.
"""

from __future__ import annotations

from typing import Final

from ..research import TableEncoding
from . import encoding
from .spiel import SPIEL

__all__ = ["ENCODING"]

ENCODING: Final = TableEncoding.of(
    encoding,
    pettingzoo_name="civ4_v0",
    gymnasium_id="civcards/Civ4-v0",
    openspiel_name="python_civ4",
    spiel=SPIEL,
)
