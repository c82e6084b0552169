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
  are too narrow.
"""

from __future__ import annotations

import json
import math
import statistics
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ...civ4.cards import CARDS
from ...civ4.options import CARD_SETS, OPTIONS, RECORD_CARD_SET
from .greedy import ARCHETYPES
from .sim import BUILD_CODES, PLOT_CODES, TECH_CODES, UNIT_CODES, parse_hist

Row = Mapping[str, Any]
Interval = tuple[float, float, float]

#: the variants (the card set is not one: the rows of one report are of one set, _card_set)
_DEFAULTS = {o.name: o.default for o in OPTIONS if o.name != "cards"}
_FAIR_BAND = 0.04
_WIN = "win"


# ------------------------------------------------------------------------------------------------
# Selecting rows


def _players(r: Row) -> int:
    return int(r["players"])


def _bots(r: Row) -> list[str]:
    return [str(r[f"bot_{s}"]) for s in range(_players(r))]


def _options(r: Row) -> dict[str, Any]:
    return {k: (d if r.get(k) is None else r.get(k)) for k, d in _DEFAULTS.items()}


def _variant(r: Row) -> str:
    """``rules`` (every option at its default) or the options that differ."""
    diff = [k for k, v in _options(r).items() if v != _DEFAULTS[k]]
    return "+".join(diff) if diff else "rules"


def _card_set(r: Row) -> str:
    """The card set of a row (rows written before card sets had names: the original)."""
    return str(r.get("cards") or RECORD_CARD_SET)


def _archetype(r: Row) -> str | None:
    """The archetype of an archetype game (one seat, the others greedy), else None."""
    other = [b for b in _bots(r) if b != "greedy"]
    if len(other) == 1 and other[0] in ARCHETYPES:
        return other[0]
    return None


#: the bot that never buys the technology named after it (Q10's "same bot without them")
SHUNNER = "greedy:not="


def _against_shunner(r: Row) -> tuple[int, str] | None:
    """Q10's games: one ``greedy`` seat against ``greedy:not=CODE`` (one technology) in every
    other seat; (greedy's seat, CODE), else None."""
    bots = _bots(r)
    free = [s for s, b in enumerate(bots) if b == "greedy"]
    others = {b.lower() for b in bots if b != "greedy"}
    if len(free) != 1 or len(others) != 1:
        return None
    (other,) = others
    if not other.startswith(SHUNNER):
        return None
    code = other[len(SHUNNER) :].upper()
    return (free[0], code) if code in TECH_CODES else None


def _against_search(r: Row) -> tuple[int, str, str] | None:
    """Q4's games against the search bot: one archetype seat, every other seat the same
    ``ismcts`` bot; (the archetype's seat, its name, the search bot), else None."""
    bots = _bots(r)
    arch = [s for s, b in enumerate(bots) if b in ARCHETYPES]
    others = {b for b in bots if b not in ARCHETYPES}
    if len(arch) != 1 or len(others) != 1:
        return None
    (search,) = others
    if search.split(":", 1)[0] != "ismcts":
        return None
    return arch[0], bots[arch[0]], search


def _mirror(r: Row) -> bool:
    return all(b == "greedy" for b in _bots(r))


def _select(rows: Sequence[Row], variant: str = "rules", players: int | None = None) -> list[Row]:
    return [
        r
        for r in rows
        if _mirror(r) and _variant(r) == variant and (players is None or _players(r) == players)
    ]


def _won(r: Row, seat: int) -> float:
    """Seat's share of the victory (a shared victory split)."""
    won = [int(w) for w in str(r["winners"]).split()]
    return 1.0 / len(won) if seat in won else 0.0


# ------------------------------------------------------------------------------------------------
# Statistics


def mean_ci(values: Sequence[float]) -> Interval:
    """Mean and a 95 % interval (± 1.96 standard errors)."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    m = statistics.fmean(values)
    if n < 2:
        return m, m, m
    half = 1.96 * statistics.stdev(values) / math.sqrt(n)
    return m, m - half, m + half


def wilson_ci(values: Sequence[float]) -> Interval:
    """A share and its 95 % Wilson score interval (few games, or all won or all lost, where
    ± 1.96 standard errors says nothing); a shared victory counts as its fraction."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    p = statistics.fmean(values)
    z = 1.96
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return p, max(0.0, mid - half), min(1.0, mid + half)


def ratio_ci(pairs: Sequence[tuple[float, float]]) -> Interval:
    """Σnum / Σden over games with a 95 % interval (delta method)."""
    n = len(pairs)
    den = sum(d for _, d in pairs)
    if n == 0 or den == 0:
        return math.nan, math.nan, math.nan
    r = sum(x for x, _ in pairs) / den
    if n < 2:
        return r, r, r
    var = sum((x - r * d) ** 2 for x, d in pairs) / den**2 * n / (n - 1)
    half = 1.96 * math.sqrt(var)
    return r, r - half, r + half


def quantile_ci(counts: Counter[int], q: float) -> Interval:
    """The ``q`` quantile of a histogram and a 95 % order-statistic interval."""
    n = sum(counts.values())
    if n == 0:
        return math.nan, math.nan, math.nan
    values = sorted(counts)

    def at(rank: float) -> float:
        k = min(n - 1, max(0, math.floor(rank)))
        seen = 0
        for v in values:
            seen += counts[v]
            if seen > k:
                return float(v)
        return float(values[-1])

    half = 1.96 * math.sqrt(n * q * (1 - q))
    return at(q * n), at(q * n - half), at(q * n + half)


def _fmt(x: float, pct: bool = False, digits: int = 2) -> str:
    if isinstance(x, float) and math.isnan(x):
        return "—"
    if pct:
        return f"{100 * x:.1f} %"
    return f"{x:.{digits}f}" if isinstance(x, float) and not float(x).is_integer() else f"{x:g}"


def _ci(iv: Interval, pct: bool = False, digits: int = 2) -> str:
    if math.isnan(iv[1]):
        return "—"
    return f"{_fmt(iv[1], pct, digits)} – {_fmt(iv[2], pct, digits)}"


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
            measured = text or _fmt(iv[0], pct, digits)
            interval = _ci(iv, pct, digits)
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


def _within(iv: Interval, lo: float, hi: float) -> bool | None:
    if math.isnan(iv[0]):
        return None
    return lo <= iv[0] <= hi


def _counts(rows: Sequence[Row]) -> dict[int, list[Row]]:
    out: dict[int, list[Row]] = {}
    for r in rows:
        out.setdefault(_players(r), []).append(r)
    return dict(sorted(out.items()))


def _seat_shares(rows: Sequence[Row], p: int) -> list[Interval]:
    out = []
    for pos in range(p):
        vals = [_won(r, (int(r["start"]) + pos) % p) for r in rows]
        out.append(mean_ci(vals))
    return out


def _arch_share(rows: Sequence[Row], name: str) -> Interval:
    vals = []
    for r in rows:
        if _archetype(r) != name:
            continue
        seat = _bots(r).index(name)
        vals.append(_won(r, seat))
    return mean_ci(vals)


# -- the questions --------------------------------------------------------------------------------


def q1_first_seat(rows: Sequence[Row]) -> Answer:
    a = Answer(
        "Q1",
        "Is there a first-player (or last-player) advantage?",
        "win share by seat (position after the first player), greedy mirror games",
        "every seat within ±4 points of fair share",
    )
    for variant in ("rules", "finish_round"):
        for p, g in _counts(_select(rows, variant)).items():
            fair = 1 / p
            for pos, iv in enumerate(_seat_shares(g, p)):
                a.add(
                    f"{p}p {variant}, seat {pos} ({len(g):,} games)",
                    iv,
                    f"{100 * (fair - _FAIR_BAND):.0f}–{100 * (fair + _FAIR_BAND):.0f} %",
                    _within(iv, fair - _FAIR_BAND, fair + _FAIR_BAND),
                    pct=True,
                )
    a.notes.append(
        "Seat 0 plays first in every round (C15). `finish_round` (C68) plays the round "
        "of the last technology to its end. A larger last-seat hand is card data "
        "(`starting_hand = [6, 7, 8, 9]` in cards.toml, C14), not an option, so it "
        "needs a changed card set (see the tuning notes)."
    )
    return a


def q2_game_length(rows: Sequence[Row]) -> Answer:
    a = Answer(
        "Q2",
        "How long is a game?",
        "rounds to the end (greedy mirror, rules as written); the stalemate cap (C69)",
        "median 13–16 rounds (2p), 12–15 (3p), 11–14 (4p); 95th percentile ≤ 1.5 × median; "
        "about 60 minutes; the cap never reached",
    )
    band = {2: (13, 16), 3: (12, 15), 4: (11, 14)}
    for p, g in _counts(_select(rows)).items():
        hist = Counter(int(r["turns"]) for r in g)
        med = quantile_ci(hist, 0.5)
        lo, hi = band[p]
        a.add(f"{p}p median rounds", med, f"{lo}–{hi}", _within(med, lo, hi))
        p95 = quantile_ci(hist, 0.95)
        a.add(f"{p}p 95th percentile", p95, f"≤ {1.5 * med[0]:g}", p95[0] <= 1.5 * med[0])
        stale = mean_ci([1.0 if r["victory"] == "stalemate" else 0.0 for r in g])
        a.add(f"{p}p games at the cap", stale, "0", stale[0] == 0, pct=True)
        moves = mean_ci([float(r["moves"]) for r in g])
        a.add(f"{p}p moves per game (all seats)", moves, "—", None, digits=1)
    a.add(
        "real time at a human pace",
        None,
        "about 60 minutes",
        None,
        text="not measured (needs human games)",
    )
    return a


def q3_points_by_source(rows: Sequence[Row]) -> Answer:
    a = Answer(
        "Q3",
        "Where do points come from?",
        "winners' VP by source (greedy mirror, rules as written)",
        "population 45–60 %, technologies 30–45 %, wonders 5–15 %; winning score 15–25 VP",
    )
    src = (
        ("pop", "population", 0.45, 0.60),
        ("tech", "technologies", 0.30, 0.45),
        ("wonder", "wonders", 0.05, 0.15),
    )
    for p, g in _counts(_select(rows)).items():
        for key, name, lo, hi in src:
            pairs = []
            for r in g:
                for w in str(r["winners"]).split():
                    pairs.append((float(r[f"vp_{key}_{w}"]), float(r[f"vp_{w}"])))
            iv = ratio_ci(pairs)
            a.add(
                f"{p}p {name}",
                iv,
                f"{100 * lo:.0f}–{100 * hi:.0f} %",
                _within(iv, lo, hi),
                pct=True,
            )
        score = mean_ci([float(r[f"vp_{str(r['winners']).split()[0]}"]) for r in g])
        a.add(f"{p}p winning score (VP)", score, "15–25", _within(score, 15, 25), digits=1)
    return a


def q4_archetypes(rows: Sequence[Row], variant: str = "rules", key: str = "Q4") -> Answer:
    a = Answer(
        key,
        "Does one strategy dominate?" + ("" if variant == "rules" else f" ({variant})"),
        "win share of each archetype in one seat against greedy bots, seats rotated; and "
        "against the search bot (`ismcts`) in the other seats",
        "every archetype between 0.5 × and 1.5 × fair share; no archetype beats the ISMCTS bot",
    )
    arch = [r for r in rows if _archetype(r) is not None and _variant(r) == variant]
    for p, g in _counts(arch).items():
        fair = 1 / p
        for name in ARCHETYPES:
            sub = [r for r in g if _archetype(r) == name]
            if not sub:
                continue
            iv = _arch_share(sub, name)
            a.add(
                f"{p}p {name} ({len(sub):,} games)",
                iv,
                f"{100 * 0.5 * fair:.1f}–{100 * 1.5 * fair:.1f} %",
                _within(iv, 0.5 * fair, 1.5 * fair),
                pct=True,
            )
    if variant == "rules":
        # the last target: an archetype in one seat against the search bot in the others
        searched: dict[tuple[int, str, str], list[float]] = {}
        for r in rows:
            got = _against_search(r)
            if got is not None and _variant(r) == variant:
                seat, name, search = got
                searched.setdefault((_players(r), name, search), []).append(_won(r, seat))
        for (p, name, search), vals in sorted(searched.items()):
            iv = wilson_ci(vals)  # few games: the search bot is slow
            a.add(
                f"{p}p {name} against {search} ({len(vals):,} games)",
                iv,
                f"< {100 / p:.1f} % (does not beat it)",
                iv[0] < 1 / p,
                pct=True,
            )
        if not searched:
            a.add(
                "archetypes against ismcts",
                None,
                "none beats it",
                None,
                text="not measured (ismcts: see Q6)",
            )
    return a


def q5_war(rows: Sequence[Row]) -> Answer:
    a = Answer(
        "Q5",
        "Is war too strong or too weak?",
        "attacks per player per game, stolen population as a share of population gained, "
        "the military archetype's win share, attacking units blocked or bounced",
        "1–3 attacks per player per game; stolen ≤ 20 %; military ≤ 1.5 × fair share; "
        "30–60 % blocked or bounced",
    )
    sets = [("greedy mirror", _select(rows))]
    sets.append(
        (
            "with a military seat",
            [r for r in rows if _archetype(r) == "military" and _variant(r) == "rules"],
        )
    )
    for label, rs in sets:
        for p, g in _counts(rs).items():
            if label == "greedy mirror":
                per = mean_ci([sum(float(r[f"attacks_{s}"]) for s in range(p)) / p for r in g])
            else:
                per = mean_ci([float(r[f"attacks_{_bots(r).index('military')}"]) for r in g])
            who = (
                "attacks per player" if label == "greedy mirror" else "the military seat's attacks"
            )
            a.add(f"{p}p {label}: {who} per game", per, "1–3", _within(per, 1, 3))
            st = ratio_ci(
                [
                    (float(sum(int(r[f"stole_{s}"]) for s in range(p))), float(r["pop_gained"]))
                    for r in g
                ]
            )
            a.add(
                f"{p}p {label}: stolen / population gained", st, "≤ 20 %", st[0] <= 0.20, pct=True
            )
            bb = ratio_ci(
                [
                    (float(r["units_blocked"]) + float(r["units_bounced"]), float(r["units_sent"]))
                    for r in g
                ]
            )
            a.add(
                f"{p}p {label}: units blocked or bounced",
                bb,
                "30–60 %",
                _within(bb, 0.30, 0.60),
                pct=True,
            )
    for p, g in _counts(
        [r for r in rows if _archetype(r) == "military" and _variant(r) == "rules"]
    ).items():
        iv = _arch_share(g, "military")
        a.add(
            f"{p}p military win share", iv, f"≤ {100 * 1.5 / p:.1f} %", iv[0] <= 1.5 / p, pct=True
        )
    a.notes.append(
        "Population gained counts every population card placed during the rounds "
        "(bought, free from Hanging Gardens, placed after a theft), not the set-up settle. "
        "`greedy` attacks whenever nothing is left worth buying and an attack's expected "
        "damage exceeds the units it spends; the military rows are the archetype's seat "
        "(its attack gain weighted 2.5×, units held 1.6×) against greedy rivals."
    )
    return a


def _ismcts(bot: str) -> bool:
    return bot.split(":")[0] == "ismcts"


def _budget(bot: str) -> int:
    """The iterations of an ``ismcts:Nit`` spec (0 when it names none)."""
    for part in bot.split(":")[1:]:
        if part.endswith("it") and part[:-2].isdigit():
            return int(part[:-2])
    return 0


def q6_skill(rows: Sequence[Row]) -> Answer:
    a = Answer(
        "Q6",
        "Does skill beat luck?",
        "`ismcts` (civ4's search kit) in one seat against `greedy` in the others, seats "
        "rotated; two budgets of `ismcts` against each other",
        "≥ 65 % wins at 2 players, ≥ 2 × fair share at 4; strength grows with the budget",
    )
    # one ismcts seat, the others greedy: by player count and spec
    vs: dict[tuple[int, str], list[float]] = {}
    duel: dict[tuple[str, str], list[float]] = {}
    for r in rows:
        bots = _bots(r)
        searchers = [b for b in bots if _ismcts(b)]
        if len(searchers) == 1 and all(b == "greedy" for b in bots if not _ismcts(b)):
            seat = bots.index(searchers[0])
            vs.setdefault((_players(r), searchers[0]), []).append(_won(r, seat))
        elif len(bots) == 2 and len(searchers) == 2 and _budget(bots[0]) != _budget(bots[1]):
            hi = max(bots, key=_budget)
            lo = min(bots, key=_budget)
            duel.setdefault((hi, lo), []).append(_won(r, bots.index(hi)))
    for (p, spec), vals in sorted(vs.items()):
        fair = 1 / p
        want = 0.65 if p == 2 else 2 * fair
        iv = wilson_ci(vals)
        a.add(
            f"{p}p {spec} against greedy ({len(vals):,} games)",
            iv,
            f"≥ {100 * want:.0f} %",
            iv[0] >= want,
            pct=True,
        )
    for (hi, lo), vals in sorted(duel.items()):
        iv = wilson_ci(vals)
        a.add(
            f"2p {hi} against {lo} ({len(vals):,} games)",
            iv,
            "> 50 %",
            iv[0] > 0.5,
            pct=True,
        )
    if vs or duel:
        a.notes.append(
            "Intervals: Wilson score (few games). The search bot is `ismcts` with civ4's own "
            "kit (greedy completes its steps and models the rivals, short greedy rollouts, a VP "
            "evaluation); budgets are small because a search move costs about 0.8 ms of CPU an "
            "iteration on the study machine (see the notes above)."
        )
    if not vs and not duel:
        a.add("ismcts against greedy", None, "see target", None, text="not measured (no games)")
    return a


def q7_early_leader(rows: Sequence[Row]) -> Answer:
    a = Answer(
        "Q7",
        "Is the leader known too early?",
        "chance that the VP leader after two thirds of the game (start of round ⌊2R/3⌋+1) "
        "wins, greedy mirror",
        "≤ 70 %",
    )
    for p, g in _counts(_select(rows)).items():
        vals = [_won(r, int(r["leader23"])) for r in g if r.get("leader23") is not None]
        iv = mean_ci(vals)
        a.add(f"{p}p ({len(vals):,} games with one leader)", iv, "≤ 70 %", iv[0] <= 0.70, pct=True)
    return a


def q8_card_use(rows: Sequence[Row], folder: Path | None) -> Answer:
    a = Answer(
        "Q8",
        "Is every card used?",
        "buildings: copies built per copy drawn; wonders: games in which a drawn wonder is "
        "built; units: copies that attack or block per copy drawn; techs: rounds in the "
        "market; plots: share of purchases against the share of the plot cards "
        "(greedy mirror, rules as written, every player count)",
        "every building kind ≥ 25 %; every wonder ≥ 40 %; every unit kind ≥ 30 %; every "
        "tech's median time in market ≤ 2 rounds and none > 4; no plot kind bought at "
        "less than half its share",
    )
    g = _select(rows)
    names = CARDS.names
    fig: dict[str, dict[str, float]] = {"build": {}, "unit": {}, "tech": {}, "plot": {}}
    for c in BUILD_CODES:
        card = CARDS.deck[c]
        if card.kind == "building":
            iv = ratio_ci([(float(r[f"built_{c}"]), float(r[f"drawn_{c}"])) for r in g])
            a.add(f"building {names.get(c, c)} ({c})", iv, "≥ 25 %", iv[0] >= 0.25, pct=True)
        else:
            vals = [1.0 if r[f"built_{c}"] else 0.0 for r in g if r[f"drawn_{c}"]]
            iv = mean_ci(vals)
            a.add(f"wonder {names.get(c, c)} ({c})", iv, "≥ 40 %", iv[0] >= 0.40, pct=True)
        fig["build"][c] = iv[0]
    for c in UNIT_CODES:
        iv = ratio_ci([(float(r[f"combat_{c}"]), float(r[f"drawn_{c}"])) for r in g])
        a.add(f"unit {names.get(c, c)} ({c})", iv, "≥ 30 %", iv[0] >= 0.30, pct=True)
        fig["unit"][c] = iv[0]
    for t in TECH_CODES:
        hist = Counter(int(r[f"market_{t}"]) for r in g if r.get(f"market_{t}") is not None)
        med = quantile_ci(hist, 0.5)
        p90 = quantile_ci(hist, 0.9)
        ok = None if math.isnan(med[0]) else (med[0] <= 2 and p90[0] <= 4)
        a.add(
            f"tech {names.get(t, t)} ({t}): median rounds in market (90th pct {_fmt(p90[0])})",
            med,
            "≤ 2 (90th ≤ 4)",
            ok,
        )
        fig["tech"][t] = med[0]
    total_plots = sum(p.count for p in CARDS.plots.values())
    bought_all = sum(int(r[f"plotbuy_{pc}"]) for r in g for pc in PLOT_CODES)
    for pc in PLOT_CODES:
        share = CARDS.plots[pc].count / total_plots
        iv = ratio_ci(
            [
                (
                    float(r[f"plotbuy_{pc}"]),
                    sum(float(r[f"plotbuy_{x}"]) for x in PLOT_CODES) or 0.0,
                )
                for r in g
            ]
        )
        a.add(
            f"plot {names.get(pc, pc)} ({pc}) share of purchases",
            iv,
            f"≥ {100 * share / 2:.1f} % (half of {100 * share:.1f} %)",
            None if bought_all == 0 else iv[0] >= share / 2,
            pct=True,
        )
        fig["plot"][pc] = iv[0] / share if share else math.nan
    a.notes.append(
        "A tech's time in the market runs from the round it entered to the round it was "
        'bought (0: the same round), or to the end of the game. "None > 4" is read as the '
        "90th percentile of each tech's time. Plots: a kind's share of all plot purchases "
        "against its share of the 30 plot cards (the set-up draft is not a purchase)."
    )
    if folder is not None:
        a.plots.append(_bar_plot(folder, "q8_cards.png", "Q8: card use (greedy mirror)", fig))
    return a


def q9_culture_happiness(rows: Sequence[Row]) -> Answer:
    a = Answer(
        "Q9",
        "Do culture and happiness matter?",
        "Draw steps with a Highest Culture holder; purchases made while someone holds "
        "Highest Happiness; status changes per game; win share of the holder at the end "
        "(greedy mirror)",
        "each status held 30–70 % of the time; ≥ 2 changes per game; holding a status "
        "worth ≤ +10 points of win share",
    )
    for p, g in _counts(_select(rows)).items():
        cu = ratio_ci([(float(r["draws_culture"]), float(r["draws"])) for r in g])
        a.add(f"{p}p Highest Culture held", cu, "30–70 %", _within(cu, 0.3, 0.7), pct=True)
        hp = ratio_ci([(float(r["purchases_happy"]), float(r["purchases"])) for r in g])
        a.add(f"{p}p Highest Happiness held", hp, "30–70 %", _within(hp, 0.3, 0.7), pct=True)
        ch = mean_ci([float(r["culture_changes"]) + float(r["happiness_changes"]) for r in g])
        a.add(f"{p}p status changes per game", ch, "≥ 2", ch[0] >= 2)
        for st in ("culture", "happiness"):
            vals = [_won(r, int(r[f"{st}_holder"])) for r in g if r.get(f"{st}_holder") is not None]
            iv = mean_ci(vals)
            a.add(
                f"{p}p {st} holder at the end: win share ({len(vals):,} games)",
                iv,
                f"≤ {100 / p + 10:.1f} %",
                iv[0] - 1 / p <= 0.10,
                pct=True,
            )
    a.notes.append(
        "A status change is any change of its holder during the rounds, to or from nobody "
        "included. The win share of the holder at the end is partly the other way round: "
        "winners tend to have more cards in play."
    )
    return a


def q10_writing_code_of_laws(rows: Sequence[Row]) -> Answer:
    a = Answer(
        "Q10",
        "Are Writing and Code of Laws priced right?",
        "win share of the seat owning the technology at the end, greedy mirror, under the "
        "rules and under `one_shot_steals`; and greedy's against the same bot without it "
        "(`greedy:not=WRI`, `greedy:not=COL`)",
        "owner ≤ fair share + 10 points",
    )
    era2 = [c for c in TECH_CODES if CARDS.techs[c].era == 2 and c not in ("WRI", "COL")]
    for variant in ("rules", "one_shot_steals"):
        # DESIGN-NOTES' measure: greedy against the same bot without the technology
        against: dict[int, dict[str, list[tuple[Row, int]]]] = {}
        for r in rows:
            got = _against_shunner(r)
            if got is not None and _variant(r) == variant:
                against.setdefault(_players(r), {}).setdefault(got[1], []).append((r, got[0]))
        for p, g in _counts(_select(rows, variant)).items():
            # the owners of the other era II technologies, for comparison (rows of older
            # runs name only Writing's and Code of Laws' owners)
            base = [
                _won(r, int(r[f"owner_{t}"]))
                for r in g
                for t in era2
                if r.get(f"owner_{t}") is not None
            ]
            if base:
                a.add(
                    f"{p}p {variant}: owner of another era II technology (comparison)",
                    mean_ci(base),
                    "—",
                    None,
                    pct=True,
                )
            for t, name in (("WRI", "Writing"), ("COL", "Code of Laws")):
                vals = [_won(r, int(r[f"owner_{t}"])) for r in g if r.get(f"owner_{t}") is not None]
                iv = mean_ci(vals)
                # where the measure against the bot without it was played, it is the target's
                if t in against.get(p, {}):
                    target, met = f"— (greedy against {SHUNNER}{t}, below)", None
                else:
                    target, met = f"≤ {100 / p + 10:.1f} %", iv[0] <= 1 / p + 0.10
                a.add(
                    f"{p}p {variant}: {name} owner ({len(vals):,} games)",
                    iv,
                    target,
                    met,
                    pct=True,
                )
                uses = mean_ci(
                    [float(r[f"uses_{t}"]) for r in g if r.get(f"owner_{t}") is not None]
                )
                a.add(f"{p}p {variant}: {name} uses per game (owned)", uses, "—", None)
        for p, by_code in sorted(against.items()):
            for t, games in sorted(by_code.items()):
                name = CARDS.techs[t].name
                inplay = [_won(r, seat) for r, seat in games if r.get(f"owner_{t}") is not None]
                removed = [_won(r, seat) for r, seat in games if r.get(f"owner_{t}") is None]
                iv = mean_ci(inplay)
                a.add(
                    f"{p}p {variant}: greedy against {SHUNNER}{t}, {name} in play "
                    f"({len(inplay):,} games)",
                    iv,
                    f"≤ {100 / p + 10:.1f} %",
                    iv[0] <= 1 / p + 0.10,
                    pct=True,
                )
                if removed:
                    a.add(
                        f"{p}p {variant}: greedy against {SHUNNER}{t}, {name} removed "
                        f"(the same bot; {len(removed):,} games)",
                        mean_ci(removed),
                        f"≈ {100 / p:.1f} %",
                        None,
                        pct=True,
                    )
    a.notes.append(
        "The owners' win share in greedy mirrors partly measures being ahead: owning a "
        "technology follows from affording it. The comparison line is the same share for "
        "the owners of the six other era II technologies (pooled samples of one game "
        "treated as independent): the part of Writing's and Code of Laws' figure above it "
        "is what the steal itself is worth."
    )
    a.notes.append(
        f"DESIGN-NOTES' own measure, the owners against the same bot without them: "
        f"`greedy` in one seat, `{SHUNNER}WRI` (or `COL`) in the others, seats rotated. "
        "That bot never buys the technology nor takes it free, unless it is the last one "
        "left (C68: the game must end). greedy's win share in the games where the "
        "technology is in play is what being able to own it is worth; where it was removed "
        "(C9) the two bots are the same, a control at the fair share. Where these games "
        "were played, the target is judged on them and the mirror lines are comparisons."
    )
    return a


def q11_hand_size(rows: Sequence[Row], folder: Path | None) -> Answer:
    a = Answer(
        "Q11",
        "Do hands grow too large (RU9)?",
        "hand size at the start of each turn (after the previous discard), greedy mirror; "
        "the largest per seat",
        "median ≤ 10, 99th percentile ≤ 20",
    )
    hists: dict[str, Counter[int]] = {}
    for p, g in _counts(_select(rows)).items():
        hist: Counter[int] = Counter()
        for r in g:
            hist.update(parse_hist(r["hand_hist"]))
        hists[f"{p}p"] = hist
        med = quantile_ci(hist, 0.5)
        a.add(f"{p}p median hand", med, "≤ 10", med[0] <= 10)
        p99 = quantile_ci(hist, 0.99)
        a.add(f"{p}p 99th percentile", p99, "≤ 20", p99[0] <= 20)
        mx = max(int(r[f"hand_max_{s}"]) for r in g for s in range(p))
        a.add(f"{p}p largest hand seen", (float(mx), math.nan, math.nan), "—", None)
    if folder is not None and hists:
        a.plots.append(
            _hist_plot(
                folder, "q11_hands.png", "Q11: hand size at turn start", "cards in hand", hists
            )
        )
    return a


def q12_ties(rows: Sequence[Row]) -> Answer:
    a = Answer("Q12", "How often is the game tied?", "shared victories (greedy mirror)", "≤ 1 %")
    for p, g in _counts(_select(rows)).items():
        iv = mean_ci([1.0 if r.get("shared") else 0.0 for r in g])
        a.add(f"{p}p", iv, "≤ 1 %", iv[0] <= 0.01, pct=True)
    return a


def q13_bank_trades(rows: Sequence[Row]) -> Answer:
    a = Answer(
        "Q13",
        "Is the bank trade a crutch?",
        "resources received from bank trades as a share of the resources spent on purchases "
        "(greedy mirror), also under `same_type_trade`",
        "≤ 15 %",
    )
    for variant in ("rules", "same_type_trade"):
        for p, g in _counts(_select(rows, variant)).items():
            iv = ratio_ci(
                [
                    (
                        sum(float(r[f"trade_got_{s}"]) for s in range(p)),
                        sum(float(r[f"spent_{s}"]) for s in range(p)),
                    )
                    for r in g
                ]
            )
            a.add(f"{p}p {variant}", iv, "≤ 15 %", iv[0] <= 0.15, pct=True)
            tr = mean_ci([sum(float(r[f"trades_{s}"]) for s in range(p)) / p for r in g])
            a.add(f"{p}p {variant}: trades per player per game", tr, "—", None, digits=1)
    return a


def q14_fiddliness(rows: Sequence[Row], folder: Path | None) -> Answer:
    a = Answer(
        "Q14",
        "Is the game fiddly?",
        "legal `collect` moves at each collect step in the last third of the game; the "
        "active seat's decisions per turn (greedy mirror)",
        "median ≤ 20 collect choices late in the game; report the 95th percentile of "
        "decisions per turn",
    )
    hists: dict[str, Counter[int]] = {}
    for p, g in _counts(_select(rows)).items():
        col: Counter[int] = Counter()
        turn: Counter[int] = Counter()
        for r in g:
            col.update(parse_hist(r["collect_hist"]))
            turn.update(parse_hist(r["turn_hist"]))
        hists[f"{p}p"] = turn
        med = quantile_ci(col, 0.5)
        a.add(f"{p}p median collect choices (late)", med, "≤ 20", med[0] <= 20)
        a.add(f"{p}p 95th percentile collect choices (late)", quantile_ci(col, 0.95), "—", None)
        a.add(f"{p}p median decisions per turn", quantile_ci(turn, 0.5), "—", None)
        a.add(f"{p}p 95th percentile decisions per turn", quantile_ci(turn, 0.95), "report", None)
    a.notes.append(
        "The platform offers a collect as steps (plot by plot, `collect ?`) and proposes "
        "one (`default_move`), so a player never reads the whole list; the count is the "
        "product over mixed plots of the ways to split their population (C24)."
    )
    if folder is not None and hists:
        a.plots.append(
            _hist_plot(
                folder,
                "q14_decisions.png",
                "Q14: decisions of the active seat per turn",
                "moves in one turn",
                hists,
            )
        )
    return a


def q15_happiness_discount(rows: Sequence[Row]) -> Answer:
    a = Answer(
        "Q15",
        "Does the happiness wonder discount matter (RU20)?",
        "Q1 (seat 0's share, 2 players) and Q4 (each archetype, 2 players) under "
        "`happiness_not_wonders` against the rules as written",
        "keep the rules as written unless the variant moves a seat or an archetype by more "
        "than 3 points",
    )

    def diff(x: list[float], y: list[float]) -> Interval:
        mx, _, hx = mean_ci(x)
        my, _, hy = mean_ci(y)
        se = math.sqrt(((hx - mx) / 1.96) ** 2 + ((hy - my) / 1.96) ** 2)
        return mx - my, mx - my - 1.96 * se, mx - my + 1.96 * se

    base = _select(rows, "rules", 2)
    var = _select(rows, "happiness_not_wonders", 2)
    if base and var:
        d = diff([_won(r, int(r["start"])) for r in var], [_won(r, int(r["start"])) for r in base])
        a.add(
            "2p seat 0 share: variant − rules", d, "within ±3 points", abs(d[0]) <= 0.03, pct=True
        )
    for name in ARCHETYPES:
        x = [
            _won(r, _bots(r).index(name))
            for r in rows
            if _archetype(r) == name and _variant(r) == "happiness_not_wonders" and _players(r) == 2
        ]
        y = [
            _won(r, _bots(r).index(name))
            for r in rows
            if _archetype(r) == name and _variant(r) == "rules" and _players(r) == 2
        ]
        if x and y:
            d = diff(x, y)
            a.add(f"2p {name}: variant − rules", d, "within ±3 points", abs(d[0]) <= 0.03, pct=True)
    a.notes.append(
        '"Met" here means the variant moves nothing by more than 3 points, so the rules '
        "as written stay."
    )
    return a


def q16_attack_spread(rows: Sequence[Row], folder: Path | None) -> Answer:
    a = Answer(
        "Q16",
        "Are attacks spread fairly over the seats?",
        "attacks received by seat at 4 players (greedy mirror, and games with a military "
        "seat, seats rotated)",
        "every seat within ±15 % of the mean",
    )
    sets = (
        ("greedy mirror", _select(rows, "rules", 4)),
        (
            "with a military seat",
            [
                r
                for r in rows
                if _archetype(r) == "military" and _variant(r) == "rules" and _players(r) == 4
            ],
        ),
    )
    for label, g in sets:
        if not g:
            continue
        per = [mean_ci([float(r[f"attacked_{s}"]) for r in g]) for s in range(4)]
        mean = statistics.fmean(x[0] for x in per)
        for s, iv in enumerate(per):
            rel = (iv[0] / mean - 1) if mean else math.nan
            a.add(
                f"4p {label}: seat {s} attacks received ({rel:+.0%} of mean)",
                iv,
                f"{0.85 * mean:.3f}–{1.15 * mean:.3f}",
                None if not mean else _within(iv, 0.85 * mean, 1.15 * mean),
                digits=3,
            )
    return a


# ------------------------------------------------------------------------------------------------
# Plots


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _bar_plot(folder: Path, name: str, title: str, data: dict[str, dict[str, float]]) -> str:
    plt = _plt()
    fig, axes = plt.subplots(len(data), 1, figsize=(9, 2.4 * len(data)))
    labels = {
        "build": "built / drawn (wonders: games built when drawn)",
        "unit": "in combat / drawn",
        "tech": "median rounds in market",
        "plot": "purchase share / card share",
    }
    for ax, (k, vals) in zip(axes, data.items(), strict=True):
        xs = list(vals)
        ax.bar(xs, [0.0 if math.isnan(v) else v for v in vals.values()], color="#4c72b0")
        ax.set_ylabel(labels.get(k, k), fontsize=7)
        ax.tick_params(axis="x", labelsize=7, rotation=60)
    axes[0].set_title(title)
    fig.tight_layout()
    fig.savefig(folder / name, dpi=100)
    plt.close(fig)
    return name


def _hist_plot(
    folder: Path, name: str, title: str, xlabel: str, hists: dict[str, Counter[int]]
) -> str:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7, 3.6))
    for label, h in hists.items():
        n = sum(h.values()) or 1
        xs = sorted(h)
        ax.step(xs, [h[x] / n for x in xs], where="mid", label=label)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share")
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(folder / name, dpi=100)
    plt.close(fig)
    return name


