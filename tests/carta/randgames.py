"""Random games for property tests: every seat plays uniformly random legal moves."""

from __future__ import annotations

import random
from collections.abc import Iterator

from civcards.carta import GameState, new_game

CONFIGS = [
    (2, "basic", False),
    (2, "draft", False),
    (3, "basic", False),
    (3, "draft", False),
    (4, "basic", False),
    (4, "draft", False),
    (4, "basic", True),
    (4, "draft", True),
]


def start(config: tuple[int, str, bool], seed: int) -> GameState:
    players, deal, teams = config
    return new_game(players, deal=deal, teams=teams, seed=seed)


def walk(g: GameState, rng: random.Random) -> Iterator[GameState]:
    """Yield the state before each move, then play a random legal move."""
    while not g.finished:
        yield g
        moves = g.legal_moves()
        g.apply(rng.choice(moves))
    yield g
