"""Play the next chunk of one arena's games into a folder of JSON lines files.

An arena (``civcards arena``: every seating rotated, rated with openskill) too long for
one sitting is played here in order, game after game, into ``DIR/c000.jsonl``,
``DIR/c001.jsonl``, ...: one call plays the games no chunk holds yet until ``--minutes``
have passed (the game in progress is finished, not given up), then closes its chunk.
The lines are ``scripts/arena_lines.py play``'s (game ``i`` of the arena is a pure
function of the arena and ``i``: ``civcards arena`` plays the same games), so
``scripts/baselines_table.py`` pools the chunks into the arena's table and
``scripts/arena_lines.py assemble`` reads them too. The game's default set-up options are
played (no ``--option``).

While a chunk is played it is ``cNNN.jsonl.part``, one line written as each game ends;
a call after a kill first keeps the whole lines of a ``.part`` file as a chunk. Exit
status 0: a chunk written (its path printed); 3: every game of the arena is in DIR
already; 2: bad input (one sentence).

    python studies/baselines/play.py --game carta --bots random,greedy -n 840 --seed 37 \\
        --dir studies/baselines/carta --minutes 10
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from arena_lines import job_key, play_one, read_lines  # noqa: E402

from civcards.game_api import get_game  # noqa: E402
from civcards.sim.arena import ArenaConfig, check_arena, parse_bot_list  # noqa: E402

ALL_DONE = 3
USAGE = 2


def chunk_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("c*.jsonl"))


def salvage(folder: Path) -> list[Path]:
    """Turn each ``.part`` chunk left by a killed call into a chunk of its whole lines."""
    kept: list[Path] = []
    for part in sorted(folder.glob("c*.jsonl.part")):
        lines = read_lines(part)
        final = part.with_suffix("")
        if lines:
            final.write_text("".join(json.dumps(d) + "\n" for d in lines), encoding="utf-8")
            kept.append(final)
        part.unlink()
    return kept


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", required=True)
    ap.add_argument("--bots", required=True, help="the arena's bots, comma-separated")
    ap.add_argument("-p", "--players", type=int, default=2)
    ap.add_argument("-n", "--games", type=int, required=True, help="the arena's games")
    ap.add_argument("--seed", type=int, required=True, help="the arena's seed")
    ap.add_argument("--dir", type=Path, required=True, help="the folder of the chunks")
    ap.add_argument("--minutes", type=float, default=10.0, help="a chunk's playing time")
    ap.add_argument("--no-progress", dest="progress", action="store_false")
    a = ap.parse_args(argv)
    try:
        game = get_game(a.game)
        bots = parse_bot_list(a.bots)
        cfg = ArenaConfig(bots=bots, games=a.games, players=a.players, seed=a.seed)
        check_arena(cfg, game)
    except (KeyError, ValueError) as e:
        print(f"error: {str(e).strip(chr(39))}", file=sys.stderr)
        return USAGE
    try:
        a.dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        print(f"error: cannot make the folder {a.dir} ({e.strerror}).", file=sys.stderr)
        return USAGE
    arena = (a.game, bots, a.players, a.seed, a.games)
    for f in salvage(a.dir):
        print(f)
    done: set[int] = set()
    for f in chunk_files(a.dir):
        for d in read_lines(f):
            *key, i = job_key(d)
            if tuple(key) != arena:
                print(
                    f"error: {f} holds games of another arena ({d['game']}, seed {d['seed']}, "
                    f"{d['n']} games, bots {','.join(d['bots'])}); give another --dir.",
                    file=sys.stderr,
                )
                return USAGE
            done.add(i)
    todo = [i for i in range(a.games) if i not in done]
    if not todo:
        print(f"all {a.games} games of the arena are in {a.dir}", file=sys.stderr)
        return ALL_DONE
    k = 1 + max((int(f.stem[1:]) for f in chunk_files(a.dir) if f.stem[1:].isdigit()), default=-1)
    final = a.dir / f"c{k:03d}.jsonl"
    part = final.with_name(final.name + ".part")
    start = time.monotonic()
    played = 0
    with part.open("w", encoding="utf-8") as out:
        for i in todo:
            line = play_one((a.game, bots, a.players, a.seed, a.games, i))
            out.write(line + "\n")
            out.flush()
            played += 1
            if a.progress:
                r: dict[str, Any] = json.loads(line)["result"]
                won = ", ".join(r["seats"][w] for w in r["winners"]) or "nobody"
                print(
                    f"[{a.game} {len(done) + played}/{a.games}] game {i}: "
                    f"{' v '.join(r['seats'])}: {won} won",
                    file=sys.stderr,
                    flush=True,
                )
            if time.monotonic() - start >= 60 * a.minutes:
                break
    part.rename(final)
    print(final)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
