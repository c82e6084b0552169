"""Applying a move: how a legal move changes the position (C10-C46, C60-C70).

:func:`apply` checks a move (:mod:`.checks`) and applies it, or raises
:class:`~civcards.civ4.phases.IllegalMoveError` and changes nothing;
:func:`apply_unchecked` applies a move known to be legal. Chance (a reshuffle,
a stolen card) is drawn from the game's seed, or read from the record's chance
entries when the game replays one (NOTATION.md clarification 6).

>>> from civcards.civ4.game import new_game
>>> g = new_game(2, seed=1)
>>> apply(g, "pick CST")
>>> g.to_move, g.moves
(1, ['pick CST'])
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from .cards import CARDS, DECK_CODES, DECK_INDEX, N_DECK, Res
from .checks import check
from .effects import discard_count, effects_plus, plot_yield
from .legal import bounce_cards, defender
from .moves import Move, NotationError, format_move, parse_move
from .phases import (
    COLLECT,
    DAMAGE,
    DEFEND,
    DISCARD,
    DRAFT,
    DRAW,
    MARKET_PLOTS,
    MARKET_TECHS,
    OVER,
    PLACE,
    PURCHASE,
    SETTLE,
    STALEMATE,
    START_DISCARD,
    START_DISCARD_N,
    START_HAND,
    WALLS,
    Combat,
    IllegalMoveError,
)
from .state import State

__all__ = ["apply", "apply_unchecked", "execute", "finish", "format_cached", "take_plots"]

_PRODUCED = {c: p.produced for c, p in CARDS.plots.items()}


@lru_cache(maxsize=65536)
def format_cached(m: Move) -> str:
    """The canonical text of ``m`` (moves are immutable: their texts are remembered)."""
    return format_move(m)


@lru_cache(maxsize=1024)
def _letter_counts(letters: str) -> Res:
    """How many F, H and C a collect term's letters name."""
    return (letters.count("F"), letters.count("H"), letters.count("C"))


class _ChanceMismatch(Exception):
    """A recorded chance outcome that does not fit its event (NOTATION.md clarification 6)."""


def apply(g: State, move: Move | str) -> None:
    """Apply a legal move; an illegal one raises :class:`IllegalMoveError` and changes nothing."""
    if isinstance(move, str):
        try:
            m = parse_move(move)
        except NotationError as e:
            raise IllegalMoveError(move, f"the move cannot be read: {e}") from None
    else:
        m = move
    if g.step == OVER:
        raise IllegalMoveError(m, "C68: the game is over; no move follows its end")
    err = check(g, m)
    if err is not None:
        raise IllegalMoveError(m, err)
    snapshot = g.copy() if g.chance_pos < len(g.chance_in) else None
    try:
        execute(g, m)
    except _ChanceMismatch as e:
        assert snapshot is not None
        g.restore(snapshot)
        raise IllegalMoveError(m, str(e)) from None
    g.moves.append(format_cached(m))


def apply_unchecked(g: State, m: Move, text: str | None = None) -> None:
    """Apply a move known to be legal now (one that :func:`~civcards.civ4.choices.choices`
    or :func:`~civcards.civ4.choices.expand` gave for this position) without checking it;
    ``text`` is its canonical text when the caller has it. Anything else may corrupt the
    state: use :meth:`apply` for moves from outside."""
    if g.chance_pos < len(g.chance_in):
        apply(g, m)
        return
    execute(g, m)
    g.moves.append(text if text is not None else format_cached(m))