def _seat_plot(folder: Path, rows: Sequence[Row]) -> str:
    plt = _plt()
    variants = [v for v in ("rules", "finish_round") if _select(rows, v)]
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.6))
    for ax, p in zip(axes, (2, 3, 4), strict=True):
        width = 0.8 / max(1, len(variants))
        for j, v in enumerate(variants):
            g = _select(rows, v, p)
            if not g:
                continue
            sh = _seat_shares(g, p)
            xs = [s + j * width for s in range(p)]
            ax.bar(
                xs,
                [x[0] for x in sh],
                width=width,
                label=v,
                yerr=[[x[0] - x[1] for x in sh], [x[2] - x[0] for x in sh]],
                capsize=3,
            )
        ax.set_xticks([s + width * (len(variants) - 1) / 2 for s in range(p)])
        ax.set_xticklabels([str(s) for s in range(p)])
        ax.axhspan(1 / p - _FAIR_BAND, 1 / p + _FAIR_BAND, color="#55a868", alpha=0.2)
        ax.set_title(f"{p} players")
        ax.set_xlabel("seat (0 plays first)")
        ax.set_ylabel("win share")
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(folder / "q1_seats.png", dpi=100)
    plt.close(fig)
    return "q1_seats.png"


def _arch_plot(folder: Path, answers: Sequence[Answer]) -> str:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(9, 3.6))
    for ans in answers:
        pts = [(ln["label"], ln["value"]) for ln in ans.lines if ln["value"] is not None]
        ax.bar([f"{ans.key} {lb.split(' (')[0]}" for lb, _ in pts], [v for _, v in pts])
    ax.tick_params(axis="x", labelsize=7, rotation=60)
    ax.set_ylabel("win share of the archetype seat")
    ax.axhline(0.5, color="#c44e52", linestyle="--", linewidth=1)
    ax.axhline(0.25, color="#c44e52", linestyle=":", linewidth=1)
    ax.set_title("Q4/Q15: archetypes against greedy (fair: 50 % at 2p, 25 % at 4p)")
    fig.tight_layout()
    fig.savefig(folder / "q4_archetypes.png", dpi=100)
    plt.close(fig)
    return "q4_archetypes.png"


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
        if any(_select(rows, "rules")):
            out[0].plots.append(_seat_plot(folder, rows))
        if any(_archetype(r) for r in rows):
            hnw = q4_archetypes(rows, "happiness_not_wonders", "Q15 variant")
            out[3].plots.append(_arch_plot(folder, [out[3], hnw]))
    return out


