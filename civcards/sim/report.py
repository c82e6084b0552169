"""The balance report: plots and a Markdown summary of ``simulate --out`` results, for any
registered game.

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
* **victory types**: how the games ended, in the game's words (CIV: hegemony,
  R21, or majority, R22).
* **game length**: the game's turn counter at the end.
* then the game's own sections (:meth:`civcards.game_api.Game.report_sections`;
  CIV: the winning domain of each hegemony victory, the effect usage).

A game may also offer ``report_overview(rows, folder)`` (optional): a view of
every row at once, for questions that compare configurations or bots (a
variant against the rules as written). It returns ``{"markdown": …,
"summary": …}``; the Markdown goes before the findings, the summary into
``summary.json`` under ``"overview"``, and it may write its own plots into
``folder``.
"""

from __future__ import annotations

import json
import re
import statistics
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ..game_api import Game
from ..stats import clip_share, mean_interval
from .rows import read_rows

NOTES_BEGIN = "<!-- civcards-report:notes:begin -->"
NOTES_END = "<!-- civcards-report:notes:end -->"
PLOTS = ("first_seat.png", "victory_types.png", "turns.png")


def _default_game() -> Game:
    from .simulate import default_game

    return default_game()


def load(paths: Sequence[str | Path], game: Game | None = None) -> list[dict[str, Any]]:
    """The rows of every file, in order; ValueError with a sentence for a bad one."""
    game = game or _default_game()
    if not paths:
        raise ValueError("give at least one results file (from civcards simulate --out)")
    rows: list[dict[str, Any]] = []
    for p in paths:
        rows.extend(read_rows(p, game))
    if not rows:
        raise ValueError("the results files hold no games")
    return rows


GroupKey = tuple[Any, ...]


def group_key(row: dict[str, Any], game: Game | None = None) -> GroupKey:
    """The configuration of a row: its player count, then each option of the game."""
    game = game or _default_game()
    n = int(row["players"])
    return (n, *(_opt(row.get(o.name), o.default_for(n)) for o in game.options))


def _opt(value: Any, default: Any) -> Any:
    return default if value is None else value


def group_label(key: GroupKey, game: Game | None = None) -> str:
    """``2p basic``, ``4p basic teams``: the player count, then each option that is not
    false (a true option by its name, another by its value)."""
    game = game or _default_game()
    parts = [f"{key[0]}p"]
    for o, v in zip(game.options, key[1:], strict=True):
        if v is None:  # an option left unset (civ4's hand_limit)
            continue
        if o.kind == "bool":
            if v:
                parts.append(o.name)
        else:
            parts.append(str(v))
    return " ".join(parts)


def _winners(row: dict[str, Any]) -> list[int]:
    return [int(w) for w in str(row["winners"]).split()]


def _interval(values: list[float]) -> tuple[float, float, float]:
    """A share's mean and its 95 % interval (mean ± 1.96 standard errors) clipped to
    [0, 1]; one game says nothing (0 – 1)."""
    mean, lo, hi = mean_interval(values)
    if len(values) < 2:
        return mean, 0.0, 1.0
    return (mean, *clip_share(lo, hi))


