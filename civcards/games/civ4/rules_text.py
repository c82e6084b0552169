"""Civilization: The Card Game's texts for players beyond the table: the rules page and
the card reference.

The rules page is written for players (short, with examples) in each language, one
CommonMark file per language in ``rules/`` (from ``docs/rules/civ4.md``, in our
own words), its numbers (``{pop_base}``, ``{draw}``…) filled from the card set of the
game it is shown for (new games': :data:`~civcards.civ4.options.DEFAULT_CARD_SET`). The
card reference lists every card of that packaged set with what it does
(:func:`.text.card_help`) and its printed numbers. The card set is RECONSTRUCTED: the
reference says so above the cards, with the set's version.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from ...civ4.cards import CardSet, DeckCard, TechCard, card_set
from ...civ4.options import DEFAULT_CARD_SET
from ...i18n import normalize_lang, t
from .text import card_help, card_name, reconstructed, res_short
from .web import card_view

RULES_DIR = Path(__file__).parent / "rules"
_ERAS = {1: "I", 2: "II", 3: "III"}


def rule_numbers(cs: CardSet) -> dict[str, int]:
    """The numbers the rules page quotes, as card set ``cs`` prints them (C26, C28, C37,
    C49, C50, C69)."""
    r = cs.rules
    plot = [
        r["plot_cost_base"] + r["plot_cost_step"] * (n - r["plot_cost_pivot"]) for n in (4, 5, 6)
    ]
    return {
        "pop_base": r["population_cost_base"],
        "pop_step": r["population_cost_step"],
        "plot5": plot[0],
        "plot6": plot[1],
        "plot7": plot[2],
        "trade": r["trade_rate"],
        "draw": r["draw"],
        "discard": r["discard"],
        "culture_min": r["culture_minimum"],
        "happy_min": r["happiness_minimum"],
        "cap": r["stalemate_rounds"],
    }


@cache
def rules_page(lang: str = "en", set_name: str = DEFAULT_CARD_SET) -> str:
    """The rules for players in ``lang`` (CommonMark), with the numbers of card set
    ``set_name`` (the default: new games')."""
    text = (RULES_DIR / f"{normalize_lang(lang)}.md").read_text(encoding="utf-8")
    return text.format_map(rule_numbers(card_set(set_name)))


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


def card_reference(lang: str = "en", set_name: str = DEFAULT_CARD_SET) -> dict[str, Any]:
    """Every card of the (reconstructed) card set ``set_name`` (the default: new games'),
    with what it does, in ``lang``; each with its code and its face's data (what the table
    draws it with: :func:`.web.card_view`), which the rules page draws with the table's
    faces (static/faces.js)."""
    lang = normalize_lang(lang)
    cs = card_set(set_name)
    plots = [
        {
            "name": card_name(code, lang),
            "text": card_help(code, lang, cs),
            "tags": [t(lang, "ccg.ref.copies", n=p.count)],
            "code": code,
            "face": card_view(code, lang, set_name),
        }
        for code, p in sorted(cs.plots.items(), key=lambda kv: card_name(kv[0], lang))
    ]
    techs = sorted(cs.techs.values(), key=lambda c: (c.era, c.cost, card_name(c.code, lang)))
    sections = [
        {"title": t(lang, "ccg.ref.plots"), "cards": plots},
        {
            "title": t(lang, "ccg.ref.techs"),
            "cards": [
                {
                    "name": card_name(c.code, lang),
                    "text": card_help(c.code, lang, cs),
                    "tags": _tags(c, lang),
                    "code": c.code,
                    "face": card_view(c.code, lang, set_name),
                }
                for c in techs
            ],
        },
    ]
    for kind in ("building", "wonder", "unit"):
        cards = sorted(
            (c for c in cs.deck.values() if c.kind == kind),
            key=lambda c: (c.cost, card_name(c.code, lang)),
        )
        sections.append(
            {
                "title": t(lang, f"ccg.ref.{kind}s"),
                "cards": [
                    {
                        "name": card_name(c.code, lang),
                        "text": card_help(c.code, lang, cs),
                        "tags": _tags(c, lang),
                        "code": c.code,
                        "face": card_view(c.code, lang, set_name),
                    }
                    for c in cards
                ],
            }
        )
    return {
        "title": t(lang, "ccg.ref.title"),
        "note": reconstructed(lang, cs.set_name),
        "sections": sections,
    }


__all__ = ["card_reference", "rules_page"]
