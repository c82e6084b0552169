"""The fixed action space of civcards.envs: a bijection onto what the seat may choose (R25).

In thousands of positions of random games (every configuration), the legal
actions are exactly the seat's options (:func:`civcards.carta.seat_options`,
with the '?' prefixes of Discovery and Inquisition), one action per option;
after a prefix, the pick sequences spell exactly the full moves that
:func:`civcards.carta.expand` lists, each once.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from civcards.carta import expand, observe, seat_options
from civcards.carta.game import GameState
from civcards.games.carta.encoding import (
    ACTION_INDEX,
    ACTIONS,
    DISCOVERY_PREFIX_ACTION,
    NUM_ACTIONS,
    OBS_LAYOUT,
    OBS_OFFSETS,
    OBS_SIZE,
    PICK0,
    Table,
    action_name,
    encode,
    rewards,
)

from .carta.randgames import CONFIGS, start


def option_action(g: GameState, option: str) -> int:
    """The action of a seat option, computed from the option's text."""
    me, n = g.active, g.n
    if option == "discovery discard ?":
        return DISCOVERY_PREFIX_ACTION
    words = option.split()
    if words[0] in ("inquisition", "embargo", "democracy", "inspiration"):
        words[1] = f"+{(int(words[1]) - me) % n}"
    return ACTION_INDEX[" ".join(words)]


def pick_sequences(t: Table) -> list[list[int]]:
    """Every sequence of pick actions that completes the pending effect."""
    legal = t.legal_actions()
    assert legal, "a pending effect can always be completed"
    out: list[list[int]] = []
    for a in legal:
        t2 = t.copy()
        t2.apply(a)
        if t2.pending is None:
            out.append([a])
        else:
            out.extend([a, *rest] for rest in pick_sequences(t2))
    return out


def check_position(t: Table) -> int:
    g = t.g
    options = seat_options(g)
    legal = t.legal_actions()
    mapped = [option_action(g, o) for o in options]
    assert len(set(mapped)) == len(mapped), "two options share an action"
    assert sorted(mapped) == legal
    for o, a in zip(options, mapped, strict=True):
        assert action_name(a, g.active, g.n) == o
    checked = 0
    for o, a in zip(options, mapped, strict=True):
        if not o.endswith("?"):
            continue
        t2 = t.copy()
        t2.apply(a)
        assert t2.pending is not None and t2.to_move == g.active
        _reveal, full = expand(g, o)
        seqs = pick_sequences(t2)
        head = o[:-1]
        spelled = [head + "".join(ACTIONS[x][-1] for x in s) for s in seqs]
        assert len(set(spelled)) == len(spelled)
        assert sorted(spelled) == sorted(full)
        # playing one sequence gives the same state as the engine's full move
        s = seqs[len(seqs) // 2]
        for x in s:
            t2.apply(x)
        g3 = g.copy()
        g3.apply(head + "".join(ACTIONS[x][-1] for x in s))
        assert t2.g.record() == g3.record()
        checked += 1
    return checked


def test_action_table_is_fixed_and_named_once() -> None:
    assert NUM_ACTIONS == len(set(ACTIONS)) == 5385
    assert ACTIONS[PICK0 : PICK0 + 6] == tuple(f"pick {c}" for c in "MRESCU")
    assert sum(size for _, size, _ in OBS_LAYOUT) == OBS_SIZE


@pytest.mark.parametrize("config", CONFIGS)
def test_actions_are_a_bijection_onto_seat_options_r25(config: tuple[int, str, bool]) -> None:
    """R25: every option has one action, every legal action one option; picks spell expand()."""
    rng = random.Random(hash(config) & 0xFFFF)
    positions = prefixes = 0
    for seed in range(25):
        t = Table(start(config, seed))
        while not t.finished:
            if t.pending is None:
                prefixes += check_position(t)
                positions += 1
            # play uniformly among the legal actions, picks included
            t.apply(rng.choice(t.legal_actions()))
        assert t.legal_actions() == []
    assert positions > 2000
    assert prefixes > 20


def test_every_engine_move_has_an_action() -> None:
    """The engine's full moves (also Discovery/Inquisition) map into the table."""
    from civcards.games.carta.encoding import action_of

    rng = random.Random(5)
    for config in CONFIGS:
        for seed in range(6):
            g = start(config, 1000 + seed)
            while not g.finished:
                for m in g.raw_moves():
                    assert 0 <= action_of(m, g.active, g.n) < PICK0
                g.apply_unchecked(rng.choice(g.raw_moves()))


def test_observation_is_what_the_seat_may_know_r25() -> None:
    """R25: two games that differ only in what a seat may not see encode alike for it."""
    rng = random.Random(11)
    for config in CONFIGS:
        g = start(config, 77)
        for _ in range(rng.randrange(5, 40)):
            if g.finished:
                break
            g.apply_unchecked(rng.choice(g.raw_moves()))
        for seat in range(g.n):
            v = encode(Table(g), seat)
            assert v.shape == (OBS_SIZE,) and v.dtype == np.float32
            # hide everything private from `seat`: shuffle the other hands' cards
            # among themselves and the deck, keeping sizes
            g2 = g.copy()
            pool = list(g2.deck)
            for s in range(g.n):
                if s != seat:
                    for d in range(6):
                        pool.extend([d] * g2.hands[s][d])
            o = observe(g, seat)
            if any(o.known_in_hands[s] for s in range(g.n) if s != seat) or g.phase == "draft":
                continue  # known cards: the shuffle below would change what it knows
            rng.shuffle(pool)
            for s in range(g.n):
                if s != seat:
                    size = sum(g2.hands[s])
                    g2.hands[s] = [0] * 6
                    for _ in range(size):
                        g2.hands[s][pool.pop()] += 1
            g2.deck = pool
            assert np.array_equal(encode(Table(g2), seat), v)


def test_rewards_share_a_victory() -> None:
    g = start((3, "basic", False), 3)
    g.winners = [0, 2]
    assert rewards(g) == [0.5, 0.0, 0.5]
    g4 = start((4, "basic", True), 3)
    g4.winners = [1, 3]
    assert rewards(g4) == [0.0, 1.0, 0.0, 1.0]
    g4.winners = [0, 1, 2, 3]
    assert rewards(g4) == [0.5, 0.5, 0.5, 0.5]


def test_spectator_and_layout_offsets() -> None:
    g = start((2, "basic", False), 1)
    v = encode(Table(g), None)
    assert v[OBS_OFFSETS["hand"] : OBS_OFFSETS["hand"] + 6].sum() == 0
    mine = encode(Table(g), g.active)
    assert mine[OBS_OFFSETS["hand"] : OBS_OFFSETS["hand"] + 6].sum() == 3


def test_fast_encoding_equals_the_observation_encoding_r25() -> None:
    """R25: encode() (reading the game) gives exactly encode_observation() (from observe())."""
    from civcards.games.carta.encoding import encode_observation

    rng = random.Random(3)
    count = 0
    for config in CONFIGS:
        for seed in range(4):
            t = Table(start(config, 500 + seed))
            while True:
                for seat in [None, *range(t.g.n)]:
                    assert np.array_equal(encode(t, seat), encode_observation(t, seat))
                    count += 1
                if t.finished:
                    break
                t.apply(rng.choice(t.legal_actions()))
    assert count > 5000
