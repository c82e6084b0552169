"""CIV's search kit: what the generic ``ismcts`` (:mod:`civcards.bots.ismcts`) uses of CIV.

* **Moves** come straight from the engine (``GameState.raw_moves``), without
  their text; a Discovery (while the deck has cards) and an Inquisition are
  one hidden branch each, keyed ``("discovery", -1)`` and ``("inquisition",
  target)``, as the seat chooses them at the table.
* **Below the root** the cards kept after a Discovery or Inquisition are the
  greedy keep (:func:`reveal_choice`).
* **Values** (:func:`values`): a finished game is worth 1 to its winners
  (shared), 0 to the others. Any other leaf is valued by the searching seat's
  chance of winning as the learned value network for the player count says
  (:mod:`civcards.games.carta.value`); where no network ships (the team game)
  or with ``ismcts:1000it:greedy``, by the greedy evaluation
  (:func:`civcards.games.carta.greedy.evaluate`) squashed into (0, 1). With
  two and four players the values are *paranoid* (team-mates share the seat's
  value, every opponent gets the rest); with three players and a network every
  seat is valued by its own chance, the chances scaled to add up to 1
  (*max-n*), and rivals are modelled as playing their greedy move
  (:func:`greedy_first`) — measured much stronger (docs/bots.md).
* **The draft** (R8) is not determinized: the greedy bot chooses there.
"""

from __future__ import annotations

from collections.abc import Hashable
from operator import itemgetter
from typing import Any, cast

from ...bots.base import Decision
from ...bots.search import Edge, SearchKit
from ...carta.cards import counts_to_str
from ...carta.game import FOLDED_DISCOVERY, FOLDED_INQUISITION, OVER, GameState
from ...carta.moves import Move, format_move
from ...carta.observation import SECRET_MARK
from ...game_api import Choice
from .greedy import EFFECT_COST, GreedyBot, best_keep, evaluate, score_move
from .leaf import TEMPERATURE, local_view, values
from .value import ValueNet, value_net

#: how leaves are valued: the learned network (where one ships for the player
#: count, else the greedy evaluation) or always the greedy evaluation
EVALUATIONS = ("net", "greedy")
#: moves that are not effects (no price on them in the final choice)
_FREE = ("end", "play", "keep", "take")
_DISCOVERY = ("discovery", -1)
#: a move's card list (C speed: a stand-in of folded_moves names its cards "?")
_CARDS = itemgetter(Move._fields.index("cards"))


