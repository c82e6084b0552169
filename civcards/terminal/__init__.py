"""The terminal game (``civcards play``): a generic loop over any registered game,
drawn by that game's own screen (``Game.terminal_screen()``) with Rich."""

from __future__ import annotations

from .seats import PlayUsageError, default_bot, parse_seats, seat_names
from .session import Session, screen_of

__all__ = [
    "PlayUsageError",
    "Session",
    "default_bot",
    "parse_seats",
    "screen_of",
    "seat_names",
]
