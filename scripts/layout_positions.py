"""Choose the games of the browser layout guard (tests/web/test_layout_guard.py): for each file
of tests/data/layout/, the seed of the random choices (of the first 40) whose game comes to
every decision wanted soonest (tests/web/positions.py derives the game from its seeds).
Run from the repository root after a change to the rules or the cards made a file's game
miss a decision::

    .venv/bin/python scripts/layout_positions.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.positions import DATA, derive  # noqa: E402

ABOUT = (
    "A game of the browser layout guard (tests/web/test_layout_guard.py): its set-up, the "
    "shuffle's seed and the seed of its random choices, from which tests/web/positions.py "
    "derives its moves; 'wanted' are the decisions it must come to, 'positions' where it "
    "came to them when scripts/layout_positions.py chose the seeds (for reading only)."
)

#: file: the game, its players, options, shuffle seed and the decisions wanted
GAMES: dict[str, dict[str, Any]] = {
    "civ4-2p": {
        "game": "civ4",
        "players": 2,
        "options": {},
        "seed": 11,
        "wanted": [
            "draft",
            "settle",
            "start_discard",
            "collect",
            "purchase",
            "discard",
            "defend",
            "damage",
            "place",
            "walls",
            "purchase-plot",
            "purchase-build",
            "purchase-attack",
            "purchase-trade",
        ],
    },
    "carta-draft-4p": {
        "game": "carta",
        "players": 4,
        "options": {"deal": "draft", "teams": True},
        "seed": 5,
        "wanted": ["draft", "play", "hidden", "effects", "finished"],
    },
}


def choose(spec: dict[str, Any]) -> dict[str, Any]:
    best: dict[str, Any] | None = None
    for rs in range(40):
        rec = derive({**spec, "choices_seed": rs})
        if set(spec["wanted"]) <= rec["positions"].keys() and (
            best is None or len(rec["moves"]) < len(best["moves"])
        ):
            best = rec
    assert best is not None, f"no game comes to every one of {spec['wanted']}"
    return best


def main() -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    for name, spec in GAMES.items():
        rec = choose(spec)
        out = {
            "about": ABOUT,
            **spec,
            "choices_seed": rec["choices_seed"],
            "positions": {k: v["moves"] for k, v in rec["positions"].items()},
        }
        path = DATA / f"{name}.json"
        path.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n")
        print(f"{path.relative_to(ROOT)}: {len(rec['moves'])} moves; {out['positions']}")


if __name__ == "__main__":
    main()
