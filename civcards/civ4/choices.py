"""Factored choices: large decisions taken in small steps.

:meth:`GameState.legal_strings` is exact but some decision points have
thousands of legal moves (a plot's payment mixes, the collect assignments of a
big empire, the splits of an attack over two defenders, a long discard).
:func:`choices` offers the same moves as a tree: a :class:`Choice` with
``final=True`` is a complete canonical move; one with ``final=False`` is a
*step* whose text ends in ``?`` (``plot FOR ?``, ``collect p1=FF ?``,
``attack 1=? 3=?``, ``discard ARC ?``, ``defend ARC>AXE ?CAT``) and
:func:`expand` gives its next level. Choosing uniformly level by level always
ends at a legal move, and every legal move is reachable.

>>> from civcards.civ4.game import new_game
>>> g = new_game(2, seed=5)
>>> [c.text for c in choices(g)] == g.legal_strings()
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache, lru_cache, partial
from itertools import combinations, combinations_with_replacement, compress, product
from math import comb as _comb
from typing import Any, Generic, TypeVar, overload

from .cards import CARDS, DECK_CODES, DECK_INDEX, N_DECK, CardSet, res_str
from .effects import card_budget, plot_cost, pop_budget, slots
from .game import GameState
from .legal import build_texts, legal_defend, legal_walls, letter_options, multisets
from .moves import Move, format_move, parse_move
from .phases import (
    COLLECT,
    DAMAGE,
    DEFEND,
    DISCARD,
    DRAFT,
    OVER,
    PLACE,
    PURCHASE,
    SETTLE,
    START_DISCARD,
    WALLS,
)

#: Decisions with at most this many legal moves are offered whole.
LIMIT = 64

_DECK = CARDS.deck


@dataclass(frozen=True, slots=True)
class Choice:
    """A complete move (``final``) or a step to :func:`expand` (its text ends in ``?``).

    ``move`` is the engine's :class:`Move` of a final choice (apply it with
    :meth:`GameState.apply_unchecked`); ``hidden`` is always False here (no step
    of this game shows hidden cards). The fields are those of the platform's
    ``civcards.game_api.Choice``, so that a registration may pass its own class
    as ``make`` and receive its own choices without converting them.
    """

    text: str
    final: bool
    hidden: bool = False
    move: Move | None = field(default=None, compare=False, repr=False)


C = TypeVar("C")
#: A choice constructor: ``make(text, final, hidden, move)``.
Maker = Callable[[str, bool, bool, "Move | None"], C]


class _Tables(Generic[C]):
    """Per-constructor caches of choices (the choice objects are immutable and shared)."""

    def __init__(self, make: Maker[C]) -> None:
        self.make = make
        self.cash = [make(f"cash {c}", True, False, Move("cash", code=c)) for c in DECK_CODES]
        self.tech = {c: make(f"tech {c}", True, False, Move("tech", code=c)) for c in CARDS.techs}
        self.plot_step = {c: make(f"plot {c} ?", False, False, None) for c in CARDS.plots}
        self.pop = [make(f"pop p{i}", True, False, Move("pop", num=i)) for i in range(64)]
        self.end = make("end", True, False, Move("end"))
        self.attack = make("attack ?", False, False, None)
        #: ``build CODE pJ`` (no free population or technology) by code, then plot number
        self.build_at = {
            code: [make(f"build {code} p{j}", True, False, Move("build", code=code, num=j)) for j in range(64)]
            for _i, code, _k, _c, _special in _BUILDABLE
        }
        self.trades: dict[tuple[int, ...], list[C]] = {}
        self.finals: dict[str, C] = {}
        self.steps: dict[str, C] = {}
        self.lists: dict[Any, list[C]] = {}
        self.discards: dict[tuple[int, ...], C] = {}
        #: the first collect level by the plots it depends on (a seat's plots often stay the same)
        self.collect_lists: dict[tuple[tuple[int, str, int], ...], list[C]] = {}
        #: the terms of the latest collect steps made (their text without " ?"; a few hundred)
        self.collect_done: dict[str, tuple[tuple[int, str], ...]] = {}

    def final(self, text: str, move: Move | None = None) -> C:
        """The final choice of a canonical move text (memoised)."""
        c = self.finals.get(text)
        if c is None:
            if len(self.finals) > 200_000:
                self.finals.clear()
            c = self.finals[text] = self.make(text, True, False, move or parse_move(text))
        return c

    def discard(self, ms: tuple[int, ...]) -> C:
        """The final choice ``discard`` of the cards with deck indices ``ms`` (memoised)."""
        c = self.discards.get(ms)
        if c is None:
            cards = tuple(DECK_CODES[i] for i in ms)
            if len(self.discards) > 100_000:
                self.discards.clear()
            c = self.discards[ms] = self.final("discard " + ",".join(cards), Move("discard", cards=cards))
        return c

    def step(self, text: str) -> C:
        c = self.steps.get(text)
        if c is None:
            if len(self.steps) > 100_000:
                self.steps.clear()
            c = self.steps[text] = self.make(text, False, False, None)
        return c

    def remember(self, key: Any, value: list[C]) -> list[C]:
        if len(self.lists) > 50_000:
            self.lists.clear()
        self.lists[key] = value
        return value[:]


_TABLES: dict[Any, _Tables[Any]] = {}


def _tables(make: Maker[C]) -> _Tables[C]:
    t = _TABLES.get(make)
    if t is None:
        t = _TABLES[make] = _Tables(make)
    return t


def _text(c: Any) -> str:
    return str(c.text)


def _finals(t: _Tables[C], texts: list[str]) -> list[C]:
    f = t.final
    return [f(x) for x in sorted(set(texts))]


_DECK_RANGE = range(N_DECK)


def _finals_moves(t: _Tables[C], moves: Iterable[Move]) -> list[C]:
    """The final choices of ``moves`` (canonical values), sorted by text without duplicates."""
    by_text: dict[str, Move] = {}
    for m in moves:
        by_text.setdefault(format_move(m), m)
    fget = t.finals.get
    fin = t.final
    return [c if (c := fget(x)) is not None else fin(x, by_text[x]) for x in sorted(by_text)]


def _count_hand_multisets(hand: list[int], idx: list[int], k: int) -> int:
    """How many multisets of ``k`` cards the hand holds (``idx``: its card indices)."""
    d = len(idx)
    if k == 1:
        return d
    if k == 2:
        return d * (d - 1) // 2 + sum(1 for i in idx if hand[i] >= 2)
    if k == 3:
        d2 = sum(1 for i in idx if hand[i] >= 2)
        d3 = sum(1 for i in idx if hand[i] >= 3)
        return d * (d - 1) * (d - 2) // 6 + d2 * (d - 1) + d3
    return _count_multisets([hand[i] for i in idx], k)


def _index_multisets(hand: list[int], idx: list[int], k: int) -> list[tuple[int, ...]]:
    """Every multiset of ``k`` cards of the hand as sorted index tuples, in sorted order."""
    if k == 2:
        return [ms for ms in combinations_with_replacement(idx, 2) if ms[0] != ms[1] or hand[ms[0]] >= 2]
    if k == 3:
        return [
            (a, b, c)
            for a, b, c in combinations_with_replacement(idx, 3)
            if (a != b or hand[a] >= (3 if b == c else 2)) and (b != c or a == b or hand[b] >= 2)
        ]
    out: list[tuple[int, ...]] = []
    n = len(idx)

    def rec(j: int, left: int, acc: tuple[int, ...]) -> None:
        if left == 0:
            out.append(acc)
            return
        for jj in range(j, n):
            i = idx[jj]
            a = hand[i] - acc.count(i)
            if a > 0:
                rec(jj if a > 1 else jj + 1, left - 1, (*acc, i))

    rec(0, k, ())
    return out


def _count_multisets(avail: list[int], k: int) -> int:
    ways = [1] + [0] * k
    for a in avail:
        new = [0] * (k + 1)
        for j in range(k + 1):
            if ways[j]:
                for t in range(min(a, k - j) + 1):
                    new[j + t] += ways[j]
        ways = new
    return ways[k]


@overload
def choices(g: GameState) -> list[Choice]: ...
@overload
def choices(g: GameState, make: Maker[C]) -> list[C]: ...
def choices(g: GameState, make: Any = Choice) -> list[Any]:
    """The first level of the decision at hand ([] when the game is over).

    ``make(text, final, hidden, move)`` builds each choice (default :class:`Choice`).
    """
    t = _TABLES.get(make) or _tables(make)
    step = g.step
    if step == PURCHASE:
        p = g.to_move
        assert p is not None
        return _purchase(t, g, p)
    if step == OVER:
        return []
    p = g.to_move
    assert p is not None
    if step in (START_DISCARD, DISCARD):
        # (hands rarely repeat, so the list is not memoised; its choices are)
        hand = g.hands[p]
        k = g.discard_n
        idx = [i for i in _DECK_RANGE if hand[i]]
        if _count_hand_multisets(hand, idx, k) <= LIMIT:
            dget = t.discards.get
            disc = t.discard
            return [c if (c := dget(ms)) is not None else disc(ms) for ms in _index_multisets(hand, idx, k)]
        return _expand_cards(t, g, p, ())
    if step == COLLECT:
        sig = _collect_sig(g.plots[p])
        cl = t.collect_lists
        known = cl.get(sig)
        if known is not None:
            return known[:]
        if len(cl) > 2000:
            cl.clear()
        total = 1
        for _, code, pop in sig:
            total *= len(letter_options(code, pop))
        if total > LIMIT:
            got = cl[sig] = _expand_collect(t, g, p, "collect")
            return got[:]
        # each plot's letter strings sorted (equal lengths), so the product comes sorted by text
        make = t.make
        terms = [_collect_terms(n, code, pop) for n, code, pop in sig]
        got = [
            make(" ".join(("collect", *texts)), True, False, _new_move(_collect_fields(ts)))
            for ts, texts in zip(product(*[x[0] for x in terms]), product(*[x[1] for x in terms]), strict=True)
        ]
        cl[sig] = got
        return got[:]
    if step in (DRAFT, SETTLE):
        return _finals(t, g.legal_strings())
    if step == WALLS:
        return _finals_moves(t, legal_walls(g))
    if step == DEFEND:
        legal = legal_defend(g)
        if len(legal) <= LIMIT:
            return _finals_moves(t, legal)
        return _expand_defend(t, g, ["defend", "?"])
    if step == DAMAGE:
        return _damage_choices(t, g)
    if step == PLACE:
        assert g.combat is not None
        if _count_multisets([g.combat.stolen] * len(g.plots[p]), g.combat.stolen) <= LIMIT:
            return _finals(t, g.legal_strings())
        return _expand_place(t, g, p, ())
    raise AssertionError(step)


def _trade_choices(t: _Tables[C], g: GameState, p: int, rate: int, key: tuple[int, ...]) -> list[C]:
    """The bank trades (C28) of a supply clipped to the rate (``key``), memoised."""
    got = [
        t.make(f"trade {res_str(give)} {res_str(get)}", True, False, Move("trade", res=give, get=get))
        for give, get in g.trade_options(p)
    ]
    t.trades[key] = got
    return got


class _SetTables:
    """The tables of one card set (its printed costs and free population), made once per set."""

    __slots__ = ("buildable", "free_pop", "tech_cost")

    def __init__(self, cs: CardSet) -> None:
        deck = cs.deck
        special = frozenset(
            c for c, d in deck.items() if any(e.kind in ("free_population", "free_tech") for e in d.effects)
        )
        #: per deck index: (index, code, kind, printed cost, special) of buildings and wonders
        self.buildable = [
            (i, c, deck[c].kind, deck[c].cost, c in special)
            for i, c in enumerate(DECK_CODES)
            if deck[c].kind != "unit"
        ]
        #: the printed cost of each technology (C26: compared with effects.card_budget)
        self.tech_cost = {c: tc.cost for c, tc in cs.techs.items()}
        #: the number of free population of a building or wonder (C61)
        self.free_pop = {
            c: sum(e.amount for e in deck[c].effects if e.kind == "free_population") for c in special
        }


@cache
def _set_tables(cs: CardSet) -> _SetTables:
    return _SetTables(cs)


#: buildings and wonders (index, code, kind, cost, special) of the original set: codes and kinds
#: are the same in every set (cards.py), the costs and specials are read per set (_SetTables)
_BUILDABLE = _set_tables(CARDS).buildable
_MULTI = {c: len(pc.produced) >= 2 for c, pc in CARDS.plots.items()}
_BUILD_IDX = [b[0] for b in _BUILDABLE]
_ATTACK_IDX = [i for i, c in enumerate(DECK_CODES) if _DECK[c].attack]


def _purchase(t: _Tables[C], g: GameState, p: int) -> list[C]:
    hand = g.hands[p]
    out: list[C] = list(compress(t.cash, hand))
    fx = g.fx[p]
    if fx is None:
        fx = g.effects(p)
    rate = fx.rate
    f, h, c = g.supply[p]
    options = g.options
    cs = g.cs
    st = _set_tables(cs)
    min_cost = cs.min_cost
    key: tuple[int, ...] = (
        f if f < rate else rate,
        h if h < rate else rate,
        c if c < rate else rate,
        rate,
        options.same_type_trade,
    )
    trades = t.trades.get(key)
    if trades is None:
        trades = _trade_choices(t, g, p, rate, key)
    out += trades
    plots = g.plots[p]
    if f >= min_cost and g.pop_supply > 0:
        top = pop_budget(cs, fx, f)
        pop_c = t.pop
        i = 1
        for pl in plots:
            if pl[1] <= top:
                out.append(pop_c[i])
            i += 1
    market = g.plot_market
    if market and plot_cost(cs, len(plots), fx) <= f + h + c:
        ps = t.plot_step
        prev = ""
        for code in market:
            if code != prev:
                out.append(ps[code])
                prev = code
    # C50: whether the seat holds Highest Happiness (worked out once, when a cost needs it)
    happiest: bool | None = None
    hnw = options.happiness_not_wonders
    if c >= min_cost:
        happiest = fx.happiness >= cs.happiness_minimum and g.holds_highest_happiness(p)
        dt = card_budget(cs, fx, "tech", c, happiest)
        tc = t.tech
        tech_cost = st.tech_cost
        for code in g.tech_market:
            if tech_cost[code] <= dt:
                out.append(tc[code])
    if h >= min_cost:
        opened: list[tuple[int, tuple[str, ...]]] | None = None
        # the highest printed cost affordable, of a building and of a wonder (C26, C50)
        top_b = top_w = -2
        for _i, code, kind, cost, special in compress(st.buildable, map(hand.__getitem__, _BUILD_IDX)):
            if top_b == -2:
                if happiest is None:
                    happiest = fx.happiness >= cs.happiness_minimum and g.holds_highest_happiness(p)
                top_b = card_budget(cs, fx, "building", h, happiest, hnw)
                top_w = card_budget(cs, fx, "wonder", h, happiest, hnw)
            if cost > (top_w if kind == "wonder" else top_b):
                continue
            if opened is None:
                # the plots with a free slot (C18: the room of a plot changes only as its
                # population reaches pop_two_slots)
                two = cs.pop_two_slots
                low, high = slots(cs, 0, fx), slots(cs, two, fx)
                opened = []
                for j, (_, pop, on) in enumerate(plots, 1):
                    if len(on) < (high if pop >= two else low):
                        opened.append((j, on))
            if special:
                for j, on in opened:
                    if code in on:
                        continue
                    fp = st.free_pop[code]
                    k = fp if fp < g.pop_supply else g.pop_supply
                    if fp and k and _comb(len(plots) + k - 1, k) > 8:
                        out.append(t.step(f"build {code} p{j} ?"))
                        continue
                    texts = list(build_texts(g, p, code, j))
                    if len(texts) <= 8:
                        out.extend([t.final(x) for x in texts])
                    else:
                        out.append(t.step(f"build {code} p{j} ?"))
            else:
                bc = t.build_at[code]
                for j, on in opened:
                    if code not in on:
                        out.append(bc[j])
    if fx.steal_card or fx.steal_res:
        for code, kind, amount in g.usable_abilities(p):
            for v in range(g.n):
                if v == p:
                    continue
                if kind == "steal_card":
                    if any(g.hands[v]):
                        out.append(t.final(f"use {code} {v}"))
                elif any(g.supply[v]):
                    opts = g.steal_res_options(p, v, amount)
                    if len(opts) == 1:
                        out.append(t.final(f"use {code} {v} {res_str(opts[0])}"))
                    else:
                        out.append(t.step(f"use {code} {v} ?"))
    out.append(t.end)
    for i in _ATTACK_IDX:
        if hand[i]:
            out.append(t.attack)
            break
    return out


@overload
def expand(g: GameState, step_text: str) -> list[Choice]: ...
@overload
def expand(g: GameState, step_text: str, make: Maker[C]) -> list[C]: ...
def expand(g: GameState, step_text: str, make: Any = Choice) -> list[Any]:
    """The next level of a step offered by :func:`choices` or a previous :func:`expand`."""
    t = _tables(make)
    text = " ".join(step_text.split())
    # a step's text ends in "?", or (a defence offered in steps) its last word is "?CODE"
    if not text.endswith("?") and not (text.startswith("defend ") and text.rsplit(" ", 1)[-1][:1] == "?"):
        raise ValueError(f"{step_text!r} is not a step (a step's text ends in '?')")
    p = g.to_move
    if p is None:
        raise ValueError("the game is over: there is nothing to expand")
    words = text.split()
    kind = words[0]
    step = g.step
    if kind == "plot" and step == PURCHASE and len(words) in (3, 4):
        code = words[1]
        if code not in g.plot_market:
            raise ValueError(f"{step_text!r} is not a step of this position")
        return _expand_plot(t, g, p, code, words[2] if len(words) == 4 else None)
    if kind == "build" and step == PURCHASE:
        code, plot = words[1], int(words[2][1:])
        return _finals(t, list(build_texts(g, p, code, plot)))
    if kind == "use" and step == PURCHASE:
        code, v = words[1], int(words[2])
        amount = g.effects(p).steal_res[code]
        return _finals(t, [f"use {code} {v} {res_str(r)}" for r in g.steal_res_options(p, v, amount)])
    if kind == "attack" and step == PURCHASE:
        return _expand_attack(t, g, p, words[1:-1] if words[-1] == "?" else words[1:])
    if kind == "discard" and step in (START_DISCARD, DISCARD):
        chosen = tuple(words[1].split(",")) if len(words) == 3 else ()
        return _expand_cards(t, g, p, chosen)
    if kind == "collect" and step == COLLECT:
        return _expand_collect(t, g, p, text[:-1].strip())
    if kind == "place" and step == PLACE:
        chosen_p = tuple(int(x[1:]) for x in words[1].split(",")) if len(words) == 3 else ()
        return _expand_place(t, g, p, chosen_p)
    if kind == "defend" and step == DEFEND:
        return _expand_defend(t, g, words)
    if kind == "damage" and step == DAMAGE:
        return _expand_damage(t, g, words)
    raise ValueError(f"{step_text!r} is not a step of this position")


def _f_range(cost: int, sup: list[int]) -> range:
    """The food amounts of the exact payments of ``cost`` from ``sup`` (C27)."""
    return range(max(0, cost - sup[1] - sup[2]), min(sup[0], cost) + 1)


def _count_payments(cost: int, sup: list[int]) -> int:
    n = 0
    for f in _f_range(cost, sup):
        rest = cost - f
        n += min(sup[1], rest) - max(0, rest - sup[2]) + 1
    return n


def _expand_plot(t: _Tables[C], g: GameState, p: int, code: str, food: str | None) -> list[C]:
    """A plot's payments: whole when at most LIMIT, else the food paid first (``plot FOR 5F ?``)."""
    cost = g.plot_cost(p)
    sup = g.supply[p]
    return _plot_level(t, code, food, cost, sup)


