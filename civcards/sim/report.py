"""The balance report: plots and a Markdown summary of ``simulate --out`` results.

:func:`analyze` turns rows (:mod:`civcards.sim.rows`) into numbers, grouped by
configuration (player count, deal, team game); :func:`write_report` writes
them as ``summary.json``, PNG plots (matplotlib, Agg backend) and
``README.md`` in a folder.

Definitions:

* **first-seat advantage**: a game's one victory is shared equally among its
  winning seats (a team's victory is half for each member); the *position* of
  a seat is its distance after the start player, ``(seat - start) mod P``
  (position 0 played first). The win share of a position is the mean of its
  shares over the games, with a 95 % interval (mean ± 1.96 standard errors),
  to compare with the fair ``1/P``.
* **victory types**: hegemony (R21) or majority (R22) victories per game.
* **winning domain**: the domain of each hegemony victory.
* **game length**: the engine's turn counter at the end.
* **effect usage**: the mean number of uses of each effect kind per game.
"""

from __future__ import annotations

import json
import math
import re
import statistics
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ..carta.cards import DOMAIN_NAMES, LETTERS
from ..carta.moves import EFFECT_KINDS
from .rows import read_rows

NOTES_BEGIN = "<!-- civcards-report:notes:begin -->"
NOTES_END = "<!-- civcards-report:notes:end -->"
PLOTS = ("first_seat.png", "victory_types.png", "hegemony_domains.png", "turns.png", "effects.png")


def load(paths: Sequence[str | Path]) -> list[dict[str, Any]]:
    """The rows of every file, in order; ValueError with a sentence for a bad one."""
    if not paths:
        raise ValueError("give at least one results file (from civcards simulate --out)")
    rows: list[dict[str, Any]] = []
    for p in paths:
        rows.extend(read_rows(p))
    if not rows:
        raise ValueError("the results files hold no games")
    return rows


def group_key(row: dict[str, Any]) -> tuple[int, str, bool]:
    return (int(row["players"]), str(row.get("deal") or "basic"), bool(row.get("teams")))


def group_label(key: tuple[int, str, bool]) -> str:
    p, deal, teams = key
    return f"{p}p {deal}" + (" teams" if teams else "")


def _winners(row: dict[str, Any]) -> list[int]:
    return [int(w) for w in str(row["winners"]).split()]


