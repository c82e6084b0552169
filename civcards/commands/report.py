"""``civcards report``: the balance report (plots and Markdown) of ``simulate --out`` files."""

from __future__ import annotations

from typing import Annotated

import typer

from .games import GAME_HELP, resolve_game

EXIT_USAGE = 2


def run_report(results: list[str], out: str, game_name: str | None = None) -> int:
    from rich.console import Console

    from ..sim.report import load, write_report

    err = Console(stderr=True)
    try:
        game = resolve_game(game_name)
        with err.status("reading the results…"):
            rows = load(results, game)
        with err.status(f"writing the report of {len(rows):,} games…"):
            summary = write_report(results, out, rows=rows, game=game)
    except ImportError as e:
        typer.echo(
            f"error: the report needs matplotlib ({e.name}): pip install 'civcards[sim]'",
            err=True,
        )
        return EXIT_USAGE
    except ValueError as e:
        typer.echo(f"error: {e}", err=True)
        return EXIT_USAGE
    except OSError as e:
        typer.echo(f"error: cannot write the report in {out!r} ({e.strerror})", err=True)
        return EXIT_USAGE
    labels = ", ".join(f"{g['label']}: {g['games']:,}" for g in summary["groups"])
    typer.echo(f"report of {summary['games']:,} games ({labels}) written to {out}/README.md")
    return 0


def register(app: typer.Typer) -> None:
    @app.command("report")
    def report_cmd(
        results: Annotated[
            list[str],
            typer.Argument(
                help="Results files of `civcards simulate --out` (.parquet, .csv, .csv.gz).",
                show_default=False,
            ),
        ],
        out: Annotated[
            str, typer.Option("--out", "-o", help="Folder of the report (created if needed).")
        ],
        game_name: Annotated[
            str | None, typer.Option("--game", "-g", help=GAME_HELP + " Its rows were written.")
        ] = None,
    ) -> None:
        """Write a balance report: first-seat advantage, victory types, game length and the
        game's own sections (CIV: winning domains, effect usage), as PNG plots and
        DIR/README.md.
        """
        raise typer.Exit(run_report(results, out, game_name))
