"""CIV: Carta Impera Victoria behind the one game interface (:mod:`civcards.game_api`).

The rules engine is :mod:`civcards.carta` (standard library only); this package
registers it as ``carta`` and holds what the layers above need of CIV.

>>> from civcards.game_api import get_game
>>> game = get_game("carta")
>>> s = game.new_state(2, game.check_options(2, {}), seed=3)
>>> game.play(s, game.legal(s)[0])
'play C'
"""

from __future__ import annotations

from .game import GAME, CartaGame

__all__ = ["GAME", "CartaGame"]

# mypy checks here that the registration satisfies the whole interface
from ...game_api import Game as _Game

_CONFORMS: _Game = GAME
