"""The games the web table hosts: the registry of :mod:`civcards.game_api`, plus games
named in ``CIVCARDS_EXTRA_GAMES``, and what the lobby shows of each.

Nothing here knows a game: it reads the members of :class:`civcards.game_api.Game`.
A game without the web table's own members (``web_module``, ``web_texts``,
``web_view``) is shown by the generic table module (``static/games/generic.js``).
"""

from __future__ import annotations

import importlib
import inspect
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..bots import bot_names, table_search
from ..game_api import Game, all_games, register
from ..i18n import MESSAGES, normalize_lang, t
from .botpool import BotSettings, search_level, search_seconds
from .i18n_web import bot_key_name

#: the environment variable naming extra games to register at start-up
EXTRA_GAMES_ENV = "CIVCARDS_EXTRA_GAMES"
#: the front-end module of a game that brings none of its own
GENERIC_MODULE = "games/generic.js"


def load_extra_games(spec: str | None = None) -> list[str]:
    """Register the games named in ``spec`` (default: ``$CIVCARDS_EXTRA_GAMES``), a
    comma-separated list of ``module:attribute`` (the attribute is a Game); return their
    names. ValueError with a sentence for one that cannot be loaded."""
    if spec is None:
        spec = os.environ.get(EXTRA_GAMES_ENV, "")
    names = []
    for item in (x.strip() for x in spec.split(",")):
        if not item:
            continue
        module, sep, attr = item.partition(":")
        if not sep or not module or not attr:
            raise ValueError(f"{EXTRA_GAMES_ENV}: {item!r} is not of the form module:attribute")
        try:
            obj = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as e:
            raise ValueError(f"{EXTRA_GAMES_ENV}: cannot load {item!r}: {e}") from None
        if not isinstance(getattr(obj, "name", None), str):
            raise ValueError(f"{EXTRA_GAMES_ENV}: {item!r} is not a game (it has no name)")
        register(obj)
        names.append(obj.name)
    return names


def web_module(game: Game) -> str:
    """The path under /static/ of ``game``'s front-end module."""
    mod = getattr(game, "web_module", None)
    return mod if isinstance(mod, str) and mod else GENERIC_MODULE


def web_assets(game: Game) -> str | None:
    """The folder of ``game``'s own front-end files, served under ``/static/games/<name>/``
    (None: it brings none)."""
    folder = getattr(game, "web_assets", None)
    return folder if isinstance(folder, str) and folder else None


def _takes_obs(view: Callable[..., Any]) -> bool:
    """Whether a game's ``web_view`` takes the observation built already (``obs``): a game
    registered from outside may predate it."""
    try:
        return "obs" in inspect.signature(view).parameters
    except (TypeError, ValueError):
        return False


#: per game class: whether its web_view takes ``obs`` (looked up once)
_OBS_ARG: dict[type, bool] = {}


def web_view(
    game: Game,
    state: Any,
    seat: int | None,
    names: Sequence[str],
    lang: str,
    obs: Any = None,
) -> dict[str, Any]:
    """``game.web_view``, or nothing extra for a game that has none. ``obs``: ``seat``'s
    observation, if the caller built it already (passed on to a game that takes it)."""
    view = getattr(game, "web_view", None)
    if view is None:
        return {}
    takes = _OBS_ARG.get(type(game))
    if takes is None:
        takes = _OBS_ARG[type(game)] = _takes_obs(view)
    out: dict[str, Any] = (
        view(state, seat, names, lang, obs=obs)
        if takes and obs is not None
        else view(state, seat, names, lang)
    )
    return dict(out)


def default_bot(game: Game) -> str:
    """The bot a seat gets when none is named: the game's own first bot, else ``random``."""
    own = list(game.bots())
    return own[0] if own else "random"


def _label(lang: str, key: str | None, fallback: str) -> str:
    return t(lang, key) if key and key in MESSAGES else fallback


def game_title(game: Game, lang: str) -> str:
    """``game``'s title in ``lang``: the catalogue text its ``web_texts["title"]`` names
    (civ4: ``ccg.title``), else its ``title`` (a game without that key)."""
    texts: Mapping[str, str] = getattr(game, "web_texts", None) or {}
    return _label(normalize_lang(lang), texts.get("title"), game.title)


def bot_levels(game: Game, lang: str, caps: BotSettings | None = None) -> list[dict[str, str]]:
    """The bots the lobby offers for ``game``: its light bots by name, and its top level,
    the game's strongest search (:func:`~civcards.bots.table_search`: ``ismcts``, or CIV's
    ``ismcts+net``) as a time budget a decision within the server's ``caps``
    (``ismcts:1s``), its label saying how long it may think. The plain search is not
    offered beside a stronger one."""
    caps = caps or BotSettings()
    top = table_search(game)
    out = []
    for b in bot_names(game):
        if b == top:
            secs = f"{search_seconds(caps):g}"
            if lang != "en":
                secs = secs.replace(".", ",")
            label = t(lang, "web.bot_search_seconds", seconds=secs)
            out.append({"name": search_level(caps, top), "label": label})
        elif b == "ismcts":
            continue  # a stronger search is the top level
        else:
            out.append({"name": b, "label": _label(lang, "web.bot_" + bot_key_name(b), b)})
    return out


def describe_kind(game: Game, lang: str, caps: BotSettings | None = None) -> dict[str, Any]:
    """What the lobby shows of ``game`` in ``lang``: its title (:func:`game_title`), player
    counts, options (with their labels) and bots (:func:`bot_levels`, within the server's ``caps``)."""
    lang = normalize_lang(lang)
    texts: Mapping[str, str] = getattr(game, "web_texts", None) or {}
    options = []
    for spec in game.options:
        o = spec.to_json()
        o["label"] = _label(lang, texts.get(spec.name), spec.help)
        # the tip: the game's words for it (``"name:help"``), else its English help
        o["help"] = _label(lang, texts.get(f"{spec.name}:help"), spec.help)
        if spec.choices:
            o["labels"] = {c: _label(lang, texts.get(f"{spec.name}={c}"), c) for c in spec.choices}
            # a line explaining each choice, where the game has one (``"name=value:help"``)
            abouts = {c: texts.get(f"{spec.name}={c}:help") for c in spec.choices}
            if any(k in MESSAGES for k in abouts.values()):
                o["choice_helps"] = {c: _label(lang, k, "") for c, k in abouts.items()}
        options.append(o)
    bots = bot_levels(game, lang, caps)
    return {
        "name": game.name,
        "title": game_title(game, lang),
        # a line shown with the title (e.g. civ4: the card set is reconstructed)
        "note": _label(lang, texts.get("note"), str(getattr(game, "note", "") or "")),
        "min_players": game.min_players,
        "max_players": game.max_players,
        "options": options,
        "bots": bots,
        "default_bot": default_bot(game),
        "module": web_module(game),
    }


def describe_kinds(lang: str, caps: BotSettings | None = None) -> list[dict[str, Any]]:
    return [describe_kind(g, lang, caps) for g in all_games()]


__all__ = [
    "EXTRA_GAMES_ENV",
    "GENERIC_MODULE",
    "bot_levels",
    "default_bot",
    "describe_kind",
    "describe_kinds",
    "game_title",
    "load_extra_games",
    "web_assets",
    "web_module",
    "web_view",
]
