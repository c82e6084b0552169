"""``civcards train``: expert iteration in generations, with checkpoints and a learning curve.

A run lives in one folder (``--out``):

* ``run.json``: the settings, the last finished generation, the curve (per
  generation: examples, losses, the gauntlet's win rates) — written last, so a
  run killed mid-generation resumes at that generation's start;
* ``net-gNNN.npz``: the network after generation N (the last two are kept;
  the newest is the one to ship);
* ``buffer-gNNN.npz``: the replay buffer after generation N (not to commit;
  without it a resumed run starts with an empty buffer);
* ``curve.json`` and ``curve.png``: the learning curve.

Generation 0 is the warm start: ``warm_games`` games of the teacher (``greedy``)
against itself, the network trained to imitate its moves and predict the
outcomes (or, with ``init``, a given network taken as it is, or trained
``init_epochs`` passes on them). With ``spell`` the examples are the tokens of
the teacher's whole moves (``all``, or ``rest``: those after the first), and
the network's file says it spells (``meta["spell"]``: ``net`` then chooses a
move token by token, civ4's payments and card sets included). Every later
generation plays ``games`` games that make examples: with an ``expert`` (a plain
search such as ``ismcts:1000it``), games of the expert against itself whose
targets are its root visits and outcomes; without, self-play games of
``ismcts+net:<iterations>it`` with the last network. It adds their examples to
the buffer (the last ``buffer`` examples are kept), mixes in ``warm_mix`` times
as many of the warm start's examples (kept in ``warm.npz``, made again from the
seed where missing), trains a fresh optimiser (learning rate ``lr``) for
``epochs`` passes, and plays the gauntlet: ``gauntlet`` games of
``net`` against ``greedy`` and ``gauntlet_search`` games of
``ismcts+net:<iterations>it`` against ``ismcts:1000it``, seats rotated, deals
fixed by the seed (the same deals every generation).

Everything is drawn from the run's seed and the generation, and the network
always continues from its saved file, so a resumed run makes the same next
generation as one that was never stopped.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..bots.policy_net import PolicyValueNet
from ..game_api import Game
from ..sim.simulate import run_indexed
from ..stats import wilson
from .gauntlet import (
    Match,
    Progress,
    counter,
    play_matches,
    plot_rates,
    read_run,
    write_json,
)
from .selfplay import ExampleConfig, Examples, SparseObs, play_example_game


@dataclass(frozen=True)
class TrainConfig:
    game: str
    seed: int = 0
    players: int = 2
    warm_games: int = 400
    games: int = 40
    iterations: int = 100
    epochs: int = 3
    warm_epochs: int = 6
    buffer: int = 200_000
    hidden: int = 256
    trunk: int = 128
    gauntlet: int = 20
    gauntlet_search: int = 2
    search_opponent: str = "ismcts:1000it"
    sample_moves: int = 10
    #: the plain search whose games and root visits later generations learn from
    #: ("": self-play of ismcts+net, the first runs' method)
    expert: str = ""
    #: what the expert's examples teach: ``move`` (its move) or ``visits`` (root visit shares)
    expert_target: str = "move"
    #: warm-start examples mixed into each later generation's training, per buffer example
    warm_mix: float = 0.0
    lr: float = 1e-3
    #: a network file that generation 0 takes instead of training one
    init: str = ""
    #: the share of the warm start's games held out: their loss after every epoch,
    #: early stopping on it (0: none, all games trained on)
    validation: float = 0.1
    #: the value loss's weight beside the policy's (civ4: 0.1, below 1 the value
    #: over-fits the few outcomes of the warm start's games at once)
    value_weight: float = 1.0
    #: imitation of whole moves, for a network that spells them (``net`` one pass a
    #: token): ``all`` every token of the teacher's moves, ``rest`` every token after the
    #: first (to teach an ``init`` network's payments and card sets, keeping its first
    #: choices); "": the first action of each move
    spell: str = ""
    #: passes over generation 0's examples of an ``init`` network (0: taken as it is)
    init_epochs: int = 0


#: the settings of a run.json written before a setting existed (they resume unchanged)
LEGACY: dict[str, Any] = {
    "expert": "",
    "expert_target": "move",
    "warm_mix": 0.0,
    "lr": 1e-3,
    "init": "",
    "validation": 0.0,
    "value_weight": 1.0,
    "spell": "",
    "init_epochs": 0,
}


def _path(out: Path, kind: str, gen: int) -> Path:
    return out / f"{kind}-g{gen:03d}.npz"


def save_examples(p: Path, data: Examples) -> None:
    """Write examples to ``p`` (written aside, then moved): the observations as sparse rows
    (``obs_indptr``, ``obs_cols``, ``obs_vals``, ``obs_width``)."""
    tmp = p.with_name(p.name + ".tmp.npz")
    with open(tmp, "wb") as f:
        np.savez(
            f,
            obs_indptr=data.obs.indptr,
            obs_cols=data.obs.cols,
            obs_vals=data.obs.vals,
            obs_width=np.array(data.obs.width, np.int64),
            actions=data.actions,
            shares=data.shares,
            outcomes=data.outcomes,
        )
    tmp.replace(p)


def load_examples(p: Path, obs_size: int) -> Examples:
    """The examples of ``p`` (none where it is missing); a file of the first format (dense
    ``obs``, float16) is read too, its rows made sparse."""
    if not p.is_file():
        return Examples.empty(obs_size)
    with np.load(p) as z:
        if "obs" in z.files:
            obs = SparseObs.from_dense(z["obs"])
        else:
            obs = SparseObs(z["obs_indptr"], z["obs_cols"], z["obs_vals"], int(z["obs_width"]))
        return Examples(obs, z["actions"], z["shares"], z["outcomes"])


def held_out(index: int, fraction: float) -> bool:
    """Whether game ``index`` of the warm start is a validation game: ``fraction`` of the
    games, spread evenly (the 10th, 20th, … at 0.1)."""
    return int((index + 1) * fraction) > int(index * fraction)


#: the warm start's examples, for mixing (self-play data: never committed)
WARM_FILE = "warm.npz"


def warm_config(game: Game, cfg: TrainConfig) -> ExampleConfig:
    """Generation 0's games: the teacher (``greedy``) against itself."""
    return ExampleConfig(
        game.name, "imitate", cfg.seed, 0, cfg.players, teacher="greedy", spell=cfg.spell
    )


