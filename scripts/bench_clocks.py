"""What a clock costs a stored move at the web table (BENCHMARKS.md).

    .venv/bin/python scripts/bench_clocks.py --moves 300 --runs 3

The server's own table (:class:`civcards.server.core.TableServer`) over a real SQLite
file stores ``--moves`` random whole moves of two-player CIV games through
``TableServer.move`` (checked, stored in one transaction, made live; nobody connected),
once without the clocks and once with them (:class:`civcards.server.clocks.Clocks`, a
per-game clock with an increment: the clock's row is written in each move's
transaction). The two are interleaved ``--runs`` times; the median of each is printed
(milliseconds per stored move).
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import random
import statistics
import tempfile
import time
from pathlib import Path

from civcards.server.clocks import Clocks, check_clock
from civcards.server.core import TableServer
from civcards.server.db import make_engine, migrate


async def per_move(with_clocks: bool, moves: int, seed: int) -> float:
    """Seconds per stored move over ``moves`` moves."""
    folder = Path(tempfile.mkdtemp(prefix="civcards-bench-"))
    engine = make_engine(f"sqlite:///{folder / 'bench.db'}")
    migrate(engine)
    server = TableServer(engine, bot_delay=60, allow_seed=True)
    clock = None
    if with_clocks:
        clocks = Clocks(server)
        clocks.service.open()
        clock = check_clock("carta", {"type": "game", "base": 3600, "increment": 5})
    rng = random.Random(seed)
    spent = 0.0
    made = 0
    while made < moves:
        live, _ = server.create(
            kind="carta",
            players=2,
            options={},
            seats=[{"kind": "human"}, {"kind": "human"}],
            seed=rng.randrange(10**6),
            clock=clock,
        )
        while not live.finished and made < moves:
            finals = [c.text for c in live.game.choices(live.state) if c.final]
            if not finals:  # only steps (a hidden one): start another game
                break
            start = time.perf_counter()
            await server.move(live, live.state.to_move, rng.choice(finals), len(live.moves))
            spent += time.perf_counter() - start
            made += 1
    await server.stop()
    engine.dispose()
    return spent / made


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=300)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    got: dict[bool, list[float]] = {False: [], True: []}
    for run in range(args.runs):
        for with_clocks in (False, True):
            got[with_clocks].append(await per_move(with_clocks, args.moves, run))
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    for with_clocks in (False, True):
        runs = ", ".join(f"{x * 1000:.2f}" for x in got[with_clocks])
        median = statistics.median(got[with_clocks]) * 1000
        print(f"clocks={with_clocks}: median {median:.2f} ms per stored move (runs: {runs})")


if __name__ == "__main__":
    asyncio.run(main())
