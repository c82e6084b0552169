"""``civcards train-value``: play greedy games and fit the search bot's value network
(for a game whose search kit has one: CIV's, :mod:`civcards.games.carta.value_fit`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from .games import JobsOpt, NoProgressOpt
from .progress import progress_bar

EXIT_USAGE = 2


def run_train(
    players: int,
    games: int,
    seed: int,
    jobs: int,
    hidden: int,
    epochs: int,
    out: str | None,
    as_json: bool,
    show_progress: bool,
    features: str = "v1",
    game_name: str | None = None,
) -> int:
    from ..bots.search import search_kit
    from .games import resolve_game

    try:
        game = resolve_game(game_name)
    except ValueError as e:
        typer.echo(f"error: {e}", err=True)
        return EXIT_USAGE
    kit = search_kit(game)
    hook = getattr(kit, "value_trainer", None)
    if hook is None:
        typer.echo(f"error: {game.title} has no value network to train", err=True)
        return EXIT_USAGE
    trainer = hook()
    problems = []
    if features not in trainer.FEATURE_SETS:
        problems.append(f"--features must be one of: {', '.join(trainer.FEATURE_SETS)}")
    if not game.min_players <= players <= game.max_players:
        problems.append(f"--players must be from {game.min_players} to {game.max_players}")
    if games < 10:
        problems.append("--games must be at least 10")
    if jobs < 1:
        problems.append("--jobs must be at least 1")
    if not 1 <= hidden <= 512:
        problems.append("--hidden must be between 1 and 512")
    if not 1 <= epochs <= 1000:
        problems.append("--epochs must be between 1 and 1000")
    path = Path(out) if out else Path(f"value-{players}p.json")
    if path.is_dir():
        problems.append(f"--out {str(path)!r} is a folder: name a .json file")
    elif not path.parent.exists():
        problems.append(f"--out {str(path)!r}: the folder {str(path.parent)!r} does not exist")
    if problems:
        for p in problems:
            typer.echo(f"error: {p}", err=True)
        return EXIT_USAGE
    try:
        import numpy  # noqa: F401
    except ImportError:
        typer.echo("error: training needs NumPy: pip install 'civcards[sim]'", err=True)
        return EXIT_USAGE
    fit, generate, write_weights = trainer.fit, trainer.generate, trainer.write_weights

    bar = progress_bar(None, show_progress, transient=False)
    with bar:
        t1 = bar.add_task("playing games", total=games)
        samples = generate(
            players,
            games,
            seed=seed,
            jobs=jobs,
            progress=lambda k: bar.advance(t1, k),
            features=features,
        )
        t2 = bar.add_task("fitting", total=epochs)
        weights, metrics = fit(
            samples, hidden=hidden, epochs=epochs, seed=seed, progress=lambda k: bar.advance(t2, k)
        )
    meta: dict[str, Any] = {
        "command": (
            f"civcards train-value --players {players} --games {games} --seed {seed} "
            f"--hidden {hidden} --epochs {epochs}"
            + (f" --features {features}" if features != "v1" else "")
        ),
        **{k: round(v, 4) for k, v in metrics.items()},
    }
    try:
        write_weights(path, players, weights, meta, features)
    except OSError as e:
        typer.echo(f"error: cannot write {str(path)!r} ({e.strerror})", err=True)
        return EXIT_USAGE
    if as_json:
        typer.echo(json.dumps({"players": players, "games": games, "out": str(path), **metrics}))
    else:
        typer.echo(
            f"{int(metrics['positions']):,} positions from {games:,} games; validation "
            f"log-loss {metrics['val_log_loss']:.4f} (greedy evaluation "
            f"{metrics['greedy_log_loss']:.4f}), accuracy {metrics['val_accuracy']:.1%} "
            f"(greedy {metrics['greedy_accuracy']:.1%}); written to {path}"
        )
    return 0


def register(app: typer.Typer) -> None:
    @app.command("train-value")
    def train_value_cmd(
        players: Annotated[int, typer.Option("--players", "-p", help="Players (2-4).")] = 2,
        games: Annotated[int, typer.Option("--games", "-n", help="Greedy games to learn from.")] = (
            16000
        ),
        seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the run.")] = 0,
        jobs: JobsOpt = 1,
        hidden: Annotated[int, typer.Option("--hidden", help="Hidden units.")] = 32,
        epochs: Annotated[int, typer.Option("--epochs", help="Passes over the data.")] = 30,
        features: Annotated[
            str,
            typer.Option(
                "--features",
                help="The feature set: v1 (the position against the strongest opponent) or "
                "v2 (v1, then every other seat in turn order).",
            ),
        ] = "v1",
        out: Annotated[
            str | None,
            typer.Option(
                "--out",
                "-o",
                help="The JSON file to write (default value-<P>p.json here; CIV's search reads "
                "civcards/games/carta/weights/value-<P>p.json).",
            ),
        ] = None,
        game_name: Annotated[
            str | None, typer.Option("--game", "-g", help="The game (see `civcards games`).")
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
        no_progress: NoProgressOpt = False,
    ) -> None:
        """Train the value network of the `ismcts` bot from greedy games (needs NumPy)."""
        raise typer.Exit(
            run_train(
                players,
                games,
                seed,
                jobs,
                hidden,
                epochs,
                out,
                as_json,
                not no_progress,
                features,
                game_name,
            )
        )
