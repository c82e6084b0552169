"""The interface every bot implements, and the driver that asks a bot for a move.

A bot sees what its seat may see and nothing more: the seat's observation and
the choices it can see (:func:`civcards.carta.seat_options`). Choosing an
option that ends in ``?`` (Discovery, Inquisition) commits the bot to it; it
is then asked again with the revealed cards and the full moves.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from ..game_api import Game


@dataclass(frozen=True)
class Decision:
    """One question put to a bot."""

    seat: int
    observation: Any
    options: list[str]
    #: after a '?' option was chosen: the cards it revealed, else None
    reveal: str | None = None
    #: the '?' option that led here, else None
    chosen: str | None = None


class Bot(ABC):
    """A player program. Subclasses implement :meth:`choose`."""

    #: the name used on the command line (``greedy``, ``random``, ``ismcts:1s``)
    name: str = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, decision: Decision) -> str:
        """Return one of ``decision.options`` (canonical notation)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class BotError(RuntimeError):
    """A bot answered something that is not one of its options."""


def bot_move(bot: Bot, game: Game, state: Any) -> str:
    """Ask ``bot`` for the move of the seat to move in ``state``; returns its notation."""
    seat = state.to_move
    if seat is None:
        raise ValueError("the game is over: nobody is to move")
    obs = game.observe(state, seat)
    options = game.seat_options(state)
    pick = bot.choose(Decision(seat, obs, options))
    if pick not in options:
        raise BotError(f"{bot.name} chose {pick!r}, which is not among its options")
    if pick.endswith("?"):
        reveal, full = game.expand(state, pick)
        obs = game.observe(state, seat)
        pick2 = bot.choose(Decision(seat, obs, full, reveal, pick))
        if pick2 not in full:
            raise BotError(f"{bot.name} chose {pick2!r}, which is not among its options")
        return pick2
    return pick
