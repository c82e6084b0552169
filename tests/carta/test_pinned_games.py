"""CIV plays exactly as before issue 16: pinned ``simulate --records`` games.

``tests/data/pinned/runs.json`` lists ``civcards simulate`` runs (random,
greedy and ismcts bots; 2, 3 and 4 players; the draft, the team game, rotated
seatings). Their records were written by the code before the game interface
(commit 870fae3); the same runs today must write the same games: the same
deck, start, moves, winners and names.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from civcards.cli import app

PINNED = Path(__file__).parents[1] / "data" / "pinned"
RUNS: dict[str, list[str]] = json.loads((PINNED / "runs.json").read_text())["runs"]
KEYS = ("format", "players", "deal", "teams", "deck", "start", "moves", "result", "names")


def _load(path: Path) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return out


@pytest.mark.parametrize("name", sorted(RUNS))
def test_pinned_run_writes_the_same_games(name: str, tmp_path: Path) -> None:
    args = RUNS[name]
    result = CliRunner().invoke(
        app, ["simulate", "--no-progress", "--json", "--records", str(tmp_path), *args]
    )
    assert result.exit_code == 0, result.output
    pinned = sorted(PINNED.glob(f"{name}-game-*.json"))
    assert pinned, f"no pinned record for run {name!r}"
    written = sorted(tmp_path.glob("game-*.json"))
    assert [p.name for p in written] == [p.name.removeprefix(f"{name}-") for p in pinned]
    for old_path, new_path in zip(pinned, written, strict=True):
        old, new = _load(old_path), _load(new_path)
        for key in KEYS:
            assert new.get(key) == old.get(key), f"{name}/{new_path.name}: {key} differs"


def test_every_pinned_record_belongs_to_a_run() -> None:
    for path in PINNED.glob("*-game-*.json"):
        assert path.name.split("-game-")[0] in RUNS, path.name
