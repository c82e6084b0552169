"""Bots: programs that play from a seat's observation only.

``make_bot("greedy", seed=1)`` builds a bot from its command-line name.
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot, BotError, Decision, bot_move
from .greedy import GreedyBot
from .ismcts import ISMCTSBot, make_ismcts
from .random_bot import RandomBot

#: name -> factory(spec_argument, seed). ``spec_argument`` is the text after ':'.
REGISTRY: dict[str, Callable[[str | None, int | None], Bot]] = {
    "greedy": lambda arg, seed: GreedyBot(seed),
    "random": lambda arg, seed: RandomBot(seed),
    "ismcts": make_ismcts,
}


def bot_names() -> list[str]:
    return sorted(REGISTRY)


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """Build a bot from a name such as ``random`` or ``greedy`` (``name:arg`` allowed).

    Raises ValueError with a sentence for an unknown name.
    """
    name, _, arg = spec.strip().partition(":")
    factory = REGISTRY.get(name.lower())
    if factory is None:
        raise ValueError(f"unknown bot {spec!r}; the bots are: {', '.join(bot_names())}")
    return factory(arg or None, seed)


__all__ = ["REGISTRY", "Bot", "BotError", "Decision", "ISMCTSBot", "bot_move", "bot_names", "make_bot"]
