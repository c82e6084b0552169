"""What one seat may know (R25), and legal choices that reveal nothing early.

:func:`observe` builds a seat's :class:`Observation`: the public zones, its
own hand, and what it learned (Inquisition, the draft). It never holds
another seat's hand, the deck order or the removed cards.

Two effects let a player see hidden cards only once they are committed:
Discovery (the top of the deck) and Inquisition (the target's hand). Their
full moves (``discovery discard MMSCU``) would give those cards away if they
were listed before the choice, so :func:`seat_options` lists them as
*prefixes* (``discovery discard ?``, ``inquisition 1 give ?``) and
:func:`expand` shows the revealed cards and the full moves once one is chosen.

>>> from civcards.carta.game import new_game
>>> g = new_game(2, seed=3)
>>> obs = observe(g, 0)
>>> obs.hand_sizes, obs.deck_size
([3, 3], 89)
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from .cards import LETTER_INDEX, LETTERS, counts_to_str
from .game import OVER, GameState
from .moves import Move, format_move, move_text

SECRET_MARK = "?"


def public_move_text(g: GameState, index: int, seat: int | None) -> str:
    """The move at ``index`` of the history as ``seat`` may read it (None: a spectator).

    Draft keeps are hidden from the other seats (``keep ?``), and the cards
    given back by Inquisition only the two players involved see.
    """
    m = g.history[index]
    mover = mover_of(g, index)
    if m.kind == "keep" and seat != mover:
        return "keep ?"
    if m.kind == "inquisition" and m.cards and seat not in (mover, m.seat):
        return f"inquisition {m.seat} give {SECRET_MARK}"
    return format_move(m)


def mover_of(g: GameState, index: int) -> int:
    """The seat that made move ``index`` (recomputed from the history)."""
    return g.movers[index]


@dataclass(frozen=True)
class Observation:
    """A seat's view of the game: exactly what R25 lets it know."""

    seat: int
    players: int
    deal: str
    teams: bool
    start: int
    thresholds: tuple[int, int, int]
    phase: str
    to_move: int | None
    turn: int
    deck_size: int
    era: int | None
    last_round: bool
    hand: str
    hand_sizes: list[int]
    #: the hand size each seat would draw up to at phase 3 now (R13, R16)
    hand_limits: list[int]
    areas: list[str]
    discard: str
    markers: list[dict[str, Any]]
    coin: dict[str, int | str] | None
    used_effects: list[str]
    draft_packet: str
    draft_centre: str
    learned: list[list[Any]]
    known_in_hands: list[str]
    history: list[str]
    movers: list[int]
    finished: bool
    winners: list[int]
    victory: str | None
    #: the domain letter of a hegemony victory (R21), else None
    victory_domain: str | None
    points: list[int] | None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The observation as plain JSON-safe data (the same as ``dataclasses.asdict``,
        without its generic deep copy: the web table calls this for every frame)."""
        return {name: _plain(getattr(self, name)) for name in _OBS_FIELDS}

    def to_json(self) -> dict[str, Any]:
        """The same as :meth:`to_dict` (the name the game interface uses)."""
        return self.to_dict()


def _plain(v: Any) -> Any:
    t = type(v)
    if t is list:
        return [_plain(x) for x in v]
    if t is dict:
        return {k: _plain(x) for k, x in v.items()}
    if t is tuple:
        return tuple(_plain(x) for x in v)
    return v


_OBS_FIELDS = tuple(f.name for f in fields(Observation))


def markers_json(g: GameState) -> list[dict[str, Any]]:
    return [
        {"seat": s, "domain": LETTERS[d], "kind": k, "by": b} for s, d, k, b in sorted(g.markers)
    ]


def coin_json(g: GameState) -> dict[str, int | str] | None:
    if g.coin is None:
        return None
    h, s, d = g.coin
    return {"holder": h, "seat": s, "domain": LETTERS[d]}


def observe(g: GameState, seat: int | None) -> Observation:
    """The observation of ``seat`` (0..n-1); ``None`` for a spectator (public only).

    A spectator's observation has ``seat == -1``, an empty hand and nothing learned.
    """
    if seat is None:
        return _observe(g, -1)
    if not isinstance(seat, int) or not 0 <= seat < g.n:
        raise ValueError(f"there is no seat {seat!r} in a {g.n}-player game")
    return _observe(g, seat)


def _observe(g: GameState, seat: int) -> Observation:
    # the same values as ``Observation(seat=..., ...)``, built without the frozen
    # dataclass's per-field ``object.__setattr__`` (a bot observes at every decision)
    in_draft = g.phase == "draft"
    own = seat >= 0
    views = _views(g)
    n = g.n
    hands = g.hands
    known = [_cards(c) for c in views.known[seat]]
    if own:
        known[seat] = _cards(hands[seat])
    phase = g.phase
    obs = object.__new__(Observation)
    object.__setattr__(
        obs,
        "__dict__",
        {
            "seat": seat,
            "players": n,
            "deal": g.deal,
            "teams": g.teams,
            "start": g.start,
            "thresholds": (g.l1, g.l2, g.heg),
            "phase": phase,
            "to_move": None if phase == OVER else g.active,
            "turn": g.turn,
            "deck_size": len(g.deck),
            "era": g.era,
            "last_round": g.last_round,
            "hand": _cards(hands[seat]) if own else "",
            "hand_sizes": [sum(h) for h in hands],
            "hand_limits": [g.hand_size(s) for s in range(n)],
            "areas": [_cards(a) for a in g.areas],
            "discard": _cards(g.discard),
            "markers": markers_json(g) if g.markers else [],
            "coin": coin_json(g),
            "used_effects": list(g.used_log),
            "draft_packet": counts_to_str(g.draft_hold[seat]) if in_draft and own else "",
            "draft_centre": (
                counts_to_str(g.draft_centre) if in_draft and g.draft_step >= 3 else ""
            ),
            "learned": [list(e) for e in g.learned[seat]] if own else [],
            "known_in_hands": known,
            "history": list(views.texts[seat]),
            "movers": list(g.movers),
            "finished": g.phase == OVER,
            "winners": list(g.winners),
            "victory": g.victory,
            "victory_domain": None if g.victory_domain is None else LETTERS[g.victory_domain],
            "points": None if g.points is None else list(g.points),
            "extra": {},
        },
    )
    assert len(obs.__dict__) == len(_OBS_FIELDS)  # every field, as the dataclass has them
    return obs


#: the card list of each vector of counts (memoised: observing writes many)
_CARDS: dict[tuple[int, ...], str] = {}


def _cards(counts: list[int]) -> str:
    key = tuple(counts)
    out = _CARDS.get(key)
    if out is None:
        if len(_CARDS) > 100_000:
            _CARDS.clear()
        out = _CARDS[key] = counts_to_str(counts)
    return out


def known_in_hands(g: GameState, seat: int) -> list[str]:
    """Cards that ``seat`` knows for sure to be in each hand now (a lower bound).

    ``seat == -1`` is a spectator, who knows only what was public.

    Its own hand is known in full. Another seat's is learned through
    Inquisition (R16), grows with the public cards it takes into its hand
    (Experiment, Research, Oligarchy, Republic) and shrinks as it plays or
    discards cards. Derived from the history, using only what ``seat`` saw.
    """
    return [counts_to_str(c) for c in known_counts(g, seat)]


#: how many moves past a shared reading :func:`known_counts` reads for one seat alone
#: (without storing them); further on, every seat's reading is extended and kept
SHORT_READ = 32


def known_counts(g: GameState, seat: int) -> list[list[int]]:
    """:func:`known_in_hands` as six counts a hand (new lists, the caller's to change).

    A search's leaf (a deal of the decision, a few moves on) reads only the moves
    after the decision's shared reading, for ``seat`` alone: the same counts as
    extending every seat's reading, without the others' or the move texts.
    """
    history = g.history
    end = len(history)
    cached = g.view_cache
    known: list[list[int]] | None = None
    if isinstance(cached, _Views) and end - SHORT_READ <= cached.upto < end:
        upto = cached.upto
        # the moves it read must be this history's first ones (list equality of the
        # prefix, identity first, at C speed: cheaper than comparing item by item)
        if history[:upto] == cached.moves and g.movers[:upto] == cached.movers:
            known = [k[:] for k in cached.known[seat]]
            if not _read_known(g, upto, end, [(seat, known)]):
                known = None  # the two-player draft's end: every seat's reading
    if known is None:
        known = [k[:] for k in _views(g).known[seat]]
    if seat >= 0:
        known[seat] = list(g.hands[seat])
    return known


class _Views:
    """Each seat's reading of the history so far, extended move by move.

    A views object may be shared by several states (a state and its copies, every
    deal of one decision's sampler): it is never changed once built;
    :func:`_views` extends a copy. It remembers the moves and movers it read, and
    serves only a state whose history starts with exactly those.
    """

    __slots__ = ("known", "movers", "moves", "texts", "upto")

    def __init__(self, n: int) -> None:
        self.upto = 0
        self.moves: list[Move] = []
        self.movers: list[int] = []
        self.known = {s: [[0] * 6 for _ in range(n)] for s in range(-1, n)}
        self.texts: dict[int, list[str]] = {s: [] for s in range(-1, n)}

    def extendable(self) -> _Views:
        """A copy of its own (cheap: short lists) for :func:`_views` to extend."""
        c = object.__new__(_Views)
        c.upto = self.upto
        c.moves = self.moves
        c.movers = self.movers
        c.known = {s: [k[:] for k in kn] for s, kn in self.known.items()}
        c.texts = {s: t[:] for s, t in self.texts.items()}
        return c


def shared_views(g: GameState) -> object:
    """What :func:`observe` derives from ``g``'s history so far, to give (as
    ``view_cache``) to other states whose history starts with the same moves and
    movers, and whose ``learned`` is the same for those moves (a sampler's deals
    of one decision): each extends its own copy, and a state whose history does
    not start with those moves ignores it."""
    return _views(g)


def _views(g: GameState) -> _Views:
    """``g``'s views: its own ones, or shared ones if they read exactly ``g``'s first
    moves, else new ones; extended (on a copy) up to ``g``'s whole history."""
    history = g.history
    end = len(history)
    cached = g.view_cache
    v: _Views | None = None
    if isinstance(cached, _Views) and cached.upto <= end:
        v = cached
        # the moves it read must be this history's first ones (they are, unless the
        # history was rewritten): list equality, identity first, at C speed
        upto = v.upto
        same = (
            history == v.moves and g.movers == v.movers
            if upto == end
            else history[:upto] == v.moves and g.movers[:upto] == v.movers
        )
        if not same:
            v = None
        elif upto == end:
            return v
        else:
            v = v.extendable()  # never extended in place: other states may hold it
    if v is None:
        v = _Views(g.n)
    if v.upto == end:
        g.view_cache = v
        return v
    _read_texts(g, v.upto, end, list(v.texts.items()))
    if not _read_known(g, v.upto, end, list(v.known.items())):
        _fold_draft(g, v)
        _read_known(g, 4 * g.n, end, list(v.known.items()))
    v.upto = end
    v.moves = history[:]
    v.movers = g.movers[:end]
    g.view_cache = v  # only once complete: from now on it may be shared
    return v


def _read_texts(g: GameState, start: int, end: int, texts: list[tuple[int, list[str]]]) -> None:
    """Append to each seat's texts the moves ``start`` to ``end`` of the history, as
    :func:`public_move_text` writes them for that seat."""
    history = g.history
    movers = g.movers
    for i in range(start, end):
        m = history[i]
        who = movers[i]
        text = move_text(m)
        if m.kind == "keep":
            for seat, lst in texts:
                lst.append(text if seat == who else "keep ?")
        elif m.kind == "inquisition" and m.cards:
            secret = f"inquisition {m.seat} give {SECRET_MARK}"
            for seat, lst in texts:
                lst.append(text if seat in (who, m.seat) else secret)
        else:
            for _, lst in texts:
                lst.append(text)


def _read_known(
    g: GameState, start: int, end: int, knowns: list[tuple[int, list[list[int]]]]
) -> bool:
    """Update each (seat, what it knows of every hand) for the moves ``start`` to ``end``
    of the history. False, having read up to it, where the range ends a two-player
    draft (:func:`_fold_draft` then reads every seat's packets): the caller folds it
    and reads on from ``4 * n``."""
    history = g.history
    movers = g.movers
    # the hand each Inquisition took, by the index of its move (engine-side data,
    # used only for the seats that saw it; gathered when first needed)
    olds: dict[Any, Any] | None = None
    for i in range(start, end):
        m = history[i]
        who = movers[i]
        if m.kind == "inspiration" and m.copy is not None:
            m = m.copy
        k = m.kind
        if k in ("play", "assassination", "purge", "discovery"):
            for _, known in knowns:
                _minus(known[who], m.cards)
        elif k in ("development", "monopoly"):
            for _, known in knowns:
                _minus(known[who], m.more)
        elif k in ("experiment", "research"):
            for _, known in knowns:
                kn = known[who]
                _plus(kn, m.cards)
                _minus(kn, m.more)
        elif k in ("oligarchy", "republic"):
            for _, known in knowns:
                _plus(known[who], m.cards)
        elif k == "inquisition" and m.cards:
            t = m.seat
            give = _counts(m.cards)
            for seat, known in knowns:
                if seat == who:
                    known[t] = give[:]
                elif seat == t:
                    if olds is None:
                        olds = {
                            e[1]: e[3]
                            for lst in g.learned
                            for e in lst
                            if e[0] == "inquisition_saw"
                        }
                    old = _counts(str(olds[i]))
                    known[who] = [max(0, known[who][d] + old[d] - give[d]) for d in range(6)]
                else:
                    size = sum(give)
                    known[who] = [max(0, known[who][d] + known[t][d] - size) for d in range(6)]
                    known[t] = [0] * 6
        if k == "take" and g.deal == "draft" and g.n == 2 and i == 4 * g.n - 1:
            return False
    return True


def _fold_draft(g: GameState, v: _Views) -> None:
    """R8, R25: at the end of a two-player draft, what each seat can tell of the other's keeps.

    Seat ``s`` saw the packet it passed at step 0 (``H0``) come back at step 2
    without the card the other seat kept from it, and the packet it passed at
    step 1 (``H1``) end in the centre without the other's second keep; the
    centre is public. Only the other's first keep (from its own packet) stays
    unknown.
    """
    n = g.n
    takes = [0] * 6
    for m in g.history[3 * n : 4 * n]:
        _plus(takes, m.cards)
    for s in range(n):
        o = 1 - s
        recv = {
            int(str(e[1])): _counts(str(e[3])) for e in g.learned[s] if e[0] == "draft_received"
        }
        keeps = [m.cards for i, m in enumerate(g.history[: 3 * n]) if g.movers[i] == s]
        if len(keeps) != 3 or len(recv) != 3:  # pragma: no cover - a draft has three keeps
            continue
        held = []
        for step in range(3):
            h = recv[step][:]
            _minus(h, keeps[step])
            held.append(h)
        first = [max(0, held[0][d] - recv[2][d]) for d in range(6)]
        left_o = [max(0, takes[d] - held[2][d]) for d in range(6)]
        second = [max(0, held[1][d] - left_o[d]) for d in range(6)]
        v.known[s][o] = [first[d] + second[d] for d in range(6)]


def _counts(cards: str) -> list[int]:
    out = [0] * 6
    for ch in cards:
        out[LETTER_INDEX[ch]] += 1
    return out


def _minus(kn: list[int], cards: str) -> None:
    for ch in cards:
        d = LETTER_INDEX[ch]
        if kn[d]:
            kn[d] -= 1


def _plus(kn: list[int], cards: str) -> None:
    for ch in cards:
        kn[LETTER_INDEX[ch]] += 1


def _hidden_prefix(g: GameState, m: Move) -> str | None:
    if m.kind == "discovery" and g.deck:
        return f"discovery discard {SECRET_MARK}"
    if m.kind == "inquisition" and any(g.hands[m.seat]):
        return f"inquisition {m.seat} give {SECRET_MARK}"
    return None


def seat_options(g: GameState) -> list[str]:
    """The choices :attr:`~GameState.to_move` can see, canonical and sorted.

    Moves whose choices depend on cards the player has not seen yet are
    folded into one prefix ending in ``?``; see :func:`expand`.
    """
    out = set()
    for m in g.raw_moves():
        out.add(_hidden_prefix(g, m) or format_move(m))
    return sorted(out)


def expand(g: GameState, option: str) -> tuple[str, list[str]]:
    """What choosing ``option`` reveals, and the full moves it stands for.

    For ``discovery discard ?`` the reveal is the cards drawn; for
    ``inquisition N give ?`` the hand of seat N. For any other option the
    reveal is ``""`` and the list holds the option itself.
    """
    if not option.endswith(SECRET_MARK):
        return "", [option]
    if option.startswith("discovery"):
        k = min(5, len(g.deck))
        reveal = "".join(LETTERS[d] for d in reversed(g.deck[-k:]))
        full = [s for s in g.legal_strings() if s.startswith("discovery discard ")]
    else:
        seat = int(option.split()[1])
        reveal = counts_to_str(g.hands[seat])
        full = [s for s in g.legal_strings() if s.startswith(f"inquisition {seat} give ")]
    if not full:
        raise ValueError(f"{option!r} is not a choice now")
    return reveal, full
