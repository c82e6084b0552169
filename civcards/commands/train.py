"""``civcards train --game NAME``: expert iteration for the ``net`` and ``ismcts+net`` bots
(:mod:`civcards.learn.loop`), or with ``--method pg`` policy-gradient fine-tuning of a
network (:mod:`civcards.learn.pg`, :mod:`civcards.commands.train_pg`); needs PyTorch,
the ``train`` extra."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from .games import JobsOpt, NoProgressOpt
from .progress import progress_bar, stage_callbacks
from .train_pg import (
    PG_DEFAULTS,
    PG_ONLY,
    count_problems,
    folder_and_torch_problems,
    run_pg_command,
)

EXIT_USAGE = 2

#: the options only the expert method reads (refused with ``--method pg``) and their
#: defaults
EXPERT_ONLY_DEFAULTS: dict[str, Any] = {
    "warm_games": 400,
    "warm_epochs": 6,
    "buffer": 200_000,
    "hidden": 256,
    "trunk": 128,
    "gauntlet": 20,
    "expert": "ismcts:1000it",
    "expert_target": "move",
    "warm_mix": 1.0,
    "init_epochs": 0,
    "spell": "",
    "validation": 0.1,
}
#: the options only the expert method reads
EXPERT_ONLY = tuple(EXPERT_ONLY_DEFAULTS)
#: the expert method's defaults: its own options' and those shared with ``--method pg``
EXPERT_DEFAULTS: dict[str, Any] = {
    "generations": 10,
    "games": 40,
    "iterations": 100,
    "epochs": 3,
    "lr": 1e-3,
    "value_weight": 1.0,
    "gauntlet_search": 2,
    **EXPERT_ONLY_DEFAULTS,
}
METHODS = ("expert", "pg")


def run_train(
    game_name: str | None,
    out: str | None,
    generations: int | None,
    settings: dict[str, Any],
    jobs: int,
    ray: str | None,
    as_json: bool,
    show_progress: bool,
    method: str = "expert",
    pg: dict[str, Any] | None = None,
) -> int:
    """Check the options and run ``method``; the exit status. ``settings`` holds the
    expert method's options (None: the method's default), ``pg`` the pg method's own."""
    from .games import resolve_game

    if method not in METHODS:
        typer.echo(f"error: --method must be one of {', '.join(METHODS)}", err=True)
        return EXIT_USAGE
    try:
        game = resolve_game(game_name)
    except ValueError as e:
        typer.echo(f"error: {e}", err=True)
        return EXIT_USAGE
    pg = pg or {}
    problems = []
    if game.encoding() is None:
        problems.append(f"{game.title} has no action encoding, so no network can learn it")
    if ray is not None:
        from ..sim.distributed import ray_available

        if not ray_available():
            problems.append(
                "--ray needs Ray: pip install 'civcards[ray]' "
                "(or make install EXTRAS=dev,web,research,sim,ray,train)"
            )
    if method == "pg":
        if generations is not None:
            problems.append("--method pg counts --iterations, not --generations")
        given = [k for k in EXPERT_ONLY if settings.get(k) is not None]
        if given:
            flag = given[0].replace("_", "-")
            problems.append(f"--{flag} is an option of --method expert only")
        values = {k: v for k, v in settings.items() if k not in EXPERT_ONLY} | pg
        values = {k: (PG_DEFAULTS.get(k) if v is None else v) for k, v in values.items()}
        return run_pg_command(game, out, values, jobs, ray, as_json, show_progress, problems)
    given = [k for k in PG_ONLY if pg.get(k) is not None]
    if given:
        problems.append(f"--{given[0].replace('_', '-')} is an option of --method pg only")
    settings = {k: (EXPERT_DEFAULTS.get(k) if v is None else v) for k, v in settings.items()}
    generations = int(EXPERT_DEFAULTS["generations"]) if generations is None else generations
    from ..bots.search import searchable

    if not searchable(game):
        problems.append(f"{game.title} cannot be searched, so it has no expert to learn from")
    problems += count_problems(
        game,
        settings,
        (
            ("games", 1),
            ("warm_games", 1),
            ("iterations", 1),
            ("epochs", 1),
            ("warm_epochs", 1),
            ("buffer", 1000),
            ("gauntlet", 0),
            ("gauntlet_search", 0),
        ),
    )
    if settings["spell"] not in ("", "all", "rest"):
        problems.append("--spell must be all or rest (or '' for the first action of each move)")
    elif settings["spell"] and not getattr(game.encoding(), "spells_moves", False):
        problems.append(f"--spell: {game.title}'s moves are not spelled in tokens (civ4's are)")
    if int(settings["init_epochs"]) < 0:
        problems.append("--init-epochs must be 0 or more")
    elif int(settings["init_epochs"]) and not settings["init"]:
        problems.append("--init-epochs trains an --init network: name one with --init")
    if settings["expert_target"] not in ("move", "visits"):
        problems.append("--expert-target must be move or visits")
    if float(settings["warm_mix"]) < 0:
        problems.append("--warm-mix must be 0 or more")
    if not float(settings["value_weight"]) > 0:
        problems.append("--value-weight must be more than 0")
    if not 0 <= float(settings["validation"]) < 1:
        problems.append("--validation must be from 0 to less than 1")
    if not float(settings["lr"]) > 0:
        problems.append("--lr must be more than 0")
    if settings["expert"]:
        from ..bots import make_bot

        try:
            make_bot(game, str(settings["expert"]), seed=0)
        except ValueError as e:
            problems.append(f"--expert: {e}")
    if settings["init"]:
        from ..bots.netsearch import load_network

        try:
            load_network(game, str(settings["init"]))
        except ValueError as e:
            problems.append(f"--init: {e}")
    if generations < 1:
        problems.append("--generations must be at least 1")
    if jobs < 1:
        problems.append("--jobs must be at least 1")
    path = Path(out) if out else Path("studies") / "learning" / game.name
    problems += folder_and_torch_problems(path)
    if problems:
        for p in problems:
            typer.echo(f"error: {p}", err=True)
        return EXIT_USAGE
    from ..learn.loop import TrainConfig, run_training

    cfg = TrainConfig(game=game.name, **settings)
    bar = progress_bar(None, show_progress, transient=True)
    progress, log = stage_callbacks(bar, as_json)

    try:
        with bar:
            state = run_training(
                game, cfg, path, generations, jobs=jobs, ray=ray, progress=progress, log=log
            )
    except ValueError as e:
        typer.echo(f"error: {e}", err=True)
        return EXIT_USAGE
    except KeyboardInterrupt:
        typer.echo(
            f"stopped: the run in {path} resumes from its last finished generation "
            "with the same command",
            err=True,
        )
        return 130
    if as_json:
        typer.echo(
            json.dumps(
                {"out": str(path), "generation": state["generation"], "curve": state["curve"]}
            )
        )
    else:
        typer.echo(
            f"{state['generation'] + 1} generations in {path}; the latest network is "
            f"{path / state['latest']} (copy it to the game's weights/policy.npz to ship it)"
        )
    return 0


