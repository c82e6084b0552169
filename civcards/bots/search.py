"""What the information-set search (:mod:`civcards.bots.ismcts`) needs of a game.

The search itself is generic; a game tunes it with a *search kit*
(:class:`SearchKit`). :func:`search_kit` finds a game's kit:

* the game's own, from :meth:`civcards.game_api.Game.search_kit` (CIV's:
  :mod:`civcards.games.carta.search`: its moves generated without their text,
  the greedy policy as the model of rivals, the value network at the leaves);
* else :class:`GenericKit`, built on the game interface alone, where the game
  offers a :meth:`~civcards.game_api.Game.determinizer`: it walks the game's
  choices (a factored step is flattened into its full moves, a hidden step is
  one branch until a deal shows what is under it) and values a leaf by a
  random playout to the end.

A *key* is what a branch of the tree is called (hashable, compared within one
decision only); an *act* is what :meth:`SearchKit.apply` applies, or None
for a hidden step (its moves are below it: :meth:`SearchKit.step_edges`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable
from typing import Any

from ..game_api import Choice, Game, default_options
from .base import Decision

Edge = tuple[Hashable, Any]


class SearchKit:
    """The generic kit: the game interface only (choices, expand, apply_choice, result).

    A game's own kit subclasses it and overrides what it does better; every
    method below is called by the search, most of them at every node.
    """

    #: the leaf evaluations this kit offers (``ismcts:1000it:NAME``); the first is the default
    evaluations: tuple[str, ...] = ("playout",)

    def __init__(self, game: Game) -> None:
        self.game = game
        self.seat = 0
        self.evaluation = self.evaluations[0]
        #: each seat valued by its own chance (max-n); else the searching seat against the rest
        self.maxn = True
        #: rivals are modelled (:meth:`rival_pick`) and searched along that model only
        self.model_rivals = False
        self._paths: dict[Hashable, tuple[str, ...]] = {}
        self._rng = random.Random(0)

    # -- per decision ---------------------------------------------------------------

    def begin(self, decision: Decision, sampler: Any, rng: random.Random) -> None:
        """Set up for one decision of ``decision.seat`` (its deals come from ``sampler``)."""
        self.seat = decision.seat
        self._paths = {}
        self._rng = rng

    def step_key(self, step: Choice) -> Hashable:
        """The key of the hidden step ``step`` that a decision was asked below."""
        return step

    def path(self, key: Hashable) -> tuple[str, ...]:
        """The choices' texts that lead from the decision's choices to ``key``'s move."""
        p = self._paths.get(key)
        if p is None:
            p = (key.text,) if isinstance(key, Choice) else (str(key),)
        return p

    def price(self, key: Hashable) -> float:
        """A tiny price the final pick pays for ``key`` (CIV: on effects, so that it ends
        its turn when nothing helps)."""
        return 0.0

    def fallback(self, decision: Decision, seed: int | None) -> Choice:
        """The choice where the game offers no deal to search (a random one here)."""
        return self._rng.choice(decision.choices)

    # -- the tree ----------------------------------------------------------------------

    def finished(self, g: Any) -> bool:
        return bool(g.finished)

    def mover(self, g: Any) -> int:
        seat: int = g.to_move
        return seat

    def edges(self, g: Any) -> list[Edge]:
        """The branches at ``g``: (key, act), act None for a hidden step."""
        return self._flatten(g, self.game.choices(g), ())

    def step_edges(self, g: Any, key: Hashable) -> list[Edge]:
        """The moves below the hidden step ``key`` in the deal ``g``."""
        assert isinstance(key, Choice)
        prefix = self._paths.get(key, (key.text,))
        return self._flatten(g, self.game.expand(g, key).choices, prefix)

    def _flatten(self, g: Any, choices: list[Choice], prefix: tuple[str, ...]) -> list[Edge]:
        out: list[Edge] = []
        paths = self._paths
        for c in choices:
            path = (*prefix, c.text)
            if c.final:
                key: Hashable = c.text
                out.append((key, c))
            elif c.hidden:
                key = c
                out.append((key, None))
            else:
                out.extend(self._flatten(g, self.game.expand(g, c).choices, path))
                continue
            if key not in paths:
                paths[key] = path
        return out

    def apply(self, g: Any, act: Any) -> None:
        self.game.apply_choice(g, act)

    def rival_pick(
        self, g: Any, mover: int, keys: list[Hashable], acts: dict[Hashable, Any]
    ) -> Hashable:
        """The branch a rival is modelled to take (only when :attr:`model_rivals`)."""
        return keys[0]

    def step_pick(self, g: Any, key: Hashable, edges: list[Edge]) -> Edge | None:
        """Below the root, the move taken under the hidden step ``key`` in this deal,
        or None to search them like any other node."""
        return None

    # -- values ------------------------------------------------------------------------

    def values(self, g: Any, seat: int) -> list[float]:
        """The value of ``g`` to every seat, in [0, 1]: a random playout's result here."""
        game = self.game
        rnd = self._rng
        steps = 0
        while not g.finished and steps < 10_000:
            c = rnd.choice(game.choices(g))
            while not c.final:
                c = rnd.choice(game.expand(g, c).choices)
            game.apply_choice(g, c)
            steps += 1
        res = game.result(g)
        n = g.n
        if res is None or not res.winners:
            return [1.0 / n] * n
        share = 1.0 / len(res.winners)
        return [share if s in res.winners else 0.0 for s in range(n)]


#: kept name for the kit built from the interface alone
GenericKit = SearchKit

#: id(game) -> (game, whether it can be searched); the game is kept, so its id stays its own
_SEARCHABLE: dict[int, tuple[Game, bool]] = {}


def _offers_determinizer(game: Game) -> bool:
    """Whether ``game`` deals states for a seat's search (probed once on a new game)."""
    hook = getattr(game, "determinizer", None)
    if hook is None:
        return False
    try:
        players = game.min_players
        state = game.new_state(
            players, game.check_options(players, default_options(game, players)), 0
        )
        seat = state.to_move
        if seat is None:
            return False
        return hook(game.observe(state, seat)) is not None
    except Exception:  # a game whose probe fails offers no search
        return False


def search_kit(game: Game) -> SearchKit | None:
    """A fresh search kit for ``game``, or None where it cannot be searched."""
    hook = getattr(game, "search_kit", None)
    if hook is not None:
        kit = hook()
        if kit is not None:
            return kit  # type: ignore[no-any-return]
    if searchable(game):
        return SearchKit(game)
    return None


def searchable(game: Game) -> bool:
    """Whether ``ismcts`` can play ``game``."""
    entry = _SEARCHABLE.get(id(game))
    if entry is None or entry[0] is not game:
        hook = getattr(game, "search_kit", None)
        known = (hook is not None and hook() is not None) or _offers_determinizer(game)
        entry = _SEARCHABLE[id(game)] = (game, known)
    return entry[1]


def squash(x: float) -> float:
    """The logistic function, clipped: a score to a chance in (0, 1)."""
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x))))


__all__ = ["Edge", "GenericKit", "SearchKit", "search_kit", "searchable", "squash"]