def _configurations(rows: Sequence[Row]) -> list[str]:
    count: Counter[tuple[int, str, str]] = Counter()
    for r in rows:
        arch = _archetype(r)
        bots = (
            "greedy mirror" if _mirror(r) else (f"{arch} + greedy" if arch else ",".join(_bots(r)))
        )
        count[(_players(r), _variant(r), bots)] += 1
    out = ["| players | options | bots | games |", "|---:|---|---|---:|"]
    for (p, v, b), k in sorted(count.items()):
        out.append(f"| {p} | {v} | {b} | {k:,} |")
    return out


def report_overview(rows: Sequence[Row], folder: Any = None) -> dict[str, Any]:
    """The answers to Q1–Q16 as Markdown (with plots in ``folder``) and JSON."""
    path = Path(folder) if folder is not None else None
    sets = Counter(_card_set(r) for r in rows)
    # one card set per report: the newest present (older rows are left out and counted)
    chosen = max(sets, key=lambda k: (CARD_SETS.index(k) if k in CARD_SETS else -1, k), default="")
    left_out = {k: v for k, v in sets.items() if k != chosen}
    rows = [r for r in rows if _card_set(r) == chosen]
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
        return lambda r: float(sum(int(r.get(f"{key}_{s}") or 0) for s in range(_players(r))))

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


__all__ = ["answers", "report_overview", "report_sections"]
