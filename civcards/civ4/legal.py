"""Legal-move listing: every move the rules allow in a position (C11-C46).

:func:`legal_strings` lists the canonical texts of every legal move; the
functions beside it list the parts one decision is made of (the collect
letters, the trades, the builds, the attacks, the walls, blocks and damage of a
combat), which :mod:`.checks` and :mod:`.choices` read as well.

>>> from civcards.civ4.game import new_game
>>> legal_strings(new_game(2, seed=1))[:2]
['pick CST', 'pick PLN']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, product
from typing import Any

from .cards import CARDS, DECK_CODES, DECK_INDEX, RES_LETTERS, Res, res_str
from .effects import can_block, free_population, free_techs, unit_damage
from .moves import Move, format_move
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
from .state import State

__all__ = [
    "attack_assignments",
    "attack_units",
    "blockable",
    "bounce_cards",
    "build_plots",
    "build_texts",
    "buildable_codes",
    "collect_options",
    "damage_amounts",
    "defender",
    "free_tech_sequences",
    "legal_damage",
    "legal_defend",
    "legal_strings",
    "legal_texts",
    "legal_walls",
    "letter_options",
    "multisets",
    "payments",
    "steal_res_options",
    "trade_options",
    "usable_abilities",
]

_PRODUCED = {c: p.produced for c, p in CARDS.plots.items()}


# ---------------------------------------------------------------------------
# Small combinatorics


def multisets(items: list[tuple[Any, int]], k: int) -> list[tuple[Any, ...]]:
    """Every multiset of ``k`` elements taken from ``items`` (``(value, available)``, sorted).

    >>> multisets([("A", 2), ("B", 1)], 2)
    [('A', 'A'), ('A', 'B')]
    """
    if k == 1:
        return [(v,) for v, a in sorted(items) if a]
    if k == 2:
        srt = sorted(items)
        two: list[tuple[Any, ...]] = []
        for i, (v, a) in enumerate(srt):
            if not a:
                continue
            if a >= 2:
                two.append((v, v))
            two.extend((v, w) for w, b in srt[i + 1 :] if b)
        return two
    out: list[tuple[Any, ...]] = []
    n = len(items)

    def rec(i: int, left: int, acc: tuple[Any, ...]) -> None:
        if left == 0:
            out.append(acc)
            return
        if i == n:
            return
        v, avail = items[i]
        for take in range(min(left, avail), -1, -1):
            rec(i + 1, left - take, acc + (v,) * take)

    rec(0, k, ())
    out.sort()
    return out


def payments(cost: int, supply: list[int] | tuple[int, ...]) -> list[Res]:
    """Every exact payment ``(f, h, c)`` of ``cost`` from ``supply`` (C27 for plots)."""
    out: list[Res] = []
    f0, h0, c0 = supply
    for f in range(min(f0, cost), -1, -1):
        rest = cost - f
        for h in range(min(h0, rest), -1, -1):
            c = rest - h
            if c <= c0:
                out.append((f, h, c))
    return out


@lru_cache(maxsize=4096)


def letter_options(code: str, pop: int) -> list[str]:
    """C24: the letter strings a plot of ``code`` holding ``pop`` population may collect."""
    letters = [RES_LETTERS[r] for r in _PRODUCED[code]]
    return ["".join(c) for c in combinations_with_replacement(letters, pop)]


def _hand_items(hand: list[int], codes: Iterable[str] | None = None) -> list[tuple[str, int]]:
    if codes is None:
        return [(DECK_CODES[i], n) for i, n in enumerate(hand) if n]
    return [(c, hand[DECK_INDEX[c]]) for c in sorted(codes) if hand[DECK_INDEX[c]]]


# ---------------------------------------------------------------------------
# Legal moves


def legal_strings(g: State) -> list[str]:
    """Every legal move's canonical text, sorted by code point, without duplicates."""
    return sorted(set(legal_texts(g)))


