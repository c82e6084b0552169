"""The rules engine: the state of a game, its legal moves and how they apply.

>>> g = new_game(players=2, seed=7)
>>> g.phase, g.to_move in (0, 1), g.deck_size
('play', True, 89)
>>> m = g.legal_moves()[0]
>>> g.apply(m)
>>> g.phase
'effects'

Hands and play areas are six counts per domain (see :mod:`civcards.carta.cards`);
the deck keeps its letters, top card last in :attr:`GameState.deck`.

The engine's rooms: :mod:`.state` (the data and its views), :mod:`.legal` (the
legal moves), :mod:`.execute` (how a move applies), :mod:`.setup` (the deck and
the deal); :class:`GameState` joins them, its methods their public functions.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from .execute import apply, apply_unchecked, majority_points
from .legal import (
    FOLDED_DISCOVERY,
    FOLDED_INQUISITION,
    folded_count,
    folded_moves,
    is_legal,
    legal_moves,
    legal_strings,
    multisets,
    raw_moves,
    step_moves,
)
from .moves import Move
from .setup import set_up, shuffled_deck, validate_deck
from .state import (
    DEMOCRACY,
    DRAFT,
    EFFECTS,
    EMBARGO,
    HAND_BASE,
    OVER,
    PLAY,
    ConfigError,
    IllegalMoveError,
    State,
)

__all__ = [
    "DEMOCRACY",
    "DRAFT",
    "EFFECTS",
    "EMBARGO",
    "FOLDED_DISCOVERY",
    "FOLDED_INQUISITION",
    "HAND_BASE",
    "OVER",
    "PLAY",
    "ConfigError",
    "GameState",
    "IllegalMoveError",
    "majority_points",
    "multisets",
    "new_game",
    "random_playout",
    "replay_moves",
    "shuffled_deck",
    "validate_deck",
]


class GameState(State):
    """A game in progress: everything, including what some players cannot see.

    Create one with :func:`new_game`. :meth:`legal_moves` lists the moves of
    the seat :attr:`to_move`; :meth:`apply` plays one, checking it, and
    raises :class:`IllegalMoveError` (changing nothing) for an illegal one.
    Use :meth:`observation` (in :mod:`civcards.carta.observation`) for what a
    seat may know.
    """

    __slots__ = ()

    # the engine's rooms' public functions, bound as methods (no call in between)
    legal_moves = legal_moves
    legal_strings = legal_strings
    raw_moves = raw_moves
    folded_moves = folded_moves
    folded_count = folded_count
    step_moves = step_moves
    is_legal = is_legal
    apply = apply
    apply_unchecked = apply_unchecked


def new_game(
    players: int = 2,
    *,
    deal: str = "basic",
    teams: bool = False,
    seed: int | str | None = None,
    deck: str | None = None,
    start: int | None = None,
) -> GameState:
    """Set up a game (R3-R8).

    Give ``deck`` (top card first, NOTATION.md) and ``start`` for an explicit
    set-up, or a ``seed`` to shuffle (R4, R5); with neither, a random seed.
    Raises :class:`ConfigError` with a sentence for an impossible set-up.
    """
    g = GameState.__new__(GameState)
    set_up(g, players, deal=deal, teams=teams, seed=seed, deck=deck, start=start)
    return g


def replay_moves(g: GameState, moves: Iterable[Move | str]) -> GameState:
    """Apply ``moves`` in order to ``g`` (checked) and return it."""
    for m in moves:
        g.apply(m)
    return g


def random_playout(g: GameState, rng: random.Random) -> int:
    """Play ``g`` to its end, each move uniformly random among the legal moves.

    This is the benchmark's playout (``civcards bench``): uniform over the
    distinct legal moves in the sense of NOTATION.md. Returns the number of
    moves made.
    """
    gen = g.raw_moves
    play = g.apply_unchecked
    rnd = rng.random
    count = 0
    while g.phase != OVER:
        moves = gen()
        play(moves[int(rnd() * len(moves))])
        count += 1
    return count
