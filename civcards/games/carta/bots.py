"""CIV's own bots, by the names the command line and the lobby use."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _greedy(arg: str | None, seed: int | None) -> Any:
    from ...bots.greedy import GreedyBot

    return GreedyBot(seed)


BOTS: dict[str, Callable[[str | None, int | None], Any]] = {"greedy": _greedy}
