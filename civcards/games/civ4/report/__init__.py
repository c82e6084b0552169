"""civ4's parts of ``civcards report``: the sixteen balance questions (design notes).

:func:`report_overview` reads every row of the report at once (rows of
:mod:`civcards.games.civ4.sim`) and answers Q1–Q16 of
``docs/rules/civ4.md`` (design notes, balance questions) one by one: the measured figure,
its 95 % interval, the target, and whether it is met. :func:`report_sections`
adds one per-configuration table to the generic part of the report.

Which rows answer which question:

* *mirror* games: every seat ``greedy``; *archetype* games: one seat an
  archetype (``population``, ``techrush``, ``wonders``, ``military``,
  ``culture``), the others ``greedy``; *rules as written*: every option at its
  default. Q1–Q3, Q5, Q7–Q9, Q11–Q14 and Q16 use the mirror games under the
  rules as written; Q1 also shows ``finish_round``; Q4 and Q5's military
  share use the archetype games; Q10 the mirrors under the rules and under
  ``one_shot_steals``; Q13 also ``same_type_trade``; Q15 compares Q1 and Q4
  under ``happiness_not_wonders`` with the rules as written.
* A shared victory is split among its winners. Intervals are 95 %: mean ±
  1.96 standard errors for shares and means, the delta method for a ratio of
  sums over games, order statistics for a median or a percentile. Figures
  pooled from several samples per game (hand sizes, collect choices,
  decisions per turn) treat the samples as independent, so their intervals
  are too narrow. The intervals come from :mod:`civcards.stats`.

The package's modules: :mod:`.rows` (which rows answer a question, the answers' table lines),
:mod:`.questions` (Q1–Q16, one function each), :mod:`.plots` (the PNG plots) and this one
(the hooks: :data:`QUESTIONS`, :func:`answers`, :func:`report_overview`,
:func:`report_sections`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ....civ4.options import CARD_SETS
from ....stats import Interval
from ....stats import mean_interval as mean_ci
from ....stats import quantile_interval as quantile_ci
from ....stats import ratio_interval as ratio_ci
from ....stats import wilson_interval as wilson_ci
from .plots import archetype_plot, seat_plot
from .questions import (
    q1_first_seat,
    q2_game_length,
    q3_points_by_source,
    q4_archetypes,
    q5_war,
    q6_skill,
    q7_early_leader,
    q8_card_use,
    q9_culture_happiness,
    q10_writing_code_of_laws,
    q11_hand_size,
    q12_ties,
    q13_bank_trades,
    q14_fiddliness,
    q15_happiness_discount,
    q16_attack_spread,
)
from .rows import (
    Answer,
    Row,
    is_mirror,
    row_archetype,
    row_bots,
    row_card_set,
    row_players,
    row_variant,
    select_mirrors,
)

# ------------------------------------------------------------------------------------------------
# The hooks


#: each question's function by its key (DESIGN-NOTES §6), for tools that answer a few of
#: them; the ones that draw a plot take a folder as well (None: no plot)
QUESTIONS: dict[str, Callable[..., Answer]] = {
    "Q1": q1_first_seat,
    "Q2": q2_game_length,
    "Q3": q3_points_by_source,
    "Q4": q4_archetypes,
    "Q5": q5_war,
    "Q6": q6_skill,
    "Q7": q7_early_leader,
    "Q8": q8_card_use,
    "Q9": q9_culture_happiness,
    "Q10": q10_writing_code_of_laws,
    "Q11": q11_hand_size,
    "Q12": q12_ties,
    "Q13": q13_bank_trades,
    "Q14": q14_fiddliness,
    "Q15": q15_happiness_discount,
    "Q16": q16_attack_spread,
}


def answers(rows: Sequence[Row], folder: Path | None = None) -> list[Answer]:
    """The answers to Q1–Q16 (plots into ``folder`` when given)."""
    out = [
        q1_first_seat(rows),
        q2_game_length(rows),
        q3_points_by_source(rows),
        q4_archetypes(rows),
        q5_war(rows),
        q6_skill(rows),
        q7_early_leader(rows),
        q8_card_use(rows, folder),
        q9_culture_happiness(rows),
        q10_writing_code_of_laws(rows),
        q11_hand_size(rows, folder),
        q12_ties(rows),
        q13_bank_trades(rows),
        q14_fiddliness(rows, folder),
        q15_happiness_discount(rows),
        q16_attack_spread(rows, folder),
    ]
    if folder is not None:
        if any(select_mirrors(rows, "rules")):
            out[0].plots.append(seat_plot(folder, rows))
        if any(row_archetype(r) for r in rows):
            hnw = q4_archetypes(rows, "happiness_not_wonders", "Q15 variant")
            out[3].plots.append(archetype_plot(folder, [out[3], hnw]))
    return out


def _configurations(rows: Sequence[Row]) -> list[str]:
    count: Counter[tuple[int, str, str]] = Counter()
    for r in rows:
        arch = row_archetype(r)
        bots = (
            "greedy mirror"
            if is_mirror(r)
            else (f"{arch} + greedy" if arch else ",".join(row_bots(r)))
        )
        count[(row_players(r), row_variant(r), bots)] += 1
    out = ["| players | options | bots | games |", "|---:|---|---|---:|"]
    for (p, v, b), k in sorted(count.items()):
        out.append(f"| {p} | {v} | {b} | {k:,} |")
    return out


def report_overview(rows: Sequence[Row], folder: Any = None) -> dict[str, Any]:
    """The answers to Q1–Q16 as Markdown (with plots in ``folder``) and JSON."""
    path = Path(folder) if folder is not None else None
    sets = Counter(row_card_set(r) for r in rows)
    # one card set per report: the newest present (older rows are left out and counted)
    chosen = max(sets, key=lambda k: (CARD_SETS.index(k) if k in CARD_SETS else -1, k), default="")
    left_out = {k: v for k, v in sets.items() if k != chosen}
    rows = [r for r in rows if row_card_set(r) == chosen]
    ans = answers(rows, path)
    md = ["## Balance questions Q1–Q16 (DESIGN-NOTES.md, section 6)", ""]
    md += [
        f"**Card set: `{chosen}`** (reconstructed: the original card list was never "
        "published; the `cards` option, `civcards/civ4/cards*.toml`)."
    ]
    if left_out:
        md += [
            "Rows of other card sets left out: "
            + ", ".join(f"`{k}` ({v:,} games)" for k, v in sorted(left_out.items()))
            + "."
        ]
    md += [""]
    md += ["Games by configuration (a shared victory is split among its winners):", ""]
    md += _configurations(rows)
    md += ["", "| # | question | verdict |", "|---|---|---|"]
    for a in ans:
        md.append(f"| {a.key} | {a.title} | {a.verdict()} |")
    md.append("")
    for a in ans:
        md += a.markdown()
    summary = [{**a.to_json(), "card_set": chosen} for a in ans]
    return {"markdown": "\n".join(md), "summary": json.loads(json.dumps(summary))}


def report_sections(rows: Sequence[Row]) -> list[dict[str, Any]]:
    """One table per configuration: war, trade and VP figures per game (every bot)."""
    n = max(1, len(rows))

    def per_game(f: Callable[[Row], float]) -> float:
        return round(sum(f(r) for r in rows) / n, 3)

    def seats(key: str) -> Callable[[Row], float]:
        return lambda r: float(sum(int(r.get(f"{key}_{s}") or 0) for s in range(row_players(r))))

    cols = [
        "attacks (A)",
        "units sent (U)",
        "stolen (S)",
        "trades (T)",
        "cards cashed (K)",
        "winning VP (W)",
    ]
    vals = [
        per_game(seats("attacks")),
        per_game(lambda r: float(r.get("units_sent") or 0)),
        per_game(seats("stole")),
        per_game(seats("trades")),
        per_game(seats("cashed")),
        per_game(lambda r: float(r.get(f"vp_{str(r['winners']).split()[0]}") or 0)),
    ]
    return [
        {
            "key": "per_game",
            "title": "Figures per game (every game of the configuration, whatever its bots)",
            "columns": cols,
            "values": vals,
            "note": "Means per game over every seat. The configuration tables of this part "
            "pool mirror and archetype games; the questions above separate them.",
        }
    ]


__all__ = [
    "QUESTIONS",
    "Answer",
    "Interval",
    "Row",
    "answers",
    "mean_ci",
    "q1_first_seat",
    "q2_game_length",
    "q3_points_by_source",
    "q4_archetypes",
    "q5_war",
    "q6_skill",
    "q7_early_leader",
    "q8_card_use",
    "q9_culture_happiness",
    "q10_writing_code_of_laws",
    "q11_hand_size",
    "q12_ties",
    "q13_bank_trades",
    "q14_fiddliness",
    "q15_happiness_discount",
    "q16_attack_spread",
    "quantile_ci",
    "ratio_ci",
    "report_overview",
    "report_sections",
    "wilson_ci",
]
