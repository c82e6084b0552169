"""Civilization: The Card Game's texts for players beyond the table: the rules page and
the card reference.

The rules page is written for players (short, with examples) in each language, one
CommonMark file per language in ``rules/`` (from ``../shared/civ4/RULES.md``, in our
own words). The card reference lists every card of the packaged ``cards.toml`` with
what it does (:func:`.text.card_help`) and its printed numbers. The card set is
RECONSTRUCTED: the reference says so above the cards.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from ...civ4 import CARDS
from ...civ4.cards import DeckCard, TechCard
from ...i18n import normalize_lang, t
from .text import card_help, card_name, reconstructed, res_short

RULES_DIR = Path(__file__).parent / "rules"
_ERAS = {1: "I", 2: "II", 3: "III"}


@cache
def rules_page(lang: str = "en") -> str:
    """The rules for players in ``lang`` (CommonMark)."""
    return (RULES_DIR / f"{normalize_lang(lang)}.md").read_text(encoding="utf-8")


def _tags(card: TechCard | DeckCard, lang: str) -> list[str]:
    tags: list[str] = []
    if isinstance(card, TechCard):
        tags.append(t(lang, "ccg.web.era", era=_ERAS[card.era]))
    else:
        tags.append(t(lang, "ccg.ref.copies", n=card.count))
    if card.kind != "unit":
        tags.append(t(lang, "ccg.cost", cost=card.cost))
        if card.culture:
            tags.append(t(lang, "ccg.culture_n", n=card.culture))
        if card.happiness:
            tags.append(t(lang, "ccg.happiness_n", n=card.happiness))
    if card.kind in ("tech", "wonder"):
        tags.append(t(lang, "ccg.ref.vp"))
    if isinstance(card, DeckCard):
        tags.append(t(lang, "ccg.cash_value", res=res_short(card.resource)))
    return tags


def card_reference(lang: str = "en") -> dict[str, Any]:
    """Every card of the (reconstructed) card set with what it does, in ``lang``."""
    lang = normalize_lang(lang)
    plots = [
        {
            "name": card_name(code, lang),
            "text": card_help(code, lang),
            "tags": [t(lang, "ccg.ref.copies", n=p.count)],
        }
        for code, p in sorted(CARDS.plots.items(), key=lambda kv: card_name(kv[0], lang))
    ]
    techs = sorted(CARDS.techs.values(), key=lambda c: (c.era, c.cost, card_name(c.code, lang)))
    sections = [
        {"title": t(lang, "ccg.ref.plots"), "cards": plots},
        {
            "title": t(lang, "ccg.ref.techs"),
            "cards": [
                {
                    "name": card_name(c.code, lang),
                    "text": card_help(c.code, lang),
                    "tags": _tags(c, lang),
                }
                for c in techs
            ],
        },
    ]
    for kind in ("building", "wonder", "unit"):
        cards = sorted(
            (c for c in CARDS.deck.values() if c.kind == kind),
            key=lambda c: (c.cost, card_name(c.code, lang)),
        )
        sections.append(
            {
                "title": t(lang, f"ccg.ref.{kind}s"),
                "cards": [
                    {
                        "name": card_name(c.code, lang),
                        "text": card_help(c.code, lang),
                        "tags": _tags(c, lang),
                    }
                    for c in cards
                ],
            }
        )
    return {"title": t(lang, "ccg.ref.title"), "note": reconstructed(lang), "sections": sections}


__all__ = ["card_reference", "rules_page"]
