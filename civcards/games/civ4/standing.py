"""Who leads a game of Civilization: The Card Game now, as one seat sees it: the live
panel of the web table.

Computed from the seat's observation only (C72: every empire, the markets and the pile
sizes are public): each player's victory points with the tie-break counts (C70), who
would win if the game ended now, and what ends it (C68: the last technology bought;
C69: the round cap).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...civ4 import Observation
from ...civ4.cards import RULES
from ...i18n import t

_CAP: int = RULES["stalemate_rounds"]


def standing(obs: Observation, names: Sequence[str], lang: str) -> dict[str, Any]:
    """The panel: ``{"title", "lead", "rows": [{"seat", "text", "lead"}], "note"}``."""
    scores = [tuple(pv.score) for pv in obs.seats]  # (vp, techs, population, wonders)
    top = max(scores)
    leaders = [s for s, sc in enumerate(scores) if sc == top]
    who = ", ".join(names[s] for s in leaders)
    if len(leaders) == 1:
        lead = t(lang, "ccg.lead.leader", name=who, vp=top[0])
    else:
        lead = t(lang, "ccg.lead.tied", names=who, vp=top[0])
    rows = [
        {
            "seat": s,
            "text": t(lang, "ccg.web.vp_line", vp=sc[0], techs=sc[1], pop=sc[2], wonders=sc[3]),
            "lead": s in leaders,
        }
        for s, sc in enumerate(scores)
    ]
    left = len(obs.tech_market) + obs.tech_pile
    finish_round = any(k == "finish_round" and v for k, v in obs.options)
    note = t(
        lang,
        "ccg.lead.end_round" if finish_round else "ccg.lead.end",
        n=left,
        market=len(obs.tech_market),
        pile=obs.tech_pile,
    )
    note += " " + t(lang, "ccg.lead.cap", cap=_CAP, round=obs.round)
    return {"title": t(lang, "ccg.lead.title"), "lead": lead, "rows": rows, "note": note}


__all__ = ["standing"]
