"""How a move moves cards (R13, R15-R20), on the six counts per domain of a hand, the
play areas and the discard pile: the engine and the bots call the same function.

:func:`move_cards` applies the part of a move that needs no hidden card: a card
played (R13) or kept and taken in the draft (R8), and each effect's cards between
the mover's hand, the play areas and the discard pile (R15-R20). What a hidden
card decides stays with the engine (the hand an Inquisition swaps, R16; the cards
a Discovery draws and discards, R18), and so do the markers of Embargo and
Democracy (R17, R20), the effects used this turn and the copied hand size (R19).

>>> from civcards.carta.moves import Move
>>> hand, areas, pile = [0, 1, 0, 0, 0, 0], [[2, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0]], [0] * 6
>>> move_cards(Move("attack", cards="R"), 0, hand, areas, pile)
>>> areas, pile
([[1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]], [1, 1, 0, 0, 0, 0])
"""

from __future__ import annotations

from typing import Final

from .cards import ECONOMY, LETTER_INDEX, MILITARY, RELIGION, SCIENCE, UTOPIA
from .moves import COPYABLE, Move

__all__ = ["DISCARD_DOMAIN", "EFFECT_DOMAIN", "PERMANENT_DOMAIN", "move_cards"]

#: each copyable effect (R19) by name: (its domain, its level)
EFFECT_DOMAIN: Final = {kind: dl for dl, kind in COPYABLE.items()}
#: the domain of each permanent effect (level 1 and 2)
PERMANENT_DOMAIN: Final = {kind: d for (d, _), kind in COPYABLE.items()}
#: the domain of each discard effect (the card is spent)
DISCARD_DOMAIN: Final = {
    "attack": MILITARY,
    "inquisition": RELIGION,
    "embargo": ECONOMY,
    "discovery": SCIENCE,
    "democracy": UTOPIA,
}


def _shift(cards: str, source: list[int], to: list[int]) -> None:
    """Move one card of each letter of ``cards`` from the counts ``source`` to ``to``."""
    li = LETTER_INDEX
    for ch in cards:
        d = li[ch]
        source[d] -= 1
        to[d] += 1


def move_cards(m: Move, me: int, hand: list[int], areas: list[list[int]], pile: list[int]) -> None:
    """Move the cards that ``m`` (of seat ``me``, an Inspiration already read as the effect it
    copies) moves without a hidden card: ``hand`` is the mover's, ``areas`` every seat's
    play area, ``pile`` the discard pile (see the module's documentation)."""
    k = m.kind
    area = areas[me]
    if k == "play":
        _shift(m.cards, hand, area)
    elif k == "keep":
        for ch in m.cards:
            hand[LETTER_INDEX[ch]] += 1
    elif k == "take":
        for ch in m.cards:
            area[LETTER_INDEX[ch]] += 1
    elif k == "assassination" or k == "purge":
        _shift(m.cards, hand, pile)
    elif k == "development" or k == "monopoly":
        _shift(m.cards, area, pile)
        _shift(m.more, hand, area)
    elif k == "experiment" or k == "research":
        _shift(m.cards, area, hand)
        _shift(m.more, hand, area)
    elif k == "oligarchy" or k == "republic":
        _shift(m.cards, pile, hand)
    elif k == "attack":
        area[MILITARY] -= 1
        pile[MILITARY] += 1
        d = LETTER_INDEX[m.cards]
        for a in areas:
            if a[d]:
                a[d] -= 1
                pile[d] += 1
    elif k == "inquisition":
        area[RELIGION] -= 1
        pile[RELIGION] += 1
    elif k == "discovery":
        area[SCIENCE] -= 1
        pile[SCIENCE] += 1
    elif k == "embargo":
        area[ECONOMY] -= 1
    elif k == "democracy":
        area[UTOPIA] -= 1
