"""Property tests over random games (all player counts, both deals, teams).

Invariants: card conservation (R1), determinism under a seed (R4, R5),
record -> replay identity (NOTATION.md), observations reveal nothing private
(R25), every listed legal move applies and every other move is refused.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from civcards.carta import (
    IllegalMoveError,
    format_move,
    new_game,
    observe,
    parse_move,
    parse_record,
    position_json,
    replay,
    seat_options,
    write_record,
)
from civcards.carta.cards import LETTERS
from civcards.carta.game import random_playout
from tests.carta.helpers import BOX, card_totals
from tests.carta.randgames import CONFIGS, start, walk

R1_TOTALS = list(BOX)

configs = st.sampled_from(CONFIGS)
seeds = st.integers(0, 2**32 - 1)


def test_r1_card_conservation_thousands_of_games() -> None:
    """R1: all 104 cards are accounted for after every move of 2,400 random games."""
    rng = random.Random(2026)
    for i in range(2400):
        g = start(CONFIGS[i % len(CONFIGS)], i)
        for state in walk(g, rng):
            assert card_totals(state) == R1_TOTALS
            assert min(min(h) for h in state.hands) >= 0
            assert min(min(a) for a in state.areas) >= 0
        assert g.finished and g.winners


def test_generated_moves_are_distinct_and_match_legal_list() -> None:
    """The raw move generator lists each legal move once, so a uniform pick is uniform."""
    rng = random.Random(5)
    for i in range(200):
        g = start(CONFIGS[i % len(CONFIGS)], 10_000 + i)
        for state in walk(g, rng):
            raw = [format_move(m) for m in state.raw_moves()]
            assert len(raw) == len(set(raw))
            assert sorted(raw) == state.legal_strings()


@settings(max_examples=500)
@given(configs, seeds, seeds)
def test_determinism_under_seed(config: tuple[int, str, bool], seed: int, mseed: int) -> None:
    """R4/R5: the same seed and the same choices give the same game."""
    a = start(config, seed)
    b = start(config, seed)
    assert a.deck_letters == b.deck_letters and a.start == b.start
    random_playout(a, random.Random(mseed))
    random_playout(b, random.Random(mseed))
    assert a.record() == b.record()
    assert position_json(a) == position_json(b)


@settings(max_examples=500)
@given(configs, seeds, seeds)
def test_record_replay_identity(config: tuple[int, str, bool], seed: int, mseed: int) -> None:
    """Replaying a saved record gives the live game's position, at the end and midway."""
    g = start(config, seed)
    rng = random.Random(mseed)
    cut = rng.randrange(1, 200)
    for i, state in enumerate(walk(g, rng)):
        if i == cut:
            mid = replay(parse_record(write_record(state)))
            assert mid.ok
            assert position_json(mid.state, legal=True) == position_json(state, legal=True)
    text = write_record(g, names=[f"p{s}" for s in range(g.n)])
    back = replay(parse_record(text))
    assert back.ok
    assert position_json(back.state, legal=True) == position_json(g, legal=True)
    assert json.loads(text)["result"]["winners"] == g.winners


def _hide(g, seat: int, rng: random.Random):  # type: ignore[no-untyped-def]
    """A copy of ``g`` that differs only in what ``seat`` cannot know.

    The deck order and the other seats' hands (and draft packets) are pooled
    and dealt again at random, sizes kept.
    """
    h = g.copy()
    others = [s for s in range(g.n) if s != seat]
    pool: list[int] = list(h.deck)
    for s in others:
        for zone in (h.hands[s], h.draft_hold[s]):
            for d in range(6):
                pool += [d] * zone[d]
    rng.shuffle(pool)
    it = iter(pool)
    h.deck = [next(it) for _ in h.deck]
    for s in others:
        for zone in (h.hands[s], h.draft_hold[s]):
            size = sum(zone)
            zone[:] = [0] * 6
            for _ in range(size):
                zone[next(it)] += 1
    return h