def legal_texts(g: State) -> Iterator[str]:
    """The canonical texts of the legal moves (a text may come more than once)."""
    step = g.step
    if step == OVER:
        return
    p = g.to_move
    assert p is not None
    if step == DRAFT:
        for c in sorted(set(g.draft_revealed)):
            yield f"pick {c}"
    elif step == SETTLE:
        for i in range(len(g.plots[p])):
            yield f"settle p{i + 1}"
    elif step in (START_DISCARD, DISCARD):
        k = g.discard_n
        for ms in multisets(_hand_items(g.hands[p]), k):
            yield "discard " + ",".join(ms)
    elif step == COLLECT:
        yield from _legal_collect(g, p)
    elif step == PURCHASE:
        yield from _legal_purchase(g, p)
    elif step == WALLS:
        yield from (format_move(m) for m in legal_walls(g))
    elif step == DEFEND:
        yield from (format_move(m) for m in legal_defend(g))
    elif step == DAMAGE:
        yield from (format_move(m) for m in legal_damage(g))
    elif step == PLACE:
        assert g.combat is not None
        for ms in multisets([(i + 1, 99) for i in range(len(g.plots[p]))], g.combat.stolen):
            yield "place " + ",".join(f"p{x}" for x in ms)


def collect_options(g: State, seat: int) -> list[tuple[int, list[str]]]:
    """C24: for each plot needing a choice, its plot number and the possible letter strings."""
    out = []
    for i, (code, pop, _) in enumerate(g.plots[seat]):
        if pop and len(_PRODUCED[code]) >= 2:
            out.append((i + 1, letter_options(code, pop)))
    return out


def _legal_collect(g: State, p: int) -> Iterator[str]:
    terms = [[f"p{n}={s}" for s in letters] for n, letters in collect_options(g, p)]
    for combo in product(*terms):
        yield " ".join(("collect", *combo))


def trade_options(g: State, p: int) -> list[tuple[Res, Res]]:
    """C28: every bank trade (give exactly R, get one resource of another type)."""
    fx = g.effects(p)
    rate = fx.rate
    sup = g.supply[p]
    out: list[tuple[Res, Res]] = []
    for give in payments(rate, sup):
        types = [i for i in range(3) if give[i]]
        if g.options.same_type_trade and len(types) != 1:
            continue
        for r in range(3):
            if r not in types:
                get = [0, 0, 0]
                get[r] = 1
                out.append((give, (get[0], get[1], get[2])))
    return out


def _legal_purchase(g: State, p: int) -> Iterator[str]:
    hand = g.hands[p]
    sup = g.supply[p]
    for i, k in enumerate(hand):
        if k:
            yield f"cash {DECK_CODES[i]}"
    for give, get in trade_options(g, p):
        yield f"trade {res_str(give)} {res_str(get)}"
    if g.pop_supply > 0:
        for i in range(len(g.plots[p])):
            if g.pop_cost(p, i + 1) <= sup[0]:
                yield f"pop p{i + 1}"
    if g.plot_market:
        cost = g.plot_cost(p)
        if cost <= sum(sup):
            pays = payments(cost, sup)
            for code in sorted(set(g.plot_market)):
                for pay in pays:
                    yield f"plot {code} {res_str(pay)}"
    for code in sorted(set(g.tech_market)):
        if g.card_cost(p, code) <= sup[2]:
            yield f"tech {code}"
    for code in buildable_codes(g, p):
        for plot in build_plots(g, p, code):
            yield from build_texts(g, p, code, plot)
    yield from _use_texts(g, p)
    yield "end"
    yield from _attack_texts(g, p)


def buildable_codes(g: State, p: int) -> list[str]:
    """Buildings and wonders in hand that ``p`` can pay for (C31)."""
    out = []
    hand = g.hands[p]
    h = g.supply[p][1]
    for i, k in enumerate(hand):
        if k:
            card = g.cs.deck[DECK_CODES[i]]
            if card.kind != "unit" and g.card_cost(p, card.code) <= h:
                out.append(card.code)
    return out


def build_plots(g: State, p: int, code: str) -> list[int]:
    """Own plots with room for ``code`` (C18)."""
    out = []
    for i, (_, _, on) in enumerate(g.plots[p]):
        if code not in on and len(on) < g.slots(p, i + 1):
            out.append(i + 1)
    return out


