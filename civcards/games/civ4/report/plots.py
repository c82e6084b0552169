"""The plots of civ4's balance report (matplotlib, loaded only when a plot is drawn)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .rows import FAIR_BAND, Answer, Row, seat_shares, select_mirrors


def load_pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def bar_plot(folder: Path, name: str, title: str, data: dict[str, dict[str, float]]) -> str:
    plt = load_pyplot()
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


def hist_plot(
    folder: Path, name: str, title: str, xlabel: str, hists: dict[str, Counter[int]]
) -> str:
    plt = load_pyplot()
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


def seat_plot(folder: Path, rows: Sequence[Row]) -> str:
    plt = load_pyplot()
    variants = [v for v in ("rules", "finish_round") if select_mirrors(rows, v)]
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.6))
    for ax, p in zip(axes, (2, 3, 4), strict=True):
        width = 0.8 / max(1, len(variants))
        for j, v in enumerate(variants):
            g = select_mirrors(rows, v, p)
            if not g:
                continue
            sh = seat_shares(g, p)
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
        ax.axhspan(1 / p - FAIR_BAND, 1 / p + FAIR_BAND, color="#55a868", alpha=0.2)
        ax.set_title(f"{p} players")
        ax.set_xlabel("seat (0 plays first)")
        ax.set_ylabel("win share")
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(folder / "q1_seats.png", dpi=100)
    plt.close(fig)
    return "q1_seats.png"


def archetype_plot(folder: Path, answers: Sequence[Answer]) -> str:
    plt = load_pyplot()
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
