"""``civcards train --method pg``: policy-gradient (PPO) fine-tuning of a network against a bot.

Expert iteration needs games of a costly search; a game of ``net`` against
``greedy`` costs a few hundredths of a second, so a policy gradient with the game's
outcome as the reward can use thousands of games an hour. It lifted CIV's ``net``
from 47 % to 59.6 % against ``greedy`` (``docs/learning.md``). A run, from a network
(``init``, by default the game's shipped one):

* **iteration** ``k`` plays ``games`` games of ``net:sample`` (moves drawn from the
  network's probabilities) against ``opponent`` (``greedy``), the network in seat
  ``i % players`` of game ``i``, each on a new deal, and keeps every top-level
  decision of the network: its observation vector, legal actions, the action taken
  and its log-probability (a network that spells its moves, ``meta["spell"]``: every
  pass of a spelled move with more than one legal token, payments and card sets too);
* then PPO: ``epochs`` passes in batches of ``batch`` over them, the clipped ratio
  (``clip``), the advantage the outcome (the seat's share of the victory) less the
  value head's chance (normalised), an entropy bonus (``entropy``), the value head
  toward the outcome (binary cross-entropy times ``value_weight``), a fresh Adam
  (``lr``) and gradients clipped at norm 1;
* every ``eval_every`` iterations (and at iteration 0, the ``init``), a gauntlet on
  fixed deals, seats rotated (``civcards arena``'s seating): ``eval`` games of the
  arg-max ``net`` against ``greedy`` and ``gauntlet_search`` games of
  ``ismcts+net:200it`` against ``ismcts:1000it``, win rates with Wilson 95 %
  intervals.

A run lives in one folder: ``net-iNNN.npz`` (the network after iteration N, the
float16 file that ships; the first, the latest and every evaluated one are kept),
``curve.json`` and ``curve.png`` (the learning curve) and ``run.json`` (the
settings, the last finished iteration, the curve), written last.

**Checkpoints and resume.** Iteration ``k`` is a pure function of the settings, the
seed and the file ``net-i(k-1).npz``: its games' deals come from
``Random("pg:<seed>:<k>")`` (the study script's seeding, so the CIV run it made is
reproduced), each game's bots from its deal, the order of the training examples from
``seed * 1000 + k``, PyTorch trains on one thread, and every iteration starts a fresh
optimiser from the saved network. So the checkpoint is the network file, with no
optimiser or generator state to keep, and a run killed at any point and resumed with
the same command makes the same next iteration as one never stopped.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..bots import make_bot
from ..bots.base import bot_choice
from ..bots.netsearch import DEFAULT_ITERATIONS, NetSearchBot, load_network
from ..bots.policy_net import PolicyValueNet, action_for_text, action_names
from ..game_api import Game, default_options
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
from .selfplay import SparseObs

#: the gauntlet's deals: the run's seed plus this (not the arena's seed 7, the test's)
EVAL_SEED = 900_000
#: the search that ``ismcts+net`` meets in the gauntlet
SEARCH_OPPONENT = "ismcts:1000it"


@dataclass(frozen=True)
class PGConfig:
    """A policy-gradient run's settings (``init``: the starting network's file)."""

    game: str
    init: str
    seed: int = 0
    players: int = 2
    games: int = 1000
    opponent: str = "greedy"
    epochs: int = 3
    lr: float = 3e-5
    clip: float = 0.2
    entropy: float = 0.003
    value_weight: float = 0.5
    batch: int = 256
    eval: int = 400
    eval_every: int = 5
    gauntlet_search: int = 0


#: settings a resume may change (they do not change the networks)
FREE = ("eval", "eval_every", "gauntlet_search")


@dataclass(frozen=True)
class PGGames:
    """One iteration's games: the network file, the opponent, each game's deal."""

    game: str
    weights: str
    opponent: str
    players: int
    seeds: tuple[int, ...]
    sample: bool = True


@dataclass
class PGGame:
    """One game's decisions of the network: observations (sparse rows), legal actions (a
    sparse 0/1 row over the action space), the actions taken, their log-probabilities,
    and the network's share of the victory."""

    index: int
    obs: SparseObs
    legal: SparseObs
    actions: npt.NDArray[np.int64]
    logp: npt.NDArray[np.float32]
    share: float

    def __len__(self) -> int:
        return int(self.actions.shape[0])