def free_tech_sequences(g: State, amount: int) -> list[tuple[str, ...]]:
    """C62: every sequence of technologies a ``free_tech`` of ``amount`` can take now."""
    out: list[tuple[str, ...]] = []

    def rec(market: list[str], pos: int, left: int, acc: tuple[str, ...]) -> None:
        if left == 0 or not market:
            out.append(acc)
            return
        for c in sorted(set(market)):
            m2 = list(market)
            m2.remove(c)
            pos2 = pos
            if pos2 < len(g.init_techs):
                m2.append(g.init_techs[pos2])
                pos2 += 1
            if not m2 and pos2 >= len(g.init_techs) and not g.options.finish_round:
                out.append((*acc, c))  # C68: the game ends at once
                continue
            rec(m2, pos2, left - 1, (*acc, c))

    rec(list(g.tech_market), g.tech_pos, amount, ())
    return out


def build_texts(g: State, p: int, code: str, plot: int) -> Iterator[str]:
    fp = free_population(g.cs, code)
    ft = free_techs(g.cs, code)
    base = f"build {code} p{plot}"
    if fp:
        k = min(fp, g.pop_supply)
        if k == 0:
            yield base
        else:
            for ms in multisets([(i + 1, 99) for i in range(len(g.plots[p]))], k):
                yield base + " settle " + ",".join(f"p{x}" for x in ms)
    elif ft:
        for seq in free_tech_sequences(g, ft):
            yield base + (" free " + ",".join(seq) if seq else "")
    else:
        yield base


def usable_abilities(g: State, p: int) -> list[tuple[str, str, int]]:
    """C35: ``(code, kind, amount)`` of the activated abilities ``p`` may use now."""
    fx = g.effects(p)
    out = []
    for kind, table in (("steal_card", fx.steal_card), ("steal_resources", fx.steal_res)):
        for code, amount in table.items():
            if code in g.used:
                continue
            if g.options.one_shot_steals and code not in g.new_techs:
                continue
            out.append((code, kind, amount))
    return sorted(out)


def steal_res_options(g: State, p: int, victim: int, amount: int) -> list[Res]:
    """C64: the resource choices of a ``steal_resources`` of ``amount`` from ``victim``."""
    sup = g.supply[victim]
    k = min(amount, sum(sup))
    return payments(k, sup)


def _use_texts(g: State, p: int) -> Iterator[str]:
    for code, kind, amount in usable_abilities(g, p):
        for v in range(g.n):
            if v == p:
                continue
            if kind == "steal_card":
                if sum(g.hands[v]):
                    yield f"use {code} {v}"
            elif sum(g.supply[v]):
                for r in steal_res_options(g, p, v, amount):
                    yield f"use {code} {v} {res_str(r)}"


def attack_units(g: State, p: int) -> list[tuple[str, int]]:
    """Units in ``p``'s hand whose profile has ``attack`` (C41), as ``(code, count)``."""
    hand = g.hands[p]
    return [(c, hand[DECK_INDEX[c]]) for c in DECK_CODES if g.cs.deck[c].attack and hand[DECK_INDEX[c]]]


def attack_assignments(g: State, p: int) -> list[tuple[tuple[int, tuple[str, ...]], ...]]:
    """C41: every declaration (a non-empty unit multiset per chosen adjacent defender)."""
    units = attack_units(g, p)
    if not units:
        return []
    adj = g.adjacent(p)
    out: list[tuple[tuple[int, tuple[str, ...]], ...]] = []

    def rec(i: int, avail: list[tuple[str, int]], acc: tuple[tuple[int, tuple[str, ...]], ...]) -> None:
        if i == len(adj):
            if acc:
                out.append(acc)
            return
        rec(i + 1, avail, acc)
        total = sum(k for _, k in avail)
        for size in range(1, total + 1):
            for ms in multisets(avail, size):
                left = [(c, k - ms.count(c)) for c, k in avail]
                rec(i + 1, left, (*acc, (adj[i], ms)))

    rec(0, units, ())
    return out


