"""``net`` and ``ismcts+net``: a learned policy-value network alone, or guiding the search.

``ismcts+net:<budget>`` is the information-set search of :mod:`civcards.bots.ismcts`
(one tree over the seat's information set, a fresh deal every iteration, the
game's search kit for the branches) with AlphaZero's selection and leaves:

* **Selection** is PUCT: a branch's score is ``Q + C_PUCT * P * sqrt(N) / (1 + n)``,
  ``P`` its prior (the network's policy for the seat choosing there, in the
  deal that first reached the node), ``N`` the node's visits, ``n`` and ``Q``
  the branch's visits and mean value (an unvisited branch is worth the node's
  own value to its mover: "first-play urgency"). A branch seen in a later deal
  that the prior did not cover gets the mean prior of the others.
* **Leaves** are valued by the network (the chance of the seat to move there,
  the rest shared by the others), in place of a playout; a finished game by
  its result; where the kit's tree stops before the game ends (civ4: the end
  of the seat's turn) by the network's value for the searching seat.
* **``kit``** (``ismcts+net:950it:kit``): the leaves are valued as the plain search
  values them (the game's kit: civ4's evaluation with its end-of-game rollout, CIV's
  playout), and the root's first-play urgency too; the network gives only the prior.
* **Branches and actions**: a branch is a whole move; its prior is the
  probability of its first action (:func:`civcards.bots.policy_net.action_for_text`),
  shared among branches that begin with the same action. Below a hidden step
  (CIV's Discovery) the kit's own pick is kept (below the root) and the
  branches at the root share a uniform prior.
* **The choice** is the most visited branch (``sample``: drawn in proportion to
  the visits, for self-play).

``net`` is the same bot with no iterations: one forward pass a decision, the
choice of highest prior (``net:sample`` draws it from the policy); below a step
(a Discovery's keep, civ4's payment for a purchase) it takes the kit's choice
(the greedy bot's). Both
read only their :class:`~civcards.bots.Decision`: the observation vector comes
from a deal of the seat's information set (``Game.determinizer``), which
shows the seat exactly what the seat sees.

Weights: ``net`` loads the game's shipped network (``weights/policy.npz`` next
to the game's module), or a file named after the budget (``net:FILE``,
``ismcts+net:200it:FILE``).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from ..game_api import Choice, Game, choice_path
from .base import Decision
from .infoset import InfoSetSearch, OptionValue
from .ismcts import parse_budget
from .policy_net import PolicyValueNet, action_for_text, action_names, shared_priors
from .search import Edge, SearchKit

#: PUCT's exploration constant
C_PUCT = 1.5
#: iterations of a plain ``ismcts+net``
DEFAULT_ITERATIONS = 200
#: the shipped network's file name, in the game's ``weights`` folder
WEIGHTS_NAME = "policy.npz"

_NETS: dict[tuple[str, float], PolicyValueNet] = {}


def shipped_weights(game: Game) -> Path:
    """Where ``game``'s shipped network is (it may not exist)."""
    mod = sys.modules.get(type(game).__module__)
    base = Path(mod.__file__).parent if mod is not None and mod.__file__ else Path(".")
    return base / "weights" / WEIGHTS_NAME


def has_network(game: Game) -> bool:
    """Whether ``game`` has an encoding and ships a network (``net`` is offered)."""
    get = getattr(game, "encoding", None)
    return get is not None and get() is not None and shipped_weights(game).is_file()


def load_network(game: Game, path: str | Path | None = None) -> PolicyValueNet:
    """``game``'s network (its shipped one, or the file ``path``), read once per file
    version; ValueError with a sentence where there is none."""
    p = Path(path) if path else shipped_weights(game)
    if not p.is_file():
        raise ValueError(
            f"no network for {game.title} at {p}: train one with 'civcards train --game {game.name}'"
        )
    key = (str(p.resolve()), p.stat().st_mtime)
    net = _NETS.get(key)
    if net is None:
        net = _NETS[key] = PolicyValueNet.load(p)
        enc = game.encoding()
        if (
            enc is None
            or net.obs_size != enc.observation_shape[0]
            or net.action_size != enc.action_size
        ):
            del _NETS[key]
            raise ValueError(f"{p} is a network for another game's encoding, not {game.title}'s")
    return net


