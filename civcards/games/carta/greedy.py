"""``greedy``: CIV's hand-written one-step policy, from the observation only.

At every decision the bot rebuilds a small local picture of the game from its
:class:`~civcards.carta.Observation` (its hand, every play area, the discard
pile, the face-down markers, what it knows of the other hands), applies each
option to that picture and scores the result with :func:`evaluate`; it takes
the best option and ends its turn when nothing scores better than ending.

The evaluation, in words:

* **hegemony** — for each domain, a convex function of the cards in the play
  area against the hegemony threshold (R6, R21: ``thresholds[2]`` plus the
  Democracy markers on that domain), so one strong domain beats several weak
  ones; reaching the threshold is a win;
* **hand** — each card in hand is worth a discounted share of what it would
  add once played; every empty slot under the hand size (R13, R16) is worth a
  random draw from the current era's mix of domains, so useless cards are
  worth discarding (Assassination, Purge, Discovery) and Religion levels pay;
* **engine** — small bonuses for the permanent levels that speed a player up
  (Religion, Science, Economy, Utopia, Military) and for the Culture majority,
  fading as the deck runs out;
* **threat** — the other players' hegemony progress, by the same convex
  function (Embargo on them and Democracy markers lower it, cards known in
  their hands raise it), subtracted: this is what makes Attack, Embargo,
  Democracy and Inquisition worth their cost against a player about to win;
  team-mates (R24) count on the bot's side instead;
* **majorities** — the majority points race (R22), weighted more and more as
  the deck runs out.

Discovery and Inquisition (hidden steps, :class:`~civcards.game_api.Choice`
with ``hidden``) are valued before the reveal by a few sampled draws; after
the reveal the full moves are scored exactly.
The bot draws random numbers only from its own seeded generator, so it is
deterministic given its seed.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import accumulate

from ...bots.base import Bot, Decision
from ...carta.cards import ERA_COMPOSITION, LETTER_INDEX, THRESHOLDS
from ...carta.effects import move_cards
from ...carta.game import majority_points
from ...carta.moves import Move, parse_move
from ...carta.observation import Observation
from ...game_api import Choice

M, R, E, S, C, U = range(6)

#: how much a card in hand is worth, against the same card in the play area
HAND_DISCOUNT = 0.55
#: the value of reaching hegemony at the end of one's own turn
WIN = 10_000.0
#: the scale of the hegemony-progress term
PROGRESS = 100.0
#: permanent-level bonuses by domain: (level 1, level 2)
LEVEL_BONUS = ((0.5, 1.0), (5.0, 8.0), (2.0, 3.5), (3.0, 5.0), (0.0, 0.0), (1.5, 2.5))
CULTURE_BONUS = 1.5
#: a tiny price on every effect, so that the bot ends when nothing helps
EFFECT_COST = 0.05
#: samples used to value a hidden step (Discovery, Inquisition) before its reveal
SAMPLES = 3

_DOMAINS = range(6)
#: cards of each domain in the whole game (R1)
TOTALS = tuple(sum(era[d] for era in ERA_COMPOSITION) for d in range(6))


@lru_cache(maxsize=4096)
def progress(a: int, target: int) -> float:
    """The convex hegemony-progress value of ``a`` cards against ``target``."""
    if a <= 0:
        return 0.0
    if a >= target:
        return PROGRESS * 2.5
    x = a / target
    return PROGRESS * x * x * x


#: ``_ROWS[t][a] == progress(a, t)`` (the same floats) for targets ``t`` below 64 (the
#: hegemony threshold plus Democracy markers) and counts ``a`` in ``range(-128, 128)``
#: (a negative count reads the row from its end, where the values of negative counts are)
_ROWS: tuple[tuple[float, ...], ...] = tuple(
    tuple([progress.__wrapped__(a, t) for a in range(128)] + [0.0] * 128) for t in range(64)
)


#: ``HAND_DISCOUNT ** (j + 1)`` for j cards already in hand
_DISCOUNTS = tuple(HAND_DISCOUNT ** (j + 1) for j in range(64))


class Local:
    """A small mutable picture of the game as one seat sees it."""

    __slots__ = (
        "areas",
        "copied_hand",
        "deck",
        "dem",
        "discard",
        "emb",
        "era",
        "hand",
        "hand_sizes",
        "known",
        "last_round",
        "me",
        "n",
        "teams",
        "thr",
    )

    me: int
    n: int
    teams: bool
    thr: tuple[int, int, int]
    hand: list[int]
    areas: list[list[int]]
    discard: list[int]
    dem: list[list[int]]
    emb: list[list[int]]
    known: list[list[int]]
    hand_sizes: list[int]
    deck: int
    era: int | None
    last_round: bool
    copied_hand: int

    def shallow(self) -> Local:
        """A copy sharing every list with this one (replace a list to change it)."""
        c = Local.__new__(Local)
        c.me = self.me
        c.n = self.n
        c.teams = self.teams
        c.thr = self.thr
        c.hand = self.hand
        c.areas = self.areas
        c.discard = self.discard
        c.dem = self.dem
        c.emb = self.emb
        c.known = self.known
        c.hand_sizes = self.hand_sizes
        c.deck = self.deck
        c.era = self.era
        c.last_round = self.last_round
        c.copied_hand = self.copied_hand
        return c

    def copy(self) -> Local:
        """A copy with its own hand, play areas and discard pile; the other lists are
        shared (the markers are changed only by copy-on-write in :func:`apply_move`)."""
        c = self.shallow()
        c.hand = self.hand[:]
        c.areas = [a[:] for a in self.areas]
        c.discard = self.discard[:]
        return c


def _counts(cards: str) -> list[int]:
    got = _COUNTS.get(cards)
    if got is None:
        out = [0] * 6
        for ch in cards:
            out[LETTER_INDEX[ch]] += 1
        if len(_COUNTS) > 100_000:
            _COUNTS.clear()
        got = _COUNTS[cards] = tuple(out)
    return list(got)


#: the counts of each card list read (memoised)
_COUNTS: dict[str, tuple[int, ...]] = {}


def local_from(obs: Observation) -> Local:
    """The bot's picture of the game from its observation (nothing else)."""
    n = obs.players
    st = Local.__new__(Local)
    st.me = obs.seat
    st.n = n
    st.teams = obs.teams
    st.thr = tuple(obs.thresholds) if obs.thresholds else THRESHOLDS[n]  # type: ignore[assignment]
    st.hand = _counts(obs.hand)
    st.areas = [_counts(a) for a in obs.areas]
    st.discard = _counts(obs.discard)
    st.dem = [[0] * 6 for _ in range(n)]
    st.emb = [[0] * 6 for _ in range(n)]
    for mk in obs.markers:
        d = LETTER_INDEX[str(mk["domain"])]
        s = int(mk["seat"])
        if mk["kind"] == "democracy":
            st.dem[s][d] += 1
        else:
            st.emb[s][d] += 1
    st.known = [_counts(k) for k in obs.known_in_hands]
    st.hand_sizes = list(obs.hand_sizes)
    st.deck = obs.deck_size
    st.era = obs.era
    st.last_round = obs.last_round
    st.copied_hand = 0
    # a Religion effect copied by Inspiration this turn counts at phase 3 (R16, R19)
    if "inspiration" in obs.used_effects and obs.coin is not None:
        for text, who in zip(reversed(obs.history), reversed(obs.movers), strict=False):
            if who != obs.seat or text == "end":
                break
            if text.startswith("inspiration") and text.endswith(("holybook", "divineright")):
                st.copied_hand = 7 if text.endswith("divineright") else 5
    return st