def greedy_first(g: GameState, mover: int, keys: list[Any]) -> Any:
    """The tree key among ``keys`` whose move the greedy evaluation ranks first for ``mover``.

    ``g`` is the state the search dealt; a hidden key (Discovery, Inquisition) is
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
    want = _reveal_keep(g, hidden)[0]
    for m in moves:
        if m == want:
            return m
    return moves[0]  # pragma: no cover - the greedy keep is always a legal move


def _reveal_keep(g: GameState, hidden: tuple[str, int]) -> tuple[Move, bool]:
    """The move of the greedy keep after the reveal, and whether it is one of the step's
    moves (the cards it names are as many as the step names, all from the pool)."""
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
    mine = best_keep(local_view(g, me), pool, sum(hand))
    names = [pool[d] - mine[d] for d in range(6)]
    legal = min(names) >= 0 and sum(mine) == sum(hand)
    return Move(hidden[0], hidden[1], counts_to_str(names)), legal


class CartaSearchKit(SearchKit):
    """CIV's kit; see the module's documentation."""

    evaluations = EVALUATIONS

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.maxn = False
        self._known: list[list[int]] = []
        self._net: ValueNet | None = None
        self._greedy: GreedyBot | None = None
        self._texts: dict[Hashable, tuple[str, ...]] = {}

    def begin(self, decision: Decision, sampler: Any, rng: Any) -> None:
        super().begin(decision, sampler, rng)
        obs = decision.observation
        me = decision.seat
        self._net = value_net(obs.players, obs.teams) if self.evaluation == "net" else None
        self.maxn = self._net is not None and obs.players == 3
        self.model_rivals = self.maxn
        det = sampler.det
        self._known = [k[:] if s != me else [0] * 6 for s, k in enumerate(det.known)]
        self._texts = {}

    def step_key(self, step: Choice) -> Hashable:
        words = step.text.split()
        return (words[0], int(words[1]) if words[0] == "inquisition" else -1)

    def path(self, key: Hashable) -> tuple[str, ...]:
        t = self._texts.get(key)
        if t is None:
            if isinstance(key, Move):
                t = (format_move(key),)
            else:
                kind, seat = cast(tuple[str, int], key)
                t = (
                    f"discovery discard {SECRET_MARK}"
                    if kind == "discovery"
                    else f"inquisition {seat} give {SECRET_MARK}",
                )
            self._texts[key] = t
        return t

    def price(self, key: Hashable) -> float:
        # a tiny price on effects, as the greedy bot's: end when nothing helps
        if isinstance(key, Move) and key.kind in _FREE:
            return 0.0
        return 1e-6

    def fallback(self, decision: Decision, seed: int | None) -> Choice:
        if self._greedy is None:
            self._greedy = GreedyBot(seed)
        return self._greedy.choose(decision)

    def finished(self, g: GameState) -> bool:
        return g.phase == OVER

    def mover(self, g: GameState) -> int:
        return g.active

    def edges(self, g: GameState) -> list[Edge]:
        out: list[Edge] = []
        deck = bool(g.deck)
        for m in g.raw_moves():
            k = m.kind
            if k == "discovery" and deck:
                out.append((_DISCOVERY, None))
            elif k == "inquisition" and m.cards:
                out.append((("inquisition", m.seat), None))
            else:
                out.append((m, m))
        return out

    def distinct_edges(self, g: GameState) -> list[Edge]:
        """:meth:`edges` with each key once, where it first comes: a Discovery's or an
        Inquisition's moves, one hidden branch, are not listed (:meth:`edge_counts`
        counts them; ``ismcts+net`` weighs the branches as :meth:`edges` lists them)."""
        moves = g.folded_moves()
        out: list[Edge] = [(m, m) for m in moves]
        if SECRET_MARK in list(map(_CARDS, moves)):
            for i, m in enumerate(moves):
                if m.cards == SECRET_MARK:
                    key = _DISCOVERY if m.kind == "discovery" else ("inquisition", m.seat)
                    out[i] = (key, None)
        return out

    def edge_counts(self, g: GameState, edges: list[Edge]) -> list[int] | None:
        """How many times :meth:`edges` lists each of ``edges`` (branches of
        :meth:`distinct_edges` or :meth:`step_edges` of ``g`` as it is now); None: once."""
        counts: list[int] | None = None
        for i, (key, act) in enumerate(edges):
            if act is None:
                if counts is None:
                    counts = [1] * len(edges)
                kind, seat = cast(tuple[str, int], key)
                stand_in = FOLDED_DISCOVERY if kind == "discovery" else FOLDED_INQUISITION[seat]
                counts[i] = g.folded_count(stand_in)
        return counts

    def step_edges(self, g: GameState, key: Hashable) -> list[Edge]:
        kind, seat = cast(tuple[str, int], key)
        # the moves of raw_moves of that kind (and target), in the same order
        return [(m, m) for m in g.step_moves(kind, seat)]

    apply = staticmethod(GameState.apply_unchecked)  # type: ignore[assignment]

    def rival_pick(
        self, g: GameState, mover: int, keys: list[Hashable], acts: dict[Hashable, Any]
    ) -> Hashable:
        return greedy_first(g, mover, keys)  # type: ignore[no-any-return]

    def step_pick(self, g: GameState, key: Hashable, edges: list[Edge]) -> Edge | None:
        m = reveal_choice(g, key, [e[1] for e in edges])  # type: ignore[arg-type]
        return (m, m)

    def step_choice(self, g: GameState, key: Hashable) -> Edge | None:
        """:meth:`step_pick` of the step's edges, known without listing them (None: list
        them and ask :meth:`step_pick`): the greedy keep, where it is one of them."""
        m, legal = _reveal_keep(g, key)  # type: ignore[arg-type]
        return (m, m) if legal else None

    def values(self, g: GameState, seat: int) -> list[float]:
        return values(g, seat, self._known, self._net)

    @staticmethod
    def value_trainer() -> Any:
        """What ``civcards train-value`` trains: :mod:`civcards.games.carta.value_fit`."""
        from . import value_fit

        return value_fit


def search_kit(game: Any) -> CartaSearchKit:
    """A fresh kit (one per bot: it keeps the bot's greedy fallback)."""
    return CartaSearchKit(game)


__all__ = [
    "EVALUATIONS",
    "TEMPERATURE",
    "CartaSearchKit",
    "greedy_first",
    "local_view",
    "reveal_choice",
    "search_kit",
    "values",
]