def _interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and a 95 % interval (mean ± 1.96 standard errors)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0, 1.0
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def analyze(rows: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Every number of the report, grouped by configuration (JSON-ready)."""
    groups: dict[tuple[int, str, bool], list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(group_key(row), []).append(row)
    out: dict[str, Any] = {"games": sum(len(g) for g in groups.values()), "groups": []}
    for key in sorted(groups):
        g = groups[key]
        p = key[0]
        n = len(g)
        heg = sum(1 for r in g if r["victory"] == "hegemony")
        maj = sum(1 for r in g if r["victory"] == "majority")
        shares: list[list[float]] = [[] for _ in range(p)]
        outright = [0] * p
        by_victory: dict[str, list[float]] = {"hegemony": [0.0] * p, "majority": [0.0] * p}
        for row in g:
            won = _winners(row)
            start = int(row["start"])
            for seat in range(p):
                pos = (seat - start) % p
                shares[pos].append(1.0 / len(won) if seat in won else 0.0)
                if seat in won:
                    outright[pos] += 1
                    if row["victory"] in by_victory:
                        by_victory[row["victory"]][pos] += 1.0 / len(won)
        positions = []
        for pos in range(p):
            mean, lo, hi = _interval(shares[pos])
            positions.append(
                {
                    "position": pos,
                    "wins": outright[pos],
                    "win_share": round(mean, 4),
                    "ci95": [round(lo, 4), round(hi, 4)],
                }
            )
        domains = {
            c: sum(1 for r in g if r["victory"] == "hegemony" and r["domain"] == c) for c in LETTERS
        }
        turns = sorted(int(r["turns"]) for r in g)
        effects = {
            k: round(sum(int(r.get(f"effect_{k}") or 0) for r in g) / n, 3) for k in EFFECT_KINDS
        }
        out["groups"].append(
            {
                "label": group_label(key),
                "players": p,
                "deal": key[1],
                "teams": key[2],
                "games": n,
                "fair_share": round(1 / p, 4),
                "first_seat": positions,
                # the win share of each position among the games won by hegemony, by majority
                "first_seat_by_victory": {
                    v: [round(x / max(1, count), 4) for x in by_victory[v]]
                    for v, count in (("hegemony", heg), ("majority", maj))
                },
                "hegemony": heg,
                "majority": maj,
                "shared": sum(1 for r in g if r.get("shared")),
                "hegemony_share": round(heg / n, 4),
                "hegemony_domains": domains,
                "turns": {
                    "mean": round(statistics.fmean(turns), 2),
                    "median": statistics.median(turns),
                    "min": turns[0],
                    "max": turns[-1],
                    "p10": turns[int(0.1 * (n - 1))],
                    "p90": turns[int(0.9 * (n - 1))],
                },
                "turns_values": turns,
                "effects_per_game": effects,
            }
        )
    return out


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def findings(summary: dict[str, Any]) -> list[str]:
    """What the numbers say, one sentence per configuration and topic."""
    lines = []
    for g in summary["groups"]:
        first = g["first_seat"][0]
        lo, hi = first["ci95"]
        fair = g["fair_share"]
        if lo > fair:
            verdict = "an advantage for the first player"
        elif hi < fair:
            verdict = "a disadvantage for the first player"
        else:
            verdict = "no first-seat effect that these games can tell from chance"
        best = max(g["first_seat"], key=lambda x: x["win_share"])
        lines.append(
            f"**{g['label']}** ({g['games']:,} games): the first player wins "
            f"{_pct(first['win_share'])} (95 %: {_pct(lo)}–{_pct(hi)}) against a fair "
            f"{_pct(fair)}: {verdict}; the best position is {best['position']} "
            f"({_pct(best['win_share'])}). Hegemony ends {_pct(g['hegemony_share'])} of the "
            f"games, majority {_pct(g['majority'] / g['games'])}. "
            + _domain_sentence(g)
            + f" Games last {g['turns']['mean']:.1f} turns on average "
            f"(median {g['turns']['median']:g}, {g['turns']['min']}–{g['turns']['max']})."
        )
    return lines


def _domain_sentence(g: dict[str, Any]) -> str:
    heg = g["hegemony"]
    if not heg:
        return "No hegemony victory."
    ranked = sorted(g["hegemony_domains"].items(), key=lambda kv: -kv[1])
    parts = [f"{DOMAIN_NAMES[LETTERS.index(c)]} {_pct(k / heg)}" for c, k in ranked if k]
    return "Hegemonies by domain: " + ", ".join(parts) + "."


def markdown(summary: dict[str, Any], sources: list[str], notes: str | None = None) -> str:
    """The README.md of the report."""
    out = ["# Balance report", ""]
    out += [NOTES_BEGIN, notes.strip() if notes else "", NOTES_END, ""]
    out += [
        f"Generated by `civcards report` from {summary['games']:,} games "
        f"({', '.join(f'`{s}`' for s in sources)}).",
        "",
        "## Findings",
        "",
    ]
    out += [f"- {line}" for line in findings(summary)]
    out += [
        "",
        "## First-seat advantage",
        "",
        "Win share by position after the start player (0 = played first); a shared "
        "victory is split among its winners, a team victory half for each member. "
        "95 % intervals: mean ± 1.96 standard errors.",
        "",
        "| games | position | wins | win share | 95 % interval | fair |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for g in summary["groups"]:
        for pos in g["first_seat"]:
            lo, hi = pos["ci95"]
            out.append(
                f"| {g['label']} | {pos['position']} | {pos['wins']} | "
                f"{pos['win_share']:.4f} | {lo:.4f}–{hi:.4f} | {g['fair_share']:.4f} |"
            )
    out += [
        "",
        "The same shares among the games won by hegemony, and among those won by majority:",
        "",
        "| games | victory | games won so | win share by position (0, 1, …) |",
        "|---|---|---:|---|",
    ]
    for g in summary["groups"]:
        for v in ("hegemony", "majority"):
            sh = " · ".join(f"{x:.3f}" for x in g["first_seat_by_victory"][v])
            out.append(f"| {g['label']} | {v} | {g[v]} | {sh} |")
    out += ["", "![first-seat advantage](first_seat.png)", "", "## Hegemony or majority", ""]
    out += [
        "| games | count | hegemony | majority | shared | hegemony share |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for g in summary["groups"]:
        out.append(
            f"| {g['label']} | {g['games']} | {g['hegemony']} | {g['majority']} | "
            f"{g['shared']} | {g['hegemony_share']:.4f} |"
        )
    out += ["", "![victory types](victory_types.png)", "", "## Winning domain (hegemony)", ""]
    out += [
        "| games | "
        + " | ".join(f"{n} ({c})" for c, n in zip(LETTERS, DOMAIN_NAMES, strict=True))
        + " |",
        "|---|" + "---:|" * len(LETTERS),
    ]
    for g in summary["groups"]:
        out.append(
            f"| {g['label']} | " + " | ".join(str(g["hegemony_domains"][c]) for c in LETTERS) + " |"
        )
    out += ["", "![hegemony domains](hegemony_domains.png)", "", "## Game length (turns)", ""]
    out += [
        "| games | mean | median | min | 10 % | 90 % | max |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for g in summary["groups"]:
        t = g["turns"]
        out.append(
            f"| {g['label']} | {t['mean']:.2f} | {t['median']:g} | {t['min']} | {t['p10']} | "
            f"{t['p90']} | {t['max']} |"
        )
    out += ["", "![game length](turns.png)", "", "## Effect usage (mean uses per game)", ""]
    labels = [g["label"] for g in summary["groups"]]
    out += ["| effect | " + " | ".join(labels) + " |", "|---|" + "---:|" * len(labels)]
    for k in EFFECT_KINDS:
        out.append(
            f"| {k} | "
            + " | ".join(f"{g['effects_per_game'][k]:.3f}" for g in summary["groups"])
            + " |"
        )
    out += [
        "",
        "An Inspiration counts as `inspiration`, not as the effect it copies; Holy Book "
        "and Divine Right (the passive hand sizes of R16) are moves only when an "
        "Inspiration copies them, so they count 0 here.",
        "",
        "![effect usage](effects.png)",
        "",
    ]
    return "\n".join(out)


def plot(summary: dict[str, Any], folder: Path) -> list[Path]:
    """Write the PNG plots into ``folder``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = summary["groups"]
    labels = [g["label"] for g in groups]
    written: list[Path] = []

    def save(fig: Any, name: str) -> None:
        path = folder / name
        fig.tight_layout()
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)

    # first-seat advantage: one panel per configuration
    fig, axes = plt.subplots(1, len(groups), figsize=(4 * len(groups), 3.6), squeeze=False)
    for ax, g in zip(axes[0], groups, strict=True):
        xs = [p["position"] for p in g["first_seat"]]
        ys = [p["win_share"] for p in g["first_seat"]]
        err = [
            [y - p["ci95"][0] for y, p in zip(ys, g["first_seat"], strict=True)],
            [p["ci95"][1] - y for y, p in zip(ys, g["first_seat"], strict=True)],
        ]
        ax.bar(xs, ys, yerr=err, capsize=4, color="#4c72b0")
        ax.axhline(g["fair_share"], color="#c44e52", linestyle="--", label="fair 1/P")
        ax.set_xticks(xs)
        ax.set_xlabel("position after the start player")
        ax.set_ylabel("win share")
        ax.set_title(f"{g['label']} ({g['games']:,} games)")
        ax.legend(loc="lower right", fontsize=8)
    save(fig, "first_seat.png")

    fig, ax = plt.subplots(figsize=(max(4, 1.6 * len(groups)), 3.6))
    heg = [g["hegemony"] / g["games"] for g in groups]
    ax.bar(labels, heg, label="hegemony", color="#55a868")
    ax.bar(labels, [1 - h for h in heg], bottom=heg, label="majority", color="#8172b2")
    ax.set_ylabel("share of games")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8)
    ax.set_title("victory types")
    save(fig, "victory_types.png")

    fig, ax = plt.subplots(figsize=(7, 3.6))
    width = 0.8 / len(groups)
    for j, g in enumerate(groups):
        total = g["hegemony"] or 1
        ax.bar(
            [d + j * width for d in range(len(LETTERS))],
            [g["hegemony_domains"][c] / total for c in LETTERS],
            width=width,
            label=g["label"],
        )
    ax.set_xticks([d + 0.4 - width / 2 for d in range(len(LETTERS))])
    ax.set_xticklabels(DOMAIN_NAMES)
    ax.set_ylabel("share of hegemony victories")
    ax.set_title("winning domain (hegemony)")
    ax.legend(fontsize=8)
    save(fig, "hegemony_domains.png")

    fig, ax = plt.subplots(figsize=(7, 3.6))
    top = max(max(g["turns_values"]) for g in groups)
    low = min(min(g["turns_values"]) for g in groups)
    bins = range(low - low % 2, top + 3, 2)
    for g in groups:
        weights = [1 / len(g["turns_values"])] * len(g["turns_values"])
        ax.hist(g["turns_values"], bins=bins, weights=weights, histtype="step", label=g["label"])
    ax.set_xlabel("turns (bins of 2)")
    ax.set_ylabel("share of games")
    ax.set_title("game length")
    ax.legend(fontsize=8)
    save(fig, "turns.png")

    fig, ax = plt.subplots(figsize=(7, 5))
    height = 0.8 / len(groups)
    for j, g in enumerate(groups):
        ax.barh(
            [k + j * height for k in range(len(EFFECT_KINDS))],
            [g["effects_per_game"][k] for k in EFFECT_KINDS],
            height=height,
            label=g["label"],
        )
    ax.set_yticks([k + 0.4 - height / 2 for k in range(len(EFFECT_KINDS))])
    ax.set_yticklabels(EFFECT_KINDS)
    ax.invert_yaxis()
    ax.set_xlabel("mean uses per game")
    ax.set_title("effect usage")
    ax.legend(fontsize=8)
    save(fig, "effects.png")
    return written


