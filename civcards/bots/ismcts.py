"""``ismcts``: information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012),
for any game that can deal a seat's information set.

The bot searches one tree over its *information set* (single-observer
ISMCTS): each iteration deals the hidden information afresh from what its seat
knows (:meth:`civcards.game_api.Game.determinizer`, built from the observation
alone), walks the tree down the moves that are legal in that deal (UCB1 with
availability counts), adds one node, values the position reached and backs
the value up.

The search is generic; what is game-specific comes from the game's *search
kit* (:mod:`civcards.bots.search`): how a position's moves are listed, how a
leaf is valued, how rivals are modelled. A game without a kit of its own is
searched through the game interface, its leaves valued by random playouts.
CIV's kit (:mod:`civcards.games.carta.search`) values leaves with its learned
value network (or its greedy evaluation) and models rivals by its greedy bot.

* **Budget**: ``ismcts:2000it`` (iterations) or ``ismcts:1s`` / ``ismcts:250ms``
  (wall-clock time); plain ``ismcts`` is ``ismcts:1000it``. A decision with a
  single choice costs nothing. More parts after the budget name the kit's leaf
  evaluation (CIV: ``net``, ``greedy``) and the horizon (``game``, ``turn``).
* **Hidden steps** (CIV's Discovery and Inquisition) are one node, as at the
  table, so no seat chooses among cards it has not seen. Below the root the
  kit may pick the move under a hidden step (CIV: the greedy keep); at the
  root, once the bot has seen what the step revealed, every move is searched.
* **Factored steps** (a choice that only names a step, such as a purchase
  before its payment) are flattened: the tree holds whole moves, and below a
  step the bot follows the move it chose.
* **Values**: every seat's value of a leaf, in [0, 1]. A kit says whether the
  values are *max-n* (each seat for itself) or *paranoid* (the searching seat,
  and its team-mates, against the rest), and whether rivals are modelled: a
  modelled rival's node is expanded along the move the kit's model prefers in
  the deal at hand, and no other reply is added while one in the tree is legal
  (``widening`` opens it as it is visited).
* **Horizon**: ``:turn`` grows the tree only through the seat's own turn and
  values the position after it.
* **One turn, many moves**: while the same seat goes on choosing, a node is
  worth the best of its children, not their mean.
* **The choice** is the option of highest value among those searched at least
  a fifth as often as the most searched one (less the kit's tiny price on it).
* Where the game deals nothing to search (CIV's draft), the kit's fallback
  chooses (CIV: the greedy bot).

The bot reads only its :class:`~civcards.bots.Decision`; its random numbers
come from its own seeded generator, so with an iteration budget it is
deterministic given its seed (a time budget depends on the machine's speed).
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any

from ..game_api import Choice, Game
from .base import Decision
from .infoset import InfoSetSearch, OptionValue
from .search import Edge, SearchKit

#: iterations of a plain ``ismcts``
DEFAULT_ITERATIONS = 1000
#: the exploration constant of UCB1 (values lie in [0, 1])
EXPLORATION = 0.5
#: how far the tree grows: through every seat's turns ("game"), or only through the
#: searching seat's own turn, the position after it valued as it stands ("turn")
HORIZONS = ("game", "turn")
#: the final choice considers options searched at least this share of the most searched
ROBUST_SHARE = 0.2
#: progressive widening of a modelled rival's node: it may have ``1 + int(WIDENING *
#: sqrt(visits))`` children legal in the current deal, added in the model's order.
#: 0 models each rival as playing the kit's move; CIV measured 0.5 no stronger than
#: full width (docs/bots.md)
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

    def __init__(self, mover: int, hidden: Hashable | None = None) -> None:
        #: the seat that chose the move leading here
        self.mover = mover
        #: for a hidden step's node: its key (the moves below it depend on the deal)
        self.hidden = hidden
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        #: the node's value to its mover (see the module's documentation)
        self.q = 0.0


class ISMCTSBot(InfoSetSearch):
    """Single-observer ISMCTS over the seat's information set; see the module's documentation."""

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        *,
        kit: SearchKit | None = None,
        iterations: int | None = DEFAULT_ITERATIONS,
        seconds: float | None = None,
        exploration: float = EXPLORATION,
        evaluation: str | None = None,
        horizon: str = "game",
        widening: float = WIDENING,
    ) -> None:
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        super().__init__(game, seed, kit=kit, iterations=iterations, seconds=seconds)
        if not widening >= 0:
            raise ValueError(f"ismcts widening {widening!r} must be 0 or more")
        self.widening = widening
        self.exploration = exploration
        evaluations = self.kit.evaluations
        if evaluation is None:
            evaluation = evaluations[0]
        if evaluation not in evaluations:
            raise ValueError(
                f"ismcts evaluation {evaluation!r} is not one of: {', '.join(evaluations)}"
            )
        self.evaluation = evaluation
        self.kit.evaluation = evaluation
        if horizon not in HORIZONS:
            raise ValueError(f"ismcts horizon {horizon!r} is not one of: {', '.join(HORIZONS)}")
        self.horizon = horizon
        self.name = (
            f"ismcts:{self.budget_text()}"
            + ("" if evaluation == evaluations[0] else f":{evaluation}")
            + ("" if horizon == "game" else f":{horizon}")
        )
        #: the last decision's tree (for reports and tests)
        self.last_root: _Node | None = None
        self._seat = 0
        #: id of a list of the root's branches -> (that list, its branches kept by _root_edges)
        self._root_seen: dict[int, tuple[list[Edge], list[Edge]]] = {}

    def choose(self, decision: Decision) -> Choice:
        self.last_iterations = 0
        planned = self.start(decision)
        if planned is not None:
            return planned
        chosen = decision.chosen
        kit = self.kit
        sampler = self.deals(decision)
        if sampler is None:
            return self.fallback(decision)
        me = decision.seat
        self._seat = me
        kit.begin(decision, sampler, self.rng)
        self.begin_root(decision)
        self._root_seen = {}
        root = _Node(me, kit.step_key(chosen) if chosen is not None else None)
        rng = self.rng
        # (at least one iteration: the root must have a searched option)
        self.spend(lambda: self._iterate(root, sampler.sample(rng)), least=1)
        self.last_root = root
        self._root_seen = {}
        most = max((ch.visits for ch in root.children.values()), default=0)
        floor = max(1, int(most * ROBUST_SHARE))
        best: Hashable = None
        best_q = -1.0
        root_choice = self.root_choice
        for key, child in root.children.items():
            if root_choice(key) is None or child.visits < floor:
                continue
            q = child.q - kit.price(key)
            if q > best_q:
                best, best_q = key, q
        if best is None:  # pragma: no cover - the root always has searched options
            return self.fallback(decision)
        return self.answer(decision, best)

    def option_values(self) -> list[OptionValue]:
        """The options searched at the last decision, most visited first: each branch of
        the root with the move it stands for, the decision's choice it is below, its
        value to the searching seat (in [0, 1]) and its visits. Empty where the last
        decision was not searched (a single choice, the kit's fallback)."""
        root = self.last_root
        if root is None or not self.last_iterations:
            return []
        return self.options((key, child.q, child.visits) for key, child in root.children.items())

    def _root_edges(self, edges: list[Edge]) -> list[Edge]:
        """The root's branches that lead to one of the decision's choices (worked out once
        per list of branches: a kit that caches its branches hands the same list again)."""
        seen = self._root_seen.get(id(edges))
        if seen is not None and seen[0] is edges:
            return seen[1]
        out = self.root_branches(edges)
        # the list is kept with its filtered copy, so its id stays its own during the decision
        self._root_seen[id(edges)] = (edges, out)
        return out

    def _iterate(self, root: _Node, g: Any) -> None:
        """One iteration: select and expand in the deal ``g``, value, back up."""
        kit = self.kit
        rnd = self.rng.random
        c = self.exploration
        sqrt = math.sqrt
        log = math.log
        seat = self._seat
        finished = kit.finished
        mover_of = kit.mover
        edges_of = kit.edges
        apply = kit.apply
        node = root
        path: list[_Node] = []
        at_root = True
        own_turn = self.horizon == "turn"
        model = kit.model_rivals
        widening = self.widening
        while not finished(g):
            if own_turn and mover_of(g) != seat:
                break  # the searching seat's turn is over: value the position as it stands
            hidden = node.hidden
            edges: list[Edge]
            if hidden is not None:
                edges = kit.step_edges(g, hidden)
                if not at_root and edges:
                    picked = kit.step_pick(g, hidden, edges)
                    if picked is not None:
                        # below the root, the kit picks the move under a hidden step
                        pk, pact = picked
                        ch = node.children.get(pk)
                        if ch is None:
                            ch = node.children[pk] = _Node(mover_of(g))
                        ch.avail += 1
                        path.append(ch)
                        node = ch
                        apply(g, pact)
                        continue
            else:
                edges = edges_of(g)
            if at_root:
                edges = self._root_edges(edges)
                at_root = False
            if not edges:  # pragma: no cover - a deal always has the decision's options
                break
            children = node.children
            kmap = dict(edges)
            untried = []
            for k in kmap:
                ch = children.get(k)
                if ch is None:
                    untried.append(k)
                else:
                    ch.avail += 1
            mover = mover_of(g)
            rival = model and mover != seat
            if (
                rival
                and untried
                and len(kmap) - len(untried) >= 1 + int(widening * sqrt(node.visits))
            ):
                untried = []  # the rival's node is as wide as its visits allow
            if untried:
                if rival and len(untried) > 1:
                    # a modelled rival's reply is the kit's move in this deal
                    k = kit.rival_pick(g, mover, untried, kmap)
                else:
                    k = untried[int(rnd() * len(untried))]
                act = kmap[k]
                child = _Node(mover, k if act is None else None)
                child.avail = 1
                children[k] = child
                path.append(child)
                if act is None:
                    node = child  # a hidden step: its move is chosen in this deal
                    continue
                apply(g, act)
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
                apply(g, kmap[best_k])
        vals = kit.values(g, seat)
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


def make_ismcts(game: Game, arg: str | None, seed: int | None) -> ISMCTSBot:
    """The factory of ``ismcts``, ``ismcts:2000it``, ``ismcts:1s``, ``ismcts:1000it:greedy``.

    The optional parts after the budget name the leaf evaluation (the game's
    kit lists them) and the horizon (:data:`HORIZONS`), in any order.
    """
    budget, _, rest = (arg or "").partition(":")
    its, secs = parse_budget(budget or None)
    evaluation: str | None = None
    horizon = "game"
    for part in filter(None, (p.strip() for p in rest.split(":"))):
        if part in HORIZONS:
            horizon = part
        else:
            evaluation = part
    return ISMCTSBot(
        game, seed, iterations=its, seconds=secs, evaluation=evaluation, horizon=horizon
    )


__all__ = ["HORIZONS", "ISMCTSBot", "OptionValue", "make_ismcts", "parse_budget"]
