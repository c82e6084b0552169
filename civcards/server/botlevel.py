"""The one check of a bot level (a seat's bot, a clock's takeover bot, an analysis): the
game has such a bot and it thinks no longer than the server's caps
(:class:`~.botpool.BotSettings`, ``CIVCARDS_BOT_MAX_*``) allow."""

from __future__ import annotations

from typing import Any

from ..bots import bot_names, make_bot
from ..game_api import Game
from .botpool import BotSettings
from .live import ApiError


def check_bot(game: Game, level: Any, what: str, caps: BotSettings | None = None) -> str:
    """``level`` if ``game`` has such a bot and it thinks no longer than ``caps`` allow (a
    server's :class:`~.botpool.BotSettings`; None: the defaults), else :class:`ApiError`
    with one sentence that starts with ``what`` (a seat's bot, a clock's takeover bot)."""
    bots = bot_names(game)
    if not isinstance(level, str) or level.partition(":")[0] not in bots:
        raise ApiError(
            422,
            "bad_bot",
            f"{what}: {game.title} has no bot {level!r}; its bots are: {', '.join(bots)}",
        )
    try:
        probe = make_bot(game, level, None, files=False)
    except ValueError as e:
        raise ApiError(422, "bad_bot", f"{what}: {e}") from None
    cap = caps or BotSettings()
    its = getattr(probe, "iterations", None) or 0
    secs = getattr(probe, "seconds", None) or 0.0
    if its > cap.max_iterations or secs > cap.max_seconds:
        raise ApiError(
            422,
            "bad_bot",
            f"{what}: {level!r} thinks too long for the table (at most {cap.max_iterations} "
            f"iterations or {cap.max_seconds:g} s a move)",
        )
    return level
