"""``random``: a uniformly random choice among the options it can see."""

from __future__ import annotations

from .base import Bot, Decision


class RandomBot(Bot):
    """Picks uniformly among its options at every step (a '?' option counts once)."""

    name = "random"

    def choose(self, decision: Decision) -> str:
        return self.rng.choice(decision.options)
