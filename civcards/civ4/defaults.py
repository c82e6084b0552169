"""Proposed moves: a sensible complete move for a decision or one of its steps.

:func:`default_move` is what the terminal and the web offer first (payments
keep what the next purchases need, a collect balances the supply against those
needs, discards drop the cheapest cards); it reads the costs of the engine
(C26, through :class:`~civcards.civ4.game.GameState`) and the factored
choices of :mod:`civcards.civ4.choices`.

>>> from civcards.civ4.game import new_game
>>> g = new_game(2, seed=1)
>>> default_move(g) in g.legal_strings()
True
"""

from __future__ import annotations

from .cards import CARDS, DECK_CODES, DECK_INDEX, res_str
from .choices import choices, expand, previous_collect
from .game import GameState
from .legal import payments
from .moves import parse_move
from .phases import COLLECT, DISCARD, PURCHASE, START_DISCARD

__all__ = ["default_move"]

_DECK = CARDS.deck


def _reserve(g: GameState, p: int) -> list[int]:
    """What the next purchases are likely to need: cheapest population, building, technology."""
    f = min((g.pop_cost(p, i + 1) for i in range(len(g.plots[p]))), default=0)
    h = min((g.card_cost(p, c) for c in DECK_CODES if g.hands[p][DECK_INDEX[c]] and _DECK[c].kind != "unit"), default=0)
    c = min((g.card_cost(p, t) for t in g.tech_market), default=0)
    return [f, h, c]


def _default_collect(g: GameState, p: int) -> str:
    """As the seat chose last time where that still fits the plot, else the best guess."""
    opts = g.collect_options(p)
    if not opts:
        return "collect"
    prev = previous_collect(g, p) if g.step == COLLECT and g.to_move == p else {}
    sup = list(g.supply[p])
    need = _reserve(g, p)
    terms = []
    for n, letters in opts:
        last = prev.get(n)
        if last is not None and last in letters:
            for ch in last:
                sup["FHC".index(ch)] += 1
            terms.append(f"p{n}={last}")
            continue
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

        pays = payments(g.plot_cost(p), sup)
        if len(words) == 4:  # "plot CODE xF ?": the food is chosen
            pays = [r for r in pays if f"{r[0]}F" == words[2]]
        if not pays:
            raise ValueError(f"{step_text!r} leads to no legal move")
        best = min(pays, key=key)
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
    deck = g.cs.deck
    hand.sort(key=lambda c: (sum(deck[c].resource), c))
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
