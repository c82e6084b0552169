"""civ4's balance report: which rows answer a question, the answers' table lines and
their formatting (the questions themselves: :mod:`.questions`)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from ....civ4.options import OPTIONS, RECORD_CARD_SET
from ....stats import Interval, mean_interval
from ..greedy import ARCHETYPES
from ..sim import TECH_CODES

Row = Mapping[str, Any]

#: the variants (the card set is not one: the rows of one report are of one set, row_card_set)
DEFAULTS = {o.name: o.default for o in OPTIONS if o.name != "cards"}
#: a seat is fair within this many points of 1 / players (Q1)
FAIR_BAND = 0.04


# ------------------------------------------------------------------------------------------------
# Selecting rows


def row_players(r: Row) -> int:
    return int(r["players"])


def row_bots(r: Row) -> list[str]:
    return [str(r[f"bot_{s}"]) for s in range(row_players(r))]


def row_options(r: Row) -> dict[str, Any]:
    return {k: (d if r.get(k) is None else r.get(k)) for k, d in DEFAULTS.items()}


def row_variant(r: Row) -> str:
    """``rules`` (every option at its default) or the options that differ."""
    diff = [k for k, v in row_options(r).items() if v != DEFAULTS[k]]
    return "+".join(diff) if diff else "rules"


def row_card_set(r: Row) -> str:
    """The card set of a row (rows written before card sets had names: the original)."""
    return str(r.get("cards") or RECORD_CARD_SET)


def row_archetype(r: Row) -> str | None:
    """The archetype of an archetype game (one seat, the others greedy), else None."""
    other = [b for b in row_bots(r) if b != "greedy"]
    if len(other) == 1 and other[0] in ARCHETYPES:
        return other[0]
    return None


#: the bot that never buys the technology named after it (Q10's "same bot without them")
SHUNNER = "greedy:not="


def against_shunner(r: Row) -> tuple[int, str] | None:
    """Q10's games: one ``greedy`` seat against ``greedy:not=CODE`` (one technology) in every
    other seat; (greedy's seat, CODE), else None."""
    bots = row_bots(r)
    free = [s for s, b in enumerate(bots) if b == "greedy"]
    others = {b.lower() for b in bots if b != "greedy"}
    if len(free) != 1 or len(others) != 1:
        return None
    (other,) = others
    if not other.startswith(SHUNNER):
        return None
    code = other[len(SHUNNER) :].upper()
    return (free[0], code) if code in TECH_CODES else None


def against_search(r: Row) -> tuple[int, str, str] | None:
    """Q4's games against the search bot: one archetype seat, every other seat the same
    ``ismcts`` bot; (the archetype's seat, its name, the search bot), else None."""
    bots = row_bots(r)
    arch = [s for s, b in enumerate(bots) if b in ARCHETYPES]
    others = {b for b in bots if b not in ARCHETYPES}
    if len(arch) != 1 or len(others) != 1:
        return None
    (search,) = others
    if search.split(":", 1)[0] != "ismcts":
        return None
    return arch[0], bots[arch[0]], search


def is_mirror(r: Row) -> bool:
    return all(b == "greedy" for b in row_bots(r))


def select_mirrors(
    rows: Sequence[Row], variant: str = "rules", players: int | None = None
) -> list[Row]:
    return [
        r
        for r in rows
        if is_mirror(r)
        and row_variant(r) == variant
        and (players is None or row_players(r) == players)
    ]


def won_share(r: Row, seat: int) -> float:
    """Seat's share of the victory (a shared victory split)."""
    won = [int(w) for w in str(r["winners"]).split()]
    return 1.0 / len(won) if seat in won else 0.0


def fmt_figure(x: float, pct: bool = False, digits: int = 2) -> str:
    if isinstance(x, float) and math.isnan(x):
        return "—"
    if pct:
        return f"{100 * x:.1f} %"
    return f"{x:.{digits}f}" if isinstance(x, float) and not float(x).is_integer() else f"{x:g}"


def fmt_interval(iv: Interval, pct: bool = False, digits: int = 2) -> str:
    if math.isnan(iv[1]):
        return "—"
    return f"{fmt_figure(iv[1], pct, digits)} – {fmt_figure(iv[2], pct, digits)}"


# ------------------------------------------------------------------------------------------------
# Answers


class Answer:
    """One question's answer: table lines (label, measured, interval, target, met)."""

    def __init__(self, key: str, title: str, measure: str, target: str) -> None:
        self.key = key
        self.title = title
        self.measure = measure
        self.target = target
        self.lines: list[dict[str, Any]] = []
        self.notes: list[str] = []
        self.plots: list[str] = []

    def add(
        self,
        label: str,
        iv: Interval | None,
        target: str,
        met: bool | None,
        *,
        pct: bool = False,
        text: str | None = None,
        digits: int = 2,
    ) -> None:
        if iv is None:
            measured, interval, value = text or "not measured", "—", None
        else:
            measured = text or fmt_figure(iv[0], pct, digits)
            interval = fmt_interval(iv, pct, digits)
            value = None if math.isnan(iv[0]) else round(iv[0], 4)
        self.lines.append(
            {
                "label": label,
                "measured": measured,
                "value": value,
                "ci95": None
                if iv is None or math.isnan(iv[1])
                else [round(iv[1], 4), round(iv[2], 4)],
                "interval": interval,
                "target": target,
                "met": met,
            }
        )

    @property
    def met(self) -> bool | None:
        known = [ln["met"] for ln in self.lines if ln["met"] is not None]
        if not known:
            return None
        return all(known)

    def verdict(self) -> str:
        m = self.met
        if m is None:
            return "not measured"
        if m:
            return "met"
        part = [ln for ln in self.lines if ln["met"] is not None]
        if any(ln["met"] for ln in part):
            return "partly met"
        return "not met"

    def markdown(self) -> list[str]:
        out = [f"### {self.key}. {self.title}", ""]
        out += [f"*Measure:* {self.measure}. *Target:* {self.target}. **{self.verdict()}.**", ""]
        out += ["| figure | measured | 95 % interval | target | met |", "|---|---:|---:|---|---|"]
        for ln in self.lines:
            met = {True: "yes", False: "**no**", None: "—"}[ln["met"]]
            out.append(
                f"| {ln['label']} | {ln['measured']} | {ln['interval']} | {ln['target']} | {met} |"
            )
        out.append("")
        for note in self.notes:
            out += [note, ""]
        for p in self.plots:
            out += [f"![{self.key}]({p})", ""]
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "question": self.key,
            "title": self.title,
            "target": self.target,
            "verdict": self.verdict(),
            "lines": self.lines,
        }


def within_band(iv: Interval, lo: float, hi: float) -> bool | None:
    if math.isnan(iv[0]):
        return None
    return lo <= iv[0] <= hi


def by_players(rows: Sequence[Row]) -> dict[int, list[Row]]:
    out: dict[int, list[Row]] = {}
    for r in rows:
        out.setdefault(row_players(r), []).append(r)
    return dict(sorted(out.items()))


def seat_shares(rows: Sequence[Row], p: int) -> list[Interval]:
    out = []
    for pos in range(p):
        vals = [won_share(r, (int(r["start"]) + pos) % p) for r in rows]
        out.append(mean_interval(vals))
    return out


def archetype_share(rows: Sequence[Row], name: str) -> Interval:
    vals = []
    for r in rows:
        if row_archetype(r) != name:
            continue
        seat = row_bots(r).index(name)
        vals.append(won_share(r, seat))
    return mean_interval(vals)
