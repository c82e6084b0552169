"""``civcards arena``: a tournament among bots, every seating rotated, with ratings."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer

from ..game_api import GameError
from .games import (
    DraftOpt,
    GameOpt,
    GamesOpt,
    JobsOpt,
    NoProgressOpt,
    PlayersOpt,
    SetupOpt,
    resolve_game,
)
from .simulate import check_ray, cli_options

if TYPE_CHECKING:
    from rich.console import Console

    from ..sim.arena import ArenaSummary
    from ..sim.simulate import GameResult

# the arena and Rich are imported when the command runs (civcards --help and the other
# commands do without them)

EXIT_USAGE = 2


def _secs(x: float) -> str:
    return f"{x * 1000:.2f} ms" if x < 1 else f"{x:.2f} s"


def print_arena(s: ArenaSummary, console: Console) -> None:
    from rich.table import Table

    cfg = s.cfg
    kind = f"{cfg.players} players" + (", one bot per team" if cfg.teams else "")
    opts = ", ".join(f"{k} {v}" for k, v in cfg.options.items())
    table = Table(
        title=f"arena: {s.total_games} games, {kind}"
        + (f", {opts}" if opts else "")
        + f", {s.seatings} seatings"
    )
    table.add_column("bot", no_wrap=True)
    table.add_column("games", justify="right")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right", no_wrap=True)
    table.add_column("95 % CI", justify="right", no_wrap=True)
    table.add_column("μ ± 2σ", justify="right", no_wrap=True)
    table.add_column("time/move", justify="right", no_wrap=True)
    for b in s.ordered():
        lo, hi = s.win_rate_interval(b)
        mu, sigma = s.ratings[b]
        table.add_row(
            b,
            str(s.games.get(b, 0)),
            f"{s.wins.get(b, 0.0):g}",
            f"{s.win_rate(b):.1%}",
            f"{lo:.0%}–{hi:.0%}",
            f"{mu:.2f} ± {2 * sigma:.2f}",
            _secs(s.seconds_per_move(b)),
        )
    console.print(table)
    order = s.ordered()
    h2h = Table(title="head to head: row's score against column (win 1, tie ½)")
    h2h.add_column("", no_wrap=True)
    for b in order:
        h2h.add_column(b, justify="right")
    for a in order:
        cells = []
        for b in order:
            if a == b:
                cells.append("–")
            else:
                p = s.pairs[a][b]
                cells.append(f"{p.score:.1%} ({p.games})")
        h2h.add_row(a, *cells)
    console.print(h2h)
    g = s.total_games
    ends = ", ".join(f"{k} {v} ({v / g:.1%})" for k, v in sorted(s.victories.items()))
    console.print(
        f"victories: {ends or 'none'}, shared {s.shared}; {s.total_turns / g:.1f} turns on average"
    )
    console.print(f"speed: {g / s.seconds if s.seconds else 0:.1f} games/s ({s.seconds:.2f} s)")
    if not s.balanced:
        console.print(
            f"[yellow]note: {g} games is not a multiple of the {s.seatings} seatings, "
            "so the seats are not exactly balanced[/yellow]"
        )


def run_arena_cmd(
    bots: str,
    games: int,
    players: int,
    seed: int,
    jobs: int,
    as_json: bool,
    draft: bool,
    teams: bool,
    progress: bool = True,
    ray: str | None = None,
    game_name: str | None = None,
    option: list[str] | None = None,
) -> int:
    from ..sim.arena import ArenaConfig, check_arena, parse_bot_list, run_arena
    from .progress import progress_bar

    try:
        game = resolve_game(game_name)
        try:
            options = game.check_options(players, cli_options(game, option, draft, teams))
        except GameError as e:
            raise ValueError(str(e)) from None
        cfg = ArenaConfig(
            bots=parse_bot_list(bots),
            games=games,
            players=players,
            seed=seed,
            options=options,
            teams=teams,
        )
        check_arena(cfg, game, jobs=jobs)
        check_ray(ray)
        import openskill  # noqa: F401
    except ImportError:
        typer.echo(
            "error: the arena's ratings need openskill: pip install 'civcards[sim]'", err=True
        )
        return EXIT_USAGE
    except ValueError as e:
        typer.echo(f"error: {e}", err=True)
        return EXIT_USAGE
    bar = progress_bar("arena", progress)
    with bar:
        task = bar.add_task("games", total=games)

        def on_result(_r: GameResult) -> None:
            bar.advance(task)

        try:
            summary = run_arena(cfg, jobs=jobs, on_result=on_result, game=game, ray=ray)
        except KeyboardInterrupt:
            typer.echo("interrupted", err=True)
            return 130
        except ValueError as e:  # Ray could not start or connect
            typer.echo(f"error: {e}", err=True)
            return EXIT_USAGE
    if as_json:
        typer.echo(json.dumps(summary.to_json(), ensure_ascii=False))
    else:
        from rich.console import Console

        print_arena(summary, Console())
    return 0


def register(app: typer.Typer) -> None:
    @app.command("arena")
    def arena_cmd(
        bots: Annotated[
            str,
            typer.Option(
                "--bots",
                "-b",
                help="The bots, comma-separated, each once (greedy,random,ismcts:1000it).",
            ),
        ],
        games: GamesOpt = 100,
        players: PlayersOpt = 2,
        seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the arena.")] = 0,
        jobs: JobsOpt = 1,
        as_json: Annotated[
            bool, typer.Option("--json", help="Print the results as one JSON object.")
        ] = False,
        draft: DraftOpt = False,
        teams: Annotated[
            bool,
            typer.Option(
                "--teams",
                help="The team game (CIV, R24, 4 players: --option teams=true), one bot per team.",
            ),
        ] = False,
        game_name: GameOpt = None,
        option: SetupOpt = None,
        ray: Annotated[
            str | None,
            typer.Option(
                "--ray",
                metavar="ADDRESS",
                help="Spread the games over a Ray cluster ('local', or its address).",
            ),
        ] = None,
        no_progress: NoProgressOpt = False,
    ) -> None:
        """Play the bots against each other, every seating rotated, and rate them.

        The games cycle through every seating (each bot at each seat equally
        often; with fewer bots than players a bot takes several seats), each
        deal is played once under every seating, and the bots are rated with
        openskill (Plackett-Luce). A shared victory is split among its winners.
        """
        raise typer.Exit(
            run_arena_cmd(
                bots,
                games,
                players,
                seed,
                jobs,
                as_json,
                draft,
                teams,
                progress=not no_progress,
                ray=ray,
                game_name=game_name,
                option=option,
            )
        )
