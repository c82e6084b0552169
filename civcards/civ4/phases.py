"""What every room of the engine shares: the steps of a game, the rules' numbers of the
original card set, the record of a combat, and the error of an illegal move.

The rooms (``civcards.civ4``): :mod:`.effects` (effects in play and costs),
:mod:`.state` (the position), :mod:`.legal` (legal-move listing), :mod:`.checks`
(one sentence per illegal move), :mod:`.execute` (applying a move), :mod:`.setup`
(dealing a game); :mod:`.game` gathers them into :class:`~civcards.civ4.game.GameState`.
"""

from __future__ import annotations

from typing import Any, Final

from .cards import RULES
from .moves import Move

__all__ = ["Combat", "IllegalMoveError"]

# the steps of a game (NOTATION.md), the value of ``GameState.step``
DRAFT: Final = "draft"
SETTLE: Final = "settle"
START_DISCARD: Final = "start_discard"
COLLECT: Final = "collect"
PURCHASE: Final = "purchase"
WALLS: Final = "walls"
DEFEND: Final = "defend"
DAMAGE: Final = "damage"
PLACE: Final = "place"
DISCARD: Final = "discard"
OVER: Final = "over"

# the numbers of the rules (the original card set's; a game reads its own set's from ``GameState.cs``)
PLOT_COST_BASE: Final[int] = RULES["plot_cost_base"]
PLOT_COST_STEP: Final[int] = RULES["plot_cost_step"]
PLOT_COST_PIVOT: Final[int] = RULES["plot_cost_pivot"]
POP_COST_BASE: Final[int] = RULES["population_cost_base"]
POP_COST_STEP: Final[int] = RULES["population_cost_step"]
MIN_COST: Final[int] = RULES["min_cost"]
TRADE_RATE: Final[int] = RULES["trade_rate"]
DRAW: Final[int] = RULES["draw"]
DISCARD_N: Final[int] = RULES["discard"]
CULTURE_MIN: Final[int] = RULES["culture_minimum"]
HAPPY_MIN: Final[int] = RULES["happiness_minimum"]
HAPPY_DISCOUNT: Final[int] = RULES["happiness_discount"]
MAX_SLOTS: Final[int] = RULES["max_slots"]
POP_TWO_SLOTS: Final[int] = RULES["population_for_two_slots"]
STALEMATE: Final[int] = RULES["stalemate_rounds"]
START_PLOTS: Final[int] = RULES["start_plots_random"]
MARKET_PLOTS: Final[int] = RULES["market_plots"]
MARKET_TECHS: Final[int] = RULES["market_techs"]
START_HAND: Final[list[int]] = RULES["starting_hand"]
START_DISCARD_N: Final[int] = RULES["starting_discard"]
TECHS_PER_ERA: Final[dict[str, int]] = RULES["techs_per_era"]


class IllegalMoveError(ValueError):
    """A move that the rules do not allow now (one sentence naming the rule); the state is unchanged."""

    def __init__(self, move: Move | str, reason: str) -> None:
        self.move = move
        self.reason = reason
        super().__init__(reason)


class Combat:
    """The state of one combat (C39-C46). ``units`` are ``[code, defender, state]``."""

    __slots__ = ("attacker", "blocks", "defenders", "idx", "stage", "stolen", "units")

    def __init__(self, attacker: int, defenders: list[int], units: list[list[Any]]) -> None:
        self.attacker = attacker
        self.defenders = defenders
        self.units = units
        self.blocks: list[tuple[int, str, str]] = []
        self.stolen = 0
        self.stage = WALLS
        self.idx = 0

    def copy(self) -> Combat:
        c = Combat(self.attacker, self.defenders, [list(u) for u in self.units])
        c.blocks = list(self.blocks)
        c.stolen = self.stolen
        c.stage = self.stage
        c.idx = self.idx
        return c

    def assigned(self, d: int) -> list[str]:
        """Codes of the units still assigned to defender ``d``, sorted."""
        return sorted(u[0] for u in self.units if u[1] == d and u[2] == "assigned")

    @property
    def defender(self) -> int:
        """The defender whose decision is at hand (C42-C45)."""
        return self.defenders[self.idx]
