"""CIV: Carta Impera Victoria — the rules engine and its notation (stdlib only).

The rules are ``docs/rules/carta.md`` (R1-R25; "RULES.md" in the code's comments), the
notation ``docs/notation/carta.md`` ("NOTATION.md").

The library in a few lines::

    >>> from civcards import carta
    >>> g = carta.new_game(players=3, seed=42)        # R4-R7: shuffle, deal
    >>> moves = g.legal_moves()                       # every legal Move, canonical order
    >>> g.apply(moves[0])                             # or g.apply("play M"); illegal -> error
    >>> obs = carta.observe(g, seat=1)                # what seat 1 may know (R25)
    >>> text = carta.write_record(g)                  # NOTATION.md record (JSON)
    >>> g2 = carta.replay(carta.parse_record(text)).state
    >>> g2.legal_strings() == g.legal_strings()
    True
"""

from __future__ import annotations

from typing import Any

from .cards import DOMAIN_NAMES, LETTERS, THRESHOLDS, counts_to_str, str_to_counts
from .game import ConfigError, GameState, IllegalMoveError, new_game
from .moves import Move, NotationError, format_move, parse_move
from .notation import (
    Record,
    Replay,
    parse_record,
    position_json,
    record_from_obj,
    replay,
    write_record,
)
from .observation import Observation, expand, observe, seat_options

__all__ = [
    "DOMAIN_NAMES",
    "GAME",
    "LETTERS",
    "THRESHOLDS",
    "ConfigError",
    "GameState",
    "IllegalMoveError",
    "Move",
    "NotationError",
    "Observation",
    "Record",
    "Replay",
    "counts_to_str",
    "expand",
    "format_move",
    "new_game",
    "observe",
    "parse_move",
    "parse_record",
    "position_json",
    "record_from_obj",
    "replay",
    "seat_options",
    "str_to_counts",
    "write_record",
]


class _Carta:
    """CIV behind the platform's generic :class:`civcards.game_api.Game` interface."""

    name = "carta"
    min_players = 2
    max_players = 4

    def new_game(self, players: int, **options: Any) -> GameState:
        return new_game(players, **options)

    def observe(self, state: GameState, seat: int) -> Observation:
        return observe(state, seat)

    def seat_options(self, state: GameState) -> list[str]:
        return seat_options(state)

    def expand(self, state: GameState, option: str) -> tuple[str, list[str]]:
        return expand(state, option)


GAME = _Carta()
