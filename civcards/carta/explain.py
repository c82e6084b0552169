"""Plain-language reasons why a move is not legal (stub replaced below)."""
from __future__ import annotations
from typing import TYPE_CHECKING
if TYPE_CHECKING:
    from .game import GameState
    from .moves import Move
def why_illegal(g: "GameState", m: "Move") -> str:
    return "not legal"
