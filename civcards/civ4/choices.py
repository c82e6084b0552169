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

from dataclasses import dataclass
from itertools import combinations

from .cards import CARDS, DECK_CODES, DECK_INDEX, res_str
from .game import (
    COLLECT,
    DAMAGE,
    DEFEND,
    DISCARD,
    DRAFT,
    HAPPY_DISCOUNT,
    MAX_SLOTS,
    MIN_COST,
    OVER,
    PLACE,
    POP_COST_BASE,
    POP_COST_STEP,
    POP_TWO_SLOTS,
    PURCHASE,
    SETTLE,
    START_DISCARD,
    WALLS,
    GameState,
    multisets,
    payments,
)
from .moves import Move, format_move, parse_move

#: Decisions with at most this many legal moves are offered whole.
LIMIT = 64

_DECK = CARDS.deck


@dataclass(frozen=True, slots=True)
class Choice:
    """A complete move (``final``) or a step to :func:`expand` (its text ends in ``?``)."""

    text: str
    final: bool


def _finals(texts: list[str]) -> list[Choice]:
    return [Choice(t, True) for t in sorted(set(texts))]


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


def choices(g: GameState) -> list[Choice]:
    """The first level of the decision at hand ([] when the game is over)."""
    step = g.step
    if step == OVER:
        return []
    p = g.to_move
    assert p is not None
    if step in (DRAFT, SETTLE, WALLS):
        return _finals(g.legal_strings())
    if step in (START_DISCARD, DISCARD):
        hand = g.hands[p]
        if _count_multisets([k for k in hand if k], g.discard_n) <= LIMIT:
            return _finals(g.legal_strings())
        return expand(g, "discard ?")
    if step == COLLECT:
        opts = g.collect_options(p)
        total = 1
        for _, o in opts:
            total *= len(o)
        if total <= LIMIT:
            return _finals(g.legal_strings())
        return expand(g, "collect ?")
    if step == PURCHASE:
        return _purchase(g, p)
    if step == DEFEND:
        return _small_or(g, "defend ?")
    if step == DAMAGE:
        return _damage_choices(g)
    if step == PLACE:
        assert g.combat is not None
        if _count_multisets([g.combat.stolen] * len(g.plots[p]), g.combat.stolen) <= LIMIT:
            return _finals(g.legal_strings())
        return expand(g, "place ?")
    raise AssertionError(step)


def _small_or(g: GameState, step_text: str) -> list[Choice]:
    legal = g.legal_strings()
    if len(legal) <= LIMIT:
        return _finals(legal)
    return expand(g, step_text)


_CASH = {c: Choice(f"cash {c}", True) for c in DECK_CODES}
_TECH = {c: Choice(f"tech {c}", True) for c in CARDS.techs}
_PLOT_STEP = {c: Choice(f"plot {c} ?", False) for c in CARDS.plots}
_POP = [Choice(f"pop p{i}", True) for i in range(64)]
_END = Choice("end", True)
_ATTACK = Choice("attack ?", False)
_TRADES: dict[tuple[int, int, int, int, bool], list[Choice]] = {}


def _trade_choices(g: GameState, p: int) -> list[Choice]:
    rate = g.effects(p).rate
    sup = g.supply[p]
    key = (min(sup[0], rate), min(sup[1], rate), min(sup[2], rate), rate, g.options.same_type_trade)
    got = _TRADES.get(key)
    if got is None:
        got = [Choice(f"trade {res_str(give)} {res_str(get)}", True) for give, get in g.trade_options(p)]
        _TRADES[key] = got
    return got


_BUILD: dict[tuple[str, int], Choice] = {}
_SPECIAL = frozenset(
    c for c, d in _DECK.items() if any(e.kind in ("free_population", "free_tech") for e in d.effects)
)