@dataclass
class Batch:
    """An iteration's decisions, every game's joined; ``outcomes`` per decision."""

    obs: SparseObs
    legal: SparseObs
    actions: npt.NDArray[np.int64]
    logp: npt.NDArray[np.float32]
    outcomes: npt.NDArray[np.float32]

    def __len__(self) -> int:
        return int(self.actions.shape[0])

    @classmethod
    def join(cls, games: list[PGGame], obs_size: int, action_size: int) -> Batch:
        return cls(
            SparseObs.concat([g.obs for g in games], obs_size),
            SparseObs.concat([g.legal for g in games], action_size),
            np.concatenate([g.actions for g in games] + [np.zeros(0, np.int64)]),
            np.concatenate([g.logp for g in games] + [np.zeros(0, np.float32)]),
            np.concatenate(
                [np.full(len(g), g.share, np.float32) for g in games] + [np.zeros(0, np.float32)]
            ),
        )


def iteration_seeds(seed: int, iteration: int, games: int) -> tuple[int, ...]:
    """The deals of an iteration's games (those of ``studies/learning/pg.py``)."""
    rng = random.Random(f"pg:{seed}:{iteration}")
    return tuple(rng.getrandbits(40) for _ in range(games))


def play_pg_game(cfg: PGGames, i: int, game: Game) -> PGGame:
    """Game ``i`` of an iteration: the network in seat ``i % players``, the opponent in the
    others; the network's top-level decisions and its share of the victory."""
    seed = cfg.seeds[i]
    n = cfg.players
    net_seat = i % n
    enc = game.encoding()
    if enc is None:
        raise ValueError(f"{game.title} has no action encoding, so no network can learn it")
    state = game.new_state(n, game.check_options(n, default_options(game, n)), seed)
    me = NetSearchBot(game, seed + 7, net=load_network(game, cfg.weights), iterations=0)
    me.sample = cfg.sample
    others = {
        s: make_bot(game, cfg.opponent, seed=seed + 11 + 13 * k)
        for k, s in enumerate(s for s in range(n) if s != net_seat)
    }
    xs: list[Any] = []
    legals: list[list[int]] = []
    acts: list[int] = []
    logps: list[float] = []
    while state.to_move is not None:
        seat = state.to_move
        if seat != net_seat:
            game.apply_choice(state, bot_choice(others[seat], game, state))
            continue
        choices = game.choices(state)
        pick = bot_choice(me, game, state)
        probs = me.last_target
        if me.last_steps:
            # a spelled move: each pass with a choice of tokens is a row of its own
            for step in me.last_steps:
                if len(step.legal) > 1:
                    xs.append(step.x)
                    legals.append(step.legal)
                    acts.append(step.action)
                    logps.append(step.logp)
        elif me.last_obs is not None and probs:
            # the network drew among the actions of the moves (its probabilities over the
            # legal actions, renormalised over those): they are the row's policy
            names = action_names(enc.table(state), list(probs))
            a = action_for_text(names, pick.text)
            allowed = {action_for_text(names, c.text) for c in choices} - {None}
            among = sorted(b for b in allowed if b is not None and b in probs)
            if a in among and len(among) > 1:
                mass = sum(probs[b] for b in among)
                xs.append(np.array(me.last_obs, np.float32))  # encode() may reuse its buffer
                legals.append(among)
                acts.append(a)
                logps.append(math.log(max(probs[a] / mass, 1e-12)))
        game.apply_choice(state, pick)
    res = game.result(state)
    share = 1.0 / n
    if res is not None and res.winners:
        share = (1.0 / len(res.winners)) if net_seat in res.winners else 0.0
    obs_size = int(enc.observation_shape[0])
    width = int(enc.action_size)
    dense = np.zeros((len(xs), obs_size), np.float16)
    for r, x in enumerate(xs):
        dense[r] = x
    mask = np.zeros((len(xs), width), np.float16)
    for r, legal in enumerate(legals):
        mask[r, legal] = 1.0
    return PGGame(
        i,
        SparseObs.from_dense(dense) if xs else SparseObs.empty(obs_size),
        SparseObs.from_dense(mask) if xs else SparseObs.empty(width),
        np.asarray(acts, np.int64),
        np.asarray(logps, np.float32),
        share,
    )


