"""The variants of RULES.md (*Configuration that is not in these rules*), all off by default,
and the card set a game is played with (``cards``).

>>> parse_options({"finish_round": True, "hand_limit": 10}).to_dict()
{'finish_round': True, 'hand_limit': 10}
>>> parse_options({"hand_limit": -1})
Traceback (most recent call last):
...
civcards.civ4.options.ConfigError: option 'hand_limit' must be a non-negative integer, not -1.
>>> parse_options({"cards": "reconstructed-2"}).to_dict()
{'cards': 'reconstructed-2'}
>>> parse_options({}).cards is None     # a record naming no card set: the original one
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple


class ConfigError(ValueError):
    """An impossible game configuration: one sentence per bad option or argument."""


class OptionSpec(NamedTuple):
    """One variant: its name, type, default and a one-line help."""

    name: str
    type: str
    default: bool | int | str | None
    help: str


#: The card sets in the package (``civcards/civ4/cards*.toml``), oldest first; all RECONSTRUCTED.
CARD_SETS: tuple[str, ...] = ("reconstructed-1", "reconstructed-2", "reconstructed-3")
#: The set of a record (or an engine ``new_game``) that names none: the original reconstruction,
#: so every record written before card sets had names replays as it was played.
RECORD_CARD_SET = "reconstructed-1"
#: The set of a new game of the platform that names none (CLI, web lobby, simulations):
#: the tuned set of the balance study (studies/civ4-balance/README.md), by the owner's
#: decision of issue 40 (with ``finish_round`` on at 2 players: civcards/games/civ4/game.py).
DEFAULT_CARD_SET = "reconstructed-3"

#: Every variant of RULES.md with its type, default and meaning, and the card set.
OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("finish_round", "bool", False, "C68: the game ends at the end of the round in which the last technology is bought"),
    OptionSpec("happiness_not_wonders", "bool", False, "C50: Highest Happiness does not lower wonder costs"),
    OptionSpec("same_type_trade", "bool", False, "C28: the resources given in one bank trade are all of one type"),
    OptionSpec("hand_limit", "int", None, "C37: after the Draw step's discard a player keeps at most N cards (None: no limit)"),
    OptionSpec("one_shot_steals", "bool", False, "C63, C64: Writing and Code of Laws act once, in the Purchase step they enter play"),
    OptionSpec("all_techs", "bool", False, "C9: no technology is removed"),
    OptionSpec(
        "cards",
        "choice",
        DEFAULT_CARD_SET,
        "the card set (reconstructed; the original list was never published): "
        "reconstructed-1 is the first reconstruction, "
        "reconstructed-2 is the balance study's tuning of reconstructed-1, "
        "reconstructed-3 is reconstructed-2 with fewer attacking units (new games' set)",
    ),
)
_BOOL = tuple(o.name for o in OPTIONS if o.type == "bool")


@dataclass(frozen=True, slots=True)
class Options:
    """The variants in force; the defaults are the rules as written."""

    finish_round: bool = False
    happiness_not_wonders: bool = False
    same_type_trade: bool = False
    hand_limit: int | None = None
    one_shot_steals: bool = False
    all_techs: bool = False
    #: the card set's name; None: not named, which means the original set (RECORD_CARD_SET)
    cards: str | None = None

    def to_dict(self) -> dict[str, bool | int | str]:
        """The record's ``options`` object: only the variants that are on, and the card set
        when one is named."""
        out: dict[str, bool | int | str] = {}
        for name in _BOOL:
            if getattr(self, name):
                out[name] = True
        if self.hand_limit is not None:
            out["hand_limit"] = self.hand_limit
        if self.cards is not None:
            out["cards"] = self.cards
        return {k: out[k] for k in sorted(out)}


def parse_options(obj: Mapping[str, Any] | Options | None) -> Options:
    """Options from a mapping (a record's ``options``); :class:`ConfigError` when invalid.

    An absent, ``false`` or ``null`` variant is off (NOTATION.md clarification 4); an
    absent or ``null`` ``cards`` names no card set (the original one is used).
    """
    if obj is None:
        return Options()
    if isinstance(obj, Options):
        return obj
    if not isinstance(obj, Mapping):
        raise ConfigError("options must be an object mapping variant names to values.")
    errors: list[str] = []
    values: dict[str, Any] = {}
    for key, value in obj.items():
        if key in _BOOL:
            if value is None or value is False:
                continue
            if value is True:
                values[key] = True
            else:
                errors.append(f"option {key!r} must be true, false or null, not {value!r}.")
        elif key == "hand_limit":
            if value is None or value is False:
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                errors.append(f"option 'hand_limit' must be a non-negative integer, not {value!r}.")
            else:
                values[key] = value
        elif key == "cards":
            if value is None:
                continue
            if not isinstance(value, str) or value not in CARD_SETS:
                errors.append(f"{value!r} is not a card set (known: {', '.join(CARD_SETS)}).")
            else:
                values[key] = value
        else:
            errors.append(f"{key!r} is not a variant of RULES.md (known: {', '.join(o.name for o in OPTIONS)}).")
    if errors:
        raise ConfigError(" ".join(errors))
    return Options(**values)
