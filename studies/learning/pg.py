"""The study script of issue 37's policy gradient, now ``civcards train --method pg``.

CIV's shipped network was made by this script's first version (``git show
9b75a3f:studies/learning/pg.py``); the method is now :mod:`civcards.learn.pg`, run by
``civcards train --game GAME --method pg`` (``docs/learning.md``). This wrapper keeps the
script's command line and runs the command with the same settings::

    nice -n 19 .venv/bin/python studies/learning/pg.py --init FILE --out FOLDER \\
        --iterations 16 --games 1000 --eval 400 --eval-every 5

The folders the first version wrote (``carta-pg/``: networks, ``curve.json``, no
``run.json``) are not resumed: the command says so and changes nothing.
"""

from __future__ import annotations

import argparse

from civcards.cli import app


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
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
    args = ["train", "--game", a.game, "--method", "pg", "--init", a.init, "--out", a.out]
    for flag, value in (
        ("--iterations", a.iterations),
        ("--games", a.games),
        ("--epochs", a.epochs),
        ("--lr", a.lr),
        ("--entropy", a.entropy),
        ("--eval", a.eval),
        ("--eval-every", a.eval_every),
        ("--seed", a.seed),
    ):
        args += [flag, str(value)]
    app(args, prog_name="civcards")


if __name__ == "__main__":
    main()
