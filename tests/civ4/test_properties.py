"""Property tests over random games (seeded): conservation, determinism, replay, privacy (C72),
termination (C68, C69), legality of every legal move, canonical texts, factored choices."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from civcards.civ4 import (
    choices,
    expand,
    format_move,
    new_game,
    observe,
    parse_move,
    parse_record,
    position_json,
    replay,
    write_record,
)
from civcards.civ4.game import GameState
from tests.civ4.helpers import random_game, random_move

OPTION_SETS: list[dict[str, object]] = [
    {},
    {"finish_round": True, "hand_limit": 4},
    {"same_type_trade": True, "one_shot_steals": True},
    {"all_techs": True, "happiness_not_wonders": True},
]
seeds = st.integers(min_value=0, max_value=10**6)
players = st.sampled_from([2, 3, 4])
opts = st.sampled_from(OPTION_SETS)


def _positions(n: int, seed: int, options: dict[str, object], every: int = 9) -> list[GameState]:
    g = new_game(n, options=options, seed=seed)
    rng = random.Random(seed)
    out = []
    i = 0
    while not g.finished:
        if i % every == 0:
            out.append(g.copy())
        g.apply(random_move(g, rng))
        i += 1
    out.append(g)
    return out


@settings(max_examples=6)
@given(n=players, seed=seeds, options=opts)
def test_c1_c5_every_card_in_one_zone_at_every_step(n: int, seed: int, options: dict[str, object]) -> None:
    """C1, C5, C48: every card and population is in exactly one zone after every move."""
    g = random_game(n, seed, options, check=True)
    assert g.finished


@settings(max_examples=5)
@given(n=players, seed=seeds)
def test_c9_same_seed_same_game(n: int, seed: int) -> None:
    """C9, C38, C63: the same seed and the same choices give the same game, chance included."""
    a, b = random_game(n, seed), random_game(n, seed)
    assert a.record() == b.record()


@settings(max_examples=6)
@given(n=players, seed=seeds, options=opts)
def test_replay_equals_live_game(n: int, seed: int, options: dict[str, object]) -> None:
    """NOTATION.md clarification 1: the engine's record is portable and replays to the same position."""
    g = random_game(n, seed, options)
    text = write_record(g)
    r = replay(parse_record(text))
    assert r.ok and r.error is None
    assert position_json(r.state, legal=True) == position_json(g, legal=True)
    assert r.state.record() == g.record()
    # a record truncated anywhere replays to the live position at that point
    rec = g.record()
    k = len(rec["moves"]) // 2
    live = new_game(n, options=options, seed=seed)
    rng = random.Random(seed)
    for _ in range(k):
        live.apply(random_move(live, rng))
    rec["moves"] = rec["moves"][:k]
    assert position_json(replay(rec).state, legal=True) == position_json(live, legal=True)


@settings(max_examples=6)
@given(n=players, seed=seeds, options=opts)
def test_c68_c69_random_games_end(n: int, seed: int, options: dict[str, object]) -> None:
    """C68, C69: random games end, with a reason, winners and round <= 50."""
    g = random_game(n, seed, options)
    assert g.finished and g.reason in ("last_tech", "stalemate") and g.winners and g.round <= 50
    assert g.winners == sorted(g.winners)


def _all_finals(g: GameState, cap: int = 20000) -> set[str]:
    out: set[str] = set()
    stack = [c for c in choices(g)]
    while stack:
        c = stack.pop()
        if c.final:
            out.add(c.text)
        else:
            stack.extend(expand(g, c.text))
        assert len(out) <= cap
    return out


@settings(max_examples=4)
@given(n=players, seed=seeds, options=opts)
def test_every_legal_move_applies_and_round_trips(n: int, seed: int, options: dict[str, object]) -> None:
    """Every listed legal move applies; its canonical text round-trips; factored choices reach exactly them."""
    rng = random.Random(seed)
    for g in _positions(n, seed, options, every=11):
        legal = g.legal_strings()
        assert legal == sorted(set(legal))
        if g.finished:
            assert legal == [] and choices(g) == []
            continue
        assert legal
        sample = legal if len(legal) <= 40 else rng.sample(legal, 40)
        for t in sample:
            m = parse_move(t)
            assert format_move(m) == t == str(m)
            assert parse_move("  " + t.lower().replace(" ", "   ") + " ") == m
            h = g.copy()
            h.apply(t)
        if len(legal) <= 3000:
            assert _all_finals(g) == set(legal)