def _plot_level(t: _Tables[C], code: str, food: str | None, cost: int, sup: list[int]) -> list[C]:
    # (payments rarely repeat: the choices are made, not memoised)
    if food is None:
        if _count_payments(cost, sup) > LIMIT:
            step = t.step
            return [step(f"plot {code} {f}F ?") for f in _f_range(cost, sup)]
        fs: range | list[int] = _f_range(cost, sup)
    else:
        if not food.endswith("F") or not food[:-1].isdigit() or int(food[:-1]) not in _f_range(cost, sup):
            raise ValueError(f"'plot {code} {food} ?' is not a step of this position")
        fs = [int(food[:-1])]
    pays = []
    head = "plot " + code + " "
    for f in fs:
        rest = cost - f
        ftxt = f"{f}F" if f else ""
        for h in range(min(sup[1], rest), max(0, rest - sup[2]) - 1, -1):
            c = rest - h
            pays.append((head + ((ftxt + (f"{h}H" if h else "") + (f"{c}C" if c else "")) or "0"), (f, h, c)))
    pays.sort()
    make = t.make
    return [make(text, True, False, _new_move(("plot", code, 0, (), (), r, (0, 0, 0), (), (), (), (), ""))) for text, r in pays]


def _expand_attack(t: _Tables[C], g: GameState, p: int, terms: list[str]) -> list[C]:
    units = dict(g.attack_units(p))
    total = sum(units.values())
    if not terms:
        adj = g.adjacent(p)
        out = []
        for r in range(1, len(adj) + 1):
            for subset in combinations(adj, r):
                if len(subset) <= total:
                    out.append(t.step("attack " + " ".join(f"{s}=?" for s in subset)))
        return out
    fixed: list[tuple[int, tuple[str, ...]]] = []
    open_seats: list[int] = []
    for term in terms:
        s, _, lst = term.partition("=")
        if lst == "?":
            open_seats.append(int(s))
        else:
            fixed.append((int(s), tuple(lst.split(","))))
    avail = dict(units)
    for _, us in fixed:
        for u in us:
            avail[u] -= 1
    left_after = len(open_seats) - 1
    items = [(c, k) for c, k in sorted(avail.items()) if k]
    n_avail = sum(k for _, k in items)
    out = []
    for size in range(1, n_avail - left_after + 1):
        for ms in multisets(items, size):
            assign = [*fixed, (open_seats[0], ms)]
            parts = [f"{s}={','.join(us)}" for s, us in sorted(assign)]
            rest = [f"{s}=?" for s in open_seats[1:]]
            if rest:
                out.append(t.step("attack " + " ".join(sorted(parts + rest))))
            else:
                out.append(t.final("attack " + " ".join(parts)))
    return out


