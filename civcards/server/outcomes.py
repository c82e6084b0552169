"""How a finished game ended for the people at its table (issue 38): a seat whose player
resigned lost, whatever the bot that took it over did. Used by the accounts (history and
ratings) and by the table's own result, so both say the same."""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from ..game_api import Result
from .live import Live

__all__ = ["live_outcome", "outcome", "people_result", "resigned_seats"]


def resigned_seats(live: Live) -> frozenset[int]:
    """The seats whose players resigned (a takeover for ``resigned``: never reclaimed)."""
    return frozenset(int(t["seat"]) for t in live.takeovers if t.get("reason") == "resigned")


def people_result(result: Result, resigned: frozenset[int]) -> Result:
    """The game's result for the people at the table: a seat whose player resigned lost,
    whatever the bot that took it over did; when every winner resigned, the best score of
    those who stayed wins (ties share). The game's own result (the view's) stays."""
    if not resigned:
        return result
    winners = tuple(w for w in result.winners if w not in resigned)
    if winners:
        return replace(result, winners=winners, shared=result.shared and len(winners) > 1)
    stayed = [i for i in range(len(result.scores)) if i not in resigned]
    if stayed:
        best = max(result.scores[i] for i in stayed)
        winners = tuple(i for i in stayed if result.scores[i] == best)
    return replace(result, winners=winners, shared=len(winners) > 1)


def live_outcome(live: Live, seat: int) -> Literal["won", "lost", "shared"] | None:
    """How a game held in memory ended for ``seat``'s player (None: not over)."""
    result = live.game.result(live.state) if live.finished else None
    if result is None:
        return None
    return outcome(people_result(result, resigned_seats(live)), seat)


def outcome(result: Result, seat: int) -> Literal["won", "lost", "shared"]:
    if seat not in result.winners:
        return "lost"
    return "shared" if result.shared else "won"
