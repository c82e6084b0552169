"""CIV as a PettingZoo AEC environment: ``civcards.envs.carta_v0`` (a thin alias).

>>> from civcards.envs import carta_v0
>>> env = carta_v0.env(players=3)
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> sorted(obs)
['action_mask', 'observation']

The generic environment (:mod:`civcards.envs.aec`) with the game fixed to CIV
and its options as before: ``players``, ``deal`` (``"basic"``/``"draft"``),
``teams``. Actions are indices of CIV's encoding
(:data:`civcards.games.carta.encoding.ACTIONS`); Discovery and Inquisition
take two or more steps of the same agent (a ``?`` prefix, then ``pick``
actions). Rewards: +1 shared equally among the winning sides (a seat, or a
team in the team game, whose members each get the team's share), 0 otherwise.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from .aec import GameAECEnv, ObsDict, wrap

GAME = "carta"


def env(**kwargs: Any) -> AECEnv[str, ObsDict, int]:
    """The environment with PettingZoo's usual wrappers (see :func:`civcards.envs.aec.env`)."""
    return wrap(raw_env(**kwargs))


class raw_env(GameAECEnv):  # PettingZoo's naming
    """The unwrapped AEC environment of CIV."""

    def __init__(
        self,
        players: int = 2,
        deal: str = "basic",
        teams: bool = False,
        render_mode: str | None = None,
        max_steps: int = 5000,
    ) -> None:
        super().__init__(
            GAME, players, render_mode=render_mode, max_steps=max_steps, deal=deal, teams=teams
        )


def single_agent_env(**kwargs: Any) -> Any:
    """The Gymnasium environment of CIV (``gymnasium.make("civcards/Carta-v0")``)."""
    from .single import SingleAgentEnv

    return SingleAgentEnv(game=GAME, **kwargs)


__all__ = ["GAME", "env", "raw_env", "single_agent_env"]
