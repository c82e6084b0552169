"""What civ4's ``greedy`` bot sees of one decision: costs, values and plans (:class:`View`).

Its rules come from the engine's public functions (:mod:`civcards.civ4.effects`:
effects in play C52-C66, costs C26 and C50, room C18, units C43-C45, C66,
adjacency C40); the values in victory points are the bot's own (module
:mod:`civcards.games.civ4.greedy` describes them).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...civ4.effects import (
    adjacent,
    can_block,
    card_cost,
    plot_cost,
    pop_cost,
    slots,
    unit_damage,
)
from ...civ4.moves import parse_move
from ...civ4.observation import Observation
from .greedy_figures import (
    PLOTS,
    PRODUCED,
    STALEMATE,
    TECH_PACE,
    Target,
    clear_figures,
    figures,
    fx_of,
    tables,
)

#: VP one resource is worth (a population costs 6-10 F, a technology 6-17 C)
VPR = 0.11
#: VP a unit is worth in hand (attack and defence), beside its cash value
UNIT_HOLD = {"ARC": 0.35, "SPR": 0.45, "AXE": 0.5, "CHR": 0.45, "SWD": 0.55, "CAT": 0.4}
#: VP of destroying one of a rival's buildings (it returns to their hand)
DESTROY_VP = 0.45


@dataclass(frozen=True)
class Weights:
    """How much one goal weighs in the greedy evaluation (1.0 everywhere: ``greedy``).

    The archetype bots of the balance study (``population``, ``techrush``,
    ``wonders``, ``military``, ``culture``; :data:`ARCHETYPES`) are ``greedy``
    with one goal weighted up: a target's value is multiplied by the weight of
    its kind; ``status`` also adds 0.1 VP a culture or happiness icon for each
    point above 1; ``attack`` multiplies an attack's expected gain (and values
    the unit-bonus technologies more); ``units`` multiplies the value of a unit
    held in hand (so it is kept for combat rather than cashed).

    ``shun`` names technologies the bot never buys nor takes free from a wonder,
    unless the one it would buy is the last technology left (C68: else the game
    could not end). ``greedy:not=WRI`` is greedy without Writing: the bot that
    Q10 of the balance study sets against ``greedy``.
    """

    population: float = 1.0
    tech: float = 1.0
    building: float = 1.0
    wonder: float = 1.0
    plot: float = 1.0
    status: float = 1.0
    attack: float = 1.0
    units: float = 1.0
    shun: frozenset[str] = frozenset()


#: ``greedy``'s own weights
GREEDY = Weights()

#: the archetypes of the balance study (DESIGN-NOTES.md section 6): name -> weights
ARCHETYPES: dict[str, Weights] = {
    "population": Weights(population=1.6, tech=0.8),
    "techrush": Weights(tech=1.6, population=0.7),
    "wonders": Weights(wonder=2.2, building=0.9),
    "military": Weights(attack=2.5, units=1.6),
    "culture": Weights(status=3.0),
}


def _poisson_at_least(lam: float, k: int) -> float:
    """P(X >= k) for X ~ Poisson(lam)."""
    if k <= 0:
        return 1.0
    term = math.exp(-lam)
    below = term
    for i in range(1, k):
        term *= lam / i
        below += term
    return max(0.0, 1.0 - below)


@lru_cache(maxsize=1024)
def _given(trade: str) -> tuple[int, ...]:
    """The resource types a trade's move gives."""
    give = parse_move(trade).res
    return tuple([i for i in range(3) if give[i]])


