"""The civ4 balance page's opening table (issue 40), made again from the results files.

Reads ``civcards simulate --game civ4 --out`` rows, keeps the mirrors of the default
set-up (the default card set, every option at its default for the player count) and
answers the headline questions Q1, Q2, Q3, Q5, Q7 and Q8 under greedy play and under
search play (``civcards.games.civ4.report.current``). With no file it reads the study's
own: the greedy mirrors of ``studies/civ4-balance/data-reconstructed-3/`` and the search
mirrors' chunks of ``studies/civ4-balance/search-r3/``. ``--write`` puts the table into
the balance page between its markers (the rest of the page is left as it is), and the
budget arenas' table (``search-r3/budget/``, pooled by budget) between its own:

    python scripts/civ4_balance_current.py --write studies/civ4-balance/README.md
    python scripts/civ4_balance_current.py --json FILE.parquet ...

A file that is not a results file, or a page without the markers, is refused in one
sentence and nothing is written.
"""

from __future__ import annotations

import argparse
import glob
import json
import sys
from pathlib import Path
from typing import Any

from civcards.game_api import get_game
from civcards.games.civ4.report.current import current_table
from civcards.sim.rows import read_rows
from civcards.stats import wilson

STUDY = "studies/civ4-balance"
#: the study's files: greedy mirrors of the default set-up, and the search mirrors' chunks
DEFAULT_FILES = (
    f"{STUDY}/data-reconstructed-3/default-2p.parquet",
    f"{STUDY}/data-reconstructed-3/finish-2p.parquet",
    f"{STUDY}/data-reconstructed-3/mirror-3p-*.parquet",
    f"{STUDY}/data-reconstructed-3/mirror-4p-*.parquet",
    f"{STUDY}/search-r3/ismcts*-[234]p-c[0-9][0-9].parquet",
)
BEGIN = "<!-- civ4-balance:current:begin -->"
END = "<!-- civ4-balance:current:end -->"
#: the budget arenas (``search-r3/budget.sh``): ``civcards arena --json`` chunks
BUDGET_FILES = f"{STUDY}/search-r3/budget/ismcts*it-s[0-9][0-9].json"
BUDGET_BEGIN = "<!-- civ4-balance:budget:begin -->"
BUDGET_END = "<!-- civ4-balance:budget:end -->"
#: "beats greedy": the Wilson 95 % interval's low end above a half (beyond chance);
#: "by a margin": above this share (the study's first, stricter reading of "clearly")
CLEARLY = 0.60


def budget_table(paths: list[str]) -> str:
    """The budget arenas pooled by search bot: games, its wins (a shared victory split),
    the share with its Wilson 95 % interval, whether it beats greedy beyond chance (the
    interval's low end above 50 %) and whether by the margin :data:`CLEARLY`."""
    pooled: dict[str, list[float]] = {}
    for path in paths:
        chunk = json.loads(Path(path).read_text(encoding="utf-8"))
        (bot,) = [b for b in chunk["bots"] if b != "greedy"]
        got = pooled.setdefault(bot, [0.0, 0.0])
        got[0] += int(chunk["games_by_bot"][bot])
        got[1] += float(chunk["wins"][bot])
    out = [
        "| budget | games | search bot's wins | share (Wilson 95 %) | beats greedy? (low end > 50 %) "
        f"| by a margin? (low end > {100 * CLEARLY:.0f} %) |",
        "|---|---:|---:|---|---|---|",
    ]
    for bot, (n, w) in sorted(pooled.items(), key=lambda kv: int(kv[0].split(":")[1][:-2])):
        lo, hi = wilson(w, int(n))
        out.append(
            f"| `{bot}` | {int(n)} | {w:g} | {100 * w / n:.1f} % ({100 * lo:.1f}–{100 * hi:.1f} %) "
            f"| {'**yes**' if lo > 0.5 else 'no'} | {'**yes**' if lo > CLEARLY else 'no'} |"
        )
    return "\n".join(out)


def files(patterns: list[str]) -> list[str]:
    out: list[str] = []
    for pat in patterns:
        hits = sorted(glob.glob(pat))
        out += hits if hits else ([pat] if not any(c in pat for c in "*?[") else [])
    return out


def replace_block(page: str, block: str, begin: str = BEGIN, end: str = END) -> str:
    """``page`` with the text between the markers replaced by ``block``; ValueError if the
    page lacks them."""
    i, j = page.find(begin), page.find(end)
    if i < 0 or j < i:
        raise ValueError(f"the page has no {begin} … {end} markers")
    return page[: i + len(begin)] + "\n" + block.rstrip() + "\n" + page[j:]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", help="results files (default: the study's)")
    ap.add_argument("--json", action="store_true", help="print the table's figures as JSON")
    ap.add_argument("--write", metavar="PAGE", help="put the table into PAGE between its markers")
    args = ap.parse_args(argv)
    game = get_game("civ4")
    rows: list[dict[str, Any]] = []
    try:
        for f in files(args.files or list(DEFAULT_FILES)):
            rows += read_rows(f, game)
        out = current_table(rows)
        if args.write:
            page = Path(args.write)
            if not page.is_file():
                raise ValueError(f"{args.write!r} does not exist or is not a file")
            text = replace_block(page.read_text(encoding="utf-8"), out["markdown"])
            budgets = sorted(glob.glob(BUDGET_FILES))
            if budgets and BUDGET_BEGIN in text:
                text = replace_block(text, budget_table(budgets), BUDGET_BEGIN, BUDGET_END)
            page.write_text(text, encoding="utf-8")
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    elif not args.write:
        print(out["markdown"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