def _expand_cards(t: _Tables[C], g: GameState, p: int, chosen: tuple[str, ...]) -> list[C]:
    k = g.discard_n
    hand = list(g.hands[p])
    for c in chosen:
        hand[DECK_INDEX[c]] -= 1
    start = DECK_INDEX[chosen[-1]] if chosen else 0
    need = k - len(chosen)
    out = []
    for i in range(start, N_DECK):
        if not hand[i]:
            continue
        # enough cards at or after i to complete the list
        if sum(hand[i:]) < need:
            break
        nxt = (*chosen, DECK_CODES[i])
        if len(nxt) == k:
            out.append(t.final("discard " + ",".join(nxt)))
        else:
            out.append(t.step("discard " + ",".join(nxt) + " ?"))
    return out


def _collect_sig(plots: list[tuple[str, int, tuple[str, ...]]]) -> tuple[tuple[int, str, int], ...]:
    """``(plot number, code, population)`` of the plots whose collect needs a choice (C24)."""
    return tuple([(j, pl[0], pl[1]) for j, pl in enumerate(plots, 1) if pl[1] and _MULTI[pl[0]]])


def _expand_collect(t: _Tables[C], g: GameState, p: int, prefix: str) -> list[C]:
    # (collect steps rarely repeat: neither they nor their finals are memoised)
    opts = _collect_sig(g.plots[p])
    cd = t.collect_done
    done = cd.get(prefix)
    if done is None:
        done = _collect_prefix(prefix)
    i = len(done)
    if i >= len(opts) or any(d[0] != o[0] for d, o in zip(done, opts, strict=False)):
        raise ValueError(f"{prefix + ' ?'!r} is not a step of this position")
    n, code, pop = opts[i]
    letters = letter_options(code, pop)
    make = t.make
    if i + 1 == len(opts):
        return [
            make(f"{prefix} p{n}={s}", True, False, _new_move(_collect_fields((*done, (n, s))))) for s in letters
        ]
    if len(cd) > 256:
        cd.clear()
    out = []
    for s in letters:
        text = f"{prefix} p{n}={s}"
        cd[text] = (*done, (n, s))
        out.append(make(text + " ?", False, False, None))
    return out