def _attack_texts(g: State, p: int) -> Iterator[str]:
    for a in attack_assignments(g, p):
        yield " ".join(["attack"] + [f"{s}={','.join(u)}" for s, u in a])


def defender(g: State) -> int:
    """The defender whose combat decision is at hand (C42-C45)."""
    c = g.combat
    assert c is not None
    return c.defenders[c.idx]


def bounce_cards(g: State, d: int) -> list[tuple[int, str, int, bool]]:
    """The defender's cards in play with ``bounce``: ``(plot, code, amount, breakable)``."""
    out = []
    for i, (_, _, on) in enumerate(g.plots[d]):
        for c in on:
            for e in g.cs.deck[c].effects:
                if e.kind == "bounce":
                    out.append((i + 1, c, e.amount, e.breakable))
    return out


def legal_walls(g: State) -> list[Move]:
    c = g.combat
    assert c is not None
    d = defender(g)
    units = c.assigned(d)
    bc = bounce_cards(g, d)
    breakable = sorted({pl for pl, _, _, br in bc if br})
    k = sum(1 for u in units if g.cs.deck[u].breaks_walls)
    lose_n = min(k, len(breakable))
    out = []
    for lose in combinations(breakable, lose_n):
        b = sum(a for pl, _, a, br in bc if not (br and pl in lose))
        left = list(units)
        removed = 0
        for u in sorted(units):
            if removed < lose_n and g.cs.deck[u].breaks_walls:
                left.remove(u)
                removed += 1
        items = sorted({u: left.count(u) for u in left}.items())
        for bounce in multisets(items, min(b, len(left))):
            out.append(Move("walls", plots=tuple(lose), cards=bounce))
    return out


def blockable(g: State, d: int, blocker: str, attacker: str) -> bool:
    """C43, C66: whether ``d``'s unit ``blocker`` may block ``attacker``."""
    return can_block(g.cs, g.effects(d), blocker, attacker)


def legal_defend(g: State) -> list[Move]:
    c = g.combat
    assert c is not None
    d = defender(g)
    attackers = c.assigned(d)
    acodes = sorted(set(attackers))
    hand = g.hands[d]
    out: list[Move] = []

    def rec(i: int, avail: dict[str, int], acc: tuple[tuple[str, str], ...]) -> None:
        if i == len(acodes):
            out.append(Move("defend", blocks=acc))
            return
        a = acodes[i]
        m = attackers.count(a)
        items = [(b, k) for b, k in sorted(avail.items()) if k and blockable(g, d, b, a)]
        for size in range(0, m + 1):
            for ms in multisets(items, size):
                av2 = dict(avail)
                for b in ms:
                    av2[b] -= 1
                rec(i + 1, av2, acc + tuple((b, a) for b in ms))

    avail = {u: hand[DECK_INDEX[u]] for u in DECK_CODES if g.cs.deck[u].defend and hand[DECK_INDEX[u]]}
    rec(0, avail, ())
    return out


def damage_amounts(g: State, d: int) -> tuple[int, int]:
    """C45, C66: (S, X) of the units still assigned to defender ``d``."""
    c = g.combat
    assert c is not None
    cs = g.cs
    fx = g.effects(c.attacker)
    s = x = 0
    for u in c.assigned(d):
        us, ux = unit_damage(cs, fx, u)
        s += us
        x += ux
    return s, x


def legal_damage(g: State) -> list[Move]:
    d = defender(g)
    s, x = damage_amounts(g, d)
    pops = [(i + 1, pl[1]) for i, pl in enumerate(g.plots[d]) if pl[1]]
    total_pop = sum(k for _, k in pops)
    buildings = [
        (i + 1, code) for i, pl in enumerate(g.plots[d]) for code in pl[2] if g.cs.deck[code].kind == "building"
    ]
    out = []
    for steal in multisets(pops, min(s, total_pop)):
        for destroy in combinations(buildings, min(x, len(buildings))):
            out.append(Move("damage", plots=steal, destroy=tuple(destroy)))
    return out

# -- applying moves --------------------------------------------------------
