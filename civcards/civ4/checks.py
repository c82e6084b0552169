"""The checks of a move: None when the rules allow it now, else one sentence naming the rule.

:func:`check` answers for any move of the notation, read or built, in any
position that is not over; :func:`is_legal` reads a text first.

>>> from civcards.civ4.game import new_game
>>> from civcards.civ4.moves import parse_move
>>> g = new_game(2, seed=1)
>>> check(g, parse_move("pick CST")) is None, check(g, parse_move("end"))
(True, 'C11: the draft is on; seat 0 must pick a revealed plot')
"""

from __future__ import annotations

from .cards import DECK_INDEX
from .effects import free_population, free_techs
from .legal import (
    blockable,
    bounce_cards,
    collect_options,
    damage_amounts,
    defender,
    free_tech_sequences,
    legal_walls,
)
from .moves import Move, NotationError, parse_move
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

__all__ = ["check", "is_legal"]


def is_legal(g: State, move: Move | str) -> bool:
    """Whether ``move`` is legal now (without applying it)."""
    if isinstance(move, str):
        try:
            move = parse_move(move)
        except NotationError:
            return False
    return g.step != OVER and check(g, move) is None


def check(g: State, m: Move) -> str | None:
    """None when ``m`` is legal in ``g`` (a game not over), else one sentence naming the rule."""
    step = g.step
    k = m.kind
    p = g.to_move
    assert p is not None
    if step == DRAFT:
        if k != "pick":
            return f"C11: the draft is on; seat {p} must pick a revealed plot"
        if m.code not in g.draft_revealed:
            return f"C11: {m.code} is not among the revealed plots"
        return None
    if step == SETTLE:
        if k != "settle":
            return f"C13: seat {p} must place its free population ('settle pN')"
        return _own_plot(g, p, m.num, "C13")
    if step in (START_DISCARD, DISCARD):
        rule = "C14" if step == START_DISCARD else "C37"
        if k != "discard":
            return f"{rule}: seat {p} must discard {g.discard_n} cards"
        if len(m.cards) != g.discard_n:
            return f"{rule}: exactly {g.discard_n} cards must be discarded, not {len(m.cards)}"
        return _holds(g, p, m.cards, rule)
    if step == COLLECT:
        if k != "collect":
            return "C23: a turn begins with the Collect step ('collect')"
        return _check_collect(g, p, m)
    if step == PURCHASE:
        return _check_purchase(g, p, m)
    if step == WALLS:
        if k != "walls":
            return f"C42: seat {p} must resolve the walls ('walls …')"
        return _check_walls(g, m)
    if step == DEFEND:
        if k != "defend":
            return f"C43: seat {p} must defend ('defend' or 'defend B>A …')"
        return _check_defend(g, m)
    if step == DAMAGE:
        if k != "damage":
            return f"C45: seat {p} must choose the damage ('damage …')"
        return _check_damage(g, m)
    if step == PLACE:
        if k != "place":
            return "C45: the attacker must place the stolen population ('place LIST')"
        assert g.combat is not None
        if len(m.plots) != g.combat.stolen:
            return f"C45: exactly {g.combat.stolen} stolen population must be placed"
        for x in set(m.plots):
            e = _own_plot(g, p, x, "C45")
            if e:
                return e
        return None
    return "the game is over"


def _own_plot(g: State, p: int, num: int, rule: str) -> str | None:
    if not 1 <= num <= len(g.plots[p]):
        return f"{rule}: seat {p} has no plot p{num}"
    return None


def _holds(g: State, p: int, cards: tuple[str, ...], rule: str) -> str | None:
    need: dict[str, int] = {}
    for c in cards:
        if c not in DECK_INDEX:
            return f"{rule}: {c} is not a game-deck card"
        need[c] = need.get(c, 0) + 1
    for c, n in need.items():
        if g.hands[p][DECK_INDEX[c]] < n:
            return f"{rule}: seat {p} does not hold {'that many ' if n > 1 else ''}{c} in hand"
    return None


def _check_collect(g: State, p: int, m: Move) -> str | None:
    opts = dict(collect_options(g, p))
    given = dict(m.collect)
    for n, letters in given.items():
        e = _own_plot(g, p, n, "C24")
        if e:
            return e
        if n not in opts:
            return f"C24: plot p{n} has no population choice to write (clarification 11)"
        if letters not in opts[n]:
            pop = g.plots[p][n - 1][1]
            return f"C24: plot p{n} needs {pop} letters among the types it produces, not {letters}"
    for n in opts:
        if n not in given:
            return f"C24: the population on plot p{n} must be assigned (write p{n}=…)"
    return None


