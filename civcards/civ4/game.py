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

from .cards import Res
from .checks import is_legal as _is_legal
from .effects import Fx, compute_effects
from .execute import apply as _apply
from .execute import apply_unchecked as _apply_unchecked
from .execute import finish
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
#: the former name of :func:`civcards.civ4.effects.compute_effects` (kept for old imports)
_compute_fx = compute_effects


class GameState(State):
    """A position of a game, with the moves that led to it (see the module docstring):
    the data and views of :class:`~civcards.civ4.state.State`, and its moves."""

    __slots__ = ()

    # -- legal moves (civcards.civ4.legal) --------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move, canonical text sorted by code point, without duplicates."""
        return [parse_move(t) for t in legal_strings(self)]

    def legal_strings(self) -> list[str]:
        """The canonical texts of :meth:`legal_moves`."""
        return legal_strings(self)

    def collect_options(self, seat: int) -> list[tuple[int, list[str]]]:
        """C24: for each plot needing a choice, its plot number and the possible letter strings."""
        return collect_options(self, seat)

    def trade_options(self, p: int) -> list[tuple[Res, Res]]:
        """C28: every bank trade (give exactly R, get one resource of another type)."""
        return trade_options(self, p)

    def buildable_codes(self, p: int) -> list[str]:
        """Buildings and wonders in hand that ``p`` can pay for (C31)."""
        return buildable_codes(self, p)

    def build_plots(self, p: int, code: str) -> list[int]:
        """Own plots with room for ``code`` (C18)."""
        return build_plots(self, p, code)

    def free_tech_sequences(self, amount: int) -> list[tuple[str, ...]]:
        """C62: every sequence of technologies a ``free_tech`` of ``amount`` can take now."""
        return free_tech_sequences(self, amount)

    def usable_abilities(self, p: int) -> list[tuple[str, str, int]]:
        """C35: ``(code, kind, amount)`` of the activated abilities ``p`` may use now."""
        return usable_abilities(self, p)

    def steal_res_options(self, p: int, victim: int, amount: int) -> list[Res]:
        """C64: the resource choices of a ``steal_resources`` of ``amount`` from ``victim``."""
        return steal_res_options(self, p, victim, amount)

    def attack_units(self, p: int) -> list[tuple[str, int]]:
        """Units in ``p``'s hand whose profile has ``attack`` (C41), as ``(code, count)``."""
        return attack_units(self, p)

    def attack_assignments(self, p: int) -> list[tuple[tuple[int, tuple[str, ...]], ...]]:
        """C41: every declaration (a non-empty unit multiset per chosen adjacent defender)."""
        return attack_assignments(self, p)

    def bounce_cards(self, d: int) -> list[tuple[int, str, int, bool]]:
        """The defender's cards in play with ``bounce``: ``(plot, code, amount, breakable)``."""
        return bounce_cards(self, d)

    def blockable(self, d: int, blocker: str, attacker: str) -> bool:
        """C43, C66: whether ``d``'s unit ``blocker`` may block ``attacker``."""
        return blockable(self, d, blocker, attacker)

    def damage_amounts(self, d: int) -> tuple[int, int]:
        """C45, C66: (S, X) of the units still assigned to defender ``d``."""
        return damage_amounts(self, d)

    # -- applying moves (civcards.civ4.checks, civcards.civ4.execute) -------------------

    def apply(self, move: Move | str) -> None:
        """Apply a legal move; an illegal one raises :class:`IllegalMoveError` and changes nothing."""
        _apply(self, move)

    def apply_unchecked(self, m: Move, text: str | None = None) -> None:
        """Apply a move known to be legal now (one that :func:`~civcards.civ4.choices.choices`
        or :func:`~civcards.civ4.choices.expand` gave for this position) without checking it;
        ``text`` is its canonical text when the caller has it. Anything else may corrupt the
        state: use :meth:`apply` for moves from outside."""
        _apply_unchecked(self, m, text)

    def is_legal(self, move: Move | str) -> bool:
        """Whether ``move`` is legal now (without applying it)."""
        return _is_legal(self, move)

    def _finish(self, reason: str) -> None:
        """The former name of :func:`civcards.civ4.execute.finish` (kept for old callers)."""
        finish(self, reason)


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
