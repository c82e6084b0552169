"""``civcards bench``: random-playout throughput of a game's engine on one core, or a bot's
time a move."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from ..game_api import Game
from ..sim.bench import OPENSPIEL_GAME, bench_bot, markdown, run_bench, write_section
from .games import GameOpt, resolve_game

EXIT_USAGE = 2


def parse_players(text: str, game: Game | None = None) -> list[int]:
    game = game or resolve_game(None)
    try:
        out = [int(t) for t in text.split(",") if t.strip()]
    except ValueError:
        raise ValueError(f"--players {text!r} must list player counts, such as 2,3,4") from None
    lo, hi = game.min_players, game.max_players
    if not out or any(not lo <= p <= hi for p in out):
        raise ValueError(f"--players {text!r}: {game.title} is played by {lo} to {hi} players")
    return out


def default_players(game: Game) -> str:
    return ",".join(str(p) for p in range(game.min_players, game.max_players + 1))


def print_result(result: dict[str, Any], console: Console) -> None:
    m = result["machine"]
    table = Table(title=f"random playouts, one core, {result['seconds_per_run']} s each")
    table.add_column("game", no_wrap=True)
    table.add_column("games", justify="right")
    table.add_column("games/s", justify="right")
    table.add_column("moves/s", justify="right")
    table.add_column("moves/game", justify="right")
    table.add_column("games/s (playout only)", justify="right")
    for r in result["civ"]:
        table.add_row(
            f"{result.get('game', r['game'])} {r['players']}p",
            f"{r['games']:,}",
            f"{r['games_per_sec']:,.0f}",
            f"{r['moves_per_sec']:,.0f}",
            f"{r['mean_moves']:.1f}",
            f"{r['playout_games_per_sec']:,.0f}",
        )
    os_r = result["openspiel"]
    if os_r is not None:
        table.add_row(
            f"OpenSpiel {os_r['game']}",
            f"{os_r['games']:,}",
            f"{os_r['games_per_sec']:,.0f}",
            f"{os_r['moves_per_sec']:,.0f}",
            f"{os_r['mean_moves']:.1f}",
            "–",
        )
    console.print(table)
    if os_r is None:
        console.print(f"OpenSpiel ({OPENSPIEL_GAME}): {result['openspiel_note']}")
    console.print(f"{m['platform']}, {m['cpu']}, {m['python']}")


def register(app: typer.Typer) -> None:
    @app.command("bench")
    def bench_cmd(
        seconds: Annotated[
            float, typer.Option("--seconds", help="Seconds of playouts per measurement.")
        ] = 5.0,
        players: Annotated[
            str | None,
            typer.Option(
                "--players", "-p", help="Player counts to measure, e.g. 2,3,4 (default: all)."
            ),
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
        out: Annotated[
            str | None,
            typer.Option(
                "--out",
                help="Also write the figures into the marked section of this Markdown file "
                "(e.g. BENCHMARKS.md).",
            ),
        ] = None,
        openspiel: Annotated[
            bool,
            typer.Option(
                "--openspiel/--no-openspiel",
                help=f"Also measure OpenSpiel's {OPENSPIEL_GAME} when pyspiel is installed.",
            ),
        ] = True,
        bot: Annotated[
            str | None,
            typer.Option(
                "--bot",
                help="Instead of playouts, time this bot's moves (e.g. ismcts:1000it) "
                "in --games games against --opponent, with the first of --players.",
            ),
        ] = None,
        games: Annotated[int, typer.Option("--games", "-n", help="Games for --bot.")] = 4,
        opponent: Annotated[
            str | None,
            typer.Option(
                "--opponent",
                help="The other seats' bot for --bot (default: the game's own, CIV's greedy).",
            ),
        ] = None,
        game_name: GameOpt = None,
    ) -> None:
        """Measure full random games per second (set-up included) on one core.

        Each game is a fresh state (seed i) played to its end with every move
        uniform over the legal moves, by the game's own playout (CIV's engine:
        civcards.carta.game.random_playout).
        """
        err = Console(stderr=True)
        try:
            game = resolve_game(game_name)
        except ValueError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(EXIT_USAGE) from None
        if players is None:
            players = default_players(game)
        if bot is not None:
            from .simulate import default_bots

            if opponent is None:
                opponent = default_bots(game, 1)[0]
            try:
                count = parse_players(players, game)[0]
                if games < 1:
                    raise ValueError(f"--games must be at least 1, not {games}")
                with err.status(f"timing {bot}…"):
                    res = bench_bot(bot, games=games, players=count, opponent=opponent, game=game)
            except ValueError as e:
                typer.echo(f"error: {e}", err=True)
                raise typer.Exit(EXIT_USAGE) from None
            if as_json:
                typer.echo(json.dumps(res))
            else:
                t = Table(
                    title=f"{bot} against {opponent}, {count} players, {games} games, one core"
                )
                for col in ("moves", "s/move", "choices", "s/choice", "p50", "p95", "max"):
                    t.add_column(col, justify="right")
                t.add_row(
                    str(res["moves"]),
                    f"{res['seconds_per_move']:.3f}",
                    str(res["choices"]),
                    f"{res['seconds_per_choice']:.3f}",
                    f"{res['choice_p50']:.3f}",
                    f"{res['choice_p95']:.3f}",
                    f"{res['choice_max']:.3f}",
                )
                Console().print(t)
            return
        try:
            counts = parse_players(players, game)
            if not seconds > 0:
                raise ValueError(f"--seconds must be positive, not {seconds}")
        except ValueError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(EXIT_USAGE) from None
        if out is not None and Path(out).is_dir():
            typer.echo(f"error: {out!r} is a folder, not a Markdown file", err=True)
            raise typer.Exit(EXIT_USAGE)
        with err.status("benchmarking…"):
            result = run_bench(counts, seconds, openspiel, game)
        if out is not None:
            args = ["--seconds", f"{seconds:g}", "--players", players, "--out", out]
            if game_name is not None:
                args += ["--game", game.name]
            if not openspiel:
                args.append("--no-openspiel")
            command = "civcards bench " + shlex.join(args)
            try:
                write_section(out, markdown(result, command))
            except OSError as e:
                typer.echo(f"error: cannot write {out!r} ({e.strerror})", err=True)
                raise typer.Exit(EXIT_USAGE) from None
        if as_json:
            typer.echo(json.dumps(result))
        else:
            print_result(result, Console())