@settings(max_examples=4)
@given(n=players, seed=seeds, options=opts)
def test_uniform_factored_choices_end_at_legal_moves(n: int, seed: int, options: dict[str, object]) -> None:
    """Choosing uniformly level by level over choices()/expand() always ends at a legal move."""
    rng = random.Random(seed)
    for g in _positions(n, seed, options, every=5):
        if g.finished:
            continue
        for _ in range(3):
            t = random_move(g, rng)
            assert g.is_legal(t), t


def _hide_shuffle(g: GameState, rng: random.Random) -> GameState:
    """The same position with every hidden order shuffled (deck, plot pile, tech pile within eras)."""
    h = g.copy()
    rest = list(h.deck[h.deck_pos :])
    rng.shuffle(rest)
    h.deck = h.deck[: h.deck_pos] + tuple(rest)
    prest = list(h.init_plots[h.plot_pos :])
    rng.shuffle(prest)
    h.init_plots = h.init_plots[: h.plot_pos] + tuple(prest)
    from civcards.civ4.cards import CARDS

    trest = list(h.init_techs[h.tech_pos :])
    by_era: dict[int, list[str]] = {}
    for t in trest:
        by_era.setdefault(CARDS.techs[t].era, []).append(t)
    for v in by_era.values():
        rng.shuffle(v)
    h.init_techs = h.init_techs[: h.tech_pos] + tuple(t for e in sorted(by_era) for t in by_era[e])
    return h


def _swap_hidden_card(g: GameState, seat: int, rng: random.Random) -> GameState | None:
    """Swap a card of another seat's hand with a different card of the deck (hand sizes kept)."""
    h = g.copy()
    others = [s for s in range(h.n) if s != seat and any(h.hands[s])]
    rest = list(h.deck[h.deck_pos :])
    if not others or not rest:
        return None
    s = rng.choice(others)
    card = rng.choice(h.hand(s))
    swaps = [i for i, c in enumerate(rest) if c != card]
    if not swaps:
        return None
    j = rng.choice(swaps)
    from civcards.civ4.cards import DECK_INDEX

    h.hands[s][DECK_INDEX[card]] -= 1
    h.hands[s][DECK_INDEX[rest[j]]] += 1
    rest[j] = card
    h.deck = h.deck[: h.deck_pos] + tuple(rest)
    return h


@settings(max_examples=4)
@given(n=players, seed=seeds)
def test_c72_observations_reveal_nothing_private(n: int, seed: int) -> None:
    """C72: positions differing only in hidden information give identical observations."""
    rng = random.Random(seed)
    for g in _positions(n, seed, {}, every=23):
        for seat in [None, *range(n)]:
            obs = observe(g, seat)
            assert observe(_hide_shuffle(g, rng), seat) == obs
            if seat is not None:
                h = _swap_hidden_card(g, seat, rng)
                if h is not None and h.hands[seat] == g.hands[seat]:
                    assert observe(h, seat) == obs
                    assert position_json(h, seat=seat) == position_json(g, seat=seat)
            j = obs.to_json()
            for s, pj in enumerate(j["players"]):
                assert isinstance(pj["hand"], list) == (s == seat)


def test_c72_steal_known_only_to_thief_and_victim() -> None:
    """C72: the card a steal_card takes is known to thief and victim only."""
    from tests.civ4.helpers import at_purchase, grant_tech

    g = at_purchase(3)
    grant_tech(g, 0, "WRI")
    g.apply("use WRI 2")
    card = g.steals[-1][3]
    assert observe(g, 0).known_steals[-1][3] == card
    assert observe(g, 2).known_steals[-1][3] == card
    assert observe(g, 1).known_steals == ()
    assert observe(g, None).known_steals == ()
    assert "WRI" in str(observe(g, 1).history)


@pytest.mark.slow
@settings(max_examples=60)
@given(n=players, seed=seeds, options=opts)
def test_soak_many_random_games(n: int, seed: int, options: dict[str, object]) -> None:
    """Soak: many random games with conservation checked at every step and full replay."""
    g = random_game(n, seed, options, check=True)
    assert replay(g.record()).state.record() == g.record()
