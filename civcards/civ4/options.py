"""The variants of RULES.md (*Configuration that is not in these rules*), all off by default.

>>> parse_options({"finish_round": True, "hand_limit": 10}).to_dict()
{'finish_round': True, 'hand_limit': 10}
>>> parse_options({"hand_limit": -1})
Traceback (most recent call last):
...
civcards.civ4.options.ConfigError: option 'hand_limit' must be a non-negative integer, not -1.
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
    default: bool | int | None
    help: str


#: Every variant of RULES.md with its type, default and meaning.
OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("finish_round", "bool", False, "C68: the game ends at the end of the round in which the last technology is bought"),
    OptionSpec("happiness_not_wonders", "bool", False, "C50: Highest Happiness does not lower wonder costs"),
    OptionSpec("same_type_trade", "bool", False, "C28: the resources given in one bank trade are all of one type"),
    OptionSpec("hand_limit", "int", None, "C37: after the Draw step's discard a player keeps at most N cards (None: no limit)"),
    OptionSpec("one_shot_steals", "bool", False, "C63, C64: Writing and Code of Laws act once, in the Purchase step they enter play"),
    OptionSpec("all_techs", "bool", False, "C9: no technology is removed"),
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

    def to_dict(self) -> dict[str, bool | int]:
        """The record's ``options`` object: only the variants that are on."""
        out: dict[str, bool | int] = {}
        for name in _BOOL:
            if getattr(self, name):
                out[name] = True
        if self.hand_limit is not None:
            out["hand_limit"] = self.hand_limit
        return {k: out[k] for k in sorted(out)}


def parse_options(obj: Mapping[str, Any] | Options | None) -> Options:
    """Options from a mapping (a record's ``options``); :class:`ConfigError` when invalid.

    An absent, ``false`` or ``null`` variant is off (NOTATION.md clarification 4).
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
        else:
            errors.append(f"{key!r} is not a variant of RULES.md (known: {', '.join(o.name for o in OPTIONS)}).")
    if errors:
        raise ConfigError(" ".join(errors))
    return Options(**values)
