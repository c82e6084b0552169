"""The equal-time arenas' tallies as a Markdown table (issue 37): each lines file's games,
each bot's seats and wins (a shared win counts 1/k), its share of the seats it held with
the Wilson 95 % interval over them, that share against the fair one (1 / players: the
3- and 4-player target is 1.3 times it; an arena with fewer bots than seats gives a bot
one seat in some games and several in others), and its CPU milliseconds a decision from
the games' own records.

    .venv/bin/python studies/learning/equal-time/tally.py studies/learning/equal-time/*.jsonl
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from civcards.stats import wilson


def rows(path: Path) -> list[str]:
    games = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    if not games:
        return []
    bots: list[str] = list(dict.fromkeys(games[0]["bots"]))
    wins = dict.fromkeys(bots, 0.0)
    seats = dict.fromkeys(bots, 0)
    cpu = dict.fromkeys(bots, 0.0)
    decisions = dict.fromkeys(bots, 0)
    for g in games:
        res = g["result"]
        won = res["winners"]
        for seat, bot in enumerate(res["seats"]):
            seats[bot] += 1
            if seat in won:
                wins[bot] += 1 / len(won)
            cpu[bot] += res["cpu"][seat]
            decisions[bot] += res["decisions"][seat]
    n = len(games)
    players = int(games[0]["players"])
    out = []
    for bot in bots:
        k = max(1, seats[bot])
        lo, hi = wilson(wins[bot], k)
        ms = 1000 * cpu[bot] / max(1, decisions[bot])
        out.append(
            f"| `{path.name}` | `{bot}` | {n} | {seats[bot]} | {wins[bot]:g} | "
            f"{100 * wins[bot] / k:.1f} % ({100 * lo:.1f}–{100 * hi:.1f} %) | "
            f"{players * wins[bot] / k:.2f} | {ms:.0f} |"
        )
    return out


def main(argv: list[str]) -> None:
    print(
        "| file | bot | games | seats | wins | share of its seats (Wilson 95 %) "
        "| × the fair share | CPU ms a decision |"
    )
    print("|---|---|---:|---:|---:|---|---:|---:|")
    for name in argv:
        for line in rows(Path(name)):
            print(line)


if __name__ == "__main__":
    main(sys.argv[1:])