def _purchase(g: GameState, p: int) -> list[Choice]:
    hand = g.hands[p]
    out: list[Choice] = [_CASH[DECK_CODES[i]] for i, k in enumerate(hand) if k]
    out.extend(_trade_choices(g, p))
    sup = g.supply[p]
    fx = g.effects(p)
    disc = fx.disc
    plots = g.plots[p]
    if g.pop_supply > 0:
        base = POP_COST_BASE - disc["population"]
        for i, pl in enumerate(plots):
            if max(MIN_COST, base + POP_COST_STEP * pl[1]) <= sup[0]:
                out.append(_POP[i + 1])
    if g.plot_market and g.plot_cost(p) <= sup[0] + sup[1] + sup[2]:
        for code in sorted(set(g.plot_market)):
            out.append(_PLOT_STEP[code])
    hh = g.highest_happiness() == p
    hnw = g.options.happiness_not_wonders
    techs = CARDS.techs
    for code in sorted(set(g.tech_market)):
        c = techs[code].cost - disc["tech"] - (HAPPY_DISCOUNT if hh else 0)
        if max(MIN_COST, c) <= sup[2]:
            out.append(_TECH[code])
    slots = fx.slots
    for i, k in enumerate(hand):
        if not k:
            continue
        card = _DECK[DECK_CODES[i]]
        kind = card.kind
        if kind == "unit":
            continue
        c = card.cost - disc[kind] - (HAPPY_DISCOUNT if hh and not (kind == "wonder" and hnw) else 0)
        if max(MIN_COST, c) > sup[1]:
            continue
        code = card.code
        for j, (_, pop, on) in enumerate(plots):
            room = min(max(slots, 2 if pop >= POP_TWO_SLOTS else 1), MAX_SLOTS)
            if code in on or len(on) >= room:
                continue
            if code in _SPECIAL:
                texts = list(g._build_texts(p, code, j + 1))
                if len(texts) <= 8:
                    out.extend(Choice(t, True) for t in texts)
                else:
                    out.append(Choice(f"build {code} p{j + 1} ?", False))
            else:
                ch = _BUILD.get((code, j + 1))
                if ch is None:
                    ch = _BUILD[(code, j + 1)] = Choice(f"build {code} p{j + 1}", True)
                out.append(ch)
    for code, kind, amount in g.usable_abilities(p):
        for v in range(g.n):
            if v == p:
                continue
            if kind == "steal_card":
                if sum(g.hands[v]):
                    out.append(Choice(f"use {code} {v}", True))
            elif sum(g.supply[v]):
                opts = g.steal_res_options(p, v, amount)
                if len(opts) == 1:
                    out.append(Choice(f"use {code} {v} {res_str(opts[0])}", True))
                else:
                    out.append(Choice(f"use {code} {v} ?", False))
    out.append(_END)
    if g.attack_units(p):
        out.append(_ATTACK)
    return out


def expand(g: GameState, step_text: str) -> list[Choice]:
    """The next level of a step offered by :func:`choices` or a previous :func:`expand`."""
    text = " ".join(step_text.split())
    if not text.endswith("?"):
        raise ValueError(f"{step_text!r} is not a step (a step's text ends in '?')")
    p = g.to_move
    if p is None:
        raise ValueError("the game is over: there is nothing to expand")
    words = text.split()
    kind = words[0]
    if kind == "plot" and g.step == PURCHASE:
        code = words[1]
        return _finals([f"plot {code} {res_str(pay)}" for pay in payments(g.plot_cost(p), g.supply[p])])
    if kind == "build" and g.step == PURCHASE:
        code, plot = words[1], int(words[2][1:])
        return _finals(list(g._build_texts(p, code, plot)))
    if kind == "use" and g.step == PURCHASE:
        code, v = words[1], int(words[2])
        amount = g.effects(p).steal_res[code]
        return _finals([f"use {code} {v} {res_str(r)}" for r in g.steal_res_options(p, v, amount)])
    if kind == "attack" and g.step == PURCHASE:
        return _expand_attack(g, p, words[1:-1] if words[-1] == "?" else words[1:])
    if kind == "discard" and g.step in (START_DISCARD, DISCARD):
        chosen = tuple(words[1].split(",")) if len(words) == 3 else ()
        return _expand_cards(g, p, chosen)
    if kind == "collect" and g.step == COLLECT:
        return _expand_collect(g, p, text[: -1].strip())
    if kind == "place" and g.step == PLACE:
        chosen_p = tuple(int(x[1:]) for x in words[1].split(",")) if len(words) == 3 else ()
        return _expand_place(g, p, chosen_p)
    if kind == "defend" and g.step == DEFEND:
        return _expand_defend(g, words)
    if kind == "damage" and g.step == DAMAGE:
        return _expand_damage(g, words)
    raise ValueError(f"{step_text!r} is not a step of this position")


