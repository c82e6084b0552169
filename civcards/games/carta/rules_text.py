"""CIV's texts for players beyond the table: the rules page and the card reference.

The rules page is written for players (short, with examples) in each language, one
CommonMark file per language in ``rules/`` (from ``docs/rules/carta.md``, in our own
words; the names of things are the rulebooks' own). The card reference is built from
the catalogues (:mod:`civcards.i18n`): every domain with its three effects, every
effect with what it does, and the markers.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from ...carta.cards import LETTERS
from ...i18n import normalize_lang, t

RULES_DIR = Path(__file__).parent / "rules"

#: each domain's effects: level 1, level 2, discard (R15-R20; Culture has no discard)
DOMAIN_EFFECTS: dict[str, tuple[str, str, str | None]] = {
    "M": ("assassination", "purge", "attack"),
    "R": ("holybook", "divineright", "inquisition"),
    "E": ("development", "monopoly", "embargo"),
    "S": ("experiment", "research", "discovery"),
    "C": ("inspiration", "inspiration", None),
    "U": ("oligarchy", "republic", "democracy"),
}
#: cards of each domain in the deck (R1)
DECK_COUNTS = {"M": 20, "R": 16, "E": 16, "S": 20, "C": 16, "U": 16}


@cache
def rules_page(lang: str = "en") -> str:
    """The rules for players in ``lang`` (CommonMark)."""
    return (RULES_DIR / f"{normalize_lang(lang)}.md").read_text(encoding="utf-8")


def _domain_text(lang: str, letter: str) -> str:
    l1, l2, disc = DOMAIN_EFFECTS[letter]
    if letter == "C":  # one effect, usable by the Culture majority (R19)
        return t(lang, "ref.domain_culture", effect=t(lang, "effect.inspiration"))
    assert disc is not None
    return t(
        lang,
        "ref.domain",
        l1=t(lang, f"effect.{l1}"),
        l2=t(lang, f"effect.{l2}"),
        disc=t(lang, f"effect.{disc}"),
    )


def card_reference(lang: str = "en") -> dict[str, Any]:
    """Every card (a domain), effect and marker of CIV with what it does, in ``lang``."""
    lang = normalize_lang(lang)
    domains = [
        {
            "code": d,  # the table's card (its face on /rules: static/faces.js)
            "name": t(lang, f"domain.{d}"),
            "text": _domain_text(lang, d),
            "tags": [t(lang, "ref.in_deck", n=DECK_COUNTS[d])],
        }
        for d in LETTERS
    ]
    effects = []
    for d in LETTERS:
        l1, l2, disc = DOMAIN_EFFECTS[d]
        kinds = [(l1, t(lang, "ref.level", n=1)), (l2, t(lang, "ref.level", n=2))]
        if d == "C":
            kinds = [(l1, t(lang, "ref.majority"))]
        if disc is not None:
            kinds.append((disc, t(lang, "ref.discard")))
        for kind, tag in kinds:
            effects.append(
                {
                    "name": t(lang, f"effect.{kind}"),
                    "text": t(lang, f"help.{kind}"),
                    "tags": [t(lang, f"domain.{d}"), tag],
                }
            )
    markers = [
        {"name": t(lang, f"ref.{k}"), "text": t(lang, f"ref.{k}_text"), "tags": []}
        for k in ("embargo_marker", "democracy_marker", "coin")
    ]
    return {
        "title": t(lang, "ref.title"),
        "note": None,
        "sections": [
            {"title": t(lang, "ref.domains"), "cards": domains},
            {"title": t(lang, "ref.effects"), "cards": effects},
            {"title": t(lang, "ref.markers"), "cards": markers},
        ],
    }


__all__ = ["DOMAIN_EFFECTS", "card_reference", "rules_page"]
