"""The figures of civ4's greedy views, shared by the views of one board (issue 40).

The search (:mod:`civcards.games.civ4.search`) builds many
:class:`~civcards.games.civ4.greedy_view.View` objects of one position: a macro's
steps, deals that show the seat the same position, a rival's turn in deals that differ
by its hand. A view's figures (its cards' values and costs, its targets, holds and
plans) are functions of what it is kept by here, so views of one board share them:
:class:`Board` (the options, weights, seat, round, technologies left, markets,
population supply, statuses, the seat's technologies and plots, every seat's culture,
happiness and score: :func:`context`), :class:`Figures` (a board and the seat's hand).
The rules read are the engine's (effects C52-C66, costs C26 and C50, room C18).
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import cache, lru_cache
from typing import Any

from ...civ4.cards import CARDS, RULES, CardSet, card_set_of
from ...civ4.effects import Fx, compute_effects
from ...civ4.observation import Observation, PlotView

#: the plots (C2) of every card set: a set whose plots differ from the original's is refused
#: (``civcards.civ4.cards.card_set``), so this table prices every game's plots right; the
#: rest of a set's numbers are read from the game's own set (``View.cs``)
PLOTS = CARDS.plots
#: each plot's produced types (C2), by code
PRODUCED = {code: p.produced for code, p in PLOTS.items()}
#: fixed by the rules' text in every set (C69; `civcards.civ4.cards._FIXED_RULES`)
STALEMATE: int = RULES["stalemate_rounds"]
#: techs bought per player and turn, to guess the turns left
TECH_PACE = 0.5


class SetTables:
    """What a view reads of one card set, by code (built once per set: a set is loaded
    once and compared by identity, :class:`~civcards.civ4.cards.CardSet`)."""

    __slots__ = ("discounts", "doubles", "free_tech")

    def __init__(self, cs: CardSet) -> None:
        #: the cards with an effect that doubles the base yield of their plot (C52)
        effects = {code: t.effects for code, t in cs.techs.items()}
        effects.update((code, d.effects) for code, d in cs.deck.items())
        self.doubles = frozenset(
            code for code, fx in effects.items() if any(e.kind == "double_base" for e in fx)
        )
        #: the cards with a discount (C52): their value counts the hand's buildings and wonders
        self.discounts = frozenset(
            code for code, fx in effects.items() if any(e.kind == "discount" for e in fx)
        )
        #: the deck cards with a free technology (a wonder, C62)
        self.free_tech = frozenset(
            code for code, d in cs.deck.items() if any(e.kind == "free_tech" for e in d.effects)
        )


@cache
def tables(cs: CardSet) -> SetTables:
    """The tables of one card set (built once)."""
    return SetTables(cs)



@lru_cache(maxsize=4096)
def fx_of(techs: tuple[str, ...], plots: tuple[PlotView, ...], cs: CardSet = CARDS) -> Fx:
    """The effects in play of a seat the bot sees (C52-C66, :func:`civcards.civ4.effects.compute_effects`)."""
    return compute_effects(techs, plots, cs)


class Target:
    """A purchase: its move text, resource type (-1: any mix, a plot), cost and value."""

    __slots__ = ("cost", "rtype", "text", "value")

    def __init__(self, text: str, rtype: int, cost: int, value: float) -> None:
        self.text = text
        self.rtype = rtype
        self.cost = cost
        self.value = value


#: a card's key in a board's figures: its code, its plot where that matters (a card that
#: doubles its plot's yield), and the hand's (buildings, wonders) where that matters (a
#: card with a discount)
CardKey = tuple[str, int | None, tuple[int, int] | None]


class Board:
    """The figures of the views that share one board (:func:`context` without the seat's
    hand), each worked out once: every one is a function of the board alone, or of the
    board and the key it is kept by (the supply, the history, the combat and the other
    hands are not read by any of them)."""

    __slots__ = (
        "best_other",
        "cost",
        "cs",
        "effects",
        "extra",
        "fx",
        "hnw",
        "hold",
        "plot_targets",
        "pop_targets",
        "same_type",
        "slots",
        "tech_targets",
        "techs_left",
        "turns",
    )

    def __init__(self, obs: Observation, seat: int) -> None:
        pv = obs.seats[seat]
        opts = dict(obs.options)
        #: the game's card set (its costs, effects and rule numbers)
        self.cs = cs = card_set_of(opts)
        self.fx = fx_of(pv.techs, pv.plots, cs)
        self.hnw = bool(opts.get("happiness_not_wonders", False))
        self.same_type = bool(opts.get("same_type_trade", False))
        self.techs_left = obs.tech_pile + len(obs.tech_market)
        left_rounds = STALEMATE - obs.round + 1
        self.turns = max(1.0, min(float(left_rounds), self.techs_left / (TECH_PACE * obs.players)))
        self.hold: dict[tuple[str, tuple[int, int] | None], float] = {}
        self.extra: dict[tuple[str, tuple[int, int] | None], float] = {}
        self.effects: dict[CardKey, float] = {}
        self.cost: dict[str, int] = {}
        self.slots: list[int] | None = None
        self.best_other: tuple[int, int] | None = None
        #: the view's targets that are the board's: population, plots, and technologies
        #: (by the hand's kinds where a technology in the market has a discount)
        self.pop_targets: list[Target] | None = None
        self.plot_targets: list[Target] | None = None
        self.tech_targets: dict[tuple[int, int] | None, list[Target]] = {}


class Figures:
    """The figures of the views that share one context (:func:`context`): a board's and
    those that depend on the seat's hand too."""

    __slots__ = ("attacks", "board", "cashable", "plans", "reserve", "targets")

    def __init__(self, board: Board) -> None:
        self.board = board
        #: :meth:`~civcards.games.civ4.greedy_view.View.attack_plan` by what it reads beside
        #: the board and the hand (the discard, the combat, every seat's plots, technologies
        #: and hand size)
        self.attacks: dict[Hashable, Any] = {}
        self.reserve: list[int] | None = None
        #: the hand in the order :meth:`~civcards.games.civ4.greedy_view.View.fund` cashes
        #: it: (code, resources, their sum, the resources lost beyond them, the move)
        self.cashable: list[tuple[str, tuple[int, int, int], int, float, str]] | None = None
        self.targets: dict[str | None, list[Target]] = {}
        #: :meth:`~civcards.games.civ4.greedy_view.View.plan` by the supply and the resource types given this turn
        self.plans: dict[tuple[tuple[int, ...], frozenset[int]], tuple[Target, str] | None] = {}


