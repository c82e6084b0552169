"""A control for the self-play runs: retrain a network as a generation does, on data of
its own kind, and see whether that alone changes `net`'s strength.

It trains ``--init`` for ``--epochs`` passes with a fresh Adam (``--lr``), as
``civcards train`` does each generation, on the last ``--last`` examples of a
buffer file (``warm.npz``: the imitation of greedy), and writes ``--out``.
docs/learning.md ("Why self-play made it worse") has the figures.

    nice -n 19 .venv/bin/python studies/learning/finetune.py \\
        --init civcards/games/carta/weights/policy.npz \\
        --data studies/learning/carta-expert/warm.npz --last 60000 --out /tmp/ft.npz
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from civcards.bots.policy_net import PolicyValueNet
from civcards.learn.loop import load_examples
from civcards.learn.torch_net import train


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--init", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--last", type=int, default=60000)
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    net = PolicyValueNet.load(Path(a.init))
    data = load_examples(Path(a.data), net.obs_size).tail(a.last)
    net, losses = train(net, data, epochs=a.epochs, seed=a.seed, lr=a.lr)
    net.save(Path(a.out))
    print(json.dumps({"examples": len(data), "losses": losses, "out": a.out}))


if __name__ == "__main__":
    main()
