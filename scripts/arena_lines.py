"""Play an arena's games on many cores until a deadline, then sum up its whole chunks.

``civcards arena`` prints its summary only when every game is over, so an arena
cut short by a time limit (a borrowed machine for a few minutes, say) keeps nothing.
This plays the same games one by one and writes each as one JSON line the moment it
ends; ``assemble`` then turns the lines into one ``civcards arena --json`` summary per
seed, exactly what ``civcards arena --game G --bots B -p P -n N --seed S`` prints
(game ``i`` of an arena is a pure function of its config and ``i``), counting only
a whole number of seating cycles. Timings differ: ``seconds`` is the sum of the games'
wall-clock times, as one process would have taken them. The games are played with the
game's default set-up options (no ``--option``).

``play`` appends to ``--out`` and skips the games already in it (the same game, bots,
players, seed, ``-n`` and index), so the same command run again, on this machine or
another, goes on where the last one stopped.

    python scripts/arena_lines.py play --game civ4 -p 3 --bots ismcts:1000it,greedy,greedy:b \\
        -n 12 --seeds 309-317 --deadline 500 --out games.jsonl
    python scripts/arena_lines.py assemble games.jsonl --dir arenas/ --prefix 3p_s
    python scripts/pool_arenas.py arenas/3p_s*.json

``compare`` pairs the games two lines files share (the same arena and game index: the
same deal and seating), played by two versions of a bot, and counts the games the bot
won in both, in one only, and in neither, with a two-sided sign test on the games
whose result changed:

    python scripts/arena_lines.py compare before.jsonl after.jsonl --bot ismcts:1000it
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import sys
import time
from collections import defaultdict
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from civcards.game_api import get_game
from civcards.sim.arena import ArenaConfig, parse_bot_list, play_arena_game, seatings, summarize
from civcards.sim.simulate import GameResult

Job = tuple[str, tuple[str, ...], int, int, int, int]
#: what every game's line has
FIELDS = {"bots", "players", "seed", "n", "i", "result"}


def play_one(job: Job) -> str:
    """One game of an arena, as a JSON line."""
    game_name, bots, players, seed, n, i = job
    game = get_game(game_name)
    options = game.check_options(players, {})
    cfg = ArenaConfig(bots=bots, games=n, players=players, seed=seed, options=options)
    t = time.time()
    r = play_arena_game(cfg, i, game)
    d = dataclasses.asdict(r)
    d.pop("record", None)
    d.pop("extra", None)
    line = {"game": game_name, "bots": list(bots), "players": players, "seed": seed, "n": n}
    return json.dumps({**line, "i": i, "wall": time.time() - t, "result": d})


def seed_range(text: str) -> list[int]:
    """``309-317`` or ``5`` or ``1,3,8``."""
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def read_lines(path: Path, text: str | None = None) -> list[dict[str, Any]]:
    """The games of a lines file (``text``: its contents, when already read); a line that
    is not a game's JSON, such as one cut off when its writer was killed, is reported and
    left out."""
    if text is None:
        text = path.read_text(encoding="utf-8")
    out: list[dict[str, Any]] = []
    for k, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            d = json.loads(line)
            if not isinstance(d, dict) or not d.keys() >= FIELDS:
                raise ValueError
        except ValueError:
            print(f"{path}:{k}: not a game's JSON line; left out", file=sys.stderr)
            continue
        out.append(d)
    return out


def job_key(d: dict[str, Any]) -> Job:
    return (d.get("game", "civ4"), tuple(d["bots"]), d["players"], d["seed"], d["n"], d["i"])


def play(args: argparse.Namespace) -> int:
    bots = parse_bot_list(args.bots)
    out = Path(args.out)
    text = out.read_text(encoding="utf-8") if out.exists() else ""
    there = {job_key(d) for d in read_lines(out, text)}
    every: list[Job] = [
        (args.game, bots, args.players, s, args.games, i)
        for s in args.seeds
        for i in range(args.games)
    ]
    jobs = [j for j in every if j not in there]
    if len(jobs) < len(every):
        print(f"{len(every) - len(jobs)} of the {len(every)} games are already in {out}")
    start = time.time()
    end = start + args.deadline
    workers = args.jobs or os.cpu_count() or 1
    done = 0
    ex = ProcessPoolExecutor(workers)
    pending: set[Future[str]] = set()
    todo = iter(jobs)
    # a line left half-written (its writer killed) ends here, so the next game starts a line
    torn = bool(text) and not text.endswith("\n")
    with open(args.out, "a", encoding="utf-8") as f:
        if torn:
            f.write("\n")
        for _ in range(workers * 2):
            j = next(todo, None)
            if j is not None:
                pending.add(ex.submit(play_one, j))
        while pending and time.time() < end:
            fin, pending = wait(
                pending, timeout=max(0.1, end - time.time()), return_when=FIRST_COMPLETED
            )
            for fu in fin:
                line = fu.result()
                f.write(line + "\n")
                f.flush()
                done += 1
                if args.progress:
                    d = json.loads(line)
                    r = d["result"]
                    won = ", ".join(r["seats"][w] for w in r["winners"]) or "nobody"
                    print(
                        f"[{done}/{len(jobs)}, {time.time() - start:.0f} s] seed {d['seed']} "
                        f"game {d['i']}: {won} won ({d['wall']:.0f} s)",
                        file=sys.stderr,
                        flush=True,
                    )
                j = next(todo, None)
                if j is not None and time.time() < end:
                    pending.add(ex.submit(play_one, j))
    print(f"{done} games written to {args.out}; {len(pending)} unfinished at the deadline")
    if pending:  # the deadline: the games still running are given up, their workers ended
        for p in list((getattr(ex, "_processes", None) or {}).values()):
            p.kill()
        os._exit(0)
    ex.shutdown()
    return 0


def assemble(args: argparse.Namespace) -> int:
    chunks: dict[tuple[Any, ...], dict[int, GameResult]] = defaultdict(dict)
    walls: dict[tuple[Any, ...], float] = defaultdict(float)
    for path in args.lines:
        for d in read_lines(Path(path)):
            *key, i = job_key(d)
            chunks[tuple(key)][i] = GameResult(**d["result"])
            walls[(*key, i)] = float(d["wall"])
    Path(args.dir).mkdir(parents=True, exist_ok=True)
    for (game_name, bots, players, seed, n), games in sorted(chunks.items()):
        cycle = len(seatings(bots, players))
        whole = 0
        while whole < n and whole in games:
            whole += 1
        whole -= whole % cycle
        if whole == 0:
            print(f"seed {seed}: {len(games)} games, not one whole cycle of {cycle}: left out")
            continue
        game = get_game(game_name)
        options = game.check_options(players, {})
        cfg = ArenaConfig(bots=bots, games=whole, players=players, seed=seed, options=options)
        results = [games[i] for i in range(whole)]
        wall = sum(walls[(game_name, bots, players, seed, n, i)] for i in range(whole))
        summary = summarize(cfg, results, wall).to_json()
        out = Path(args.dir) / f"{args.prefix}{seed}.json"
        out.write_text(json.dumps(summary, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"seed {seed}: {whole} of {len(games)} games -> {out}")
    return 0


def sign_test(k: int, n: int) -> float:
    """Two-sided exact binomial test of ``k`` successes in ``n`` at one half.

    >>> round(sign_test(9, 10), 4), sign_test(0, 0)
    (0.0215, 1.0)
    """
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, j) for j in range(min(k, n - k) + 1)) / 2**n
    return float(min(1.0, 2 * tail))


def compare(args: argparse.Namespace) -> int:
    def wins(path: str) -> dict[Job, bool]:
        out: dict[Job, bool] = {}
        for d in read_lines(Path(path)):
            r = d["result"]
            out[job_key(d)] = args.bot in (r["seats"][w] for w in r["winners"])
        return out

    for path in (args.before, args.after):
        if not Path(path).is_file():
            print(f"{path}: no such file", file=sys.stderr)
            return 1
    before, after = wins(args.before), wins(args.after)
    both = sorted(set(before) & set(after))
    if not both:
        print("the two files share no game (the same arena and game index)", file=sys.stderr)
        return 1
    kept = sum(before[k] and after[k] for k in both)
    gained = sum(after[k] and not before[k] for k in both)
    lost = sum(before[k] and not after[k] for k in both)
    print(
        f"{len(both)} games in both: {args.bot} won {kept + lost} before, {kept + gained} after;"
        f" both {kept}, after only {gained}, before only {lost},"
        f" neither {len(both) - kept - gained - lost};"
        f" sign test on the {gained + lost} changed: p = {sign_test(gained, gained + lost):.3f}"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("play", help="play arena games until a deadline, one JSON line each")
    p.add_argument("--game", default="civ4")
    p.add_argument("--bots", required=True)
    p.add_argument("-p", "--players", type=int, default=2)
    p.add_argument("-n", "--games", type=int, required=True, help="games per seed")
    p.add_argument("--seeds", required=True, type=seed_range, help="e.g. 309-317")
    p.add_argument("--deadline", type=float, default=3600.0, help="seconds")
    p.add_argument("-j", "--jobs", type=int, default=0, help="processes (default: all CPUs)")
    p.add_argument("--out", required=True)
    p.add_argument(
        "--no-progress",
        dest="progress",
        action="store_false",
        help="no line on standard error as each game ends",
    )
    a = sub.add_parser("assemble", help="sum the lines up, one arena summary per seed")
    a.add_argument("lines", nargs="+")
    a.add_argument("--dir", required=True)
    a.add_argument("--prefix", default="arena_s")
    c = sub.add_parser("compare", help="the games two lines files share, won before and after")
    c.add_argument("before")
    c.add_argument("after")
    c.add_argument("--bot", required=True, help="the bot whose wins are compared")
    args = ap.parse_args(argv)
    if args.cmd == "compare":
        return compare(args)
    return play(args) if args.cmd == "play" else assemble(args)


if __name__ == "__main__":
    sys.exit(main())