#: the canonical letters of a collect term (FHC order), up to 12 population
_CANON_LETTERS = frozenset("".join(x) for k in range(1, 13) for x in combinations_with_replacement("FHC", k))


def _collect_prefix(prefix: str) -> tuple[tuple[int, str], ...]:
    """The terms of a collect step's text without " ?" (as :func:`parse_move` reads them)."""
    words = prefix.split(" ")
    if words[0] == "collect":
        out = []
        last = 0
        for w in words[1:]:
            n, _sep, s = w.partition("=")
            num = n[1:]
            if n[:1] != "p" or not num.isdigit() or num[0] == "0" or s not in _CANON_LETTERS:
                break
            x = int(num)
            if x <= last:
                break
            out.append((x, s))
            last = x
        else:
            return tuple(out)  # canonical: what parse_move gives
    return parse_move(prefix).collect if prefix != "collect" else ()


@lru_cache(maxsize=4096)
def _collect_terms(n: int, code: str, pop: int) -> tuple[tuple[tuple[int, str], ...], tuple[str, ...]]:
    """Plot ``n``'s collect terms ``(n, letters)`` and their texts ``pN=letters``, sorted by text."""
    letters = sorted(letter_options(code, pop))
    return tuple((n, s) for s in letters), tuple(f"p{n}={s}" for s in letters)


