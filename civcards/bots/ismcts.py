"""``ismcts``: information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012).

The bot searches one tree over its *information set* (single-observer
ISMCTS): each iteration deals the hidden cards afresh from what its seat
knows (:class:`civcards.carta.determinize.Determinizer`, built from the
observation alone), walks the tree down the moves that are legal in that
deal (UCB1 with availability counts), adds one node, values the position
reached and backs the value up.

* **Budget**: ``ismcts:2000it`` (iterations) or ``ismcts:1s`` / ``ismcts:250ms``
  (wall-clock time); plain ``ismcts`` is ``ismcts:1000it``. A decision with a
  single option costs nothing.
* **Hidden choices**: Discovery and Inquisition are one node (``discovery
  discard ?``), as at the table, so no seat chooses among cards it has not
  seen. Below the root the cards kept after the reveal are those the greedy
  bot would keep; at the root, once the bot has seen the cards, every full
  move is searched.
* **Values**: a finished game is worth 1 to its winners (shared) and 0 to the
  others. Any other leaf is valued by the searching seat's chance of winning
  from there, as the learned value network for the player count says
  (:mod:`civcards.bots.value`, trained on greedy games by ``civcards
  train-value``); where no network ships (the team game) or with
  ``ismcts:1000it:greedy``, by the greedy bot's evaluation
  (:func:`civcards.bots.greedy.evaluate`) squashed into ``(0, 1)``. With two
  players, and wherever the greedy evaluation is used, its team-mate gets the
  same value and the other seats the rest (a *paranoid* search: every
  opponent is assumed to play against the bot). With three players and a
  network, every seat is valued by its own chance by the network, scaled so
  that the chances add up to 1 (*max-n*: each opponent plays for itself, as
  rivals racing each other do): measured much stronger there than paranoid
  values. With four players max-n showed no gain over paranoid values and
  costs four network evaluations a leaf, so four players stay paranoid
  (docs/bots.md).
* **Rivals' replies**: with three players (max-n) the search models each rival
  as playing its greedy move (an *opponent model*): a rival's node is expanded
  along the move its own greedy evaluation prefers in the deal at hand
  (:func:`greedy_first`), and no other reply is added while one in the tree is
  legal in the deal. So the whole budget goes to the bot's own choices against
  replies a sensible rival makes (``widening`` opens a rival's node to more
  replies as it is visited: measured weaker, docs/bots.md). Elsewhere (paranoid
  searches, and the bot's own moves) new nodes are tried in random order.
* **Horizon**: ``ismcts:1000it:turn`` grows the tree only through the seat's
  own turn and values the position after it (an experiment: weaker than the
  full tree, docs/bots.md).
* **One turn, many moves**: while the same seat goes on choosing (play, then
  effects, then end), a node is worth the best of its children, not their
  mean, so a good line of play is not diluted by the poor ones tried beside it.
* **The choice** is the option of highest value among those searched at least
  a fifth as often as the most searched one.
* **The draft** (R8) is left to the greedy policy.

The bot reads only its :class:`~civcards.bots.Decision`; its random numbers
come from its own seeded generator, so with an iteration budget it is
deterministic given its seed (a time budget depends on the machine's speed).
"""

from __future__ import annotations

import math
import time
from typing import Any

from ..carta.cards import counts_to_str
from ..carta.determinize import DeterminizeError, Determinizer
from ..carta.game import OVER, GameState
from ..carta.moves import Move, format_move
from .base import Bot, Decision
from .greedy import EFFECT_COST, GreedyBot, Local, _best_keep, evaluate, score_move
from .value import ValueNet, value_net