def unseen(st: Local) -> list[int]:
    """Cards of each domain that the seat has not seen anywhere (deck, hands, removed)."""
    out = [t - h - c for t, h, c in zip(TOTALS, st.hand, st.discard, strict=True)]
    me = st.me
    for s in range(st.n):
        out = [o - x for o, x in zip(out, st.areas[s], strict=True)]
        if s != me:
            out = [o - x for o, x in zip(out, st.known[s], strict=True)]
        out[E] -= sum(st.emb[s])
        out[U] -= sum(st.dem[s])
    return [x if x > 0 else 0 for x in out]


def draw_weights(st: Local) -> list[float]:
    """The chance of each domain for the next card drawn (the current era's mix)."""
    return list(_draw_weights(st.era))


@lru_cache(maxsize=16)
def _draw_weights(era: int | None) -> tuple[float, ...]:
    if era is None:
        return (0.0,) * 6
    comp = ERA_COMPOSITION[era]
    tot = sum(comp)
    return tuple([c / tot for c in comp])


def hand_size(st: Local) -> int:
    c = st.areas[st.me][R]
    base = 7 if c >= st.thr[1] else 5 if c >= st.thr[0] else 3
    return max(base, st.copied_hand)


def card_values(st: Local) -> list[float]:
    """What one more card of each domain in hand is worth to the seat now."""
    return _card_values(st.areas[st.me], st.hand, st.dem[st.me], st.thr[2])


