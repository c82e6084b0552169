"""The civ4 web view's decision data for the seat to move (issue 38.6): the moves that end
the game with the mover behind (C68), why a purchase is missing (C27, C34) and what each
defence lets the attack take (C45), checked against the game interface on random games."""

from __future__ import annotations

import random
from typing import Any

from civcards.game_api import get_game
from civcards.games.civ4.web import web_view
from civcards.i18n import t

GAME = get_game("civ4")
#: the last technology ends the game at once (C68 as written)
OPTIONS = {"finish_round": False}


def positions(seed: int) -> Any:
    """Every position of a random 2-player game (steps expanded at random)."""
    st = GAME.new_state(2, GAME.check_options(2, OPTIONS), seed)
    rng = random.Random(seed)
    while not st.finished:
        yield st
        c = rng.choice(GAME.choices(st))
        while not c.final:
            c = rng.choice(GAME.expand(st, c).choices)
        GAME.apply_choice(st, c)


def test_the_view_names_the_moves_that_lose_the_game_and_says_why_a_purchase_is_missing() -> None:
    """C68: every final choice that ends the game with the mover not winning is in
    ``ending`` (with the scores after it), and no other; C27: a population the seat's food
    cannot pay for says its price and the food; only the seat to move gets them."""
    seen_ending = seen_why = 0
    for seed in (1,):
        for st in positions(seed):
            if st.step != "purchase":
                continue
            seat = st.to_move
            view = web_view(st, seat, ["A", "B"], "de")
            decide = view["decide"]
            other = web_view(st, 1 - seat, ["A", "B"], "de")
            assert "decide" not in other
            want = {}
            for c in GAME.choices(st):
                if not c.final:
                    continue
                cp = st.copy()
                GAME.apply_choice(cp, c)
                if cp.finished and seat not in cp.winners:
                    want[c.text] = cp.scores[seat][0]
            assert {m: e["you"] for m, e in decide["ending"].items()} == want
            seen_ending += bool(want)
            texts = {c.text for c in GAME.choices(st)}
            for n in range(1, len(st.plots[seat]) + 1):
                cost, food = st.pop_cost(seat, n), st.supply[seat][0]
                if f"pop p{n}" in texts or st.pop_supply <= 0:
                    assert decide["why"].get(f"pop-{n}") in (None, t("de", "ccg.why.pop_supply"))
                    continue
                assert cost > food
                assert decide["why"][f"pop-{n}"] == t(
                    "de", "ccg.why.pop_cost", cost=cost, have=food
                )
                seen_why += 1
    assert seen_ending and seen_why


def test_each_defence_says_what_the_attack_takes() -> None:
    """C45: for every defence, the population and buildings the attack takes after it (the
    engine's, capped by what the defender has); blocking more never takes more."""
    checked = 0
    for seed in range(1, 8):
        for st in positions(seed):
            if st.step != "defend":
                continue
            d = st.to_move
            damage = web_view(st, d, ["A", "B"])["decide"]["damage"]
            assert set(damage) == set(st.legal_strings())
            none = damage["defend"]
            for move, (s, x) in damage.items():
                assert 0 <= s <= none[0] and 0 <= x <= none[1], (move, damage)
            checked += 1
            break
    assert checked
