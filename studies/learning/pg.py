"""A study of issue 37: does policy-gradient fine-tuning against ``greedy`` lift ``net``?

Expert iteration from ``ismcts:1000it``'s moves (``studies/learning/carta-expert``) kept
``net`` near 40-45 % against ``greedy``: its expert games are costly (about 1,000
examples an hour on this machine) and each retraining on few of them loses strength.
Games of ``net`` against ``greedy`` cost about a second each, so a policy gradient
with the outcome as the reward can use thousands of them an hour. This script tries
that (PPO with a clipped ratio and the value head as the baseline), from ``--init``:

* each iteration plays ``--games`` games of ``net:sample`` (moves drawn from the
  network's probabilities) against ``greedy``, the seats alternating, each on a new
  deal, and keeps every top-level decision of the network's seat;
* it trains ``--epochs`` passes over them (clip 0.2, an entropy bonus, the value head
  toward the outcome, a small learning rate);
* every ``--eval-every`` iterations it plays the network's arg-max (``net``) against
  ``greedy`` on the same fixed deals (``--eval`` games, both seatings of each deal), so
  the curve is a win rate, and writes ``curve.json`` and ``net-iNNN.npz`` into ``--out``.

It resumes from the last ``net-iNNN.npz`` in ``--out``. Run it niced, e.g.::

    nice -n 19 .venv/bin/python studies/learning/pg.py --init \\
        civcards/games/carta/weights/policy.npz --out studies/learning/carta-pg

Needs the ``train`` extra (PyTorch). A study script: the product's ``civcards train``
does not depend on it.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

from civcards.bots import make_bot
from civcards.bots.base import bot_choice
from civcards.bots.netsearch import NetSearchBot
from civcards.bots.policy_net import PolicyValueNet
from civcards.game_api import Game, default_options, get_game
from civcards.learn.torch_net import TorchPolicyValue
from civcards.stats import wilson

Row = tuple[Any, list[int], int, float]  # observation, legal actions, action, old log-prob


def play(game: Game, net: PolicyValueNet, seed: int, net_seat: int, sample: bool) -> tuple[list[Row], float]:
    """One 2-player game of the network (seat ``net_seat``) against ``greedy``: the
    network's top-level decisions and its share of the victory."""
    state = game.new_state(2, game.check_options(2, default_options(game, 2)), seed)
    enc = game.encoding()
    assert enc is not None
    me = NetSearchBot(game, seed + 7, net=net, iterations=0, sample=sample)
    other = make_bot(game, "greedy", seed=seed + 11)
    rows: list[Row] = []
    while state.to_move is not None:
        seat = state.to_move
        if seat != net_seat:
            game.apply_choice(state, bot_choice(other, game, state))
            continue
        top = len(game.choices(state)) > 1
        table = enc.table(state) if top else None
        pick = bot_choice(me, game, state)
        if table is not None:
            legal = list(table.legal_actions())
            x = table.encode(seat)
            a = enc.action_of(table, pick.text)[0]
            if a in legal:
                probs, _ = net.evaluate(x, legal)
                p = float(probs[legal.index(a)])
                rows.append((x, legal, a, math.log(max(p, 1e-8))))
        game.apply_choice(state, pick)
    res = game.result(state)
    share = 0.5
    if res is not None and res.winners:
        share = (1.0 / len(res.winners)) if net_seat in res.winners else 0.0
    return rows, share