def execute(g: State, m: Move) -> None:
    """Apply the legal move ``m`` to ``g`` (no check; the move is not recorded in ``g.moves``)."""
    step = g.step
    p = g.to_move
    assert p is not None
    if step == PURCHASE:  # the most frequent first
        _exec_purchase(g, p, m)
    elif step == DRAFT:
        g.draft_revealed.remove(m.code)
        g.plots[p].append((m.code, 0, ()))
        _advance_draft(g)
    elif step == SETTLE:
        _add_pop(g, p, m.num, 1)
        g.pop_supply -= 1
        g.setup_i += 1
        if g.setup_i < g.n:
            g.to_move = g.setup_i
        else:
            _deal_hands(g)
    elif step == START_DISCARD:
        _discard(g, p, m.cards)
        g.setup_i += 1
        if g.setup_i < g.n:
            g.to_move = g.setup_i
            g.discard_n = START_DISCARD_N
        else:
            g.round = 1
            _start_turn(g, 0)
    elif step == DISCARD:
        _discard(g, p, m.cards)
        _end_turn(g)
    elif step == COLLECT:
        _collect(g, p, m)
        g.step = PURCHASE
    elif step == WALLS:
        _exec_walls(g, m)
    elif step == DEFEND:
        _exec_defend(g, m)
    elif step == DAMAGE:
        _exec_damage(g, m)
    elif step == PLACE:
        for x in m.plots:
            _add_pop(g, p, x, 1)
        assert g.combat is not None
        g.combat.stolen = 0
        _end_combat(g)


def _add_pop(g: State, p: int, plot: int, k: int) -> None:
    code, pop, on = g.plots[p][plot - 1]
    g.plots[p][plot - 1] = (code, pop + k, on)


def _discard(g: State, p: int, cards: Iterable[str]) -> None:
    hand = g.hands[p]
    for c in cards:
        i = DECK_INDEX[c]
        hand[i] -= 1
        g.discard[i] += 1


def _advance_draft(g: State) -> None:
    n = g.n
    g.setup_i += 1
    if g.setup_i < n:
        g.to_move = g.setup_i if g.draft_round == 1 else n - 1 - g.setup_i
        return
    if g.draft_round == 1:
        g.draft_round = 2
        g.setup_i = 0
        g.draft_revealed = sorted(take_plots(g, n))
        g.to_move = n - 1
        return
    # C12: markets, then C13: settle
    g.draft_round = 0
    g.draft_revealed = []
    g.plot_market = sorted(take_plots(g, MARKET_PLOTS))
    g.tech_market = sorted(_take_techs(g, MARKET_TECHS))
    g.step = SETTLE
    g.setup_i = 0
    g.to_move = 0


def take_plots(g: State, k: int) -> list[str]:
    out = list(g.init_plots[g.plot_pos : g.plot_pos + k])
    g.plot_pos += len(out)
    return out


def _take_techs(g: State, k: int) -> list[str]:
    out = list(g.init_techs[g.tech_pos : g.tech_pos + k])
    g.tech_pos += len(out)
    return out


def _deal_hands(g: State) -> None:
    for s in range(g.n):
        for _ in range(START_HAND[s]):
            _draw_one(g, s)
    g.step = START_DISCARD
    g.setup_i = 0
    g.to_move = 0
    g.discard_n = START_DISCARD_N


def _draw_one(g: State, p: int) -> bool:
    """C38: draw one card, reshuffling the discard pile when the deck is empty."""
    if g.deck_pos >= len(g.deck):
        if not any(g.discard):
            return False
        _reshuffle(g)
    c = g.deck[g.deck_pos]
    g.deck_pos += 1
    g.hands[p][DECK_INDEX[c]] += 1
    return True


def _next_chance(g: State) -> dict[str, Any] | None:
    if g.chance_pos < len(g.chance_in):
        e = g.chance_in[g.chance_pos]
        g.chance_pos += 1
        return e
    return None


def _rng(g: State) -> random.Random:
    return random.Random(f"civ4:{g.seed}:{len(g.chance_out)}")


def _reshuffle(g: State) -> None:
    pile = g.discard_list()
    e = _next_chance(g)
    if e is not None:
        if e.get("kind") != "reshuffle":
            raise _ChanceMismatch(f"C38: the deck must be reshuffled but chance entry {g.chance_pos - 1} is a {e.get('kind')!r} (clarification 6)")
        order = list(e["deck"])
        if sorted(order) != pile:
            raise _ChanceMismatch(f"C38: chance entry {g.chance_pos - 1} is not an ordering of the discard pile (clarification 6)")
    else:
        order = pile
        _rng(g).shuffle(order)
    g.chance_out.append({"kind": "reshuffle", "deck": tuple(order)})
    g.deck = tuple(order)
    g.deck_pos = 0
    g.discard = [0] * N_DECK


