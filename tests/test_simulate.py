"""``civcards simulate``: the summary, determinism, records and errors."""

from __future__ import annotations

import csv
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from civcards.carta import parse_record, replay
from civcards.cli import app
from civcards.commands.simulate import ctrl_c_held_back
from civcards.sim.simulate import SimConfig, game_seed, seating, simulate

runner = CliRunner()

KEYS = {
    "games",
    "wins_by_seat",
    "wins_by_bot",
    "hegemony",
    "majority",
    "mean_turns",
    "games_per_sec",
    "shared",
    "mean_moves",
}
TIMING = {"seconds", "games_per_sec"}


def run_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["simulate", "--json", "--no-progress", *args])
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def test_json_keys_and_consistency() -> None:
    out = run_json("--games", "12", "--players", "3", "--bots", "greedy,random,random")
    assert set(out) >= KEYS
    assert out["games"] == 12
    assert len(out["wins_by_seat"]) == 3
    assert sum(out["wins_by_seat"]) >= 12
    assert sum(out["wins_by_bot"].values()) == sum(out["wins_by_seat"])
    assert out["hegemony"] + out["majority"] == 12
    assert out["mean_turns"] > 0 and out["mean_moves"] > out["mean_turns"]
    assert out["games_per_sec"] > 0
    assert out["seats_by_bot"] == {"greedy": 12, "random": 24}


def test_json_stdout_is_one_object_without_progress_output() -> None:
    result = runner.invoke(app, ["simulate", "--json", "-n", "3", "-b", "random"])
    assert result.exit_code == 0
    assert len(result.stdout.strip().splitlines()) == 1
    json.loads(result.stdout)


def test_text_summary() -> None:
    result = runner.invoke(app, ["simulate", "-n", "4", "--no-progress"])
    assert result.exit_code == 0, result.output
    for word in ("greedy", "random", "hegemony", "majority", "turns", "games/s"):
        assert word in result.stdout


def test_same_results_for_any_number_of_jobs() -> None:
    args = ("--games", "10", "--players", "2", "--bots", "greedy,random", "--rotate", "--seed", "5")
    one = run_json(*args, "--jobs", "1")
    two = run_json(*args, "--jobs", "2")
    for k in TIMING:
        one.pop(k)
        two.pop(k)
    assert one == two


def test_seeds_and_rotation() -> None:
    assert game_seed(1, 0) == game_seed(1, 0)
    assert len({game_seed(1, i) for i in range(100)}) == 100
    assert game_seed(1, 0) != game_seed(2, 0)
    cfg = SimConfig(games=3, players=3, bots=("a", "b", "c"), rotate=True)
    assert seating(cfg, 0) == ["a", "b", "c"]
    assert seating(cfg, 1) == ["c", "a", "b"]
    assert seating(cfg, 3) == ["a", "b", "c"]
    fixed = SimConfig(games=3, players=3, bots=("a", "b", "c"))
    assert seating(fixed, 1) == ["a", "b", "c"]


def test_rotation_spreads_a_bot_over_every_seat() -> None:
    s = simulate(SimConfig(games=8, players=4, bots=("greedy",) + ("random",) * 3, rotate=True))
    assert s.seats_by_bot == {"greedy": 8, "random": 24}


def test_records_replay_to_the_same_result(tmp_path: Path) -> None:
    folder = tmp_path / "recs"
    out = run_json("-n", "5", "-p", "2", "-b", "greedy,random", "--records", str(folder))
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == [f"game-{i:05d}.json" for i in range(1, 6)]
    wins = [0, 0]
    for f in files:
        rec = parse_record(f.read_text(encoding="utf-8"))
        assert rec.names == ["greedy", "random"]
        assert rec.result is not None
        r = replay(rec)
        assert r.ok and r.state.finished
        assert r.state.winners == rec.result["winners"]
        assert r.state.victory == rec.result["victory"]
        for w in r.state.winners:
            wins[w] += 1
    assert wins == out["wins_by_seat"]