def _card_values(a: list[int], h: list[int], dem: list[int], heg: int) -> list[float]:
    out = [0.0] * 6
    for d in range(6):
        row = _ROWS[heg + dem[d]]
        k = a[d] + h[d]
        out[d] = _DISCOUNTS[h[d]] * (row[k + 1] - row[k])
    return out


# The evaluation is memoised in parts, each a pure function of a few counts computed
# by the same operations in the same order as ever (so the same floats, bit for bit):
# the seat's own domains, hand, refill value and levels; each other seat's progress;
# the majority margin. The keys are flat tuples of small ints.

#: (thresholds, era, own area, hand, own Democracy markers) -> (progress and hand, the
#: value of one refilled card, the permanent levels' bonus)
_MINE: dict[tuple[int | None, ...], tuple[float, float, float]] = {}
#: (hegemony threshold, a seat's area, Democracy, known cards, Embargo) -> its progress
_SEAT: dict[tuple[int, ...], float] = {}
#: (team game, seat, every area) -> the seat's majority margin
_MARGIN: dict[tuple[int, ...], float] = {}
#: the most entries a memo keeps before it starts again (about 20 MB for the largest)
_MEMO_MAX = 50_000


#: the hand's share of a domain, as the additions the evaluation makes, by (target, cards
#: in play, cards in hand): ``f * (progress(a + i, t) - progress(a + i - 1, t))`` with ``f``
#: the discount multiplied ``i`` times
_HAND_ADDS: dict[tuple[int, int, int], tuple[float, ...]] = {}


def _hand_adds(t: int, a: int, k: int) -> tuple[float, ...]:
    row = _ROWS[t]
    out = []
    f = HAND_DISCOUNT
    prev = row[a]
    for i in range(1, k + 1):
        cur = row[a + i]
        out.append(f * (cur - prev))
        prev = cur
        f *= HAND_DISCOUNT
    adds = _HAND_ADDS[(t, a, k)] = tuple(out)
    return adds


def _mine(
    key: tuple[int | None, ...],
    area: list[int],
    hand: list[int],
    dem: list[int],
    thr: tuple[int, int, int],
    era: int | None,
) -> tuple[float, float, float]:
    l1, l2, heg = thr
    w = _draw_weights(era)
    v = 0.0
    xs = [0.0] * 6
    # hegemony progress (R21), and the hand's share of it
    for d in range(6):
        t = heg + dem[d]
        row = _ROWS[t]
        a = area[d]
        if a >= t:
            v += WIN
        v += row[a]
        k = hand[d]
        if k:
            adds = _HAND_ADDS.get((t, a, k))
            for x in adds if adds is not None else _hand_adds(t, a, k):
                v += x
        # what one more card of the domain in hand would add (:func:`card_values`)
        ak = a + k
        xs[d] = w[d] * (_DISCOUNTS[k] * (row[ak + 1] - row[ak]))
    # what one card drawn at phase 3 is worth (R13)
    refill = sum(xs)
    # the engine: permanent levels
    eng = 0.0
    for d in (M, R, E, S, U):
        c = area[d]
        if c >= l2:
            eng += LEVEL_BONUS[d][1]
        elif c >= l1:
            eng += LEVEL_BONUS[d][0]
    if len(_MINE) > _MEMO_MAX:
        _MINE.clear()
    out = _MINE[key] = (v, refill, eng)
    return out


