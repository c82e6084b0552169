"""civ4's research interfaces: the action tokens, PettingZoo, Gymnasium and OpenSpiel (C72)."""

from __future__ import annotations

import random
import warnings

import gymnasium
import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from open_spiel.python.algorithms import ismcts, mcts
from pettingzoo.test import api_test, seed_test

import civcards.envs  # registers civcards/Civ4-v0
from civcards.bots import make_bot
from civcards.civ4 import GameState, new_game, observe
from civcards.civ4.determinize import Determinizer
from civcards.envs import civ4_v0
from civcards.envs import openspiel_game as og
from civcards.game_api import get_game
from civcards.games.civ4.encoding import (
    ACTION_INDEX,
    ACTIONS,
    NUM_ACTIONS,
    OBS_OFFSETS,
    OBS_SIZE,
    STOP,
    Table,
    encode,
    encode_observation,
)

CIV4 = get_game("civ4")


def spell_all(t: Table, cap: int = 3000) -> list[str] | None:
    """Every move the action sequences from ``t`` spell (None past ``cap``)."""
    out: list[str] = []
    n0 = len(t.g.moves)
    stack = [t]
    while stack:
        u = stack.pop()
        for a in u.legal_actions():
            v = u.copy()
            v.apply(a)
            if len(v.g.moves) > n0:
                out.append(v.g.moves[n0])
            else:
                stack.append(v)
        if len(out) > cap:
            return None
    return out


def random_positions(players: int, seed: int, every: int = 1) -> list[GameState]:
    """States at the start of the moves of a random game (tokens uniform), one in ``every``."""
    rng = random.Random(seed)
    t = Table(new_game(players, seed=seed))
    out = []
    while not t.finished:
        if not t.prefix and len(t.g.moves) % every == 0:
            out.append(t.g.copy())
        t.apply(rng.choice(t.legal_actions()))
    return out


# ---------------------------------------------------------------------------
# The action tokens


def test_vocabulary() -> None:
    assert len(ACTIONS) == NUM_ACTIONS == len(set(ACTIONS))
    assert ACTIONS[STOP] == "stop"
    for name in ("end", "cash GRN", "plot FOR", "10F", "0C", "use WRI +1", "+2=", "ARC>AXE"):
        assert name in ACTION_INDEX


@pytest.mark.parametrize("players", [2, 3, 4])
def test_spelled_moves_are_exactly_the_legal_moves(players: int) -> None:
    """Every legal move is one sequence of actions, and every sequence ends in a legal move."""
    seen: set[str] = set()
    for state in random_positions(players, seed=players, every=3):
        t = Table(state)
        legal = state.legal_strings()
        if len(legal) > 400:
            continue
        got = spell_all(t)
        assert got is not None
        assert sorted(got) == legal
        assert len(got) == len(set(got))
        seen.add(state.step)
    assert {"draft", "start_discard", "collect", "purchase"} <= seen


def test_actions_for_and_move_of_round_trip() -> None:
    rng = random.Random(7)
    for state in random_positions(3, seed=11, every=5):
        t = Table(state)
        move = rng.choice(state.legal_strings())
        actions = t.actions_for(move)
        u = t.copy()
        for a in actions[:-1]:
            u.apply(a)
        assert u.move_of(actions[-1]) == move
        u.apply(actions[-1])
        assert u.g.moves[-1] == move and not u.prefix


def test_illegal_actions_are_refused() -> None:
    t = Table(new_game(2, seed=1))
    bad = next(a for a in range(NUM_ACTIONS) if a not in t.legal_actions())
    with pytest.raises(ValueError, match="not legal now"):
        t.apply(bad)
    with pytest.raises(ValueError, match="not legal now"):
        t.actions_for("end")


# ---------------------------------------------------------------------------
# The observation: the seat's view only (C72)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_observation_is_unchanged_by_hidden_information_c72(players: int) -> None:
    """A state dealt anew where the seat cannot see (Determinizer) encodes the same for it."""
    rng = random.Random(players)
    changed = 0
    for state in random_positions(players, seed=20 + players, every=7):
        for seat in range(players):
            obs = observe(state, seat)
            sample = Determinizer(obs).sample(rng)
            a, b = Table(state), Table(sample)
            assert np.array_equal(a.encode(seat), b.encode(seat))
            assert a.describe(seat) == b.describe(seat)
            if state.to_move == seat:
                assert a.legal_actions() == b.legal_actions()
            others = [s for s in range(players) if s != seat]
            if any(state.hands[s] != sample.hands[s] for s in others):
                changed += 1
                # the hidden hands differ, and so does what their owners see
                s = next(s for s in others if state.hands[s] != sample.hands[s])
                assert not np.array_equal(a.encode(s), b.encode(s))
    assert changed > 10