#: ``_new_move(fields)``: a Move from all its fields in order (no keyword handling)
_new_move: Callable[[tuple[Any, ...]], Move] = partial(tuple.__new__, Move)


def _collect_fields(ts: tuple[tuple[int, str], ...]) -> tuple[Any, ...]:
    return ("collect", "", 0, (), (), (0, 0, 0), (0, 0, 0), ts, (), (), (), "")


def _expand_place(t: _Tables[C], g: GameState, p: int, chosen: tuple[int, ...]) -> list[C]:
    assert g.combat is not None
    k = g.combat.stolen
    start = chosen[-1] if chosen else 1
    out = []
    for x in range(start, len(g.plots[p]) + 1):
        nxt = (*chosen, x)
        text = "place " + ",".join(f"p{y}" for y in nxt)
        out.append(t.final(text) if len(nxt) == k else t.step(text + " ?"))
    return out


def _expand_defend(t: _Tables[C], g: GameState, words: list[str]) -> list[C]:
    c = g.combat
    assert c is not None
    d = c.defenders[c.idx]
    attackers = c.assigned(d)
    acodes = sorted(set(attackers))
    last = words[-1]
    nxt_code = last[1:] if len(last) > 1 else acodes[0]
    done = [tuple(w.split(">")) for w in words[1:-1]]
    hand = dict(enumerate(g.hands[d]))
    for b, _ in done:
        hand[DECK_INDEX[b]] -= 1
    m = attackers.count(nxt_code)
    items = [
        (DECK_CODES[i], k) for i, k in sorted(hand.items()) if k and g.blockable(d, DECK_CODES[i], nxt_code)
    ]
    j = acodes.index(nxt_code)
    out = []
    for size in range(0, m + 1):
        for ms in multisets(items, size):
            blocks = [*done, *((b, nxt_code) for b in ms)]
            body = " ".join(["defend"] + [f"{b}>{a}" for b, a in sorted(blocks, key=lambda x: (x[1], x[0]))])
            if j + 1 < len(acodes):
                out.append(t.step(f"{body} ?{acodes[j + 1]}"))
            else:
                out.append(t.final(body))
    return out