#: iterations of a plain ``ismcts``
DEFAULT_ITERATIONS = 1000
#: the exploration constant of UCB1 (values lie in [0, 1])
EXPLORATION = 0.5
#: the scale of the greedy evaluation before the logistic squash
TEMPERATURE = 20.0
#: how leaves are valued: the learned network (where one ships for the player
#: count, else the greedy evaluation) or always the greedy evaluation
EVALUATIONS = ("net", "greedy")
#: how far the tree grows: through every seat's turns ("game"), or only through the
#: searching seat's own turn, the position after it valued as it stands ("turn")
HORIZONS = ("game", "turn")
#: the final choice considers options searched at least this share of the most searched
ROBUST_SHARE = 0.2
#: progressive widening of a rival's node (max-n): it may have ``1 + int(WIDENING *
#: sqrt(visits))`` children legal in the current deal, added in the rival's greedy order.
#: 0 models each rival as playing its greedy move; 0.5 lets the search try others as a
#: node's visits grow, and measured no stronger than full width (docs/bots.md)
WIDENING = 0.0


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
        #: the seat that chose the move leading here
        self.mover = mover
        #: for a '?' node: ("discovery", -1) or ("inquisition", target seat)
        self.hidden = hidden
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        #: the node's value to its mover (see the module's documentation)
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


def local_view(g: GameState, seat: int, known: list[list[int]] | None = None) -> Local:
    """The greedy bot's picture (:class:`~civcards.bots.greedy.Local`) of a whole state."""
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
    st.known = known if known is not None else [[0] * 6 for _ in range(n)]
    st.hand_sizes = [sum(h) for h in g.hands]
    st.deck = len(g.deck)
    st.era = g.era
    st.last_round = g.last_round
    st.copied_hand = g.copied_hand if seat == g.active else 0
    return st


def values(
    g: GameState,
    seat: int,
    known: list[list[int]] | None = None,
    net: ValueNet | None = None,
) -> list[float]:
    """The value of ``g`` to each seat, in ``[0, 1]``, as ``seat`` searches it.

    A finished game: 1 to the winners (shared), 0 to the others. With three
    players and a value network ``net`` (:mod:`civcards.bots.value`),
    every seat gets its own chance of winning by the network, the chances
    scaled to add up to 1 (*max-n*: each opponent is assumed to play for
    itself). Otherwise ``seat`` (and its team-mate, R24) gets its chance by the
    network, or without one the squashed greedy evaluation, and every opponent
    the complement (*paranoid*: the opponent plays against ``seat``).
    """
    n = g.n
    if g.phase == OVER:
        w = g.winners
        mine = 1.0 / len(w) if seat in w else 0.0
    elif net is not None:
        if n == 3:
            # max-n: every seat is valued by its own chance, the chances scaled to add up to 1
            chances = net.probabilities(g)
            total = sum(chances)
            return [p / total for p in chances]
        mine = net.probability(g, seat)
    else:
        v = evaluate(local_view(g, seat, known)) / TEMPERATURE
        mine = 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, v))))
    if g.teams:
        return [mine if s % 2 == seat % 2 else 1.0 - mine for s in range(n)]
    return [mine if s == seat else 1.0 - mine for s in range(n)]


def greedy_first(g: GameState, mover: int, keys: list[Any]) -> Any:
    """The tree key among ``keys`` whose move the greedy evaluation ranks first for ``mover``.

    ``g`` is the state the search dealt; a '?' key (Discovery, Inquisition) is
    valued as the position before it, less the greedy bot's price of an effect.
    """
    base = local_view(g, mover)
    best = keys[0]
    best_v = float("-inf")
    for k in keys:
        v = score_move(base, k) if isinstance(k, Move) else evaluate(base) - EFFECT_COST
        if v > best_v:
            best, best_v = k, v
    return best


def reveal_choice(g: GameState, hidden: tuple[str, int], moves: list[Move]) -> Move:
    """The full move the greedy bot would make after a Discovery or Inquisition reveal."""
    me = g.active
    hand = g.hands[me]
    pool = hand[:]
    if hidden[0] == "discovery":
        for d in g.deck[-min(5, len(g.deck)) :]:
            pool[d] += 1
    else:
        target = g.hands[hidden[1]]
        for d in range(6):
            pool[d] += target[d]
    mine = _best_keep(local_view(g, me), pool, sum(hand))
    want = Move(hidden[0], hidden[1], counts_to_str([pool[d] - mine[d] for d in range(6)]))
    for m in moves:
        if m == want:
            return m
    return moves[0]  # pragma: no cover - the greedy keep is always a legal move


