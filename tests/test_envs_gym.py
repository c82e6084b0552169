"""The Gymnasium single-agent wrapper civcards.envs.single_agent: check_env, episodes, bots."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from civcards.envs import single_agent


@pytest.mark.parametrize(
    "kwargs",
    [
        {"opponents": ["greedy"]},
        {"opponents": ["random", "greedy"], "seat": None, "deal": "draft"},
        {"opponents": ["random", "random", "random"], "teams": True, "seat": 1},
    ],
)
def test_check_env(kwargs: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check_env(single_agent(**kwargs))


def run_episode(env: gymnasium.Env[Any, Any], seed: int) -> tuple[float, dict[str, Any], int]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while True:
        legal = np.flatnonzero(obs["action_mask"])
        assert sorted(legal.tolist()) == info["legal_actions"]
        obs, reward, term, trunc, info = env.step(int(rng.choice(legal)))
        steps += 1
        if term or trunc:
            return float(reward), info, steps


def test_episodes_end_with_the_agent_share() -> None:
    env = single_agent(opponents=["random"], seat=1)
    wins = 0.0
    for seed in range(10):
        reward, info, _ = run_episode(env, seed)
        assert (reward > 0) == (1 in info["winners"])
        wins += reward
    assert 0 <= wins <= 10


def test_greedy_beats_a_random_agent() -> None:
    env = single_agent(opponents=["greedy"])
    total = sum(run_episode(env, seed)[0] for seed in range(6))
    assert total <= 1


def test_illegal_action_ends_the_episode() -> None:
    env = single_agent(opponents=["random"], illegal_reward=-2.0)
    obs, _ = env.reset(seed=0)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, term, trunc, info = env.step(bad)
    assert term and not trunc and reward == -2.0 and info["illegal_action"]
    assert not obs["action_mask"].any()


def test_registered_with_gymnasium() -> None:
    env = gymnasium.make("civcards/Carta-v0", opponents=["random"])
    obs, _ = env.reset(seed=1)
    assert obs["action_mask"].any()
