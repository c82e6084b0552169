"""Random games for property tests: every seat plays uniformly random legal moves."""

from __future__ import annotations

import random
from collections.abc import Iterator

from civcards.carta import GameState, new_game
from civcards.carta.cards import ERA_COMPOSITION, LETTERS

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


def card_totals(g: GameState) -> list[int]:
    """Cards of each domain in every zone of the game, removed cards included."""
    tot = [0] * 6
    zones = [*g.hands, *g.areas, g.discard, g.draft_centre, *g.draft_hold]
    for z in zones:
        for d in range(6):
            tot[d] += z[d]
    for d in g.deck:
        tot[d] += 1
    for _, _, kind, _ in g.markers:
        tot[2 if kind == "embargo" else 5] += 1
    # the cards removed unseen (R4) are those of the full eras missing from the deck
    from civcards.carta.cards import era_sizes

    sizes = era_sizes(g.n)
    pos = 0
    for era, size in enumerate(sizes):
        seg = g.deck_letters[pos : pos + size]
        pos += size
        for d, ch in enumerate(LETTERS):
            tot[d] += ERA_COMPOSITION[era][d] - seg.count(ch)
    return tot