class ISMCTSBot(Bot):
    """Single-observer ISMCTS over the seat's information set; see the module's documentation."""

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int | None = DEFAULT_ITERATIONS,
        seconds: float | None = None,
        exploration: float = EXPLORATION,
        evaluation: str = "net",
        horizon: str = "game",
        widening: float = WIDENING,
    ) -> None:
        super().__init__(seed)
        if not widening >= 0:
            raise ValueError(f"ismcts widening {widening!r} must be 0 or more")
        self.widening = widening
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        if evaluation not in EVALUATIONS:
            raise ValueError(
                f"ismcts evaluation {evaluation!r} is not one of: {', '.join(EVALUATIONS)}"
            )
        self.evaluation = evaluation
        if horizon not in HORIZONS:
            raise ValueError(f"ismcts horizon {horizon!r} is not one of: {', '.join(HORIZONS)}")
        self.horizon = horizon
        budget = f"{iterations}it" if iterations is not None else f"{seconds:g}s"
        self.name = (
            f"ismcts:{budget}"
            + ("" if evaluation == "net" else f":{evaluation}")
            + ("" if horizon == "game" else f":{horizon}")
        )
        self._fallback = GreedyBot(seed)
        #: iterations run at the last decision, and its tree (for reports and tests)
        self.last_iterations = 0
        self.last_root: _Node | None = None
        self._seat = 0
        self._known: list[list[int]] = []
        self._texts: dict[Any, str] = {}
        self._net: ValueNet | None = None
        self._maxn = False

    def choose(self, decision: Decision) -> str:
        options = decision.options
        self.last_iterations = 0
        if len(options) == 1:
            return options[0]
        try:
            det = Determinizer(decision.observation, reveal=decision.reveal, chosen=decision.chosen)
        except DeterminizeError:
            return self._fallback.choose(decision)
        me = decision.seat
        self._seat = me
        obs = decision.observation
        self._net = value_net(obs.players, obs.teams) if self.evaluation == "net" else None
        self._maxn = self._net is not None and obs.players == 3
        self._known = [k[:] if s != me else [0] * 6 for s, k in enumerate(det.known)]
        self._texts = {}
        root_hidden: tuple[str, int] | None = None
        if decision.chosen is not None and decision.reveal is not None:
            words = decision.chosen.split()
            root_hidden = (words[0], int(words[1]) if words[0] == "inquisition" else -1)
        root = _Node(me, root_hidden)
        allowed = set(options)
        rng = self.rng
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        limit = self.iterations
        done = 0
        while True:
            if limit is not None and done >= limit:
                break
            if deadline is not None and done and done % 8 == 0 and time.perf_counter() >= deadline:
                break
            self._iterate(root, det.sample(rng), allowed)
            done += 1
        self.last_iterations = done
        self.last_root = root
        most = max((ch.visits for ch in root.children.values()), default=0)
        floor = max(1, int(most * ROBUST_SHARE))
        best: str | None = None
        best_q = -1.0
        for key, child in root.children.items():
            text = self._texts.get(key) or _option_text(key)
            if text not in allowed or child.visits < floor:
                continue
            # a tiny price on effects, as the greedy bot's: end when nothing helps
            q = child.q
            if not isinstance(key, Move) or key.kind not in ("end", "play", "keep", "take"):
                q -= 1e-6
            if q > best_q:
                best, best_q = text, q
        if best is None:  # pragma: no cover - the root always has searched options
            return self._fallback.choose(decision)
        return best

    def _root_moves(
        self, keys: list[Any], moves: list[Move], allowed: set[str]
    ) -> tuple[list[Any], list[Move]]:
        """The root's moves that are among the decision's options."""
        texts = self._texts
        ks: list[Any] = []
        ms: list[Move] = []
        for k, m in zip(keys, moves, strict=True):
            t = texts.get(k)
            if t is None:
                t = texts[k] = _option_text(k)
            if t in allowed:
                ks.append(k)
                ms.append(m)
        return ks, ms

    def _iterate(self, root: _Node, g: GameState, allowed: set[str]) -> None:
        """One iteration: select and expand in the deal ``g``, value, back up."""
        rnd = self.rng.random
        c = self.exploration
        sqrt = math.sqrt
        log = math.log
        seat = self._seat
        node = root
        path: list[_Node] = []
        at_root = True
        own_turn = self.horizon == "turn"
        maxn = self._maxn
        widening = self.widening
        while g.phase != OVER:
            if own_turn and g.active != seat:
                break  # the searching seat's turn is over: value the position as it stands
            hidden = node.hidden
            moves = g._generate()
            keys: list[Any]
            if hidden is not None:
                moves = [m for m in moves if _matches(m, hidden)]
                keys = list(moves)
                if not at_root and moves:
                    # below the root, the cards kept after a reveal are the greedy keep
                    m = reveal_choice(g, hidden, moves)
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
            if at_root:
                keys, moves = self._root_moves(keys, moves, allowed)
                at_root = False
            if not keys:  # pragma: no cover - a deal always has the decision's options
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
            rival = maxn and mover != seat
            if (
                rival
                and untried
                and len(kmap) - len(untried) >= 1 + int(widening * sqrt(node.visits))
            ):
                untried = []  # the rival's node is as wide as its visits allow
            if untried:
                if rival and len(untried) > 1:
                    # a rival's reply is its own greedy move in this deal (max-n)
                    k = greedy_first(g, mover, untried)
                else:
                    k = untried[int(rnd() * len(untried))]
                child = _Node(mover, None if isinstance(k, Move) else k)
                child.avail = 1
                children[k] = child
                path.append(child)
                if child.hidden is not None:
                    node = child  # a '?' node: the full move is chosen in this deal
                    continue
                g.apply_unchecked(kmap[k])
                break
            best_v = -1.0
            best_k: Any = None
            for k in kmap:
                ch = children.get(k)
                if ch is None:
                    continue  # left out by the widening
                vis = ch.visits
                v = ch.q + c * sqrt(log(ch.avail) / vis)
                if v > best_v:
                    best_v, best_k = v, k
            node = children[best_k]
            path.append(node)
            if node.hidden is None:
                g.apply_unchecked(kmap[best_k])
        vals = values(g, seat, self._known, self._net)
        for nd in reversed(path):
            nd.visits += 1
            nd.total += vals[nd.mover]
            kids = nd.children
            if kids and nd.hidden is None and nd.mover == seat:
                first = next(iter(kids.values()))
                if first.mover == seat:
                    # the seat goes on choosing: the node is worth its best line
                    nd.q = max(k.q for k in kids.values())
                    continue
            nd.q = nd.total / nd.visits


def make_ismcts(arg: str | None, seed: int | None) -> ISMCTSBot:
    """The registry's factory: ``ismcts``, ``ismcts:2000it``, ``ismcts:1s``, ``ismcts:1000it:greedy``.

    The optional parts after the budget name the leaf evaluation
    (:data:`EVALUATIONS`) and the horizon (:data:`HORIZONS`), in any order.
    """
    budget, _, rest = (arg or "").partition(":")
    its, secs = parse_budget(budget or None)
    evaluation, horizon = "net", "game"
    for part in filter(None, (p.strip() for p in rest.split(":"))):
        if part in HORIZONS:
            horizon = part
        else:
            evaluation = part
    return ISMCTSBot(seed, iterations=its, seconds=secs, evaluation=evaluation, horizon=horizon)


__all__ = [
    "ISMCTSBot",
    "greedy_first",
    "local_view",
    "make_ismcts",
    "parse_budget",
    "reveal_choice",
    "values",
]
