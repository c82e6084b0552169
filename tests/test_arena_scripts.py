"""scripts/arena_lines.py and scripts/pool_arenas.py: an arena played game by game over
processes and assembled is the arena `civcards arena` plays (all but the timings), a
chunk cut short keeps only whole seating cycles, and the pooled chunks add up."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from civcards.game_api import get_game
from civcards.sim.arena import ArenaConfig, run_arena

ROOT = Path(__file__).resolve().parent.parent
LINES = ROOT / "scripts" / "arena_lines.py"
POOL = ROOT / "scripts" / "pool_arenas.py"
BOTS = "greedy,random,greedy:b"
TIMINGS = {"seconds", "games_per_sec", "seconds_per_move"}


def script(*args: str) -> str:
    """The script's standard output and error, together."""
    r = subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=300, cwd=ROOT
    )
    assert r.returncode == 0, r.stderr
    return r.stdout + r.stderr


def arena(seed: int, n: int) -> dict[str, Any]:
    game = get_game("civ4")
    cfg = ArenaConfig(
        bots=tuple(BOTS.split(",")),
        games=n,
        players=3,
        seed=seed,
        options=game.check_options(3, {}),
    )
    return run_arena(cfg, game=game).to_json()


def test_lines_assemble_into_the_arenas_own_summary(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    said = script(
        str(LINES),
        "play",
        "--game",
        "civ4",
        "-p",
        "3",
        "--bots",
        BOTS,
        "-n",
        "6",
        "--seeds",
        "5-6",
        "-j",
        "2",
        "--out",
        str(out),
    )
    assert "12 games written" in said
    lines = out.read_text().splitlines()
    assert len(lines) == 12
    # a chunk cut short: seed 6 loses a game, so it has no whole cycle of 6 seatings
    kept = [ln for ln in lines if not (json.loads(ln)["seed"] == 6 and json.loads(ln)["i"] == 3)]
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(kept) + "\n")
    said = script(str(LINES), "assemble", str(cut), "--dir", str(tmp_path / "a"), "--prefix", "s")
    assert "seed 6: 5 games, not one whole cycle of 6: left out" in said
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == ["s5.json"]
    # played again on the cut file (with a line its writer left half-written), the same
    # command plays only the missing game
    with cut.open("a") as f:
        f.write('{"game": "civ4", "bots": ["gre')
    args = ["-p", "3", "--bots", BOTS, "-n", "6", "--seeds", "5-6", "-j", "2", "--out", str(cut)]
    said = script(str(LINES), "play", *args)
    assert "11 of the 12 games are already in" in said and "1 games written" in said
    assert re.search(r"\[1/1, \d+ s\] seed 6 game 3: .+ won \(\d+ s\)", said), said
    assert "not a game's JSON line; left out" in said
    script(str(LINES), "assemble", str(cut), "--dir", str(tmp_path / "c"), "--prefix", "s")
    got = json.loads((tmp_path / "c" / "s6.json").read_text())
    want = arena(6, 6)
    assert {k: v for k, v in got.items() if k not in TIMINGS} == {
        k: v for k, v in want.items() if k not in TIMINGS
    }
    script(str(LINES), "assemble", str(out), "--dir", str(tmp_path / "b"), "--prefix", "s")
    for seed in (5, 6):
        got = json.loads((tmp_path / "b" / f"s{seed}.json").read_text())
        want = arena(seed, 6)
        assert {k: v for k, v in got.items() if k not in TIMINGS} == {
            k: v for k, v in want.items() if k not in TIMINGS
        }
    pooled = json.loads(
        script(
            str(POOL), "--json", str(tmp_path / "b" / "s5.json"), str(tmp_path / "b" / "s6.json")
        )
    )
    assert pooled["games"] == 12 and pooled["balanced"] is True
    wins = [json.loads((tmp_path / "b" / f"s{s}.json").read_text())["wins"] for s in (5, 6)]
    for bot in BOTS.split(","):
        assert abs(pooled["by_bot"][bot]["wins"] - sum(w[bot] for w in wins)) < 1e-9