def ppo(net: PolicyValueNet, rows: list[tuple[Row, float]], *, epochs: int, lr: float,
        entropy: float, seed: int) -> tuple[PolicyValueNet, dict[str, float]]:
    """``epochs`` PPO passes over ``rows`` (each with its game's outcome)."""
    torch.manual_seed(seed)
    model = TorchPolicyValue(net)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    n = len(rows)
    actions = int(net.arrays["wp"].shape[1])
    xs = torch.tensor(np.stack([np.asarray(r[0][0], np.float32) for r in rows]))
    mask = torch.full((n, actions), -1e9)
    for i, (r, _) in enumerate(rows):
        mask[i, r[1]] = 0.0
    act = torch.tensor([r[0][2] for r in rows])
    old = torch.tensor([r[0][3] for r in rows])
    ret = torch.tensor([out for _, out in rows], dtype=torch.float32)
    with torch.no_grad():
        _, v0 = model(xs)
        base = torch.sigmoid(v0)
    adv = ret - base
    adv = (adv - adv.mean()) / (adv.std() + 1e-6)
    stats = {"policy": 0.0, "value": 0.0, "entropy": 0.0, "kl": 0.0}
    batches = 0
    gen = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        for idx in torch.randperm(n, generator=gen).split(256):
            logits, v = model(xs[idx])
            logp_all = torch.log_softmax(logits + mask[idx], dim=-1)
            logp = logp_all.gather(1, act[idx][:, None])[:, 0]
            ratio = torch.exp(logp - old[idx])
            a = adv[idx]
            pol = -torch.min(ratio * a, torch.clamp(ratio, 0.8, 1.2) * a).mean()
            p_all = torch.exp(logp_all)
            ent = -(p_all * logp_all).sum(-1).mean()
            val = torch.nn.functional.binary_cross_entropy_with_logits(v, ret[idx])
            loss = pol + 0.5 * val - entropy * ent
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            stats["policy"] += float(pol.detach())
            stats["value"] += float(val.detach())
            stats["entropy"] += float(ent.detach())
            stats["kl"] += float((old[idx] - logp).mean().detach())
            batches += 1
    return model.to_numpy(), {k: v / max(1, batches) for k, v in stats.items()}


def evaluate(game: Game, net: PolicyValueNet, games: int) -> float:
    """The arg-max network's share against ``greedy`` on fixed deals, both seatings."""
    total = 0.0
    for i in range(games):
        _, share = play(game, net, 900_000 + i // 2, i % 2, sample=False)
        total += share
    return total / games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="carta")
    ap.add_argument("--init", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--lr", type=float, default=3e-5)
    ap.add_argument("--entropy", type=float, default=0.003)
    ap.add_argument("--eval", type=int, default=200)
    ap.add_argument("--eval-every", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    game = get_game(a.game)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    curve_file = out / "curve.json"
    curve: list[dict[str, Any]] = json.loads(curve_file.read_text()) if curve_file.exists() else []
    done = sorted(int(m.group(1)) for p in out.glob("net-i*.npz") if (m := re.match(r"net-i(\d+)\.npz", p.name)))
    start = done[-1] if done else 0
    net = PolicyValueNet.load(out / f"net-i{start:03d}.npz") if done else PolicyValueNet.load(Path(a.init))
    if not done:
        t0 = time.process_time()
        rate = evaluate(game, net, a.eval)
        lo, hi = wilson(rate * a.eval, a.eval)
        curve.append({"iteration": 0, "eval": rate, "low": lo, "high": hi, "cpu_s": time.process_time() - t0})
        net.save(out / "net-i000.npz")
        curve_file.write_text(json.dumps(curve, indent=1))
        print(f"iteration 0: net vs greedy {rate:.3f} ({lo:.3f}-{hi:.3f})", flush=True)
    for it in range(start + 1, a.iterations + 1):
        t0 = time.process_time()
        rng = random.Random(f"pg:{a.seed}:{it}")
        rows: list[tuple[Row, float]] = []
        wins = 0.0
        for g in range(a.games):
            gr, share = play(game, net, rng.getrandbits(40), g % 2, sample=True)
            wins += share
            rows.extend((r, share) for r in gr)
        t_play = time.process_time() - t0
        net, stats = ppo(net, rows, epochs=a.epochs, lr=a.lr, entropy=a.entropy, seed=a.seed * 1000 + it)
        point: dict[str, Any] = {
            "iteration": it,
            "sampled": wins / a.games,
            "examples": len(rows),
            "cpu_play_s": round(t_play, 1),
            "cpu_train_s": round(time.process_time() - t0 - t_play, 1),
            **{k: round(v, 4) for k, v in stats.items()},
        }
        if it % a.eval_every == 0:
            rate = evaluate(game, net, a.eval)
            lo, hi = wilson(rate * a.eval, a.eval)
            point.update({"eval": rate, "low": lo, "high": hi})
        curve.append(point)
        net.save(out / f"net-i{it:03d}.npz")
        for p in out.glob("net-i*.npz"):  # keep the first, the last and every evaluated one
            m = re.match(r"net-i(\d+)\.npz", p.name)
            if m and int(m.group(1)) not in (0, it) and int(m.group(1)) % a.eval_every:
                p.unlink()
        curve_file.write_text(json.dumps(curve, indent=1))
        print(json.dumps(point), flush=True)


if __name__ == "__main__":
    sys.exit(main())
