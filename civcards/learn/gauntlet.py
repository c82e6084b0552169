"""What both methods of ``civcards train`` (expert iteration, :mod:`.loop`; policy
gradient, :mod:`.pg`) share: the fixed-seed matches that turn a run's curve into win
rates (played through the arena, with their Wilson intervals, and the curve's plot of
them), and the run folder's ``run.json`` (read, and written whole or not at all)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..game_api import Game
from ..sim.arena import ArenaConfig, run_arena
from ..stats import wilson

#: what a progress callback receives: (stage, done, total)
Progress = Callable[[str, int, int], None]
#: a match: (its key in the curve, the learner's bot, its opponent, the games)
Match = tuple[str, str, str, int]


def counter(progress: Progress | None, stage: str, total: int) -> Callable[[Any], None]:
    """A callback that counts its calls to ``progress`` as the stage's done of ``total``."""
    done = [0]

    def tick(_: Any) -> None:
        done[0] += 1
        if progress is not None:
            progress(stage, done[0], total)

    return tick


def play_matches(
    game: Game,
    matches: Sequence[Match],
    players: int,
    seed: int,
    jobs: int,
    ray: str | None,
    progress: Progress | None,
    stage: str,
) -> dict[str, Any]:
    """Each match with games (an arena of ``seed``, seats rotated): its games, the
    learner's wins, its rate with the Wilson 95 % interval, and its seconds a move."""
    out: dict[str, Any] = {}
    for key, mine, theirs, games in matches:
        if games <= 0:
            continue
        arena = ArenaConfig(bots=(mine, theirs), games=games, players=players, seed=seed)
        tick = counter(progress, f"{stage}: {key}", games)
        summary = run_arena(arena, jobs=jobs, on_result=tick, game=game, ray=ray)
        wins = float(summary.wins.get(mine, 0.0))
        lo, hi = wilson(wins, games)
        out[key] = {
            "games": games,
            "wins": wins,
            "rate": wins / games,
            "low": lo,
            "high": hi,
            "seconds_per_move": summary.seconds_per_move(mine),
        }
    return out


def plot_rates(
    ax: Any, curve: Sequence[dict[str, Any]], x: str, labels: Sequence[tuple[str, str]]
) -> None:
    """On matplotlib's ``ax``: each match of ``labels`` (key, label) that the ``curve``'s
    points have a gauntlet for, its rate by ``x`` (the point's generation or iteration)
    with the Wilson interval as error bars."""
    for key, label in labels:
        pts = [(c[x], c["gauntlet"][key]) for c in curve if key in c.get("gauntlet", {})]
        if pts:
            ax.errorbar(
                [i for i, _ in pts],
                [m["rate"] for _, m in pts],
                yerr=[
                    [m["rate"] - m["low"] for _, m in pts],
                    [m["high"] - m["rate"] for _, m in pts],
                ],
                marker="o",
                capsize=3,
                label=label,
            )


def read_run(out: Path) -> dict[str, Any] | None:
    """The run folder's ``run.json`` (None: no run there yet)."""
    p = out / "run.json"
    if not p.is_file():
        return None
    data: dict[str, Any] = json.loads(p.read_text())
    return data


def write_json(p: Path, data: Any) -> None:
    """Write ``data`` to ``p`` through a temporary file, so that a kill leaves the old file
    or the new one, never half of one."""
    tmp = p.with_name(p.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    tmp.replace(p)


__all__ = ["Match", "Progress", "counter", "play_matches", "plot_rates", "read_run", "write_json"]
