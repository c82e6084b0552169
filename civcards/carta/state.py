"""The position of a game of CIV: its data, cheap to copy, and what can be read from it.

:class:`State` holds the hands, play areas, deck and markers (six counts per
domain, see :mod:`civcards.carta.cards`; the deck keeps its letters, top card
last in :attr:`State.deck`) with the read-only views (levels R11, hand size
R13/R16, the era R25, the record). It knows no move:
:class:`~civcards.carta.game.GameState` adds the legal moves (:mod:`.legal`) and
their execution (:mod:`.execute`).
"""

from __future__ import annotations

from typing import Final, Self

from .cards import RELIGION, era_sizes
from .moves import Move, format_move

DRAFT: Final = "draft"
PLAY: Final = "play"
EFFECTS: Final = "effects"
OVER: Final = "over"

EMBARGO: Final = "embargo"
DEMOCRACY: Final = "democracy"

HAND_BASE: Final = 3


class IllegalMoveError(ValueError):
    """A move that the rules do not allow now. The state is left unchanged."""

    def __init__(self, move: Move | str, reason: str) -> None:
        self.move = move
        self.reason = reason
        super().__init__(f"{move}: {reason}")


class ConfigError(ValueError):
    """An impossible game configuration (player count, deck, start seat...)."""


#: era_sizes of each player count
ERA_SIZES: Final = {n: era_sizes(n) for n in (2, 3, 4)}


class State:
    """A game's data, everything including what some players cannot see, and its
    read-only views; :class:`~civcards.carta.game.GameState` adds the moves."""

    __slots__ = (
        "active",
        "areas",
        "coin",
        "copied_hand",
        "deal",
        "deck",
        "deck_letters",
        "discard",
        "draft_centre",
        "draft_hold",
        "draft_order",
        "draft_step",
        "embargoed",
        "hands",
        "heg",
        "history",
        "inspired",
        "l1",
        "l2",
        "last_round",
        "learned",
        "markers",
        "movers",
        "n",
        "phase",
        "points",
        "start",
        "teams",
        "turn",
        "used_disc",
        "used_log",
        "used_perm",
        "victory",
        "victory_domain",
        "view_cache",
        "winners",
    )

    n: int
    deal: str
    teams: bool
    start: int
    deck_letters: str
    l1: int
    l2: int
    heg: int
    deck: list[int]
    hands: list[list[int]]
    areas: list[list[int]]
    discard: list[int]
    markers: list[tuple[int, int, str, int]]
    coin: tuple[int, int, int] | None
    copied_hand: int
    phase: str
    active: int
    used_perm: int
    used_disc: int
    used_log: list[str]
    inspired: bool
    embargoed: int
    last_round: bool
    turn: int
    winners: list[int]
    victory: str | None
    #: the domain of a hegemony victory (R21), else None
    victory_domain: int | None
    points: list[int] | None
    history: list[Move]
    movers: list[int]
    learned: list[list[tuple[object, ...]]]
    draft_step: int
    draft_hold: list[list[int]]
    draft_centre: list[int]
    draft_order: list[int]
    #: what :mod:`civcards.carta.observation` derived from the history so far (never
    #: changed once built, so copies share it; it checks that it fits a history)
    view_cache: object | None

    # -- construction -------------------------------------------------------

    def copy(self) -> Self:
        """An independent copy (cheap: a few small lists)."""
        c = object.__new__(self.__class__)
        c.n = self.n
        c.deal = self.deal
        c.teams = self.teams
        c.start = self.start
        c.deck_letters = self.deck_letters
        c.l1 = self.l1
        c.l2 = self.l2
        c.heg = self.heg
        c.deck = self.deck[:]
        c.hands = [h[:] for h in self.hands]
        c.areas = [a[:] for a in self.areas]
        c.discard = self.discard[:]
        c.markers = self.markers[:]
        c.coin = self.coin
        c.copied_hand = self.copied_hand
        c.phase = self.phase
        c.active = self.active
        c.used_perm = self.used_perm
        c.used_disc = self.used_disc
        c.used_log = self.used_log[:]
        c.inspired = self.inspired
        c.embargoed = self.embargoed
        c.last_round = self.last_round
        c.turn = self.turn
        c.winners = self.winners[:]
        c.victory = self.victory
        c.victory_domain = self.victory_domain
        c.points = None if self.points is None else self.points[:]
        c.history = self.history[:]
        c.movers = self.movers[:]
        c.learned = [lst[:] for lst in self.learned]
        c.draft_step = self.draft_step
        c.draft_hold = [h[:] for h in self.draft_hold]
        c.draft_centre = self.draft_centre[:]
        c.draft_order = self.draft_order[:]
        c.view_cache = self.view_cache  # shared: observation extends a copy
        return c

    # -- public read-only views --------------------------------------------

    @property
    def to_move(self) -> int | None:
        """The seat that decides next, None when the game is over."""
        return None if self.phase == OVER else self.active

    @property
    def finished(self) -> bool:
        return self.phase == OVER

    @property
    def deck_size(self) -> int:
        return len(self.deck)

    @property
    def era(self) -> int | None:
        """Era (0, 1, 2) of the top card of the deck (public: R25), None if empty."""
        if not self.deck:
            return None
        drawn = len(self.deck_letters) - len(self.deck)
        sizes = ERA_SIZES.get(self.n) or era_sizes(self.n)
        if drawn < sizes[0]:
            return 0
        if drawn < sizes[0] + sizes[1]:
            return 1
        return 2

    @property
    def thresholds(self) -> tuple[int, int, int]:
        return (self.l1, self.l2, self.heg)

    def team_of(self, seat: int) -> int:
        """R24: seats 0 and 2 are team 0, seats 1 and 3 team 1."""
        return seat % 2

    def level(self, seat: int, domain: int) -> int:
        """The permanent level (0, 1, 2) that ``seat`` has in ``domain`` (R11)."""
        c = self.areas[seat][domain]
        return 2 if c >= self.l2 else 1 if c >= self.l1 else 0

    def democracy_on(self, seat: int, domain: int) -> int:
        return sum(1 for s, d, k, _ in self.markers if s == seat and d == domain and k == DEMOCRACY)

    def hand_size(self, seat: int) -> int:
        """R13/R16: the hand size ``seat`` would draw up to at phase 3 now."""
        c = self.areas[seat][RELIGION]
        size = 7 if c >= self.l2 else 5 if c >= self.l1 else HAND_BASE
        coin = self.coin
        if coin is not None and coin[0] == seat and seat == self.active and self.copied_hand:
            size = max(size, self.copied_hand)
        return size

    def record(self, *, result: bool = True) -> dict[str, object]:
        """The game record (NOTATION.md) of the game so far."""
        rec: dict[str, object] = {
            "format": "civ-notation/1",
            "players": self.n,
            "deal": self.deal,
            "teams": self.teams,
            "start": self.start,
            "deck": self.deck_letters,
            "moves": [format_move(m) for m in self.history],
        }
        if result and self.phase == OVER:
            rec["result"] = {
                "winners": self.winners[:],
                "victory": self.victory,
                "points": None if self.points is None else self.points[:],
            }
        return rec
