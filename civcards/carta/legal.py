"""Legal-move listing: every move the rules allow the active seat in a position.

:func:`raw_moves` lists them (R8 in the draft, R9/R13 a card played, R10-R20 the
effects, R19 Inspiration), :func:`legal_moves` each once in canonical order;
:func:`folded_moves` and :func:`step_moves` serve the searches that expand a
Discovery or an Inquisition one step later.

>>> from civcards.carta.game import new_game
>>> legal_strings(new_game(players=2, seed=7))
['play C', 'play M', 'play R']
"""

from __future__ import annotations

from functools import lru_cache

from .cards import CULTURE, ECONOMY, LETTER_INDEX, LETTERS, MILITARY, RELIGION, SCIENCE, UTOPIA
from .moves import END, Move, format_move
from .state import DRAFT, EFFECTS, OVER, PLAY, State


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


@lru_cache(maxsize=65536)
def multiset_count(counts: tuple[int, ...], k: int) -> int:
    """How many card lists :func:`multisets` gives (without listing them).

    >>> multiset_count((2, 0, 0, 1, 0, 0), 2), multiset_count((5, 5, 5, 5, 5, 5), 5)
    (2, 252)
    """
    if not 0 <= k <= sum(counts):
        return 0
    # ways[j]: the lists of j cards from the domains so far
    ways = [1] + [0] * k
    for c in counts:
        if c:
            nxt = [0] * (k + 1)
            for j, w in enumerate(ways):
                if w:
                    for t in range(min(c, k - j) + 1):
                        nxt[j + t] += w
            ways = nxt
    return ways[k]


def add_cards(counts: list[int], cards: str) -> None:
    """Add ``cards`` (letters) to ``counts`` in place."""
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
#: and of an Inquisition of a non-empty hand (:func:`folded_moves`)
FOLDED_DISCOVERY = Move("discovery", -1, "?")
FOLDED_INQUISITION = tuple(Move("inquisition", s, "?") for s in range(4))
_HOLYBOOK = Move("holybook")
_DIVINERIGHT = Move("divineright")


@lru_cache(maxsize=65536)
def choice_moves(kind: str, counts: tuple[int, ...], k: int, seat: int = -1) -> tuple[Move, ...]:
    """``kind`` moves naming each multiset of ``k`` cards from ``counts``."""
    return tuple(Move(kind, seat, c) for c in multisets(counts, k))


