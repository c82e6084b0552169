"""Helpers for the civ4 rule tests: games past set-up and positions put in place.

``started`` plays the set-up with fixed choices; the ``give``/``build_on``/
``grant_tech``/``set_*`` helpers put a position in place for one rule (they
take cards from the deck so every deck card stays in one zone, but the
resulting state is a test position: its record no longer replays).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from civcards.civ4 import GameState, IllegalMoveError, choices, expand, new_game, position_json
from civcards.civ4.cards import CARDS, DECK_INDEX, PLOT_BOX


def started(n: int = 2, seed: int = 0, options: dict[str, Any] | None = None) -> GameState:
    """A game at the start of round 1 (seat 0's Collect step), set-up played with the first legal moves."""
    g = new_game(n, options=options, seed=seed)
    while g.round == 0:
        g.apply(g.legal_strings()[0])
    assert g.step == "collect" and g.active == 0
    return g


def at_purchase(n: int = 2, seed: int = 0, options: dict[str, Any] | None = None) -> GameState:
    """Seat 0's Purchase step of round 1 (its collect chosen as the first legal one)."""
    g = started(n, seed, options)
    g.apply(g.legal_strings()[0])
    assert g.step == "purchase"
    return g


def empty_hand(g: GameState, seat: int) -> None:
    """Move a seat's whole hand to the discard pile."""
    for i, k in enumerate(g.hands[seat]):
        g.discard[i] += k
        g.hands[seat][i] = 0


def take_card(g: GameState, code: str, skip: int | None = None) -> None:
    """Remove one ``code`` from the deck (or, failing that, the discard pile, another hand, a plot)."""
    rest = list(g.deck[g.deck_pos :])
    if code in rest:
        rest.remove(code)
        g.deck = g.deck[: g.deck_pos] + tuple(rest)
        return
    i = DECK_INDEX[code]
    if g.discard[i]:
        g.discard[i] -= 1
        return
    for s, h in enumerate(g.hands):
        if h[i] and s != skip:
            h[i] -= 1
            return
    for t in range(g.n):
        for j, (pc, pop, on) in enumerate(g.plots[t]):
            if code in on:
                g.plots[t][j] = (pc, pop, tuple(x for x in on if x != code))
                g.fx[t] = None
                return
    raise AssertionError(f"no {code} left to take")


def give(g: GameState, seat: int, *codes: str) -> None:
    for c in codes:
        take_card(g, c, skip=seat)
        g.hands[seat][DECK_INDEX[c]] += 1


def build_on(g: GameState, seat: int, plot: int, code: str) -> None:
    take_card(g, code)
    pc, pop, on = g.plots[seat][plot - 1]
    g.plots[seat][plot - 1] = (pc, pop, tuple(sorted((*on, code))))
    g.fx[seat] = None


def grant_tech(g: GameState, seat: int, code: str) -> None:
    """Put a technology in a seat's empire (test position)."""
    if code in g.tech_market:
        g.tech_market.remove(code)
    g.techs[seat] = tuple(sorted((*g.techs[seat], code)))
    g.fx[seat] = None


def set_supply(g: GameState, seat: int, f: int = 0, h: int = 0, c: int = 0) -> None:
    g.supply[seat] = [f, h, c]


def set_pop(g: GameState, seat: int, plot: int, k: int) -> None:
    pc, pop, on = g.plots[seat][plot - 1]
    g.pop_supply -= k - pop
    g.plots[seat][plot - 1] = (pc, k, on)


def set_plot(g: GameState, seat: int, plot: int, code: str) -> None:
    """Change the code of an owned plot (test position)."""
    _, pop, on = g.plots[seat][plot - 1]
    g.plots[seat][plot - 1] = (code, pop, on)


def hand(g: GameState, seat: int) -> list[str]:
    return g.hand(seat)


def pos(g: GameState) -> str:
    return json.dumps(position_json(g), sort_keys=True)


def play(g: GameState, *moves: str) -> None:
    for m in moves:
        g.apply(m)


def refused(g: GameState, move: str, *fragments: str) -> str:
    """Assert that ``move`` is illegal, the message cites ``fragments`` and nothing changed."""
    before = pos(g)
    with pytest.raises(IllegalMoveError) as e:
        g.apply(move)
    msg = str(e.value)
    for f in fragments:
        assert f in msg, (f, msg)
    assert pos(g) == before
    assert "\n" not in msg and msg
    return msg


def card_zones_ok(g: GameState) -> None:
    """Every card is in exactly one zone (C1, C5): deck cards, plots, techs and population."""
    deck: Counter[str] = Counter(g.deck[g.deck_pos :])
    for i, k in enumerate(g.discard):
        deck[DECK_INDEX_INV[i]] += k
    for h in g.hands:
        for i, k in enumerate(h):
            deck[DECK_INDEX_INV[i]] += k
    plots: Counter[str] = Counter(g.init_plots[g.plot_pos :]) + Counter(g.plot_market) + Counter(g.draft_revealed)
    pop = g.pop_supply
    for s in range(g.n):
        for pc, p, on in g.plots[s]:
            plots[pc] += 1
            pop += p
            deck.update(on)
    if g.combat is not None:
        pop += g.combat.stolen
        for code, _, state in g.combat.units:
            if state in ("assigned", "done"):
                deck[code] += 1
        if g.combat.stage in ("walls", "defend"):
            for u in g.combat.units:
                if u[2] == "blocked":
                    deck[u[0]] += 1
            for _, b, _ in g.combat.blocks:
                deck[b] += 1
    assert sorted(deck.elements()) == list(g.cs.deck_box)
    assert sorted(plots.elements()) == list(PLOT_BOX)
    techs = list(g.init_techs[g.tech_pos :]) + list(g.tech_market) + list(g.init_removed)
    for s in range(g.n):
        techs.extend(g.techs[s])
    assert sorted(techs) == sorted(CARDS.techs)
    assert pop == CARDS.population


DECK_INDEX_INV = {i: c for c, i in DECK_INDEX.items()}


def random_move(g: GameState, rng: random.Random) -> str:
    """A move chosen uniformly level by level over the factored choices."""
    c = rng.choice(choices(g))
    while not c.final:
        c = rng.choice(expand(g, c.text))
    return c.text


def random_game(n: int, seed: int, options: dict[str, Any] | None = None, check: bool = False) -> GameState:
    g = new_game(n, options=options, seed=seed)
    rng = random.Random(seed)
    while not g.finished:
        g.apply(random_move(g, rng))
        if check:
            card_zones_ok(g)
    return g
