"""``civcards replay`` on civ4 records: the game is found from the record's ``format``
and the output is NOTATION.md's position JSON (C72 and clarification 24 for ``--seat``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "civ4-notation-examples"
NAMES = sorted(p.name[: -len(".expected.json")] for p in EXAMPLES.glob("*.expected.json"))


def replay(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "civcards.cli", "replay", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("name", NAMES)
def test_replay_cli_matches_the_notation_examples(name: str) -> None:
    """The examples' exact output through the command line (NOTATION.md, 'How to compare')."""
    out = replay(str(EXAMPLES / f"{name}.json"), "--json", "--legal")
    expected = json.loads((EXAMPLES / f"{name}.expected.json").read_text())
    got = json.loads(out.stdout)
    assert out.returncode == (0 if expected["ok"] else 1)
    if isinstance(expected["error"], str):
        assert isinstance(got["error"], str) and got["error"]
        got["error"] = expected["error"]
    assert got == expected


def test_replay_cli_seat_view_hides_the_other_hands() -> None:
    """C72, clarification 24: --seat S shows the other hands as their sizes."""
    out = replay(str(EXAMPLES / "combat-3p.json"), "--json", "--seat", "1", "--legal")
    assert out.returncode == 0
    got = json.loads(out.stdout)
    hands = [p["hand"] for p in got["players"]]
    assert isinstance(hands[1], list)
    assert isinstance(hands[0], int) and isinstance(hands[2], int)


def test_replay_cli_invalid_record_is_exit_2_with_one_sentence(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "civ4-notation/1", "players": 7, "seed": 1}))
    out = replay(str(bad), "--json")
    assert out.returncode == 2
    got = json.loads(out.stdout)
    assert got["ok"] is False and isinstance(got["error"], str) and got["error"]
