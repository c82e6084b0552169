"""CIV's action encoding and observation tensor: what the research environments wrap.

``Game.encoding()`` of ``carta`` returns :data:`ENCODING`; the generic shells
of :mod:`civcards.envs` (PettingZoo, Gymnasium, OpenSpiel) drive a game only
through it (:class:`civcards.envs.protocol.Encoding`).

Actions
-------
Every decision of CIV is one index of :data:`ACTIONS` (``Discrete(NUM_ACTIONS)``).
Most actions are a whole move of the notation (NOTATION.md) in which a target
seat is written *relative to the acting seat*: ``embargo +1 M`` targets the
player on the left, ``inspiration +2 monopoly discard MR play ES`` copies from
the player two seats on. Card lists are canonical, so each legal move has
exactly one index.

Two effects depend on cards their player has not seen yet (R25): Discovery
(the top of the deck) and Inquisition (the target's hand). Their full moves
would leak those cards through the action mask, so they take two steps, as
:func:`civcards.carta.seat_options` folds them:

1. the prefix action ``discovery discard ?`` or ``inquisition +r give ?``
   commits the player; the cards are then revealed to that player only
   (the *pending* block of its observation);
2. the same player then names the cards to discard or to give back one at a
   time with ``pick X`` actions, in canonical order (``M R E S C U``): the mask
   allows ``pick X`` only when X is not below the last pick and the rest can
   still be completed. Each multiset is thus exactly one sequence of picks;
   after the last pick the full move is played.

Observation
-----------
:func:`encode` writes a fixed-size float vector (:data:`OBS_SIZE`) from
:func:`civcards.carta.observe` — what R25 lets the seat know, nothing else —
with seats relative to the observer (block index 0 is the observer, 1 its
left neighbour...), padded to four seats. :data:`OBS_LAYOUT` names the blocks.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final, Union

import numpy as np
import numpy.typing as npt

from ...carta.cards import LETTERS, THRESHOLDS, counts_to_str
from ...carta.game import OVER, GameState, multisets
from ...carta.moves import COPYABLE, Move, format_move
from ...carta.moves import EFFECT_KINDS as ALL_EFFECT_KINDS
from ...carta.observation import Observation, known_counts, observe

# ---------------------------------------------------------------------------
# The action table

PREFIX_DISCOVERY: Final = "discovery discard ?"
MAX_SEATS: Final = 4
REL_SEATS: Final = (1, 2, 3)


def _sizes(k: int) -> list[str]:
    """Every canonical card list of exactly ``k`` cards (any domains)."""
    return list(multisets((k, k, k, k, k, k), k))


def _upto(k: int) -> list[str]:
    out: list[str] = []
    for j in range(k + 1):
        out.extend(_sizes(j))
    return out


def _copyable_moves() -> list[Move]:
    """Every move of a level-1 or level-2 effect (what Inspiration can copy)."""
    out: list[Move] = []
    for kind in COPYABLE.values():
        if kind in ("assassination", "oligarchy"):
            out.extend(Move(kind, cards=c) for c in _sizes(1))
        elif kind in ("purge", "republic"):
            out.extend(Move(kind, cards=c) for c in _sizes(1) + _sizes(2))
        elif kind in ("holybook", "divineright"):
            out.append(Move(kind))
        else:  # development, monopoly, experiment, research
            k = 1 if kind in ("development", "experiment") else 2
            out.extend(Move(kind, cards=a, more=b) for a in _sizes(k) for b in _upto(k))
    return out


def _action_moves() -> list[tuple[str, Move | None]]:
    """(name, move with a *relative* seat) for every action; None for pick actions."""
    out: list[tuple[str, Move | None]] = []
    one = _sizes(1)
    for kind in ("keep", "take", "play"):
        out.extend((f"{kind} {c}", Move(kind, cards=c)) for c in one)
    out.append(("end", Move("end")))
    out.extend((f"assassination {c}", Move("assassination", cards=c)) for c in one)
    out.extend((f"purge {c}", Move("purge", cards=c)) for c in one + _sizes(2))
    out.extend((f"attack {c}", Move("attack", cards=c)) for c in one)
    out.extend((f"inquisition +{r}", Move("inquisition", r)) for r in REL_SEATS)
    out.extend((f"inquisition +{r} give ?", Move("inquisition", r, "?")) for r in REL_SEATS)
    for kind in ("development", "monopoly", "experiment", "research"):
        k = 1 if kind in ("development", "experiment") else 2
        for a in _sizes(k):
            for b in _upto(k):
                m = Move(kind, cards=a, more=b)
                out.append((format_move(m), m))
    for kind in ("embargo", "democracy"):
        for r in REL_SEATS:
            out.extend((f"{kind} +{r} {c}", Move(kind, r, c)) for c in one)
    out.append(("discovery", Move("discovery")))
    out.append((PREFIX_DISCOVERY, Move("discovery", cards="?")))
    out.extend((f"oligarchy take {c}", Move("oligarchy", cards=c)) for c in one)
    out.extend((f"republic take {c}", Move("republic", cards=c)) for c in one + _sizes(2))
    copies = _copyable_moves()
    for r in REL_SEATS:
        for sub in copies:
            out.append((f"inspiration +{r} {format_move(sub)}", Move("inspiration", r, copy=sub)))
    out.extend((f"pick {c}", None) for c in one)
    return out


_TABLE: Final = _action_moves()
#: the name of every action, by index
ACTIONS: Final[tuple[str, ...]] = tuple(name for name, _ in _TABLE)
#: the move (with a relative target seat) of every action; None for ``pick`` actions
ACTION_MOVES: Final[tuple[Move | None, ...]] = tuple(m for _, m in _TABLE)
NUM_ACTIONS: Final = len(ACTIONS)
ACTION_INDEX: Final = {name: i for i, name in enumerate(ACTIONS)}
#: index of ``pick M`` (the six pick actions follow in domain order)
PICK0: Final = ACTION_INDEX["pick M"]
END_ACTION: Final = ACTION_INDEX["end"]
DISCOVERY_PREFIX_ACTION: Final = ACTION_INDEX[PREFIX_DISCOVERY]
_REL_KEY: Final = {
    (m.kind, m.seat, m.cards, m.more, m.copy): i
    for i, m in enumerate(ACTION_MOVES)
    if m is not None
}
assert len(set(ACTIONS)) == NUM_ACTIONS


def action_groups() -> list[tuple[str, int, int]]:
    """(first word, first index, count) of each run of actions: the table in docs."""
    out: list[tuple[str, int, int]] = []
    for i, name in enumerate(ACTIONS):
        word = name.split()[0]
        if word == "inquisition" and name.endswith("?"):
            word = "inquisition ?"
        if word == "discovery" and name.endswith("?"):
            word = "discovery ?"
        if out and out[-1][0] == word and out[-1][1] + out[-1][2] == i:
            out[-1] = (word, out[-1][1], out[-1][2] + 1)
        else:
            out.append((word, i, 1))
    return out


def is_prefix(m: Move) -> bool:
    """Whether engine move ``m`` is folded into a ``?`` prefix (it names hidden cards)."""
    return (m.kind == "discovery" or m.kind == "inquisition") and bool(m.cards)


@lru_cache(maxsize=1 << 16)
def action_of(m: Move, me: int, n: int) -> int:
    """The action index of engine move ``m`` played by seat ``me`` of ``n``.

    Discovery and Inquisition moves that name hidden cards give their prefix.
    """
    seat = m.seat if m.seat < 0 else (m.seat - me) % n
    cards = "?" if is_prefix(m) else m.cards
    return _REL_KEY[(m.kind, seat, cards, m.more, m.copy)]


def move_of(action: int, me: int, n: int) -> Move:
    """The engine move of a (non-prefix, non-pick) action for seat ``me`` of ``n``."""
    m = ACTION_MOVES[action]
    if m is None or m.cards == "?":
        raise ValueError(f"action {action} ({ACTIONS[action]}) is not a whole move")
    if m.seat < 0:
        return m
    return m._replace(seat=(me + m.seat) % n)


def action_name(action: int, me: int | None = None, n: int | None = None) -> str:
    """The action's name; with ``me`` and ``n``, the move in NOTATION.md with real seats."""
    if me is None or n is None:
        return ACTIONS[action]
    return _seat_action_name(action, me, n)