@settings(max_examples=200)
@given(configs, seeds, seeds)
def test_r25_observation_reveals_nothing_private(
    config: tuple[int, str, bool], seed: int, mseed: int
) -> None:
    """R25: a seat's observation and visible options do not depend on hidden cards."""
    g = start(config, seed)
    rng = random.Random(mseed)
    for i, state in enumerate(walk(g, rng)):
        if i % 7:
            continue
        for seat in range(state.n):
            other = _hide(state, seat, rng)
            assert observe(other, seat) == observe(state, seat)
            if state.to_move == seat:
                assert seat_options(other) == seat_options(state)
        # a spectator sees the public zones only: hide every hand at once
        public = _hide(_hide(state, 0, rng), 1, rng)
        assert observe(public, None) == observe(state, None)
        assert observe(state, None).hand == "" and observe(state, None).learned == []


@given(configs, seeds, seeds)
def test_known_cards_are_really_in_hand(
    config: tuple[int, str, bool], seed: int, mseed: int
) -> None:
    """R16/R25: what a seat knows of another hand is a true lower bound."""
    g = start(config, seed)
    rng = random.Random(mseed)
    for state in walk(g, rng):
        for seat in range(state.n):
            known = observe(state, seat).known_in_hands
            for s in range(state.n):
                hand = state.hands[s]
                for ch in known[s]:
                    assert known[s].count(ch) <= hand[LETTERS.index(ch)]


def _candidates(g) -> list[str]:  # type: ignore[no-untyped-def]
    """Moves near the legal ones: other cards, other seats, other kinds."""
    out = set()
    letters = ["M", "R", "E", "S", "C", "U"]
    for m in g.legal_strings():
        toks = m.split()
        for i, t in enumerate(toks):
            if t.isupper():
                for x in letters:
                    out.add(
                        " ".join([*toks[:i], (t[:-1] + x) if len(t) > 1 else x, *toks[i + 1 :]])
                    )
                out.add(" ".join([*toks[:i], t + "M", *toks[i + 1 :]]))
            if t.isdigit():
                for s in range(4):
                    out.add(" ".join([*toks[:i], str(s), *toks[i + 1 :]]))
    out |= {f"play {x}" for x in letters} | {"end", "keep M", "take C", "assassination M"}
    out |= {"purge MM", "attack S", "discovery", "oligarchy take M", "inspiration 1 holybook"}
    return sorted(out)


@given(configs, seeds, seeds)
def test_every_legal_move_applies_and_others_are_refused(
    config: tuple[int, str, bool], seed: int, mseed: int
) -> None:
    """Listed moves apply with checking; any other move raises and changes nothing."""
    g = start(config, seed)
    rng = random.Random(mseed)
    for i, state in enumerate(walk(g, rng)):
        if i % 5:
            continue
        legal = set(state.legal_strings())
        for m in legal:
            state.copy().apply(m)
        before = (position_json(state, legal=True), len(state.history))
        for text in _candidates(state):
            if format_move(parse_move(text)) in legal:
                continue
            with pytest.raises(IllegalMoveError) as err:
                state.apply(parse_move(text))
            assert err.value.reason and "Traceback" not in err.value.reason
            assert (position_json(state, legal=True), len(state.history)) == before


def test_random_playout_is_uniform_over_legal_moves() -> None:
    """The benchmark's playout picks among exactly the legal moves, uniformly."""
    g = new_game(2, seed=11)
    for _ in range(12):
        g.apply(g.legal_moves()[0])
    counts: dict[str, int] = {}
    legal = g.legal_strings()
    rng = random.Random(3)
    for _ in range(len(legal) * 400):
        h = g.copy()
        moves = h.raw_moves()
        pick = moves[int(rng.random() * len(moves))]
        counts[format_move(pick)] = counts.get(format_move(pick), 0) + 1
    assert sorted(counts) == legal
    expected = 400
    assert all(abs(c - expected) < expected * 0.3 for c in counts.values())
