"""CPU time of ``ismcts+net`` per decision, of two checkouts side by side (issue 37).

    python scripts/bench_netsearch.py OLD_CHECKOUT NEW_CHECKOUT [--rounds 5] [--game carta]

Positions: 2-player games (deals 1, 2, 3...) played by ``greedy`` for 20, 30, 40 ...
moves (civ4: 10, 20, 30 ...), then the seat to move's decision if it has a choice (CIV
skips the draft, which is not searched). Each round times both checkouts (in turn,
the order alternating, each in a fresh process with ``PYTHONPATH`` set to it) on the
same positions with the same seeds: ``time.process_time`` around ``bot_choice`` only.
Prints the CPU ms per decision of each and the ratio new/old (median over the rounds).

``--same-process`` runs both in one process instead (less noise from a shared
machine): the old checkout's ``netsearch.py`` and ``policy_net.py`` are loaded beside
the current ones (over the current engines), and each position is searched by the old
bot and the new one in turn, the order alternating.

``--profile`` runs the current checkout once under cProfile instead.

``--calibrate PLAIN`` (e.g. ``ismcts:1000it``) measures the current checkout alone: the
CPU a decision of ``PLAIN`` and of the guided search at two budgets (``--spec`` and half
as many iterations again), in one process, each position searched by the three in turn
(the order rotating; each round its own seeds), and the guided budget that costs what
``PLAIN`` does (the line through the two budgets, per round: the median and the range),
as the equal-time arena's budgets are set (studies/learning/equal-time).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any

SPECS = {"carta": "ismcts+net:480it", "civ4": "ismcts+net:100it"}


def positions(name: str, count: int) -> list[Any]:
    from civcards.bots import make_bot
    from civcards.bots.base import bot_choice
    from civcards.game_api import default_options, get_game

    game = get_game(name)
    step = 10
    first = 10 if name == "civ4" else 20
    out: list[Any] = []
    deal = 0
    while len(out) < count:
        deal += 1
        for k in range(first, first + 5 * step, step):
            opts = game.check_options(2, default_options(game))
            state = game.new_state(2, opts, deal)
            bots = [make_bot(game, "greedy", seed=s) for s in range(2)]
            played = 0
            while state.to_move is not None and played < k:
                game.apply_choice(state, bot_choice(bots[state.to_move], game, state))
                played += 1
            # on to a decision with a choice that is searched
            while state.to_move is not None:
                chs = game.choices(state)
                if len(chs) > 1 and (name != "carta" or state.phase != "draft"):
                    break
                game.apply_choice(state, bot_choice(bots[state.to_move], game, state))
            if state.to_move is not None:
                out.append(state)
            if len(out) >= count:
                break
    return out


def worker(name: str, spec: str, count: int) -> None:
    from civcards.bots import make_bot
    from civcards.bots.base import bot_choice
    from civcards.game_api import get_game

    game = get_game(name)
    states = positions(name, count)
    # warm up (the network's load, caches)
    bot_choice(make_bot(game, spec.split(":")[0] + ":4it", seed=1), game, states[0].copy())
    cpu = 0.0
    for i, st in enumerate(states):
        bot = make_bot(game, spec, seed=1000 + i)
        s = st.copy()
        t0 = time.process_time()
        bot_choice(bot, game, s)
        cpu += time.process_time() - t0
    print(json.dumps({"cpu": cpu, "decisions": len(states)}))


def _old_modules(checkout: str) -> Any:
    """The old checkout's ``netsearch`` (with its own ``policy_net``), as extra modules."""
    import types
    from pathlib import Path

    bots = Path(checkout) / "civcards" / "bots"
    mods = {}
    for name, src_name in (("_old_policy_net", "policy_net"), ("_old_netsearch", "netsearch")):
        src = (bots / f"{src_name}.py").read_text()
        src = src.replace("from .policy_net import", "from ._old_policy_net import")
        mod = types.ModuleType(f"civcards.bots.{name}")
        mod.__package__ = "civcards.bots"
        mod.__file__ = str(bots / f"{src_name}.py")
        sys.modules[mod.__name__] = mod
        exec(compile(src, mod.__file__, "exec"), mod.__dict__)
        mods[name] = mod
    return mods["_old_netsearch"]


def same_process(old: str, name: str, spec: str, count: int, rounds: int) -> None:
    from civcards.bots import make_bot
    from civcards.bots.base import bot_choice
    from civcards.game_api import get_game

    old_ns = _old_modules(old)
    game = get_game(name)
    states = positions(name, count)

    def old_bot(seed: int) -> Any:
        # the factory of the old module (the same budget parsing as the new one)
        return old_ns.make_net_search(game, spec.partition(":")[2], seed)

    def new_bot(seed: int) -> Any:
        return make_bot(game, spec, seed=seed)

    for make in (old_bot, new_bot):  # warm up
        bot_choice(make(1), game, states[0].copy())
    got: dict[str, list[float]] = {"old": [], "new": []}
    for r in range(rounds):
        cpu = {"old": 0.0, "new": 0.0}
        for i, st in enumerate(states):
            order = ("old", "new") if (r + i) % 2 == 0 else ("new", "old")
            for which in order:
                bot = (old_bot if which == "old" else new_bot)(1000 + i)
                s = st.copy()
                t0 = time.process_time()
                bot_choice(bot, game, s)
                cpu[which] += time.process_time() - t0
        for which in ("old", "new"):
            got[which].append(1000 * cpu[which] / len(states))
        print(
            f"round {r + 1}: old {got['old'][-1]:.1f} ms, new {got['new'][-1]:.1f} ms a decision",
            file=sys.stderr,
        )
    _summary(name, spec, got)


