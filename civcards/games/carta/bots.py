"""CIV's own bots, by the names the command line and the lobby use.

The generic bots (``random``, ``ismcts``) come from :mod:`civcards.bots` for
every game; ``ismcts`` plays CIV with CIV's search kit
(:mod:`civcards.games.carta.search`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _greedy(arg: str | None, seed: int | None) -> Any:
    from .greedy import GreedyBot

    # ``greedy:b`` is the same bot under another name (arenas with several greedy seats)
    return GreedyBot(seed)


BOTS: dict[str, Callable[[str | None, int | None], Any]] = {"greedy": _greedy}