def evaluate(st: Local, rivals: float | None = None) -> float:
    """How good the position is for the seat, at the end of its turn.

    ``rivals`` is :func:`rivals` of ``st`` when the caller knows it (a position whose
    other seats are as in one already valued).
    """
    me = st.me
    n = st.n
    thr = st.thr
    areas = st.areas
    area = areas[me]
    hand = st.hand
    dem = st.dem
    key = (*thr, st.era, *area, *hand, *dem[me])
    parts = _MINE.get(key)
    if parts is None:
        parts = _mine(key, area, hand, dem[me], thr, st.era)
    v, refill, eng = parts
    # empty hand slots are refilled at phase 3 (R13)
    deck = st.deck
    c = area[R]
    size = 7 if c >= thr[1] else 5 if c >= thr[0] else 3
    if st.copied_hand > size:
        size = st.copied_hand
    slots = size - sum(hand)
    if slots > 0 and deck > 0:
        v += (slots if slots < deck else deck) * refill
    # the engine: permanent levels, Culture majority
    fade = (1.0 if deck >= 40 else deck / 40.0) + 0.1
    mine_c = area[C]
    if mine_c:
        for s in range(n):
            if s != me and areas[s][C] >= mine_c:
                break
        else:
            eng += CULTURE_BONUS
    v += eng * fade
    v += rivals if rivals is not None else _rivals(st)
    # majorities (R22), more and more as the deck runs out
    if st.last_round:
        v += 2.0 * 12.0 * _majority_margin(st)
    elif deck < 30:
        late = 1.0 - deck / 30.0
        if late > 0.0:
            v += late * 12.0 * _majority_margin(st)
    return v


def _rivals(st: Local) -> float:
    """The other players' progress (team-mates' on the bot's side, R24), as it counts."""
    me = st.me
    n = st.n
    areas = st.areas
    dem = st.dem
    threat = 0.0
    ally = 0.0
    heg = st.thr[2]
    teams = st.teams
    known = st.known
    emb = st.emb
    for s in range(n):
        if s == me:
            continue
        p = _SEAT.get((heg, *areas[s], *dem[s], *known[s], *emb[s]))
        if p is None:
            p = _seat_progress(st, s)
        if teams and s % 2 == me % 2:
            ally += p
        else:
            threat += p
    return 0.7 * ally - (0.9 if n == 2 else 0.6) * threat


def _seat_progress(st: Local, s: int) -> float:
    heg = st.thr[2]
    other = st.areas[s]
    dem = st.dem[s]
    known = st.known[s]
    emb = st.emb[s]
    best = 0.0
    tot = 0.0
    for d in range(6):
        x = other[d]
        if not x:
            continue
        row = _ROWS[heg + dem[d]]
        p = row[x]
        if known[d]:
            p += 0.5 * (row[x + 1] - p)
        if emb[d]:
            p -= 0.6 * (p - row[x - 1])
        best = max(best, p)
        tot += 0.25 * p
    out = best + tot
    if len(_SEAT) > _MEMO_MAX:
        _SEAT.clear()
    _SEAT[(heg, *other, *dem, *known, *emb)] = out
    return out


def _majority_margin(st: Local) -> float:
    """Majority points of the seat (or its team) minus the best other's (R22, R24)."""
    areas = st.areas
    me = st.me
    if st.n == 2 and not st.teams:
        # each domain scores for whoever has more of it, for both on a tie (R22)
        mine = areas[me]
        other = areas[1 - me]
        m = 0
        for d in range(6):
            x = mine[d]
            y = other[d]
            if x > y:
                m += 1
            elif y > x:
                m -= 1
        return float(m)
    key: list[int] = [st.teams, me]
    for a in areas:
        key += a
    k = tuple(key)
    out = _MARGIN.get(k)
    if out is None:
        pts = majority_points(areas, st.teams)
        if st.teams:
            out = float(pts[me % 2] - pts[1 - me % 2])
        else:
            out = float(pts[me] - max(pts[s] for s in range(st.n) if s != me))
        if len(_MARGIN) > _MEMO_MAX:
            _MARGIN.clear()
        _MARGIN[k] = out
    return out


# ---------------------------------------------------------------------------
# Applying a move to the local picture


def _take(counts: list[int], cards: str) -> None:
    for ch in cards:
        counts[LETTER_INDEX[ch]] -= 1


def _give(counts: list[int], cards: str) -> None:
    for ch in cards:
        counts[LETTER_INDEX[ch]] += 1


