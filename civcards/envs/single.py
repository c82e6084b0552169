"""One seat of any game with an encoding against bots, as a Gymnasium environment.

>>> from civcards.envs import single_agent
>>> env = single_agent(opponents=["random"], seat=0)
>>> obs, info = env.reset(seed=3)
>>> int(obs["action_mask"].sum()) == len(info["legal_actions"])
True

The observation and the actions are those of :mod:`civcards.envs.aec` (a
dict with ``observation`` and ``action_mask``). The opponents are bots of
:mod:`civcards.bots` for that game (names such as ``"greedy"`` or
``"random"``, or :class:`~civcards.bots.Bot` instances); they play from their
own seats' observations. The reward is the agent's reward at the end (CIV:
its share of the victory), else 0. An illegal action ends the episode with
``illegal_reward`` (default -1) and ``info["illegal_action"]``;
:meth:`action_masks` gives the mask for maskable algorithms. The game's set-up
options are keyword arguments (CIV: ``deal``, ``teams``).
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from ..bots import Bot, bot_move, make_bot
from ..game_api import DEFAULT_GAME, Game, get_game
from .aec import ObsDict, observation_space
from .protocol import encoding_of


class SingleAgentEnv(gymnasium.Env[ObsDict, np.int64]):
    """The agent plays seat ``seat`` (or a random seat each episode with ``seat=None``)."""

    metadata = {"render_modes": ["human", "ansi"]}  # noqa: RUF012 - Gymnasium's class attribute

    def __init__(
        self,
        opponents: list[str | Bot] | None = None,
        seat: int | None = 0,
        illegal_reward: float = -1.0,
        max_steps: int = 5000,
        render_mode: str | None = None,
        game: str | Game = DEFAULT_GAME,
        **options: Any,
    ) -> None:
        self.game = get_game(game) if isinstance(game, str) else game
        self.encoding = encoding_of(self.game)
        opponents = list(opponents) if opponents is not None else ["greedy"]
        self.players = len(opponents) + 1
        self.options = self.game.check_options(self.players, options)
        if seat is not None and not 0 <= seat < self.players:
            raise ValueError(f"seat must be from 0 to {self.players - 1}, not {seat!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.opponent_specs = opponents
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.illegal_reward = illegal_reward
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.observation_space = observation_space(self.encoding)  # type: ignore[assignment]
        self.action_space = gymnasium.spaces.Discrete(self.encoding.action_size)
        self._rng = random.Random()
        self.table: Any = None
        self.bots: dict[int, Bot] = {}
        self.steps = 0

    # -- helpers ----------------------------------------------------------------

    def _obs(self) -> ObsDict:
        assert self.table is not None
        return {"observation": self.table.encode(self.seat), "action_mask": self.action_masks()}

    def _info(self, **extra: Any) -> dict[str, Any]:
        t = self.table
        assert t is not None
        legal = t.legal_actions() if t.to_move == self.seat else []
        return {"legal_actions": list(legal), "seat": self.seat, **extra}

    def _play_opponents(self) -> None:
        t = self.table
        assert t is not None
        while not t.finished and t.to_move != self.seat:
            s = t.to_move
            assert s is not None
            t.apply_move(bot_move(self.bots[s], self.game, t.state))

    def action_masks(self) -> npt.NDArray[np.int8]:
        """1 for each legal action of the agent now (all 0 once the episode is over)."""
        t = self.table
        assert t is not None
        if t.finished or t.to_move != self.seat:
            return np.zeros(self.encoding.action_size, dtype=np.int8)
        mask: npt.NDArray[np.int8] = t.mask()
        return mask

    # -- Gymnasium API ------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        if self.fixed_seat is None:
            self.seat = self._rng.randrange(self.players)
        state = self.game.new_state(self.players, self.options, self._rng.getrandbits(64))
        self.table = self.encoding.table(state)
        self.steps = 0
        self.bots = {}
        specs = iter(self.opponent_specs)
        for s in range(self.players):
            if s != self.seat:
                spec = next(specs)
                self.bots[s] = (
                    make_bot(self.game, spec, self._rng.getrandbits(32))
                    if isinstance(spec, str)
                    else spec
                )
        self._play_opponents()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        t = self.table
        assert t is not None, "reset() first"
        if t.finished:
            raise RuntimeError("the episode is over: call reset()")
        a = int(action)
        if not (0 <= a < self.encoding.action_size and t.is_legal(a)):
            obs = self._obs()
            obs["action_mask"] = np.zeros(self.encoding.action_size, dtype=np.int8)
            return obs, self.illegal_reward, True, False, self._info(illegal_action=True)
        t.apply_unchecked(a)
        self.steps += 1
        self._play_opponents()
        reward = 0.0
        terminated = bool(t.finished)
        if terminated:
            reward = t.rewards()[self.seat]
        truncated = not terminated and self.steps >= self.max_steps
        info = self._info()
        if terminated:
            result = self.game.result(t.state)
            assert result is not None
            info["winners"] = list(result.winners)
            info["victory"] = result.reason
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, terminated, truncated, info

    def render(self) -> str | None:
        """What the agent's seat sees (never an opponent's hand)."""
        if self.render_mode is None or self.table is None:
            return None
        text: str = self.table.describe(self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text


#: the id under which importing :mod:`civcards.envs` registers the generic environment
#: (``gymnasium.make(ENV_ID, game=NAME, opponents=[...])``)
ENV_ID = "civcards/Game-v0"
