"""Civilization: The Card Game (Firaxis, 2006): the rules engine and its notation.

Standard library only. The rules are ``docs/rules/civ4.md`` (C1-C72, RU1-RU32,
variants, clarifications; "RULES.md" in the code's comments), the notation
``docs/notation/civ4.md`` ("NOTATION.md"); the card sets in ``cards*.toml`` are
RECONSTRUCTED (the original card list is not public).

Usage::

    >>> from civcards import civ4
    >>> g = civ4.new_game(3, seed=42)                 # C9-C11: shuffle, deal, draft
    >>> moves = g.legal_strings()                     # every legal move, canonical, sorted
    >>> g.apply(moves[0])                             # or a Move; illegal -> IllegalMoveError
    >>> obs = civ4.observe(g, 1)                      # what seat 1 may know (C72)
    >>> text = civ4.write_record(g)                   # portable civ4-notation/1 record
    >>> g2 = civ4.replay(civ4.parse_record(text)).state
    >>> g2.legal_strings() == g.legal_strings()
    True
    >>> [c.text for c in civ4.choices(g2)] == g2.legal_strings()   # factored choices
    True
    >>> status, out = civ4.replay_cli(text, json_out=True, legal=True, seat=None)
"""

from __future__ import annotations

from .cards import CARDS, DECK_CODES, CardSet
from .choices import Choice, choices, expand
from .defaults import default_move
from .game import ConfigError, GameState, IllegalMoveError, new_game, state_from_piles
from .moves import Move, NotationError, format_move, parse_move
from .notation import (
    Record,
    RecordError,
    Replay,
    parse_record,
    position_json,
    replay,
    replay_cli,
    state_from_record,
    write_record,
)
from .observation import Observation, observe
from .options import OPTIONS, Options, OptionSpec

__all__ = [
    "CARDS",
    "DECK_CODES",
    "OPTIONS",
    "CardSet",
    "Choice",
    "ConfigError",
    "GameState",
    "IllegalMoveError",
    "Move",
    "NotationError",
    "Observation",
    "OptionSpec",
    "Options",
    "Record",
    "RecordError",
    "Replay",
    "choices",
    "default_move",
    "expand",
    "format_move",
    "new_game",
    "observe",
    "parse_move",
    "parse_record",
    "position_json",
    "replay",
    "replay_cli",
    "state_from_piles",
    "state_from_record",
    "write_record",
]