def apply_move(st: Local, m: Move) -> None:
    """Apply ``m`` (a move of the seat) to ``st`` as far as the seat can foresee it: the
    cards it moves by the engine's own rules (:func:`civcards.carta.effects.move_cards`),
    then the markers, the known cards and the copied hand size of the local picture."""
    me = st.me
    k = m.kind
    if k == "inspiration":
        assert m.copy is not None
        m = m.copy
        k = m.kind
    move_cards(m, me, st.hand, st.areas, st.discard)
    if k == "holybook":
        st.copied_hand = max(st.copied_hand, 5)
    elif k == "divineright":
        st.copied_hand = 7
    elif k == "embargo":
        st.emb = [row[:] for row in st.emb]
        st.emb[m.seat][LETTER_INDEX[m.cards]] += 1
    elif k == "democracy":
        st.dem = [row[:] for row in st.dem]
        st.dem[m.seat][LETTER_INDEX[m.cards]] += 1
    elif k == "inquisition" and m.cards:
        # only the full move (after the reveal) names the cards given back
        st.known = [row[:] for row in st.known]
        st.known[m.seat] = _counts(m.cards)


#: the moves that change nothing of the other seats (their areas, markers, known cards)
_OWN_KINDS = frozenset(
    (
        "end",
        "play",
        "keep",
        "take",
        "assassination",
        "purge",
        "holybook",
        "divineright",
        "development",
        "monopoly",
        "experiment",
        "research",
        "oligarchy",
        "republic",
        "discovery",
        "inspiration",
    )
)


def score_move(base: Local, m: Move, rivals: float | None = None) -> float:
    """The greedy bot's score of move ``m`` from ``base``: the position after it, less the
    price of an effect (:data:`EFFECT_COST`). ``rivals``: :func:`_rivals` of ``base``,
    used for a move of :data:`_OWN_KINDS` when given."""
    k = m.kind
    if k not in _OWN_KINDS:
        rivals = None
    if k == "end":
        return evaluate(base, rivals)  # nothing to apply
    if k == "play":
        # the hand and the seat's area change: only they are copied
        st = base.shallow()
        me = st.me
        hand = st.hand = st.hand[:]
        areas = st.areas = st.areas[:]
        areas[me] = areas[me][:]
        move_cards(m, me, hand, areas, st.discard)  # a play moves no card of the pile
        return evaluate(st, rivals)
    st = base.copy()
    apply_move(st, m)
    v = evaluate(st, rivals)
    if k not in ("end", "play", "keep", "take"):
        v -= EFFECT_COST
    return v


# ---------------------------------------------------------------------------
# The bot


