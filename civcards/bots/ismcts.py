"""``ismcts``: information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012).

The bot searches one tree over its *information set*: each iteration deals
the hidden cards afresh from what its seat knows
(:class:`civcards.carta.determinize.Determinizer`, built from the
observation alone), walks the tree down the moves that are legal in that
deal, adds one node, values the position reached and backs the values up
(single-observer ISMCTS, with availability counts in the UCB formula).

* **Budget**: ``ismcts:2000it`` (iterations) or ``ismcts:1s`` / ``ismcts:250ms``
  (wall-clock time); plain ``ismcts`` is ``ismcts:1000it``.
* **Hidden choices**: Discovery and Inquisition are one node (``discovery
  discard ?``) whose children are the full moves of the deal at hand, so no
  player chooses among cards it has not seen, in the tree as at the table.
* **Values**: a finished game is worth 1 to its winners and 0 to the others;
  any other leaf is valued for every seat by the greedy bot's evaluation
  (:func:`civcards.bots.greedy.evaluate`), squashed into ``(0, 1)``. Each node
  keeps the value of the seat that moved into it (max-n).
* **The draft** (R8) is left to the greedy policy.

The bot reads only its :class:`~civcards.bots.Decision`; its random numbers
come from its own seeded generator, so it is deterministic given its seed
and an iteration budget.
"""

from __future__ import annotations

import math
import time
from typing import Any

from ..carta.determinize import DeterminizeError, Determinizer
from ..carta.game import OVER, PLAY, GameState
from ..carta.moves import END, Move, format_move
from .base import Bot, Decision
from .greedy import GreedyBot, Local, evaluate, progress

#: iterations of a plain ``ismcts``
DEFAULT_ITERATIONS = 1000
#: the exploration constant of UCB1
EXPLORATION = float(__import__('os').environ.get('ISM_C', '0.7'))
#: the scale of the evaluation before the logistic squash
TEMPERATURE = float(__import__('os').environ.get('ISM_T', '20'))


def parse_budget(arg: str | None) -> tuple[int | None, float | None]:
    """``"2000it"`` -> (2000, None); ``"1s"``/``"250ms"`` -> (None, seconds).

    >>> parse_budget("2000it"), parse_budget("1.5s"), parse_budget("250ms"), parse_budget(None)
    ((2000, None), (None, 1.5), (None, 0.25), (1000, None))
    """
    if arg is None or not arg.strip():
        return DEFAULT_ITERATIONS, None
    text = arg.strip().lower()
    try:
        if text.endswith("it"):
            its = int(text[:-2])
            if its < 1:
                raise ValueError
            return its, None
        if text.endswith("ms"):
            secs = float(text[:-2]) / 1000.0
        elif text.endswith("s"):
            secs = float(text[:-1])
        else:
            raise ValueError
    except ValueError:
        raise ValueError(
            f"ismcts budget {arg!r} is not understood: write iterations as '2000it' "
            "or time as '1s' or '250ms'"
        ) from None
    if not secs > 0 or math.isinf(secs):
        raise ValueError(f"ismcts budget {arg!r} must be a positive time")
    return None, secs


class _Node:
    __slots__ = ("avail", "children", "hidden", "mover", "q", "total", "visits")

    def __init__(self, mover: int, hidden: tuple[str, int] | None = None) -> None:
        self.mover = mover
        #: for a '?' node: ("discovery", -1) or ("inquisition", target seat)
        self.hidden = hidden
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        #: the node's value to its mover: the mean of its results, or the best of its
        #: children's values while the same seat goes on choosing (one turn, many moves)
        self.q = 0.0


def _key(g: GameState, m: Move) -> Any:
    """The tree key of ``m``: the move, or a '?' key for a choice that depends on hidden cards."""
    k = m.kind
    if k == "discovery" and g.deck:
        return ("discovery", -1)
    if k == "inquisition" and m.cards:
        return ("inquisition", m.seat)
    return m


def _option_text(key: Any) -> str:
    if isinstance(key, Move):
        return format_move(key)
    kind, seat = key
    return "discovery discard ?" if kind == "discovery" else f"inquisition {seat} give ?"


def _matches(m: Move, hidden: tuple[str, int]) -> bool:
    return m.kind == hidden[0] and (hidden[0] == "discovery" or m.seat == hidden[1])


