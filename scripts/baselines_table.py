"""The baselines table: one arena a game, each bot's openskill rating, win share and speed.

Reads the JSON lines of arena games (``studies/baselines/play.py``'s chunks, or
``scripts/arena_lines.py play``'s file: one game a line), one arena a game, and sums
them up in the order of the games with the arena's own code
(:func:`civcards.sim.arena.summarize`): games, wins (a shared victory split), the win
share with its Wilson 95 % interval, and openskill's Plackett-Luce rating (mu, sigma
and the ordinal mu - 3 sigma), exactly what ``civcards arena --game G --bots B -n N
--seed S --json`` gives when the lines hold that arena's games 0 to N-1. Beside them,
each bot's speed measured in the same games: milliseconds of CPU a decision and seconds
of CPU a game (the process's CPU time, which other work on a shared machine does not
stretch; the wall-clock time too, in ``--json``).

An arena not yet complete gives a provisional table, which says how many of its games
it holds; games missing in the middle are left out of the order and said.

    python scripts/baselines_table.py studies/baselines/carta studies/baselines/civ4
    python scripts/baselines_table.py studies/baselines/carta studies/baselines/civ4 \\
        --write docs/research.md

``--write FILE`` puts each game's table between the lines ``<!-- baselines:GAME -->``
and ``<!-- /baselines:GAME -->`` of FILE (both must be there), leaving the rest as it was.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from civcards.game_api import get_game
from civcards.sim.arena import ArenaConfig, ArenaSummary, seatings, summarize
from civcards.sim.simulate import GameResult
from civcards.stats import wilson

#: what every game's line has
FIELDS = {"bots", "players", "seed", "n", "i", "result"}


class TableError(ValueError):
    """Input that cannot make a table: its message is one sentence."""


@dataclass
class Arena:
    """The games of one arena present in the lines, in the order of their index."""

    game: str
    bots: tuple[str, ...]
    players: int
    seed: int
    n: int
    results: list[GameResult]
    missing: list[int]


def read_games(paths: list[Path]) -> list[dict[str, Any]]:
    """Every game's line in ``paths`` (folders: their ``*.jsonl`` files); TableError for a
    path that is not there or a line that is not a game's."""
    files: list[Path] = []
    for p in paths:
        if p.is_dir():
            files += sorted(p.glob("*.jsonl"))
        elif p.is_file():
            files.append(p)
        else:
            raise TableError(f"{p} is neither a file nor a folder")
    out: list[dict[str, Any]] = []
    for f in files:
        for k, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                d = json.loads(line)
                if not isinstance(d, dict) or not d.keys() >= FIELDS:
                    raise ValueError
            except ValueError:
                raise TableError(f"{f}:{k} is not an arena game's JSON line") from None
            out.append(d)
    if not out:
        raise TableError(f"no arena games in {', '.join(str(p) for p in paths)}")
    return out


def arenas(lines: list[dict[str, Any]]) -> dict[str, Arena]:
    """The lines by game; TableError where one game's lines come from two arenas."""
    by_game: dict[str, Arena] = {}
    seen: dict[str, dict[int, GameResult]] = {}
    for d in lines:
        name = str(d.get("game", "civ4"))
        key = (tuple(d["bots"]), int(d["players"]), int(d["seed"]), int(d["n"]))
        a = by_game.get(name)
        if a is None:
            a = by_game[name] = Arena(name, *key, results=[], missing=[])
            seen[name] = {}
        elif (a.bots, a.players, a.seed, a.n) != key:
            raise TableError(
                f"the {name} games come from two arenas (seed {a.seed}, {a.n} games, "
                f"{len(a.bots)} bots, and seed {key[2]}, {key[3]} games, {len(key[0])} bots); "
                "give one arena a game"
            )
        i = int(d["i"])
        if not 0 <= i < a.n:
            raise TableError(f"a {name} line holds game {i} of an arena of {a.n} games")
        r = GameResult(**d["result"])
        if r.index != i:
            raise TableError(f"a {name} line says game {i} but holds game {r.index}")
        seen[name].setdefault(i, r)  # a game played twice (the same game): once
    for name, a in by_game.items():
        got = seen[name]
        a.results = [got[i] for i in sorted(got)]
        a.missing = [i for i in range(max(got) + 1) if i not in got]
    return by_game


def summary(a: Arena) -> ArenaSummary:
    game = get_game(a.game)
    options = a.results[0].options or game.check_options(a.players, {})
    cfg = ArenaConfig(
        bots=a.bots, games=len(a.results), players=a.players, seed=a.seed, options=options
    )
    return summarize(cfg, a.results)