def _warm_sample(
    game: Game, cfg: TrainConfig, out: Path, gen: int, size: int, jobs: int, ray: str | None
) -> Examples:
    """``warm_mix`` × ``size`` warm-start examples drawn for generation ``gen`` (the warm
    games are played again from the seed where ``warm.npz`` is missing)."""
    enc = game.encoding()
    assert enc is not None
    obs_size = int(enc.observation_shape[0])
    path = out / WARM_FILE
    if not path.is_file():
        parts = run_indexed(
            play_example_game, warm_config(game, cfg), cfg.warm_games, jobs=jobs, game=game, ray=ray
        )
        save_examples(path, Examples.join(parts, obs_size))
    warm = load_examples(path, obs_size)
    take = min(len(warm), int(cfg.warm_mix * size))
    rows = np.sort(
        np.random.default_rng(cfg.seed * 1000 + gen).choice(len(warm), take, replace=False)
    )
    return warm.take(rows)


def gauntlet(
    game: Game,
    cfg: TrainConfig,
    weights: Path,
    jobs: int,
    ray: str | None,
    progress: Progress | None,
) -> dict[str, Any]:
    """The generation's fixed-seed matches: ``net`` vs greedy, ``ismcts+net`` vs the search."""
    matches: list[Match] = [
        ("net_vs_greedy", f"net:{weights}", "greedy", cfg.gauntlet),
        (
            "search_vs_ismcts",
            f"ismcts+net:{cfg.iterations}it:{weights}",
            cfg.search_opponent,
            cfg.gauntlet_search,
        ),
    ]
    return play_matches(game, matches, cfg.players, cfg.seed, jobs, ray, progress, "gauntlet")


