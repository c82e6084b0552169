"""Effects in play and costs: each rule once, for the engine, the choices and the bots.

Pure functions of the card data (:mod:`civcards.civ4.cards`) and of what is in
play, so that a bot that sees only an observation prices a purchase with the
same code as the engine that checks it:

* :func:`compute_effects` sums a seat's cards in play (C49, C50, C52-C66) into
  an :class:`Fx`; :func:`effects_plus` adds one card;
* :func:`pop_cost`, :func:`plot_cost` and :func:`card_cost` are the costs (C26,
  with the Highest Happiness discount of C50), :func:`pop_budget` and
  :func:`card_budget` the same rules read backwards (what a budget affords); :func:`slots` is a plot's room
  (C18); :func:`plot_yield` a plot's yield (C23, C53);
* :func:`adjacent` names the opponents a seat may attack (C40), :func:`can_block`
  and :func:`unit_damage` read a unit's profile with its bonuses (C43, C45, C66),
  :func:`discard_count` the discard after the Draw step (C37).

>>> fx = compute_effects((), [("GRS", 1, ())])
>>> fx.rate, fx.slots, pop_cost(CARDS, 1, fx), plot_cost(CARDS, 2, fx)
(3, 1, 8, 5)
>>> adjacent(0, 4)
[1, 3]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .cards import CARDS, CardSet, DeckCard, Res, TechCard
from .phases import DISCARD_N

__all__ = [
    "KIND_TARGET",
    "Fx",
    "adjacent",
    "can_block",
    "card_budget",
    "card_cost",
    "compute_effects",
    "discard_count",
    "effects_plus",
    "effects_with",
    "free_population",
    "free_techs",
    "plot_cost",
    "plot_yield",
    "pop_budget",
    "pop_cost",
    "slots",
    "unit_damage",
]

#: the discount target (C55) of each kind of card bought with a cost
KIND_TARGET: dict[str, str] = {"tech": "tech", "building": "building", "wonder": "wonder"}

#: a plot in play: ``(code, population, cards on it)``
Plot = tuple[str, int, tuple[str, ...]]

_YIELDS = {c: p.yields for c, p in CARDS.plots.items()}


@dataclass(frozen=True, slots=True)
class Fx:
    """The sum of a player's effects in play (C52-C66), culture and happiness (C49, C50).

    ``unit_bonus`` maps a unit to ``(the attackers it may also block, + steal, + destroy)``
    (C66); ``steal_card`` and ``steal_res`` map the card of an activated ability to its
    amount (C63, C64)."""

    culture: int
    happiness: int
    disc: Mapping[str, int]
    rate: int
    extra_draw: int
    slots: int
    income: Res
    boost: Res
    unit_bonus: Mapping[str, tuple[frozenset[str], int, int]]
    steal_card: Mapping[str, int]
    steal_res: Mapping[str, int]
    wonders: int


def compute_effects(techs: Sequence[str], plots: Sequence[Plot], cs: CardSet = CARDS) -> Fx:
    """The effects of the technologies ``techs`` and of the cards on ``plots`` (card set ``cs``)."""
    deck = cs.deck
    cards: list[TechCard | DeckCard] = [cs.techs[t] for t in techs]
    wonders = 0
    for _, _, on in plots:
        for c in on:
            cards.append(deck[c])
            if deck[c].kind == "wonder":
                wonders += 1
    return effects_with(None, cards, wonders, cs)


def effects_plus(fx: Fx, card: TechCard | DeckCard, cs: CardSet = CARDS) -> Fx:
    """``fx`` with one more card in play: every effect adds up in any order (sums,
    the lowest rate, the most slots, merged unit bonuses), so this equals recomputing."""
    return effects_with(fx, [card], 1 if card.kind == "wonder" else 0, cs)


def effects_with(
    start: Fx | None, cards: list[TechCard | DeckCard], wonders: int, cs: CardSet = CARDS
) -> Fx:
    """The effects of ``start`` (None: no card) plus those of ``cards`` (``wonders`` of them
    wonders), with the trade rate (C28) and slot limit (C18) of card set ``cs``."""
    if start is None:
        culture = happiness = 0
        disc = {"population": 0, "plot": 0, "tech": 0, "building": 0, "wonder": 0}
        rate = cs.trade_rate
        extra = 0
        room = 1
        income = [0, 0, 0]
        boost = [0, 0, 0]
        ub: dict[str, tuple[frozenset[str], int, int]] = {}
        sc: dict[str, int] = {}
        sr: dict[str, int] = {}
    else:
        culture, happiness = start.culture, start.happiness
        disc = dict(start.disc)
        rate = start.rate
        extra = start.extra_draw
        room = start.slots
        income = list(start.income)
        boost = list(start.boost)
        ub = dict(start.unit_bonus)
        sc = dict(start.steal_card)
        sr = dict(start.steal_res)
        wonders += start.wonders
    for card in cards:
        culture += card.culture
        happiness += card.happiness
        for e in card.effects:
            k = e.kind
            if k == "discount":
                disc[e.target] += e.amount
            elif k == "exchange_rate":
                rate = min(rate, e.rate)
            elif k == "extra_draw":
                extra += e.amount
            elif k == "building_slots":
                room = max(room, e.slots)
            elif k == "income":
                for i in range(3):
                    income[i] += e.resources[i]
            elif k == "boost_producing":
                boost[e.resource] += e.amount
            elif k == "unit_bonus":
                old = ub.get(e.unit, (frozenset(), 0, 0))
                ub[e.unit] = (old[0] | frozenset(e.blocks_add), old[1] + e.steal_add, old[2] + e.destroy_add)
            elif k == "steal_card":
                sc[card.code] = e.amount
            elif k == "steal_resources":
                sr[card.code] = e.amount
    return Fx(
        culture,
        happiness,
        disc,
        rate,
        extra,
        min(room, cs.max_slots),
        (income[0], income[1], income[2]),
        (boost[0], boost[1], boost[2]),
        ub,
        sc,
        sr,
        wonders,
    )


# ---------------------------------------------------------------------------
# Costs (C26) and room (C18)


def pop_cost(cs: CardSet, pop: int, fx: Fx) -> int:
    """C26: the cost in food of one more population on a plot holding ``pop``."""
    c = cs.pop_cost_base + cs.pop_cost_step * pop - fx.disc["population"]
    return c if c > cs.min_cost else cs.min_cost


def plot_cost(cs: CardSet, plots: int, fx: Fx) -> int:
    """C26: the cost of a plot for an empire of ``plots`` plots."""
    c = cs.plot_cost_base + cs.plot_cost_step * (plots - cs.plot_cost_pivot) - fx.disc["plot"]
    return c if c > cs.min_cost else cs.min_cost


def card_cost(cs: CardSet, code: str, fx: Fx, happiest: bool, happiness_not_wonders: bool = False) -> int:
    """C26, C50: the cost of a technology, building or wonder; ``happiest``: the buyer holds
    Highest Happiness (no discount on a wonder under the ``happiness_not_wonders`` variant)."""
    card: TechCard | DeckCard = cs.techs[code] if code in cs.techs else cs.deck[code]
    c = card.cost - fx.disc[KIND_TARGET[card.kind]]
    if happiest and not (card.kind == "wonder" and happiness_not_wonders):
        c -= cs.happiness_discount
    return c if c > cs.min_cost else cs.min_cost


def pop_budget(cs: CardSet, fx: Fx, food: int) -> int:
    """C26 read backwards: the most population a plot may hold for one more to cost at most
    ``food`` (-1: none), so ``pop_cost(cs, pop, fx) <= food`` exactly when ``pop <= pop_budget``."""
    if food < cs.min_cost:
        return -1
    return (food - cs.pop_cost_base + fx.disc["population"]) // cs.pop_cost_step


def card_budget(
    cs: CardSet, fx: Fx, kind: str, budget: int, happiest: bool, happiness_not_wonders: bool = False
) -> int:
    """C26, C50 read backwards: the highest printed cost of a card of ``kind`` (``tech``,
    ``building``, ``wonder``) that costs at most ``budget`` (-1: none), so that
    ``card_cost(...) <= budget`` exactly when its printed cost is at most this."""
    if budget < cs.min_cost:
        return -1
    b = budget + fx.disc[KIND_TARGET[kind]]
    if happiest and not (kind == "wonder" and happiness_not_wonders):
        b += cs.happiness_discount
    return b


def slots(cs: CardSet, pop: int, fx: Fx) -> int:
    """C18: how many buildings and wonders a plot holding ``pop`` population may hold."""
    s = fx.slots
    if pop >= cs.pop_two_slots and s < 2:
        s = 2
    return min(max(s, 1), cs.max_slots)


@lru_cache(maxsize=4096)
def plot_yield(code: str, on: tuple[str, ...], cs: CardSet = CARDS) -> Res:
    """C23, C53: a plot's printed yield, each type doubled by a ``double_base`` card on it."""
    y = _YIELDS[code]
    doubled = [False, False, False]
    deck = cs.deck
    for c in on:
        for e in deck[c].effects:
            if e.kind == "double_base":
                doubled[e.resource] = True
    return (y[0] * (2 if doubled[0] else 1), y[1] * (2 if doubled[1] else 1), y[2] * (2 if doubled[2] else 1))