def test_compare_pairs_the_games_two_files_share(tmp_path: Path) -> None:
    """``compare`` counts, over the games both files hold, those a bot won in both, in one
    only and in neither; a game in one file only is left out."""
    before = tmp_path / "before.jsonl"
    args = ["-p", "3", "--bots", BOTS, "-n", "6", "--seeds", "7", "-j", "2"]
    script(str(LINES), "play", *args, "--out", str(before))
    lines = sorted((json.loads(ln) for ln in before.read_text().splitlines()), key=lambda d: d["i"])
    won = ["greedy" in (d["result"]["seats"][w] for w in d["result"]["winners"]) for d in lines]
    # "after": game 0 given to greedy's seat, game 1 taken from it, game 5 left out
    after_lines = []
    for d in lines:
        r = d["result"]
        greedy_seat = r["seats"].index("greedy")
        if d["i"] == 0:
            r["winners"] = [greedy_seat]
        elif d["i"] == 1:
            r["winners"] = [(greedy_seat + 1) % 3]
        if d["i"] != 5:
            after_lines.append(json.dumps(d))
    after = tmp_path / "after.jsonl"
    after.write_text("\n".join(after_lines) + "\n")
    said = script(str(LINES), "compare", str(before), str(after), "--bot", "greedy")
    shared = won[:5]
    kept = sum(shared[2:])
    gained = 0 if shared[0] else 1
    lost = 1 if shared[1] else 0
    assert f"5 games in both: greedy won {sum(shared)} before, {kept + 1} after" in said
    assert f"both {kept + shared[0]}, after only {gained}, before only {lost}" in said
    for other, why in ((tmp_path / "none.jsonl", "no such file"), (before, "share no game")):
        if other == before:
            (tmp_path / "empty.jsonl").write_text("")
            other = tmp_path / "empty.jsonl"
        r = subprocess.run(
            [sys.executable, str(LINES), "compare", str(before), str(other), "--bot", "greedy"],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=ROOT,
        )
        assert r.returncode == 1 and why in r.stderr and "Traceback" not in r.stderr