def test_draft_and_team_games(tmp_path: Path) -> None:
    out = run_json("-n", "4", "-p", "4", "--teams", "--draft", "-b", "greedy,random,greedy,random")
    assert out["games"] == 4
    # a team's victory is a win for both its members
    assert sum(out["wins_by_seat"]) == 8
    assert out["wins_by_seat"][0] == out["wins_by_seat"][2]
    out2 = run_json("-n", "2", "-p", "2", "--draft", "--records", str(tmp_path))
    assert out2["games"] == 2
    rec = parse_record((tmp_path / "game-00001.json").read_text(encoding="utf-8"))
    assert rec.deal == "draft"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["-b", "nosuchbot"], "unknown bot"),
        (["-p", "5"], "players"),
        (["-p", "1", "-b", "random"], "players"),
        (["-p", "3", "-b", "greedy,random"], "2 bots for 3 players"),
        (["-p", "2", "--teams"], "team game needs exactly 4"),
        (["-n", "0"], "at least 1"),
        (["-j", "0"], "jobs"),
        (["-b", "greedy,,random"], "empty name"),
    ],
)
def test_bad_input_exits_2_with_a_message(args: list[str], words: str) -> None:
    result = runner.invoke(app, ["simulate", "--no-progress", *args])
    assert result.exit_code == 2
    assert words in result.stderr
    assert "Traceback" not in result.output
    assert result.stdout == ""