def test_observation_shows_own_hand_and_spelled_tokens_only() -> None:
    t = Table(new_game(2, seed=3))
    rng = random.Random(3)
    at = OBS_OFFSETS
    hand = slice(at["hand"], at["hand"] + 29)
    spelled = slice(at["spelled"], at["spelled"] + NUM_ACTIONS)
    checked = 0
    while not t.finished:
        me = t.to_move
        assert me is not None
        other = 1 - me
        assert t.encode(me)[hand].sum() == sum(t.g.hands[me])
        assert t.encode(other)[hand].sum() == sum(t.g.hands[other])
        assert t.encode(None)[hand].sum() == 0
        t.apply(rng.choice(t.legal_actions()))
        if t.prefix:  # a move half spelled: its tokens are the mover's alone
            assert t.encode(me)[spelled].sum() == len(t.prefix)
            assert t.encode(other)[spelled].sum() == 0
            assert t.encode(None)[spelled].sum() == 0
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("players", [2, 4])
def test_fast_encode_equals_the_reference_from_observe(players: int) -> None:
    """``encode`` reads the state directly; ``encode_observation`` only ``observe(state, seat)``."""
    rng = random.Random(players)
    t = Table(new_game(players, seed=30 + players, options={"hand_limit": 9}))
    checked = 0
    while not t.finished:
        if rng.random() < 0.1:
            for seat in [*range(players), None]:
                assert np.array_equal(encode(t, seat), encode_observation(t, seat))
            checked += 1
        t.apply(rng.choice(t.legal_actions()))
    for seat in [*range(players), None]:
        assert np.array_equal(encode(t, seat), encode_observation(t, seat))
    assert checked > 20


def test_encode_is_bounded() -> None:
    t = Table(new_game(4, seed=5))
    rng = random.Random(5)
    while not t.finished:
        t.apply(rng.choice(t.legal_actions()))
    v = encode_observation(t, 0)
    assert v.shape == (OBS_SIZE,) and v.min() >= 0 and v.max() <= 1000
    assert v[OBS_OFFSETS["finished"]] == 1
    assert sum(t.rewards()) == pytest.approx(1.0)


# ---------------------------------------------------------------------------
# PettingZoo, Gymnasium


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_api_test(players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(civ4_v0.env(players=players), num_cycles=300)


def test_pettingzoo_seed_test() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: civ4_v0.env(players=3, finish_round=True), num_cycles=300)


def test_pettingzoo_plays_a_whole_game() -> None:
    env = civ4_v0.env(players=2)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sum(total.values()) == pytest.approx(1.0)


def test_pettingzoo_raw_env_refuses_an_illegal_action() -> None:
    env = civ4_v0.raw_env(players=2)
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(ValueError, match="not legal now"):
        env.step(int(np.flatnonzero(mask == 0)[0]))


def test_gymnasium_check_env() -> None:
    env = gymnasium.make("civcards/Civ4-v0", opponents=["random"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped)
    assert getattr(env.unwrapped, "game").name == "civ4"  # noqa: B009


def test_gymnasium_episode_against_greedy() -> None:
    env = civcards.envs.single_agent(opponents=["greedy", "random"], game="civ4", seat=None)
    obs, info = env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(20000):
        assert int(obs["action_mask"].sum()) == len(info["legal_actions"])
        a = int(rng.choice(info["legal_actions"]))
        obs, reward, term, trunc, info = env.step(a)
        if term or trunc:
            break
    assert term
    assert 0.0 <= reward <= 1.0


# ---------------------------------------------------------------------------
# OpenSpiel


@pytest.mark.parametrize(
    "params",
    ["python_civ4", "python_civ4(players=3,finish_round=True)", "python_civ4(players=4)"],
)
def test_pyspiel_random_sim_test(params: str) -> None:
    game = pyspiel.load_game(params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_game_description() -> None:
    game = og.load(players=3, game="civ4")
    t = game.get_type()
    assert t.short_name == "python_civ4"
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.num_distinct_actions() == NUM_ACTIONS
    assert game.observation_tensor_size() == OBS_SIZE


def play(game: pyspiel.Game, bots: list[pyspiel.Bot], rng: random.Random) -> list[float]:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.randrange(256))
            continue
        p = state.current_player()
        action = bots[p].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    return list(state.returns())


def test_openspiel_resample_keeps_what_the_seat_knows_c72() -> None:
    game = pyspiel.load_game("python_civ4(players=3,max_game_length=400)")
    rng = random.Random(1)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = game.new_initial_state()
    changed = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.randrange(256))
            continue
        p = state.current_player()
        r = state.resample_from_infostate(p, sampler)
        assert r.information_state_string(p) == state.information_state_string(p)
        assert r.observation_tensor(p) == state.observation_tensor(p)
        assert r.observation_string(p) == state.observation_string(p)
        assert r.legal_actions() == state.legal_actions()
        g, g2 = state.table.g, r.table.g
        changed += any(g.hands[q] != g2.hands[q] for q in range(3) if q != p)
        state.apply_action(rng.choice(state.legal_actions()))
    assert changed > 50


def test_our_bots_play_through_openspiel() -> None:
    game = pyspiel.load_game("python_civ4(players=2)")
    bots = [
        og.CivcardsBot(make_bot(CIV4, "greedy", seed=0)),
        og.CivcardsBot(make_bot(CIV4, "random", seed=1)),
    ]
    returns = play(game, bots, random.Random(3))
    assert sum(returns) == pytest.approx(1.0)


def test_ismcts_bot_plays_through_openspiel() -> None:
    """OpenSpiel's ISMCTSBot (our resample_from_infostate) plays a short game to its end
    (``max_game_length`` adjudicates it) against our random bot."""
    game = pyspiel.load_game("python_civ4(players=2,max_game_length=120)")
    np_rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np_rng)
    bot = ismcts.ISMCTSBot(
        game, evaluator, 2.0, 4, random_state=np_rng, allow_inconsistent_action_sets=True
    )
    bots = [bot, og.CivcardsBot(make_bot(CIV4, "random", seed=0))]
    returns = play(game, bots, random.Random(0))
    assert sum(returns) == pytest.approx(1.0)
