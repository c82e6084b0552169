"""civ4's ``greedy`` bot: a one-turn economic evaluation from what its seat may know.

The bot reads only the seat's :class:`~civcards.civ4.Observation` and the
choices it is offered (``game.choices``/``game.expand``); it never touches the
game state. The rules it needs (effects C52-C66, costs C26 and C50, slots
C18, units C43-C45 and C66, adjacency C40, discards C37) are the engine's own
public functions (:mod:`civcards.civ4.effects`), read through
:class:`~civcards.games.civ4.greedy_view.View`.

How it decides (all values are in victory points, VP):

* **Purchase step.** Every purchase it could make this turn is a *target*:
  population on each plot, each market technology, each building or wonder of
  its hand on each plot with room, each market plot. A target's value is its
  VP now plus its economy over the turns left (yields, income, discounts,
  culture and happiness statuses, extra draws, ...). Its *funding* is the
  cheapest way to pay for it: the supply, then cashing the hand cards worth
  least when held, then bank trades (never getting back a type given this
  turn). The bot takes the step towards the target with the best value per
  resource spent (cash a card, trade, or buy). The last technology is bought
  only when it wins the game (C68). Writing and Code of Laws are used first.
  With nothing worth buying it attacks if the expected damage is worth more
  than the units it spends (walls and Great Wall, Catapults, the defender's
  likely blockers from the cards it has not seen), else it ends the step.
* **Payments** (a plot's mix, a trade's resources) keep what the next
  purchases need (the cheapest population, build and technology).
* **Collect** assigns population to the types the best targets lack.
* **Combat as defender**: the walls choice and the blocks that save the most
  (stolen population first); damage takes population from the fullest plots
  and the least valuable buildings.
* **Discards** drop the cards worth least when held.

A decision offered in steps (``plot FOR ?``, ``collect p1=FF ?``,
``attack 1=?``, ``defend ARC>AXE ?CAT``, ...) is answered by computing the
whole move first and taking the step consistent with it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ...civ4.cards import res_str
from ...civ4.effects import discard_count, unit_damage
from ...civ4.moves import NotationError, parse_move
from ...civ4.observation import Observation
from .greedy_figures import PLOTS, PRODUCED
from .greedy_view import (
    ARCHETYPES,
    DESTROY_VP,
    GREEDY,
    STALEMATE,
    TECH_PACE,
    UNIT_HOLD,
    VPR,
    Target,
    View,
    Weights,
    fx_of,
)

# ------------------------------------------------------------------------------------------------
# Matching a wanted whole move to the offered (possibly factored) choices


def _consistent(step: str, want: str) -> bool:
    """Whether the step ``step`` (``plot FOR ?``, ``attack 1=?``, ``defend ARC>AXE ?CAT``)
    can lead to the whole move ``want``."""
    body = step[:-1].strip() if step.endswith(" ?") else step
    words = body.split()
    wwords = want.split()
    if not words or not wwords or words[0] != wwords[0]:
        return False
    kind = words[0]
    if kind == "plot" and len(words) == 3:  # the food paid first: 'plot FOR 5F ?'
        try:
            return words[1] == wwords[1] and parse_move(want).res[0] == int(words[2][:-1])
        except (NotationError, ValueError):
            return False
    if kind in ("collect", "place", "plot", "use", "build"):
        return (
            want == body
            or want.startswith(body + " ")
            or (kind in ("place",) and _list_prefix(body, want))
        )
    if kind == "discard":
        return _list_prefix(body, want)
    if kind == "attack":
        try:
            wm = parse_move(want)
        except NotationError:
            return False
        wanted = dict(wm.attack)
        terms = words[1:]
        if not terms:
            return True
        seats = set()
        for t in terms:
            s, _, lst = t.partition("=")
            seats.add(int(s))
            if lst != "?" and tuple(lst.split(",")) != wanted.get(int(s)):
                return False
        return seats == set(wanted)
    if kind == "defend":
        nxt = words[-1][1:] if words[-1].startswith("?") else ""
        have = sorted(tuple(w.split(">")) for w in words[1:] if not w.startswith("?"))
        try:
            wblocks = parse_move(want).blocks
        except NotationError:
            return False
        need = sorted(b for b in wblocks if nxt and b[1] < nxt)
        return have == need
    if kind == "damage":
        if len(words) == 1:
            return True
        try:
            wm = parse_move(want)
        except NotationError:
            return False
        lst = words[2]
        steal = () if lst == "-" else tuple(int(x[1:]) for x in lst.split(","))
        return steal == wm.plots
    return False


def _list_prefix(body: str, want: str) -> bool:
    words = body.split()
    wwords = want.split()
    if len(words) < 2 or len(wwords) < 2:
        return len(words) == 1
    got = words[1].split(",")
    full = wwords[1].split(",")
    return full[: len(got)] == got


def match(choices: Sequence[tuple[str, bool]], want: str) -> int | None:
    """The index of the choice that is ``want`` or leads to it (a final one first), or None."""
    for i, (text, final) in enumerate(choices):
        if final and text == want:
            return i
    for i, (text, final) in enumerate(choices):
        if not final and _consistent(text, want):
            return i
    return None


# ------------------------------------------------------------------------------------------------
# Decisions


class GreedyPolicy:
    """The decisions of the ``greedy`` bot, from an observation and the offered choices."""

    def __init__(self, weights: Weights = GREEDY) -> None:
        #: how many times no choice matched the wanted move (a fallback was taken)
        self.fallbacks = 0
        #: the weight of each goal (:class:`Weights`; ``greedy``: all 1)
        self.weights = weights

    def pick(self, obs: Observation, choices: Sequence[tuple[str, bool]]) -> int:
        """The index of the chosen choice among ``(text, final)`` pairs."""
        if len(choices) == 1:
            return 0
        seat = obs.to_move if obs.seat is None else obs.seat
        assert seat is not None
        v = View(obs, seat, self.weights)
        step = obs.step
        if step == "draft":
            return self._best_final(choices, lambda t: _plot_worth(t.split()[1]))
        if step == "settle":
            return self._best_final(choices, lambda t: self._settle_worth(v, int(t.split()[1][1:])))
        want = self._want(v, step, choices)
        if want is not None:
            i = match(choices, want)
            if i is not None:
                return i
        self.fallbacks += 1
        return self._fallback(choices)

    @staticmethod
    def _best_final(choices: Sequence[tuple[str, bool]], key: Any) -> int:
        best_i, best_v = 0, -math.inf
        for i, (text, final) in enumerate(choices):
            if final:
                val = key(text)
                if val > best_v:
                    best_i, best_v = i, val
        return best_i

    @staticmethod
    def _fallback(choices: Sequence[tuple[str, bool]]) -> int:
        for i, (text, _) in enumerate(choices):
            if text == "end":
                return i
        return 0

    @staticmethod
    def _settle_worth(v: View, plot: int) -> float:
        code, pop, _ = v.plots[plot - 1]
        y = PLOTS[code].yields
        return len(PRODUCED[code]) + 0.1 * sum(y) - 0.5 * pop

    def _want(self, v: View, step: str, choices: Sequence[tuple[str, bool]]) -> str | None:
        if step in ("start_discard", "discard"):
            return self._discard(v, choices)
        if step == "collect":
            return self._collect(v)
        if step == "purchase":
            return self._purchase(v, choices)
        if step == "walls":
            return self._walls(v, choices)
        if step == "defend":
            return self._defend(v)
        if step == "damage":
            return self._damage(v)
        if step == "place":
            return self._place(v)
        return None

    # -- discards (C14, C37) ----------------------------------------------------------------------

    @staticmethod
    def _discard_count(choices: Sequence[tuple[str, bool]]) -> int:
        for text, final in choices:
            if final:
                return len(text.split()[1].split(","))
        return -1

    def _discard(self, v: View, choices: Sequence[tuple[str, bool]]) -> str | None:
        k = self._discard_count(choices)
        hand = sorted(v.hand, key=lambda c: (v.hold(c), c))
        if k < 0:
            k = _discard_k(v)
        return "discard " + ",".join(sorted(hand[:k]))

    # -- collect (C23, C24) -------------------------------------------------------------------------

    def _collect(self, v: View) -> str:
        terms = []
        sup = list(v.supply)
        for code, _, _ in v.plots:
            y = PLOTS[code].yields
            for r in range(3):
                if y[r]:
                    sup[r] += y[r] + v.fx.boost[r]
        for r in range(3):
            sup[r] += v.fx.income[r]
        need = list(v.reserve())
        plan = _wanted_need(v)
        for r in range(3):
            need[r] = max(need[r], plan[r]) if plan[r] else need[r]
        for i, (code, pop, _) in enumerate(v.plots):
            types = PRODUCED[code]
            if not pop or len(types) < 2:
                continue
            letters = []
            for _ in range(pop):
                r = max(types, key=lambda t: (need[t] - sup[t], t))
                sup[r] += 1
                letters.append("FHC"[r])
            terms.append(f"p{i + 1}=" + "".join(sorted(letters, key="FHC".index)))
        return " ".join(["collect", *terms])

    # -- purchase (C25-C36) -------------------------------------------------------------------------

    def _purchase(self, v: View, choices: Sequence[tuple[str, bool]]) -> str | None:
        texts = [t for t, _ in choices]
        first = texts[0].split()[0] if texts else ""
        top = "end" in texts
        if not top:
            # the expansion of a step chosen before
            if first == "plot":
                return self.plot_payment(v, texts)
            if first == "build":
                return self.special_build(v, texts)
            if first == "use":
                return self._steal_resources(v, texts)
            if first == "attack":
                attack = v.attack_plan()
                return _attack_text(attack[1]) if attack else None
            return None
        # free abilities first (C35)
        for text in texts:
            if text.startswith("use "):
                return self._use(v, texts)
        plan = v.plan()
        if plan is not None:
            target, step = plan
            if step == "BUY":
                below = [
                    t for t in texts if t.startswith(target.text + " ") and not t.endswith("?")
                ]
                if below and target.text.startswith("build "):
                    return self.special_build(v, below)
                return target.text
            if step == "TRADE":
                return self.trade(v, texts, target.rtype)
            return step
        attack = v.attack_plan()
        if attack is not None and "attack ?" in texts:
            return _attack_text(attack[1])
        return "end"

    def trade(self, v: View, texts: Sequence[str], r: int) -> str | None:
        best: tuple[tuple[int, int], str] | None = None
        for text in texts:
            if not text.startswith("trade "):
                continue
            m = parse_move(text)
            if not m.get[r]:
                continue
            key = v.keep_key(m.res)
            if best is None or key < best[0]:
                best = (key, text)
        return None if best is None else best[1]

    def plot_payment(self, v: View, texts: Sequence[str]) -> str | None:
        """C27, C33: the payment of a plot that keeps what the next purchases need."""
        code = texts[0].split()[1]
        cost = v.plot_cost()
        sup = v.supply
        best: tuple[tuple[int, int], tuple[int, int, int]] | None = None
        for f in range(min(sup[0], cost), -1, -1):
            rest = cost - f
            for h in range(min(sup[1], rest), max(0, rest - sup[2]) - 1, -1):
                pay = (f, h, rest - h)
                key = v.keep_key(pay)
                if best is None or key < best[0]:
                    best = (key, pay)
        if best is None:
            return None
        return f"plot {code} {res_str(best[1])}"

    def special_build(self, v: View, texts: Sequence[str]) -> str | None:
        """A wonder with free population or technologies: where they go, which are taken."""
        best: tuple[float, str] | None = None
        for text in texts:
            if text.endswith("?"):
                continue
            m = parse_move(text)
            val = 0.0
            if m.extra == "settle":
                counts: dict[int, int] = {}
                for p in m.plots:
                    counts[p] = counts.get(p, 0) + 1
                    val += self._settle_worth(v, p) - 0.3 * counts[p]
            elif m.extra == "free":
                for t in m.cards:
                    if v.techs_left <= len(m.cards):
                        val += v.score_after(2, len(m.cards), 0, 1)
                    else:
                        val += v.effects_value(t, None)
                        if t in v.w.shun:
                            val -= 100.0  # taken only where every choice holds one
            if best is None or val > best[0]:
                best = (val, text)
        return None if best is None else best[1]

    def _use(self, v: View, texts: Sequence[str]) -> str | None:
        best: tuple[float, str] | None = None
        for text in texts:
            if not text.startswith("use "):
                continue
            words = text.split()
            seat = int(words[2])
            pv = v.obs.seats[seat]
            lead = pv.score[0] * 0.01
            if words[1] in v.cs.techs and any(e.kind == "steal_card" for e in v.cs.techs[words[1]].effects):
                hand = pv.hand if isinstance(pv.hand, int) else len(pv.hand)
                val = hand + lead
            else:
                val = min(3, sum(pv.supply)) + lead
            if best is None or val > best[0]:
                best = (val, text)
        if best is None:
            return None
        return best[1]

    def _steal_resources(self, v: View, texts: Sequence[str]) -> str | None:
        need = v.reserve()
        best: tuple[float, str] | None = None
        for text in texts:
            m = parse_move(text)
            val = sum(m.res[i] * (2.0 if v.supply[i] < need[i] else 1.0) for i in range(3))
            if best is None or val > best[0]:
                best = (val, text)
        return None if best is None else best[1]

    # -- combat (C41-C46) ---------------------------------------------------------------------------

    def _attackers_on_me(self, v: View) -> tuple[int, list[str]]:
        c = v.obs.combat
        assert c is not None
        return c.attacker, [u for u, d, s in c.units if d == v.me and s == "assigned"]

    def _walls(self, v: View, choices: Sequence[tuple[str, bool]]) -> str | None:
        attacker, units = self._attackers_on_me(v)
        best: tuple[float, str] | None = None
        for text, final in choices:
            if not final:
                continue
            m = parse_move(text)
            left = list(units)
            for u in m.cards:
                left.remove(u)
            for _ in m.plots:
                for u in sorted(left):
                    if v.cs.deck[u].breaks_walls:
                        left.remove(u)
                        break
            loss = v.best_blocks(left, attacker)[0] + 0.3 * len(m.plots)
            if best is None or loss < best[0]:
                best = (loss, text)
        return None if best is None else best[1]

    def _defend(self, v: View) -> str:
        attacker, units = self._attackers_on_me(v)
        _, blocks = v.best_blocks(units, attacker)
        body = " ".join(f"{b}>{a}" for b, a in sorted(blocks, key=lambda t: (t[1], t[0])))
        return ("defend " + body).strip()

    def _damage(self, v: View) -> str:
        attacker, units = self._attackers_on_me(v)
        fx_a = fx_of(v.obs.seats[attacker].techs, v.obs.seats[attacker].plots, v.cs)
        amounts = [unit_damage(v.cs, fx_a, u) for u in units]
        s = sum(a[0] for a in amounts)
        x = sum(a[1] for a in amounts)
        pops = [p for _, p, _ in v.plots]
        steal: list[int] = []
        for _ in range(min(s, sum(pops))):
            i = max(
                range(len(pops)), key=lambda j: (pops[j], -len(PRODUCED[v.plots[j][0]]), -j)
            )
            pops[i] -= 1
            steal.append(i + 1)
        buildings = [
            (i + 1, c)
            for i, (_, _, on) in enumerate(v.plots)
            for c in on
            if v.cs.deck[c].kind == "building"
        ]
        buildings.sort(key=lambda b: (v.build_value(b[1], b[0] - 1) + v.card_cost(b[1]) * VPR, b))
        destroy = sorted(buildings[: min(x, len(buildings))])
        parts = ["damage"]
        if steal:
            parts += ["steal", ",".join(f"p{i}" for i in sorted(steal))]
        if destroy:
            parts += ["destroy", ",".join(f"p{i}:{c}" for i, c in destroy)]
        return " ".join(parts)

    def _place(self, v: View) -> str:
        c = v.obs.combat
        assert c is not None
        pops = [p for _, p, _ in v.plots]
        out = []
        for _ in range(c.stolen):
            i = max(range(len(pops)), key=lambda j: (self._settle_worth_pops(v, j, pops[j]), -j))
            pops[i] += 1
            out.append(i + 1)
        return "place " + ",".join(f"p{i}" for i in sorted(out))

    @staticmethod
    def _settle_worth_pops(v: View, j: int, pop: int) -> float:
        code = v.plots[j][0]
        return len(PRODUCED[code]) + 0.1 * sum(PLOTS[code].yields) - 0.5 * pop


def _plot_worth(code: str) -> float:
    """A draft pick: yield, with a little for mixed plots (C11)."""
    p = PLOTS[code]
    return sum(p.yields) + 0.3 * (len(p.produced) - 1) + 0.05 * p.yields[2]


def _discard_k(v: View) -> int:
    """C14/C37: how many cards this discard drops (the factored step does not say)."""
    if v.obs.step == "start_discard":
        return min(2, len(v.hand))
    limit = dict(v.obs.options).get("hand_limit")
    if not isinstance(limit, int) or isinstance(limit, bool):
        limit = None
    return discard_count(len(v.hand), v.obs.status[0] == v.me, limit)


def _wanted_need(v: View) -> list[int]:
    """The resources the best target of each type costs (for the collect)."""
    need = [0, 0, 0]
    for t in v.targets():
        if t.rtype < 0 or t.value <= 0:
            continue
        ratio = t.value / max(1, t.cost)
        cur = need[t.rtype]
        if cur == 0 or ratio > 0:
            need[t.rtype] = t.cost if cur == 0 else min(cur, t.cost)
    return need


def _attack_text(plan: list[tuple[int, list[str]]]) -> str:
    return "attack " + " ".join(f"{d}={','.join(sorted(us))}" for d, us in sorted(plan))


__all__ = [
    "ARCHETYPES",
    "DESTROY_VP",
    "GREEDY",
    "STALEMATE",
    "TECH_PACE",
    "UNIT_HOLD",
    "VPR",
    "GreedyPolicy",
    "Target",
    "View",
    "Weights",
    "fx_of",
    "match",
]