def context(obs: Observation, seat: int, weights: Hashable) -> tuple[Hashable, ...]:
    """What a view's board (:class:`Board`) depends on: the options (the card set),
    the weights, the seat, the round and the technologies left (the turns left), the
    markets, the population supply, the statuses, the seat's technologies and plots, and
    every seat's culture, happiness and score; its figures (:class:`Figures`) depend on
    these and the seat's hand."""
    pv = obs.seats[seat]
    return (
        obs.options,
        weights,
        seat,
        obs.round,
        obs.tech_pile,
        obs.tech_market,
        obs.plot_market,
        obs.population_supply,
        obs.status,
        pv.techs,
        pv.plots,
        tuple([(p.culture, p.happiness, p.score) for p in obs.seats]),
    )


#: boards by context, and figures by context and hand, shared by the views of one board
#: (the search builds many views of one position: a rival's or a macro's steps, deals
#: that show the seat the same, a rival's turn in deals that differ by its hand)
_BOARDS: dict[Hashable, Board] = {}
_FIGURES: dict[Hashable, Figures] = {}
#: the most boards, and figures, kept (all are dropped when it is reached)
_FIGURES_MAX = 4096


def figures(obs: Observation, seat: int, weights: Hashable) -> Figures:
    """The figures of ``seat``'s view of ``obs`` with ``weights`` (shared, made if new)."""
    bkey = context(obs, seat, weights)
    key = (bkey, obs.seats[seat].hand)
    fig = _FIGURES.get(key)
    if fig is None:
        board = _BOARDS.get(bkey)
        if board is None:
            if len(_BOARDS) >= _FIGURES_MAX:
                _BOARDS.clear()
            board = _BOARDS[bkey] = Board(obs, seat)
        if len(_FIGURES) >= _FIGURES_MAX:
            _FIGURES.clear()
        fig = _FIGURES[key] = Figures(board)
    return fig


def clear_figures() -> None:
    """Drop every view's figures kept so far (they are worked out again when asked)."""
    _BOARDS.clear()
    _FIGURES.clear()


__all__ = [
    "PLOTS",
    "PRODUCED",
    "STALEMATE",
    "TECH_PACE",
    "Board",
    "CardKey",
    "Figures",
    "SetTables",
    "Target",
    "clear_figures",
    "context",
    "figures",
    "fx_of",
    "tables",
]