def _start_turn(g: State, seat: int) -> None:
    g.active = seat
    g.to_move = seat
    g.step = COLLECT
    g.used = ()
    g.new_techs = ()


def _collect(g: State, p: int, m: Move) -> None:
    """C23, C24, C53-C55."""
    fx = g.effects(p)
    b0, b1, b2 = fx.boost
    g0, g1, g2 = fx.income
    terms = dict(m.collect)
    for i, (code, pop, on) in enumerate(g.plots[p], 1):
        y = plot_yield(code, on, g.cs)
        if y[0]:
            g0 += y[0] + b0
        if y[1]:
            g1 += y[1] + b1
        if y[2]:
            g2 += y[2] + b2
        if pop:
            letters = terms.get(i)
            if letters is None:
                r = _PRODUCED[code][0]
                if r == 0:
                    g0 += pop
                elif r == 1:
                    g1 += pop
                else:
                    g2 += pop
            else:
                n0, n1, n2 = _letter_counts(letters)
                g0 += n0
                g1 += n1
                g2 += n2
    sup = g.supply[p]
    sup[0] += g0
    sup[1] += g1
    sup[2] += g2


def _pay(g: State, p: int, r: Iterable[int]) -> None:
    sup = g.supply[p]
    for i, x in enumerate(r):
        sup[i] -= x


def _exec_purchase(g: State, p: int, m: Move) -> None:
    k = m.kind
    sup = g.supply[p]
    if k == "cash":
        i = DECK_INDEX[m.code]
        g.hands[p][i] -= 1
        g.discard[i] += 1
        r = g.cs.deck[m.code].resource
        for j in range(3):
            sup[j] += r[j]
    elif k == "trade":
        for j in range(3):
            sup[j] += m.get[j] - m.res[j]
    elif k == "pop":
        sup[0] -= g.pop_cost(p, m.num)
        _add_pop(g, p, m.num, 1)
        g.pop_supply -= 1
    elif k == "plot":
        _pay(g, p, m.res)
        g.plot_market.remove(m.code)
        g.plots[p].append((m.code, 0, ()))
        g.plot_market.extend(take_plots(g, 1))
        g.plot_market.sort()
    elif k == "tech":
        sup[2] -= g.card_cost(p, m.code)
        _take_tech(g, p, m.code)
        _check_end(g)
    elif k == "build":
        code = m.code
        sup[1] -= g.card_cost(p, code)  # clarification 3: cost before entering play
        g.hands[p][DECK_INDEX[code]] -= 1
        pcode, pop, on = g.plots[p][m.num - 1]
        g.plots[p][m.num - 1] = (pcode, pop, tuple(sorted((*on, code))))
        fx = g.fx[p]
        g.fx[p] = None if fx is None else effects_plus(fx, g.cs.deck[code], g.cs)
        if m.extra == "settle":
            for x in m.plots:
                _add_pop(g, p, x, 1)
                g.pop_supply -= 1
        elif m.extra == "free":
            for t in m.cards:
                _take_tech(g, p, t)
                if not g.tech_market and g.tech_pile_size == 0 and not g.options.finish_round:
                    break
        _check_end(g)
    elif k == "use":
        _exec_use(g, p, m)
    elif k == "end":
        _begin_draw(g)
    elif k == "attack":
        _exec_attack(g, p, m)


