"""Civilization: The Card Game as a PettingZoo AEC environment: ``civcards.envs.civ4_v0``.

>>> from civcards.envs import civ4_v0
>>> env = civ4_v0.env(players=3)
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> sorted(obs)
['action_mask', 'observation']

A thin alias: the generic environment (:mod:`civcards.envs.aec`) with the game
fixed to ``civ4`` and its variants as keyword arguments (``finish_round``,
``hand_limit``, …). Actions are the tokens of civ4's encoding (a move is
spelled over one or more actions of the same agent; docs/research.md).
Rewards: +1 shared equally among the winners, 0 otherwise.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from .aec import GameAECEnv, ObsDict, wrap

GAME = "civ4"


def env(**kwargs: Any) -> AECEnv[str, ObsDict, int]:
    """The environment with PettingZoo's usual wrappers (see :func:`civcards.envs.aec.env`)."""
    return wrap(raw_env(**kwargs))


class raw_env(GameAECEnv):  # PettingZoo's naming
    """The unwrapped AEC environment of civ4."""

    def __init__(
        self,
        players: int = 2,
        render_mode: str | None = None,
        max_steps: int = 20000,
        **options: Any,
    ) -> None:
        super().__init__(GAME, players, render_mode=render_mode, max_steps=max_steps, **options)


def single_agent_env(**kwargs: Any) -> Any:
    """The Gymnasium environment of civ4 (``gymnasium.make("civcards/Civ4-v0")``)."""
    from .single import SingleAgentEnv

    return SingleAgentEnv(game=GAME, **kwargs)


__all__ = ["GAME", "env", "raw_env", "single_agent_env"]