class _Node:
    __slots__ = (
        "children",
        "cprior",
        "fpu",
        "hidden",
        "leaf",
        "mover",
        "prior",
        "probs",
        "total",
        "visits",
    )

    def __init__(self, mover: int, hidden: Hashable | None = None) -> None:
        self.mover = mover
        self.hidden = hidden
        self.children: dict[Hashable, _Node] = {}
        self.visits = 0
        self.total = 0.0
        #: the value to the seat choosing at this node (unvisited branches are worth it)
        self.fpu = 0.5
        #: the branches' priors, by key (worked out on the first visit)
        self.prior: dict[Hashable, float] | None = None
        #: the network's probabilities by action name, from the deal that reached the node
        self.probs: dict[str, float] | None = None
        #: where the node was a new leaf: the action table of the deal that reached it
        #: (that deal is not played on) and the network's trunk there, from which
        #: :attr:`probs` is worked out if the node is ever expanded (about half the leaves
        #: are not: their legal actions and policy are never computed)
        self.leaf: tuple[Any, Any] | None = None
        #: ``C_PUCT`` times each branch's prior, by key (with :attr:`prior`)
        self.cprior: dict[Hashable, float] = {}


class NetSearchBot(InfoSetSearch):
    """PUCT information-set search guided by a policy-value network (0 iterations: ``net``)."""

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        *,
        net: PolicyValueNet | None = None,
        weights: str | None = None,
        iterations: int | None = DEFAULT_ITERATIONS,
        seconds: float | None = None,
        c_puct: float = C_PUCT,
        sample: bool = False,
        kit: SearchKit | None = None,
        spell: bool | None = None,
        kit_values: bool = False,
    ) -> None:
        get = getattr(game, "encoding", None)
        enc = get() if get is not None else None
        if enc is None:
            raise ValueError(f"{game.title} has no action encoding, so no network plays it")
        loaded = net if net is not None else load_network(game, weights)
        super().__init__(game, seed, kit=kit, iterations=iterations, seconds=seconds)
        self.enc = enc
        self.net = loaded
        found = self.kit
        #: the kit's branches of a deal with each key once, and how many times its
        #: ``edges`` lists each (None: once), where the kit says so (CIV: a Discovery's
        #: moves are one branch, counted only where a prior or the fill needs it: they
        #: weigh a key by that count, as if listed)
        distinct = getattr(found, "distinct_edges", None)
        counts_of = getattr(found, "edge_counts", None)
        if distinct is None or counts_of is None:
            distinct, counts_of = found.edges, _once
        self._distinct: Callable[[Any], list[Edge]] = distinct
        self._counts: Callable[[Any, list[Edge]], list[int] | None] = counts_of
        #: the kit's pick below a hidden step without listing the step's edges, where it
        #: knows it (CIV: the greedy keep); else None and the edges are listed
        self._step_choice: Callable[[Any, Hashable], Edge | None] | None = getattr(
            found, "step_choice", None
        )
        self.c_puct = c_puct
        self.sample = sample
        #: value the leaves as the plain search does (the kit's ``values``: civ4's
        #: evaluation, CIV's playout), the network giving only the prior
        self.kit_values = kit_values
        #: ``net`` spells each whole move with the network, one pass a token (civ4's
        #: payments and card sets too), instead of choosing its first action only: by
        #: default where the network was trained to (its file's ``meta["spell"]``)
        self.spell = bool(loaded.meta.get("spell")) if spell is None else spell
        if self.spell and not getattr(enc, "spells_moves", False):
            raise ValueError(
                f"{game.title}'s moves are not spelled in tokens, so net cannot spell them "
                "('spell' is for civ4)"
            )
        if iterations == 0 and seconds is None:
            self.name = "net" + (":sample" if sample else "")
        else:
            self.name = f"ismcts+net:{self.budget_text()}" + (":kit" if kit_values else "")
        self._seat = 0
        #: the last searched decision, for training targets: the observation vector, the
        #: legal actions and the share of the visits (or the prior) of each
        self.last_obs: np.ndarray[Any, Any] | None = None
        self.last_target: dict[int, float] = {}
        #: where the training targets of every searched top-level decision go (self-play
        #: sets a list): (observation vector, {action: share})
        self.records: list[tuple[Any, dict[int, float]]] | None = None
        self.last_root: _Node | None = None
        #: a spelled move's passes (policy gradient's rows): the observation vector, the
        #: legal actions, the action taken and its log-probability
        self.last_steps: list[Spelled] = []

    # -- a decision -----------------------------------------------------------------

    def choose(self, decision: Decision) -> Choice:
        self.last_obs = None
        self.last_target = {}
        self.last_iterations = 0
        self.last_root = None
        if decision.chosen is None:
            # (kept below the move's steps: the rows of the whole move)
            self.last_steps = []
        planned = self.start(decision)
        if planned is not None:
            return planned
        chosen = decision.chosen
        kit = self.kit
        alone = self.iterations == 0 and self.seconds is None
        if alone and chosen is not None:
            # ``net`` below a step: the kit's own choice (the greedy keep, payment)
            return self.fallback(decision)
        sampler = self.deals(decision)
        if sampler is None:
            return self.fallback(decision)
        me = decision.seat
        if alone and self.spell:
            return self._spell(decision, sampler.sample(self.rng))
        if alone:
            return self._choose_alone(decision, sampler.sample(self.rng))
        self._seat = me
        rng = self.rng
        kit.begin(decision, sampler, rng)
        self.begin_root(decision)
        root = _Node(me, kit.step_key(chosen) if chosen is not None else None)
        # the root's priors, from one deal (every deal shows the seat the same vector)
        g0 = sampler.sample(rng)
        table = self.enc.table(g0)
        x = table.encode(me)
        legal = table.legal_actions()
        probs, value = self.net.evaluate(x, legal)
        names = action_names(table, legal)
        root.probs = {nm: float(probs[i]) for i, nm in enumerate(names)}
        # first-play urgency at the root: the network's value, or the kit's of another deal
        # (it may play the deal on) where the kit values the leaves
        root.fpu = kit.values(sampler.sample(rng), me)[me] if self.kit_values else value
        edges = self._edges(root, g0, True)
        if not edges:  # pragma: no cover - a deal always has the decision's options
            return self.fallback(decision)
        self._set_prior(root, edges, g0)
        self.spend(lambda: self._iterate(root, sampler.sample(rng)))
        self.last_root = root
        best = self._pick(root, edges, g0)
        self._record(root, x, names, legal, edges)
        if self.records is not None and chosen is None and self.last_obs is not None:
            self.records.append((self.last_obs, self.last_target))
        return self.answer(decision, best)

    def option_values(self) -> list[OptionValue]:
        """The options searched at the last decision, most visited first (as
        :meth:`civcards.bots.ismcts.ISMCTSBot.option_values`; empty for ``net``)."""
        root = self.last_root
        if root is None or not self.last_iterations:
            return []
        return self.options(
            (key, child.total / child.visits, child.visits)
            for key, child in root.children.items()
            if child.visits
        )

    def _choose_alone(self, decision: Decision, g: Any) -> Choice:
        """``net``: one forward pass; each choice's prior is its first action's probability;
        among the choices that begin with the chosen action, the kit's choice."""
        table = self.enc.table(g)
        legal = table.legal_actions()
        x = table.encode(decision.seat)
        probs, _ = self.net.evaluate(x, legal)
        names = action_names(table, legal)
        choices = decision.choices
        acts = [action_for_text(names, c.text) for c in choices]
        priors = shared_priors({a: float(probs[i]) for i, a in enumerate(legal)}, acts)
        self.last_obs = x
        self.last_target = {a: p for a, p in zip(legal, probs.tolist(), strict=True)}
        if self.sample:
            best = self.rng.choices(range(len(choices)), priors)[0]
        else:
            best = max(range(len(choices)), key=priors.__getitem__)
        if acts[best] is not None:
            # the choices that begin with the chosen action share its prior (civ4's
            # discards, collections, payments): the kit's own choice among them, as below
            # a step
            tied = {c.text for c, a in zip(choices, acts, strict=True) if a == acts[best]}
            if len(tied) > 1:
                pick = self.fallback(decision)
                if pick.text in tied:
                    return pick
        return choices[best]

    def _spell(self, decision: Decision, g: Any) -> Choice:
        """``net`` of a spelling network: the whole move, one forward pass a token of the
        encoding (each the most probable legal action, or drawn with ``sample``), then the
        decision's choice on the path to it, the steps below it the plan."""
        table = self.enc.table(g.copy())
        state = table.state
        done = len(state.moves)
        seat = decision.seat
        steps = self.last_steps
        while len(state.moves) == done:
            legal = table.legal_actions()
            x = np.array(table.encode(seat), np.float32)  # encode() may reuse its buffer
            probs, _ = self.net.evaluate(x, legal)
            p = probs.tolist()
            if self.sample:
                i = self.rng.choices(range(len(legal)), p)[0]
            else:
                i = max(range(len(legal)), key=p.__getitem__)
            steps.append(Spelled(x, legal, legal[i], math.log(max(p[i], 1e-12))))
            table.apply_unchecked(legal[i])
        move = state.moves[done]
        return self.follow(decision, [c.text for c in choice_path(self.game, g, move)])

    def _pick(self, root: _Node, edges: list[Edge], g0: Any) -> Hashable:
        prior = root.prior
        assert prior is not None
        if self.last_iterations == 0:
            if root.hidden is not None:
                picked = self.kit.step_pick(g0, root.hidden, edges)
                if picked is not None and picked[0] in prior:
                    return picked[0]
            keys = list(prior)
            weights = [prior[k] for k in keys]
        else:
            keys = [k for k in root.children if k in prior]
            weights = [float(root.children[k].visits) for k in keys]
            if not keys:  # pragma: no cover - an iteration always visits a root branch
                keys = list(prior)
                weights = [prior[k] for k in keys]
        if self.sample and sum(weights) > 0:
            return self.rng.choices(keys, weights)[0]
        best = max(range(len(keys)), key=lambda i: (weights[i], prior.get(keys[i], 0.0)))
        return keys[best]

    def _record(
        self, root: _Node, x: Any, names: dict[str, int], legal: list[int], edges: list[Edge]
    ) -> None:
        """The decision's training target: each action's share of the root's visits."""
        prior = root.prior
        assert prior is not None
        path = self.kit.path
        target: dict[int, float] = {}
        for k in prior:
            ch = root.children.get(k)
            w = float(ch.visits) if ch is not None and self.last_iterations else prior[k]
            a = action_for_text(names, path(k)[0])
            if a is not None and w > 0:
                target[a] = target.get(a, 0.0) + w
        total = sum(target.values())
        if total > 0:
            self.last_obs = x
            self.last_target = {a: w / total for a, w in target.items()}

    # -- the tree -------------------------------------------------------------------

    def _edges(self, node: _Node, g: Any, at_root: bool) -> list[Edge]:
        """The node's branches in ``g``, each key once; at the root, those of the
        decision's choices."""
        edges = (
            self.kit.step_edges(g, node.hidden) if node.hidden is not None else self._distinct(g)
        )
        return self.root_branches(edges) if at_root else edges

    def _set_prior(self, node: _Node, edges: list[Edge], g: Any) -> None:
        """The node's priors over ``edges``, branches of ``g`` as it is now."""
        self._prior(node, edges, self._counts(g, edges))
        prior = node.prior
        assert prior is not None
        c = self.c_puct
        node.cprior = {k: c * p for k, p in prior.items()}

    def _prior(self, node: _Node, edges: list[Edge], counts: list[int] | None) -> None:
        if node.leaf is not None:
            # the policy of the deal that made the node a leaf, worked out now
            table, h = node.leaf
            node.leaf = None
            node.probs = self._policy(table, h)
        probs_by_name = node.probs
        if node.hidden is not None or not probs_by_name:
            share = 1.0 / (len(edges) if counts is None else sum(counts))
            node.prior = {e[0]: share for e in edges}
            return
        path = self.kit.path
        index = {nm: i for i, nm in enumerate(probs_by_name)}
        plist = list(probs_by_name.values())
        acts = [action_for_text(index, path(e[0])[0]) for e in edges]
        # (a key the kit counts weighs as that many listed branches: ``copies``)
        shares = shared_priors(dict(enumerate(plist)), acts, counts)
        node.prior = {e[0]: p for e, p in zip(edges, shares, strict=True)}

    def _policy(self, table: Any, h: Any) -> dict[str, float]:
        """The network's probability of each legal action of ``table`` (by name), from
        its trunk's output ``h`` there."""
        legal = table.legal_actions()
        names = action_names(table, legal)
        probs = self.net.policy_of(h, legal).tolist()
        return {nm: probs[i] for i, nm in enumerate(names)}

    def _iterate(self, root: _Node, g: Any) -> None:
        kit = self.kit
        finished = kit.finished
        apply = kit.apply
        distinct = self._distinct
        counts_of = self._counts
        step_choice = self._step_choice
        c = self.c_puct
        node = root
        path: list[_Node] = [root]
        leaf_new: _Node | None = None
        # the root's branches (filtered to the decision's choices); below, the kit's
        edges = [] if finished(g) else self._edges(root, g, True)
        while edges:
            if node.prior is None:
                self._set_prior(node, edges, g)
            # PUCT: ``Q + C_PUCT * P * sqrt(N) / (1 + n)``, an unvisited branch worth ``fpu``
            # (the same floats in the same order as written out: the same choice)
            cprior = node.cprior.get
            child = node.children.get
            fpu = node.fpu
            # a branch with no prior: the uniform one over the branches as the kit lists
            # them (counted only where one is missing)
            cfill = -1.0
            sq = math.sqrt(node.visits + 1)
            best_v = -1e9
            best_k, best_a = edges[0]
            for k, a in edges:
                cp = cprior(k)
                if cp is None:
                    if cfill < 0.0:
                        counts = counts_of(g, edges)
                        cfill = c * (1.0 / (len(edges) if counts is None else sum(counts)))
                    cp = cfill
                ch = child(k)
                if ch is None or not ch.visits:
                    v = fpu + cp * sq
                else:
                    nv = ch.visits
                    v = ch.total / nv + cp * sq / (1 + nv)
                if v > best_v:
                    best_v, best_k, best_a = v, k, a
            ch = child(best_k)
            if ch is None:
                ch = node.children[best_k] = _Node(kit.mover(g), best_k if best_a is None else None)
                leaf_new = ch
            path.append(ch)
            node = ch
            if best_a is not None:
                apply(g, best_a)
            if leaf_new is not None or finished(g):
                # a new leaf (a new hidden step: the position before it), or the tree's end
                break
            # the next node's branches; below a hidden step, the kit's pick if it makes one
            while True:
                hidden = node.hidden
                if hidden is None:
                    edges = distinct(g)
                    break
                picked = step_choice(g, hidden) if step_choice is not None else None
                if picked is None:
                    edges = kit.step_edges(g, hidden)
                    picked = kit.step_pick(g, hidden, edges) if edges else None
                    if picked is None:
                        break
                pk, pact = picked
                ch = node.children.get(pk)
                if ch is None:
                    ch = node.children[pk] = _Node(kit.mover(g))
                    leaf_new = ch
                path.append(ch)
                node = ch
                apply(g, pact)
                if leaf_new is not None or finished(g):
                    edges = []
                    break
        vals = self._values(g, leaf_new)
        for nd in path:
            nd.visits += 1
            nd.total += vals[nd.mover]

    def _values(self, g: Any, leaf: _Node | None) -> list[float]:
        """Every seat's value of ``g``; the new ``leaf`` gets the network's policy there
        (worked out if it is ever expanded: :meth:`_prior`)."""
        kit = self.kit
        table = self.enc.table(g)
        seat = self._seat
        if table.finished:
            return kit.values(g, seat)
        n = int(g.n)
        net = self.net
        if self.kit_values:
            if leaf is not None and leaf.hidden is None and not kit.finished(g):
                # the prior, worked out now (the kit's values may play ``g`` on, and the
                # table reads it); the value is the kit's (first-play urgency: its value to
                # the leaf's mover)
                mover = kit.mover(g)
                leaf.probs = self._policy(table, net.trunk(table.encode(mover)))
                vals = kit.values(g, seat)
                leaf.fpu = vals[mover]
                return vals
            return kit.values(g, seat)
        if kit.finished(g):
            v = net.value(table.encode(seat))
            mover = seat
        else:
            mover = kit.mover(g)
            h = net.trunk(table.encode(mover))
            v = net.value_of(h)
            if leaf is not None and leaf.hidden is None:
                leaf.leaf = (table, h)
                leaf.fpu = v
        rest = (1.0 - v) / (n - 1) if n > 1 else 0.0
        return [v if s == mover else rest for s in range(n)]


