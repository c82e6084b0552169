"""Cards, domains, eras and thresholds of CIV: Carta Impera Victoria (R1, R6).

Cards of one domain are identical in play, so the engine represents a hand or
a play area as six counts, one per domain, in the order of :data:`DOMAINS`.

>>> LETTERS
'MRESCU'
>>> counts_to_str([2, 0, 0, 1, 0, 0])
'MMS'
>>> str_to_counts("smm")
[2, 0, 0, 1, 0, 0]
"""

from __future__ import annotations

from typing import Final

MILITARY: Final = 0
RELIGION: Final = 1
ECONOMY: Final = 2
SCIENCE: Final = 3
CULTURE: Final = 4
UTOPIA: Final = 5

DOMAINS: Final = (MILITARY, RELIGION, ECONOMY, SCIENCE, CULTURE, UTOPIA)
LETTERS: Final = "MRESCU"
DOMAIN_NAMES: Final = ("Military", "Religion", "Economy", "Science", "Culture", "Utopia")
LETTER_INDEX: Final = {c: i for i, c in enumerate(LETTERS)} | {
    c.lower(): i for i, c in enumerate(LETTERS)
}

#: R22: tie-break order of domains, most important first.
TIE_BREAK_ORDER: Final = (UTOPIA, CULTURE, SCIENCE, ECONOMY, RELIGION, MILITARY)

#: R1: cards per domain and era: ERA_COMPOSITION[era][domain].
ERA_COMPOSITION: Final = (
    (8, 8, 4, 4, 4, 0),
    (8, 8, 4, 8, 4, 0),
    (4, 0, 8, 8, 8, 16),
)
ERA_NAMES: Final = ("I", "II", "III")
#: R4: cards removed unseen from each era with 2 or 3 players.
REMOVED_PER_ERA: Final = 3

#: R6: (level 1, level 2, hegemony) thresholds by player count.
THRESHOLDS: Final = {2: (3, 5, 8), 3: (3, 5, 7), 4: (2, 4, 7)}

DECK_SIZE: Final = 104


def era_sizes(players: int) -> tuple[int, int, int]:
    """Number of cards of each era in the deck after R4's removal.

    >>> era_sizes(4), era_sizes(2)
    ((28, 32, 44), (25, 29, 41))
    """
    removed = 0 if players == 4 else REMOVED_PER_ERA
    return tuple(sum(era) - removed for era in ERA_COMPOSITION)  # type: ignore[return-value]


def counts_to_str(counts: list[int] | tuple[int, ...]) -> str:
    """The canonical card list (NOTATION.md) of a vector of six counts."""
    return "".join(LETTERS[d] * c for d, c in enumerate(counts) if c)


def str_to_counts(cards: str) -> list[int]:
    """Six counts from a card list; raises ``KeyError`` on a wrong letter."""
    counts = [0] * 6
    for ch in cards:
        counts[LETTER_INDEX[ch]] += 1
    return counts


def canonical(cards: str) -> str:
    """Sort a card list into canonical order (``SMS`` -> ``MSS``)."""
    return counts_to_str(str_to_counts(cards))