def ppo_update(
    net: PolicyValueNet,
    data: Batch,
    cfg: PGConfig,
    seed: int,
    on_batch: Callable[[int], None] | None = None,
) -> tuple[PolicyValueNet, dict[str, float]]:
    """``cfg.epochs`` PPO passes over ``data`` from ``net`` (a fresh Adam, the order drawn
    from ``seed``, one thread): the new network and the mean losses (``policy``,
    ``value``, ``entropy``, ``kl``: the mean of old less new log-probability,
    ``clipped``: the share of ratios outside the clip)."""
    import torch

    from .torch_net import TorchPolicyValue

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    model = TorchPolicyValue(net)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    n = len(data)
    stats = {"policy": 0.0, "value": 0.0, "entropy": 0.0, "kl": 0.0, "clipped": 0.0}
    if n == 0:
        return net, stats
    act = torch.from_numpy(data.actions)
    old = torch.from_numpy(data.logp)
    ret = torch.from_numpy(data.outcomes)
    with torch.no_grad():
        base = torch.cat(
            [
                torch.sigmoid(
                    model(torch.from_numpy(data.obs.dense(np.arange(s, min(n, s + 1024)))))[1]
                )
                for s in range(0, n, 1024)
            ]
        )
    adv = ret - base
    adv = (adv - adv.mean()) / (adv.std(correction=0) + 1e-6)
    gen = torch.Generator().manual_seed(seed)
    batches = 0
    lo, hi = 1.0 - cfg.clip, 1.0 + cfg.clip
    for _ in range(cfg.epochs):
        order = torch.randperm(n, generator=gen)
        for start in range(0, n, cfg.batch):
            idx = order[start : start + cfg.batch]
            rows = idx.numpy()
            x = torch.from_numpy(data.obs.dense(rows))
            mask = (torch.from_numpy(data.legal.dense(rows)) - 1.0) * 1e9
            logits, v = model(x)
            logp_all = torch.log_softmax(logits + mask, dim=-1)
            logp = logp_all.gather(1, act[idx][:, None])[:, 0]
            ratio = torch.exp(logp - old[idx])
            a = adv[idx]
            pol = -torch.min(ratio * a, torch.clamp(ratio, lo, hi) * a).mean()
            p_all = torch.exp(logp_all)
            ent = -(p_all * logp_all).sum(-1).mean()
            val = torch.nn.functional.binary_cross_entropy_with_logits(v, ret[idx])
            loss = pol + cfg.value_weight * val - cfg.entropy * ent
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call,unused-ignore]
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            with torch.no_grad():
                stats["policy"] += float(pol)
                stats["value"] += float(val)
                stats["entropy"] += float(ent)
                stats["kl"] += float((old[idx] - logp).mean())
                stats["clipped"] += float(((ratio < lo) | (ratio > hi)).float().mean())
            batches += 1
            if on_batch is not None:
                on_batch(len(rows))
    return model.to_numpy(), {k: v / max(1, batches) for k, v in stats.items()}


def gauntlet(
    game: Game,
    cfg: PGConfig,
    weights: Path,
    jobs: int,
    ray: str | None,
    progress: Progress | None,
    stage: str,
) -> dict[str, Any]:
    """The fixed-seed matches: ``net`` against ``greedy`` and ``ismcts+net`` against the
    search; each a win rate with its Wilson 95 % interval."""
    matches: list[Match] = [
        ("net_vs_greedy", f"net:{weights}", "greedy", cfg.eval),
        (
            "search_vs_ismcts",
            f"ismcts+net:{DEFAULT_ITERATIONS}it:{weights}",
            SEARCH_OPPONENT,
            cfg.gauntlet_search,
        ),
    ]
    return play_matches(
        game, matches, cfg.players, EVAL_SEED + cfg.seed, jobs, ray, progress, stage
    )


