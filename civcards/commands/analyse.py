"""``civcards analyse RECORD``: every decision of a finished game judged by the search bot,
from the information set of the seat that made it (:mod:`civcards.analysis`,
docs/analysis.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from ..analysis import (
    DEFAULT_BOT,
    AnalysisError,
    analyse_record,
    annotate,
    parse_record,
    plot_png,
)
from .games import JobsOpt, NoProgressOpt
from .replay import UnreadableFile, read_text

EXIT_OK = 0
EXIT_USAGE = 2


def run_analyse(
    path: str,
    *,
    bot: str = DEFAULT_BOT,
    as_json: bool = False,
    out: str | None = None,
    png: str | None = None,
    jobs: int = 1,
    seed: int = 0,
    progress: bool = True,
) -> int:
    """Analyse the record at ``path`` (``-``: stdin); print, write; the exit status."""
    try:
        text = read_text(path)
        _game, record = parse_record(text)
        if jobs < 1:
            raise AnalysisError(f"--jobs must be at least 1, not {jobs}")
        for target in (out, png):
            if target is not None and not Path(target).resolve().parent.is_dir():
                raise AnalysisError(f"the folder of {target!r} does not exist")
    except (UnreadableFile, AnalysisError) as e:
        typer.echo(f"error: {e}", err=True)
        return EXIT_USAGE
    from .progress import progress_bar

    bar = progress_bar("analysing", progress)
    try:
        with bar:
            task = bar.add_task("moves", total=len(record["moves"]))

            def on_progress(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            analysis = analyse_record(record, bot, seed, jobs=jobs, on_progress=on_progress)
    except AnalysisError as e:
        typer.echo(f"error: {e}", err=True)
        return EXIT_USAGE
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        return 130
    try:
        if out is not None:
            Path(out).write_text(
                json.dumps(annotate(record, analysis), ensure_ascii=False, indent=1) + "\n",
                encoding="utf-8",
            )
        if png is not None:
            plot_png(analysis, png)
    except AnalysisError as e:
        typer.echo(f"error: {e}", err=True)
        return EXIT_USAGE
    except OSError as e:
        typer.echo(f"error: cannot write {e.filename!r} ({e.strerror})", err=True)
        return EXIT_USAGE
    if as_json:
        typer.echo(json.dumps(analysis, ensure_ascii=False))
    else:
        print_analysis(analysis)
    return EXIT_OK


def print_analysis(analysis: dict[str, Any]) -> None:
    """The summary per seat and the marked moves, as a Rich table."""
    from rich.console import Console
    from rich.table import Table

    console = Console()
    names = analysis["names"]
    table = Table(title=f"{analysis['game']}: {analysis['bot']}, seed {analysis['seed']}")
    table.add_column("seat")
    table.add_column("accuracy", justify="right")
    for label in ("best", "good", "inaccuracy", "mistake", "blunder"):
        table.add_column(label, justify="right")
    for s in analysis["summary"]:
        acc = "-" if s["accuracy"] is None else f"{s['accuracy']:.1f}"
        table.add_row(str(names[s["seat"]]), acc, *(str(s["counts"][k]) for k in s["counts"]))
    console.print(table)
    marked = [m for m in analysis["moves"] if m["label"] in ("inaccuracy", "mistake", "blunder")]
    if marked:
        moves = Table(title="marked moves")
        for col in ("#", "seat", "played", "chance", "preferred", "chance ", "label"):
            moves.add_column(col)
        for m in marked:
            moves.add_row(
                str(m["index"] + 1),
                str(names[m["seat"]]),
                m["move"],
                f"{100 * m['after']:.0f} %",
                str(m["best"]),
                f"{100 * m['before']:.0f} %",
                m["label"],
            )
        console.print(moves)


def register(app: typer.Typer) -> None:
    @app.command("analyse")
    def analyse_cmd(
        record: Annotated[
            str,
            typer.Argument(help="A finished game's record of any game (annotated or not), or -."),
        ],
        bot: Annotated[
            str, typer.Option("--bot", help="The search bot and its budget (ismcts:2000it).")
        ] = DEFAULT_BOT,
        as_json: Annotated[
            bool, typer.Option("--json", help="Print the analysis as one line of JSON.")
        ] = False,
        out: Annotated[
            str | None,
            typer.Option("--out", "-o", help="Write the annotated record (record + annotations)."),
        ] = None,
        png: Annotated[
            str | None, typer.Option("--png", help="Draw the win-chance curves (matplotlib).")
        ] = None,
        jobs: JobsOpt = 1,
        seed: Annotated[int, typer.Option("--seed", help="The search's seed.")] = 0,
        no_progress: NoProgressOpt = False,
    ) -> None:
        """Judge every decision of a finished game from what its seat could know: each
        seat's chance of winning before and after its move, the bot's preferred move, and
        a label (best, good, inaccuracy, mistake, blunder; docs/analysis.md). The same
        analysis for a given seed and budget, whatever --jobs. Exit status 2 for a file
        that is not a finished record.
        """
        raise typer.Exit(
            run_analyse(
                record,
                bot=bot,
                as_json=as_json,
                out=out,
                png=png,
                jobs=jobs,
                seed=seed,
                progress=not no_progress,
            )
        )