def _expand_attack(g: GameState, p: int, terms: list[str]) -> list[Choice]:
    units = dict(g.attack_units(p))
    total = sum(units.values())
    if not terms:
        adj = g.adjacent(p)
        out = []
        for r in range(1, len(adj) + 1):
            for subset in combinations(adj, r):
                if len(subset) <= total:
                    out.append(Choice("attack " + " ".join(f"{s}=?" for s in subset), False))
        return out
    fixed: list[tuple[int, tuple[str, ...]]] = []
    open_seats: list[int] = []
    for t in terms:
        s, _, lst = t.partition("=")
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
                out.append(Choice("attack " + " ".join(sorted(parts + rest)), False))
            else:
                out.append(Choice("attack " + " ".join(parts), True))
    return out


def _expand_cards(g: GameState, p: int, chosen: tuple[str, ...]) -> list[Choice]:
    k = g.discard_n
    hand = list(g.hands[p])
    for c in chosen:
        hand[DECK_INDEX[c]] -= 1
    start = DECK_INDEX[chosen[-1]] if chosen else 0
    need = k - len(chosen)
    out = []
    for i in range(start, len(hand)):
        if not hand[i]:
            continue
        # enough cards at or after i to complete the list
        if sum(hand[i:]) < need:
            break
        nxt = (*chosen, DECK_CODES[i])
        if len(nxt) == k:
            out.append(Choice("discard " + ",".join(nxt), True))
        else:
            out.append(Choice("discard " + ",".join(nxt) + " ?", False))
    return out


def _expand_collect(g: GameState, p: int, prefix: str) -> list[Choice]:
    done = parse_move(prefix).collect if prefix != "collect" else ()
    opts = g.collect_options(p)
    i = len(done)
    n, letters = opts[i]
    out = []
    for s in letters:
        terms = [*done, (n, s)]
        text = " ".join(["collect"] + [f"p{x}={y}" for x, y in terms])
        out.append(Choice(text, True) if i + 1 == len(opts) else Choice(text + " ?", False))
    return out


def _expand_place(g: GameState, p: int, chosen: tuple[int, ...]) -> list[Choice]:
    assert g.combat is not None
    k = g.combat.stolen
    start = chosen[-1] if chosen else 1
    out = []
    for x in range(start, len(g.plots[p]) + 1):
        nxt = (*chosen, x)
        text = "place " + ",".join(f"p{y}" for y in nxt)
        out.append(Choice(text, True) if len(nxt) == k else Choice(text + " ?", False))
    return out


def _expand_defend(g: GameState, words: list[str]) -> list[Choice]:
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
            body = " ".join(["defend"] + [f"{b}>{a}" for b, a in sorted(blocks, key=lambda t: (t[1], t[0]))])
            if j + 1 < len(acodes):
                out.append(Choice(f"{body} ?{acodes[j + 1]}", False))
            else:
                out.append(Choice(body, True))
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


def _damage_text(steal: tuple[int, ...], destroy: tuple[tuple[int, str], ...]) -> str:
    return format_move(Move("damage", plots=steal, destroy=destroy))


def _damage_choices(g: GameState) -> list[Choice]:
    steals, destroys = _damage_parts(g)
    if len(steals) * len(destroys) <= LIMIT:
        return _finals([_damage_text(st, de) for st in steals for de in destroys])
    return _expand_damage(g, ["damage", "?"])