def values(g: GameState) -> list[float]:
    """The value of ``g`` to each seat, in ``[0, 1]``: exact when finished, else estimated."""
    n = g.n
    if g.phase == OVER:
        w = g.winners
        return [1.0 / len(w) if s in w else 0.0 for s in range(n)] if w else [1.0 / n] * n
    dem = [[0] * 6 for _ in range(n)]
    emb = [[0] * 6 for _ in range(n)]
    for s, d, k, _ in g.markers:
        (dem if k == "democracy" else emb)[s][d] += 1
    zero = [[0] * 6 for _ in range(n)]
    sizes = [sum(h) for h in g.hands]
    era = g.era
    thr = (g.l1, g.l2, g.heg)
    raw = []
    for s in range(n):
        st = Local.__new__(Local)
        st.me = s
        st.n = n
        st.teams = g.teams
        st.thr = thr
        st.hand = g.hands[s]
        st.areas = g.areas
        st.discard = g.discard
        st.dem = dem
        st.emb = emb
        st.known = zero
        st.hand_sizes = sizes
        st.deck = len(g.deck)
        st.era = era
        st.last_round = g.last_round
        st.copied_hand = g.copied_hand if s == g.active else 0
        raw.append(evaluate(st) / TEMPERATURE)
    # a share of one win, by how far ahead each seat is of the others (softmax)
    top = max(raw)
    ex = [math.exp(max(-50.0, v - top)) for v in raw]
    tot = sum(ex)
    return [x / tot for x in ex]


def paranoid(g: GameState, seat: int, known: list[list[int]] | None = None) -> list[float]:
    n = g.n
    if g.phase == OVER:
        w = g.winners
        return [1.0 / len(w) if s in w else 0.0 for s in range(n)] if w else [1.0 / n] * n
    dem = [[0] * 6 for _ in range(n)]
    emb = [[0] * 6 for _ in range(n)]
    for s, d, k, _ in g.markers:
        (dem if k == "democracy" else emb)[s][d] += 1
    st = Local.__new__(Local)
    st.me = seat
    st.n = n
    st.teams = g.teams
    st.thr = (g.l1, g.l2, g.heg)
    st.hand = g.hands[seat]
    st.areas = g.areas
    st.discard = g.discard
    st.dem = dem
    st.emb = emb
    st.known = known if known is not None else [[0] * 6 for _ in range(n)]
    st.hand_sizes = [sum(h) for h in g.hands]
    st.deck = len(g.deck)
    st.era = g.era
    st.last_round = g.last_round
    st.copied_hand = g.copied_hand if seat == g.active else 0
    v = evaluate(st) / TEMPERATURE
    p = 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, v))))
    rest = (1.0 - p) / (n - 1)
    return [p if s == seat else rest for s in range(n)]


def _local(g: GameState, seat: int) -> Local:
    n = g.n
    dem = [[0] * 6 for _ in range(n)]
    emb = [[0] * 6 for _ in range(n)]
    for s, d, k, _ in g.markers:
        (dem if k == "democracy" else emb)[s][d] += 1
    st = Local.__new__(Local)
    st.me = seat
    st.n = n
    st.teams = g.teams
    st.thr = (g.l1, g.l2, g.heg)
    st.hand = g.hands[seat][:]
    st.areas = [a[:] for a in g.areas]
    st.discard = g.discard[:]
    st.dem = dem
    st.emb = emb
    st.known = [[0] * 6 for _ in range(n)]
    st.hand_sizes = [sum(h) for h in g.hands]
    st.deck = len(g.deck)
    st.era = g.era
    st.last_round = g.last_round
    st.copied_hand = g.copied_hand if seat == g.active else 0
    return st


def greedy_step(g: GameState) -> None:
    from .greedy import EFFECT_COST, apply_move

    me = g.active
    base = _local(g, me)
    best = None
    best_v = -1e18
    for m in g._generate():
        st = base.copy()
        apply_move(st, m)
        v = evaluate(st)
        if m.kind not in ("end", "play"):
            v -= EFFECT_COST
        if v > best_v:
            best, best_v = m, v
    assert best is not None
    g.apply_unchecked(best)


def _greedy_reply_value(g: GameState, seat: int) -> list[float]:
    n = g.n
    if g.phase != OVER and g.active == seat:
        pre = _local(g, seat)
        g.apply_unchecked(END)
    else:
        pre = None
    turn = g.turn
    while g.phase != OVER and not (g.active == seat and g.turn != turn):
        greedy_step(g)
    if g.phase == OVER:
        w = g.winners
        return [1.0 / len(w) if s in w else 0.0 for s in range(n)] if w else [1.0 / n] * n
    st = _local(g, seat)
    if pre is not None:
        st.hand = pre.hand
        st.copied_hand = pre.copied_hand
        st.deck = pre.deck
    v = evaluate(st) / TEMPERATURE
    p = 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, v))))
    rest = (1.0 - p) / (n - 1)
    return [p if s == seat else rest for s in range(n)]


