"""Message catalogues of the interfaces: names and sentences in five languages.

The texts live in gettext catalogues (``civcards/locale/<lang>/LC_MESSAGES/<domain>.mo``,
compiled from the ``.po`` files beside them; docs/translations.md tells how to
extract, update and compile them). There is one *domain* per game (``carta``
for CIV; a game adds its own) plus ``civcards`` for the interface itself. The
message id of each text is its key (``ui.turn_of``, ``domain.S``); the
standard library's :mod:`gettext` reads the compiled catalogues, so nothing
beyond Python is needed at run time. The names of domains, effects and game
terms are the rulebooks' own (the table at the end of RULES.md); the sentences
of the interface are ours.

>>> t("de", "domain.S")
'Wissenschaft'
>>> domain_name("pt", 0), domain_name("fr", "C"), effect_name("es", "discovery")
('Poder Militar', 'Art', 'Descubrimiento')
>>> t("en", "ui.turn_of", name="Ana")
"Ana's turn"

A text that depends on a number has plural forms (gettext's ``msgid_plural``, chosen by
each catalogue's ``Plural-Forms``): :func:`tn` picks the form for ``n``.

>>> tn("en", "lead.points", 1), tn("en", "lead.points", 2), tn("fr", "lead.points", 0)
('1 point', '2 points', '0 point')
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from pathlib import Path
from typing import Final

LANGS: Final = ("en", "es", "de", "fr", "pt")
DEFAULT_LANG: Final = "en"
DOMAIN_LETTERS: Final = "MRESCU"

#: where the catalogues are: ``<lang>/LC_MESSAGES/<domain>.po`` and ``.mo``
LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"
#: the domain of the interface's own texts (the games' domains are named after them)
INTERFACE_DOMAIN: Final = "civcards"


def domains() -> list[str]:
    """The catalogue domains: the interface's first, then one per game, by name."""
    found = sorted(p.stem for p in (LOCALE_DIR / DEFAULT_LANG / "LC_MESSAGES").glob("*.mo"))
    return sorted(found, key=lambda d: d != INTERFACE_DOMAIN)


def read_catalogue(lang: str, domain: str) -> dict[str, str]:
    """Message id -> text of one compiled catalogue (empty if it does not exist)."""
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.mo"
    if not path.is_file():
        return {}
    with path.open("rb") as f:
        trans = gettext.GNUTranslations(f)
    # the catalogue proper: the header (empty id) left out
    catalog: dict[object, str] = trans._catalog  # type: ignore[attr-defined]
    return {k: v for k, v in catalog.items() if isinstance(k, str) and k}


def read_plurals(lang: str, domain: str) -> tuple[dict[str, tuple[str, ...]], Callable[[int], int]]:
    """The plural texts of one compiled catalogue (message id -> its forms) and the
    catalogue's rule choosing a form for a number (its ``Plural-Forms``)."""
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.mo"
    if not path.is_file():
        return {}, lambda n: int(n != 1)
    with path.open("rb") as f:
        trans = gettext.GNUTranslations(f)
    catalog: dict[object, str] = trans._catalog  # type: ignore[attr-defined]
    forms: dict[str, dict[int, str]] = {}
    for k, v in catalog.items():
        if isinstance(k, tuple) and len(k) == 2 and isinstance(k[0], str):
            forms.setdefault(k[0], {})[int(k[1])] = v
    rule: Callable[[int], int] = trans.plural  # type: ignore[attr-defined]
    return {k: tuple(f[i] for i in sorted(f)) for k, f in forms.items()}, rule


def _load_plurals() -> dict[str, dict[str, tuple[tuple[str, ...], Callable[[int], int]]]]:
    out: dict[str, dict[str, tuple[tuple[str, ...], Callable[[int], int]]]] = {}
    for domain in domains():
        for lang in LANGS:
            forms, rule = read_plurals(lang, domain)
            for key, texts in forms.items():
                out.setdefault(key, {})[lang] = (texts, rule)
    return out


def _load() -> tuple[dict[str, dict[str, str]], dict[str, str]]:
    messages: dict[str, dict[str, str]] = {}
    owner: dict[str, str] = {}
    for domain in domains():
        for lang in LANGS:
            for key, text in read_catalogue(lang, domain).items():
                if owner.setdefault(key, domain) != domain:
                    raise RuntimeError(f"the key {key!r} is in both {owner[key]} and {domain}")
                messages.setdefault(key, {})[lang] = text
    return messages, owner


_LOADED = _load()
#: key -> language -> text, every domain merged (keys are unique across domains).
#: Texts may hold ``{name}`` fields filled by :func:`t`.
MESSAGES: Final[dict[str, dict[str, str]]] = _LOADED[0]
#: key -> the domain (catalogue) it belongs to
KEY_DOMAIN: Final[dict[str, str]] = _LOADED[1]
#: key -> language -> (the plural forms, the language's rule picking one for a number)
PLURALS: Final = _load_plurals()


def normalize_lang(lang: str | None) -> str:
    """``lang`` if it is one of :data:`LANGS` (any case, ``pt_BR`` style allowed), else English."""
    if not lang:
        return DEFAULT_LANG
    code = lang.strip().lower().replace("-", "_").split("_")[0].split(".")[0]
    return code if code in LANGS else DEFAULT_LANG


def t(lang: str, key: str, /, **kw: object) -> str:
    """The text of ``key`` in ``lang`` with its ``{fields}`` filled from ``kw``.

    An unknown language (or a missing translation) falls back to English; an
    unknown key raises KeyError (a programming error, caught by the tests).
    """
    entry = MESSAGES[key]
    text = entry.get(lang) or entry[DEFAULT_LANG]
    return text.format(**kw) if kw else text


def tn(lang: str, key: str, n: int, /, **kw: object) -> str:
    """The plural text of ``key`` for the number ``n`` in ``lang`` (gettext's ngettext: the
    form the language's ``Plural-Forms`` picks), its ``{n}`` and other fields filled.

    An unknown language (or a missing translation) falls back to English.
    """
    entry = PLURALS[key]
    forms, rule = entry.get(lang) or entry[DEFAULT_LANG]
    text = forms[min(int(rule(n)), len(forms) - 1)]
    return text.format(n=n, **kw)


def domain_texts(lang: str, domain: str) -> dict[str, str]:
    """Every text of one domain in ``lang`` (English where one is missing)."""
    code = normalize_lang(lang)
    return {
        k: v.get(code) or v[DEFAULT_LANG] for k, v in MESSAGES.items() if KEY_DOMAIN[k] == domain
    }


def domain_name(lang: str, d: int | str) -> str:
    """The name of domain ``d`` (0-5 or a letter of ``MRESCU``) in ``lang``."""
    letter = DOMAIN_LETTERS[d] if isinstance(d, int) else d.upper()
    return t(lang, f"domain.{letter}")


def effect_name(lang: str, kind: str) -> str:
    """The rulebook name of an effect, from its notation word (``holybook``, ``attack``)."""
    return t(lang, f"effect.{kind}")


def effect_help(lang: str, kind: str) -> str:
    """One or two sentences saying what an effect does."""
    return t(lang, f"help.{kind}")


__all__ = [
    "DEFAULT_LANG",
    "INTERFACE_DOMAIN",
    "KEY_DOMAIN",
    "LANGS",
    "LOCALE_DIR",
    "MESSAGES",
    "PLURALS",
    "domain_name",
    "domain_texts",
    "domains",
    "effect_help",
    "effect_name",
    "normalize_lang",
    "read_catalogue",
    "read_plurals",
    "t",
    "tn",
]
