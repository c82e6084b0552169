"""Civilization: The Card Game behind the one game interface (:mod:`civcards.game_api`).

The rules engine is :mod:`civcards.civ4` (standard library only); this package
registers it as ``civ4``. Its card set is a reconstruction: the original card
list was never published.

>>> from civcards.game_api import get_game
>>> game = get_game("civ4")
>>> s = game.new_state(2, game.check_options(2, {}), seed=2006)
>>> game.legal(s)[:2]
['pick FLD', 'pick GRS']
"""

from __future__ import annotations

from .game import GAME, Civ4Game

__all__ = ["GAME", "Civ4Game"]

# mypy checks here that the registration satisfies the whole interface
from ...game_api import Game as _Game

_CONFORMS: _Game = GAME
