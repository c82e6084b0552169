"""Pool the JSON results of several ``civcards arena --json`` runs of the same bots.

An arena too long for one sitting is run in chunks (one seed each, every chunk a whole
number of seating cycles); this adds the chunks up: games, wins (a shared victory split
among its winners, as the arena counts it), the win share with its Wilson 95 % interval,
wins by seat, and the mean seconds a move weighted by moves.

    python scripts/pool_arenas.py arenas/2p_s*.json
    python scripts/pool_arenas.py --json arenas/3p_s*.json

The chunks must name the same bots, players and options; a chunk that does not is
refused in one sentence.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from civcards.stats import wilson


def pool(chunks: list[dict[str, Any]], names: list[str]) -> dict[str, Any]:
    first = chunks[0]
    key = (first["bots"], first["players"], first.get("options"))
    out: dict[str, Any] = {
        "bots": first["bots"],
        "players": first["players"],
        "options": first.get("options"),
        "chunks": len(chunks),
        "seeds": [c.get("seed") for c in chunks],
        "balanced": all(c.get("balanced", False) for c in chunks),
        "by_bot": {},
    }
    games = 0
    for c, name in zip(chunks, names, strict=True):
        if (c["bots"], c["players"], c.get("options")) != key:
            raise ValueError(
                f"{name} is an arena of other bots, players or options than {names[0]}"
            )
        games += int(c["games"])
    out["games"] = games
    for bot in first["bots"]:
        n = sum(int(c["games_by_bot"][bot]) for c in chunks)
        w = sum(float(c["wins"][bot]) for c in chunks)
        seats = first["players"]
        by_seat = [sum(float(c["wins_by_seat"][bot][s]) for c in chunks) for s in range(seats)]
        n_seat = [sum(int(c["games_by_seat"][bot][s]) for c in chunks) for s in range(seats)]
        moves = sum(int(c["moves_by_bot"][bot]) for c in chunks)
        secs = sum(float(c["seconds_per_move"][bot]) * int(c["moves_by_bot"][bot]) for c in chunks)
        lo, hi = wilson(w, n)
        out["by_bot"][bot] = {
            "games": n,
            "wins": w,
            "win_rate": w / n if n else 0.0,
            "ci95": [lo, hi],
            "fair_share": 1 / seats,
            "times_fair": (w / n) * seats if n else 0.0,
            "wins_by_seat": by_seat,
            "games_by_seat": n_seat,
            "per_chunk": [float(c["wins"][bot]) for c in chunks],
            "seconds_per_move": secs / moves if moves else 0.0,
        }
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", type=Path, help="arena results (civcards arena --json)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    a = ap.parse_args(argv)
    chunks: list[dict[str, Any]] = []
    for f in a.files:
        try:
            chunks.append(json.loads(f.read_text(encoding="utf-8")))
        except (OSError, ValueError) as e:
            print(
                f"error: {f} is not an arena's JSON result ({e.__class__.__name__}).",
                file=sys.stderr,
            )
            return 2
    try:
        res = pool(chunks, [str(f) for f in a.files])
    except (KeyError, TypeError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if a.json:
        print(json.dumps(res, indent=1))
        return 0
    print(
        f"{res['games']} games, {res['players']} players, {res['chunks']} chunks, seatings balanced: {res['balanced']}"
    )
    for bot, r in res["by_bot"].items():
        lo, hi = r["ci95"]
        seat = ", ".join(
            f"{w:g}/{n}" for w, n in zip(r["wins_by_seat"], r["games_by_seat"], strict=True)
        )
        print(
            f"  {bot}: {r['wins']:g} of {r['games']} = {100 * r['win_rate']:.1f} % "
            f"(95 %: {100 * lo:.1f}–{100 * hi:.1f} %; {r['times_fair']:.2f}x fair); "
            f"by seat {seat}; {r['seconds_per_move']:.3f} s a move"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
