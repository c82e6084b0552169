"""CIV's columns in the rows of ``civcards simulate --out``, and its sections of ``civcards report``.

Columns (:data:`COLUMNS`):

* ``domain``: the letter of a hegemony's domain (M R E S C U), empty for a
  majority victory;
* ``area_<s>_<letter>``: the cards of each domain in seat ``s``'s play area at
  the end (empty for a seat the game does not have);
* ``effect_<kind>``: how many times each effect kind of the notation
  (``carta.moves.EFFECT_KINDS``) was used in the game (an ``inspiration``
  counts as an inspiration, not as the effect it copies).

Report sections: the winning domain of the hegemony victories, and the effect
usage (mean uses per game).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...carta.cards import DOMAIN_NAMES, LETTERS
from ...carta.game import GameState
from ...carta.moves import EFFECT_KINDS

MAX_SEATS = 4

#: column name -> type, in file order
COLUMNS: dict[str, str] = {
    "domain": "str",
    **{f"area_{s}_{c}": "int" for s in range(MAX_SEATS) for c in LETTERS},
    **{f"effect_{k}": "int" for k in EFFECT_KINDS},
}


def sim_row(g: GameState) -> dict[str, Any]:
    """The CIV-specific figures of a finished game (the names of :data:`COLUMNS`)."""
    row: dict[str, Any] = {
        "domain": None if g.victory_domain is None else LETTERS[g.victory_domain]
    }
    for s in range(MAX_SEATS):
        area = g.areas[s] if s < g.n else None
        for d, c in enumerate(LETTERS):
            row[f"area_{s}_{c}"] = area[d] if area is not None else None
    counts = dict.fromkeys(EFFECT_KINDS, 0)
    for m in g.history:
        if m.kind in counts:
            counts[m.kind] += 1
    for k in EFFECT_KINDS:
        row[f"effect_{k}"] = counts[k]
    return row


def report_sections(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The winning domains and the effect usage of one configuration's rows."""
    n = len(rows)
    heg = [r for r in rows if r.get("victory") == "hegemony"]
    domains = [sum(1 for r in heg if r.get("domain") == c) for c in LETTERS]
    if heg:
        ranked = sorted(zip(LETTERS, domains, strict=True), key=lambda kv: -kv[1])
        parts = [
            f"{DOMAIN_NAMES[LETTERS.index(c)]} {100 * k / len(heg):.1f} %" for c, k in ranked if k
        ]
        finding = "Hegemonies by domain: " + ", ".join(parts) + "."
    else:
        finding = "No hegemony victory."
    effects = [
        round(sum(int(r.get(f"effect_{k}") or 0) for r in rows) / max(1, n), 3)
        for k in EFFECT_KINDS
    ]
    return [
        {
            "key": "hegemony_domains",
            "title": "Winning domain (hegemony)",
            "columns": [f"{name} ({c})" for c, name in zip(LETTERS, DOMAIN_NAMES, strict=True)],
            "values": domains,
            "finding": finding,
            "plot": {
                "file": "hegemony_domains.png",
                "title": "winning domain (hegemony)",
                "label": "share of hegemony victories",
                "values": [k / max(1, len(heg)) for k in domains],
            },
        },
        {
            "key": "effects_per_game",
            "title": "Effect usage (mean uses per game)",
            "columns": list(EFFECT_KINDS),
            "values": effects,
            "note": "An Inspiration counts as `inspiration`, not as the effect it copies; "
            "Holy Book and Divine Right (the passive hand sizes of R16) are moves only "
            "when an Inspiration copies them, so they count 0 here.",
            "plot": {
                "file": "effects.png",
                "title": "effect usage",
                "label": "mean uses per game",
                "horizontal": True,
            },
        },
    ]
