"""``civcards simulate``: bot-against-bot games, with a summary of who won."""

from __future__ import annotations

import json
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..game_api import Game
from .games import (
    DraftOpt,
    GameOpt,
    GamesOpt,
    JobsOpt,
    NoProgressOpt,
    PlayersOpt,
    SetupOpt,
    parse_options,
    resolve_game,
)

if TYPE_CHECKING:
    from rich.console import Console

    from ..sim.simulate import GameResult, Summary

# the simulation, its rows and Rich are imported when the command runs (civcards --help
# and the other commands do without them)

EXIT_USAGE = 2


def default_bots(game: Game, players: int) -> tuple[str, ...]:
    """No ``--bots``: the game's own first bot (CIV's greedy) at seat 0, random elsewhere."""
    own = sorted(getattr(game, "bots", dict)())
    first = own[0] if own else "random"
    return (first,) + ("random",) * (players - 1)


def parse_bots(text: str | None, players: int, game: Game | None = None) -> tuple[str, ...]:
    """The bot of each seat from ``--bots`` (one name for every seat, or one per seat)."""
    if text is None:
        return default_bots(game or resolve_game(None), players)
    names = [t.strip().lower() for t in text.split(",")]
    if any(not t for t in names):
        raise ValueError(f"--bots {text!r} has an empty name; write names separated by commas")
    if len(names) == 1:
        return tuple(names * players)
    return tuple(names)


def cli_options(
    game: Game, option: list[str] | None, draft: bool = False, teams: bool = False
) -> dict[str, Any]:
    """The set-up options of ``--option NAME=VALUE``, with the shortcuts ``--draft``
    (``deal=draft``) and ``--teams`` (``teams=true``) of the games that have them."""
    options = parse_options(game, option)
    if draft:
        options["deal"] = "draft"
    if teams:
        options["teams"] = True
    return options


def check_ray(ray: str | None) -> None:
    """ValueError with a sentence when ``--ray`` is given and Ray is not installed."""
    if ray is None:
        return
    from ..sim.distributed import ray_available

    if not ray_available():
        raise ValueError(
            "--ray needs Ray: pip install 'civcards[ray]' "
            "(or make install EXTRAS=dev,web,research,sim,ray)"
        )


def print_summary(s: Summary, console: Console) -> None:
    from rich.table import Table

    g = s.games
    seats = Table(title=f"{g} games, {s.players} players")
    seats.add_column("seat")
    seats.add_column("bot")
    seats.add_column("wins", justify="right")
    seats.add_column("share", justify="right")
    for seat, w in enumerate(s.wins_by_seat):
        bot = s.bots[seat] if len(set(s.bots)) > 1 else s.bots[0]
        seats.add_row(str(seat), bot, str(w), f"{w / g:.1%}")
    console.print(seats)
    bots = Table(title="wins by bot")
    bots.add_column("bot")
    bots.add_column("seat-games", justify="right")
    bots.add_column("wins", justify="right")
    bots.add_column("win rate", justify="right")
    for name in sorted(s.seats_by_bot):
        bots.add_row(
            name,
            str(s.seats_by_bot[name]),
            str(s.wins_by_bot.get(name, 0)),
            f"{s.win_rate(name):.1%}",
        )
    console.print(bots)
    ends = ", ".join(f"{k} {v} ({v / g:.1%})" for k, v in sorted(s.victories.items()))
    console.print(f"victories: {ends or 'none'}, shared {s.shared}")
    console.print(
        f"length: {s.mean_turns:.1f} turns on average (min {s.min_turns}, max {s.max_turns}), "
        f"{s.mean_moves:.1f} moves"
    )
    console.print(f"speed: {s.games_per_sec:.1f} games/s ({s.seconds:.2f} s)")
    console.print("[dim]a shared victory counts a win for every winner[/dim]")


