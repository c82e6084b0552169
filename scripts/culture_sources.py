"""Where the culture of Civilization: The Card Game comes from at the end of a game
(C49): technologies, buildings or wonders, over the records that
``civcards simulate --game civ4 --records DIR`` saves.

Q8 of the balance study finds the culture buildings idle; this tells whether Highest
Culture needs them at all:

    civcards simulate --game civ4 -p 2 -b greedy -n 300 --seed 77 -j 2 \\
        -O cards=reconstructed-2 --records /tmp/recs --no-progress
    python scripts/culture_sources.py /tmp/recs

It prints the share of the players' culture that each kind of card gives at the end,
and how many games end with a holder of Highest Culture who would hold it on their
technologies alone. A folder without civ4 records is refused in one sentence.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from civcards.civ4.game import GameState
from civcards.civ4.notation import replay


def sources(folder: Path) -> dict[str, Any]:
    """Culture by source over the finished games of ``folder`` (ValueError if none)."""
    by = {"technologies": 0, "buildings": 0, "wonders": 0}
    games = holders = on_techs = 0
    for f in sorted(folder.glob("*.json")):
        try:
            state = replay(f.read_text(encoding="utf-8")).state
        except Exception as e:  # the notation's errors and a foreign file's: one sentence
            raise ValueError(f"{f.name} is not a civ4 record ({e})") from None
        if not state.finished:
            continue
        cs = state.cs
        games += 1
        techs = []
        for s in range(state.n):
            t = sum(cs.techs[c].culture for c in state.techs[s])
            techs.append(t)
            by["technologies"] += t
            for plot in state.plots[s]:
                for c in plot[2]:
                    card = cs.deck[c]
                    by["buildings" if card.kind == "building" else "wonders"] += card.culture
        h = state.highest_culture()
        if h is not None:
            holders += 1
            # the engine's own holder rule (C49, RU19), fed the technologies' culture only
            if GameState._highest(techs, cs.culture_minimum) == h:
                on_techs += 1
    if games == 0:
        raise ValueError(f"{folder} holds no finished civ4 record (*.json)")
    total = sum(by.values()) or 1
    return {
        "games": games,
        "culture": by,
        "shares": {k: v / total for k, v in by.items()},
        "holders": holders,
        "holders_on_technologies_alone": on_techs,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path, help="a folder of records (civcards simulate --records)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    a = ap.parse_args(argv)
    if not a.folder.is_dir():
        print(f"error: {a.folder} is not a folder", file=sys.stderr)
        return 2
    try:
        out = sources(a.folder)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if a.json:
        print(json.dumps(out, indent=1))
        return 0
    sh = out["shares"]
    print(
        f"{out['games']} games; culture at the end: technologies {100 * sh['technologies']:.1f} %, "
        f"buildings {100 * sh['buildings']:.1f} %, wonders {100 * sh['wonders']:.1f} %"
    )
    print(
        f"Highest Culture held at the end in {out['holders']} games, "
        f"{out['holders_on_technologies_alone']} of them on technologies alone"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