def _reveal_choice(g: GameState, hidden: tuple[str, int], moves: list[Move]) -> Move:
    from ..carta.cards import counts_to_str
    from .greedy import _best_keep

    me = g.active
    hand = g.hands[me]
    pool = hand[:]
    if hidden[0] == "discovery":
        for d in g.deck[-min(5, len(g.deck)):]:
            pool[d] += 1
    else:
        t = g.hands[hidden[1]]
        for d in range(6):
            pool[d] += t[d]
    st = _local(g, me)
    mine = _best_keep(st, pool, sum(hand))
    rest = counts_to_str([pool[d] - mine[d] for d in range(6)])
    want = Move(hidden[0], hidden[1], rest)
    for m in moves:
        if m == want:
            return m
    return moves[0]


def _finish_round(g: GameState, seat: int) -> None:
    """Play on to the start of ``seat``'s next turn with a quick policy, so leaves compare.

    The policy plays, at each turn, the card that adds most to its hegemony
    progress (R21), uses no effect and ends its turn.
    """
    turn = g.turn
    heg = g.heg
    play = g.apply_unchecked
    while g.phase != OVER:
        if g.active == seat and g.turn != turn and not _FULL:
            return
        if g.phase == PLAY:
            me = g.active
            hand = g.hands[me]
            area = g.areas[me]
            emb = g.embargoed
            best = -1
            best_v = -1.0
            for d in range(6):
                if hand[d] and not emb >> d & 1:
                    a = area[d]
                    v = progress(a + 1, heg) - progress(a, heg) + _PLAY_BONUS[d]
                    if v > best_v:
                        best, best_v = d, v
            play(_PLAYS[best])
        else:
            play(END)


_REVEAL_GREEDY = __import__('os').environ.get('ISM_RG', '1') == '1'
_FLOOR = float(__import__('os').environ.get('ISM_FLOOR', '0.2'))
_PREEND = __import__('os').environ.get('ISM_PREEND', '0') == '1'
_GOPP = __import__('os').environ.get('ISM_GOPP', '0') == '1'
_PARANOID = __import__('os').environ.get('ISM_PAR', '0') == '1'
_FULL = __import__('os').environ.get('ISM_FULL', '0') == '1'
_OWN = __import__('os').environ.get('ISM_OWN', '0') == '1'
_MAXQ = __import__('os').environ.get('ISM_MAXQ', '1') == '1'
_DEPTH = int(__import__('os').environ.get('ISM_DEPTH', '999'))
_PLAYS = tuple(Move("play", cards=ch) for ch in "MRESCU")
#: a small preference for the cards that build a player's engine (R11)
_PLAY_BONUS = (0.0, 3.0, 1.0, 2.0, 1.0, 0.0)