class GreedyBot(Bot):
    """One-step greedy over :func:`evaluate`; see the module's documentation."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._parsed: dict[str, Move] = {}

    def _move(self, choice: Choice) -> Move:
        m = choice.move
        if m is not None:
            return m  # type: ignore[no-any-return]
        text = choice.text
        m = self._parsed.get(text)
        if m is None:
            m = parse_move(text)
            if len(self._parsed) > 20_000:
                self._parsed.clear()
            self._parsed[text] = m
        return m

    def choose(self, decision: Decision) -> Choice:
        choices = decision.choices
        if len(choices) == 1:
            return choices[0]
        obs: Observation = decision.observation
        base = local_from(obs)
        if decision.reveal is not None and decision.chosen is not None:
            return self._after_reveal(decision, base)
        best = choices[0]
        best_v = float("-inf")
        rivals: float | None = None  # the other seats' part, for moves that leave them be
        for c in choices:
            if not c.final:
                v = self._estimate_secret(base, c.text) - EFFECT_COST
            else:
                m = self._move(c)
                if m.kind in _OWN_KINDS and rivals is None:
                    rivals = _rivals(base)
                v = score_move(base, m, rivals)
            if v > best_v:
                best, best_v = c, v
        return best

    # -- the hidden steps ------------------------------------------------------

    def _estimate_secret(self, base: Local, opt: str) -> float:
        """The expected value of Discovery or Inquisition before their reveal."""
        rng = self.rng
        total = 0.0
        # the effect's card leaves the play area for the pile, whatever is drawn; each
        # sample then changes only what it replaces (the hand, the known cards)
        paid = base.copy()
        me = paid.me
        hand = paid.hand
        if opt.startswith("discovery"):
            # the same draws as ``rng.choices(range(6), weights=draw_weights(base), k=k)``
            cum = list(accumulate(draw_weights(base)))
            k = min(5, base.deck)
            paid.areas[me][S] -= 1
            paid.discard[S] += 1
            keep = sum(hand)
            rivals = _rivals(paid)  # the samples change only the hand
            for _ in range(SAMPLES):
                st = paid.shallow()
                pool = hand[:]
                if k:
                    for d in rng.choices(_DOMAINS, cum_weights=cum, k=k):
                        pool[d] += 1
                st.hand = best_keep(st, pool, keep)
                total += evaluate(st, rivals)
            return total / SAMPLES
        target = int(opt.split()[1])
        size = base.hand_sizes[target]
        known = base.known[target]
        unknown = size - sum(known)
        pool_w = unseen(base)
        can_guess = unknown > 0 and any(pool_w)
        cum_w = list(accumulate(pool_w))
        paid.areas[me][R] -= 1
        paid.discard[R] += 1
        keep = sum(hand)
        for _ in range(SAMPLES):
            st = paid.shallow()
            theirs = known[:]
            if can_guess:
                for d in rng.choices(_DOMAINS, cum_weights=cum_w, k=unknown):
                    theirs[d] += 1
            pool = [hand[d] + theirs[d] for d in range(6)]
            mine = best_keep(st, pool, keep)
            st.hand = mine
            st.known = st.known[:]  # the target's row replaced, the others shared
            st.known[target] = [pool[d] - mine[d] for d in range(6)]
            total += evaluate(st)
        return total / SAMPLES

    def _after_reveal(self, decision: Decision, base: Local) -> Choice:
        """Choose among the full moves of the hidden step just chosen."""
        best = decision.choices[0]
        best_v = float("-inf")
        chosen = decision.chosen.text if decision.chosen is not None else ""
        if chosen.startswith("inquisition"):
            # the target's hand is now the bot's too, until it gives cards back
            target = int(chosen.split()[1])
            for ch in decision.reveal or "":
                base.hand[LETTER_INDEX[ch]] += 1
            base.hand_sizes = base.hand_sizes[:]
            base.hand_sizes[target] = 0
        else:
            for ch in decision.reveal or "":
                base.hand[LETTER_INDEX[ch]] += 1
        rivals: float | None = None
        for opt in decision.choices:
            m = self._move(opt)
            st = base.copy()
            if m.kind == "inquisition":
                # the revealed hand is in the bot's: the cards given back leave it
                _take(st.hand, m.cards)
                move_cards(m, st.me, st.hand, st.areas, st.discard)
                st.known = [row[:] for row in st.known]
                st.known[m.seat] = _counts(m.cards)
            elif m.kind == "discovery":
                # the drawn cards are in the bot's hand: those named are discarded
                _take(st.hand, m.cards)
                _give(st.discard, m.cards)
                move_cards(m, st.me, st.hand, st.areas, st.discard)
                # the other seats are as they were: valued once
                if rivals is None:
                    rivals = _rivals(base)
                v = evaluate(st, rivals)
                if v > best_v:
                    best, best_v = opt, v
                continue
            else:
                apply_move(st, m)
            v = evaluate(st)
            if v > best_v:
                best, best_v = opt, v
        return best


def best_keep(st: Local, pool: list[int], keep: int) -> list[int]:
    """Greedily pick ``keep`` cards of ``pool`` that add most to the hand's value."""
    out = [0] * 6
    a = st.areas[st.me]
    heg = st.thr[2]
    dem = st.dem[st.me]
    # what one more card of each domain adds (only the domain just taken changes); a
    # domain with no card left in the pool is out of the race (every gain is above -1)
    gain = [_keep_gain(a[d], 0, heg + dem[d], d) if pool[d] > 0 else -2.0 for d in range(6)]
    pick = gain.__getitem__
    for _ in range(max(0, keep)):
        # the first domain of the largest gain (gains of the domains left are never negative)
        best_d = max(_DOMAINS, key=pick)
        if gain[best_d] < 0.0:
            break
        j = out[best_d] = out[best_d] + 1
        gain[best_d] = (
            _keep_gain(a[best_d], j, heg + dem[best_d], best_d) if j < pool[best_d] else -2.0
        )
    return out


def _keep_gain(a: int, j: int, t: int, d: int) -> float:
    """The value of keeping one more card of domain ``d`` with ``j`` kept, ``a`` in play."""
    row = _ROWS[t]
    k = a + j
    v = _DISCOUNTS[j] * (row[k + 1] - row[k])
    if d in (R, S):
        v += 0.3  # cards that build the engine
    return v