def _old_notes(readme: Path) -> str | None:
    if not readme.is_file():
        return None
    text = readme.read_text(encoding="utf-8")
    m = re.search(re.escape(NOTES_BEGIN) + r"(.*?)" + re.escape(NOTES_END), text, re.S)
    return m.group(1).strip() if m else None


def write_report(
    paths: Sequence[str | Path], folder: str | Path, rows: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """Read the results files and write the report into ``folder``; returns the summary.

    Text between the notes markers of an existing ``README.md`` is kept.
    """
    if rows is None:
        rows = load(paths)
    out = Path(folder)
    if out.exists() and not out.is_dir():
        raise ValueError(f"{str(out)!r} exists and is not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ValueError(f"cannot create the folder {str(out)!r} ({e.strerror})") from None
    summary = analyze(rows)
    readme = out / "README.md"
    notes = _old_notes(readme)
    plot(summary, out)
    public = {
        "games": summary["games"],
        "groups": [{k: v for k, v in g.items() if k != "turns_values"} for g in summary["groups"]],
    }
    (out / "summary.json").write_text(json.dumps(public, indent=1) + "\n", encoding="utf-8")
    sources = [str(p) for p in paths]
    readme.write_text(markdown(summary, sources, notes), encoding="utf-8")
    return public
