"""Set-up: the deck (R4, R5, or one given and checked) and the deal (R6-R8).

>>> len(shuffled_deck(3, random.Random(1)))
95
>>> validate_deck("M" * 95, 3)
'era I of the deck holds 25 M cards; that era has only 8'
"""

from __future__ import annotations

import random

from .cards import (
    ERA_COMPOSITION,
    LETTER_INDEX,
    LETTERS,
    REMOVED_PER_ERA,
    THRESHOLDS,
    counts_to_str,
    era_sizes,
)
from .execute import start_turn
from .state import DRAFT, ConfigError, State


def validate_deck(deck: str, players: int) -> str | None:
    """Why ``deck`` (top card first) is not a valid deck for ``players``, or None."""
    sizes = era_sizes(players)
    if len(deck) != sum(sizes):
        return (
            f"the deck has {len(deck)} cards; with {players} players it must have "
            f"{sum(sizes)} ({sizes[0]} + {sizes[1]} + {sizes[2]} by era)"
        )
    bad = [ch for ch in deck if ch not in LETTERS]
    if bad:
        return f"the deck holds {bad[0]!r}, which is not a card letter (M R E S C U)"
    pos = 0
    removed = 0 if players == 4 else REMOVED_PER_ERA
    for era, size in enumerate(sizes):
        seg = deck[pos : pos + size]
        pos += size
        have = [seg.count(ch) for ch in LETTERS]
        full = ERA_COMPOSITION[era]
        for d in range(6):
            if have[d] > full[d]:
                return (
                    f"era {('I', 'II', 'III')[era]} of the deck holds {have[d]} "
                    f"{LETTERS[d]} cards; that era has only {full[d]}"
                )
        if sum(full) - sum(have) != removed:  # pragma: no cover - sizes already match
            return f"era {('I', 'II', 'III')[era]} of the deck has the wrong size"
    return None


def shuffled_deck(players: int, rng: random.Random) -> str:
    """R4: shuffle each era, remove 3 per era with 2-3 players, stack I on II on III."""
    out = []
    for era in range(3):
        cards = [LETTERS[d] for d in range(6) for _ in range(ERA_COMPOSITION[era][d])]
        rng.shuffle(cards)
        if players < 4:
            cards = cards[REMOVED_PER_ERA:]
        out.append("".join(cards))
    return "".join(out)


def set_up(
    g: State,
    players: int,
    *,
    deal: str,
    teams: bool,
    seed: int | str | None,
    deck: str | None,
    start: int | None,
) -> None:
    """Deal the new game ``g`` (an empty state): R3-R8, as
    :func:`civcards.carta.game.new_game` describes; :class:`ConfigError` for an
    impossible set-up."""
    if not isinstance(players, int) or players not in (2, 3, 4):
        raise ConfigError(f"CIV is played by 2, 3 or 4 players, not {players!r} (R3)")
    if deal not in ("basic", "draft"):
        raise ConfigError(f"the deal is 'basic' or 'draft', not {deal!r} (R7, R8)")
    if teams and players != 4:
        raise ConfigError("the team game needs exactly 4 players (R24)")
    rng = random.Random(seed)
    if deck is None:
        deck = shuffled_deck(players, rng)
    else:
        if not isinstance(deck, str):
            raise ConfigError("the deck must be a string of card letters")
        deck = deck.upper()
        problem = validate_deck(deck, players)
        if problem:
            raise ConfigError(problem)
    if start is None:
        start = rng.randrange(players)
    elif not isinstance(start, int) or isinstance(start, bool) or not 0 <= start < players:
        raise ConfigError(f"the start player must be a seat from 0 to {players - 1}, not {start!r}")
    g.n = players
    g.deal = deal
    g.teams = bool(teams)
    g.start = start
    g.deck_letters = deck
    g.l1, g.l2, g.heg = THRESHOLDS[players]
    g.deck = [LETTER_INDEX[ch] for ch in reversed(deck)]
    g.hands = [[0] * 6 for _ in range(players)]
    g.areas = [[0] * 6 for _ in range(players)]
    g.discard = [0] * 6
    g.markers = []
    g.coin = None
    g.copied_hand = 0
    g.used_perm = g.used_disc = 0
    g.used_log = []
    g.inspired = False
    g.embargoed = 0
    g.last_round = False
    g.turn = 0
    g.winners = []
    g.victory = None
    g.victory_domain = None
    g.points = None
    g.history = []
    g.movers = []
    g.learned = [[] for _ in range(players)]
    g.draft_step = 0
    g.draft_hold = [[0] * 6 for _ in range(players)]
    g.draft_centre = [0] * 6
    g.draft_order = []
    g.view_cache = None
    per = 3 if deal == "basic" else 4
    for i in range(players):
        seat = (start + i) % players
        target = g.hands[seat] if deal == "basic" else g.draft_hold[seat]
        for _ in range(per):
            target[g.deck.pop()] += 1
    if deal == "basic":
        start_turn(g, start)
    else:
        g.phase = DRAFT
        g.active = start
        for s in range(players):
            g.learned[s].append(("draft_received", 0, s, counts_to_str(g.draft_hold[s])))
