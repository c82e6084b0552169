"""The terminal game (``civcards play``): Rich screens, menus and the game loop."""

from __future__ import annotations

from ..games.carta.text import cards_text, describe_move
from .seats import PlayUsageError, default_bot, parse_seats, seat_names
from .session import Session

__all__ = [
    "PlayUsageError",
    "Session",
    "cards_text",
    "default_bot",
    "describe_move",
    "parse_seats",
    "seat_names",
]
