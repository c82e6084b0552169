"""The texts a browser receives: every catalogue domain in one dictionary.

The web table's own texts (``web.*``) live in the gettext catalogues with the
rest (:mod:`civcards.i18n`); :func:`catalogue` merges the interface's domain
and every game's into the one dictionary a browser receives.
"""

from __future__ import annotations

from ..i18n import DEFAULT_LANG, MESSAGES, normalize_lang


def catalogue(lang: str) -> dict[str, str]:
    """Every text the browser needs in ``lang`` (English where a text is missing)."""
    code = normalize_lang(lang)
    return {k: v.get(code) or v[DEFAULT_LANG] for k, v in MESSAGES.items()}


def web_keys() -> list[str]:
    """The keys of the web table's own texts."""
    return sorted(k for k in MESSAGES if k.startswith("web."))
