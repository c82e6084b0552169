"""Who leads a game of CIV now, as one seat sees it: the live panel of the web table.

Computed from the seat's observation only (R25: play areas and their markers are
public), never from the state: who would win on Majorities if the deck ran out now
(R22, R24 for teams, ties broken as R22 says), and what each player still needs for
Hegemony (R21: the threshold plus the Democracy cards on that domain).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...carta.cards import LETTERS, TIE_BREAK_ORDER, str_to_counts
from ...carta.game import majority_points
from ...i18n import t, tn


def _hegemony_need(obs: Mapping[str, Any], seat: int, counts: list[int]) -> tuple[int, int, int]:
    """(domain, cards, cards needed) of ``seat``'s closest Hegemony (R21): the fewest
    cards missing; on a tie the domain with more cards, then the first in MRESCU."""
    heg = int(obs["thresholds"][2])
    dem = [0] * 6
    for m in obs.get("markers") or []:
        if m.get("kind") == "democracy" and m.get("seat") == seat:
            dem[LETTERS.index(m["domain"])] += 1
    best = min(range(6), key=lambda d: (heg + dem[d] - counts[d], -counts[d], d))
    return best, counts[best], heg + dem[best]


def standing(obs: Mapping[str, Any], names: Sequence[str], lang: str) -> dict[str, Any]:
    """The panel: ``{"title", "lead", "rows": [{"seat", "text", "lead"}], "note"}``."""
    areas = [str_to_counts(a) for a in obs["areas"]]
    n = len(areas)
    teams = bool(obs.get("teams"))
    pts = majority_points(areas, teams)

    def key(side: int) -> tuple[int, ...]:
        seats = [s for s in range(n) if s % 2 == side] if teams else [side]
        return (pts[side], *(sum(areas[s][d] for s in seats) for d in TIE_BREAK_ORDER))

    sides = 2 if teams else n
    keys = [key(i) for i in range(sides)]  # each side's once: this runs for every frame
    top = max(keys)
    leaders = [i for i in range(sides) if keys[i] == top]
    if teams:
        who = [
            t(lang, "ui.team_name", seats=f"{'AB'[i]} ({names[i]} + {names[i + 2]})")
            for i in leaders
        ]
    else:
        who = [names[i] for i in leaders]
    if top[0] == 0:
        lead = t(lang, "lead.nobody")
    elif len(leaders) == 1:
        lead = t(lang, "lead.majority", name=who[0], points=tn(lang, "lead.points", top[0]))
    else:
        lead = t(
            lang, "lead.majority_shared", names=", ".join(who), points=tn(lang, "lead.points", top[0])
        )
    rows = []
    for s in range(n):
        d, have, need = _hegemony_need(obs, s, areas[s])
        side = s % 2 if teams else s
        rows.append(
            {
                "seat": s,
                "text": t(
                    lang,
                    "lead.row",
                    points=tn(lang, "lead.points", pts[side]),
                    domain=t(lang, f"domain.{LETTERS[d]}"),
                    have=have,
                    need=need,
                    more=max(0, need - have),
                ),
                "lead": side in leaders and top[0] > 0,
            }
        )
    return {
        "title": t(lang, "lead.title"),
        "lead": lead,
        "rows": rows,
        "note": t(lang, "lead.note"),
    }


__all__ = ["standing"]
