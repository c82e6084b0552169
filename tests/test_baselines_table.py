"""scripts/baselines_table.py and studies/baselines/play.py (issue 37's baselines table): an
arena played in chunks and pooled gives the ratings and win shares `civcards arena` gives
for the same arena, with each bot's CPU time a decision from the same games; an arena not
yet complete is called provisional; bad input is one sentence and changes nothing."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from civcards.game_api import get_game
from civcards.sim.arena import ArenaConfig, run_arena
from civcards.sim.simulate import play_seated

ROOT = Path(__file__).resolve().parent.parent
PLAY = ROOT / "studies" / "baselines" / "play.py"
TABLE = ROOT / "scripts" / "baselines_table.py"
BOTS = "random,greedy,ismcts:8it"
GAMES = 6  # one cycle of the 6 seatings of 3 bots at 2 seats
SEED = 5


def run(*args: str, ok: tuple[int, ...] = (0,)) -> subprocess.CompletedProcess[str]:
    r = subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=300, cwd=ROOT
    )
    assert r.returncode in ok, r.stderr
    return r


def play_chunk(folder: Path, minutes: str) -> subprocess.CompletedProcess[str]:
    return run(
        str(PLAY),
        *("--game", "carta", "--bots", BOTS, "-n", str(GAMES), "--seed", str(SEED)),
        *("--dir", str(folder), "--minutes", minutes, "--no-progress"),
        ok=(0, 3),
    )


@pytest.fixture(scope="module")
def chunks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The arena played in three chunks: one game, one game, the rest."""
    folder = tmp_path_factory.mktemp("baselines") / "carta"
    assert play_chunk(folder, "0").stdout.strip().endswith("c000.jsonl")
    assert play_chunk(folder, "0").stdout.strip().endswith("c001.jsonl")
    assert play_chunk(folder, "60").stdout.strip().endswith("c002.jsonl")
    assert play_chunk(folder, "60").returncode == 3  # every game is there
    return folder


def table_json(*paths: Path) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(run(str(TABLE), "--json", *map(str, paths)).stdout)
    return out


def test_pooled_chunks_give_the_arenas_own_table(chunks: Path) -> None:
    game = get_game("carta")
    cfg = ArenaConfig(
        bots=tuple(BOTS.split(",")),
        games=GAMES,
        players=2,
        seed=SEED,
        options=game.check_options(2, {}),
    )
    arena = run_arena(cfg, game=game).to_json()
    t = table_json(chunks)["carta"]
    assert t["complete"] and t["games"] == GAMES and t["whole_cycles"] == 1
    rows = {r["bot"]: r for r in t["rows"]}
    assert [r["bot"] for r in t["rows"]] == arena["ranking"]
    for bot in cfg.bots:
        assert rows[bot]["games"] == arena["games_by_bot"][bot]
        assert rows[bot]["wins"] == pytest.approx(arena["wins"][bot])
        assert rows[bot]["mu"] == pytest.approx(arena["ratings"][bot]["mu"], abs=1e-3)
        assert rows[bot]["sigma"] == pytest.approx(arena["ratings"][bot]["sigma"], abs=1e-3)
        assert rows[bot]["decisions"] == arena["moves_by_bot"][bot]
    # the speed: each bot's CPU time over its decisions, recounted from the lines
    lines = [json.loads(x) for f in sorted(chunks.glob("*.jsonl")) for x in f.open()]
    for bot in cfg.bots:
        cpu = sum(
            d["result"]["cpu"][s]
            for d in lines
            for s, b in enumerate(d["result"]["seats"])
            if b == bot
        )
        assert cpu > 0
        want = 1000 * cpu / rows[bot]["decisions"]
        assert rows[bot]["cpu_ms_per_decision"] == pytest.approx(want, rel=1e-3, abs=1e-4)
    # the search thinks longer than the one-ply greedy bot, which thinks longer than random
    assert (
        rows["ismcts:8it"]["cpu_ms_per_decision"]
        > rows["greedy"]["cpu_ms_per_decision"]
        > rows["random"]["cpu_ms_per_decision"]
    )