def table(a: Arena) -> dict[str, Any]:
    """The arena's table: its games and, for each bot (best rated first), its row."""
    s = summary(a)
    cycle = len(seatings(a.bots, a.players))
    cpu: dict[str, float] = dict.fromkeys(a.bots, 0.0)
    wall: dict[str, float] = dict.fromkeys(a.bots, 0.0)
    decisions: dict[str, int] = dict.fromkeys(a.bots, 0)
    timed = all(len(r.cpu) == len(r.seats) for r in a.results)
    for r in a.results:
        for seat, b in enumerate(r.seats):
            decisions[b] += r.decisions[seat]
            wall[b] += r.think[seat]
            if timed:
                cpu[b] += r.cpu[seat]
    rows = []
    for b in s.ordered():
        mu, sigma = s.ratings[b]
        games = s.games.get(b, 0)
        lo, hi = wilson(s.wins.get(b, 0.0), games)
        dec = decisions[b]
        rows.append(
            {
                "bot": b,
                "games": games,
                "wins": round(s.wins.get(b, 0.0), 4),
                "win_share": round(s.win_rate(b), 4),
                "ci95": [round(lo, 4), round(hi, 4)],
                "mu": round(mu, 3),
                "sigma": round(sigma, 3),
                "ordinal": round(mu - 3 * sigma, 3),
                "decisions": dec,
                "cpu_ms_per_decision": round(1000 * cpu[b] / dec, 4) if timed and dec else None,
                "cpu_s_per_game": round(cpu[b] / games, 4) if timed and games else None,
                "wall_ms_per_decision": round(1000 * wall[b] / dec, 4) if dec else None,
            }
        )
    done = len(a.results)
    return {
        "game": a.game,
        "bots": list(a.bots),
        "players": a.players,
        "seed": a.seed,
        "arena_games": a.n,
        "games": done,
        "seatings": cycle,
        "whole_cycles": done // cycle if not a.missing else None,
        "missing": a.missing,
        "complete": done == a.n,
        "rows": rows,
    }


def _ms(x: float | None) -> str:
    if x is None:
        return "–"
    return f"{x:.3g}" if x < 10 else f"{x:,.0f}"


def markdown(t: dict[str, Any]) -> str:
    """The table in Markdown, with the line that says what it is."""
    state = (
        f"complete: all {t['games']} games"
        if t["complete"]
        else f"**provisional**: {t['games']} of the arena's {t['arena_games']} games"
    )
    head = (
        f"`{t['game']}`, {t['players']} players, {len(t['bots'])} bots, seed {t['seed']}, "
        f"{t['seatings']} seatings a cycle; {state}"
    )
    if t["missing"]:
        head += f"; games {', '.join(map(str, t['missing']))} missing"
    out = [
        head + ".",
        "",
        "| bot | games | win share (95 %) | μ | σ | ordinal | ms CPU a decision | s CPU a game |",
        "|---|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for r in t["rows"]:
        lo, hi = r["ci95"]
        share = (
            f"{100 * r['win_share']:.1f} % ({100 * lo:.0f}–{100 * hi:.0f})" if r["games"] else "–"
        )
        out.append(
            f"| `{r['bot']}` | {r['games']} | {share} | {r['mu']:.2f} | {r['sigma']:.2f} | "
            f"{r['ordinal']:.2f} | {_ms(r['cpu_ms_per_decision'])} | "
            f"{_ms(r['cpu_s_per_game'])} |"
        )
    return "\n".join(out) + "\n"


def write_into(path: Path, tables: list[dict[str, Any]]) -> None:
    """Each game's table between its markers in ``path``; TableError (and nothing
    written) where a marker is missing."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise TableError(f"cannot read {path} ({e.strerror})") from None
    for t in tables:
        start, end = f"<!-- baselines:{t['game']} -->", f"<!-- /baselines:{t['game']} -->"
        pattern = re.compile(re.escape(start) + r"\n.*?" + re.escape(end), re.S)
        if len(pattern.findall(text)) != 1:
            raise TableError(f"{path} has no one pair of lines {start} and {end}")
        block = f"{start}\n{markdown(t)}{end}"
        m = pattern.search(text)
        assert m is not None
        text = text[: m.start()] + block + text[m.end() :]
    path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="+", type=Path, help="lines files or folders of them")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--write", type=Path, metavar="FILE", help="put the tables into FILE")
    a = ap.parse_args(argv)
    try:
        tables = [table(x) for _, x in sorted(arenas(read_games(a.paths)).items())]
        if a.write is not None:
            write_into(a.write, tables)
    except (TableError, KeyError, TypeError) as e:
        what = e.args[0] if isinstance(e, TableError) else f"a line lacks {e}"
        print(f"error: {what}.", file=sys.stderr)
        return 2
    if a.json:
        print(json.dumps({t["game"]: t for t in tables}, indent=1, ensure_ascii=False))
    elif a.write is not None:
        for t in tables:
            print(f"{a.write}: the {t['game']} table, {t['games']} of {t['arena_games']} games")
    else:
        print("\n".join(markdown(t) for t in tables), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
