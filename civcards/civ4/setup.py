"""Set-up: the shuffled piles of a new game and its deal (C8-C11).

:func:`shuffle_piles` shuffles the box (C9) and :func:`check_piles` checks piles
given by a record; :func:`deal` lays out a game from its piles up to the draft's
first pick (C10, C11). :func:`civcards.civ4.game.new_game` and
:func:`~civcards.civ4.game.state_from_piles` call them.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from .cards import N_DECK, TECHS_BY_ERA
from .execute import take_plots
from .options import ConfigError, Options, parse_options
from .phases import DRAFT, START_PLOTS
from .state import SETS, State

__all__ = ["check_piles", "check_players", "deal", "shuffle_piles"]

_TECHS = SETS[None].techs


def check_players(players: object) -> int:
    """C8: the number of players, checked (ConfigError with a sentence otherwise)."""
    if isinstance(players, bool) or not isinstance(players, int) or players not in (2, 3, 4):
        raise ConfigError(f"C8: the game is for 2, 3 or 4 players, not {players!r}.")
    return players


def shuffle_piles(
    players: int, options: Options, rng: random.Random
) -> tuple[list[str], list[str], list[str], list[str]]:
    """C9: the plot pile, the tech pile (by era, after removal), the removed techs and the deck."""
    cs = SETS[options.cards]
    plots = list(cs.plot_box)
    rng.shuffle(plots)
    deck = list(cs.deck_box)
    rng.shuffle(deck)
    keep = 8 if options.all_techs else cs.techs_per_era[str(players)]
    techs: list[str] = []
    removed: list[str] = []
    for era in (1, 2, 3):
        e = list(TECHS_BY_ERA[era])
        rng.shuffle(e)
        techs.extend(e[:keep])
        removed.extend(e[keep:])
    return plots, techs, removed, deck


def check_piles(
    players: int, options: Options, plots: list[str], techs: list[str], removed: list[str], deck: list[str]
) -> str | None:
    """The field and reason when the four lists are not what C9 and C71 require, else None."""
    cs = SETS[options.cards]
    if sorted(plots) != list(cs.plot_box):
        return f"'plots' must be an ordering of the {len(cs.plot_box)} plot cards of the card set"
    if sorted(deck) != list(cs.deck_box):
        return f"'deck' must be an ordering of the {len(cs.deck_box)} game-deck cards of the card set"
    keep = 8 if options.all_techs else cs.techs_per_era[str(players)]
    if len(techs) != 3 * keep:
        return f"'techs' must hold {3 * keep} technologies ({keep} per era) for {players} players"
    for era in (1, 2, 3):
        seg = techs[(era - 1) * keep : era * keep]
        if any(t not in _TECHS or _TECHS[t].era != era for t in seg):
            return f"'techs' must list {keep} era I technologies, then {keep} of era II, then {keep} of era III"
    if sorted(techs + removed) != sorted(_TECHS):
        return "'techs' and 'removed' together must be the 24 technologies, each once"
    return None


def deal(
    g: State,
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
) -> None:
    """Deal a new game into ``g`` (an empty object of a :class:`State` class) from explicit
    piles (top card first); chance outcomes are consumed in order. ConfigError with a
    sentence when the players, options or piles are not the rules'."""
    n = check_players(players)
    opts = parse_options(options)
    err = check_piles(n, opts, list(plots), list(techs), list(removed), list(deck))
    if err:
        raise ConfigError(err + ".")
    g.n = n
    g.options = opts
    g.seed = seed
    g.init_plots = tuple(plots)
    g.init_techs = tuple(techs)
    g.init_removed = tuple(removed)
    g.init_deck = tuple(deck)
    g.plot_pos = 0
    g.tech_pos = 0
    g.deck = g.init_deck
    g.deck_pos = 0
    g.discard = [0] * N_DECK
    g.plot_market = []
    g.tech_market = []
    g.pop_supply = SETS[opts.cards].population
    g.hands = [[0] * N_DECK for _ in range(n)]
    g.plots = [[] for _ in range(n)]
    g.techs = [() for _ in range(n)]
    g.supply = [[0, 0, 0] for _ in range(n)]
    g.fx = [None] * n
    g.round = 0
    g.active = None
    g.used = ()
    g.new_techs = ()
    g.combat = None
    g.discard_n = 0
    g.finished = False
    g.reason = None
    g.winners = []
    g.last_tech = False
    g.moves = []
    g.chance_in = tuple(dict(c) for c in chance)
    g.chance_pos = 0
    g.chance_out = []
    g.steals = []
    g.game_id = game_id
    g.names = tuple(names) if names is not None else None
    # C10: two plots each, face up, in seat order
    for s in range(n):
        for c in take_plots(g, START_PLOTS):
            g.plots[s].append((c, 0, ()))
    # C11.1: reveal n plots
    g.step = DRAFT
    g.draft_round = 1
    g.draft_revealed = sorted(take_plots(g, n))
    g.setup_i = 0
    g.to_move = 0
