"""``civcards train --method pg``: the options and run of policy-gradient fine-tuning
(:mod:`civcards.learn.pg`; needs PyTorch, the ``train`` extra)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import typer

from .progress import progress_bar, stage_callbacks

EXIT_USAGE = 2

#: the pg method's defaults, for the options shared with ``--method expert``
PG_DEFAULTS: dict[str, Any] = {
    "iterations": 100,
    "games": 1000,
    "epochs": 3,
    "lr": 3e-5,
    "value_weight": 0.5,
    "gauntlet_search": 0,
    "eval": 400,
    "eval_every": 5,
    "opponent": "greedy",
    "clip": 0.2,
    "entropy": 0.003,
}

#: options that only ``--method pg`` reads
PG_ONLY = ("eval", "eval_every", "opponent", "clip", "entropy")


def count_problems(
    game: Any, values: Mapping[str, Any], lows: Sequence[tuple[str, int]]
) -> list[str]:
    """The problems of a training run's counts: ``--players`` outside the game's range, and
    each option of ``lows`` (name, least value) below its least value."""
    problems: list[str] = []
    players = int(values["players"])
    if not game.min_players <= players <= game.max_players:
        problems.append(f"--players must be from {game.min_players} to {game.max_players}")
    for key, low in lows:
        if int(values[key]) < low:
            problems.append(f"--{key.replace('_', '-')} must be at least {low}")
    return problems


def pg_problems(game: Any, values: dict[str, Any], jobs: int) -> list[str]:
    """One sentence for each bad value of a pg run's options (``values``: every option,
    its default filled in)."""
    problems = count_problems(
        game,
        values,
        (
            ("iterations", 1),
            ("games", 1),
            ("epochs", 1),
            ("eval", 0),
            ("eval_every", 1),
            ("gauntlet_search", 0),
        ),
    )
    if not float(values["lr"]) > 0:
        problems.append("--lr must be more than 0")
    if not 0 < float(values["clip"]) < 1:
        problems.append("--clip must be more than 0 and less than 1")
    if not float(values["entropy"]) >= 0:
        problems.append("--entropy must be 0 or more")
    if not float(values["value_weight"]) >= 0:
        problems.append("--value-weight must be 0 or more")
    if jobs < 1:
        problems.append("--jobs must be at least 1")
    from ..bots import make_bot

    try:
        make_bot(game, str(values["opponent"]), seed=0)
    except ValueError as e:
        problems.append(f"--opponent: {e}")
    from ..bots.netsearch import load_network

    try:
        load_network(game, str(values["init"]) or None)
    except ValueError as e:
        problems.append(f"--init: {e}")
    return problems


def folder_and_torch_problems(path: Path) -> list[str]:
    """What stops either method from training into ``path``: a file in its place, or no
    PyTorch (the ``train`` extra)."""
    problems = []
    if path.exists() and not path.is_dir():
        problems.append(f"--out {str(path)!r} is a file: name a folder")
    try:
        import torch  # noqa: F401
    except ImportError:
        problems.append("training needs PyTorch: pip install 'civcards[train]'")
    return problems


def run_pg_command(
    game: Any,
    out: str | None,
    values: dict[str, Any],
    jobs: int,
    ray: str | None,
    as_json: bool,
    show_progress: bool,
    problems: list[str],
) -> int:
    """Check the options (adding to ``problems``, the checks shared with the expert
    method), then run or resume the pg run; the exit status."""
    problems = problems + pg_problems(game, values, jobs)
    path = Path(out) if out else Path("studies") / "learning" / f"{game.name}-pg"
    problems += folder_and_torch_problems(path)
    if problems:
        for p in problems:
            typer.echo(f"error: {p}", err=True)
        return EXIT_USAGE
    from ..bots.netsearch import shipped_weights
    from ..learn.pg import PGConfig, run_pg

    cfg = PGConfig(
        game=game.name,
        init=str(values["init"]) or str(shipped_weights(game)),
        seed=int(values["seed"]),
        players=int(values["players"]),
        games=int(values["games"]),
        opponent=str(values["opponent"]),
        epochs=int(values["epochs"]),
        lr=float(values["lr"]),
        clip=float(values["clip"]),
        entropy=float(values["entropy"]),
        value_weight=float(values["value_weight"]),
        eval=int(values["eval"]),
        eval_every=int(values["eval_every"]),
        gauntlet_search=int(values["gauntlet_search"]),
    )
    bar = progress_bar(None, show_progress, transient=True)
    progress, log = stage_callbacks(bar, as_json)

    try:
        with bar:
            state = run_pg(
                game,
                cfg,
                path,
                int(values["iterations"]),
                jobs=jobs,
                ray=ray,
                progress=progress,
                log=log,
            )
    except ValueError as e:
        typer.echo(f"error: {e}", err=True)
        return EXIT_USAGE
    except KeyboardInterrupt:
        typer.echo(
            f"stopped: the run in {path} resumes from its last finished iteration "
            "with the same command",
            err=True,
        )
        return 130
    if as_json:
        typer.echo(
            json.dumps({"out": str(path), "iteration": state["iteration"], "curve": state["curve"]})
        )
    else:
        typer.echo(
            f"{state['iteration']} iterations in {path}; the latest network is "
            f"{path / state['latest']} (copy an evaluated one to the game's "
            "weights/policy.npz to ship it)"
        )
    return 0


__all__ = [
    "PG_DEFAULTS",
    "PG_ONLY",
    "count_problems",
    "folder_and_torch_problems",
    "pg_problems",
    "run_pg_command",
]
