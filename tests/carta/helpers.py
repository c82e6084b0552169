"""Helpers for the rules tests: valid decks with a scripted top, and forced positions.

``make_deck`` builds a deck that respects R1/R4 (NOTATION.md: "A deck is valid
when…") and starts with the cards a test wants to deal; ``basic_top`` writes
those cards for a basic deal (R7). ``force`` puts a game into an exact position
while keeping card conservation (every card of R1 is in exactly one zone).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from civcards.carta import GameState, IllegalMoveError, new_game
from civcards.carta.cards import (
    ERA_COMPOSITION,
    LETTERS,
    REMOVED_PER_ERA,
    counts_to_str,
    era_sizes,
    str_to_counts,
)
from civcards.carta.execute import start_turn
from civcards.carta.notation import position_json

#: R1: cards of each domain in the whole box (M R E S C U).
BOX: tuple[int, ...] = tuple(sum(era[d] for era in ERA_COMPOSITION) for d in range(6))


def make_deck(players: int, top: str = "", *, fill: str = "MRESCU") -> str:
    """A valid deck (top card first) for ``players`` whose first cards are ``top``.

    ``top`` may run over several eras; each era's part must fit that era's
    composition (R1). The rest of each era follows in the domain order
    ``fill``; with 2 or 3 players the last 3 cards of each era's rest are the
    ones removed by R4 (so they must not all be in ``top``).
    """
    top = top.upper()
    sizes = era_sizes(players)
    removed = 0 if players == 4 else REMOVED_PER_ERA
    if len(top) > sum(sizes):
        raise ValueError(f"top has {len(top)} cards, the deck only {sum(sizes)}")
    out: list[str] = []
    pos = 0
    for era, size in enumerate(sizes):
        seg = top[pos : pos + size]
        pos += size
        have = str_to_counts(seg)
        full = ERA_COMPOSITION[era]
        for d in range(6):
            if have[d] > full[d]:
                raise ValueError(
                    f"era {era + 1} holds only {full[d]} {LETTERS[d]} cards, top asks {have[d]}"
                )
        rest = "".join(ch * (full[LETTERS.index(ch)] - have[LETTERS.index(ch)]) for ch in fill)
        rest = rest[: len(rest) - removed]
        out.append(seg + rest)
        assert len(out[-1]) == size, (era, seg, rest)
    return "".join(out)


def basic_top(players: int, start: int, hands: Sequence[str], draws: str = "") -> str:
    """The top of a deck that deals ``hands[seat]`` to each seat in a basic deal (R7).

    The start player takes the first 3 cards, the next seat clockwise the next
    3, and so on; ``draws`` follow (the phase-3 draws in turn order).
    """
    assert len(hands) == players and all(len(h) == 3 for h in hands)
    return "".join(hands[(start + i) % players] for i in range(players)) + draws


def scripted(
    players: int,
    hands: Sequence[str],
    draws: str = "",
    *,
    start: int = 0,
    teams: bool = False,
    fill: str = "MRESCU",
) -> GameState:
    """A basic-deal game whose hands and next draws are exactly the ones given."""
    deck = make_deck(players, basic_top(players, start, hands, draws), fill=fill)
    return new_game(players, deck=deck, start=start, teams=teams)


def play(g: GameState, *moves: str) -> GameState:
    """Apply ``moves`` in order (each must be legal) and return ``g``."""
    for m in moves:
        g.apply(m)
    return g


def removed_counts(g: GameState) -> list[int]:
    """The cards removed unseen by R4, by domain (the full eras less the deck)."""
    out = [0] * 6
    pos = 0
    for era, size in enumerate(era_sizes(g.n)):
        seg = g.deck_letters[pos : pos + size]
        pos += size
        for d, ch in enumerate(LETTERS):
            out[d] += ERA_COMPOSITION[era][d] - seg.count(ch)
    return out


def card_totals(g: GameState) -> list[int]:
    """Every card of the game by domain: zones, deck, markers and removed cards."""
    tot = removed_counts(g)
    for zone in (*g.hands, *g.areas, g.discard, g.draft_centre, *g.draft_hold):
        for d in range(6):
            tot[d] += zone[d]
    for d in g.deck:
        tot[d] += 1
    for _, _, kind, _ in g.markers:
        tot[2 if kind == "embargo" else 5] += 1
    return tot


def force(
    g: GameState,
    *,
    hands: Sequence[str],
    areas: Sequence[str],
    discard: str | None = "",
    deck: str | None = None,
    deck_top: str = "",
    markers: Iterable[tuple[int, str, str, int]] = (),
    active: int | None = None,
    coin: tuple[int, int, str] | None = None,
    last_round: bool = False,
) -> GameState:
    """Put ``g`` into an exact position, keeping card conservation (R1).

    Exactly one of ``discard`` and ``deck`` may be None: that zone receives
    every card not placed elsewhere (for ``deck``: ``deck_top`` first, then the
    rest in canonical order). ``markers`` are ``(seat, domain letter, kind, by)``.
    The turn of ``active`` (default: the start player) then begins as the
    engine begins a turn (R9: phase 1 is skipped when nothing may be played).
    Raises ``ValueError`` when the cards do not add up to the box less the
    removed cards.
    """
    if discard is None and deck is None:
        raise ValueError("only one of discard and deck may be computed")
    n = g.n
    assert len(hands) == n and len(areas) == n
    pool = [BOX[d] - removed_counts(g)[d] for d in range(6)]

    def take(cards: str) -> list[int]:
        c = str_to_counts(cards.upper())
        for d in range(6):
            pool[d] -= c[d]
        return c

    g.hands = [take(h) for h in hands]
    g.areas = [take(a) for a in areas]
    mk = []
    for seat, dom, kind, by in markers:
        take("E" if kind == "embargo" else "U")
        mk.append((seat, LETTERS.index(dom.upper()), kind, by))
    g.markers = sorted(mk)
    if discard is not None:
        g.discard = take(discard)
    if deck is not None:
        deck_counts = take(deck)
        letters = deck.upper()
    else:
        top = take(deck_top)
        letters = deck_top.upper() + counts_to_str(pool)
        deck_counts = [top[d] + pool[d] for d in range(6)]
        pool = [0] * 6
    if discard is None:
        g.discard = pool[:]
        pool = [0] * 6
    if any(pool):
        raise ValueError(f"the cards do not add up: {pool} left over (R1 conservation)")
    if any(c < 0 for c in deck_counts) or any(c < 0 for c in g.discard):
        raise ValueError("more cards placed than the box holds")
    g.deck = [LETTERS.index(ch) for ch in reversed(letters)]
    g.coin = None
    g.last_round = last_round
    g.draft_hold = [[0] * 6 for _ in range(n)]
    g.draft_centre = [0] * 6
    start_turn(g, g.start if active is None else active)
    if coin is not None:
        g.coin = (coin[0], coin[1], LETTERS.index(coin[2]))
    assert card_totals(g) == list(BOX), card_totals(g)
    return g


def forced(
    players: int,
    *,
    start: int = 0,
    teams: bool = False,
    **kw: Any,
) -> GameState:
    """A new basic game (start seat ``start``) forced into a position by :func:`force`."""
    g = new_game(players, deck=make_deck(players), start=start, teams=teams)
    return force(g, **kw)


def snapshot(g: GameState) -> dict[str, Any]:
    """Everything observable about ``g``, to check that a refused move changed nothing."""
    pos = position_json(g, legal=True)
    pos["history"] = [str(m) for m in g.history]
    pos["used"] = (g.used_perm, g.used_disc, tuple(g.used_log), g.inspired, g.embargoed)
    pos["deck_order"] = list(g.deck)
    pos["last_round"] = g.last_round
    return pos


def refused(g: GameState, move: str, *words: str) -> str:
    """Assert ``move`` is illegal: not listed, raises, leaves ``g`` unchanged.

    Returns the error message, which must be a plain sentence (no traceback)
    and contain each of ``words``.
    """
    assert move not in g.legal_strings()
    before = snapshot(g)
    with pytest.raises(IllegalMoveError) as info:
        g.apply(move)
    assert snapshot(g) == before
    msg = str(info.value)
    assert "Traceback" not in msg and "\n" not in msg and 'File "' not in msg
    assert info.value.reason and info.value.reason[0].isalpha()
    for w in words:
        assert w in msg, (w, msg)
    return msg


def legal(g: GameState, *moves: str) -> None:
    """Assert every one of ``moves`` is legal now."""
    ls = g.legal_strings()
    for m in moves:
        assert m in ls, (m, ls)


def hands(g: GameState) -> list[str]:
    return [counts_to_str(h) for h in g.hands]


def areas(g: GameState) -> list[str]:
    return [counts_to_str(a) for a in g.areas]


def pile(g: GameState) -> str:
    return counts_to_str(g.discard)