class Spelled(NamedTuple):
    """One pass of a spelled move: the observation vector, the legal actions, the action
    taken, its log-probability."""

    x: Any
    legal: list[int]
    action: int
    logp: float


def _once(g: Any, edges: list[Edge]) -> None:
    """Each branch of a kit without ``edge_counts`` counts once (its ``edges`` lists a
    key as often as it weighs)."""
    return None


class NetworkArgs(NamedTuple):
    """The options after a network bot's budget (:func:`network_args`)."""

    #: draw each move from the network's probabilities (``sample``)
    sample: bool
    #: the weights file named, if any
    weights: str | None
    #: ``spell``: spell whole moves; ``first``: the first action only; None: as the
    #: network's file says
    spell: bool | None
    #: ``kit``: ``ismcts+net`` values its leaves as the plain search does (the game's kit)
    #: and keeps the network for its prior
    kit_values: bool = False


def network_args(parts: str | None) -> NetworkArgs:
    """The options after a network bot's budget, ``:``-separated: whether it samples its
    moves (``sample``), whether ``net`` spells whole moves (``spell``) or chooses their
    first action (``first``), whether ``ismcts+net`` values its leaves with the game's
    kit (``kit``), and the weights file it names, if any (``net:sample:FILE``).

    >>> network_args("sample:run/policy.npz")
    NetworkArgs(sample=True, weights='run/policy.npz', spell=None, kit_values=False)
    >>> network_args("spell")
    NetworkArgs(sample=False, weights=None, spell=True, kit_values=False)
    >>> network_args("kit").kit_values
    True
    """
    sample = False
    spell: bool | None = None
    kit_values = False
    weights: str | None = None
    for part in filter(None, (p.strip() for p in (parts or "").split(":"))):
        if part == "sample":
            sample = True
        elif part in ("spell", "first"):
            spell = part == "spell"
        elif part == "kit":
            kit_values = True
        else:
            weights = part
    return NetworkArgs(sample, weights, spell, kit_values)