@lru_cache(maxsize=1 << 16)
def _seat_action_name(action: int, me: int, n: int) -> str:
    # memoised: a search names the legal actions of every node it expands
    m = ACTION_MOVES[action]
    if m is None:
        return ACTIONS[action]
    if m.cards == "?":
        if m.kind == "discovery":
            return PREFIX_DISCOVERY
        return f"inquisition {(me + m.seat) % n} give ?"
    return format_move(move_of(action, me, n))


# ---------------------------------------------------------------------------
# A game with a pending '?' commitment


@dataclass
class Pending:
    """A Discovery or Inquisition chosen by its prefix, waiting for ``pick`` actions."""

    kind: str
    seat: int  # the committed player
    target: int  # Inquisition's target seat, else -1
    reveal: list[int]  # the cards shown to the player (drawn, or the target's hand)
    pool: list[int]  # the cards to choose from (hand + reveal)
    k: int  # how many to name
    picked: list[int] = field(default_factory=lambda: [0] * 6)
    low: int = 0  # the lowest domain the next pick may name

    def allowed(self) -> list[int]:
        """The domains the next pick may name (canonical order, always completable)."""
        need = self.k - sum(self.picked)
        if need <= 0:
            return []
        free = [self.pool[d] - self.picked[d] for d in range(6)]
        out = []
        tail = sum(free[self.low :])
        for d in range(self.low, 6):
            if free[d] > 0 and tail >= need:
                out.append(d)
            tail -= free[d]
        return out