def analyze(rows: Iterable[dict[str, Any]], game: Game | None = None) -> dict[str, Any]:
    """Every number of the report, grouped by configuration (JSON-ready)."""
    game = game or _default_game()
    groups: dict[GroupKey, list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(group_key(row, game), []).append(row)
    every = [r for g in groups.values() for r in g]
    reasons = sorted({str(r["victory"]) for r in every if r.get("victory")})
    hook = getattr(game, "report_sections", None)
    out: dict[str, Any] = {"games": len(every), "reasons": reasons, "groups": []}
    for key in sorted(groups, key=repr):
        g = groups[key]
        p = key[0]
        n = len(g)
        ends = {v: sum(1 for r in g if r["victory"] == v) for v in reasons}
        shares: list[list[float]] = [[] for _ in range(p)]
        outright = [0] * p
        by_victory: dict[str, list[float]] = {v: [0.0] * p for v in reasons}
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
        turns = sorted(int(r["turns"]) for r in g)
        group: dict[str, Any] = {
            "label": group_label(key, game),
            "players": p,
            **{o.name: v for o, v in zip(game.options, key[1:], strict=True)},
            "games": n,
            "fair_share": round(1 / p, 4),
            "first_seat": positions,
            # the win share of each position among the games that ended each way
            "first_seat_by_victory": {
                v: [round(x / max(1, ends[v]), 4) for x in by_victory[v]] for v in reasons
            },
            "victories": ends,
            **ends,
            "shared": sum(1 for r in g if r.get("shared")),
            "turns": {
                "mean": round(statistics.fmean(turns), 2),
                "median": statistics.median(turns),
                "min": turns[0],
                "max": turns[-1],
                "p10": turns[int(0.1 * (n - 1))],
                "p90": turns[int(0.9 * (n - 1))],
            },
            "turns_values": turns,
            "sections": hook(g) if hook is not None else [],
        }
        if reasons:
            group[f"{reasons[0]}_share"] = round(ends[reasons[0]] / n, 4)
        for sec in group["sections"]:
            group[str(sec["key"])] = dict(zip(_keys(sec), sec["values"], strict=True))
        out["groups"].append(group)
    return out


def _keys(sec: dict[str, Any]) -> list[str]:
    """A section's column keys in summary.json: the text in brackets of a label
    (``Military (M)`` -> ``M``), else the label."""
    out = []
    for c in sec["columns"]:
        m = re.search(r"\(([^)]*)\)$", str(c))
        out.append(m.group(1) if m else str(c))
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
        ends = "".join(
            f"{v.capitalize()} ends {_pct(k / g['games'])} of the games. "
            for v, k in g["victories"].items()
        )
        extra = "".join(f"{s['finding']} " for s in g["sections"] if s.get("finding"))
        lines.append(
            f"**{g['label']}** ({g['games']:,} games): the first player wins "
            f"{_pct(first['win_share'])} (95 %: {_pct(lo)}–{_pct(hi)}) against a fair "
            f"{_pct(fair)}: {verdict}; the best position is {best['position']} "
            f"({_pct(best['win_share'])}). "
            + ends
            + extra
            + f"Games last {g['turns']['mean']:.1f} turns on average "
            f"(median {g['turns']['median']:g}, {g['turns']['min']}–{g['turns']['max']})."
        )
    return lines


def _fmt(x: Any) -> str:
    return f"{x:.3f}" if isinstance(x, float) else str(x)


def markdown(
    summary: dict[str, Any],
    sources: list[str],
    notes: str | None = None,
    overview: str | None = None,
) -> str:
    """The README.md of the report (``overview``: the game's Markdown before the findings)."""
    groups = summary["groups"]
    reasons: list[str] = summary.get("reasons", [])
    out = ["# Balance report", ""]
    out += [NOTES_BEGIN, notes.strip() if notes else "", NOTES_END, ""]
    out += [
        f"Generated by `civcards report` from {summary['games']:,} games "
        f"({', '.join(f'`{s}`' for s in sources)}).",
        "",
    ]
    if overview:
        out += [overview.rstrip(), ""]
    out += [
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
    for g in groups:
        for pos in g["first_seat"]:
            lo, hi = pos["ci95"]
            out.append(
                f"| {g['label']} | {pos['position']} | {pos['wins']} | "
                f"{pos['win_share']:.4f} | {lo:.4f}–{hi:.4f} | {g['fair_share']:.4f} |"
            )
    if reasons:
        out += [
            "",
            "The same shares among the games that ended each way:",
            "",
            "| games | victory | games won so | win share by position (0, 1, …) |",
            "|---|---|---:|---|",
        ]
        for g in groups:
            for v in reasons:
                sh = " · ".join(f"{x:.3f}" for x in g["first_seat_by_victory"][v])
                out.append(f"| {g['label']} | {v} | {g['victories'][v]} | {sh} |")
    out += ["", "![first-seat advantage](first_seat.png)", "", "## How the games ended", ""]
    share = f" {reasons[0]} share |" if reasons else ""
    out += [
        "| games | count | "
        + " | ".join(reasons)
        + (" | " if reasons else "")
        + "shared |"
        + share,
        "|---|---:|" + "---:|" * (len(reasons) + 1) + ("---:|" if reasons else ""),
    ]
    for g in groups:
        cells = [str(g["victories"][v]) for v in reasons] + [str(g["shared"])]
        if reasons:
            cells.append(f"{g['victories'][reasons[0]] / g['games']:.4f}")
        out.append(f"| {g['label']} | {g['games']} | " + " | ".join(cells) + " |")
    out += ["", "![victory types](victory_types.png)", "", "## Game length (turns)", ""]
    out += [
        "| games | mean | median | min | 10 % | 90 % | max |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for g in groups:
        t = g["turns"]
        out.append(
            f"| {g['label']} | {t['mean']:.2f} | {t['median']:g} | {t['min']} | {t['p10']} | "
            f"{t['p90']} | {t['max']} |"
        )
    out += ["", "![game length](turns.png)", ""]
    for i, sec in enumerate(groups[0]["sections"] if groups else []):
        out += [f"## {sec['title']}", ""]
        out += ["| games | " + " | ".join(str(c) for c in sec["columns"]) + " |"]
        out += ["|---|" + "---:|" * len(sec["columns"])]
        for g in groups:
            row = g["sections"][i]["values"]
            out.append(f"| {g['label']} | " + " | ".join(_fmt(x) for x in row) + " |")
        out.append("")
        if sec.get("note"):
            out += [str(sec["note"]), ""]
        if sec.get("plot"):
            out += [f"![{sec['plot']['title']}]({sec['plot']['file']})", ""]
    return "\n".join(out)


def plot(summary: dict[str, Any], folder: Path) -> list[Path]:
    """Write the PNG plots into ``folder``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = summary["groups"]
    reasons: list[str] = summary.get("reasons", [])
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
    bottom = [0.0] * len(groups)
    colours = ["#55a868", "#8172b2", "#dd8452", "#4c72b0", "#c44e52"]
    for j, v in enumerate(reasons):
        part = [g["victories"][v] / g["games"] for g in groups]
        ax.bar(labels, part, bottom=bottom, label=v, color=colours[j % len(colours)])
        bottom = [b + x for b, x in zip(bottom, part, strict=True)]
    ax.set_ylabel("share of games")
    ax.set_ylim(0, 1)
    if reasons:
        ax.legend(fontsize=8)
    ax.set_title("victory types")
    save(fig, "victory_types.png")

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

    for i, sec in enumerate(groups[0]["sections"] if groups else []):
        spec = sec.get("plot")
        if not spec:
            continue
        cols = [str(c) for c in sec["columns"]]
        horizontal = bool(spec.get("horizontal"))
        fig, ax = plt.subplots(figsize=(7, 5 if horizontal else 3.6))
        width = 0.8 / len(groups)
        for j, g in enumerate(groups):
            gs = g["sections"][i]
            ys = gs["plot"].get("values", gs["values"])
            xs = [k + j * width for k in range(len(cols))]
            if horizontal:
                ax.barh(xs, ys, height=width, label=g["label"])
            else:
                ax.bar(xs, ys, width=width, label=g["label"])
        ticks = [k + 0.4 - width / 2 for k in range(len(cols))]
        if horizontal:
            ax.set_yticks(ticks)
            ax.set_yticklabels(cols)
            ax.invert_yaxis()
            ax.set_xlabel(spec.get("label", ""))
        else:
            ax.set_xticks(ticks)
            ax.set_xticklabels(cols, fontsize=8)
            ax.set_ylabel(spec.get("label", ""))
        ax.set_title(spec.get("title", sec["title"]))
        ax.legend(fontsize=8)
        save(fig, str(spec["file"]))
    return written


def _old_notes(readme: Path) -> str | None:
    if not readme.is_file():
        return None
    text = readme.read_text(encoding="utf-8")
    m = re.search(re.escape(NOTES_BEGIN) + r"(.*?)" + re.escape(NOTES_END), text, re.S)
    return m.group(1).strip() if m else None


def write_report(
    paths: Sequence[str | Path],
    folder: str | Path,
    rows: list[dict[str, Any]] | None = None,
    game: Game | None = None,
) -> dict[str, Any]:
    """Read the results files and write the report into ``folder``; returns the summary.

    Text between the notes markers of an existing ``README.md`` is kept.
    """
    game = game or _default_game()
    if rows is None:
        rows = load(paths, game)
    out = Path(folder)
    if out.exists() and not out.is_dir():
        raise ValueError(f"{str(out)!r} exists and is not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ValueError(f"cannot create the folder {str(out)!r} ({e.strerror})") from None
    summary = analyze(rows, game)
    readme = out / "README.md"
    notes = _old_notes(readme)
    plot(summary, out)
    hook = getattr(game, "report_overview", None)
    overview: dict[str, Any] = hook(rows, out) if hook is not None else {}
    public = {
        "games": summary["games"],
        "game": game.name,
        "groups": [
            {k: v for k, v in g.items() if k not in ("turns_values", "sections")}
            for g in summary["groups"]
        ],
    }
    if overview.get("summary") is not None:
        public["overview"] = overview["summary"]
    (out / "summary.json").write_text(json.dumps(public, indent=1) + "\n", encoding="utf-8")
    sources = [str(p) for p in paths]
    readme.write_text(markdown(summary, sources, notes, overview.get("markdown")), encoding="utf-8")
    return public