def _take_tech(g: State, p: int, code: str) -> None:
    """C32, C62: a technology enters ``p``'s empire; refill; C60 one-time effects."""
    g.tech_market.remove(code)
    g.techs[p] = tuple(sorted((*g.techs[p], code)))
    fx = g.fx[p]
    g.fx[p] = None if fx is None else effects_plus(fx, g.cs.techs[code], g.cs)
    g.tech_market.extend(_take_techs(g, 1))
    g.tech_market.sort()
    g.new_techs = (*g.new_techs, code)
    for e in g.cs.techs[code].effects:
        if e.kind == "gain_once":
            mult = len(g.plots[p]) if e.per_plot else 1
            for j in range(3):
                g.supply[p][j] += e.resources[j] * mult
    if not g.tech_market and g.tech_pile_size == 0:
        g.last_tech = True


def _check_end(g: State) -> None:
    """C68: the last technology ends the game at once (unless ``finish_round``)."""
    if g.last_tech and not g.options.finish_round:
        finish(g, "last_tech")


def _exec_use(g: State, p: int, m: Move) -> None:
    code, v = m.code, m.num
    fx = g.effects(p)
    g.used = tuple(sorted((*g.used, code)))
    if code in fx.steal_card:
        for _ in range(min(fx.steal_card[code], sum(g.hands[v]))):
            e = _next_chance(g)
            held = [DECK_CODES[i] for i, k in enumerate(g.hands[v]) for _ in range(k)]
            if e is not None:
                if e.get("kind") != "steal":
                    raise _ChanceMismatch(f"C63: the steal needs a 'steal' chance entry but entry {g.chance_pos - 1} is a {e.get('kind')!r} (clarification 6)")
                card = e["card"]
                if card not in held:
                    raise _ChanceMismatch(f"C63: chance entry {g.chance_pos - 1} takes a card that seat {v} does not hold (clarification 6)")
            else:
                card = _rng(g).choice(held)
            g.chance_out.append({"kind": "steal", "card": card})
            i = DECK_INDEX[card]
            g.hands[v][i] -= 1
            g.hands[p][i] += 1
            g.steals.append((len(g.moves), p, v, card))
    else:
        for j in range(3):
            g.supply[v][j] -= m.res[j]
            g.supply[p][j] += m.res[j]


def _exec_attack(g: State, p: int, m: Move) -> None:
    units: list[list[Any]] = []
    for seat, us in m.attack:
        for u in us:
            g.hands[p][DECK_INDEX[u]] -= 1
            units.append([u, seat, "assigned"])
    seats = [s for s, _ in m.attack]
    order = sorted(seats, key=lambda s: (s - p) % g.n)
    g.combat = Combat(p, order, units)
    _combat_next(g, WALLS, 0)


def _combat_next(g: State, stage: str, idx: int) -> None:
    """Move to the next combat decision from ``(stage, idx)``, skipping as NOTATION.md says."""
    c = g.combat
    assert c is not None
    while True:
        if stage == WALLS:
            while idx < len(c.defenders) and not bounce_cards(g, c.defenders[idx]):
                idx += 1
            if idx < len(c.defenders):
                break
            stage, idx = DEFEND, 0
        if stage == DEFEND:
            while idx < len(c.defenders) and not c.assigned(c.defenders[idx]):
                idx += 1
            if idx < len(c.defenders):
                break
            # C44: blocked units and blockers to the discard pile together
            for u in c.units:
                if u[2] == "blocked":
                    g.discard[DECK_INDEX[u[0]]] += 1
            for _, b, _ in c.blocks:
                g.discard[DECK_INDEX[b]] += 1
            stage, idx = DAMAGE, 0
        if stage == DAMAGE:
            while idx < len(c.defenders) and not c.assigned(c.defenders[idx]):
                idx += 1
            if idx < len(c.defenders):
                break
            stage, idx = PLACE, 0
        if stage == PLACE:
            if c.stolen:
                c.stage, c.idx = PLACE, 0
                g.step = PLACE
                g.to_move = c.attacker
                return
            _end_combat(g)
            return
    c.stage, c.idx = stage, idx
    g.step = stage
    g.to_move = c.defenders[idx]


