"""The fast paths of random play agree with the plain definitions they replace.

- the cached effects of every seat equal a fresh computation (C52-C66) after
  every move, the in-place update of a build or technology included;
- the discard lists (C14, C37) are the multisets of the hand, in order;
- a collect step's terms (C24) read as :func:`parse_move` reads them;
- ``random_playout`` (``civcards bench``) plays whole games of legal moves.
"""

from __future__ import annotations

import random
import re
from itertools import combinations_with_replacement

import pytest

from civcards.civ4 import NotationError, choices, expand, new_game, parse_move
from civcards.civ4.bench import random_playout
from civcards.civ4.cards import DECK_CODES, N_DECK
from civcards.civ4.choices import _collect_prefix, _index_multisets
from civcards.civ4.effects import compute_effects
from civcards.civ4.game import multisets
from civcards.game_api import get_game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_c52_cached_effects_equal_a_fresh_computation(players: int) -> None:
    checked = 0
    for seed in range(6):
        g = new_game(players, seed=seed)
        rng = random.Random(seed)
        while not g.finished:
            for s in range(players):
                fx = g.fx[s]
                if fx is not None:
                    assert fx == compute_effects(g.techs[s], g.plots[s])
                    checked += 1
            c = rng.choice(choices(g))
            while not c.final:
                c = rng.choice(expand(g, c.text))
            assert c.move is not None
            g.apply_unchecked(c.move, c.text)
    assert checked > 1000


def test_c37_discard_lists_are_the_hand_multisets_in_order() -> None:
    rng = random.Random(3)
    for _ in range(300):
        hand = [0] * N_DECK
        for _ in range(rng.randrange(1, 12)):
            hand[rng.randrange(N_DECK)] += 1
        idx = [i for i in range(N_DECK) if hand[i]]
        items = [(DECK_CODES[i], hand[i]) for i in idx]
        for k in (1, 2, 3, 4):
            if k > sum(hand):
                continue
            got = [tuple(DECK_CODES[i] for i in ms) for ms in _index_multisets(hand, idx, k)]
            assert got == multisets(items, k)


@pytest.mark.parametrize(
    "prefix",
    [
        "collect",
        "collect p1=FF",
        "collect p1=FH p3=HCC",
        "collect p2=HF",  # letters out of order: read as FH
        "collect p3=F p1=H",  # terms out of order
        "collect p01=F",
        "collect  p1=ff",
        "collect p1=FFFFFFFFFFFFF",
    ],
)
def test_c24_collect_step_terms_read_as_the_notation(prefix: str) -> None:
    try:
        want = parse_move(prefix).collect if prefix != "collect" else ()
    except NotationError as e:
        with pytest.raises(NotationError, match=re.escape(str(e))):
            _collect_prefix(prefix)
        return
    assert _collect_prefix(prefix) == want


def test_c24_collect_prefix_of_every_canonical_term() -> None:
    for k in range(1, 6):
        for letters in combinations_with_replacement("FHC", k):
            text = f"collect p2={''.join(letters)} p10=C"
            assert _collect_prefix(text) == parse_move(text).collect


@pytest.mark.parametrize("players", [2, 4])
def test_random_playout_plays_legal_games_to_their_end(players: int) -> None:
    g = new_game(players, seed=11)
    decisions, moves = random_playout(g, random.Random(11))
    assert g.finished and moves == len(g.moves) and decisions >= moves
    game = get_game("civ4")
    # the engine's new_game is the rules as written (the original card set, no variant); the
    # platform's default is reconstructed-3 with finish_round at 2 players (C68), so the same
    # game needs the original set named and the variant switched off
    opts = game.check_options(players, {"cards": "reconstructed-1", "finish_round": False})
    state = game.new_state(players, opts, 11)
    assert game.random_playout(state, random.Random(11)) == moves
    assert state.moves == g.moves