def register(app: typer.Typer) -> None:
    @app.command("train")
    def train_cmd(
        game_name: Annotated[
            str | None, typer.Option("--game", "-g", help="The game (see `civcards games`).")
        ] = None,
        out: Annotated[
            str | None,
            typer.Option(
                "--out",
                "-o",
                help="The run's folder (default studies/learning/<game>, with pg <game>-pg); "
                "an existing run there is resumed.",
            ),
        ] = None,
        method: Annotated[
            str,
            typer.Option(
                "--method",
                help="'expert': expert iteration (imitation of greedy, then of a search); "
                "'pg': policy-gradient (PPO) fine-tuning of a network in games against "
                "--opponent.",
            ),
        ] = "expert",
        generations: Annotated[
            int | None,
            typer.Option(
                "--generations", help="Train until this many generations are done (default 10)."
            ),
        ] = None,
        seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the run.")] = 0,
        players: Annotated[int, typer.Option("--players", "-p", help="Players.")] = 2,
        warm_games: Annotated[
            int | None,
            typer.Option("--warm-games", help="Greedy games imitated in generation 0 (400)."),
        ] = None,
        games: Annotated[
            int | None,
            typer.Option(
                "--games",
                "-n",
                help="Games a generation (default 40), with pg an iteration (default 1000).",
            ),
        ] = None,
        iterations: Annotated[
            int | None,
            typer.Option(
                "--iterations",
                help="Search iterations a self-play decision (default 100); with pg, train "
                "until this many iterations are done (default 100).",
            ),
        ] = None,
        epochs: Annotated[
            int | None,
            typer.Option("--epochs", help="Passes over the buffer (with pg: the games) (3)."),
        ] = None,
        warm_epochs: Annotated[
            int | None,
            typer.Option("--warm-epochs", help="Passes over generation 0's examples (6)."),
        ] = None,
        buffer: Annotated[
            int | None,
            typer.Option("--buffer", help="Examples kept in the replay buffer (200,000)."),
        ] = None,
        hidden: Annotated[
            int | None, typer.Option("--hidden", help="First hidden layer's units (256).")
        ] = None,
        trunk: Annotated[
            int | None, typer.Option("--trunk", help="Second hidden layer's units (128).")
        ] = None,
        gauntlet: Annotated[
            int | None,
            typer.Option("--gauntlet", help="Games of net against greedy a generation (20)."),
        ] = None,
        gauntlet_search: Annotated[
            int | None,
            typer.Option(
                "--gauntlet-search",
                help="Games of ismcts+net against ismcts:1000it a generation (default 2), "
                "with pg an evaluation (default 0).",
            ),
        ] = None,
        eval_games: Annotated[
            int | None,
            typer.Option(
                "--eval", help="pg: games of net against greedy an evaluation (default 400)."
            ),
        ] = None,
        eval_every: Annotated[
            int | None,
            typer.Option("--eval-every", help="pg: evaluate every this many iterations (5)."),
        ] = None,
        opponent: Annotated[
            str | None,
            typer.Option("--opponent", help="pg: the bot the network plays against (greedy)."),
        ] = None,
        clip: Annotated[
            float | None, typer.Option("--clip", help="pg: PPO's clip of the ratio (0.2).")
        ] = None,
        entropy: Annotated[
            float | None, typer.Option("--entropy", help="pg: the entropy bonus (0.003).")
        ] = None,
        expert: Annotated[
            str | None,
            typer.Option(
                "--expert",
                help="The plain search whose games and root visits generations 1… learn "
                "from (expert iteration; default ismcts:1000it); '' for self-play of ismcts+net.",
            ),
        ] = None,
        expert_target: Annotated[
            str | None,
            typer.Option(
                "--expert-target",
                help="What the expert's examples teach: 'move' (its move) or 'visits' "
                "(the shares of its root visits); default move.",
            ),
        ] = None,
        warm_mix: Annotated[
            float | None,
            typer.Option(
                "--warm-mix",
                help="Warm-start (greedy) examples mixed into each later generation's "
                "training, per buffer example (0: only through the buffer; default 1).",
            ),
        ] = None,
        lr: Annotated[
            float | None,
            typer.Option("--lr", help="Adam's learning rate (1e-3; with pg 3e-5)."),
        ] = None,
        init: Annotated[
            str,
            typer.Option(
                "--init",
                help="A network file that generation 0 takes instead of training one "
                "(pg: the network to fine-tune, default the game's shipped one).",
            ),
        ] = "",
        init_epochs: Annotated[
            int | None,
            typer.Option(
                "--init-epochs",
                help="Passes over generation 0's examples that the --init network trains "
                "(0, the default: taken as it is).",
            ),
        ] = None,
        spell: Annotated[
            str | None,
            typer.Option(
                "--spell",
                help="Imitate whole moves, token by token, for a network that spells them "
                "(net chooses civ4's payments and card sets too): 'all' every token, "
                "'rest' every token after the first ('', the default: the first action only).",
            ),
        ] = None,
        validation: Annotated[
            float | None,
            typer.Option(
                "--validation",
                help="The share of generation 0's games held out: their loss after every "
                "epoch, and early stopping on it (0: none; default 0.1).",
            ),
        ] = None,
        value_weight: Annotated[
            float | None,
            typer.Option(
                "--value-weight",
                help="The value loss's weight beside the policy loss's (1; with pg 0.5).",
            ),
        ] = None,
        jobs: JobsOpt = 1,
        ray: Annotated[
            str | None,
            typer.Option(
                "--ray", help="Play the games on Ray: 'local' or a cluster's address (extra 'ray')."
            ),
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
        no_progress: NoProgressOpt = False,
    ) -> None:
        """Teach the `net` bot by expert iteration: imitation of greedy, then of a stronger
        search's games (or self-play of the search guided by the network); or with
        `--method pg` by policy gradient (PPO) in games against --opponent. Checkpoints
        (resumed by the same command), a learning curve (needs PyTorch)."""
        settings = {
            "seed": seed,
            "players": players,
            "warm_games": warm_games,
            "games": games,
            "iterations": iterations,
            "epochs": epochs,
            "warm_epochs": warm_epochs,
            "buffer": buffer,
            "hidden": hidden,
            "trunk": trunk,
            "gauntlet": gauntlet,
            "gauntlet_search": gauntlet_search,
            "expert": expert,
            "expert_target": expert_target,
            "warm_mix": warm_mix,
            "lr": lr,
            "init": init,
            "init_epochs": init_epochs,
            "spell": spell,
            "validation": validation,
            "value_weight": value_weight,
        }
        pg = {
            "eval": eval_games,
            "eval_every": eval_every,
            "opponent": opponent,
            "clip": clip,
            "entropy": entropy,
        }
        raise typer.Exit(
            run_train(
                game_name,
                out,
                generations,
                settings,
                jobs,
                ray,
                as_json,
                not no_progress,
                method=method,
                pg=pg,
            )
        )
