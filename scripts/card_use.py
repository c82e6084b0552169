"""How often each building of Civilization: The Card Game is built, per copy drawn, in
``civcards simulate --game civ4 --out`` rows, grouped by the bots that played them.

Q8 of the balance study (studies/civ4-balance/) measures card use in greedy mirrors only;
this script reads any rows (search-bot mirrors, archetypes) so that one can tell a card
no bot builds from a card one bot does not value:

    python scripts/card_use.py studies/civ4-balance/q8-search/*.parquet
    python scripts/card_use.py --codes LIB,TMP,MNM,THT --json FILE.parquet

Every figure is copies built over copies drawn, summed over the games, with the report's
95 % interval (and, for rows that name what each seat built, ``builds_s``, the win share
of the seats that built that building: ``wins``, and of those that built an economy
building, Granary, Forge, Market or Harbor: the group's ``economy``) (the delta method over games, ``civcards.stats.ratio_interval``). A
destroyed building returns to its owner's hand (C45) and may be built again, so a share
can pass 100 %.
A file that is not a results file is refused in one sentence.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from typing import Any

from civcards.civ4.cards import CARDS
from civcards.game_api import get_game
from civcards.games.civ4.sim import BUILD_CODES
from civcards.sim.rows import read_rows
from civcards.stats import ratio_interval as ratio_ci


def buildings() -> list[str]:
    """The building codes of the rows (wonders excluded: Q8 counts them by game)."""
    return [c for c in BUILD_CODES if CARDS.deck[c].kind == "building"]


def group_key(row: dict[str, Any]) -> str:
    """The bots of a game in any seating (rotated games go together), with the player
    count and the card set."""
    p = int(row["players"])
    bots = sorted(str(row.get(f"bot_{i}") or "") for i in range(p))
    name = bots[0] if len(set(bots)) == 1 else ",".join(bots)
    return f"{p}p {name} ({row.get('cards') or 'reconstructed-1'})"


#: the economy buildings (C52's doubling of a plot's base), the yardstick of a builder's wins
ECONOMY = ("GRN", "FRG", "MKT", "HRB")


def seat_builds(row: dict[str, Any], seat: int) -> set[str]:
    """The codes that ``seat`` built in the game of ``row`` (its ``builds_s`` column)."""
    text = row.get(f"builds_{seat}") or ""
    return {pair.split(":")[0] for pair in str(text).split()}


def builder_wins(rows: list[dict[str, Any]], codes: tuple[str, ...] | list[str]) -> dict[str, Any]:
    """The win share of the seats that built any of ``codes`` in a game, with its interval
    (a shared victory counts a win for each winner, as the report counts it)."""
    pairs: list[tuple[float, float]] = []
    for r in rows:
        p = int(r["players"])
        seats = [s for s in range(p) if seat_builds(r, s) & set(codes)]
        if seats:
            pairs.append((float(sum(int(r[f"win_{s}"] or 0) for s in seats)), float(len(seats))))
    if not pairs:
        return {"seats": 0, "share": None, "low": None, "high": None}
    share, lo, hi = ratio_ci(pairs)
    return {"seats": int(sum(d for _, d in pairs)), "share": share, "low": lo, "high": hi}


def card_use(rows: list[dict[str, Any]], codes: list[str]) -> dict[str, dict[str, Any]]:
    """Per group of bots: games, and per code built, drawn, share and its interval (and
    the builders' win share where the rows name each seat's buildings)."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[group_key(r)].append(r)
    out: dict[str, dict[str, Any]] = {}
    for key in sorted(groups):
        g = groups[key]
        per: dict[str, Any] = {}
        for c in codes:
            pairs = [(float(r[f"built_{c}"]), float(r[f"drawn_{c}"])) for r in g]
            share, lo, hi = ratio_ci(pairs)
            per[c] = {
                "built": int(sum(b for b, _ in pairs)),
                "drawn": int(sum(d for _, d in pairs)),
                "share": share,
                "low": lo,
                "high": hi,
            }
            if "builds_0" in g[0]:
                per[c]["wins"] = builder_wins(g, [c])
        out[key] = {"games": len(g), "cards": per}
        if "builds_0" in g[0]:
            out[key]["economy"] = builder_wins(g, ECONOMY)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", help="results files (.parquet, .csv, .csv.gz)")
    ap.add_argument("--codes", help="comma-separated building codes (default: every building)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    a = ap.parse_args(argv)
    known = buildings()
    codes = known if not a.codes else [c.strip().upper() for c in a.codes.split(",")]
    bad = [c for c in codes if c not in known]
    if bad:
        print(
            f"error: {', '.join(bad)} is not a building code (buildings: {', '.join(known)})",
            file=sys.stderr,
        )
        return 2
    rows: list[dict[str, Any]] = []
    game = get_game("civ4")
    try:
        for f in a.files:
            rows += read_rows(f, game)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if not rows:
        print("error: the files hold no games", file=sys.stderr)
        return 2
    if f"built_{codes[0]}" not in rows[0]:
        print("error: these rows are not rows of civ4 (no built_ columns)", file=sys.stderr)
        return 2
    result = card_use(rows, codes)
    if a.json:
        print(json.dumps(result, indent=1))
        return 0
    for key, v in result.items():
        print(f"{key}: {v['games']} games")
        if "economy" in v and v["economy"]["seats"]:
            eco = v["economy"]
            print(
                f"  economy builders ({', '.join(ECONOMY)}) win {100 * eco['share']:.1f} % of "
                f"{eco['seats']} seats (95 %: {100 * eco['low']:.1f}–{100 * eco['high']:.1f} %)"
            )
        for c, f in v["cards"].items():
            name = CARDS.names.get(c, c)
            if f["drawn"] == 0:
                print(f"  {name} ({c}): never drawn")
                continue
            if f["built"] == 0:
                print(f"  {name} ({c}): 0 built of {f['drawn']} drawn")
                continue
            w = f.get("wins") or {}
            won = (
                f"; its builders win {100 * w['share']:.1f} % of {w['seats']} seats "
                f"(95 %: {100 * w['low']:.1f}–{100 * w['high']:.1f} %)"
                if w.get("seats")
                else ""
            )
            print(
                f"  {name} ({c}): {f['built']} built of {f['drawn']} drawn = "
                f"{100 * f['share']:.1f} % (95 %: {100 * max(0.0, f['low']):.1f}–"
                f"{100 * f['high']:.1f} %){won}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