class Table:
    """A :class:`GameState` driven by action indices, with the two-step ``?`` effects.

    ``to_move`` is the seat that decides next (the committed player while a
    pick is pending); :meth:`legal_actions` its legal actions, sorted;
    :meth:`apply` plays one (raising ``ValueError`` for an illegal one).
    """

    __slots__ = ("_legal", "g", "pending")

    def __init__(self, g: GameState) -> None:
        self.g = g
        self.pending: Pending | None = None
        self._legal: list[int] | None = None

    @property
    def state(self) -> GameState:
        """The game state the table drives."""
        return self.g

    def encode(self, seat: int | None) -> npt.NDArray[np.float32]:
        """The observation vector of ``seat`` (:func:`encode`)."""
        return encode(self, seat)

    def describe(self, seat: int | None) -> str:
        """What ``seat`` sees, in a few lines (:func:`describe`)."""
        return describe(self, seat)

    def rewards(self) -> list[float]:
        """The final rewards (:func:`rewards`); all 0 while the game is on."""
        return rewards(self.g)

    def action_name(self, action: int) -> str:
        """The action as its seat would write it now (real seats)."""
        g = self.g
        if self.pending is not None:
            return ACTIONS[action]
        return _seat_action_name(action, g.active, g.n)

    def copy(self) -> Table:
        t = Table(self.g.copy())
        p = self.pending
        if p is not None:
            t.pending = Pending(
                p.kind, p.seat, p.target, p.reveal[:], p.pool[:], p.k, p.picked[:], p.low
            )
        t._legal = self._legal
        return t

    @property
    def finished(self) -> bool:
        return self.g.phase == OVER

    @property
    def to_move(self) -> int | None:
        return self.g.to_move

    def forget_legal(self) -> None:
        """Forget the legal actions worked out: the state was changed other than by
        :meth:`apply` (a resampled deal)."""
        self._legal = None

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            g = self.g
            if g.phase == OVER:
                self._legal = []
            elif self.pending is not None:
                self._legal = [PICK0 + d for d in self.pending.allowed()]
            else:
                # a Discovery's or an Inquisition's moves are one prefix action: their
                # stand-ins (folded_moves) give it without listing the moves
                me, n = g.active, g.n
                self._legal = sorted({action_of(m, me, n) for m in g.folded_moves()})
        return self._legal

    def mask(self) -> npt.NDArray[np.int8]:
        out = np.zeros(NUM_ACTIONS, dtype=np.int8)
        out[self.legal_actions()] = 1
        return out

    def is_legal(self, action: int) -> bool:
        legal = self.legal_actions()
        # the list is sorted: bisect would do, but it is short
        return action in legal

    def reveal_cards(self, action: int) -> tuple[str, list[int], int, int]:
        """(kind, cards revealed, how many to name, target) of a ``?`` prefix action now."""
        g = self.g
        m = ACTION_MOVES[action]
        assert m is not None and m.cards == "?"
        if m.kind == "discovery":
            k = min(5, len(g.deck))
            reveal = [0] * 6
            for i in range(1, k + 1):
                reveal[g.deck[-i]] += 1
            return "discovery", reveal, k, -1
        target = (g.active + m.seat) % g.n
        hand = g.hands[target][:]
        return "inquisition", hand, sum(hand), target

    def apply(self, action: int) -> None:
        """Play one action of :attr:`to_move`; ``ValueError`` if it is not legal."""
        if not self.is_legal(action):
            raise ValueError(f"action {action} ({ACTIONS[action]}) is not legal now")
        self.apply_unchecked(action)

    def apply_unchecked(self, action: int) -> None:
        g = self.g
        self._legal = None
        p = self.pending
        if p is not None:
            d = action - PICK0
            p.picked[d] += 1
            p.low = d
            if sum(p.picked) == p.k:
                self.pending = None
                cards = counts_to_str(p.picked)
                g.apply_unchecked(Move(p.kind, p.target, cards))
            return
        m = ACTION_MOVES[action]
        assert m is not None
        if m.cards == "?":
            kind, reveal, k, target = self.reveal_cards(action)
            pool = [g.hands[g.active][d] + reveal[d] for d in range(6)]
            self.pending = Pending(kind, g.active, target, reveal, pool, k)
            return
        g.apply_unchecked(move_of(action, g.active, g.n))

    def apply_move(self, move: str | Move) -> None:
        """Play a whole move of the notation (checked), e.g. a bot's; no pick may be pending."""
        if self.pending is not None:
            raise ValueError("a Discovery or Inquisition is waiting for its picks")
        self._legal = None
        self.g.apply(move)

    def move_of(self, action: int) -> str:
        """The text of ``action`` for the seat to act now (a prefix for a two-step effect)."""
        g = self.g
        return format_move(move_of(action, g.active, g.n))

    def actions_for(self, move: str) -> list[int]:
        """The action sequence that plays whole move ``move`` now (prefix and picks)."""
        from ...carta.moves import parse_move

        g = self.g
        m = parse_move(move)
        a = action_of(m, g.active, g.n)
        if not is_prefix(m):
            return [a]
        return [a, *(PICK0 + "MRESCU".index(ch) for ch in m.cards)]


