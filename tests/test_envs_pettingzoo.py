"""The PettingZoo AEC environment civcards.envs.carta_v0: PettingZoo's own checks, rewards, R25."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from civcards.envs import carta_v0
from civcards.games.carta.encoding import NUM_ACTIONS, OBS_OFFSETS, OBS_SIZE

CONFIGS = [
    {"players": 2},
    {"players": 2, "deal": "draft"},
    {"players": 3},
    {"players": 4, "deal": "draft"},
    {"players": 4, "teams": True},
]


@pytest.mark.parametrize("kwargs", CONFIGS)
def test_pettingzoo_api_and_seed_tests(kwargs: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        # PettingZoo warns about every Dict observation (as for its own classic games)
        warnings.simplefilter("ignore", UserWarning)
        api_test(carta_v0.env(**kwargs), num_cycles=1000)
        seed_test(lambda: carta_v0.env(**kwargs), num_cycles=500)
        seed_test(lambda: carta_v0.raw_env(**kwargs), num_cycles=500)


def play(env: carta_v0.raw_env, seed: int) -> dict[str, float]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return total


@pytest.mark.parametrize("kwargs", CONFIGS)
def test_rewards_go_to_the_winners_r21_r22_r24(kwargs: dict[str, Any]) -> None:
    env = carta_v0.raw_env(**kwargs)
    for seed in range(4):
        total = play(env, seed)
        assert env.table is not None and env.table.finished
        g = env.table.g
        for s, agent in enumerate(env.possible_agents):
            assert (total[agent] > 0) == (s in g.winners)
        # +1 to share (per team in the team game)
        assert sum(total.values()) == pytest.approx(2.0 if g.teams else 1.0)


def test_only_the_agent_to_move_has_a_mask_and_observations_are_fixed_size() -> None:
    env = carta_v0.raw_env(players=3)
    env.reset(seed=5)
    for agent in env.possible_agents:
        obs = env.observe(agent)
        assert obs["observation"].shape == (OBS_SIZE,)
        assert obs["action_mask"].shape == (NUM_ACTIONS,)
        assert obs["action_mask"].any() == (agent == env.agent_selection)
        assert env.observation_space(agent).contains(obs)


def test_own_hand_only_r25() -> None:
    """R25: each agent's vector holds its own hand; the others' hands only by size."""
    env = carta_v0.raw_env(players=4)
    env.reset(seed=9)
    assert env.table is not None
    g = env.table.g
    h = OBS_OFFSETS["hand"]
    for s, agent in enumerate(env.possible_agents):
        v = env.observe(agent)["observation"]
        assert list(v[h : h + 6]) == g.hands[s]
        hs = OBS_OFFSETS["hand_sizes"]
        assert list(v[hs : hs + 4]) == [sum(g.hands[(s + r) % 4]) for r in range(4)]


def test_illegal_action_raises_in_raw_env_and_ends_the_wrapped_game() -> None:
    raw = carta_v0.raw_env()
    raw.reset(seed=1)
    obs = raw.observe(raw.agent_selection)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError):
        raw.step(bad)
    wrapped = carta_v0.env()
    wrapped.reset(seed=1)
    agent = wrapped.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        wrapped.step(bad)
    assert wrapped.terminations[agent] and wrapped.rewards[agent] == -1


def test_render_shows_no_hand() -> None:
    env = carta_v0.raw_env(render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert text is not None and "hand [???]" in text


def test_docs_example_runs() -> None:
    """The PettingZoo loop of docs/research.md runs as written."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "research.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks
    exec(compile(blocks[0], "docs/research.md", "exec"), {})