class ISMCTSBot(Bot):
    """Single-observer ISMCTS over the seat's information set; see the module's documentation."""

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int | None = DEFAULT_ITERATIONS,
        seconds: float | None = None,
        exploration: float = EXPLORATION,
        rollout: bool = __import__("os").environ.get("ISM_ROLL", "1") == "1",
    ) -> None:
        super().__init__(seed)
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.rollout = rollout
        self.seat = 0
        budget = f"{iterations}it" if iterations is not None else f"{seconds:g}s"
        self.name = f"ismcts:{budget}"
        self._fallback = GreedyBot(seed)
        #: iterations run at the last decision (for reports and tests)
        self.last_iterations = 0

    def choose(self, decision: Decision) -> str:
        options = decision.options
        if len(options) == 1:
            self.last_iterations = 0
            return options[0]
        try:
            det = Determinizer(decision.observation, reveal=decision.reveal, chosen=decision.chosen)
        except DeterminizeError:
            self.last_iterations = 0
            return self._fallback.choose(decision)
        me = decision.seat
        self.seat = me
        root_hidden: tuple[str, int] | None = None
        if decision.chosen is not None and decision.reveal is not None:
            words = decision.chosen.split()
            root_hidden = (words[0], int(words[1]) if words[0] == "inquisition" else -1)
        root = _Node(me, root_hidden)
        self._known = [k[:] if s != me else [0] * 6 for s, k in enumerate(det.known)]
        self._root_texts: dict[Any, str] = {}
        allowed = set(options)
        rng = self.rng
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        limit = self.iterations
        done = 0
        while True:
            if limit is not None and done >= limit:
                break
            if deadline is not None and done % 8 == 0 and time.perf_counter() >= deadline and done:
                break
            self._iterate(root, det.sample(rng), allowed)
            done += 1
        self.last_iterations = done
        best: str | None = None
        # the best value among the options searched well enough (robust to lucky few visits)
        most = max((ch.visits for ch in root.children.values()), default=0)
        floor = max(1, int(most * _FLOOR))
        best_q = -1.0
        for key, child in root.children.items():
            text = _option_text(key)
            # a tiny price on effects, as the greedy bot's: end when nothing helps
            q = child.q - (1e-6 if isinstance(key, tuple) or key.kind not in ("end", "play") else 0.0)
            if text in allowed and child.visits >= floor and q > best_q:
                best, best_q = text, q
        if best is None:  # pragma: no cover - every root child is an option
            return self._fallback.choose(decision)
        return best

    def _iterate(self, root: _Node, g: GameState, allowed: set[str]) -> None:
        rng = self.rng
        c = self.exploration
        sqrt = math.sqrt
        log = math.log
        node = root
        path: list[_Node] = []
        is_root = True
        while g.phase != OVER:
            if sum(1 for x in path if x.hidden is None) >= _DEPTH:
                break
            if _OWN and g.active != self.seat:
                break
            hidden = node.hidden
            moves = g._generate()
            if hidden is not None:
                moves = [m for m in moves if _matches(m, hidden)]
                keys: list[Any] = moves
                if not is_root and _REVEAL_GREEDY and moves:
                    # below the root, the cards kept after a reveal are the greedy keep
                    m = _reveal_choice(g, hidden, moves)
                    ch = node.children.get(m)
                    if ch is None:
                        ch = node.children[m] = _Node(g.active)
                    ch.avail += 1
                    path.append(ch)
                    node = ch
                    g.apply_unchecked(m)
                    continue
            else:
                keys = [_key(g, m) for m in moves]
            if is_root:
                texts = self._root_texts
                pairs = []
                for k, m in zip(keys, moves, strict=True):
                    t = texts.get(k)
                    if t is None:
                        t = texts[k] = _option_text(k)
                    if t in allowed:
                        pairs.append((k, m))
                keys = [k for k, _ in pairs]
                moves = [m for _, m in pairs]
                is_root = False
            if not keys:  # pragma: no cover - a determinization always has the options
                break
            children = node.children
            kmap = dict(zip(keys, moves, strict=True))
            untried = []
            for k in kmap:
                ch = children.get(k)
                if ch is None:
                    untried.append(k)
                else:
                    ch.avail += 1
            mover = g.active
            if untried:
                k = untried[int(rng.random() * len(untried))]
                child = _Node(mover, None if isinstance(k, Move) else k)
                child.avail = 1
                children[k] = child
                path.append(child)
                if child.hidden is None:
                    if _PREEND and k == END and mover == self.seat:
                        break
                    g.apply_unchecked(kmap[k])
                    break
                # a '?' node: go on and pick the full move in this deal
                node = child
                continue
            best_v = -1.0
            best_k: Any = None
            for k in kmap:
                ch = children[k]
                vis = ch.visits
                v = ch.q + c * sqrt(log(ch.avail) / vis)
                if v > best_v:
                    best_v, best_k = v, k
            node = children[best_k]
            path.append(node)
            if node.hidden is None:
                if _PREEND and best_k == END and mover == self.seat:
                    break
                g.apply_unchecked(kmap[best_k])
        if _GOPP:
            vals = _greedy_reply_value(g, self.seat)
        else:
            if self.rollout:
                _finish_round(g, self.seat)
            vals = values(g) if not _PARANOID else paranoid(g, self.seat, self._known)
        seat = self.seat
        for nd in reversed(path):
            nd.visits += 1
            nd.total += vals[nd.mover]
            kids = nd.children
            if _MAXQ and kids and nd.hidden is None and nd.mover == seat:
                first = next(iter(kids.values()))
                if first.mover == seat:
                    nd.q = max(k.q for k in kids.values())
                    continue
            nd.q = nd.total / nd.visits


def make_ismcts(arg: str | None, seed: int | None) -> ISMCTSBot:
    """The registry's factory: ``ismcts``, ``ismcts:2000it``, ``ismcts:1s``."""
    its, secs = parse_budget(arg)
    return ISMCTSBot(seed, iterations=its, seconds=secs)


__all__ = ["ISMCTSBot", "make_ismcts", "parse_budget", "values"]