def _expand_damage(g: GameState, words: list[str]) -> list[Choice]:
    steals, destroys = _damage_parts(g)
    if len(words) == 2:  # "damage ?": choose the stolen population first
        out = []
        for st in steals:
            if len(destroys) == 1:
                out.append(Choice(_damage_text(st, destroys[0]), True))
            else:
                head = "damage steal " + (",".join(f"p{x}" for x in st) if st else "-")
                out.append(Choice(head + " ?", False))
        return out
    lst = words[2]
    chosen = () if lst == "-" else tuple(int(x[1:]) for x in lst.split(","))
    return _finals([_damage_text(chosen, de) for de in destroys])


# ---------------------------------------------------------------------------
# Defaults


def _reserve(g: GameState, p: int) -> list[int]:
    """What the next purchases are likely to need: cheapest population, building, technology."""
    f = min((g.pop_cost(p, i + 1) for i in range(len(g.plots[p]))), default=0)
    h = min((g.card_cost(p, c) for c in DECK_CODES if g.hands[p][DECK_INDEX[c]] and _DECK[c].kind != "unit"), default=0)
    c = min((g.card_cost(p, t) for t in g.tech_market), default=0)
    return [f, h, c]


def _default_collect(g: GameState, p: int) -> str:
    opts = g.collect_options(p)
    if not opts:
        return "collect"
    sup = list(g.supply[p])
    need = _reserve(g, p)
    terms = []
    for n, _letters in opts:
        code, pop, _ = g.plots[p][n - 1]
        types = [r for r in range(3) if CARDS.plots[code].yields[r] > 0]
        chosen = []
        for _ in range(pop):
            r = min(types, key=lambda t: (sup[t] - need[t], t))
            sup[r] += 1
            chosen.append("FHC"[r])
        terms.append(f"p{n}=" + "".join(sorted(chosen, key="FHC".index)))
    return " ".join(["collect", *terms])


def default_move(g: GameState, step_text: str | None = None) -> str:
    """A sensible complete move for a step (or for the whole decision when ``step_text`` is None).

    Payments keep what the next purchases need; a collect balances the
    supply against those needs; discards and cash drop the cheapest cards.
    """
    p = g.to_move
    if p is None:
        raise ValueError("the game is over: there is no move to make")
    if step_text is None:
        if g.step == PURCHASE:
            return "end"
        if g.step == COLLECT:
            return _default_collect(g, p)
        top = choices(g)
        first = top[0]
        if g.step in (START_DISCARD, DISCARD):
            return _default_discard(g, p)
        return first.text if first.final else default_move(g, first.text)
    words = step_text.split()
    if words[0] == "collect":
        return _default_collect(g, p)
    if words[0] in ("discard",):
        return _default_discard(g, p)
    if words[0] == "plot":
        need = _reserve(g, p)
        sup = g.supply[p]

        def key(pay: tuple[int, int, int]) -> tuple[int, ...]:
            short = sum(max(0, need[i] - (sup[i] - pay[i])) for i in range(3))
            return (short, -min(sup[i] - pay[i] for i in range(3)), *pay)

        best = min(payments(g.plot_cost(p), sup), key=key)
        return f"plot {words[1]} {res_str(best)}"
    opts = _all_finals(g, step_text)
    if not opts:
        raise ValueError(f"{step_text!r} leads to no legal move")
    if words[0] == "use":
        v = int(words[2])
        vs = g.supply[v]
        return max(opts, key=lambda t: (sum(parse_move(t).res[i] * vs[i] for i in range(3)), t))
    if words[0] == "attack":
        return max(opts, key=lambda t: (sum(len(u) for _, u in parse_move(t).attack), t))
    if words[0] == "defend":
        return max(opts, key=lambda t: (len(parse_move(t).blocks), t))
    return opts[0]


def _default_discard(g: GameState, p: int) -> str:
    hand = g.hand(p)
    hand.sort(key=lambda c: (sum(_DECK[c].resource), c))
    out = sorted(hand[: g.discard_n])
    return "discard " + ",".join(out)


def _all_finals(g: GameState, step_text: str) -> list[str]:
    out: list[str] = []
    stack = [step_text]
    while stack and len(out) < 5000:
        for c in expand(g, stack.pop()):
            if c.final:
                out.append(c.text)
            else:
                stack.append(c.text)
    return sorted(out)