def _damage_parts(g: GameState) -> tuple[list[tuple[int, ...]], list[tuple[tuple[int, str], ...]]]:
    """C45: the possible stolen-population lists and destroyed-building sets, separately."""
    c = g.combat
    assert c is not None
    d = c.defenders[c.idx]
    s, x = g.damage_amounts(d)
    pops = [(i + 1, pl[1]) for i, pl in enumerate(g.plots[d]) if pl[1]]
    steals = multisets(pops, min(s, sum(k for _, k in pops)))
    buildings = [(i + 1, code) for i, pl in enumerate(g.plots[d]) for code in pl[2] if _DECK[code].kind == "building"]
    destroys = list(combinations(buildings, min(x, len(buildings))))
    return steals, destroys


def _damage_move(steal: tuple[int, ...], destroy: tuple[tuple[int, str], ...]) -> Move:
    return _new_move(("damage", "", 0, (), steal, (0, 0, 0), (0, 0, 0), (), destroy, (), (), ""))


def _damage_text(steal: tuple[int, ...], destroy: tuple[tuple[int, str], ...]) -> str:
    return format_move(_damage_move(steal, destroy))


def _damage_choices(t: _Tables[C], g: GameState) -> list[C]:
    steals, destroys = _damage_parts(g)
    if len(steals) * len(destroys) <= LIMIT:
        return _finals_moves(t, [_damage_move(st, de) for st in steals for de in destroys])
    return _expand_damage(t, g, ["damage", "?"])


def _expand_damage(t: _Tables[C], g: GameState, words: list[str]) -> list[C]:
    steals, destroys = _damage_parts(g)
    if len(words) == 2:  # "damage ?": choose the stolen population first
        out = []
        for st in steals:
            if len(destroys) == 1:
                out.append(t.final(_damage_text(st, destroys[0])))
            else:
                head = "damage steal " + (",".join(f"p{x}" for x in st) if st else "-")
                out.append(t.step(head + " ?"))
        return out
    lst = words[2]
    chosen = () if lst == "-" else tuple(int(x[1:]) for x in lst.split(","))
    return _finals_moves(t, [_damage_move(chosen, de) for de in destroys])


# ---------------------------------------------------------------------------
# The previous collect (read by civcards.civ4.defaults)


def previous_collect(g: GameState, p: int) -> dict[int, str]:
    """The letters seat ``p`` wrote per plot in its previous Collect step (C24), or {}.

    Every turn begins with one ``collect`` (C23) and turns go round the table, so the
    previous collect of the seat about to collect is the ``n``-th last one.
    """
    left = g.n
    for text in reversed(g.moves):
        if text.startswith("collect"):
            left -= 1
            if left == 0:
                return dict(parse_move(text).collect)
    return {}