# ---------------------------------------------------------------------------
# Rewards


def rewards(g: GameState) -> list[float]:
    """+1 shared equally among the winning sides (a seat, or a team in R24); 0 otherwise.

    A side's share goes to each of its members: a team's win gives both members 1.
    """
    out = [0.0] * g.n
    if not g.winners:
        return out
    if g.teams:
        sides = {w % 2 for w in g.winners}
        for s in range(g.n):
            if s % 2 in sides:
                out[s] = 1.0 / len(sides)
    else:
        for w in g.winners:
            out[w] = 1.0 / len(g.winners)
    return out


# ---------------------------------------------------------------------------
# The observation vector

#: The effects with moves of their own (Holy Book and Divine Right only come as copies).
EFFECT_KINDS: Final = tuple(k for k in ALL_EFFECT_KINDS if k not in ("holybook", "divineright"))
PHASES: Final = ("draft", "play", "effects", "pick", "over")

#: (name, size, meaning) of each block of the observation vector, in order.
OBS_LAYOUT: Final[tuple[tuple[str, int, str], ...]] = (
    ("players", 3, "one-hot: 2, 3 or 4 players"),
    ("draft_deal", 1, "1 when the game was dealt by the draft (R8)"),
    ("teams", 1, "1 in the team game (R24): relative seats 0 and 2 are partners"),
    ("thresholds", 3, "level 1, level 2, hegemony thresholds (R6)"),
    ("phase", 5, "one-hot: draft, play, effects, pick (a '?' pending), over"),
    ("to_move", 4, "one-hot relative seat to move (all 0 when over)"),
    ("start", 4, "one-hot relative seat of the start player"),
    ("turn", 1, "the engine's turn counter"),
    ("deck_size", 1, "cards left in the deck"),
    ("era", 4, "one-hot era of the top card: I, II, III, deck empty"),
    ("last_round", 1, "1 once the deck ran out (R23)"),
    ("hand", 6, "own hand: cards by domain (M R E S C U)"),
    ("hand_sizes", 4, "cards in each hand, by relative seat"),
    ("hand_limits", 4, "hand size each seat draws up to now (R13, R16), by relative seat"),
    ("areas", 24, "play areas: 4 relative seats x 6 domains, face-up cards"),
    ("discard", 6, "discard pile by domain"),
    (
        "markers",
        192,
        "face-down cards: target seat x domain x kind (embargo, democracy) x placer seat",
    ),
    ("coin", 14, "Culture coin: holder (4), seat copied (4), domain (6); all 0 when unused"),
    ("used_effects", 14, "effects used this turn, counts by kind (assassination ... inspiration)"),
    ("draft_packet", 6, "the draft packet the observer keeps a card from now (R8 steps 1-3)"),
    ("draft_centre", 6, "face-up centre cards of the draft (step 4)"),
    (
        "draft_received",
        18,
        "cards received in the draft: 3 steps x 6 domains (own deal, 2 packets)",
    ),
    ("known_in_hands", 24, "cards known to be in each hand (lower bounds), 4 relative seats x 6"),
    ("pending_kind", 2, "a '?' effect pending: discovery, inquisition (public)"),
    ("pending_target", 4, "one-hot relative target of a pending Inquisition (public)"),
    ("pending_reveal", 6, "the revealed cards (committed player only)"),
    ("pending_pool", 6, "the cards to choose from (committed player only)"),
    ("pending_picked", 6, "cards picked so far (committed player only)"),
    ("pending_left", 1, "picks still to make (committed player only)"),
    ("finished", 1, "1 when the game is over"),
    ("winners", 4, "1 for each winning relative seat"),
    ("victory", 2, "one-hot: hegemony, majority"),
    ("points", 4, "majority points by relative seat (team game: own team, other team)"),
)
OBS_OFFSETS: Final = {}
_o = 0
for _name, _size, _ in OBS_LAYOUT:
    OBS_OFFSETS[_name] = _o
    _o += _size
