"""CIV as a PettingZoo AEC environment: ``civcards.envs.carta_v0``.

>>> from civcards.envs import carta_v0
>>> env = carta_v0.env(players=3)
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> sorted(obs)
['action_mask', 'observation']

Agents are ``player_0`` … ``player_{n-1}`` (the seats). Each observation is a
dict: ``observation``, the seat's flat vector (:func:`civcards.envs.encoding.encode`,
what R25 lets it know), and ``action_mask`` (int8, 1 for each legal action of
the agent to move, all 0 for the others). Actions are indices into
:data:`civcards.envs.encoding.ACTIONS`. Discovery and Inquisition take two or
more steps of the same agent (a ``?`` prefix, then ``pick`` actions).

Rewards come at the end: +1 shared equally among the winning sides (a seat,
or a team in the team game, whose members each get the team's share), 0
otherwise. A game longer than ``max_steps`` actions is truncated (never seen
in random play).
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..carta.game import new_game
from .encoding import NUM_ACTIONS, OBS_HIGH, OBS_SIZE, Table, describe, encode, rewards

ObsDict = dict[str, npt.NDArray[Any]]


def env(**kwargs: Any) -> AECEnv[str, ObsDict, int]:
    """The environment with PettingZoo's usual wrappers (out-of-bounds and order checks).

    An illegal action ends the game for everyone, with ``-1`` to the agent that made it
    (``TerminateIllegalWrapper``); use :class:`raw_env` to get a ``ValueError`` instead.
    """
    e: AECEnv[str, ObsDict, int] = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


def observation_space() -> gymnasium.spaces.Dict:
    return gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(0.0, OBS_HIGH, (OBS_SIZE,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        }
    )


class raw_env(AECEnv[str, ObsDict, int]):  # type: ignore[misc]  # PettingZoo's naming
    """The unwrapped AEC environment (see the module's docstring)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's class attribute
        "name": "civ_carta_v0",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        deal: str = "basic",
        teams: bool = False,
        render_mode: str | None = None,
        max_steps: int = 5000,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        new_game(players, deal=deal, teams=teams, seed=0)  # checks the configuration
        self.players = players
        self.deal = deal
        self.teams = teams
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        obs_space = observation_space()
        act_space = gymnasium.spaces.Discrete(NUM_ACTIONS)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, act_space)
        self._rng = random.Random()
        self.table: Table | None = None
        self.steps = 0

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        g = new_game(self.players, deal=self.deal, teams=self.teams, seed=self._rng.getrandbits(64))
        self.table = Table(g)
        self.steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        seat = self.table.to_move
        assert seat is not None
        self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> ObsDict:
        table = self.table
        assert table is not None, "reset() first"
        seat = self.agent_name_mapping[agent]
        if table.to_move == seat and not table.finished:
            mask = table.mask()
        else:
            mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        return {"observation": encode(table, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        assert table is not None and action is not None
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        table.apply(int(action))
        self.steps += 1
        if table.finished:
            for s, r in enumerate(rewards(table.g)):
                self.rewards[self.possible_agents[s]] = r
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            if self.steps >= self.max_steps:
                self.truncations = dict.fromkeys(self.agents, True)
            seat = table.to_move
            assert seat is not None
            self.agent_selection = self.possible_agents[seat]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The public position (no hidden card): printed (``human``) or returned (``ansi``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        assert self.table is not None
        text = describe(self.table, None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
