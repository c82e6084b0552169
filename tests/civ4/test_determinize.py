"""The determinizer (C72): sampled states agree with everything a seat knows, and
redeal everything it does not."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from civcards.civ4 import GameState, choices, new_game, observe
from civcards.civ4.determinize import DeterminizeError, Determinizer
from tests.civ4.helpers import card_zones_ok, random_move


def _positions(n: int, seed: int, every: int = 7, options: dict[str, object] | None = None) -> list[GameState]:
    g = new_game(n, options=options, seed=seed)
    rng = random.Random(seed)
    out = []
    i = 0
    while not g.finished:
        if i % every == 0:
            out.append(g.copy())
        g.apply(random_move(g, rng))
        i += 1
    return out


def _check_sample(g: GameState, seat: int, s: GameState) -> None:
    obs = observe(g, seat)
    # C72: the seat sees exactly the same position, log included
    assert observe(s, seat) == obs
    # every card in exactly one zone; hand sizes kept; the seat's hand intact
    card_zones_ok(s)
    assert [sum(h) for h in s.hands] == [sum(h) for h in g.hands]
    assert s.hands[seat] == g.hands[seat]
    assert s.deck_size == g.deck_size and s.plot_pile_size == g.plot_pile_size
    assert s.tech_pile_size == g.tech_pile_size and s.tech_top_era == g.tech_top_era
    assert len(s.init_removed) == len(g.init_removed)
    if seat == g.to_move:
        assert choices(s) == choices(g)
        assert s.legal_strings() == g.legal_strings()


@pytest.mark.parametrize("n", [2, 3, 4])
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_c72_samples_agree_with_the_observation(n: int, seed: int) -> None:
    """C72: at every sampled point of random games, for every seat, a sample gives the
    same observation, keeps every card in one zone and the seat's own hand, and gives
    the seat to move the same choices and legal moves."""
    rng = random.Random(seed)
    for g in _positions(n, seed):
        for seat in range(n):
            s = Determinizer(observe(g, seat)).sample(rng)
            _check_sample(g, seat, s)


@pytest.mark.parametrize(
    "options", [{"all_techs": True}, {"hand_limit": 1}, {"one_shot_steals": True}, {"finish_round": True}]
)
def test_c72_samples_under_variants(options: dict[str, object]) -> None:
    """C9 (all_techs), C37 (hand_limit), C63 (one_shot_steals), C68 (finish_round)."""
    rng = random.Random(1)
    for g in _positions(3, 11, every=5, options=options):
        seat = g.to_move
        assert seat is not None
        _check_sample(g, seat, Determinizer(observe(g, seat)).sample(rng))


def test_c72_samples_redeal_hidden_cards_and_continue() -> None:
    """C72: over many samples the other hands, the deck, the plot pile, the tech pile and
    the removed technologies vary; a sampled state plays on to a legal end."""
    g = _positions(3, 5, every=40)[3]
    d = Determinizer(observe(g, 0))
    rng = random.Random(2)
    hands1, decks, plots, techs, removed = set(), set(), set(), set(), set()
    for _ in range(40):
        s = d.sample(rng)
        hands1.add(tuple(s.hands[1]))
        decks.add(s.deck[s.deck_pos :])
        plots.add(s.init_plots[s.plot_pos :])
        techs.add(s.init_techs[s.tech_pos :])
        removed.add(s.init_removed)
        assert s.hands[0] == g.hands[0]
    assert len(hands1) > 10 and len(decks) > 10 and len(plots) > 10 and len(techs) > 10 and len(removed) > 5
    s = d.sample(rng)
    r = random.Random(3)
    while not s.finished:
        s.apply(random_move(s, r))
        card_zones_ok(s)


def test_c63_a_card_writing_took_stays_in_the_thiefs_hand() -> None:
    """C63, C72: the victim knows the card Writing took; every sample keeps it in the
    thief's hand while the thief has not named it since."""
    for seed in range(400):
        g = new_game(2, seed=seed)
        rng = random.Random(seed)
        while not g.finished and not g.steals:
            g.apply(random_move(g, rng))
        if g.steals:
            break
    else:
        pytest.skip("no Writing steal in 400 random games")
    _, thief, victim, card = g.steals[-1]
    d = Determinizer(observe(g, victim))
    assert d.pinned[thief][card] >= 1
    r = random.Random(0)
    for _ in range(30):
        s = d.sample(r)
        assert s.hand(thief).count(card) >= 1
        _check_sample(g, victim, s)


def test_c72_positions_without_an_information_set() -> None:
    """A spectator and a finished game have nothing to sample."""
    g = new_game(2, seed=1)
    with pytest.raises(DeterminizeError):
        Determinizer(observe(g, None))
    rng = random.Random(1)
    while not g.finished:
        g.apply(random_move(g, rng))
    with pytest.raises(DeterminizeError):
        Determinizer(observe(g, 0))
    assert Counter(g.moves)  # the game did end
