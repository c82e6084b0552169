"""What the interfaces show beyond the observation, from public facts (C72): the movers
of the log, found by a private replay, also after the discard pile was reshuffled (C38)."""

from __future__ import annotations

import random

from civcards.game_api import get_game
from civcards.games.civ4.public import movers


def test_movers_after_a_reshuffle_C38() -> None:
    game = get_game("civ4")
    for seed in range(40):
        g = game.new_state(2, game.check_options(2, {}), seed)
        rng = random.Random(seed)
        seen: list[int] = []
        while not g.finished:
            seat = g.to_move
            choice = rng.choice(game.choices(g))
            while not choice.final:
                choice = rng.choice(game.expand(g, choice).choices)
            game.apply_choice(g, choice)
            seen.append(-1 if seat is None else seat)
            if any(c["kind"] == "reshuffle" for c in g.chance_out):
                assert movers(g) == seen
                return
    raise AssertionError("no reshuffle in 40 random games")
