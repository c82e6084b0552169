"""Write the card tables of the rules pages from the games' own data.

``docs/rules/carta.md`` shows CIV's 104 cards (R1) and thresholds (R6) from
``civcards/carta/cards.py``; ``docs/rules/civ4.md`` shows every card of each
packaged civ4 card set (``reconstructed-1``, ``-2``, ``-3``, read from
``civcards/civ4/cards*.toml``). Each table lies between a pair of markers::

    <!-- BEGIN GENERATED: NAME (scripts/rules_tables.py) -->
    <!-- END GENERATED: NAME -->

and only the text between them is rewritten. Usage::

    python scripts/rules_tables.py          # rewrite the tables in place
    python scripts/rules_tables.py --check  # exit 1 (naming the stale pages) if a table is out of date

``tests/test_rule_citations.py`` runs the check, so a change of the card data
without the pages fails the tests.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from civcards.carta.cards import DOMAIN_NAMES, ERA_COMPOSITION, ERA_NAMES, THRESHOLDS
from civcards.civ4.cards import RES_LETTERS, CardSet, DeckCard, TechCard, card_set, res_str
from civcards.civ4.options import CARD_SETS, DEFAULT_CARD_SET, RECORD_CARD_SET
from civcards.games.civ4.text import effect_texts, unit_profile

ROOT = Path(__file__).resolve().parents[1]
CARTA_PAGE = ROOT / "docs" / "rules" / "carta.md"
CIV4_PAGE = ROOT / "docs" / "rules" / "civ4.md"
TOOL = "scripts/rules_tables.py"

_ERA = {1: "I", 2: "II", 3: "III"}
_FILES = {
    "reconstructed-1": "civcards/civ4/cards.toml",
    "reconstructed-2": "civcards/civ4/cards-reconstructed-2.toml",
    "reconstructed-3": "civcards/civ4/cards-reconstructed-3.toml",
}


def _table(head: Sequence[str], rows: Sequence[Sequence[object]], right: int = 0) -> str:
    """A Markdown table; the last ``right`` columns are right-aligned."""
    n = len(head)
    rule = ["---"] * (n - right) + ["---:"] * right
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(rule) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


# -- CIV (carta) -----------------------------------------------------------------------


def carta_cards() -> str:
    """R1: cards per domain and era, with the totals."""
    rows: list[list[object]] = []
    for d, name in enumerate(DOMAIN_NAMES):
        per_era = [ERA_COMPOSITION[e][d] for e in range(3)]
        rows.append([name, *per_era, sum(per_era)])
    totals = [sum(ERA_COMPOSITION[e]) for e in range(3)]
    rows.append(["**all domains**", *totals, sum(totals)])
    head = ["domain", *(f"era {e}" for e in ERA_NAMES), "cards"]
    return _table(head, rows, right=4)


def carta_thresholds() -> str:
    """R6: permanent-effect levels and hegemony by player count."""
    rows = [[n, *THRESHOLDS[n]] for n in sorted(THRESHOLDS)]
    return _table(["players", "level 1", "level 2", "hegemony"], rows, right=3)


# -- civ4 ------------------------------------------------------------------------------


def _res(r: Sequence[int]) -> str:
    return res_str(tuple(r))


def _effects(card: TechCard | DeckCard) -> str:
    said = [f"`{e.kind}`: {text}" for e, text in zip(card.effects, effect_texts(card), strict=True)]
    return "; ".join(said) if said else "—"


def _numbers(cs: CardSet) -> str:
    r = cs.rules
    pop = f"{r['population_cost_base']} + {r['population_cost_step']}·P"
    plot = f"{r['plot_cost_base']} + {r['plot_cost_step']}·(N − {r['plot_cost_pivot']})"
    kept = ", ".join(f"{cs.techs_per_era[k]} with {k} players" for k in sorted(cs.techs_per_era))
    rows = [
        ["population cost (C26)", pop],
        ["plot cost (C26)", plot],
        ["lowest cost (C26, RU12)", r["min_cost"]],
        ["bank trade rate (C28)", f"{r['trade_rate']}:1"],
        ["draw, discard (C37)", f"{r['draw']}, {r['discard']}"],
        ["Highest Culture from (C49)", r["culture_minimum"]],
        [
            "Highest Happiness from, its discount (C50)",
            f"{r['happiness_minimum']}, −{r['happiness_discount']}",
        ],
        [
            "population for a second slot, most slots (C18)",
            f"{r['population_for_two_slots']}, {r['max_slots']}",
        ],
        ["technologies kept per era (C9, C71)", kept],
        ["population supply (C5)", cs.population],
        ["stalemate cap in rounds (C69)", r["stalemate_rounds"]],
    ]
    return _table(["number (rule)", "value"], rows)


def _plots(cs: CardSet) -> str:
    rows = [
        [p.name, f"`{p.code}`", _res(p.yields), sum(p.yields), p.count]
        for p in sorted(cs.plots.values(), key=lambda p: p.code)
    ]
    total = [sum(p.yields[i] * p.count for p in cs.plots.values()) for i in range(3)]
    n = sum(p.count for p in cs.plots.values())
    rows.append(
        ["**all plots**", "", " ".join(f"{total[i]}{RES_LETTERS[i]}" for i in range(3)), "", n]
    )
    return _table(["plot", "code", "yield (C2)", "total", "cards"], rows, right=2)


def _techs(cs: CardSet) -> str:
    rows = [
        [_ERA[t.era], t.name, f"`{t.code}`", t.cost, t.culture, t.happiness, _effects(t)]
        for t in sorted(cs.techs.values(), key=lambda t: (t.era, t.code))
    ]
    head = ["era", "technology", "code", "cost (C)", "culture", "happiness", "effects (C52)"]
    return _table(head, rows)


def _built(cs: CardSet, kind: str) -> str:
    cards = sorted((d for d in cs.deck.values() if d.kind == kind), key=lambda d: d.code)
    rows = [
        [
            d.name,
            f"`{d.code}`",
            d.cost,
            d.culture,
            d.happiness,
            _effects(d),
            _res(d.resource),
            d.count,
        ]
        for d in cards
    ]
    rows.append(["**all**", "", "", "", "", "", "", sum(d.count for d in cards)])
    head = [
        kind,
        "code",
        "cost (H)",
        "culture",
        "happiness",
        "effects (C52)",
        "cash value (C29)",
        "cards",
    ]
    return _table(head, rows)


def _units(cs: CardSet) -> str:
    cards = sorted((d for d in cs.deck.values() if d.kind == "unit"), key=lambda d: d.code)
    rows = [
        [d.name, f"`{d.code}`", "; ".join(unit_profile(d)), _res(d.resource), d.count]
        for d in cards
    ]
    rows.append(["**all**", "", "", "", sum(d.count for d in cards)])
    return _table(["unit", "code", "profile (C47)", "cash value (C29)", "cards"], rows)


def civ4_set(name: str) -> str:
    """Every card of the packaged card set ``name``, with the numbers of its ``[rules]``."""
    cs = card_set(name)
    roles = []
    if name == RECORD_CARD_SET:
        roles.append("read for a record that names no card set")
    if name == DEFAULT_CARD_SET:
        roles.append("the default of new games of the platform")
    role = f" ({'; '.join(roles)})" if roles else ""
    deck = sum(d.count for d in cs.deck.values())
    parts = [
        f"Card set **{name}**, RECONSTRUCTED (the original card list is not public), "
        f"from `{_FILES[name]}`{role}: {sum(p.count for p in cs.plots.values())} plots, "
        f"{len(cs.techs)} technologies, {deck} game-deck cards.",
        "**Numbers of the rules**\n\n" + _numbers(cs),
        "**Plots**\n\n" + _plots(cs),
        "**Technologies** (each once, 1 VP)\n\n" + _techs(cs),
        "**Buildings** (0 VP)\n\n" + _built(cs, "building"),
        "**Wonders** (each once, 1 VP)\n\n" + _built(cs, "wonder"),
        "**Military units**\n\n" + _units(cs),
    ]
    return "\n\n".join(parts)


# -- the pages -------------------------------------------------------------------------

#: page -> section name -> the function that writes the section
SECTIONS: dict[Path, dict[str, Callable[[], str]]] = {
    CARTA_PAGE: {"carta cards": carta_cards, "carta thresholds": carta_thresholds},
    CIV4_PAGE: {f"civ4 {name}": functools.partial(civ4_set, name) for name in CARD_SETS},
}


def _pattern(name: str) -> re.Pattern[str]:
    return re.compile(
        rf"(<!-- BEGIN GENERATED: {re.escape(name)} \({re.escape(TOOL)}\) -->\n)"
        rf"(.*?)"
        rf"(<!-- END GENERATED: {re.escape(name)} -->)",
        re.DOTALL,
    )


def render(text: str, sections: dict[str, Callable[[], str]]) -> str:
    """``text`` with each generated section rewritten; ``ValueError`` if a marker is missing."""
    for name, make in sections.items():
        pat = _pattern(name)
        if len(pat.findall(text)) != 1:
            raise ValueError(f"the page needs exactly one pair of markers for {name!r}")
        m = pat.search(text)
        assert m is not None
        text = text[: m.start(2)] + make() + "\n" + text[m.end(2) :]
    return text


def stale_pages() -> list[Path]:
    """The pages whose generated tables differ from what the data gives now."""
    return [
        p
        for p, s in SECTIONS.items()
        if render(p.read_text(encoding="utf-8"), s) != p.read_text(encoding="utf-8")
    ]


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args not in ([], ["--check"]):
        print("usage: python scripts/rules_tables.py [--check]", file=sys.stderr)
        return 2
    try:
        if args == ["--check"]:
            stale = stale_pages()
            for p in stale:
                print(f"{p.relative_to(ROOT)}: the card tables are out of date; run python {TOOL}")
            return 1 if stale else 0
        for page, sections in SECTIONS.items():
            page.write_text(render(page.read_text(encoding="utf-8"), sections), encoding="utf-8")
            print(f"wrote the tables of {page.relative_to(ROOT)}")
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
