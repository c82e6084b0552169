"""Any game with an encoding as a PettingZoo AEC environment.

>>> from civcards.envs.aec import env
>>> e = env(game="carta", players=3)
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs)
['action_mask', 'observation']

Agents are ``player_0`` … ``player_{n-1}`` (the seats). Each observation is a
dict: ``observation``, the seat's tensor (what the game's rules let it know),
and ``action_mask`` (int8, 1 for each legal action of the agent to move, all 0
for the others). Actions are indices of the game's encoding; a move may take
several actions of the same agent. Rewards come at the end (the game's
encoding says how: CIV gives +1 shared among the winning sides). A game longer
than ``max_steps`` actions is truncated. The game's set-up options are keyword
arguments (CIV: ``deal``, ``teams``).
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..game_api import DEFAULT_GAME, Game, get_game
from .protocol import ActionTable, Encoding, encoding_of

ObsDict = dict[str, npt.NDArray[Any]]


def observation_space(enc: Encoding) -> gymnasium.spaces.Dict:
    return gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(
                0.0, enc.observation_high, enc.observation_shape, np.float32
            ),
            "action_mask": gymnasium.spaces.Box(0, 1, (enc.action_size,), np.int8),
        }
    )


def wrap(e: AECEnv[str, ObsDict, int]) -> AECEnv[str, ObsDict, int]:
    """PettingZoo's usual wrappers: an illegal action ends the game with -1 to its agent
    (``TerminateIllegalWrapper``), out-of-bounds and order checks."""
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


def env(**kwargs: Any) -> AECEnv[str, ObsDict, int]:
    """The environment of ``game`` (a registry name, default the default game) with
    PettingZoo's usual wrappers; :class:`GameAECEnv` gives a ``ValueError`` instead
    of ending the game on an illegal action."""
    return wrap(GameAECEnv(**kwargs))


class GameAECEnv(AECEnv[str, ObsDict, int]):  # type: ignore[misc]
    """The unwrapped AEC environment of one game (see the module's docstring)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's class attribute
        "name": "civcards_v0",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str | Game = DEFAULT_GAME,
        players: int = 2,
        render_mode: str | None = None,
        max_steps: int = 5000,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.game = get_game(game) if isinstance(game, str) else game
        self.encoding = encoding_of(self.game)
        self.options = self.game.check_options(players, options)
        self.metadata = {**self.metadata, "name": self._name()}
        self.players = players
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        obs_space = observation_space(self.encoding)
        act_space = gymnasium.spaces.Discrete(self.encoding.action_size)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, act_space)
        self._rng = random.Random()
        self.table: Any = None
        self.steps = 0

    def _name(self) -> str:
        return str(getattr(self.encoding, "pettingzoo_name", f"civcards_{self.game.name}_v0"))

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        state = self.game.new_state(self.players, self.options, self._rng.getrandbits(64))
        self.table = self.encoding.table(state)
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
        table: ActionTable | None = self.table
        assert table is not None, "reset() first"
        seat = self.agent_name_mapping[agent]
        if table.to_move == seat and not table.finished:
            mask = table.mask()
        else:
            mask = np.zeros(self.encoding.action_size, dtype=np.int8)
        return {"observation": table.encode(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table: ActionTable | None = self.table
        assert table is not None and action is not None
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        table.apply(int(action))
        self.steps += 1
        if table.finished:
            for s, r in enumerate(table.rewards()):
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
        text: str = self.table.describe(None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
