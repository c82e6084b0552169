"""``civcards loadtest``: many live games against a real web table, with latency and errors."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer

from ..game_api import DEFAULT_GAME

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, TaskID

    from ..loadtest import LoadConfig, LoadResult

# Rich's progress and tables are imported when the command runs, not with the command line

EXIT_USAGE = 2


def parse_curve(text: str) -> list[int]:
    try:
        points = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ValueError(f"--curve {text!r}: write game counts separated by commas") from None
    if not points or any(p < 1 for p in points):
        raise ValueError(f"--curve {text!r}: write positive game counts separated by commas")
    return points


def fmt(v: float | None) -> str:
    return "–" if v is None else f"{v:.1f}"


def print_results(results: list[LoadResult], console: Console) -> None:
    from rich.table import Table

    r0 = results[0]
    table = Table(
        title=f"loadtest: {r0.players} players per game ({r0.humans} humans), "
        f"think {r0.think_ms:g} ms",
        caption="p50…max: ms from a human's move sent to the resulting frame at each human "
        f"client of the game; mv/s: moves per second; err: errors; MiB: the server's peak "
        f"memory (RSS); CPU/mv: the server's CPU ms per human move over the window; "
        f"server: {r0.url}",
    )
    for col in (
        "games", "clients", "s", "moves", "mv/s", "p50", "p90", "p99", "max", "err", "MiB",
        "CPU/mv",
    ):  # fmt: skip
        table.add_column(col, justify="right")
    for r in results:
        table.add_row(
            str(r.games),
            str(r.clients),
            f"{r.duration_s:.1f}",
            str(r.moves),
            f"{r.moves_per_sec:.1f}",
            fmt(r.p50_ms),
            fmt(r.p90_ms),
            fmt(r.p99_ms),
            fmt(r.max_ms),
            f"[red]{r.errors}[/red]" if r.errors else "0",
            fmt(r.server_rss_mb),
            "–" if r.server_cpu_ms_per_move is None else f"{r.server_cpu_ms_per_move:.2f}",
        )
    console.print(table)
    for r in results:
        if r.bot_games:
            console.print(
                f"{r.games} games: human moves in the {r.games - r.bot_games} games with "
                f"light bots p50 {fmt(r.plain_p50_ms)} ms, p99 {fmt(r.plain_p99_ms)} ms; in "
                f"the {r.bot_games} games with {r.search_bot} bots p50 "
                f"{fmt(r.bot_games_p50_ms)} ms, p99 {fmt(r.bot_games_p99_ms)} ms "
                f"({r.bot_games_samples} samples, {r.bot_games_moves} moves)"
            )
    for r in results:
        for s in r.error_samples:
            console.print(f"[red]error[/red] ({r.games} games): {s}")


def run_loadtest(cfg: LoadConfig, curve: list[int] | None, plot: str | None, as_json: bool) -> int:
    from dataclasses import replace

    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from ..loadtest import plot_curve, run_load

    err = Console(stderr=True)
    points = curve or [cfg.games]
    results: list[LoadResult] = []
    for games in points:
        c = replace(cfg, games=games)
        bar = Progress(
            TextColumn(f"{games} games"),
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.completed:.0f} human moves"),
            TimeElapsedColumn(),
            console=err,
            transient=True,
            disable=as_json,
        )
        with bar:
            task = bar.add_task("setting up", total=c.moves or None)

            def moved(bar: Progress = bar, task: TaskID = task) -> None:
                bar.advance(task)

            def ready(bar: Progress = bar, task: TaskID = task) -> None:
                bar.update(task, description="playing")

            try:
                results.append(run_load(c, on_move=moved, on_ready=ready))
            except ValueError as e:
                typer.echo(f"error: {e}", err=True)
                return EXIT_USAGE
            except RuntimeError as e:
                typer.echo(f"error: {e}", err=True)
                return 1
            except KeyboardInterrupt:
                typer.echo("interrupted", err=True)
                return 130
    if plot is not None:
        try:
            plot_curve(results, plot)
        except (RuntimeError, OSError) as e:
            typer.echo(f"error: cannot draw the plot: {e}", err=True)
            return 1
    if as_json:
        out = results[0].to_json() if len(results) == 1 else {
            "curve": [r.to_json() for r in results]
        }  # fmt: skip
        typer.echo(json.dumps(out))
    else:
        print_results(results, Console())
        if plot is not None:
            Console().print(f"plot written to {plot}")
    return 1 if any(r.errors for r in results) else 0


def register(app: typer.Typer) -> None:
    @app.command("loadtest")
    def loadtest_cmd(
        games: Annotated[
            int, typer.Option("--games", "-n", help="Games live at once.", min=1)
        ] = 10,
        game: Annotated[
            str,
            typer.Option("--game", "-g", help="The game to play (one the server hosts)."),
        ] = DEFAULT_GAME,
        players: Annotated[
            int, typer.Option("--players", "-p", help="Seats per game (as the game allows).", min=1)
        ] = 3,
        humans: Annotated[
            int,
            typer.Option(
                "--humans", help="Simulated humans per game (the other seats are bots).", min=1
            ),
        ] = 2,
        duration: Annotated[
            float,
            typer.Option("--duration", "-d", help="Seconds to measure once the games are set up."),
        ] = 20.0,
        moves: Annotated[
            int | None,
            typer.Option("--moves", help="Stop after this many human moves instead.", min=1),
        ] = None,
        think_ms: Annotated[
            float,
            typer.Option(
                "--think-ms", help="Mean think time of a human, ms (uniform 0.5x to 1.5x).", min=0
            ),
        ] = 1000.0,
        bot: Annotated[
            str, typer.Option("--bot", help="The bots' level (one of the game's bots).")
        ] = "random",
        bot_delay: Annotated[
            float,
            typer.Option("--bot-delay", help="The started server's --bot-delay, seconds.", min=0),
        ] = 0.2,
        bot_games: Annotated[
            int,
            typer.Option(
                "--bot-games",
                help="Of the games, so many have --search-bot bots (thinking while people "
                "play); their humans' latency is reported apart.",
                min=0,
            ),
        ] = 0,
        search_bot: Annotated[
            str,
            typer.Option("--search-bot", help="The bots of the --bot-games games."),
        ] = "ismcts:0.5s",
        bot_workers: Annotated[
            int | None,
            typer.Option(
                "--bot-workers",
                help="The started server's --bot-workers (processes in which bots think).",
                min=0,
            ),
        ] = None,
        url: Annotated[
            str | None,
            typer.Option("--url", help="Test a running server (http://host:port) instead."),
        ] = None,
        seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the humans' choices.")] = 0,
        curve: Annotated[
            str | None,
            typer.Option("--curve", help="Run once per game count, e.g. 10,50,100,200."),
        ] = None,
        plot: Annotated[
            str | None,
            typer.Option("--plot", help="Draw p50/p99 against games into this PNG (matplotlib)."),
        ] = None,
        as_json: Annotated[
            bool, typer.Option("--json", help="Print the results as one JSON object.")
        ] = False,
    ) -> None:
        """Play many live games against the web table and measure it.

        Starts a `civcards serve` on a free loopback port over a temporary
        SQLite file (or tests --url), creates the games through the HTTP API and
        plays them with simulated humans (WebSocket + POST, like the browser)
        and bots. Reports moves/s, the move→broadcast latency (p50, p99),
        errors and the server's memory. Exit status 1 if there was any error.
        """
        try:
            from ..loadtest import LoadConfig
        except ImportError as e:
            typer.echo(
                f"error: the load test needs the 'web' extra (pip install 'civcards[web]'): {e}",
                err=True,
            )
            raise typer.Exit(EXIT_USAGE) from None
        try:
            points = parse_curve(curve) if curve is not None else None
            cfg = LoadConfig(
                game=game,
                bot=bot,
                games=games,
                players=players,
                humans=humans,
                duration=duration,
                moves=moves,
                think_ms=think_ms,
                url=url,
                seed=seed,
                bot_delay=bot_delay,
                bot_games=bot_games,
                search_bot=search_bot,
                bot_workers=bot_workers,
            )
            cfg.check()
        except ValueError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(EXIT_USAGE) from None
        if plot is not None and points is None:
            points = [games]
        if url is not None and not url.startswith(("http://", "https://")):
            typer.echo(f"error: --url {url!r} must start with http:// or https://", err=True)
            raise typer.Exit(EXIT_USAGE)
        raise typer.Exit(run_loadtest(cfg, points, plot, as_json))