OBS_SIZE: Final = _o
#: an upper bound for every entry (a count of cards never exceeds the deck)
OBS_HIGH: Final = 1000.0

_KIND_INDEX: Final = {k: i for i, k in enumerate(EFFECT_KINDS)}
_LI: Final = {c: i for i, c in enumerate(LETTERS)}


def _put_counts(v: _Vec, at: int, cards: str) -> None:
    for ch in cards:
        v[at + _LI[ch]] += 1.0


#: offsets of the blocks :func:`encode` writes (read once, not from the dict each time)
_PLAYERS, _DRAFT_DEAL, _TEAMS, _THRESHOLDS = (
    OBS_OFFSETS[k] for k in ("players", "draft_deal", "teams", "thresholds")
)
_PHASE, _TO_MOVE, _START, _TURN = (OBS_OFFSETS[k] for k in ("phase", "to_move", "start", "turn"))
_DECK_SIZE, _ERA, _LAST_ROUND, _HAND = (
    OBS_OFFSETS[k] for k in ("deck_size", "era", "last_round", "hand")
)
_HAND_SIZES, _HAND_LIMITS, _AREAS, _KNOWN = (
    OBS_OFFSETS[k] for k in ("hand_sizes", "hand_limits", "areas", "known_in_hands")
)
_DISCARD, _MARKERS, _COIN, _USED = (
    OBS_OFFSETS[k] for k in ("discard", "markers", "coin", "used_effects")
)
_DRAFT_PACKET, _DRAFT_CENTRE, _DRAFT_RECEIVED = (
    OBS_OFFSETS[k] for k in ("draft_packet", "draft_centre", "draft_received")
)
_PHASE_INDEX: Final = {ph: i for i, ph in enumerate(PHASES)}
#: a zero vector of C floats, copied for each :func:`encode` (a flat buffer, written
#: item by item, then seen by NumPy without a copy: cheaper than NumPy's item writes)
_ZEROS: Final = array("f", bytes(4 * OBS_SIZE))

#: what the encoders write into: a NumPy vector, or the C floats of :func:`encode`
_Vec = Union[npt.NDArray[np.float32], "array[float]"]


def _put6(v: _Vec, at: int, counts: Sequence[int]) -> None:
    v[at] = counts[0]
    v[at + 1] = counts[1]
    v[at + 2] = counts[2]
    v[at + 3] = counts[3]
    v[at + 4] = counts[4]
    v[at + 5] = counts[5]


