"""NOTATION.md's examples: ``replay NAME.json --json --legal`` prints NAME.expected.json.

Each example is compared after JSON parsing; ``error`` is free text, so only its
null-ness is compared (notation-examples/README.md). The exit status is the
README's table (clarifications 7, 8 and 23 for the illegal move).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from civcards.civ4 import replay_cli

DATA = Path(__file__).resolve().parent.parent / "data" / "civ4-notation-examples"
EXIT = {
    "opening-2p": 0,
    "combat-3p": 0,
    "illegal-move-3p": 1,
    "last-tech-4p": 0,
    "variant-finish-round-hand-limit-2p": 0,
    "chance-2p": 0,
}


def test_every_example_is_listed() -> None:
    names = {p.name[: -len(".json")] for p in DATA.glob("*.json") if not p.name.endswith(".expected.json")}
    assert names == set(EXIT)


@pytest.mark.parametrize("name", sorted(EXIT))
def test_example_matches_expected(name: str) -> None:
    """C1-C72 end to end: each record replays to exactly its expected position JSON."""
    text = (DATA / f"{name}.json").read_text(encoding="utf-8")
    expected = json.loads((DATA / f"{name}.expected.json").read_text(encoding="utf-8"))
    status, out = replay_cli(text, json_out=True, legal=True, seat=None)
    assert "\n" not in out
    got = json.loads(out)
    assert status == EXIT[name]
    if expected["error"] is None:
        assert got["error"] is None
    else:
        assert isinstance(got["error"], str) and got["error"]
    got.pop("error")
    expected.pop("error")
    assert got == expected


def test_illegal_example_names_rule_c43() -> None:
    """C43: the illegal block is reported with its rule and move index."""
    status, out = replay_cli((DATA / "illegal-move-3p.json").read_text(), json_out=True, legal=False, seat=None)
    got = json.loads(out)
    assert status == 1 and got["move_index"] == 184 and "C43" in got["error"]
    assert "legal" not in got


@pytest.mark.parametrize("name", sorted(EXIT))
def test_example_seat_view_hides_other_hands(name: str) -> None:
    """C72, clarification 24: --seat S replaces the other hands by their sizes."""
    text = (DATA / f"{name}.json").read_text(encoding="utf-8")
    full = json.loads(replay_cli(text, json_out=True, legal=True, seat=None)[1])
    for seat in range(len(full["players"])):
        status, out = replay_cli(text, json_out=True, legal=True, seat=seat)
        view = json.loads(out)
        assert status == EXIT[name]
        for s, pj in enumerate(view["players"]):
            if s == seat:
                assert pj["hand"] == full["players"][s]["hand"]
            else:
                assert pj["hand"] == len(full["players"][s]["hand"])
        assert view["legal"] == (full["legal"] if full["to_move"] == seat else [])
        for k in full:
            if k not in ("players", "legal"):
                assert view[k] == full[k]
