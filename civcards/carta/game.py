"""The rules engine: the state of a game, its legal moves and how they apply.

>>> g = new_game(players=2, seed=7)
>>> g.phase, g.to_move in (0, 1), g.deck_size
('play', True, 89)
>>> m = g.legal_moves()[0]
>>> g.apply(m)
>>> g.phase
'effects'

Hands and play areas are six counts per domain (see :mod:`civcards.carta.cards`);
the deck keeps its letters, top card last in :attr:`GameState.deck`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from functools import lru_cache
from typing import Final

from .cards import (
    CULTURE,
    ECONOMY,
    ERA_COMPOSITION,
    LETTER_INDEX,
    LETTERS,
    MILITARY,
    RELIGION,
    REMOVED_PER_ERA,
    SCIENCE,
    THRESHOLDS,
    TIE_BREAK_ORDER,
    UTOPIA,
    counts_to_str,
    era_sizes,
)
from .effects import DISCARD_DOMAIN, EFFECT_DOMAIN, PERMANENT_DOMAIN, move_cards
from .explain import why_illegal
from .moves import END, Move, format_move, parse_move

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


# ---------------------------------------------------------------------------
# Multisets of cards


#: era_sizes of each player count
_ERA_SIZES = {n: era_sizes(n) for n in (2, 3, 4)}


@lru_cache(maxsize=65536)
def multisets(counts: tuple[int, ...], k: int) -> tuple[str, ...]:
    """Every canonical card list of ``k`` cards drawn from ``counts`` (six counts).

    >>> multisets((2, 0, 0, 1, 0, 0), 2)
    ('MM', 'MS')
    """
    if not 0 <= k <= sum(counts):
        return ()
    # domain by domain, the most cards of a domain first: canonical order as it is built
    # (a list holding more cards of an earlier domain comes first)
    level: list[tuple[str, int]] = [("", k)]
    left = sum(counts)
    for d in range(6):
        c = counts[d]
        left -= c  # cards of the domains after d
        letter = LETTERS[d]
        nxt: list[tuple[str, int]] = []
        for prefix, need in level:
            for take in range(min(need, c), max(0, need - left) - 1, -1):
                nxt.append((prefix + letter * take, need - take))
        level = nxt
    return tuple([prefix for prefix, _ in level])


def _sub(counts: list[int], cards: str) -> bool:
    """Remove ``cards`` from ``counts`` in place; False (and unchanged) if absent."""
    need = [0] * 6
    for ch in cards:
        need[LETTER_INDEX[ch]] += 1
    for d in range(6):
        if need[d] > counts[d]:
            return False
    for d in range(6):
        counts[d] -= need[d]
    return True


def _add(counts: list[int], cards: str) -> None:
    for ch in cards:
        counts[LETTER_INDEX[ch]] += 1


# Moves that carry one card letter (and perhaps a seat) are made once.
_PLAY = tuple(Move("play", cards=c) for c in LETTERS)
_KEEP = tuple(Move("keep", cards=c) for c in LETTERS)
_TAKE = tuple(Move("take", cards=c) for c in LETTERS)
_ASSASSINATION = tuple(Move("assassination", cards=c) for c in LETTERS)
_ATTACK = tuple(Move("attack", cards=c) for c in LETTERS)
_OLIGARCHY = tuple(Move("oligarchy", cards=c) for c in LETTERS)
_EMBARGO = tuple(tuple(Move("embargo", s, c) for c in LETTERS) for s in range(4))
_DEMOCRACY = tuple(tuple(Move("democracy", s, c) for c in LETTERS) for s in range(4))
_INQUISITION_EMPTY = tuple(Move("inquisition", s) for s in range(4))
#: stand-ins (never legal moves) for every move of a Discovery while the deck has cards,
#: and of an Inquisition of a non-empty hand (:meth:`GameState.folded_moves`)
FOLDED_DISCOVERY = Move("discovery", -1, "?")
FOLDED_INQUISITION = tuple(Move("inquisition", s, "?") for s in range(4))
_HOLYBOOK = Move("holybook")
_DIVINERIGHT = Move("divineright")


@lru_cache(maxsize=65536)
def _choice_moves(kind: str, counts: tuple[int, ...], k: int, seat: int = -1) -> tuple[Move, ...]:
    """``kind`` moves naming each multiset of ``k`` cards from ``counts``."""
    return tuple(Move(kind, seat, c) for c in multisets(counts, k))


@lru_cache(maxsize=65536)
def _swap_moves(
    kind: str, area: tuple[int, ...], hand: tuple[int, ...], emb: int, k: int
) -> tuple[Move, ...]:
    """Development/Monopoly (discard then play) or Experiment/Research (return then play)."""
    out: list[Move] = []
    if sum(area) < k:
        return ()
    back = kind in ("experiment", "research")
    for first in multisets(area, k):
        h2 = list(hand)
        if back:
            _add(h2, first)
        playable = tuple(0 if emb >> d & 1 else h2[d] for d in range(6))
        for p in multisets(playable, min(k, sum(playable))):
            out.append(Move(kind, cards=first, more=p))
    return tuple(out)


# ---------------------------------------------------------------------------
# Decks


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


# ---------------------------------------------------------------------------
# The state


class GameState:
    """A game in progress: everything, including what some players cannot see.

    Create one with :func:`new_game`. :meth:`legal_moves` lists the moves of
    the seat :attr:`to_move`; :meth:`apply` plays one, checking it, and
    raises :class:`IllegalMoveError` (changing nothing) for an illegal one.
    Use :meth:`observation` (in :mod:`civcards.carta.observation`) for what a
    seat may know.
    """

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
    #: what :mod:`civcards.carta.observation` derived from the history so far
    view_cache: object | None

    # -- construction -------------------------------------------------------

    def copy(self) -> GameState:
        """An independent copy (cheap: a few small lists)."""
        c = GameState.__new__(GameState)
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
        c.view_cache = None
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
        sizes = _ERA_SIZES.get(self.n) or era_sizes(self.n)
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

    # -- legal moves ---------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move of :attr:`to_move`, each once, in canonical order."""
        if self.phase == OVER:
            return []
        moves = self.raw_moves()
        seen: dict[str, Move] = {}
        for m in moves:
            seen.setdefault(format_move(m), m)
        return [seen[k] for k in sorted(seen)]

    def legal_strings(self) -> list[str]:
        """The legal moves as canonical notation, sorted (as ``replay --legal``)."""
        return [format_move(m) for m in self.legal_moves()]

    def raw_moves(self) -> list[Move]:
        """The legal moves, each exactly once, in no particular order."""
        ph = self.phase
        if ph == PLAY:
            hand = self.hands[self.active]
            emb = self.embargoed
            return [_PLAY[d] for d in range(6) if hand[d] and not emb >> d & 1]
        if ph == EFFECTS:
            return self._effect_moves()
        if ph == DRAFT:
            if self.draft_step < 3:
                hold = self.draft_hold[self.active]
                return [_KEEP[d] for d in range(6) if hold[d]]
            return [_TAKE[d] for d in range(6) if self.draft_centre[d]]
        return []

    def _perm_moves(self, domain: int, level: int, out: list[Move]) -> None:
        """The moves of one permanent effect, as if the active player had it."""
        me = self.active
        hand = self.hands[me]
        if domain == MILITARY:
            if level == 1:
                out.extend([_ASSASSINATION[d] for d in range(6) if hand[d]])
            else:
                h = sum(hand)
                if h:
                    out.extend(_choice_moves("purge", tuple(hand), 2 if h > 1 else 1))
        elif domain == RELIGION:
            out.append(_HOLYBOOK if level == 1 else _DIVINERIGHT)
        elif domain == ECONOMY:
            kind = "development" if level == 1 else "monopoly"
            out.extend(_swap_moves(kind, tuple(self.areas[me]), tuple(hand), self.embargoed, level))
        elif domain == SCIENCE:
            kind = "experiment" if level == 1 else "research"
            out.extend(_swap_moves(kind, tuple(self.areas[me]), tuple(hand), self.embargoed, level))
        elif domain == UTOPIA:
            disc = self.discard
            total = sum(disc)
            if not total:
                return
            if level == 1:
                out.extend([_OLIGARCHY[d] for d in range(6) if disc[d]])
            else:
                out.extend(_choice_moves("republic", tuple(disc), 2 if total > 1 else 1))

    def folded_moves(self) -> list[Move]:
        """:meth:`raw_moves`, the moves of a Discovery of a non-empty deck folded into one
        stand-in (:data:`FOLDED_DISCOVERY`) and those of an Inquisition of a non-empty hand
        into one per target (:data:`FOLDED_INQUISITION`), each where its first move was."""
        if self.phase == EFFECTS:
            return self._effect_moves(True)
        return self.raw_moves()

    def _effect_moves(self, fold: bool = False) -> list[Move]:
        me = self.active
        n = self.n
        hand = self.hands[me]
        areas = self.areas
        area = areas[me]
        l1 = self.l1
        l2 = self.l2
        perm = self.used_perm
        disc = self.used_disc
        out: list[Move] = []
        # permanent effects (R11), one per domain (R10)
        for d in (MILITARY, ECONOMY, SCIENCE, UTOPIA):
            c = area[d]
            if c >= l1 and not perm >> d & 1:
                self._perm_moves(d, 1, out)
                if c >= l2:
                    self._perm_moves(d, 2, out)
        # discard effects (R12)
        if area[MILITARY] and not disc & 1:
            out.extend([_ATTACK[d] for d in range(6) if area[d] > (d == MILITARY)])
        if area[RELIGION] and not disc & 2:
            for s in range(n):
                if s != me:
                    target = self.hands[s]
                    k = sum(target)
                    if k == 0:
                        out.append(_INQUISITION_EMPTY[s])
                    elif fold:
                        out.append(FOLDED_INQUISITION[s])
                    else:
                        pool = (
                            hand[0] + target[0],
                            hand[1] + target[1],
                            hand[2] + target[2],
                            hand[3] + target[3],
                            hand[4] + target[4],
                            hand[5] + target[5],
                        )
                        out.extend(_choice_moves("inquisition", pool, k, s))
        if area[ECONOMY] and not disc & 4:
            for s in range(n):
                if s != me:
                    other = areas[s]
                    row = _EMBARGO[s]
                    out.extend([row[d] for d in range(6) if other[d]])
        if area[SCIENCE] and not disc & 8 and fold and self.deck:
            out.append(FOLDED_DISCOVERY)
        elif area[SCIENCE] and not disc & 8:
            deck = self.deck
            k = 5 if len(deck) >= 5 else len(deck)
            pool_l = hand[:]
            for i in range(1, k + 1):
                pool_l[deck[-i]] += 1
            out.extend(_choice_moves("discovery", tuple(pool_l), k))
        if area[UTOPIA] and not disc & 32:
            for s in range(n):
                if s != me:
                    other = areas[s]
                    row = _DEMOCRACY[s]
                    out.extend([row[d] for d in range(6) if other[d]])
        # Inspiration (R19): strictly more Culture than every other player
        mine = area[CULTURE]
        if mine and not self.inspired:
            for s in range(n):
                if s != me and areas[s][CULTURE] >= mine:
                    break
            else:
                for s in range(n):
                    if s != me:
                        self._inspiration_moves(s, out)
        out.append(END)
        return out

    def step_moves(self, kind: str, seat: int = -1) -> tuple[Move, ...]:
        """The ``discovery`` moves, or the ``inquisition`` moves against ``seat``, of
        :meth:`raw_moves`: the same moves in the same order (none when not legal now)."""
        if self.phase != EFFECTS:
            return ()
        me = self.active
        area = self.areas[me]
        hand = self.hands[me]
        if kind == "discovery":
            if not area[SCIENCE] or self.used_disc & 8:
                return ()
            deck = self.deck
            k = 5 if len(deck) >= 5 else len(deck)
            pool_l = hand[:]
            for i in range(1, k + 1):
                pool_l[deck[-i]] += 1
            return _choice_moves("discovery", tuple(pool_l), k)
        if kind != "inquisition" or not area[RELIGION] or self.used_disc & 2:
            return ()
        if seat == me or not 0 <= seat < self.n:
            return ()
        target = self.hands[seat]
        k = sum(target)
        if k == 0:
            return (_INQUISITION_EMPTY[seat],)
        pool = tuple([hand[d] + target[d] for d in range(6)])
        return _choice_moves("inquisition", pool, k, seat)

    def _inspiration_moves(self, s: int, out: list[Move]) -> None:
        other = self.areas[s]
        area = self.areas[self.active]
        l1 = self.l1
        l2 = self.l2
        perm = self.used_perm
        for d in (MILITARY, RELIGION, ECONOMY, SCIENCE, UTOPIA):
            if perm >> d & 1 or other[d] < l1:
                continue
            own = 2 if area[d] >= l2 else 1 if area[d] >= l1 else 0
            for lvl in (1, 2):
                if own >= lvl or (lvl == 2 and other[d] < l2):
                    continue
                sub: list[Move] = []
                self._perm_moves(d, lvl, sub)
                out.extend([Move("inspiration", s, "", "", m) for m in sub])

    # -- applying moves ------------------------------------------------------

    def is_legal(self, move: Move) -> bool:
        if self.phase == OVER:
            return False
        key = format_move(move)
        return any(format_move(m) == key for m in self.raw_moves())

    def apply(self, move: Move | str) -> None:
        """Play ``move`` (a :class:`Move` or its notation) for :attr:`to_move`.

        Raises :class:`IllegalMoveError` and leaves the state unchanged when the
        move is not legal now; :class:`~civcards.carta.moves.NotationError`
        when the text cannot be read.
        """
        if isinstance(move, str):
            move = parse_move(move)
        if not self.is_legal(move):
            raise IllegalMoveError(move, why_illegal(self, move))
        self.apply_unchecked(move)

    def apply_unchecked(self, m: Move) -> None:
        """Play a move known to be legal (from :meth:`legal_moves`), unchecked."""
        me = self.active
        self.history.append(m)
        self.movers.append(me)
        k = m.kind
        if k == "play":
            move_cards(m, me, self.hands[me], self.areas, self.discard)
            self.phase = EFFECTS
        elif k == "end":
            self._end_turn()
            return
        elif k == "keep" or k == "take":
            self._draft(m)
            return
        elif k == "inspiration":
            sub = m.copy
            assert sub is not None
            d = EFFECT_DOMAIN[sub.kind][0]
            self.inspired = True
            self.used_perm |= 1 << d
            self.used_log.append("inspiration")
            self.coin = (me, m.seat, d)
            if sub.kind == "holybook":
                self.copied_hand = 5
            elif sub.kind == "divineright":
                self.copied_hand = 7
            else:
                self._effect(sub, me)
        else:
            self._effect(m, me)
        if self.coin is not None:
            self._check_coin()

    def _check_coin(self) -> None:
        coin = self.coin
        assert coin is not None
        h = coin[0]
        mine = self.areas[h][CULTURE]
        for s in range(self.n):
            if s != h and self.areas[s][CULTURE] >= mine:
                self.coin = None
                return

    def _effect(self, m: Move, me: int) -> None:
        k = m.kind
        hand = self.hands[me]
        if k in PERMANENT_DOMAIN:
            self.used_perm |= 1 << PERMANENT_DOMAIN[k]
        else:
            self.used_disc |= 1 << DISCARD_DOMAIN[k]
        self.used_log.append(k)
        # the cards that move without a hidden one (R15-R20), then the rest of the effect
        move_cards(m, me, hand, self.areas, self.discard)
        li = LETTER_INDEX
        if k == "inquisition":
            # R16: the target's hand for the cards given back
            target = self.hands[m.seat]
            old = counts_to_str(target)
            for d in range(6):
                hand[d] += target[d]
                target[d] = 0
            for ch in m.cards:
                d = li[ch]
                hand[d] -= 1
                target[d] += 1
            at = len(self.history) - 1
            self.learned[me].append(("inquisition_saw", at, m.seat, old))
            self.learned[m.seat].append(("inquisition_got", at, me, old, m.cards))
        elif k == "embargo" or k == "democracy":
            self.markers.append((m.seat, li[m.cards], k, me))
            self.markers.sort()
        elif k == "discovery":
            # R18: draw up to five cards, then discard as many as the move names
            pile = self.discard
            deck = self.deck
            drawn = min(5, len(deck))
            if drawn:
                for _ in range(drawn):
                    hand[deck.pop()] += 1
                if not deck:
                    self.last_round = True
            for ch in m.cards:
                d = li[ch]
                hand[d] -= 1
                pile[d] += 1

    #: the former names of :meth:`raw_moves`, :meth:`folded_moves` and :meth:`step_moves`
    _generate = raw_moves
    _generate_folded = folded_moves
    _step_moves = step_moves

    # -- turns ----------------------------------------------------------------

    def _end_turn(self) -> None:
        me = self.active
        hand = self.hands[me]
        # R13 phase 3: draw up to the hand size
        need = self.hand_size(me) - sum(hand)
        deck = self.deck
        if need > 0 and deck:
            for _ in range(min(need, len(deck))):
                hand[deck.pop()] += 1
            if not deck:
                self.last_round = True
        # R17: embargoes on the active player end with their turn
        if self.markers:
            keep = []
            for mk in self.markers:
                if mk[0] == me and mk[2] == EMBARGO:
                    self.discard[ECONOMY] += 1
                else:
                    keep.append(mk)
            self.markers = keep
        # R21: hegemony of the active player only
        area = self.areas[me]
        heg = self.heg
        for d in range(6):
            if area[d] >= heg and (not self.markers or area[d] >= heg + self.democracy_on(me, d)):
                self.winners = [me, (me + 2) % 4] if self.teams else [me]
                self.winners.sort()
                self.victory = "hegemony"
                self.victory_domain = d
                self._finish()
                return
        nxt = (me + 1) % self.n
        if self.last_round and nxt == self.start:
            self._score_majorities()
            return
        self._start_turn(nxt)

    def _finish(self) -> None:
        self.phase = OVER

    def _start_turn(self, seat: int) -> None:
        self.active = seat
        self.turn += 1
        self.used_perm = 0
        self.used_disc = 0
        self.used_log = []
        self.inspired = False
        self.copied_hand = 0
        if self.coin is not None and self.coin[0] == seat:
            self.coin = None  # R19: the coin returns at the holder's next turn
        emb = 0
        for s, d, k, _ in self.markers:
            if s == seat and k == EMBARGO:
                emb |= 1 << d
        self.embargoed = emb
        hand = self.hands[seat]
        # R9: phase 1 is skipped only when no card may be played
        self.phase = EFFECTS
        for d in range(6):
            if hand[d] and not emb >> d & 1:
                self.phase = PLAY
                break

    def _score_majorities(self) -> None:
        """R22 (and R24 for teams): score the majorities and name the winners."""
        n = self.n
        areas = self.areas
        pts = majority_points(areas, self.teams)

        def key(s: int) -> tuple[int, ...]:
            if self.teams:  # R24 ruling: the teams' summed cards break a tie
                t = s % 2
                return (
                    pts[t],
                    *(sum(areas[x][d] for x in range(n) if x % 2 == t) for d in TIE_BREAK_ORDER),
                )
            return (pts[s], *(areas[s][d] for d in TIE_BREAK_ORDER))

        top = max(key(s) for s in range(n))
        self.winners = [s for s in range(n) if key(s) == top]
        self.points = pts
        self.victory = "majority"
        self._finish()

    # -- the draft (R8) ---------------------------------------------------------

    def _draft(self, m: Move) -> None:
        me = self.active
        d = LETTER_INDEX[m.cards]
        n = self.n
        if m.kind == "keep":
            self.draft_hold[me][d] -= 1
            move_cards(m, me, self.hands[me], self.areas, self.discard)
            if (me + 1) % n != self.start:
                self.active = (me + 1) % n
                return
            # everyone has kept: pass left, or (step 3) the rest to the centre
            self.draft_step += 1
            if self.draft_step < 3:
                hold = self.draft_hold
                self.draft_hold = [hold[(s - 1) % n] for s in range(n)]
                for s in range(n):
                    got = counts_to_str(self.draft_hold[s])
                    self.learned[s].append(("draft_received", self.draft_step, (s - 1) % n, got))
                self.active = self.start
            else:
                for h in self.draft_hold:
                    for dd in range(6):
                        self.draft_centre[dd] += h[dd]
                        h[dd] = 0
                self.draft_order = [(self.start - 1 - i) % n for i in range(n)]
                self.active = self.draft_order[0]
        else:  # take
            self.draft_centre[d] -= 1
            move_cards(m, me, self.hands[me], self.areas, self.discard)
            self.draft_order.pop(0)
            if self.draft_order:
                self.active = self.draft_order[0]
            else:
                self.turn = 0
                self._start_turn(self.start)
                self.turn = 1