def _exec_walls(g: State, m: Move) -> None:
    c = g.combat
    assert c is not None
    d = defender(g)
    # C42.1: the chosen City Walls return to the hand, as many Catapults are discarded
    for pl in m.plots:
        code, pop, on = g.plots[d][pl - 1]
        broken = next(x for x in on if any(e.kind == "bounce" and e.breakable for e in g.cs.deck[x].effects))
        g.plots[d][pl - 1] = (code, pop, tuple(x for x in on if x != broken))
        g.hands[d][DECK_INDEX[broken]] += 1
        g.fx[d] = None
        for u in sorted(c.units, key=lambda u: u[0]):
            if u[1] == d and u[2] == "assigned" and g.cs.deck[u[0]].breaks_walls:
                u[2] = "broke_walls"
                g.discard[DECK_INDEX[u[0]]] += 1
                break
    # C42.2: bounced units return to the attacker's hand
    for code in m.cards:
        for u in c.units:
            if u[1] == d and u[2] == "assigned" and u[0] == code:
                u[2] = "bounced"
                g.hands[c.attacker][DECK_INDEX[code]] += 1
                break
    _combat_next(g, WALLS, c.idx + 1)


def _exec_defend(g: State, m: Move) -> None:
    c = g.combat
    assert c is not None
    d = defender(g)
    for b, a in m.blocks:
        g.hands[d][DECK_INDEX[b]] -= 1
        for u in c.units:
            if u[1] == d and u[2] == "assigned" and u[0] == a:
                u[2] = "blocked"
                break
        c.blocks.append((d, b, a))
    _combat_next(g, DEFEND, c.idx + 1)


def _exec_damage(g: State, m: Move) -> None:
    c = g.combat
    assert c is not None
    d = defender(g)
    for pl in m.plots:
        _add_pop(g, d, pl, -1)
        c.stolen += 1
    for pl, code in m.destroy:
        pc, pop, on = g.plots[d][pl - 1]
        g.plots[d][pl - 1] = (pc, pop, tuple(x for x in on if x != code))
        g.hands[d][DECK_INDEX[code]] += 1
        g.fx[d] = None
    for u in c.units:
        if u[1] == d and u[2] == "assigned":
            u[2] = "done"
    _combat_next(g, DAMAGE, c.idx + 1)


def _end_combat(g: State) -> None:
    """C46: every attacking unit still in the combat goes to the discard pile."""
    c = g.combat
    assert c is not None
    for u in c.units:
        if u[2] in ("assigned", "done"):
            g.discard[DECK_INDEX[u[0]]] += 1
    g.combat = None
    _begin_draw(g)


def _begin_draw(g: State) -> None:
    """C37: fix D and K, draw D cards, then the discard decision (skipped on an empty hand)."""
    p = g.active
    assert p is not None
    g.step = DISCARD
    g.to_move = p
    hc = g.highest_culture() == p
    d = DRAW + g.effects(p).extra_draw + (1 if hc else 0)
    for _ in range(d):
        if not _draw_one(g, p):
            break
    n = discard_count(sum(g.hands[p]), hc, g.options.hand_limit)
    g.discard_n = n
    if n == 0:
        _end_turn(g)


def _end_turn(g: State) -> None:
    a = g.active
    assert a is not None
    if a == g.n - 1:
        if g.last_tech and g.options.finish_round:
            finish(g, "last_tech")
            return
        if g.round >= STALEMATE:
            finish(g, "stalemate")
            return
        g.round += 1
    _start_turn(g, (a + 1) % g.n)


def finish(g: State, reason: str) -> None:
    """C68-C70: end the game now for ``reason`` (``last_tech``, ``stalemate``); the best scores win."""
    g.finished = True
    g.reason = reason
    g.step = OVER
    g.to_move = None
    g.active = None
    g.combat = None
    g.used = ()
    g.new_techs = ()
    sc = [tuple(x) for x in g.scores]
    best = max(sc)
    g.winners = [s for s in range(g.n) if sc[s] == best]

