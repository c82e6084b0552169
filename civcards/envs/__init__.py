"""Research interfaces for any game with an encoding: PettingZoo, Gymnasium and OpenSpiel
(optional extra).

Install with ``pip install civcards[research]``. Nothing in the core package
imports this one. A game offers its action space and observation tensor
through ``Game.encoding()`` (:class:`civcards.envs.protocol.Encoding`); the
shells here are generic over it:

* :mod:`civcards.envs.aec` — the PettingZoo AEC environment
  (``aec.env(game=NAME, players=2, **options)``);
* :func:`single_agent` — a Gymnasium environment: one seat against bots
  (importing this package registers ``gymnasium.make("civcards/Game-v0", game=NAME)``);
* :mod:`civcards.envs.openspiel_game` — OpenSpiel games (``register(game)``).

Each built-in game has its own names as thin aliases: CIV
:mod:`civcards.envs.carta_v0`, ``gymnasium.make("civcards/Carta-v0")`` and the
OpenSpiel game ``python_civ_carta``; Civilization: The Card Game
:mod:`civcards.envs.civ4_v0`, ``gymnasium.make("civcards/Civ4-v0")`` and
``python_civ4`` (docs/research.md has the tables).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..game_api import DEFAULT_GAME

if TYPE_CHECKING:
    from .single import SingleAgentEnv


def single_agent(
    opponents: list[str] | tuple[str, ...] = ("greedy",), game: str = DEFAULT_GAME, **kwargs: Any
) -> SingleAgentEnv:
    """A Gymnasium environment where the agent plays one seat of ``game`` against
    ``opponents`` (bot names).

    See :class:`civcards.envs.single.SingleAgentEnv` for the other arguments
    (``seat``, ``illegal_reward``..., and the game's options such as CIV's
    ``deal`` and ``teams``).
    """
    from .single import SingleAgentEnv

    return SingleAgentEnv(opponents=list(opponents), game=game, **kwargs)


def _register() -> None:
    """Register the Gymnasium ids (once; the modules load lazily): the generic one, and
    each built-in game's own id where its encoding names one (``gymnasium_id``)."""
    try:
        import gymnasium
    except ImportError:  # pragma: no cover - the research extra is not installed
        return
    entry = "civcards.envs.single:SingleAgentEnv"
    if "civcards/Game-v0" not in gymnasium.registry:
        gymnasium.register(id="civcards/Game-v0", entry_point=entry)
    from ..game_api import all_games

    for game in all_games():
        get = getattr(game, "encoding", None)
        enc = get() if get is not None else None
        env_id = getattr(enc, "gymnasium_id", None)
        if env_id and env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=entry, kwargs={"game": game.name})


_register()

__all__ = ["single_agent"]