def test_unwritable_records_folder_exits_2(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    for target in (blocker, blocker / "sub"):
        result = runner.invoke(app, ["simulate", "-n", "1", "--records", str(target)])
        assert result.exit_code == 2
        assert "error:" in result.stderr
        assert result.exception is None or isinstance(result.exception, SystemExit)


# -- simulate --out: one row per game -----------------------------------------


def _recount(rec: Any) -> dict[str, Any]:
    """A row's numbers recounted from a saved record by replaying it."""
    from civcards.carta.cards import LETTERS

    r = replay(rec)
    g = r.state
    row: dict[str, Any] = {
        "players": g.n,
        "deal": g.deal,
        "teams": g.teams,
        "start": g.start,
        "winners": " ".join(str(w) for w in g.winners),
        "victory": g.victory,
        "domain": None if g.victory_domain is None else LETTERS[g.victory_domain],
        "turns": g.turn,
        "moves": len(g.history),
        "start_won": int(g.start in g.winners),
    }
    for s in range(g.n):
        row[f"bot_{s}"] = rec.names[s]
        row[f"win_{s}"] = int(s in g.winners)
        for d, c in enumerate(LETTERS):
            row[f"area_{s}_{c}"] = g.areas[s][d]
    kinds = [m.split()[0] for m in rec.moves]
    for k in ("purge", "inspiration", "assassination", "discovery", "democracy"):
        row[f"effect_{k}"] = kinds.count(k)
    return row


def test_out_rows_match_the_records(tmp_path: Path) -> None:
    from civcards.sim.rows import read_rows

    recs = tmp_path / "recs"
    csv_file = tmp_path / "run.csv"
    run_json("-n", "6", "-p", "3", "-b", "greedy,random,greedy", "--rotate", "--seed", "8",
             "--records", str(recs), "--out", str(csv_file))  # fmt: skip
    rows = read_rows(csv_file)
    assert [r["game"] for r in rows] == list(range(6))
    for row, f in zip(rows, sorted(recs.iterdir()), strict=True):
        rec = parse_record(f.read_text(encoding="utf-8"))
        want = _recount(rec)
        assert {k: row[k] for k in want} == want
        assert row["bot_3"] is None and row["area_3_M"] is None and row["win_3"] is None
        assert row["seed"] == game_seed(8, row["game"])


def test_out_parquet_and_csv_hold_the_same_rows_for_any_jobs(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow", reason="pyarrow (extra 'sim') writes Parquet")
    from civcards.sim.rows import read_rows

    args = ("-n", "8", "-p", "4", "--teams", "-b", "greedy,random,greedy,random", "--seed", "3")
    run_json(*args, "--out", str(tmp_path / "a.parquet"))
    run_json(*args, "-j", "2", "--out", str(tmp_path / "b.csv.gz"))
    a = read_rows(tmp_path / "a.parquet")
    b = read_rows(tmp_path / "b.csv.gz")
    assert a == b and len(a) == 8
    assert all(r["teams"] is True and r["players"] == 4 for r in a)
    assert all(len(r["winners"].split()) >= 2 for r in a)


@pytest.mark.parametrize("name", ["results.txt", "results.json", "results"])
def test_out_with_a_bad_suffix_exits_2(tmp_path: Path, name: str) -> None:
    result = runner.invoke(app, ["simulate", "-n", "1", "--out", str(tmp_path / name)])
    assert result.exit_code == 2
    assert ".parquet, .csv or .csv.gz" in result.stderr
    assert "Traceback" not in result.output
    assert not (tmp_path / name).exists()


def test_ray_without_ray_or_with_ray_gives_the_same_games() -> None:
    from civcards.sim.distributed import ray_available

    if not ray_available():
        result = runner.invoke(app, ["simulate", "-n", "1", "--ray", "local"])
        assert result.exit_code == 2 and "needs Ray" in result.stderr
        pytest.skip(
            "Ray is not installed (extra 'ray': make install EXTRAS=dev,web,research,sim,ray)"
        )
    import ray

    for address in ("127.0.0.1:1", "nonsense"):
        result = runner.invoke(app, ["simulate", "-n", "1", "--ray", address])
        assert result.exit_code == 2, result.output
        assert "Ray" in result.stderr or "--ray" in result.stderr
        assert "Traceback" not in result.output
    cfg = SimConfig(games=6, players=3, bots=("greedy", "random", "random"), rotate=True, seed=11)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        seen: list[int] = []
        on_ray = simulate(cfg, ray="local", on_result=lambda r: seen.append(r.index))
    finally:
        ray.shutdown()
    local = simulate(cfg, jobs=1)
    assert sorted(seen) == list(range(6))
    a, b = on_ray.to_json(), local.to_json()
    for k in TIMING:
        a.pop(k)
        b.pop(k)
    assert a == b


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_writes_the_finished_games_and_exits_130(tmp_path: Path, jobs: str) -> None:
    """Ctrl-C stops the run with exit 130 and a clear message, and ``--out`` still
    holds every game finished so far: one row a record written, games 0..N-1."""
    records, out, err = tmp_path / "rec", tmp_path / "out.csv", tmp_path / "err.txt"
    cmd = [sys.executable, "-m", "civcards.cli", "simulate", "-n", "100000", "--seed", "3"]
    cmd += ["-j", jobs, "--records", str(records), "--out", str(out), "--no-progress"]
    with err.open("w", encoding="utf-8") as f:
        proc = subprocess.Popen(
            cmd,
            stdout=subprocess.DEVNULL,
            stderr=f,
            env={**os.environ, "NO_COLOR": "1"},
            # a test runner's worker may ignore SIGINT, and a child would inherit that
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        try:
            deadline = time.time() + 90
            while time.time() < deadline and proc.poll() is None:
                if records.is_dir() and len(list(records.iterdir())) >= 5:
                    break
                time.sleep(0.05)
            assert proc.poll() is None, err.read_text(encoding="utf-8")
            proc.send_signal(signal.SIGINT)
            rc = proc.wait(timeout=90)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    text = err.read_text(encoding="utf-8")
    assert rc == 130, text
    assert "Traceback" not in text
    m = re.search(r"interrupted after (\d+) of 100000 games", text)
    assert m, text
    finished = int(m.group(1))
    assert finished >= 5
    assert f"wrote the {finished} finished games to {out}" in text
    with out.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == finished == len(list(records.iterdir()))
    if jobs == "1":  # one worker finishes the games in order
        assert [int(r["game"]) for r in rows] == list(range(finished))
    else:
        games = [int(r["game"]) for r in rows]
        assert games == sorted(set(games))


def test_ctrl_c_within_a_held_back_block_is_raised_after_it() -> None:
    """A Ctrl-C while a finished game is being saved waits until it is saved."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    done: list[str] = []
    try:
        with pytest.raises(KeyboardInterrupt), ctrl_c_held_back():
            signal.raise_signal(signal.SIGINT)
            done.append("saved")
        assert done == ["saved"]
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        with ctrl_c_held_back():  # no Ctrl-C, no exception
            done.append("again")
        assert done == ["saved", "again"]
    finally:
        signal.signal(signal.SIGINT, before)


# -- any registered game -----------------------------------------------------------------


def _toy() -> None:
    from civcards.game_api import register

    from . import toygame

    register(toygame.GAME)


def test_simulate_any_game_through_the_interface(tmp_path: Path) -> None:
    """`--game` plays a game known only through the interface; its records and rows are its
    own (the test-only game has no columns of its own beyond the common ones)."""
    _toy()
    out = tmp_path / "toy.csv"
    recs = tmp_path / "recs"
    s = run_json("--game", "toy", "-n", "6", "-p", "3", "-b", "random,ismcts:10it,random",
                 "--records", str(recs), "--out", str(out), "--option", "peek=false")  # fmt: skip
    assert s["games"] == 6 and sum(s["wins_by_seat"]) >= 6
    assert set(s["victories"]) <= {"high card"} or s["victories"]
    rec = json.loads((recs / "game-00001.json").read_text())
    assert rec["format"] == "toy-notation/1" and rec["names"] == ["random", "ismcts:10it", "random"]
    with out.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 6 and rows[0]["peek"] == "false" and rows[0]["bot_1"] == "ismcts:10it"
    assert "domain" not in rows[0]  # CIV's columns belong to CIV


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--game", "nosuch"], "there is no game 'nosuch'"),
        (["--game", "toy", "-b", "greedy"], "unknown bot 'greedy'"),
        (["--option", "deal=auction"], "the deal is 'basic' or 'draft'"),
        (["--option", "teams=maybe"], "true or false"),
        (["--option", "colour=red"], "has no option 'colour'"),
        (["--teams"], "team game needs exactly 4 players"),
    ],
)
def test_game_and_option_mistakes_exit_2(args: list[str], words: str) -> None:
    _toy()
    result = runner.invoke(app, ["simulate", "--no-progress", "-n", "2", *args])
    assert result.exit_code == 2, result.output
    assert words in result.stderr and "Traceback" not in result.output


def test_games_lists_every_registered_game() -> None:
    from civcards.bots import bot_names
    from civcards.game_api import all_games

    _toy()
    result = runner.invoke(app, ["games", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert set(out) == {"games"}
    by_name = {g["name"]: g for g in out["games"]}
    assert [g["name"] for g in out["games"]] == [g.name for g in all_games()]
    carta = by_name["carta"]
    assert set(carta) == {"name", "title", "min_players", "max_players", "options", "bots"}
    assert carta["title"] == "CIV: Carta Impera Victoria"
    assert (carta["min_players"], carta["max_players"]) == (2, 4)
    assert [o["name"] for o in carta["options"]] == ["deal", "teams"]
    assert carta["options"][0]["choices"] == ["basic", "draft"]
    assert carta["bots"] == ["greedy", "ismcts", "ismcts+net", "net", "random"]
    assert by_name["toy"]["bots"] == bot_names(
        __import__("civcards.game_api").game_api.get_game("toy")
    )
    text = runner.invoke(app, ["games"])
    assert (
        text.exit_code == 0
        and "carta (default): CIV: Carta Impera Victoria, 2-4 players" in text.stdout
    )
    assert "--option deal=basic (basic, draft)" in text.stdout
    # civ4's card set is labelled as reconstructed wherever the game is shown
    assert "civ4: Civilization: The Card Game, 2-4 players\n  (reconstructed card set" in text.stdout
