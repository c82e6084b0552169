"""Train a small policy for CIV with PPO (PyTorch, CPU) against the ``random`` bot.

    .venv/bin/pip install -e '.[research]' torch==2.13.0 matplotlib
    .venv/bin/python examples/train_policy.py --minutes 5

The agent plays seat 0 or 1 (random each game) of 2-player games through the
Gymnasium wrapper (:func:`civcards.envs.single_agent`), with its action mask:
the policy's logits of illegal actions are set to -inf. Reward: 1 for a win,
0 for a loss, at the end only. Every few updates the greedy (arg-max) policy
plays ``--eval-games`` fresh games against ``random``; the learning curve
(training win rate and evaluation win rate against time) is saved as a PNG,
with the numbers in a JSON beside it.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from civcards.envs import single_agent
from civcards.games.carta.encoding import NUM_ACTIONS, OBS_SIZE


class Policy(nn.Module):
    """An MLP over log(1 + observation): masked action logits and a value."""

    def __init__(self, hidden: int = 256) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(OBS_SIZE, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
        )
        self.pi = nn.Linear(hidden, NUM_ACTIONS)
        self.v = nn.Linear(hidden, 1)
        nn.init.zeros_(self.pi.weight)
        nn.init.zeros_(self.pi.bias)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(torch.log1p(obs))
        logits = self.pi(h).masked_fill(mask == 0, -1e9)
        return logits, self.v(h).squeeze(-1)


@dataclass
class Batch:
    obs: list[np.ndarray] = field(default_factory=list)
    mask: list[np.ndarray] = field(default_factory=list)
    act: list[int] = field(default_factory=list)
    logp: list[float] = field(default_factory=list)
    val: list[float] = field(default_factory=list)
    adv: list[float] = field(default_factory=list)
    ret: list[float] = field(default_factory=list)


def play_episode(env: Any, net: Policy, seed: int, batch: Batch | None, greedy: bool) -> float:
    """One game; with ``batch``, store its steps with GAE advantages (gamma 1, lambda 0.95)."""
    obs, _ = env.reset(seed=seed)
    vals: list[float] = []
    start = len(batch.act) if batch is not None else 0
    reward = 0.0
    while True:
        o = torch.as_tensor(obs["observation"]).unsqueeze(0)
        m = torch.as_tensor(obs["action_mask"]).unsqueeze(0)
        with torch.no_grad():
            logits, v = net(o, m)
        if greedy:
            a = int(logits.argmax())
        else:
            dist = torch.distributions.Categorical(logits=logits)
            a = int(dist.sample())
            if batch is not None:
                batch.obs.append(obs["observation"])
                batch.mask.append(obs["action_mask"])
                batch.act.append(a)
                batch.logp.append(float(dist.log_prob(torch.tensor(a))))
                vals.append(float(v))
        obs, reward, term, trunc, _ = env.step(a)
        if term or trunc:
            break
    if batch is not None:
        # sparse terminal reward: TD errors are v[t+1] - v[t] and, at the end, r - v[T]
        nxt = [*vals[1:], reward]
        gae = 0.0
        advs = [0.0] * len(vals)
        for t in range(len(vals) - 1, -1, -1):
            delta = nxt[t] - vals[t]
            gae = delta + 0.95 * gae
            advs[t] = gae
        batch.val.extend(vals)
        batch.adv.extend(advs)
        batch.ret.extend(a + v for a, v in zip(advs, vals, strict=True))
        assert len(batch.adv) == len(batch.act) and start <= len(batch.act)
    return float(reward)


def ppo_update(net: Policy, opt: torch.optim.Optimizer, b: Batch, epochs: int = 4) -> None:
    obs = torch.as_tensor(np.array(b.obs))
    mask = torch.as_tensor(np.array(b.mask))
    act = torch.as_tensor(b.act)
    old = torch.as_tensor(b.logp)
    adv = torch.as_tensor(b.adv, dtype=torch.float32)
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    ret = torch.as_tensor(b.ret, dtype=torch.float32)
    n = len(b.act)
    for _ in range(epochs):
        perm = torch.randperm(n)
        for i in range(0, n, 256):
            idx = perm[i : i + 256]
            logits, v = net(obs[idx], mask[idx])
            dist = torch.distributions.Categorical(logits=logits)
            ratio = torch.exp(dist.log_prob(act[idx]) - old[idx])
            pg = -torch.min(ratio * adv[idx], ratio.clamp(0.8, 1.2) * adv[idx]).mean()
            loss = pg + 0.5 * ((v - ret[idx]) ** 2).mean() - 0.01 * dist.entropy().mean()
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            opt.step()


def evaluate(net: Policy, games: int, seed: int, opponent: str, greedy: bool) -> float:
    """Win rate of the policy (sampled, or arg-max) in ``games`` fresh games, seats random."""
    env = single_agent(opponents=[opponent], seat=None)
    return sum(play_episode(env, net, seed + i, None, greedy) for i in range(games)) / games


def train(
    minutes: float = 5.0,
    episodes_per_update: int = 32,
    eval_every: int = 10,
    eval_games: int = 200,
    opponent: str = "random",
    seed: int = 0,
    lr: float = 3e-4,
    max_updates: int | None = None,
    log: bool = True,
) -> dict[str, Any]:
    """Train; return the curve ``{"updates": [...], "time": [...], "train": [...], "eval": [...]}``."""
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    rng = random.Random(seed)
    net = Policy()
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    env = single_agent(opponents=[opponent], seat=None)
    curve: dict[str, Any] = {"update": [], "time": [], "train": []}
    curve.update(eval_update=[], eval_time=[], eval=[], eval_argmax=[])
    t0 = time.time()
    update = 0

    def do_eval() -> None:
        w = evaluate(net, eval_games, 10_000_000 + update, opponent, greedy=False)
        wa = evaluate(net, eval_games, 20_000_000 + update, opponent, greedy=True)
        curve["eval_update"].append(update)
        curve["eval_time"].append(time.time() - t0)
        curve["eval"].append(w)
        curve["eval_argmax"].append(wa)
        if log:
            print(
                f"update {update:4d}  {time.time() - t0:6.0f}s  win rate: sampled {w:.3f}, "
                f"arg-max {wa:.3f}",
                flush=True,
            )

    do_eval()
    while time.time() - t0 < minutes * 60 and (max_updates is None or update < max_updates):
        b = Batch()
        wins = sum(
            play_episode(env, net, rng.getrandbits(32), b, greedy=False)
            for _ in range(episodes_per_update)
        )
        ppo_update(net, opt, b)
        update += 1
        curve["update"].append(update)
        curve["time"].append(time.time() - t0)
        curve["train"].append(wins / episodes_per_update)
        if update % eval_every == 0:
            do_eval()
    if not curve["eval_update"] or curve["eval_update"][-1] != update:
        do_eval()
    curve["final_eval"] = curve["eval"][-1]
    curve["final_eval_argmax"] = curve["eval_argmax"][-1]
    # for information: the same policy against the hand-written greedy bot
    curve["final_vs_greedy"] = evaluate(net, eval_games, 30_000_000, "greedy", greedy=False)
    curve["final_vs_greedy_argmax"] = evaluate(net, eval_games, 40_000_000, "greedy", greedy=True)
    curve["seconds"] = time.time() - t0
    curve["episodes"] = update * episodes_per_update
    curve["opponent"] = opponent
    curve["eval_games"] = eval_games
    return curve


def plot(curve: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    tr = np.array(curve["train"])
    k = max(1, min(10, len(tr)))
    smooth = np.convolve(tr, np.ones(k) / k, mode="valid") if len(tr) else tr
    ax.plot(
        np.array(curve["time"])[k - 1 :] / 60, smooth, label="training games (sampled, smoothed)"
    )
    ax.plot(
        np.array(curve["eval_time"]) / 60,
        curve["eval"],
        "o-",
        label=f"evaluation: sampled policy, {curve['eval_games']} games",
    )
    ax.plot(
        np.array(curve["eval_time"]) / 60,
        curve["eval_argmax"],
        "s--",
        label="evaluation: arg-max policy",
    )
    ax.axhline(0.5, color="grey", ls=":", label="random vs random")
    ax.set_xlabel("minutes of training (1 CPU thread)")
    ax.set_ylabel(f"win rate against {curve['opponent']}")
    ax.set_ylim(0, 1)
    ax.set_title("PPO on civcards.envs.single_agent, 2 players")
    ax.legend(loc="lower right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--minutes", type=float, default=5.0)
    ap.add_argument("--episodes-per-update", type=int, default=32)
    ap.add_argument("--eval-every", type=int, default=10)
    ap.add_argument("--eval-games", type=int, default=200)
    ap.add_argument("--opponent", default="random")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=Path("studies/training-baselines/train_policy.png"))
    args = ap.parse_args()
    curve = train(
        args.minutes,
        args.episodes_per_update,
        args.eval_every,
        args.eval_games,
        args.opponent,
        args.seed,
    )
    plot(curve, args.out)
    args.out.with_suffix(".json").write_text(json.dumps(curve, indent=1) + "\n")
    half = 1.96 * math.sqrt(curve["final_eval"] * (1 - curve["final_eval"]) / args.eval_games)
    print(
        f"final win rate against {args.opponent}: sampled policy {curve['final_eval']:.3f} "
        f"(±{half:.3f}, {args.eval_games} games), arg-max {curve['final_eval_argmax']:.3f}, "
        f"after {curve['episodes']} training games, {curve['seconds'] / 60:.1f} min; "
        f"against greedy: sampled {curve['final_vs_greedy']:.3f}, "
        f"arg-max {curve['final_vs_greedy_argmax']:.3f}; curve in {args.out}"
    )


if __name__ == "__main__":
    main()
