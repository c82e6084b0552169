"""Whole games a seat cannot tell from the real one: determinization for search bots.

A search bot (:mod:`civcards.bots.ismcts`) needs complete states to play
forward, but a seat knows only its :class:`~civcards.carta.observation.Observation`
(R25). A :class:`Determinizer` is built from an observation alone and deals
the hidden cards afresh, as many times as asked, each time consistently with
everything that seat knows:

* its own hand, every play area, the discard pile, the markers and the coin;
* the hand sizes, the deck size and the era of the top card;
* what it knows of the other hands (``known_in_hands``: Inquisition, the cards
  taken from public zones, the two-player draft) — those cards stay put;
* during a Discovery or an Inquisition it chose, the cards it was shown
  (``reveal``): the top of the deck, or the target's hand.

The other cards — the rest of the other hands, the deck order and the cards
removed unseen (R4) — are dealt from the cards the seat has not seen, era by
era: an era of which no card has been drawn yet holds exactly its own cards
(R1) less those removed, and the era in course holds only cards that era
has (its domains, its counts).

Because nothing but the observation goes in, a bot that searches these states
cannot learn a hidden card: shuffling what the seat cannot see changes no
sample.

>>> from civcards.carta import new_game, observe
>>> import random
>>> g = new_game(2, seed=5)
>>> d = Determinizer(observe(g, 0))
>>> s = d.sample(random.Random(1))
>>> s.hands[0] == g.hands[0], s.areas == g.areas, len(s.deck) == len(g.deck)
(True, True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .cards import ERA_COMPOSITION, LETTER_INDEX, REMOVED_PER_ERA, THRESHOLDS, era_sizes
from .effects import DISCARD_DOMAIN, EFFECT_DOMAIN, PERMANENT_DOMAIN
from .game import DRAFT, EMBARGO, GameState
from .observation import Observation

#: cards of each domain in the whole game (R1)
TOTALS = tuple(sum(era[d] for era in ERA_COMPOSITION) for d in range(6))


def _counts(cards: str) -> list[int]:
    out = [0] * 6
    for ch in cards:
        out[LETTER_INDEX[ch]] += 1
    return out


class DeterminizeError(ValueError):
    """The observation cannot be turned into a state (the draft, a finished game)."""


class Determinizer:
    """Deals states consistent with one observation; see the module's documentation.

    ``reveal`` and ``chosen`` are those of a :class:`civcards.bots.Decision`
    after a ``?`` option: the cards Discovery drew (top first) or the hand
    Inquisition showed.
    """

    def __init__(
        self, obs: Observation, *, reveal: str | None = None, chosen: str | None = None
    ) -> None:
        if obs.finished or obs.to_move is None:
            raise DeterminizeError("the game is over: there is nothing to search")
        if obs.phase == DRAFT:
            raise DeterminizeError("the draft (R8) is not determinized")
        if obs.seat < 0:
            raise DeterminizeError("a spectator has no seat to search for")
        n = obs.players
        self.n = n
        self.seat = me = obs.seat
        base = GameState.__new__(GameState)
        base.n = n
        base.deal = obs.deal
        base.teams = obs.teams
        base.start = obs.start
        l1, l2, heg = obs.thresholds if obs.thresholds else THRESHOLDS[n]
        base.l1, base.l2, base.heg = l1, l2, heg
        base.areas = [_counts(a) for a in obs.areas]
        base.discard = _counts(obs.discard)
        base.markers = sorted(
            (int(m["seat"]), LETTER_INDEX[str(m["domain"])], str(m["kind"]), int(m["by"]))
            for m in obs.markers
        )
        c = obs.coin
        base.coin = (
            None
            if c is None
            else (int(c["holder"]), int(c["seat"]), LETTER_INDEX[str(c["domain"])])
        )
        base.phase = obs.phase
        base.active = obs.to_move
        base.turn = obs.turn
        base.last_round = obs.last_round
        base.used_log = list(obs.used_effects)
        base.used_perm = base.used_disc = 0
        base.inspired = False
        base.copied_hand = 0
        self._this_turn(base, obs)
        emb = 0
        for s, d, k, _ in base.markers:
            if s == base.active and k == EMBARGO:
                emb |= 1 << d
        base.embargoed = emb
        base.winners = []
        base.victory = None
        base.victory_domain = None
        base.points = None
        base.history = []
        base.movers = []
        base.learned = [[] for _ in range(n)]
        base.draft_step = 3
        base.draft_hold = [[0] * 6 for _ in range(n)]
        base.draft_centre = [0] * 6
        base.draft_order = []
        base.view_cache = None
        base.deck = []
        base.deck_letters = ""
        base.hands = [[0] * 6 for _ in range(n)]
        self.base = base

        # what the seat knows is where
        known = [_counts(k) for k in obs.known_in_hands]
        sizes = list(obs.hand_sizes)
        top: list[int] = []  # revealed top of the deck, top first
        if reveal is not None and chosen is not None:
            if chosen.startswith("discovery"):
                top = [LETTER_INDEX[ch] for ch in reveal]
            elif chosen.startswith("inquisition"):
                known[int(chosen.split()[1])] = _counts(reveal)
        known[me] = _counts(obs.hand)
        for s in range(n):
            known[s] = known[s] if sum(known[s]) <= sizes[s] else _trim(known[s], sizes[s])
        self.known = known
        self.unknown = [sizes[s] - sum(known[s]) for s in range(n)]
        self.top = top

        unseen = list(TOTALS)
        for d in range(6):
            unseen[d] -= base.discard[d] + sum(a[d] for a in base.areas)
            unseen[d] -= sum(k[d] for k in known)
        for _s, _d, k, _b in base.markers:
            unseen[2 if k == EMBARGO else 5] -= 1
        for d in top:
            unseen[d] -= 1
        # eras of the deck positions left to deal (R4: era I on top)
        sizes_e = era_sizes(n)
        total = sum(sizes_e)
        drawn = total - obs.deck_size
        bounds = (0, sizes_e[0], sizes_e[0] + sizes_e[1], total)
        first_hidden = drawn + len(top)
        self.slots: list[int] = []  # positions per era, from the top: era of each
        self.full_eras: list[int] = []
        top_by_era = [[0] * 6 for _ in range(3)]
        for i, d in enumerate(top):
            pos = drawn + i
            era = 0 if pos < bounds[1] else 1 if pos < bounds[2] else 2
            top_by_era[era][d] += 1
        removed = 0 if n == 4 else REMOVED_PER_ERA
        self.era_pools: list[list[int] | None] = [None, None, None]
        for era in range(3):
            lo, hi = bounds[era], bounds[era + 1]
            count = max(0, hi - max(lo, first_hidden))
            self.slots.append(count)
            if drawn <= lo:
                # R1, R4: an era not yet drawn from holds all its cards but the removed ones
                pool = [ERA_COMPOSITION[era][d] - top_by_era[era][d] for d in range(6)]
                for d in range(6):
                    unseen[d] -= pool[d]
                self.era_pools[era] = pool
        self.rest = [max(0, x) for x in unseen]
        self.removed = removed
        #: only its length matters (the era of the top card)
        self.letters = "?" * total

    @staticmethod
    def _this_turn(g: GameState, obs: Observation) -> None:
        """The effects used this turn (R10, R12, R19), read from the public history."""
        me = g.active
        for text, who in zip(reversed(obs.history), reversed(obs.movers), strict=False):
            words = text.split()
            kind = words[0]
            if who != me or kind in ("end", "keep", "take"):
                break
            if kind == "inspiration":
                g.inspired = True
                sub = words[2]
                g.used_perm |= 1 << EFFECT_DOMAIN[sub][0]
                if sub == "holybook":
                    g.copied_hand = max(g.copied_hand, 5)
                elif sub == "divineright":
                    g.copied_hand = 7
            elif kind in PERMANENT_DOMAIN:
                g.used_perm |= 1 << PERMANENT_DOMAIN[kind]
            elif kind in DISCARD_DOMAIN:
                g.used_disc |= 1 << DISCARD_DOMAIN[kind]

    def sample(self, rng: random.Random) -> GameState:
        """One state the seat cannot tell from the real one, hidden cards dealt by ``rng``.

        Which cards are where is drawn uniformly; the order of the deck is
        drawn for its top :data:`WINDOW` cards (all a search can reach), the
        cards below them keep an arbitrary order.
        """
        g = self.base.copy()
        rnd = rng.random
        rest = self.rest[:]
        deck_top_first: list[int] = list(self.top)
        above = 0
        for era in range(3):
            count = self.slots[era]
            pool = self.era_pools[era]
            if pool is not None:
                bag = _bag(pool)
                _pick_tail(bag, len(bag) - count, rnd)  # R4: the cards removed unseen
            elif count:
                cap = ERA_COMPOSITION[era]
                bag = _bag([min(rest[d], cap[d]) for d in range(6)])
                if len(bag) < count:  # pragma: no cover - an inconsistent observation
                    bag = _bag(rest)
                    count = min(count, len(bag))
                _pick_tail(bag, len(bag) - count, rnd)
                for d in bag[:count]:
                    rest[d] -= 1
            else:
                continue
            _shuffle_head(bag, count, WINDOW - above, rnd)
            deck_top_first.extend(bag[:count])
            above += count
        bag = _bag(rest)
        need = sum(self.unknown)
        _pick_tail(bag, need, rnd)
        hands = g.hands
        for s in range(self.n):
            h = self.known[s][:]
            for _ in range(self.unknown[s]):
                if bag:
                    h[bag.pop()] += 1
            hands[s] = h
        deck_top_first.reverse()
        g.deck = deck_top_first
        g.deck_letters = self.letters
        return g


#: how many cards from the top of the deck a sample puts in random order
WINDOW = 24


def _bag(counts: list[int]) -> list[int]:
    """Each domain ``d`` ``counts[d]`` times, in domain order (lists made at C speed)."""
    return (
        [0] * counts[0]
        + [1] * counts[1]
        + [2] * counts[2]
        + [3] * counts[3]
        + [4] * counts[4]
        + [5] * counts[5]
    )


def _pick_tail(bag: list[int], k: int, rnd: Callable[[], float]) -> None:
    """Move a uniformly random ``k``-subset of ``bag`` to its end, in random order."""
    n = len(bag)
    for i in range(n - 1, n - 1 - min(k, n), -1):
        j = int(rnd() * (i + 1))
        bag[i], bag[j] = bag[j], bag[i]


def _shuffle_head(bag: list[int], n: int, w: int, rnd: Callable[[], float]) -> None:
    """Put the first ``w`` of the first ``n`` items of ``bag`` in uniformly random order."""
    for i in range(min(w, n - 1)):
        j = i + int(rnd() * (n - i))
        bag[i], bag[j] = bag[j], bag[i]


def _trim(counts: list[int], size: int) -> list[int]:
    out = counts[:]
    extra = sum(out) - size
    for d in range(5, -1, -1):
        take = min(extra, out[d])
        out[d] -= take
        extra -= take
    return out