def test_bad_seeds_are_refused_in_one_sentence(tmp_path: Path) -> None:
    """A ``--seeds`` that is not a seed list is refused by the option parser: no
    traceback, no lines file written."""
    out = tmp_path / "games.jsonl"
    r = subprocess.run(
        [sys.executable, str(LINES), "play", "--bots", BOTS, "-n", "2", "--seeds", "x-y",
         "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert r.returncode == 2 and "--seeds" in r.stderr and "Traceback" not in r.stderr
    assert not out.exists()


# -- scripts/card_use.py: buildings built per copy drawn, by the bots that played -------

CARD_USE = ROOT / "scripts" / "card_use.py"


def test_card_use_groups_rows_by_their_bots_and_adds_up(tmp_path: Path) -> None:
    """Q8's measure (copies built over copies drawn), read per group of bots: rotated
    seatings go together, and every figure is the sum over that group's rows."""
    from typer.testing import CliRunner

    from civcards.cli import app

    runner = CliRunner()
    files = []
    for name, bots, extra in (
        ("m.parquet", "greedy", []),
        ("r.parquet", "random,greedy", ["--rotate"]),
    ):
        out = tmp_path / name
        res = runner.invoke(
            app,
            ["simulate", "--game", "civ4", "-n", "4", "-b", bots, "--seed", "3",
             "--option", "cards=reconstructed-2", "--option", "finish_round=false",
             "--no-progress", "--out", str(out), *extra],
        )  # fmt: skip
        assert res.exit_code == 0, res.output
        files.append(str(out))
    said = json.loads(script(str(CARD_USE), "--json", *files))
    assert sorted(said) == ["2p greedy (reconstructed-2)", "2p greedy,random (reconstructed-2)"]
    from civcards.sim.rows import read_rows

    for key, f in (("2p greedy (reconstructed-2)", files[0]),
                   ("2p greedy,random (reconstructed-2)", files[1])):  # fmt: skip
        rows = read_rows(f)
        got = said[key]
        assert got["games"] == 4
        assert "LIB" in got["cards"] and "GLH" not in got["cards"]  # buildings, not wonders
        for code, fig in got["cards"].items():
            assert fig["built"] == sum(int(r[f"built_{code}"]) for r in rows)
            assert fig["drawn"] == sum(int(r[f"drawn_{code}"]) for r in rows)
            if fig["drawn"]:
                assert abs(fig["share"] - fig["built"] / fig["drawn"]) < 1e-12
    assert sum(f["built"] for f in said["2p greedy (reconstructed-2)"]["cards"].values()) > 0
    # C18: what each seat built (builds_s) adds up to the game's built_ columns, and the
    # builders' win share is the wins of the seats that built it over those seats
    for key, f in (("2p greedy (reconstructed-2)", files[0]),):
        rows = read_rows(f)
        for r in rows:
            for code in said[key]["cards"]:
                per_seat = [
                    int(pair.split(":")[1])
                    for s in range(2)
                    for pair in str(r[f"builds_{s}"] or "").split()
                    if pair.split(":")[0] == code
                ]
                assert sum(per_seat) == int(r[f"built_{code}"])
        eco = said[key]["economy"]
        seats = [
            (int(r[f"win_{s}"] or 0))
            for r in rows
            for s in range(2)
            if {p.split(":")[0] for p in str(r[f"builds_{s}"] or "").split()}
            & {"GRN", "FRG", "MKT", "HRB"}
        ]
        assert eco["seats"] == len(seats) and abs(eco["share"] - sum(seats) / len(seats)) < 1e-12


def test_card_use_refuses_bad_input_in_one_sentence(tmp_path: Path) -> None:
    cases = [
        ([str(tmp_path / "none.parquet")], "does not exist"),
        (["--codes", "LIB,XYZ", str(tmp_path / "none.parquet")], "XYZ is not a building code"),
        (["--codes", "GLH", str(tmp_path / "none.parquet")], "GLH is not a building code"),
    ]
    for args, words in cases:
        r = subprocess.run(
            [sys.executable, str(CARD_USE), *args], capture_output=True, text=True, cwd=ROOT
        )
        assert r.returncode == 2, r.stderr
        assert words in r.stderr and "Traceback" not in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1


# -- scripts/culture_sources.py: where the culture comes from (C49) ----------------------

CULTURE = ROOT / "scripts" / "culture_sources.py"


def test_culture_sources_add_up_over_the_records(tmp_path: Path) -> None:
    """C49: a player's culture is the culture of their technologies, buildings and
    wonders in play; the script's three sources add up to the players' culture at the end,
    and a holder of Highest Culture is counted at most once."""
    from typer.testing import CliRunner

    from civcards.civ4.notation import replay
    from civcards.cli import app

    recs = tmp_path / "recs"
    res = CliRunner().invoke(
        app,
        ["simulate", "--game", "civ4", "-n", "3", "-b", "greedy", "--seed", "5",
         "--no-progress", "--records", str(recs)],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    said = json.loads(script(str(CULTURE), "--json", str(recs)))
    states = [replay(f.read_text(encoding="utf-8")).state for f in sorted(recs.glob("*.json"))]
    assert said["games"] == len(states) == 3
    # the engine's own culture (C49), summed over every player of every game
    assert sum(said["culture"].values()) == sum(s.culture(p) for s in states for p in range(s.n))
    assert said["holders"] == sum(s.highest_culture() is not None for s in states)
    assert 0 <= said["holders_on_technologies_alone"] <= said["holders"]
    assert abs(sum(said["shares"].values()) - 1) < 1e-9


def test_culture_sources_refuse_a_folder_without_records(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text('{"x": 1}', encoding="utf-8")
    for folder, words in ((tmp_path / "none", "is not a folder"), (tmp_path, "not a civ4 record")):
        r = subprocess.run(
            [sys.executable, str(CULTURE), str(folder)], capture_output=True, text=True, cwd=ROOT
        )
        assert r.returncode == 2 and words in r.stderr, r.stderr
        assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