@contextmanager
def ctrl_c_held_back() -> Iterator[None]:
    """Hold a Ctrl-C back until the block is done, then raise it.

    A finished game is then saved whole (its record, its ``--out`` row and the
    count) or not at all. Only the main thread can change a signal handler;
    elsewhere the block runs as it is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        caught.append(signum)

    previous = signal.signal(signal.SIGINT, hold)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:  # now do what the Ctrl-C would have done
        if callable(previous):
            previous(caught[0], None)  # Python's own handler raises KeyboardInterrupt
        elif previous == signal.SIG_DFL:
            signal.raise_signal(signal.SIGINT)


def _write_out(out_path: Path, rows: list[dict[str, object]], game: Game) -> bool:
    """Write the rows (in game order) to ``--out``; False, with the message said, if it fails."""
    from ..sim.rows import write_rows

    rows.sort(key=lambda row: int(str(row["game"])))
    try:
        write_rows(out_path, rows, game)
    except OSError as e:
        typer.echo(f"error: cannot write {str(out_path)!r} ({e.strerror})", err=True)
        return False
    return True


def run_simulate(
    games: int,
    players: int,
    bots: str | None,
    seed: int,
    jobs: int,
    as_json: bool,
    records: str | None,
    draft: bool,
    teams: bool,
    rotate: bool,
    progress: bool = True,
    out: str | None = None,
    ray: str | None = None,
    game_name: str | None = None,
    option: list[str] | None = None,
) -> int:
    from ..sim.rows import check_out_path, game_row
    from ..sim.simulate import SimConfig, check_config, prepare_records, save_record, simulate
    from .progress import progress_bar

    try:
        game = resolve_game(game_name)
        options = cli_options(game, option, draft, teams)
        cfg = SimConfig(
            games=games,
            players=players,
            bots=parse_bots(bots, players, game),
            seed=seed,
            rotate=rotate,
            options=options,
            records=records is not None,
            rows=out is not None,
        )
        check_config(cfg, game, jobs=jobs)
        folder: Path | None = prepare_records(records) if records is not None else None
        out_path = check_out_path(out) if out is not None else None
        check_ray(ray)
    except ValueError as e:
        typer.echo(f"error: {e}", err=True)
        return EXIT_USAGE

    bar = progress_bar("simulating", progress)
    with bar:
        task = bar.add_task("games", total=games)
        rows: list[dict[str, object]] = []
        finished = [0]

        def on_result(r: GameResult) -> None:
            with ctrl_c_held_back():
                if folder is not None:
                    save_record(folder, r)
                if out_path is not None:
                    rows.append(game_row(r, game))
                finished[0] += 1
            bar.advance(task)

        try:
            summary = simulate(cfg, jobs=jobs, on_result=on_result, game=game, ray=ray)
        except KeyboardInterrupt:
            bar.stop()
            typer.echo(f"interrupted after {finished[0]} of {games} games", err=True)
            # the finished games are not lost: they are written as a normal --out file
            if out_path is not None and rows and _write_out(out_path, rows, game):
                typer.echo(f"wrote the {len(rows)} finished games to {out_path}", err=True)
            return 130
        except ValueError as e:  # Ray could not start or connect
            typer.echo(f"error: {e}", err=True)
            return EXIT_USAGE
        except OSError as e:
            typer.echo(f"error: cannot save a game record ({e})", err=True)
            return EXIT_USAGE
    if out_path is not None and not _write_out(out_path, rows, game):
        return EXIT_USAGE
    if as_json:
        typer.echo(json.dumps(summary.to_json()))
    else:
        from rich.console import Console

        print_summary(summary, Console())
    return 0


def register(app: typer.Typer) -> None:
    @app.command("simulate")
    def simulate_cmd(
        games: GamesOpt = 100,
        players: PlayersOpt = 2,
        bots: Annotated[
            str | None,
            typer.Option(
                "--bots",
                "-b",
                help="Bots by seat, comma-separated (greedy,random), or one name for every "
                "seat. Default: the game's own bot (CIV: greedy) at seat 0, random elsewhere.",
            ),
        ] = None,
        seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the run.")] = 0,
        jobs: JobsOpt = 1,
        as_json: Annotated[
            bool, typer.Option("--json", help="Print the summary as one JSON object.")
        ] = False,
        records: Annotated[
            str | None,
            typer.Option("--records", help="Save every game's record in this folder."),
        ] = None,
        draft: DraftOpt = False,
        teams: Annotated[
            bool,
            typer.Option(
                "--teams", help="The team game (CIV, R24, 4 players): --option teams=true."
            ),
        ] = False,
        game_name: GameOpt = None,
        option: SetupOpt = None,
        rotate: Annotated[
            bool,
            typer.Option(
                "--rotate", help="Rotate the seating each game (the list gives game 1's)."
            ),
        ] = False,
        no_progress: NoProgressOpt = False,
        out: Annotated[
            str | None,
            typer.Option(
                "--out",
                "-o",
                help="Write one row per game to this file: .parquet (pyarrow) or .csv / .csv.gz.",
            ),
        ] = None,
        ray: Annotated[
            str | None,
            typer.Option(
                "--ray",
                metavar="ADDRESS",
                help="Spread the games over a Ray cluster: 'local' starts one here, else the "
                "cluster's address (auto, ray://host:10001). Needs the extra 'ray'.",
            ),
        ] = None,
    ) -> None:
        """Play bot games and count the wins by seat and by bot.

        Game i uses a seed derived from --seed and i, so the results are the
        same for any --jobs. A shared victory counts a win for every winner
        (and a team victory one for each member), so the wins can add up to
        more than the games.
        """
        raise typer.Exit(
            run_simulate(
                games,
                players,
                bots,
                seed,
                jobs,
                as_json,
                records,
                draft,
                teams,
                rotate,
                progress=not no_progress,
                out=out,
                ray=ray,
                game_name=game_name,
                option=option,
            )
        )
