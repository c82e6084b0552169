"""Who sits where: humans and bots, their names, and the checks of the options.

Bot names are the game's (``bot_names(game)``); ``game`` defaults to the
default game.

>>> parse_seats("human, random")
['human', 'random']
>>> seat_names(["human", "random", "random"], "en")
['You', 'random 1', 'random 2']
"""

from __future__ import annotations

import re

from ..bots import Bot, bot_names, make_bot
from ..game_api import DEFAULT_GAME, Game, get_game
from ..i18n import t

HUMAN = "human"
HUMAN_WORDS = frozenset({"human", "h", "you", "me", "person", "player"})


class PlayUsageError(Exception):
    """A command-line mistake: a catalogue key and its fields (printed, exit status 2),
    or a sentence of the game's own (``text``, e.g. from ``Game.check_options``)."""

    def __init__(self, key: str, *, text: str | None = None, **fields: object) -> None:
        self.key = key
        self.text = text
        self.fields = fields
        super().__init__(text or key)

    def message(self, lang: str) -> str:
        if self.text is not None:
            return self.text
        return t(lang, self.key, **self.fields)


def _game(game: Game | None) -> Game:
    return game if game is not None else get_game(DEFAULT_GAME)


def default_bot(game: Game | None = None) -> str:
    """The strongest bot of the game at a human's pace: ``ismcts`` where the game brings
    its own search kit (CIV, civ4), else ``greedy``, else ``ismcts`` or ``random``. (The
    generic kit's random playouts make a search take tens of seconds a move.)"""
    g = _game(game)
    names = bot_names(g)
    kit = getattr(g, "search_kit", None)
    tuned = kit is not None and kit() is not None
    for name in ("ismcts", "greedy") if tuned else ("greedy", "ismcts"):
        if name in names:
            return name
    return "random"


def is_human(spec: str) -> bool:
    return spec == HUMAN


def parse_seats(text: str, game: Game | None = None) -> list[str]:
    """Read ``--seats``: ``human`` (or ``h``, ``you``) and bot names, comma-separated.

    Bot names are checked against the game's bots; PlayUsageError otherwise.
    (How many seats a game takes is ``Game.check_options``' to say.)
    """
    names = bot_names(_game(game))
    out: list[str] = []
    for raw in text.split(","):
        word = raw.strip()
        low = word.lower()
        if low in HUMAN_WORDS:
            out.append(HUMAN)
            continue
        name = low.partition(":")[0]
        if not name or name not in names:
            raise PlayUsageError("err.bad_seat", seat=word, bots=", ".join(names))
        out.append(low)
    return out


def default_seats(players: int, game: Game | None = None) -> list[str]:
    """You against ``players - 1`` default bots."""
    return [HUMAN] + [default_bot(game)] * (players - 1)


def seat_names(specs: list[str], lang: str, given: list[str] | None = None) -> list[str]:
    """Display names: ``given`` when set, else You / Player N for humans, bot names."""
    if given is not None:
        return list(given)
    humans = [i for i, s in enumerate(specs) if is_human(s)]
    names: list[str] = []
    for i, spec in enumerate(specs):
        if is_human(spec):
            if len(humans) == 1:
                names.append(t(lang, "ui.you"))
            else:
                names.append(t(lang, "ui.player_n", n=humans.index(i) + 1))
            continue
        same = [j for j, s in enumerate(specs) if s == spec]
        names.append(spec if len(same) == 1 else f"{spec} {same.index(i) + 1}")
    return names


def seats_from_names(names: list[str], game: Game | None = None) -> list[str]:
    """Guess the seats of a saved game from its names: bot names are bots, others humans."""
    bots = bot_names(_game(game))
    out = []
    for name in names:
        base = re.sub(r"\s+\d+$", "", name.strip()).lower()
        out.append(base if base.partition(":")[0] in bots else HUMAN)
    return out


def build_bots(specs: list[str], seed: int | None, game: Game | None = None) -> list[Bot | None]:
    """One bot per bot seat (None for humans), seeded from ``seed`` when given."""
    g = _game(game)
    bots: list[Bot | None] = []
    for seat, spec in enumerate(specs):
        if is_human(spec):
            bots.append(None)
        else:
            bots.append(make_bot(g, spec, None if seed is None else seed * 101 + seat))
    return bots