@lru_cache(maxsize=65536)
def swap_moves(
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
            add_cards(h2, first)
        playable = tuple(0 if emb >> d & 1 else h2[d] for d in range(6))
        for p in multisets(playable, min(k, sum(playable))):
            out.append(Move(kind, cards=first, more=p))
    return tuple(out)


def legal_moves(g: State) -> list[Move]:
    """Every legal move of :attr:`to_move`, each once, in canonical order."""
    if g.phase == OVER:
        return []
    moves = raw_moves(g)
    seen: dict[str, Move] = {}
    for m in moves:
        seen.setdefault(format_move(m), m)
    return [seen[k] for k in sorted(seen)]


def legal_strings(g: State) -> list[str]:
    """The legal moves as canonical notation, sorted (as ``replay --legal``)."""
    return [format_move(m) for m in legal_moves(g)]


def raw_moves(g: State) -> list[Move]:
    """The legal moves, each exactly once, in no particular order."""
    ph = g.phase
    if ph == PLAY:
        hand = g.hands[g.active]
        emb = g.embargoed
        return [_PLAY[d] for d in range(6) if hand[d] and not emb >> d & 1]
    if ph == EFFECTS:
        return effect_moves(g)
    if ph == DRAFT:
        if g.draft_step < 3:
            hold = g.draft_hold[g.active]
            return [_KEEP[d] for d in range(6) if hold[d]]
        return [_TAKE[d] for d in range(6) if g.draft_centre[d]]
    return []


def perm_moves(g: State, domain: int, level: int, out: list[Move]) -> None:
    """The moves of one permanent effect, as if the active player had it."""
    me = g.active
    hand = g.hands[me]
    if domain == MILITARY:
        if level == 1:
            out.extend([_ASSASSINATION[d] for d in range(6) if hand[d]])
        else:
            h = sum(hand)
            if h:
                out.extend(choice_moves("purge", tuple(hand), 2 if h > 1 else 1))
    elif domain == RELIGION:
        out.append(_HOLYBOOK if level == 1 else _DIVINERIGHT)
    elif domain == ECONOMY:
        kind = "development" if level == 1 else "monopoly"
        out.extend(swap_moves(kind, tuple(g.areas[me]), tuple(hand), g.embargoed, level))
    elif domain == SCIENCE:
        kind = "experiment" if level == 1 else "research"
        out.extend(swap_moves(kind, tuple(g.areas[me]), tuple(hand), g.embargoed, level))
    elif domain == UTOPIA:
        disc = g.discard
        total = sum(disc)
        if not total:
            return
        if level == 1:
            out.extend([_OLIGARCHY[d] for d in range(6) if disc[d]])
        else:
            out.extend(choice_moves("republic", tuple(disc), 2 if total > 1 else 1))


def folded_moves(g: State) -> list[Move]:
    """:meth:`raw_moves`, the moves of a Discovery of a non-empty deck folded into one
    stand-in (:data:`FOLDED_DISCOVERY`) and those of an Inquisition of a non-empty hand
    into one per target (:data:`FOLDED_INQUISITION`), each where its first move was."""
    if g.phase == EFFECTS:
        return effect_moves(g, True)
    return raw_moves(g)


def folded_count(g: State, stand_in: Move) -> int:
    """How many moves of :func:`raw_moves` the stand-in ``stand_in`` of
    :func:`folded_moves` takes the place of (those of :func:`step_moves`), counted
    without listing them."""
    me = g.active
    hand = g.hands[me]
    if stand_in.kind == "discovery":
        deck = g.deck
        k = 5 if len(deck) >= 5 else len(deck)
        pool_l = hand[:]
        for i in range(1, k + 1):
            pool_l[deck[-i]] += 1
        return multiset_count(tuple(pool_l), k)
    target = g.hands[stand_in.seat]
    pool = tuple([hand[d] + target[d] for d in range(6)])
    return multiset_count(pool, sum(target))


def effect_moves(g: State, fold: bool = False) -> list[Move]:
    """The moves of phase 2 (R10-R20, R19) and ``end``; ``fold`` as :func:`folded_moves`."""
    me = g.active
    n = g.n
    hand = g.hands[me]
    areas = g.areas
    area = areas[me]
    l1 = g.l1
    l2 = g.l2
    perm = g.used_perm
    disc = g.used_disc
    out: list[Move] = []
    # permanent effects (R11), one per domain (R10)
    for d in (MILITARY, ECONOMY, SCIENCE, UTOPIA):
        c = area[d]
        if c >= l1 and not perm >> d & 1:
            perm_moves(g, d, 1, out)
            if c >= l2:
                perm_moves(g, d, 2, out)
    # discard effects (R12)
    if area[MILITARY] and not disc & 1:
        out.extend([_ATTACK[d] for d in range(6) if area[d] > (d == MILITARY)])
    if area[RELIGION] and not disc & 2:
        for s in range(n):
            if s != me:
                target = g.hands[s]
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
                    out.extend(choice_moves("inquisition", pool, k, s))
    if area[ECONOMY] and not disc & 4:
        _marker_moves(_EMBARGO, areas, me, out)
    if area[SCIENCE] and not disc & 8 and fold and g.deck:
        out.append(FOLDED_DISCOVERY)
    elif area[SCIENCE] and not disc & 8:
        deck = g.deck
        k = 5 if len(deck) >= 5 else len(deck)
        pool_l = hand[:]
        for i in range(1, k + 1):
            pool_l[deck[-i]] += 1
        out.extend(choice_moves("discovery", tuple(pool_l), k))
    if area[UTOPIA] and not disc & 32:
        _marker_moves(_DEMOCRACY, areas, me, out)
    # Inspiration (R19): strictly more Culture than every other player
    mine = area[CULTURE]
    if mine and not g.inspired:
        for s in range(n):
            if s != me and areas[s][CULTURE] >= mine:
                break
        else:
            for s in range(n):
                if s != me:
                    inspiration_moves(g, s, out)
    out.append(END)
    return out


def _marker_moves(
    by_seat: tuple[tuple[Move, ...], ...], areas: list[list[int]], me: int, out: list[Move]
) -> None:
    """Embargo or Democracy (R17, R20): ``by_seat[s][d]`` for each domain ``d`` in the play
    area of each other seat ``s``, added to ``out``."""
    for s, other in enumerate(areas):
        if s != me:
            row = by_seat[s]
            out.extend([row[d] for d in range(6) if other[d]])


def step_moves(g: State, kind: str, seat: int = -1) -> tuple[Move, ...]:
    """The ``discovery`` moves, or the ``inquisition`` moves against ``seat``, of
    :meth:`raw_moves`: the same moves in the same order (none when not legal now)."""
    if g.phase != EFFECTS:
        return ()
    me = g.active
    area = g.areas[me]
    hand = g.hands[me]
    if kind == "discovery":
        if not area[SCIENCE] or g.used_disc & 8:
            return ()
        deck = g.deck
        k = 5 if len(deck) >= 5 else len(deck)
        pool_l = hand[:]
        for i in range(1, k + 1):
            pool_l[deck[-i]] += 1
        return choice_moves("discovery", tuple(pool_l), k)
    if kind != "inquisition" or not area[RELIGION] or g.used_disc & 2:
        return ()
    if seat == me or not 0 <= seat < g.n:
        return ()
    target = g.hands[seat]
    k = sum(target)
    if k == 0:
        return (_INQUISITION_EMPTY[seat],)
    pool = tuple([hand[d] + target[d] for d in range(6)])
    return choice_moves("inquisition", pool, k, seat)


def inspiration_moves(g: State, s: int, out: list[Move]) -> None:
    """R19: add to ``out`` the permanent effects of seat ``s`` that may be copied."""
    other = g.areas[s]
    area = g.areas[g.active]
    l1 = g.l1
    l2 = g.l2
    perm = g.used_perm
    for d in (MILITARY, RELIGION, ECONOMY, SCIENCE, UTOPIA):
        if perm >> d & 1 or other[d] < l1:
            continue
        own = 2 if area[d] >= l2 else 1 if area[d] >= l1 else 0
        for lvl in (1, 2):
            if own >= lvl or (lvl == 2 and other[d] < l2):
                continue
            sub: list[Move] = []
            perm_moves(g, d, lvl, sub)
            out.extend([Move("inspiration", s, "", "", m) for m in sub])


# -- applying moves ------------------------------------------------------


def is_legal(g: State, move: Move) -> bool:
    """Whether ``move`` is one of the legal moves now."""
    if g.phase == OVER:
        return False
    key = format_move(move)
    return any(format_move(m) == key for m in raw_moves(g))
