"""Compare civ4 tuning candidates side by side: the balance report's answers (Q1, Q2,
Q3, Q5, Q7, Q8) for each results file of ``civcards simulate --game civ4 --out``.

    python scripts/civ4_candidates.py studies/civ4-tuning/r3/*-2p.parquet

Prints one Markdown table: a row per figure, a column per file (the measured value,
with ✓ where the target is met and ✗ where it is not).

The questions other than Q1 read mirrors under the rules as written; ``--as-rules``
reads rows played with ``finish_round`` (the platform's default at 2 players since
issue 40) as if they were, so that such candidates can be compared on every question
(Q1 then shows the seats of those games under the label of the rules as written).
"""

from __future__ import annotations

import argparse
import inspect
import re
import sys
from pathlib import Path

from civcards.games.civ4 import report
from civcards.sim.rows import read_rows

QUESTIONS = ("q1", "q2", "q3", "q5", "q7", "q8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--only", default=",".join(QUESTIONS), help="questions, e.g. q1,q5")
    ap.add_argument(
        "--as-rules", action="store_true", help="read finish_round rows as the rules as written"
    )
    a = ap.parse_args(argv)
    columns: list[dict[str, str]] = []
    order: list[str] = []
    for f in a.files:
        try:
            rows = read_rows(f)
        except (OSError, ValueError) as e:
            print(f"error: {f} cannot be read ({e}).", file=sys.stderr)
            return 2
        if a.as_rules:
            rows = [dict(r, finish_round=False) for r in rows]
        col: dict[str, str] = {}
        for q in a.only.split(","):
            fn = report.QUESTIONS.get(q.strip().upper())
            if fn is None:
                print(f"error: {q!r} is not a question of the report.", file=sys.stderr)
                return 2
            # the questions that draw a plot take a folder: none here
            ans = fn(rows, None) if "folder" in inspect.signature(fn).parameters else fn(rows)
            for ln in ans.lines:
                # a label's last parenthesis counts games or quotes a percentile: not part
                # of the figure's name, so the files' rows line up
                label = f"{ans.key} {re.sub(r' [(][^()]*[)]$', '', ln['label'])}"
                mark = {True: " ✓", False: " ✗", None: ""}[ln["met"]]
                col[label] = f"{ln['measured']}{mark}"
                if label not in order:
                    order.append(label)
        col["games"] = str(
            len({r["seed"] for r in rows}) if rows and "seed" in rows[0] else len(rows)
        )
        columns.append(col)
    names = [f.stem for f in a.files]
    print("| figure | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    print("| games | " + " | ".join(c["games"] for c in columns) + " |")
    for label in order:
        print(f"| {label} | " + " | ".join(c.get(label, "—") for c in columns) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