def encode(table: Table, seat: int | None) -> npt.NDArray[np.float32]:
    """The flat observation of ``seat`` (None: a spectator, public information only).

    It reads the game directly, for speed, exactly the fields of
    :func:`civcards.carta.observe` that :func:`encode_observation` encodes
    (the tests check that both give the same vector).
    """
    g = table.g
    n = g.n
    own = seat is not None
    me = seat if seat is not None else 0
    v = _ZEROS[:]
    hands = g.hands

    v[_PLAYERS + n - 2] = 1
    v[_DRAFT_DEAL] = g.deal == "draft"
    v[_TEAMS] = g.teams
    v[_THRESHOLDS] = g.l1
    v[_THRESHOLDS + 1] = g.l2
    v[_THRESHOLDS + 2] = g.heg
    p = table.pending
    phase = "pick" if p is not None else g.phase
    v[_PHASE + _PHASE_INDEX[phase]] = 1
    if g.phase != OVER:
        v[_TO_MOVE + (g.active - me) % n] = 1
    v[_START + (g.start - me) % n] = 1
    v[_TURN] = g.turn
    v[_DECK_SIZE] = len(g.deck)
    era = g.era
    v[_ERA + (3 if era is None else era)] = 1
    v[_LAST_ROUND] = g.last_round
    if own:
        _put6(v, _HAND, hands[me])
    known = known_counts(g, me if own else -1)
    areas = g.areas
    for r in range(n):
        s = (me + r) % n  # relative seat r
        v[_HAND_SIZES + r] = sum(hands[s])
        v[_HAND_LIMITS + r] = g.hand_size(s)
        _put6(v, _AREAS + 6 * r, areas[s])
        _put6(v, _KNOWN + 6 * r, known[s])
    _put6(v, _DISCARD, g.discard)
    for ms, md, mkind, mby in g.markers:
        kind = 0 if mkind == "embargo" else 1
        v[_MARKERS + ((((ms - me) % n) * 6 + md) * 2 + kind) * 4 + (mby - me) % n] += 1
    if g.coin is not None:
        holder, cs, cd = g.coin
        v[_COIN + (holder - me) % n] = 1
        v[_COIN + 4 + (cs - me) % n] = 1
        v[_COIN + 8 + cd] = 1
    for used in g.used_log:
        v[_USED + _KIND_INDEX[used]] += 1
    if g.phase == "draft":
        if own:
            _put6(v, _DRAFT_PACKET, g.draft_hold[me])
        if g.draft_step >= 3:
            _put6(v, _DRAFT_CENTRE, g.draft_centre)
    if own:
        for ev in g.learned[me]:
            if ev[0] == "draft_received" and 0 <= int(ev[1]) < 3:  # type: ignore[call-overload]
                _put_counts(v, _DRAFT_RECEIVED + 6 * int(ev[1]), str(ev[3]))  # type: ignore[call-overload]
    _encode_pending(v, p, seat, me, n)
    if g.phase == OVER:
        _encode_result(v, g.winners, g.victory, g.points, g.teams, me, n)
    return np.frombuffer(v, dtype=np.float32)


def _encode_pending(v: _Vec, p: Pending | None, seat: int | None, me: int, n: int) -> None:
    if p is None:
        return
    at = OBS_OFFSETS
    v[at["pending_kind"] + (0 if p.kind == "discovery" else 1)] = 1
    if p.target >= 0:
        v[at["pending_target"] + (p.target - me) % n] = 1
    if seat == p.seat:
        _put6(v, at["pending_reveal"], p.reveal)
        _put6(v, at["pending_pool"], p.pool)
        _put6(v, at["pending_picked"], p.picked)
        v[at["pending_left"]] = p.k - sum(p.picked)


def _encode_result(
    v: _Vec,
    winners: list[int],
    victory: str | None,
    points: list[int] | None,
    teams: bool,
    me: int,
    n: int,
) -> None:
    at = OBS_OFFSETS
    v[at["finished"]] = 1
    for w in winners:
        v[at["winners"] + (w - me) % n] = 1
    if victory is not None:
        v[at["victory"] + (0 if victory == "hegemony" else 1)] = 1
    if points is not None:
        if teams:
            for t, pts in enumerate(points):
                v[at["points"] + (t - me) % 2] = pts
        else:
            for s, pts in enumerate(points):
                v[at["points"] + (s - me) % n] = pts


