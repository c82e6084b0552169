"""NOTATION.md: moves and records both ways, the replay command and its exit codes."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from civcards.carta import (
    Move,
    NotationError,
    format_move,
    new_game,
    parse_move,
    parse_record,
    write_record,
)
from civcards.carta.cards import canonical
from civcards.carta.moves import KINDS
from tests.carta.randgames import CONFIGS, start, walk
from tests.shared import EXAMPLES


def run_replay(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "civcards.cli", "replay", *args],
        capture_output=True,
        text=True,
        input=None if stdin is None else stdin.decode("latin-1"),
        timeout=60,
    )


def example_names() -> list[str]:
    return sorted(p.name[: -len(".expected.json")] for p in EXAMPLES.glob("*.expected.json"))


@pytest.mark.parametrize("name", example_names())
def test_notation_examples_replay_exactly(name: str) -> None:
    """`civcards replay NAME.json --json` prints NAME.expected.json (R1-R25 via the records)."""
    expected = json.loads((EXAMPLES / f"{name}.expected.json").read_text())
    args = [str(EXAMPLES / f"{name}.json"), "--json"]
    if "legal" in expected:
        args.append("--legal")
    proc = run_replay(*args)
    assert proc.returncode == (1 if expected["ok"] is False else 0), proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1, "the position is printed on one line"
    got = json.loads(lines[0])
    if expected["error"] is not None:
        assert isinstance(got["error"], str) and got["error"].endswith(("d", "e", ")", "."))
        assert len(got["error"].split()) >= 4
        expected["error"] = got["error"]
    assert got == expected


def test_move_round_trip_on_random_games() -> None:
    """parse(write(m)) == m and write(parse(s)) == s for every legal move seen."""
    rng = random.Random(9)
    seen: set[str] = set()
    for i in range(120):
        g = start(CONFIGS[i % len(CONFIGS)], i)
        for state in walk(g, rng):
            for m in state.legal_moves():
                text = format_move(m)
                assert str(m) == text
                assert parse_move(text) == m
                seen.add(text.split()[0])
    assert seen >= {"play", "end", "keep", "take", "attack", "inquisition", "discovery"}


@pytest.mark.parametrize(
    ("loose", "canon"),
    [
        ("  PLAY   m ", "play M"),
        ("purge sm", "purge MS"),
        ("Inquisition 2 GIVE usm", "inquisition 2 give MSU"),
        ("monopoly discard UM play SE", "monopoly discard MU play ES"),
        ("research return cc play sc", "research return CC play SC"),
        ("discovery discard UUSMC", "discovery discard MSCUU"),
        ("discovery", "discovery"),
        ("inquisition 1", "inquisition 1"),
        ("development discard E", "development discard E"),
        ("inspiration 3 experiment return C play C", "inspiration 3 experiment return C play C"),
        ("inspiration 0 DivineRight", "inspiration 0 divineright"),
        ("embargo 1 s", "embargo 1 S"),
        ("democracy 0 r", "democracy 0 R"),
        ("republic take UM", "republic take MU"),
        ("END", "end"),
    ],
)
def test_reader_accepts_spaces_and_case_writer_is_canonical(loose: str, canon: str) -> None:
    assert format_move(parse_move(loose)) == canon
    assert format_move(parse_move(canon)) == canon


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "fly M",
        "play X",
        "play",
        "play M S",
        "inquisition A give M",
        "inquisition 1 take M",
        "inquisition 12 give M",
        "development M",
        "development discard M play",
        "discovery take MMSSC",
        "inspiration 1 attack M",
        "inspiration 1 inspiration 2 holybook",
        "inspiration holybook",
        "end now",
        "oligarchy M",
    ],
)
def test_unreadable_moves_raise_a_sentence(text: str) -> None:
    with pytest.raises(NotationError) as err:
        parse_move(text)
    assert len(str(err.value).split()) >= 2


def test_canonical_card_order() -> None:
    assert canonical("SMS") == "MSS"
    assert canonical("ucsermm") == "MMRESCU"
    assert str(Move("purge", cards="MS")) == "purge MS"


def test_record_written_by_engine_holds_deck_and_start() -> None:
    g = new_game(3, seed="abc")
    rec = json.loads(write_record(g))
    assert rec["format"] == "civ-notation/1"
    assert len(rec["deck"]) == 95 and rec["start"] == g.start
    assert "seed" not in rec and rec["moves"] == []
    g4 = new_game(4, teams=True, seed=4)
    assert len(json.loads(write_record(g4))["deck"]) == 104


def test_record_with_seed_only_shuffles_deterministically(tmp_path: Path) -> None:
    text = json.dumps({"format": "civ-notation/1", "players": 2, "seed": 77, "moves": ["play M"]})
    a = parse_record(text).new_state()
    b = new_game(2, seed=77)
    assert a.deck_letters == b.deck_letters and a.start == b.start


GOOD = {"format": "civ-notation/1", "players": 2, "deal": "basic", "start": 0, "seed": 1}


def _deck2() -> str:
    return new_game(2, seed=1).deck_letters


MALFORMED = [
    ("not json", b"{players: 2"),
    ("not an object", b"[1, 2, 3]"),
    ("binary garbage", b"\xff\xfe\x00\x81"),
    ("wrong format", json.dumps({**GOOD, "format": "pgn"}).encode()),
    ("five players", json.dumps({**GOOD, "players": 5}).encode()),
    ("players as text", json.dumps({**GOOD, "players": "2"}).encode()),
    ("players true", json.dumps({**GOOD, "players": True}).encode()),
    ("bad deal", json.dumps({**GOOD, "deal": "auction"}).encode()),
    ("teams with 2", json.dumps({**GOOD, "teams": True}).encode()),
    ("start out of range", json.dumps({**GOOD, "start": 2}).encode()),
    ("no deck nor seed", json.dumps({k: v for k, v in GOOD.items() if k != "seed"}).encode()),
    ("moves not a list", json.dumps({**GOOD, "moves": "play M"}).encode()),
    ("unknown key", json.dumps({**GOOD, "move": ["play M"]}).encode()),
    ("wrong letters", json.dumps({**GOOD, "deck": "X" * 95}).encode()),
    ("deck too short", json.dumps({**GOOD, "deck": _deck2()[:-1]}).encode()),
    (
        "impossible deck",  # era I cannot hold Utopia cards (R1)
        json.dumps({**GOOD, "deck": "U" + _deck2()[1:]}).encode(),
    ),
    ("names wrong", json.dumps({**GOOD, "names": ["a"]}).encode()),
]


@pytest.mark.parametrize(("label", "data"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_records_exit_2_with_a_sentence(label: str, data: bytes, tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(data)
    proc = run_replay(str(path), "--json")
    assert proc.returncode == 2, (label, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stdout + proc.stderr
    out = json.loads(proc.stdout)
    assert out["ok"] is False
    assert isinstance(out["error"], str) and len(out["error"].split()) >= 3
    plain = run_replay(str(path))
    assert plain.returncode == 2 and "error:" in plain.stderr and "Traceback" not in plain.stderr


def test_missing_file_and_folder_exit_2(tmp_path: Path) -> None:
    for target in (str(tmp_path / "nope.json"), str(tmp_path)):
        proc = run_replay(target, "--json")
        assert proc.returncode == 2
        assert json.loads(proc.stdout)["ok"] is False


@pytest.mark.parametrize(
    ("moves", "index", "words"),
    [
        (["play M", 5], 1, "not a string"),
        (["fly M"], 0, "cannot be read"),
        (["end"], 0, "play a card"),
    ],
)
def test_bad_move_exits_1_naming_move_and_reason(
    moves: list[object], index: int, words: str, tmp_path: Path
) -> None:
    g = new_game(2, seed=1)
    first = g.legal_strings()[0]
    moves = [first if m == "play M" else m for m in moves]
    rec = {**GOOD, "deck": g.deck_letters, "start": g.start, "moves": moves}
    del rec["seed"]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec))
    proc = run_replay(str(path), "--json")
    assert proc.returncode == 1
    out = json.loads(proc.stdout)
    assert out["ok"] is False and out["move_index"] == index
    assert words in out["error"]
    text = run_replay(str(path))
    assert (
        text.returncode == 1 and "illegal" in text.stdout + text.stderr
    ) or "cannot" in text.stdout


def test_replay_reads_stdin() -> None:
    g = new_game(2, seed=3)
    proc = run_replay("-", "--json", "--legal", stdin=write_record(g).encode())
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["legal"] == g.legal_strings()


def test_every_move_word_is_known() -> None:
    assert "inspiration" in KINDS and "end" in KINDS and len(KINDS) == 20


def test_replay_recognises_the_game_from_the_record(tmp_path: Path) -> None:
    """`replay` finds the game by the record's format; a game without its own replay output
    is shown through the interface (its position, or what one seat sees with --seat)."""
    from typer.testing import CliRunner

    from civcards.cli import app
    from civcards.game_api import get_game, register
    from tests import toygame

    register(toygame.GAME)
    toy = get_game("toy")
    state = toy.new_state(2, toy.check_options(2, {}), seed=5)
    for _ in range(3):
        choice = toy.choices(state)[0]
        while not choice.final:
            choice = toy.expand(state, choice).choices[0]
        toy.apply_choice(state, choice)
    path = tmp_path / "toy.json"
    path.write_text(json.dumps(toy.record(state)))
    runner = CliRunner()
    ok = runner.invoke(app, ["replay", str(path), "--json"])
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.stdout) == toy.position_json(state)
    seat = runner.invoke(app, ["replay", str(path), "--json", "--seat", "1"])
    assert seat.exit_code == 0 and json.loads(seat.stdout) == toy.observe(state, 1).to_json()
    rec = toy.record(state)
    rec["moves"] = [*rec["moves"], "play 999"]
    path.write_text(json.dumps(rec))
    bad = runner.invoke(app, ["replay", str(path)])
    assert bad.exit_code == 1 and bad.stdout.startswith("illegal: move 4")
    rec["players"] = 9
    path.write_text(json.dumps(rec))
    invalid = runner.invoke(app, ["replay", str(path), "--json"])
    assert invalid.exit_code == 2 and json.loads(invalid.stdout)["ok"] is False
    # CIV's replay shows the whole position and refuses --seat in one sentence
    example = sorted(EXAMPLES.glob("*.json"))[0]
    civ = runner.invoke(app, ["replay", str(example), "--seat", "0"])
    assert civ.exit_code == 2 and "--seat is not offered" in civ.stderr
