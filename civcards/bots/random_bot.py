"""``random``: a uniformly random choice among the choices it can see (any game)."""

from __future__ import annotations

from ..game_api import Choice
from .base import Bot, Decision


class RandomBot(Bot):
    """Picks uniformly among its choices at every step (a step counts as one choice).

    It never reads its observation, so a random seat costs the game nothing
    but its choices.
    """

    name = "random"
    uniform = True

    def choose(self, decision: Decision) -> Choice:
        return self.rng.choice(decision.choices)
