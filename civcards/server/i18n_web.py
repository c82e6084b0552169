"""The texts a browser receives: every catalogue domain in one dictionary.

The web table's own texts (``web.*``) live in the gettext catalogues with the
rest (:mod:`civcards.i18n`); :func:`catalogue` merges the interface's domain
and every game's into the one dictionary a browser receives.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..i18n import DEFAULT_LANG, LANGS, MESSAGES, normalize_lang, t

if TYPE_CHECKING:
    from fastapi import Request


def browser_lang(request: Request) -> str:
    """The first of the five languages in the Accept-Language header, else English."""
    header = request.headers.get("accept-language", "")
    for part in header.split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGS:
            return code
    return "en"


def page_lang(request: Request) -> str:
    """A page's language: its ``?lang=``, else the browser's (:func:`browser_lang`)."""
    return normalize_lang(request.query_params.get("lang") or browser_lang(request))


def catalogue(lang: str) -> dict[str, str]:
    """Every text the browser needs in ``lang`` (English where a text is missing)."""
    code = normalize_lang(lang)
    return {k: v.get(code) or v[DEFAULT_LANG] for k, v in MESSAGES.items()}


def web_keys() -> list[str]:
    """The keys of the web table's own texts."""
    return sorted(k for k in MESSAGES if k.startswith("web."))


def bot_key_name(bot: str) -> str:
    """A bot's level as it stands in a catalogue key (``web.bot_*``, ``web.botlevel.*``):
    without its budget and with ``_`` for ``+``, which a key holds none of
    (``"ismcts+net:200it"`` -> ``"ismcts_net"``)."""
    return bot.partition(":")[0].replace("+", "_")


def seat_name(seat: int, kind: str | None, bot: str | None, name: str | None, lang: str) -> str:
    """A seat's name as the table shows it in ``lang``: its player's own name, else the
    words for a seat nobody named ("Seat 2") or for a bot the server named when the game
    was made (``"{level} bot {n}"``, stored in English: "Bot 3 (random)")."""
    n = seat + 1
    if kind == "bot" and bot and (not name or name == f"{bot} bot {n}"):
        base = bot.partition(":")[0]
        key = "web.botlevel." + bot_key_name(bot)
        level = t(lang, key) if key in MESSAGES else base
        return t(lang, "web.bot_seat", n=n, level=level)
    return name or t(lang, "web.seat_n", n=n)


def seat_names(seats: Sequence[Any], lang: str) -> list[str]:
    """:func:`seat_name` of each seat (objects with ``kind``, ``bot`` and ``name``)."""
    return [
        seat_name(i, getattr(s, "kind", None), getattr(s, "bot", None), s.name, lang)
        for i, s in enumerate(seats)
    ]
