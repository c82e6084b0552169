"""The OpenSpiel game python_civ_carta: pyspiel's random simulation checks, chance, R25, MCTS."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from civcards.bots import make_bot
from civcards.carta.cards import ERA_COMPOSITION
from civcards.envs import openspiel_game as og
from civcards.game_api import get_game
from civcards.games.carta.encoding import NUM_ACTIONS, OBS_SIZE, encode

CIV = get_game("carta")


@pytest.mark.parametrize(
    "params",
    [
        "python_civ_carta",
        "python_civ_carta(players=2,deal=draft)",
        "python_civ_carta(players=3)",
        "python_civ_carta(players=4,deal=draft,teams=True)",
    ],
)
def test_pyspiel_random_sim_test(params: str) -> None:
    game = pyspiel.load_game(params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_game_description() -> None:
    game = og.load(players=3)
    t = game.get_type()
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.num_distinct_actions() == NUM_ACTIONS
    assert game.observation_tensor_size() == OBS_SIZE
    assert game.information_state_tensor_size() == OBS_SIZE


def sample(state: pyspiel.State, rng: random.Random) -> int:
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    return rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]  # type: ignore[no-any-return]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_chance_deals_each_era_r1_r4(players: int) -> None:
    """R1/R4: the cards that leave the deck never exceed an era's composition; R25 views."""
    game = og.load(players=players)
    rng = random.Random(players)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            core = state.core
            for era in range(3):
                assert all(core.drawn[era][d] <= ERA_COMPOSITION[era][d] for d in range(6))
            if core.table is not None and not state.is_terminal() and not state.is_chance_node():
                p = state.current_player()
                assert np.array_equal(
                    np.array(state.observation_tensor(p), dtype=np.float32),
                    encode(core.table, p),
                )
        # R25: each seat's string holds its own 3 dealt cards, never another seat's
        for p in range(players):
            lines = state.information_state_string(p).splitlines()
            assert sum(line.startswith("dealt") for line in lines) == 3
        assert sum(state.returns()) == pytest.approx(1.0)


def test_information_state_differs_only_by_what_the_seat_saw_r25() -> None:
    """Two deals that differ only in seat 1's cards look the same to seat 0 until it sees them."""
    game = og.load(players=2)
    a = game.new_initial_state()
    b = game.new_initial_state()
    for s in (a, b):
        s.apply_action(0)  # start player 0
    for i in range(6):  # seat 0 gets M M M; seat 1 gets R R R or S S S
        a.apply_action(0 if i < 3 else 1)
        b.apply_action(0 if i < 3 else 3)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.observation_string(0) == b.observation_string(0)
    assert a.observation_tensor(0) == b.observation_tensor(0)
    assert a.information_state_string(1) != b.information_state_string(1)


def play(game: pyspiel.Game, bots: list[pyspiel.Bot], rng: random.Random) -> list[float]:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample(state, rng))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state.returns()  # type: ignore[no-any-return]


def test_mcts_bot_plays_against_our_bots() -> None:
    """OpenSpiel's MCTSBot (random rollouts) plays short games against random and greedy."""
    game = og.load(players=2)
    rng = random.Random(0)
    np_rng = np.random.RandomState(0)
    for i, opponent in enumerate(["random", "greedy"]):
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np_rng)
        bots = [
            mcts.MCTSBot(game, 2.0, 4, evaluator, random_state=np_rng),
            og.CivcardsBot(make_bot(CIV, opponent, seed=i)),
        ]
        returns = play(game, bots, rng)
        assert sum(returns) == pytest.approx(1.0)


def test_our_bots_through_openspiel_match_the_engine() -> None:
    """greedy plays through the OpenSpiel game (prefixes, reveals, picks) and beats random."""
    game = og.load(players=2)
    rng = random.Random(1)
    wins = 0.0
    for i in range(6):
        bots = [
            og.CivcardsBot(make_bot(CIV, "greedy", seed=i)),
            og.CivcardsBot(make_bot(CIV, "random", seed=i)),
        ]
        wins += play(game, bots, rng)[0]
    assert wins >= 4


def test_ismcts_bot_plays_against_our_bots() -> None:
    """OpenSpiel's ISMCTSBot (our resample_from_infostate) plays short games."""
    game = og.load(players=2)
    rng = random.Random(2)
    np_rng = np.random.RandomState(2)
    for i, opponent in enumerate(["random", "greedy"]):
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np_rng)
        bot = ismcts.ISMCTSBot(
            game, evaluator, 2.0, 4, random_state=np_rng, allow_inconsistent_action_sets=True
        )
        bots = [og.CivcardsBot(make_bot(CIV, opponent, seed=i)), bot]
        assert sum(play(game, bots, rng)) == pytest.approx(1.0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_resample_keeps_what_the_seat_knows_r25(players: int) -> None:
    """R25: a resampled state looks the same to the seat; only hidden cards change (R4 eras)."""
    game = og.load(players=players)
    rng = random.Random(players)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = 0
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample(state, rng))
                continue
            p = state.current_player()
            r = state.resample_from_infostate(p, sampler)
            assert r.information_state_string(p) == state.information_state_string(p)
            assert r.observation_tensor(p) == state.observation_tensor(p)
            assert r.legal_actions() == state.legal_actions()
            g, g2 = state.table.g, r.table.g
            assert [sum(h) for h in g2.hands] == [sum(h) for h in g.hands]
            assert g2.hands[p] == g.hands[p] and g2.areas == g.areas
            for era in range(3):
                assert all(0 <= r.core.drawn[era][d] <= ERA_COMPOSITION[era][d] for d in range(6))
            changed += g2.hands != g.hands
            state.apply_action(rng.choice(state.legal_actions()))
    assert changed > 20
