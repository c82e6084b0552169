"""CIV's columns in the rows of ``civcards simulate --out``."""

from __future__ import annotations

from typing import Any

from ...carta.cards import counts_to_str
from ...carta.game import GameState


def sim_row(g: GameState) -> dict[str, Any]:
    """The CIV-specific figures of a finished game."""
    return {
        "victory_domain": None if g.victory_domain is None else "MRESCU"[g.victory_domain],
        "areas": [counts_to_str(a) for a in g.areas],
    }