def plot_curve(out: Path, curve: list[dict[str, Any]], title: str) -> None:
    """``curve.png``: the gauntlet's win rates by generation (needs matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - the train extra has it
        return
    fig, ax = plt.subplots(figsize=(7, 4))
    gens = [c["generation"] for c in curve]
    plot_rates(
        ax,
        curve,
        "generation",
        (
            ("net_vs_greedy", "net vs greedy"),
            ("search_vs_ismcts", "ismcts+net vs ismcts:1000it"),
        ),
    )
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("generation (0: imitation of greedy)")
    ax.set_ylabel("win rate (Wilson 95 %)")
    ax.set_ylim(0, 1)
    if gens:
        ax.set_xlim(min(gens) - 0.5, max(gens) + 0.5)
    ax.set_title(title)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(out / "curve.png", dpi=80)
    plt.close(fig)


def run_training(
    game: Game,
    cfg: TrainConfig,
    out: Path,
    generations: int,
    *,
    jobs: int = 1,
    ray: str | None = None,
    progress: Progress | None = None,
    log: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Run (or resume) the training in ``out`` until ``generations`` generations are done.

    A folder that holds a run is resumed with its own settings (ValueError with a
    sentence if ``cfg`` differs in anything but the gauntlet's sizes).
    """
    from . import torch_net

    out.mkdir(parents=True, exist_ok=True)
    enc = game.encoding()
    if enc is None:
        raise ValueError(f"{game.title} has no action encoding, so no network can learn it")
    obs_size = int(enc.observation_shape[0])
    state = read_run(out)
    if state is not None:
        saved = TrainConfig(**{**LEGACY, **state["config"]})
        keep: tuple[str, ...] = ("gauntlet", "gauntlet_search")
        if state["generation"] >= 0:
            # generation 0 is done: the settings only it uses no longer matter
            keep += ("validation",)
        diff = [k for k, v in asdict(cfg).items() if k not in keep and getattr(saved, k) != v]
        if diff:
            raise ValueError(
                f"{out} holds a run with other settings ({', '.join(diff)}): "
                "resume it with the same ones or train into another folder"
            )
    else:
        state = {"config": asdict(cfg), "generation": -1, "curve": [], "game": game.name}
    say = log or (lambda _: None)
    while state["generation"] + 1 < generations:
        gen = state["generation"] + 1
        t0 = time.perf_counter()
        prev = state["generation"]
        if gen == 0:
            ecfg = warm_config(game, cfg)
            count = cfg.warm_games
        elif cfg.expert:
            ecfg = ExampleConfig(
                game.name,
                "imitate",
                cfg.seed,
                gen,
                cfg.players,
                teacher=cfg.expert,
                target=cfg.expert_target,
                spell=cfg.spell,
            )
            count = cfg.games
        else:
            ecfg = ExampleConfig(
                game.name,
                "search",
                cfg.seed,
                gen,
                cfg.players,
                weights=str(_path(out, "net", prev)),
                iterations=cfg.iterations,
                sample_moves=cfg.sample_moves,
            )
            count = cfg.games
        tick = counter(progress, f"generation {gen}: games", count)
        parts = run_indexed(
            play_example_game, ecfg, count, jobs=jobs, game=game, on_result=tick, ray=ray
        )
        valid: Examples | None = None
        if gen == 0 and cfg.validation > 0 and not cfg.init:
            # whole games are held out: a game's examples share its outcome
            valid = Examples.join([p for p in parts if held_out(p.index, cfg.validation)], obs_size)
            parts = [p for p in parts if not held_out(p.index, cfg.validation)]
        fresh = Examples.join(parts, obs_size)
        del parts  # the games' own copies (civ4's 4,000 warm games: about 300 MB)
        buf = load_examples(_path(out, "buffer", prev), obs_size) if gen > 0 else None
        # the warm start trains on all its examples; the buffer keeps the last ``buffer``
        kept = Examples.join([buf, fresh] if buf is not None else [fresh], obs_size).tail(
            cfg.buffer
        )
        data = fresh if gen == 0 else kept
        if gen == 0 and cfg.warm_mix > 0:
            # the warm examples are mixed in at their own ratio, not through the buffer
            save_examples(out / WARM_FILE, fresh)
            kept = Examples.empty(obs_size)
        elif cfg.warm_mix > 0:
            data = Examples.join(
                [kept, _warm_sample(game, cfg, out, gen, len(kept), jobs, ray)], obs_size
            )
        t_play = time.perf_counter() - t0
        if gen == 0 and cfg.init:
            net = PolicyValueNet.load(Path(cfg.init))
            epochs = cfg.init_epochs
        elif gen == 0:
            net = PolicyValueNet.fresh(
                obs_size,
                int(enc.action_size),
                cfg.hidden,
                cfg.trunk,
                seed=cfg.seed,
                meta={"game": game.name, "players": cfg.players},
            )
            mean, scale = torch_net.input_statistics(data)
            net.arrays["mean"][:] = mean
            net.arrays["scale"][:] = scale
            net = PolicyValueNet(net.arrays, net.meta)
            epochs = cfg.warm_epochs
        else:
            net = PolicyValueNet.load(_path(out, "net", prev))
            epochs = cfg.epochs
        on_batch = counter(
            progress, f"generation {gen}: training", epochs * math.ceil(len(data) / 256)
        )

        def on_epoch(row: dict[str, Any], gen: int = gen) -> None:
            say(
                f"generation {gen}, epoch {row['epoch']}: training losses "
                f"{row['policy']:.3f}/{row['value']:.3f}"
                + (
                    f", validation {row['valid_policy']:.3f}/{row['valid_value']:.3f}"
                    if "valid_policy" in row
                    else ""
                )
            )

        net, losses = torch_net.train(
            net,
            data,
            epochs=epochs,
            seed=cfg.seed * 1000 + gen,
            lr=cfg.lr,
            value_weight=cfg.value_weight,
            on_batch=on_batch,
            valid=valid,
            on_epoch=on_epoch,
        )
        net.meta.update({"generation": gen, "seed": cfg.seed, "config": asdict(cfg)})
        if cfg.spell:
            net.meta["spell"] = True
        net.save(_path(out, "net", gen))
        save_examples(_path(out, "buffer", gen), kept)
        t_train = time.perf_counter() - t0 - t_play
        results = gauntlet(game, cfg, _path(out, "net", gen), jobs, ray, progress)
        entry = {
            "generation": gen,
            "examples": len(fresh),
            "validation_examples": len(valid) if valid is not None else 0,
            "buffer": len(kept),
            "losses": losses if epochs else {},
            "gauntlet": results,
            "seconds": {
                "play": round(t_play, 1),
                "train": round(t_train, 1),
                "gauntlet": round(time.perf_counter() - t0 - t_play - t_train, 1),
            },
        }
        state["curve"] = [c for c in state["curve"] if c["generation"] < gen] + [entry]
        state["generation"] = gen
        state["latest"] = _path(out, "net", gen).name
        write_json(out / "curve.json", state["curve"])
        plot_curve(out, state["curve"], f"{game.title}: expert iteration (seed {cfg.seed})")
        write_json(out / "run.json", state)
        for kind in ("net", "buffer"):
            for old in out.glob(f"{kind}-g*.npz"):
                if old.name not in (_path(out, kind, gen).name, _path(out, kind, prev).name):
                    old.unlink()
        say(
            f"generation {gen}: {len(fresh)} examples, "
            + (f"losses {losses['policy']:.3f}/{losses['value']:.3f}, " if epochs else "")
            + ", ".join(f"{k} {v['rate']:.1%}" for k, v in results.items())
        )
    return state


__all__ = [
    "LEGACY",
    "WARM_FILE",
    "TrainConfig",
    "gauntlet",
    "held_out",
    "load_examples",
    "plot_curve",
    "read_run",
    "run_training",
    "save_examples",
    "wilson",
]