def plot_curve(out: Path, curve: list[dict[str, Any]], title: str) -> None:
    """``curve.png``: the gauntlet's win rates (Wilson 95 %) and the sampled policy's share
    by iteration (needs matplotlib, the ``train`` extra)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - the train extra has it
        return
    fig, ax = plt.subplots(figsize=(7, 4))
    plot_rates(
        ax,
        curve,
        "iteration",
        (
            ("net_vs_greedy", "net (arg-max) vs greedy"),
            ("search_vs_ismcts", f"ismcts+net:{DEFAULT_ITERATIONS}it vs {SEARCH_OPPONENT}"),
        ),
    )
    sampled = [(c["iteration"], c["sampled"]) for c in curve if "sampled" in c]
    if sampled:
        ax.plot(
            [i for i, _ in sampled],
            [s for _, s in sampled],
            color="grey",
            lw=1,
            label="net:sample in the iteration's games",
        )
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("iteration (0: the starting network)")
    ax.set_ylabel("win rate (Wilson 95 %)")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "curve.png", dpi=80)
    plt.close(fig)


def net_path(out: Path, iteration: int) -> Path:
    return out / f"net-i{iteration:03d}.npz"


def _check_resume(out: Path, state: dict[str, Any], cfg: PGConfig) -> None:
    if state.get("method") != "pg":
        raise ValueError(
            f"{out} holds a run of another method (expert iteration): train into another folder"
        )
    saved = state["config"]
    # once iteration 0 is saved the starting network's path no longer matters
    free = (*FREE, "init")
    diff = [k for k, v in asdict(cfg).items() if k not in free and saved.get(k) != v]
    if diff:
        raise ValueError(
            f"{out} holds a run with other settings ({', '.join(diff)}): "
            "resume it with the same ones or train into another folder"
        )


def _prune(out: Path, cfg: PGConfig, latest: int) -> None:
    """Keep iteration 0, the latest and every evaluated network."""
    for p in out.glob("net-i*.npz"):
        digits = p.stem[len("net-i") :]
        if not digits.isdigit():
            continue
        k = int(digits)
        if k in (0, latest) or (cfg.eval > 0 and k % cfg.eval_every == 0):
            continue
        p.unlink()


def run_pg(
    game: Game,
    cfg: PGConfig,
    out: Path,
    iterations: int,
    *,
    jobs: int = 1,
    ray: str | None = None,
    progress: Progress | None = None,
    log: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Run (or resume) the policy-gradient run in ``out`` until ``iterations`` iterations
    are done. A folder that holds a run resumes it with its own settings (ValueError with a
    sentence where ``cfg`` differs in anything but the gauntlet's sizes)."""
    enc = game.encoding()
    if enc is None:
        raise ValueError(f"{game.title} has no action encoding, so no network can learn it")
    obs_size = int(enc.observation_shape[0])
    action_size = int(enc.action_size)
    say = log or (lambda _: None)
    state = read_run(out)
    if state is not None:
        _check_resume(out, state, cfg)
        # the gauntlet's sizes may change between sessions
        state["config"] = asdict(cfg)
        # a fresh checkout has only the evaluated networks: go on from the last one there
        # (the iterations after it are made again, the same)
        last = int(state["iteration"])
        while last >= 0 and not net_path(out, last).is_file():
            last -= 1
        if last < state["iteration"]:
            say(f"iteration {state['iteration']}'s network is missing: going on from {last}")
            state["iteration"] = last
            state["curve"] = [c for c in state["curve"] if c["iteration"] <= last]
    else:
        if any(out.glob("net-i*.npz")):
            raise ValueError(
                f"{out} holds networks but no run.json (a run of the study script "
                "studies/learning/pg.py): train into another folder"
            )
        state = {
            "method": "pg",
            "game": game.name,
            "config": asdict(cfg),
            "iteration": -1,
            "curve": [],
        }
    out.mkdir(parents=True, exist_ok=True)
    title = f"{game.title}: PPO against {cfg.opponent} (seed {cfg.seed})"
    while state["iteration"] < iterations:
        k = state["iteration"] + 1
        t0 = time.perf_counter()
        point: dict[str, Any] = {"iteration": k}
        if k == 0:
            start = load_network(game, cfg.init)
            net = PolicyValueNet(
                {name: arr.copy() for name, arr in start.arrays.items()}, dict(start.meta)
            )
            net.meta.update({"iteration": 0, "method": "pg", "init": cfg.init})
            net.save(net_path(out, 0))
        else:
            prev = net_path(out, k - 1)
            games = run_indexed(
                play_pg_game,
                PGGames(
                    game.name,
                    str(prev),
                    cfg.opponent,
                    cfg.players,
                    iteration_seeds(cfg.seed, k, cfg.games),
                ),
                cfg.games,
                jobs=jobs,
                game=game,
                on_result=counter(progress, f"iteration {k}: games", cfg.games),
                ray=ray,
            )
            data = Batch.join(games, obs_size, action_size)
            wins = sum(g.share for g in games)
            del games
            t_play = time.perf_counter() - t0
            total = cfg.epochs * math.ceil(len(data) / cfg.batch)
            net, stats = ppo_update(
                PolicyValueNet.load(prev),
                data,
                cfg,
                cfg.seed * 1000 + k,
                counter(progress, f"iteration {k}: training", total),
            )
            lo, hi = wilson(wins, cfg.games)
            point.update(
                {
                    "sampled": wins / cfg.games,
                    "sampled_low": lo,
                    "sampled_high": hi,
                    "examples": len(data),
                    "losses": {key: round(v, 5) for key, v in stats.items()},
                    "seconds": {
                        "play": round(t_play, 1),
                        "train": round(time.perf_counter() - t0 - t_play, 1),
                    },
                }
            )
            del data
            net.meta.update(
                {"iteration": k, "method": "pg", "seed": cfg.seed, "config": asdict(cfg)}
            )
            net.save(net_path(out, k))
        if (cfg.eval > 0 or cfg.gauntlet_search > 0) and k % cfg.eval_every == 0:
            t1 = time.perf_counter()
            point["gauntlet"] = gauntlet(
                game, cfg, net_path(out, k), jobs, ray, progress, f"iteration {k}: eval"
            )
            point.setdefault("seconds", {})["gauntlet"] = round(time.perf_counter() - t1, 1)
        state["curve"] = [c for c in state["curve"] if c["iteration"] < k] + [point]
        state["iteration"] = k
        state["latest"] = net_path(out, k).name
        write_json(out / "curve.json", state["curve"])
        plot_curve(out, state["curve"], title)
        write_json(out / "run.json", state)
        _prune(out, cfg, k)
        say(_line(point))
    return state


def _line(point: dict[str, Any]) -> str:
    """One iteration's line for the log."""
    parts = [f"iteration {point['iteration']}"]
    if "sampled" in point:
        parts.append(
            f"net:sample {point['sampled']:.1%} of its games, {point['examples']} decisions, "
            f"kl {point['losses']['kl']:.4f}, clipped {point['losses']['clipped']:.1%}"
        )
    for key, m in point.get("gauntlet", {}).items():
        parts.append(f"{key} {m['rate']:.1%} ({m['low']:.1%}-{m['high']:.1%}) of {m['games']}")
    return ": ".join(parts[:2]) + ("; " + "; ".join(parts[2:]) if len(parts) > 2 else "")


__all__ = [
    "EVAL_SEED",
    "FREE",
    "PGConfig",
    "PGGame",
    "PGGames",
    "iteration_seeds",
    "play_pg_game",
    "plot_curve",
    "ppo_update",
    "read_run",
    "run_pg",
]