def calibrate(name: str, plain: str, spec: str, count: int, rounds: int) -> None:
    from civcards.bots import make_bot
    from civcards.bots.base import bot_choice
    from civcards.game_api import get_game

    game = get_game(name)
    states = positions(name, count)
    base, _, rest = spec.partition(":")
    budget, _, tail = rest.partition(":")
    if not budget.endswith("it"):
        raise SystemExit(f"--calibrate needs a budget in iterations: {spec}")
    its = (int(budget[:-2]), int(budget[:-2]) * 3 // 2)
    specs = [plain, spec, f"{base}:{its[1]}it" + (f":{tail}" if tail else "")]
    for sp in specs:  # warm up
        bot_choice(make_bot(game, sp.split(":")[0] + ":4it", seed=1), game, states[0].copy())
    got: dict[str, list[float]] = {sp: [] for sp in specs}
    matches: list[float] = []
    for r in range(rounds):
        cpu = dict.fromkeys(specs, 0.0)
        for i, st in enumerate(states):
            k = (r + i) % len(specs)
            for sp in specs[k:] + specs[:k]:
                # seeds of the round's own (the three alike): other deals every round, as
                # a game's decisions have (the same searches again would find the
                # engine's memos warm)
                bot = make_bot(game, sp, seed=1000 + 100 * r + i)
                s = st.copy()
                t0 = time.process_time()
                bot_choice(bot, game, s)
                cpu[sp] += time.process_time() - t0
        ms = [1000 * cpu[sp] / len(states) for sp in specs]
        for sp, m in zip(specs, ms, strict=True):
            got[sp].append(m)
        slope = (ms[2] - ms[1]) / (its[1] - its[0])
        matches.append(its[0] + (ms[0] - ms[1]) / slope if slope > 0 else float("nan"))
        print(
            f"round {r + 1}: "
            + ", ".join(f"{sp} {m:.1f} ms" for sp, m in zip(specs, ms, strict=True))
            + f"; {base} matching {plain}: {matches[-1]:.0f}it",
            file=sys.stderr,
        )
    med = {sp: statistics.median(v) for sp, v in got.items()}
    ratios = [a / b for a, b in zip(got[spec], got[plain], strict=True)]
    print(
        f"{name}: " + ", ".join(f"{sp} {med[sp]:.1f} ms" for sp in specs) + " CPU a decision; "
        f"{spec} / {plain} {statistics.median(ratios):.3f} "
        f"({min(ratios):.3f}-{max(ratios):.3f}); {base} at the CPU of {plain}: "
        f"{statistics.median(matches):.0f}it (rounds {min(matches):.0f}-{max(matches):.0f})"
    )


def _summary(name: str, spec: str, got: dict[str, list[float]]) -> None:
    old, new = statistics.median(got["old"]), statistics.median(got["new"])
    ratios = [n / o for o, n in zip(got["old"], got["new"], strict=True)]
    print(
        f"{name} {spec}: old {old:.1f} ms, new {new:.1f} ms CPU a decision; "
        f"new/old {statistics.median(ratios):.3f} (rounds: "
        f"{', '.join(f'{x:.3f}' for x in ratios)})"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old", nargs="?")
    ap.add_argument("new", nargs="?")
    ap.add_argument("--game", default="carta", choices=sorted(SPECS))
    ap.add_argument("--spec", help="the bot (default: ismcts+net:480it, civ4 100it)")
    ap.add_argument("--positions", type=int, default=6)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--same-process", action="store_true")
    ap.add_argument("--calibrate", metavar="PLAIN", help="the guided budget at PLAIN's CPU")
    args = ap.parse_args(argv)
    spec = args.spec or SPECS[args.game]
    if args.worker:
        worker(args.game, spec, args.positions)
        return 0
    if args.profile:
        import cProfile
        import pstats

        prof = cProfile.Profile(time.process_time)
        prof.runctx("worker(g, s, n)", globals(), {"g": args.game, "s": spec, "n": args.positions})
        prof.dump_stats("/tmp/netsearch.prof")
        pstats.Stats("/tmp/netsearch.prof").sort_stats("tottime").print_stats(25)
        return 0
    if args.calibrate:
        calibrate(args.game, args.calibrate, spec, args.positions, args.rounds)
        return 0
    if args.same_process:
        if not args.old:
            ap.error("name the old checkout")
        same_process(args.old, args.game, spec, args.positions, args.rounds)
        return 0
    if not args.old or not args.new:
        ap.error("name the old and the new checkout")
    cmd = [
        sys.executable,
        __file__,
        "--worker",
        "--game",
        args.game,
        "--spec",
        spec,
        "--positions",
        str(args.positions),
    ]
    got: dict[str, list[float]] = {"old": [], "new": []}
    for r in range(args.rounds):
        order = ("old", "new") if r % 2 == 0 else ("new", "old")
        for which in order:
            env = {**os.environ, "PYTHONPATH": getattr(args, which)}
            out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
            res = json.loads(out.stdout.strip().splitlines()[-1])
            got[which].append(1000 * res["cpu"] / res["decisions"])
        print(
            f"round {r + 1}: old {got['old'][-1]:.1f} ms, new {got['new'][-1]:.1f} ms a decision",
            file=sys.stderr,
        )
    _summary(args.game, spec, got)
    return 0


if __name__ == "__main__":
    sys.exit(main())