def encode_observation(
    table: Table, seat: int | None, obs: Observation | None = None
) -> npt.NDArray[np.float32]:
    """:func:`encode`, computed from the seat's :class:`~civcards.carta.Observation` (slower).

    This is the reference: everything in the vector comes from ``observe(g, seat)``
    (and, while a '?' effect is pending, from the reveal made to the committed seat).
    """
    g = table.g
    o = obs if obs is not None else observe(g, seat)
    n = g.n
    me = 0 if seat is None else seat
    v = np.zeros(OBS_SIZE, dtype=np.float32)
    at = OBS_OFFSETS

    def rel(s: int) -> int:
        return (s - me) % n

    v[at["players"] + n - 2] = 1
    v[at["draft_deal"]] = o.deal == "draft"
    v[at["teams"]] = o.teams
    v[at["thresholds"] : at["thresholds"] + 3] = THRESHOLDS[n]
    p = table.pending
    phase = "pick" if p is not None else o.phase
    v[at["phase"] + PHASES.index(phase)] = 1
    if o.to_move is not None:
        v[at["to_move"] + rel(o.to_move)] = 1
    v[at["start"] + rel(o.start)] = 1
    v[at["turn"]] = o.turn
    v[at["deck_size"]] = o.deck_size
    v[at["era"] + (3 if o.era is None else o.era)] = 1
    v[at["last_round"]] = o.last_round
    _put_counts(v, at["hand"], o.hand)
    for s in range(n):
        r = rel(s)
        v[at["hand_sizes"] + r] = o.hand_sizes[s]
        v[at["hand_limits"] + r] = o.hand_limits[s]
        _put_counts(v, at["areas"] + 6 * r, o.areas[s])
        _put_counts(v, at["known_in_hands"] + 6 * r, o.known_in_hands[s])
    _put_counts(v, at["discard"], o.discard)
    for mk in o.markers:
        kind = 0 if mk["kind"] == "embargo" else 1
        idx = ((rel(mk["seat"]) * 6 + _LI[mk["domain"]]) * 2 + kind) * 4 + rel(mk["by"])
        v[at["markers"] + idx] += 1
    if o.coin is not None:
        c = at["coin"]
        v[c + rel(int(o.coin["holder"]))] = 1
        v[c + 4 + rel(int(o.coin["seat"]))] = 1
        v[c + 8 + _LI[str(o.coin["domain"])]] = 1
    for used in o.used_effects:
        v[at["used_effects"] + _KIND_INDEX[used]] += 1
    _put_counts(v, at["draft_packet"], o.draft_packet)
    _put_counts(v, at["draft_centre"], o.draft_centre)
    for ev in o.learned:
        if ev[0] == "draft_received" and 0 <= ev[1] < 3:
            _put_counts(v, at["draft_received"] + 6 * ev[1], ev[3])
    _encode_pending(v, p, seat, me, n)
    if o.finished:
        _encode_result(v, o.winners, o.victory, o.points, o.teams, me, n)
    return v


def describe(table: Table, seat: int | None) -> str:
    """A short text of what ``seat`` sees (None: a spectator): observation strings, ``render``."""
    g = table.g
    o = observe(g, seat)
    lines = [
        f"{o.players} players, {o.deal} deal{', teams' if o.teams else ''}; "
        f"turn {o.turn}, phase {o.phase}, to move: {o.to_move}; "
        f"deck {o.deck_size} (era {'-' if o.era is None else ('I', 'II', 'III')[o.era]})",
    ]
    for s in range(o.players):
        mark = "*" if s == o.to_move else " "
        hand = o.hand if s == seat else "?" * o.hand_sizes[s]
        known = f" known {o.known_in_hands[s]}" if s != seat and o.known_in_hands[s] else ""
        lines.append(f"{mark} seat {s}: area [{o.areas[s]}] hand [{hand}]{known}")
    lines.append(f"discard [{o.discard}]")
    if o.markers:
        lines.append(
            "markers "
            + ", ".join(f"{m['kind']} on {m['seat']}{m['domain']} by {m['by']}" for m in o.markers)
        )
    if o.coin is not None:
        lines.append(f"coin: held by {o.coin['holder']} on {o.coin['seat']}{o.coin['domain']}")
    if o.used_effects:
        lines.append("used: " + " ".join(o.used_effects))
    if o.draft_packet:
        lines.append(f"draft packet [{o.draft_packet}]")
    if o.draft_centre:
        lines.append(f"draft centre [{o.draft_centre}]")
    p = table.pending
    if p is not None:
        target = f" on seat {p.target}" if p.target >= 0 else ""
        lines.append(f"pending: {p.kind}{target} by seat {p.seat}")
        if seat == p.seat:
            lines.append(
                f"revealed [{counts_to_str(p.reveal)}], picked [{counts_to_str(p.picked)}], "
                f"{p.k - sum(p.picked)} to pick"
            )
    if o.finished:
        lines.append(f"over: winners {o.winners} by {o.victory}, points {o.points}")
    return "\n".join(lines)