def free_population(cs: CardSet, code: str) -> int:
    """C61: the free population a building or wonder places when built."""
    return sum(e.amount for e in cs.deck[code].effects if e.kind == "free_population")


def free_techs(cs: CardSet, code: str) -> int:
    """C62: the free technologies a building or wonder takes when built."""
    return sum(e.amount for e in cs.deck[code].effects if e.kind == "free_tech")


def can_block(cs: CardSet, fx: Fx, blocker: str, attacker: str) -> bool:
    """C43, C66: whether a unit ``blocker`` of a player with effects ``fx`` may block ``attacker``."""
    card = cs.deck[blocker]
    if not card.defend:
        return False
    if attacker in card.blocks:
        return True
    ub = fx.unit_bonus.get(blocker)
    return ub is not None and attacker in ub[0]


def unit_damage(cs: CardSet, fx: Fx, unit: str) -> tuple[int, int]:
    """C45, C66: the population a unit steals and the buildings it destroys, for an
    attacker with effects ``fx``."""
    card = cs.deck[unit]
    b = fx.unit_bonus.get(unit)
    if b is None:
        return card.steal, card.destroy
    return card.steal + b[1], card.destroy + b[2]


def discard_count(hand: int, culture_holder: bool, hand_limit: int | None) -> int:
    """C37 (with C49 and the ``hand_limit`` variant): how many cards a player holding ``hand``
    cards after the Draw step discards."""
    k = DISCARD_N + (1 if culture_holder else 0)
    if hand <= k:
        return hand
    if hand_limit is not None:
        return max(k, hand - hand_limit)
    return k


def adjacent(seat: int, players: int) -> list[int]:
    """C40: the adjacent opponents of ``seat``, ascending."""
    if players == 2:
        return [1 - seat]
    return sorted({(seat + 1) % players, (seat - 1) % players})