class View:
    """One decision of one seat, worked out from its observation."""

    def __init__(self, obs: Observation, seat: int, weights: Weights = GREEDY) -> None:
        self.obs = obs
        self.w = weights
        self.me = seat
        self.n = obs.players
        pv = obs.seats[seat]
        self.pv = pv
        self.plots = pv.plots
        self.supply = list(pv.supply)
        hand = pv.hand
        self.hand: list[str] = list(hand) if isinstance(hand, tuple) else []
        fig = figures(obs, seat, weights)
        self._fig = fig
        board = self._board = fig.board
        self.cs = board.cs
        self._tab = tables(board.cs)
        self.fx = board.fx
        self.hnw = board.hnw
        self.same_type = board.same_type
        self.techs_left = board.techs_left
        self.turns = board.turns
        self._hold = board.hold
        self._effects = board.effects
        self._cost = board.cost
        self._extra = board.extra
        self._kinds: tuple[int, int] | None = None

    def _hand_kinds(self) -> tuple[int, int]:
        """How many buildings and wonders the seat holds (a discount's value counts them)."""
        got = self._kinds
        if got is None:
            deck = self.cs.deck
            kinds = [deck[c].kind for c in self.hand]
            got = self._kinds = (kinds.count("building"), kinds.count("wonder"))
        return got

    # -- costs (C26) and room (C18) ------------------------------------------------------

    def pop_cost(self, i: int) -> int:
        """C26: one more population on plot ``i`` (from 0)."""
        return pop_cost(self.cs, self.plots[i][1], self.fx)

    def plot_cost(self) -> int:
        """C26: the next plot."""
        return plot_cost(self.cs, len(self.plots), self.fx)

    def card_cost(self, code: str) -> int:
        """C26, C50: a technology, building or wonder (the Highest Happiness the seat sees)."""
        got = self._cost.get(code)
        if got is None:
            got = self._cost[code] = card_cost(
                self.cs, code, self.fx, self.obs.status[1] == self.me, self.hnw
            )
        return got

    def has_room(self, i: int, code: str) -> bool:
        """C18: whether plot ``i`` (from 0) has room for ``code``."""
        room = self._board.slots
        if room is None:
            cs, fx = self.cs, self.fx
            room = self._board.slots = [slots(cs, pop, fx) for _, pop, _ in self.plots]
        on = self.plots[i][2]
        return code not in on and len(on) < room[i]

    # -- values ----------------------------------------------------------------------------

    def per_turn(self, amount: float) -> float:
        """VP of ``amount`` resources every turn from the next one on."""
        return amount * max(0.0, self.turns - 1.0) * VPR

    def status_value(self, culture: int, happiness: int) -> float:
        """VP of adding culture and happiness (C49, C50): a status won, or progress to one."""
        if not culture and not happiness:
            return 0.0  # what the sums below come to (0.0, whatever the weight)
        v = 0.0
        best_other = self._board.best_other
        if best_other is None:
            seats = self.obs.seats
            others = [s for s in range(self.n) if s != self.me]
            best_other = self._board.best_other = (
                max(seats[s].culture for s in others),
                max(seats[s].happiness for s in others),
            )
        cs = self.cs
        # each status: (added, the seat's now, the best other's, its minimum, VP a turn held)
        for add, mine, best, minimum, per_turn in (
            (culture, self.pv.culture, best_other[0], cs.culture_minimum, 0.12),
            (happiness, self.pv.happiness, best_other[1], cs.happiness_minimum, 0.06),
        ):
            if add:
                had = mine >= minimum and mine > best
                has = mine + add >= minimum and mine + add > best
                v += 0.02 * add
                if has and not had:
                    v += per_turn * self.turns
        w = self.w.status
        if w != 1.0:
            v = v * w + (w - 1.0) * 0.1 * (culture + happiness)
        return v

    def effects_value(self, code: str, plot: int | None) -> float:
        """VP of a card's effects for this seat (C52-C66); ``plot`` is where a building stands."""
        # the plot matters only to a card that doubles its plot's base yield, the hand only
        # to a card with a discount (C52)
        tab = self._tab
        key = (
            code,
            plot if code in tab.doubles else None,
            self._hand_kinds() if code in tab.discounts else None,
        )
        got = self._effects.get(key)
        if got is None:
            got = self._effects[key] = self._effects_value(code, plot)
        return got

    def _effects_value(self, code: str, plot: int | None) -> float:
        card = self.cs.techs[code] if code in self.cs.techs else self.cs.deck[code]
        v = 0.0
        t = self.turns
        for e in card.effects:
            k = e.kind
            if k == "income":
                v += self.per_turn(sum(e.resources))
            elif k == "double_base":
                if plot is not None:
                    v += self.per_turn(PLOTS[self.plots[plot][0]].yields[e.resource])
            elif k == "boost_producing":
                n = sum(1 for c, _, _ in self.plots if PLOTS[c].yields[e.resource] > 0)
                v += self.per_turn(e.amount * n)
            elif k == "discount":
                uses = {
                    "population": 0.8 * t,
                    "tech": min(0.5 * t, float(self.techs_left)),
                    "building": 0.2 * t + sum(1 for c in self.hand if self.cs.deck[c].kind == "building"),
                    "wonder": 0.1 * t + sum(1 for c in self.hand if self.cs.deck[c].kind == "wonder"),
                    "plot": 0.1 * t,
                }[e.target]
                v += e.amount * uses * VPR
            elif k == "exchange_rate":
                v += 0.03 * t * max(0, self.fx.rate - e.rate)
            elif k == "extra_draw":
                v += 0.1 * e.amount * max(0.0, t - 1)
            elif k == "building_slots":
                v += 0.1 * len(self.plots) * min(1.0, t / 5)
            elif k == "gain_once":
                v += sum(e.resources) * (len(self.plots) if e.per_plot else 1) * VPR
            elif k == "free_population":
                v += min(e.amount, self.obs.population_supply) * (1.0 + self.per_turn(1))
            elif k == "free_tech":
                v += e.amount * 1.2
            elif k == "steal_card":
                v += 0.06 * e.amount * max(0.0, t - 1)
            elif k == "steal_resources":
                v += self.per_turn(0.5 * e.amount)
            elif k == "bounce":
                v += 0.2 + 0.03 * t
            elif k == "unit_bonus":
                v += 0.1 + 0.4 * (self.w.attack - 1.0)
        return v + self.status_value(card.culture, card.happiness)

    def build_value(self, code: str, plot: int) -> float:
        """VP of building ``code`` on ``plot`` (its cost aside)."""
        vp = 1.0 if self.cs.deck[code].kind == "wonder" else 0.0
        return vp + self.effects_value(code, plot)

    def hold(self, code: str) -> float:
        """VP of keeping a hand card (at least its cash value)."""
        # a function of the board, and of the hand for a card with a discount (its value)
        key = (code, self._hand_kinds() if code in self._tab.discounts else None)
        got = self._hold.get(key)
        if got is not None:
            return got
        card = self.cs.deck[code]
        cash = sum(card.resource) * VPR
        if card.kind == "unit":
            v = max(cash, UNIT_HOLD.get(code, 0.3) * self.w.units)
        else:
            best = 0.0
            for i in range(len(self.plots)):
                if code not in self.plots[i][2]:
                    best = max(best, self.build_value(code, i) - self.card_cost(code) * VPR)
            v = max(cash, 0.7 * best)
        self._hold[key] = v
        return v

    def extra(self, code: str) -> float:
        """Resources lost beyond its cash value when cashing a hand card."""
        key = (code, self._hand_kinds() if code in self._tab.discounts else None)
        got = self._extra.get(key)
        if got is None:
            got = self._extra[key] = max(
                0.0, self.hold(code) / VPR - sum(self.cs.deck[code].resource)
            )
        return got

    def reserve(self) -> list[int]:
        """What the next purchases need: the cheapest population, build and technology."""
        got = self._fig.reserve
        if got is None:
            f = min((self.pop_cost(i) for i in range(len(self.plots))), default=0)
            builds = [
                self.card_cost(c)
                for c in set(self.hand)
                if self.cs.deck[c].kind != "unit"
                and any(self.has_room(i, c) for i in range(len(self.plots)))
            ]
            techs = [self.card_cost(t) for t in self.obs.tech_market]
            got = self._fig.reserve = [
                f if self.obs.population_supply else 0,
                min(builds, default=0),
                min(techs, default=0),
            ]
        return got

    def keep_key(self, pay: Sequence[int]) -> tuple[int, int]:
        """How badly paying ``pay`` leaves the reserve short (smaller is better)."""
        n0, n1, n2 = self.reserve()
        sup = self.supply
        d0 = sup[0] - pay[0] - n0
        d1 = sup[1] - pay[1] - n1
        d2 = sup[2] - pay[2] - n2
        short = (-d0 if d0 < 0 else 0) + (-d1 if d1 < 0 else 0) + (-d2 if d2 < 0 else 0)
        return short, -min(d0, d1, d2)

    def score_after(self, vp: int, techs: int, pop: int, wonders: int) -> float:
        """VP-scale value of the game ending now with these gains (C70)."""
        mine = list(self.pv.score)
        mine = [mine[0] + vp, mine[1] + techs, mine[2] + pop, mine[3] + wonders]
        best_other = max(list(self.obs.seats[s].score) for s in range(self.n) if s != self.me)
        if mine > best_other:
            return 40.0
        if mine == best_other:
            return 8.0
        return -40.0

    # -- targets -------------------------------------------------------------------------------

    def targets(self, only: str | None = None) -> list[Target]:
        """Every purchase within reach, each with its cost and value; with ``only``, just the
        one of that text (the same figures, the others not worked out)."""
        known = self._fig.targets
        got = known.get(only)
        if got is None:
            every = known.get(None) if only is not None else None
            if every is not None:
                # the one target's figures are those it has among all the targets
                got = known[only] = [t for t in every if t.text == only]
            else:
                got = known[only] = self._targets(only)
        return list(got)

    def _targets(self, only: str | None) -> list[Target]:
        if only is not None:
            return [
                *self._pop_targets(only),
                *self._tech_targets(only),
                *self._build_targets(only),
                *self._plot_targets(only),
            ]
        # the population's, plots' and technologies' targets are the board's (a technology
        # with a discount is valued by the hand's kinds too): kept by it
        board = self._board
        pops = board.pop_targets
        if pops is None:
            pops = board.pop_targets = self._pop_targets(None)
        plots = board.plot_targets
        if plots is None:
            plots = board.plot_targets = self._plot_targets(None)
        discounts = self._tab.discounts
        kinds = (
            self._hand_kinds() if any(t in discounts for t in self.obs.tech_market) else None
        )
        techs = board.tech_targets.get(kinds)
        if techs is None:
            techs = board.tech_targets[kinds] = self._tech_targets(None)
        return [*pops, *techs, *self._build_targets(None), *plots]

    def _pop_targets(self, only: str | None) -> list[Target]:
        out: list[Target] = []
        if self.obs.population_supply > 0:
            for i, (code, pop, _) in enumerate(self.plots):
                text = f"pop p{i + 1}"
                if only is not None and text != only:
                    continue
                v = 1.0 + self.per_turn(1) + 0.01 * len(PRODUCED[code])
                if pop + 1 == self.cs.pop_two_slots and self.fx.slots < 2:
                    v += 0.05
                out.append(Target(text, 0, self.pop_cost(i), v * self.w.population))
        return out

    def _tech_targets(self, only: str | None) -> list[Target]:
        out: list[Target] = []
        shun = self.w.shun
        for t in sorted(set(self.obs.tech_market)):
            text = f"tech {t}"
            if only is not None and text != only:
                continue
            if t in shun and self.techs_left > 1:
                continue
            if self.techs_left == 1:
                v = self.score_after(1, 1, 0, 0)
            else:
                v = (1.0 + self.effects_value(t, None)) * self.w.tech
            out.append(Target(text, 2, self.card_cost(t), v))
        return out

    def _build_targets(self, only: str | None) -> list[Target]:
        out: list[Target] = []
        obs = self.obs
        free_tech = self._tab.free_tech
        for c in sorted(set(self.hand)):
            card = self.cs.deck[c]
            if card.kind == "unit":
                continue
            if only is not None and not only.startswith(f"build {c} p"):
                continue
            frees = c in free_tech
            cost = self.card_cost(c)
            for i in range(len(self.plots)):
                text = f"build {c} p{i + 1}"
                if only is not None and text != only:
                    continue
                if not self.has_room(i, c):
                    continue
                v = self.build_value(c, i)
                if frees and self.techs_left <= 1 and obs.tech_market:
                    v = self.score_after(2, 1, 0, 1)
                else:
                    v *= self.w.wonder if card.kind == "wonder" else self.w.building
                # a filled slot is room lost for later cards
                v -= 0.05 * len(self.plots[i][2]) + 0.1
                out.append(Target(text, 1, cost, v))
        return out

    def _plot_targets(self, only: str | None) -> list[Target]:
        out: list[Target] = []
        if self.obs.plot_market:
            cost = self.plot_cost()
            for code in sorted(set(self.obs.plot_market)):
                text = f"plot {code} ?"
                if only is not None and text != only:
                    continue
                y = PLOTS[code].yields
                boost = sum(self.fx.boost[r] for r in range(3) if y[r] > 0)
                v = self.per_turn(sum(y) + boost) + 0.05 * len(PRODUCED[code]) + 0.1
                v *= self.w.plot
                out.append(Target(text, -1, cost, v))
        return out

    def given_this_turn(self) -> set[int]:
        """The resource types this seat gave in a trade this turn (never got back)."""
        hist = self.obs.history
        out: set[int] = set()
        for text in reversed(hist):
            if text.startswith("collect"):
                break
            if text.startswith("trade "):
                out.update(_given(text))
        return out

    def fund(self, t: Target, banned: set[int]) -> tuple[float, str] | None:
        """The effective cost of ``t`` and its first step (``BUY``, ``cash X`` or ``TRADE``)."""
        sup = self.supply
        cashable = self._fig.cashable
        if cashable is None:
            # the hand, the cards cheapest to cash first (the same for every target), each
            # with its resources, their sum, what cashing it loses and its move
            deck = self.cs.deck
            order = sorted(
                self.hand, key=lambda c: (self.extra(c) / max(1, sum(deck[c].resource)), c)
            )
            cashable = self._fig.cashable = [
                (c, deck[c].resource, sum(deck[c].resource), self.extra(c), f"cash {c}")
                for c in order
            ]
        if t.rtype < 0:
            need = t.cost - sum(sup)
            if need <= 0:
                return float(t.cost), "BUY"
            eff = float(t.cost)
            first = ""
            for _, _, total, extra, cash in cashable:
                if need <= 0:
                    break
                need -= total
                eff += extra
                first = first or cash
            return (eff, first) if need <= 0 else None
        r = t.rtype
        need = t.cost - sup[r]
        if need <= 0:
            return float(t.cost), "BUY"
        eff = float(t.cost)
        first = ""
        used: list[str] = []
        for c, res, _, extra, cash in cashable:
            if need <= 0:
                break
            amt = res[r]
            if amt:
                need -= amt
                eff += extra
                used.append(c)
                first = first or cash
        if need <= 0:
            return eff, first
        if r in banned:
            return None
        rate = self.fx.rate
        give = need * rate
        others = sum(sup) - sup[r]
        eff += need * (rate - 1)
        if self.same_type:
            return None if others < give else (eff, first or "TRADE")
        for c, res, total, extra, cash in cashable:
            if others >= give:
                break
            if c in used:
                used.remove(c)
                continue
            amt = total - res[r]
            if amt:
                others += amt
                eff += extra
                first = first or cash
        if others < give:
            return None
        return eff, first or "TRADE"

    def plan(self) -> tuple[Target, str] | None:
        """The best target worth its cost and the first step towards it."""
        banned = self.given_this_turn()
        # a function of the view's figures, its supply and the types given (fund)
        key = (tuple(self.supply), frozenset(banned))
        plans = self._fig.plans
        if key in plans:
            return plans[key]
        got = plans[key] = self._plan(banned)
        return got

    def _plan(self, banned: set[int]) -> tuple[Target, str] | None:
        best: tuple[float, Target, str] | None = None
        for t in self.targets():
            if t.value <= 0:
                continue
            # the effective cost is at least the target's own (fund): a target whose value
            # over its cost does not beat the best ratio so far cannot win
            if best is not None and t.value / max(1.0, float(t.cost)) <= best[0]:
                continue
            f = self.fund(t, banned)
            if f is None:
                continue
            eff, step = f
            if t.value < eff * VPR * 0.25:
                continue
            ratio = t.value / max(1.0, eff)
            if best is None or ratio > best[0]:
                best = (ratio, t, step)
        if best is None:
            return None
        return best[1], best[2]

    # -- combat -----------------------------------------------------------------------------------

    def unseen(self) -> dict[str, int]:
        """Deck cards this seat has not seen: in the deck or in rivals' hands."""
        left = {c: d.count for c, d in self.cs.deck.items()}
        for c in self.obs.discard:
            left[c] -= 1
        for c in self.hand:
            left[c] -= 1
        for pv in self.obs.seats:
            for _, _, on in pv.plots:
                for c in on:
                    left[c] -= 1
        if self.obs.combat is not None:
            for code, _, state in self.obs.combat.units:
                if state in ("assigned", "done"):
                    left[code] -= 1
            for _, b, _ in self.obs.combat.blocks:
                left[b] -= 1
        return {c: max(0, k) for c, k in left.items()}

    def steal_worth(self, victim: int) -> float:
        """VP of taking one population from ``victim``: mine, and theirs lost."""
        if self.n == 2:
            return 2.0
        leader = max(range(self.n), key=lambda s: (list(self.obs.seats[s].score), -s))
        return 1.5 if leader == victim else 1.3

    def attack_value(self, d: int, units: Sequence[str], unseen: dict[str, int]) -> float:
        """The expected VP of sending ``units`` against defender ``d`` (C42-C45)."""
        pv = self.obs.seats[d]
        walls = [
            (c, e.amount, e.breakable)
            for _, _, on in pv.plots
            for c in on
            for e in self.cs.deck[c].effects
            if e.kind == "bounce"
        ]
        units = sorted(units, key=lambda u: -self.unit_damage(u, d))
        cats = [u for u in units if self.cs.deck[u].breaks_walls]
        breakable = [w for w in walls if w[2]]
        broken = min(len(cats), len(breakable))
        rest = list(units)
        for u in cats[:broken]:
            rest.remove(u)
        bounce = sum(a for _, a, br in walls if not br) + sum(a for _, a, br in breakable[broken:])
        # the defender bounces the most damaging units: they come back to hand
        kept = rest[bounce:] if bounce < len(rest) else []
        cost = sum(self.hold(u) for u in units) - sum(
            self.hold(u) for u in rest[: min(bounce, len(rest))]
        )
        total_unseen = max(1, sum(unseen.values()))
        h = pv.hand if isinstance(pv.hand, int) else len(pv.hand)
        fx_d = fx_of(pv.techs, pv.plots, self.cs)
        seen: dict[str, int] = {}
        pop = sum(p for _, p, _ in pv.plots)
        buildings = sum(1 for _, _, on in pv.plots for c in on if self.cs.deck[c].kind == "building")
        gain = 0.0
        steals = 0.0
        destroys = 0.0
        for u in kept:
            blockers = sum(k for c, k in unseen.items() if can_block(self.cs, fx_d, c, u))
            lam = h * blockers / total_unseen
            seen[u] = seen.get(u, 0) + 1
            p_free = 1.0 - _poisson_at_least(lam, seen[u])
            s, x = self.unit_amounts(u)
            steals += p_free * s
            destroys += p_free * x
            gain += (1.0 - p_free) * 0.3  # the blocker they spend
        gain += (
            min(steals, float(pop)) * self.steal_worth(d)
            + min(destroys, float(buildings)) * DESTROY_VP
        )
        return gain * self.w.attack - cost

    def unit_amounts(self, u: str) -> tuple[int, int]:
        """C45, C66: what this seat's unit ``u`` steals and destroys."""
        return unit_damage(self.cs, self.fx, u)

    def unit_damage(self, u: str, d: int) -> float:
        s, x = self.unit_amounts(u)
        return s * 2.0 + x * DESTROY_VP + (0.5 if self.cs.deck[u].breaks_walls else 0.0)

    def attack_plan(self) -> tuple[float, list[tuple[int, list[str]]]] | None:
        """The best single-defender attack with positive expected value, if any."""
        obs = self.obs
        # a function of the figures (the board, the hand) and of what unseen() and
        # attack_value() read besides
        key = (
            obs.discard,
            obs.combat,
            tuple([(pv.plots, pv.techs, pv.hand if isinstance(pv.hand, int) else -1) for pv in obs.seats]),
        )
        known = self._fig.attacks
        if key in known:
            got: tuple[float, list[tuple[int, list[str]]]] | None = known[key]
        else:
            got = known[key] = self._attack_plan()
        return None if got is None else (got[0], [(d, list(u)) for d, u in got[1]])

    def _attack_plan(self) -> tuple[float, list[tuple[int, list[str]]]] | None:
        mine = sorted(c for c in self.hand if self.cs.deck[c].attack)
        if not mine:
            return None
        unseen = self.unseen()
        best: tuple[float, list[tuple[int, list[str]]]] | None = None
        for d in adjacent(self.me, self.n):
            order = sorted(mine, key=lambda u: (-(self.unit_damage(u, d) - self.hold(u)), u))
            for k in range(1, len(order) + 1):
                v = self.attack_value(d, order[:k], unseen)
                if v > 0.05 and (best is None or v > best[0]):
                    best = (v, [(d, sorted(order[:k]))])
        return best

    def loss_of(self, units: Sequence[str], attacker: int) -> float:
        """VP this seat loses to ``units`` reaching its damage step (C45)."""
        fx_a = fx_of(self.obs.seats[attacker].techs, self.obs.seats[attacker].plots, self.cs)
        s = x = 0
        for u in units:
            us, ux = unit_damage(self.cs, fx_a, u)
            s += us
            x += ux
        pop = sum(p for _, p, _ in self.plots)
        buildings = sum(1 for _, _, on in self.plots for c in on if self.cs.deck[c].kind == "building")
        worth = 2.0 if self.n == 2 else 1.4
        return min(s, pop) * worth + min(x, buildings) * 0.6

    def best_blocks(
        self, attackers: Sequence[str], attacker: int
    ) -> tuple[float, list[tuple[str, str]]]:
        """The blocks (blocker, attacker) that minimise loss + blockers spent (C43)."""
        fx_me = self.fx
        cs = self.cs
        mine = [c for c in self.hand if cs.deck[c].defend]
        atk = sorted(attackers)
        best: list[Any] = [self.loss_of(atk, attacker), []]

        def can(b: str, a: str) -> bool:
            return can_block(cs, fx_me, b, a)

        def rec(i: int, avail: list[str], blocks: list[tuple[str, str]], free: list[str]) -> None:
            if i == len(atk):
                v = self.loss_of(free, attacker) + sum(self.hold(b) for b, _ in blocks) * 0.8
                if v < best[0] - 1e-9:
                    best[0] = v
                    best[1] = list(blocks)
                return
            a = atk[i]
            rec(i + 1, avail, blocks, [*free, a])
            for b in sorted(set(avail)):
                if can(b, a):
                    rest = list(avail)
                    rest.remove(b)
                    rec(i + 1, rest, [*blocks, (b, a)], free)

        rec(0, mine, [], [])
        return best[0], best[1]


__all__ = [
    "ARCHETYPES",
    "DESTROY_VP",
    "GREEDY",
    "STALEMATE",
    "TECH_PACE",
    "UNIT_HOLD",
    "VPR",
    "Target",
    "View",
    "Weights",
    "clear_figures",
    "fx_of",
]