def _check_purchase(g: State, p: int, m: Move) -> str | None:
    k = m.kind
    sup = g.supply[p]
    if k == "cash":
        return _holds(g, p, (m.code,), "C29")
    if k == "trade":
        rate = g.effects(p).rate
        give, get = m.res, m.get
        if sum(give) != rate:
            return f"C28: a trade gives exactly {rate} resources (the player's rate)"
        if any(give[i] > sup[i] for i in range(3)):
            return "C28: the supply does not hold the resources given"
        if sum(get) != 1:
            return "C28: a trade receives exactly one resource"
        if any(get[i] and give[i] for i in range(3)):
            return "C28: a trade cannot receive a type it gives"
        if g.options.same_type_trade and sum(1 for x in give if x) != 1:
            return "C28 (same_type_trade): the resources given must all be of one type"
        return None
    if k == "pop":
        e = _own_plot(g, p, m.num, "C34")
        if e:
            return e
        if g.pop_supply <= 0:
            return "C34: the population supply is empty"
        cost = g.pop_cost(p, m.num)
        if sup[0] < cost:
            return f"C27: population on p{m.num} costs {cost}F and the supply holds {sup[0]}F"
        return None
    if k == "plot":
        if m.code not in g.plot_market:
            return f"C33: {m.code} is not in the plot market"
        cost = g.plot_cost(p)
        if sum(m.res) != cost:
            return f"C27: the plot costs {cost} and the payment totals {sum(m.res)}"
        if any(m.res[i] > sup[i] for i in range(3)):
            return "C27: the supply does not hold the payment"
        return None
    if k == "tech":
        if m.code not in g.tech_market:
            return f"C32: {m.code} is not in the tech market"
        cost = g.card_cost(p, m.code)
        if sup[2] < cost:
            return f"C27: {m.code} costs {cost}C and the supply holds {sup[2]}C"
        return None
    if k == "build":
        return _check_build(g, p, m)
    if k == "use":
        return _check_use(g, p, m)
    if k == "end":
        return None
    if k == "attack":
        return _check_attack(g, p, m)
    return f"C25: '{k}' is not a Purchase-step action (C22, C36)"


def _check_build(g: State, p: int, m: Move) -> str | None:
    code = m.code
    card = g.cs.deck.get(code)
    if card is None or card.kind == "unit":
        return f"C31: {code} is not a building or wonder"
    e = _holds(g, p, (code,), "C31")
    if e:
        return e
    e = _own_plot(g, p, m.num, "C31")
    if e:
        return e
    on = g.plots[p][m.num - 1][2]
    if code in on:
        return f"C18: plot p{m.num} already holds a {code}"
    if len(on) >= g.slots(p, m.num):
        return f"C18: plot p{m.num} has no room for another building or wonder"
    cost = g.card_cost(p, code)
    if g.supply[p][1] < cost:
        return f"C27: {code} costs {cost}H and the supply holds {g.supply[p][1]}H"
    fp = free_population(g.cs, code)
    ft = free_techs(g.cs, code)
    if fp:
        want = min(fp, g.pop_supply)
        if m.extra == "free":
            return f"C61: {code} places free population ('settle LIST'), it takes no technology"
        if len(m.plots) != want:
            return f"C61: {code} places exactly {want} free population ('build {code} p{m.num} settle LIST')"
        for x in set(m.plots):
            e = _own_plot(g, p, x, "C61")
            if e:
                return e
        return None
    if ft:
        if m.extra == "settle":
            return f"C62: {code} takes technologies ('free LIST'), it places no population"
        if m.cards not in free_tech_sequences(g, ft):
            return "C62: the free technologies must be taken from the tech market, one at a time, as many as it allows"
        return None
    if m.extra:
        return f"C31: {code} has no free population or free technology to choose"
    return None