def majority_points(areas: list[list[int]], teams: bool = False) -> list[int]:
    """Majority points (R22) by seat, or by team ``[seats 0+2, seats 1+3]`` (R24).

    Each player with the most cards of a domain (at least one) scores 1; tied
    players all score. A team scores at most 1 per domain.

    >>> majority_points([[2, 0, 1, 0, 0, 0], [2, 1, 0, 0, 0, 0]])
    [2, 2]
    """
    n = len(areas)
    pts = [0, 0] if teams else [0] * n
    for d in range(6):
        best = max(a[d] for a in areas)
        if best == 0:
            continue  # R22 ruling: a domain nobody has scores for nobody
        if teams:
            for t in (0, 1):
                if any(areas[s][d] == best for s in range(t, n, 2)):
                    pts[t] += 1
        else:
            for s in range(n):
                if areas[s][d] == best:
                    pts[s] += 1
    return pts


def new_game(
    players: int = 2,
    *,
    deal: str = "basic",
    teams: bool = False,
    seed: int | str | None = None,
    deck: str | None = None,
    start: int | None = None,
) -> GameState:
    """Set up a game (R3-R8).

    Give ``deck`` (top card first, NOTATION.md) and ``start`` for an explicit
    set-up, or a ``seed`` to shuffle (R4, R5); with neither, a random seed.
    Raises :class:`ConfigError` with a sentence for an impossible set-up.
    """
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
    g = GameState.__new__(GameState)
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
        g._start_turn(start)
    else:
        g.phase = DRAFT
        g.active = start
        for s in range(players):
            g.learned[s].append(("draft_received", 0, s, counts_to_str(g.draft_hold[s])))
    return g


def replay_moves(g: GameState, moves: Iterable[Move | str]) -> GameState:
    """Apply ``moves`` in order to ``g`` (checked) and return it."""
    for m in moves:
        g.apply(m)
    return g


def random_playout(g: GameState, rng: random.Random) -> int:
    """Play ``g`` to its end, each move uniformly random among the legal moves.

    This is the benchmark's playout (``civcards bench``): uniform over the
    distinct legal moves in the sense of NOTATION.md. Returns the number of
    moves made.
    """
    gen = g.raw_moves
    play = g.apply_unchecked
    rnd = rng.random
    count = 0
    while g.phase != OVER:
        moves = gen()
        play(moves[int(rnd() * len(moves))])
        count += 1
    return count
