"""Research interfaces for CIV: PettingZoo, Gymnasium and OpenSpiel (optional extra).

Install with ``pip install civcards[research]``. Nothing in the core package
imports this one.

* :mod:`civcards.envs.carta_v0` — the PettingZoo AEC environment
  (``carta_v0.env(players=2, deal="basic", teams=False)``);
* :func:`single_agent` — a Gymnasium environment: one seat against bots
  (importing this package registers it as ``gymnasium.make("civcards/Carta-v0")``);
* :mod:`civcards.envs.openspiel_game` — the OpenSpiel game ``python_civ_carta``
  (importing it registers the game with ``pyspiel``);
* :mod:`civcards.envs.encoding` — the fixed action space and the observation
  vector they all share (docs/research.md has the tables).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .single import CivSingleAgentEnv


def single_agent(
    opponents: list[str] | tuple[str, ...] = ("greedy",), **kwargs: Any
) -> CivSingleAgentEnv:
    """A Gymnasium environment where the agent plays one seat against ``opponents`` (bot names).

    See :class:`civcards.envs.single.CivSingleAgentEnv` for the other arguments
    (``seat``, ``deal``, ``teams``, ``illegal_reward``...).
    """
    from .single import CivSingleAgentEnv

    return CivSingleAgentEnv(opponents=list(opponents), **kwargs)


def _register() -> None:
    """Register ``civcards/Carta-v0`` with Gymnasium (once; the module loads lazily)."""
    try:
        import gymnasium
    except ImportError:  # pragma: no cover - the research extra is not installed
        return
    if "civcards/Carta-v0" not in gymnasium.registry:
        gymnasium.register(
            id="civcards/Carta-v0", entry_point="civcards.envs.single:CivSingleAgentEnv"
        )


_register()

__all__ = ["single_agent"]