def _check_use(g: State, p: int, m: Move) -> str | None:
    fx = g.effects(p)
    code = m.code
    if code not in fx.steal_card and code not in fx.steal_res:
        return f"C35: seat {p} has no activated ability on {code}"
    if code in g.used:
        return f"C35: {code} has already been used this turn"
    if g.options.one_shot_steals and code not in g.new_techs:
        return f"C63 (one_shot_steals): {code} acts only in the Purchase step in which it entered play"
    v = m.num
    if v == p or v >= g.n:
        return f"C63: seat {v} is not an opponent"
    if code in fx.steal_card:
        if m.extra:
            return f"C63: '{code}' takes a random card; write 'use {code} {v}'"
        if not sum(g.hands[v]):
            return f"C63: seat {v}'s hand is empty"
        return None
    if not sum(g.supply[v]):
        return f"C64: seat {v}'s supply is empty"
    if m.extra != "res":
        return f"C64: name the resources taken ('use {code} {v} RES')"
    want = min(fx.steal_res[code], sum(g.supply[v]))
    if sum(m.res) != want:
        return f"C64: exactly {want} resources are taken"
    if any(m.res[i] > g.supply[v][i] for i in range(3)):
        return f"C64: seat {v}'s supply does not hold those resources"
    return None


def _check_attack(g: State, p: int, m: Move) -> str | None:
    adj = g.adjacent(p)
    need: dict[str, int] = {}
    for seat, units in m.attack:
        if seat not in adj:
            return f"C40: seat {seat} is not an adjacent opponent of seat {p}"
        if not units:
            return "C41: each defender needs at least one unit"
        for u in units:
            card = g.cs.deck.get(u)
            if card is None or not card.attack:
                return f"C41: {u} cannot attack"
            need[u] = need.get(u, 0) + 1
    return _holds(g, p, tuple(c for c, n in need.items() for _ in range(n)), "C41")


def _check_walls(g: State, m: Move) -> str | None:
    if m in legal_walls(g):
        return None
    c = g.combat
    assert c is not None
    d = defender(g)
    units = c.assigned(d)
    bc = bounce_cards(g, d)
    breakable = sorted({pl for pl, _, _, br in bc if br})
    k = sum(1 for u in units if g.cs.deck[u].breaks_walls)
    lose_n = min(k, len(breakable))
    if len(m.plots) != lose_n or any(pl not in breakable for pl in m.plots) or len(set(m.plots)) != len(m.plots):
        return f"C42: exactly {lose_n} of the defender's City Walls (by plot) break"
    return "C42: the bounced units must be as many as the bounce allows, among the units still assigned to this defender"


def _check_defend(g: State, m: Move) -> str | None:
    c = g.combat
    assert c is not None
    d = defender(g)
    attackers = c.assigned(d)
    need: dict[str, int] = {}
    acount: dict[str, int] = {}
    for b, a in m.blocks:
        need[b] = need.get(b, 0) + 1
        acount[a] = acount.get(a, 0) + 1
        if not blockable(g, d, b, a):
            card = g.cs.deck.get(b)
            if card is None or card.kind != "unit" or not card.defend:
                return f"C43: {b} cannot defend"
            if a not in attackers:
                return "C43: each blocker needs a distinct attacking unit assigned to this defender"
            return f"C43: {b} cannot block {a}"
    for a, n in acount.items():
        if attackers.count(a) < n:
            return "C43: each blocker needs a distinct attacking unit assigned to this defender"
    return _holds(g, d, tuple(b for b, n in need.items() for _ in range(n)), "C43")


def _check_damage(g: State, m: Move) -> str | None:
    d = defender(g)
    s, x = damage_amounts(g, d)
    total_pop = sum(pl[1] for pl in g.plots[d])
    if len(m.plots) != min(s, total_pop):
        return f"C45: exactly {min(s, total_pop)} population must be stolen"
    for pl in set(m.plots):
        if not 1 <= pl <= len(g.plots[d]) or g.plots[d][pl - 1][1] < m.plots.count(pl):
            return f"C45: plot p{pl} of seat {d} does not hold that much population"
    nb = sum(1 for pl in g.plots[d] for code in pl[2] if g.cs.deck[code].kind == "building")
    if len(m.destroy) != min(x, nb):
        return f"C45: exactly {min(x, nb)} buildings must be destroyed"
    if len(set(m.destroy)) != len(m.destroy):
        return "C45: a building is named twice (clarification 14)"
    for pl, code in m.destroy:
        if not 1 <= pl <= len(g.plots[d]) or code not in g.plots[d][pl - 1][2]:
            return f"C45: seat {d} has no {code} on p{pl}"
        if g.cs.deck[code].kind != "building":
            return f"C45: {code} is a wonder; wonders are never destroyed"
    return None

# ---- execution
