"""The rules engine: the state of a game, its legal moves and how they apply (C1-C72).

>>> g = new_game(2, seed=1)
>>> g.step, g.to_move, len(g.legal_moves()) > 0
('draft', 0, True)
>>> g.apply(g.legal_moves()[0])
>>> g.to_move
1

State layout (small, cheap to copy): hands and the discard pile are lists of
counts indexed like :data:`~civcards.civ4.cards.DECK_CODES`; an empire's plots
are tuples ``(code, population, cards)`` with ``cards`` a sorted tuple of the
buildings and wonders on it; piles are an immutable tuple (top card first)
plus the position of their top card, so a copy never copies them.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from .checks import is_legal
from .effects import Fx
from .execute import apply, apply_unchecked
from .legal import (
    attack_assignments,
    attack_units,
    blockable,
    bounce_cards,
    build_plots,
    buildable_codes,
    collect_options,
    damage_amounts,
    free_tech_sequences,
    legal_strings,
    multisets,
    payments,
    steal_res_options,
    trade_options,
    usable_abilities,
)
from .moves import Move, format_move, parse_move
from .options import ConfigError, Options, parse_options
from .phases import (
    COLLECT,
    CULTURE_MIN,
    DAMAGE,
    DEFEND,
    DISCARD,
    DISCARD_N,
    DRAFT,
    DRAW,
    HAPPY_DISCOUNT,
    HAPPY_MIN,
    MARKET_PLOTS,
    MARKET_TECHS,
    MAX_SLOTS,
    MIN_COST,
    OVER,
    PLACE,
    PLOT_COST_BASE,
    PLOT_COST_PIVOT,
    PLOT_COST_STEP,
    POP_COST_BASE,
    POP_COST_STEP,
    POP_TWO_SLOTS,
    PURCHASE,
    SETTLE,
    STALEMATE,
    START_DISCARD,
    START_DISCARD_N,
    START_HAND,
    START_PLOTS,
    TECHS_PER_ERA,
    TRADE_RATE,
    WALLS,
    Combat,
    IllegalMoveError,
)
from .setup import check_piles, check_players, deal, shuffle_piles
from .state import SETS, State

__all__ = [
    "COLLECT",
    "CULTURE_MIN",
    "DAMAGE",
    "DEFEND",
    "DISCARD",
    "DISCARD_N",
    "DRAFT",
    "DRAW",
    "HAPPY_DISCOUNT",
    "HAPPY_MIN",
    "MARKET_PLOTS",
    "MARKET_TECHS",
    "MAX_SLOTS",
    "MIN_COST",
    "OVER",
    "PLACE",
    "PLOT_COST_BASE",
    "PLOT_COST_PIVOT",
    "PLOT_COST_STEP",
    "POP_COST_BASE",
    "POP_COST_STEP",
    "POP_TWO_SLOTS",
    "PURCHASE",
    "SETTLE",
    "STALEMATE",
    "START_DISCARD",
    "START_DISCARD_N",
    "START_HAND",
    "START_PLOTS",
    "TECHS_PER_ERA",
    "TRADE_RATE",
    "WALLS",
    "Combat",
    "ConfigError",
    "Fx",
    "GameState",
    "IllegalMoveError",
    "check_piles",
    "move_text",
    "multisets",
    "new_game",
    "payments",
    "shuffle_piles",
    "state_from_piles",
]

#: the card sets by name (the tests add one to it; :data:`civcards.civ4.state.SETS` itself)
_SETS = SETS


class GameState(State):
    """A position of a game, with the moves that led to it (see the module docstring):
    the data and views of :class:`~civcards.civ4.state.State`, and its moves."""

    __slots__ = ()

    # -- legal moves (civcards.civ4.legal) --------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move, canonical text sorted by code point, without duplicates."""
        return [parse_move(t) for t in legal_strings(self)]

    # the engine's rooms' public functions, bound as methods (no call in between)
    legal_strings = legal_strings
    collect_options = collect_options
    trade_options = trade_options
    buildable_codes = buildable_codes
    build_plots = build_plots
    free_tech_sequences = free_tech_sequences
    usable_abilities = usable_abilities
    steal_res_options = steal_res_options
    attack_units = attack_units
    attack_assignments = attack_assignments
    bounce_cards = bounce_cards
    blockable = blockable
    damage_amounts = damage_amounts

    # -- applying moves (civcards.civ4.checks, civcards.civ4.execute) -------------------

    apply = apply
    apply_unchecked = apply_unchecked
    is_legal = is_legal


# ---------------------------------------------------------------------------
# Set-up (civcards.civ4.setup)


def state_from_piles(
    players: int,
    plots: list[str],
    techs: list[str],
    removed: list[str],
    deck: list[str],
    *,
    options: Mapping[str, Any] | Options | None = None,
    seed: int = 0,
    chance: Iterable[Mapping[str, Any]] = (),
    game_id: str | None = None,
    names: Iterable[str] | None = None,
) -> GameState:
    """A new game dealt from explicit piles (top card first); chance outcomes are consumed in order."""
    g = object.__new__(GameState)
    deal(
        g, players, plots, techs, removed, deck,
        options=options, seed=seed, chance=chance, game_id=game_id, names=names,
    )
    return g


def new_game(
    players: int,
    options: Mapping[str, Any] | Options | None = None,
    seed: int | None = None,
    *,
    game_id: str | None = None,
    names: Iterable[str] | None = None,
) -> GameState:
    """A new game, shuffled with ``seed`` (C9; a random seed when None)."""
    n = check_players(players)
    opts = parse_options(options)
    if seed is None:
        seed = random.randrange(2**63)
    elif isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigError(f"the seed must be an integer, not {seed!r}.")
    plots, techs, removed, deck = shuffle_piles(n, opts, random.Random(seed))
    return state_from_piles(n, plots, techs, removed, deck, options=opts, seed=seed, game_id=game_id, names=names)


def move_text(move: Move | str) -> str:
    """The canonical text of a move or move text (raises NotationError when unreadable)."""
    return format_move(parse_move(move) if isinstance(move, str) else move)
