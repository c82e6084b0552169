"""Default moves for the factored decisions (issue 17, item 2)."""

from __future__ import annotations

import random

from civcards.civ4 import default_move, new_game
from civcards.civ4.choices import previous_collect
from civcards.civ4.game import COLLECT
from tests.civ4.helpers import random_move


def test_c24_default_collect_repeats_the_previous_assignment() -> None:
    """C24: the default collect is what the seat wrote last time, plot by plot, where it still fits."""
    for seed in range(200):
        g = new_game(2, seed=seed)
        rng = random.Random(seed)
        while not g.finished and not (g.step == COLLECT and g.collect_options(g.to_move or 0)):
            g.apply(random_move(g, rng))
        if not g.finished:
            break
    p = g.to_move
    assert p is not None and g.step == COLLECT
    opts = g.collect_options(p)
    guess = default_move(g)
    # write something else than the guess for the first plot with a choice
    n, letters = opts[0]
    other = next((s for s in letters if f"p{n}={s}" not in guess.split()), letters[0])
    terms = [f"p{m}={ls[0]}" for m, ls in opts[1:]]
    mine = " ".join(["collect", f"p{n}={other}", *terms])
    g.apply(mine)
    # nothing changes the empires until the seat collects again
    while not (g.step == COLLECT and g.to_move == p):
        g.apply("end" if g.step == "purchase" else default_move(g))
    assert previous_collect(g, p) == dict(
        (int(t.split("=")[0][1:]), t.split("=")[1]) for t in mine.split()[1:]
    )
    assert default_move(g) == mine
    assert default_move(g, "collect ?") == mine
    assert mine in g.legal_strings()


def test_c24_default_collect_is_legal_in_random_games() -> None:
    """C24: the default collect (repeated or guessed) is always a legal move."""
    for seed in range(6):
        g = new_game(3, seed=seed)
        rng = random.Random(seed)
        while not g.finished:
            if g.step == COLLECT:
                assert g.is_legal(default_move(g))
            g.apply(random_move(g, rng))