def names_weights_file(name: str, arg: str | None) -> bool:
    """Whether the bot ``name:arg`` (``net`` or ``ismcts+net``) names a weights file of its
    own instead of the game's shipped network (the web table refuses those)."""
    rest = arg or ""
    if name == "ismcts+net":
        rest = rest.partition(":")[2]
    return network_args(rest).weights is not None


def make_net(game: Game, arg: str | None, seed: int | None) -> NetSearchBot:
    """The factory of ``net`` (``net:sample``, ``net:spell``, ``net:FILE``)."""
    args = network_args(arg)
    if args.kit_values:
        raise ValueError("net plays without a search, so it has no leaves: 'kit' is for ismcts+net")
    return NetSearchBot(
        game, seed, weights=args.weights, iterations=0, sample=args.sample, spell=args.spell
    )


def make_net_search(game: Game, arg: str | None, seed: int | None) -> NetSearchBot:
    """The factory of ``ismcts+net``, ``ismcts+net:400it``, ``ismcts+net:1s:FILE``."""
    budget, _, rest = (arg or "").partition(":")
    its, secs = parse_budget(budget or f"{DEFAULT_ITERATIONS}it")
    args = network_args(rest)
    if args.spell is not None:
        raise ValueError(
            "ismcts+net reads the network's first action of each move: "
            "'spell' and 'first' are options of net"
        )
    return NetSearchBot(
        game,
        seed,
        weights=args.weights,
        iterations=its,
        seconds=secs,
        sample=args.sample,
        kit_values=args.kit_values,
    )


__all__ = [
    "C_PUCT",
    "DEFAULT_ITERATIONS",
    "NetSearchBot",
    "NetworkArgs",
    "Spelled",
    "has_network",
    "load_network",
    "make_net",
    "make_net_search",
    "names_weights_file",
    "network_args",
    "shipped_weights",
]