def test_an_incomplete_arena_is_provisional_and_write_keeps_the_rest(
    chunks: Path, tmp_path: Path
) -> None:
    part = tmp_path / "part"
    part.mkdir()
    for f in sorted(chunks.glob("*.jsonl"))[:2]:
        (part / f.name).write_text(f.read_text())
    t = table_json(part)["carta"]
    assert not t["complete"] and t["games"] == 2 and t["whole_cycles"] == 0
    assert sum(r["games"] for r in t["rows"]) == 2 * 2
    doc = tmp_path / "research.md"
    before, after = "# Research\n\nprose before\n\n", "\nprose after\n"
    doc.write_text(
        before + "<!-- baselines:carta -->\nold table\n<!-- /baselines:carta -->" + after
    )
    run(str(TABLE), str(part), "--write", str(doc))
    text = doc.read_text()
    assert text.startswith(before) and text.endswith(after) and "old table" not in text
    assert "**provisional**: 2 of the arena's 6 games" in text
    assert text.count("| `") == 3  # a row for each bot
    # written again from every chunk, the section is replaced, not added to
    run(str(TABLE), str(chunks), "--write", str(doc))
    text = doc.read_text()
    assert "provisional" not in text and "complete: all 6 games" in text
    assert text.count("<!-- baselines:carta -->") == 1 and text.count("| `") == 3


def test_bad_input_is_one_sentence_and_changes_nothing(chunks: Path, tmp_path: Path) -> None:
    doc = tmp_path / "research.md"
    doc.write_text("no markers here\n")
    other = tmp_path / "other"
    play = run(
        str(PLAY),
        *("--game", "carta", "--bots", "random,greedy", "-n", "1", "--seed", "9"),
        *("--dir", str(other), "--no-progress"),
    )
    assert play.stdout.strip().endswith("c000.jsonl")
    torn = tmp_path / "torn.jsonl"
    torn.write_text((chunks / "c000.jsonl").read_text() + '{"game": "carta", "bo')
    cases = [
        ([str(chunks), "--write", str(doc)], "has no one pair of lines"),
        ([str(chunks), str(other)], "the carta games come from two arenas"),
        ([str(torn)], "is not an arena game's JSON line"),
        ([str(tmp_path / "absent")], "is neither a file nor a folder"),
    ]
    for args, words in cases:
        r = run(str(TABLE), *args, ok=(2,))
        assert words in r.stderr and r.stderr.count("\n") == 1, r.stderr
        assert "Traceback" not in r.stderr
    assert doc.read_text() == "no markers here\n"
    # a chunk folder of another arena is refused by the player too
    r = run(
        str(PLAY),
        *("--game", "carta", "--bots", BOTS, "-n", str(GAMES), "--seed", str(SEED)),
        *("--dir", str(other), "--no-progress"),
        ok=(2,),
    )
    assert "holds games of another arena" in r.stderr
    assert sorted(p.name for p in other.iterdir()) == ["c000.jsonl"]


def test_a_bots_cpu_time_is_measured_beside_its_wall_clock_time() -> None:
    game = get_game("carta")
    c0 = time.process_time()
    r = play_seated(game, ["ismcts:20it", "random"], 11, bot_seed=3)
    spent = time.process_time() - c0
    assert len(r.cpu) == 2 and all(x >= 0 for x in r.cpu)
    assert 0 < r.cpu[0] <= spent
    assert r.cpu[1] < r.cpu[0]  # a uniform random pick costs next to nothing
    untimed = play_seated(game, ["ismcts:20it", "random"], 11, bot_seed=3, timing=False)
    assert untimed.cpu == [0.0, 0.0] and untimed.winners == r.winners
