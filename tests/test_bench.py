"""``civcards bench``: it runs briefly and reports positive figures (no timing assertions)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from civcards.cli import app
from civcards.game_api import get_game, register
from civcards.sim.bench import BEGIN, END, bench_game, openspiel_available, write_section

from . import toygame

register(toygame.GAME)

runner = CliRunner()


def test_bench_json_reports_positive_figures() -> None:
    result = runner.invoke(app, ["bench", "--seconds", "0.2", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert [r["players"] for r in out["civ"]] == [2, 3, 4]
    for r in out["civ"]:
        assert r["games"] > 0
        assert r["games_per_sec"] > 0 and r["moves_per_sec"] > 0
        assert r["playout_games_per_sec"] >= r["games_per_sec"]
    assert out["machine"]["python"]
    if openspiel_available():
        assert out["openspiel"]["games"] > 0 and out["openspiel"]["moves_per_sec"] > 0
    else:
        assert out["openspiel"] is None
        assert out["openspiel_note"] == "OpenSpiel not installed"


def test_bench_without_openspiel_and_one_count() -> None:
    result = runner.invoke(
        app, ["bench", "--seconds", "0.1", "-p", "2", "--no-openspiel", "--json"]
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert len(out["civ"]) == 1 and out["openspiel"] is None


def test_bench_game_counts_moves() -> None:
    r = bench_game(get_game("carta"), 3, seconds=0.05, warmup=0.0)
    assert r["moves"] >= r["games"] * 10
    assert r["mean_moves"] == round(r["moves"] / r["games"], 2)
    assert r["game"] == "carta-3p"


def test_bench_any_game_through_the_interface() -> None:
    """A game without its own playout is benchmarked through legal() and play()."""
    result = runner.invoke(app, ["bench", "--game", "toy", "--seconds", "0.05", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["game"] == "toy" and [r["players"] for r in out["civ"]] == [2, 3, 4]
    assert all(r["games"] > 0 and r["mean_moves"] > 0 for r in out["civ"])
    bot = runner.invoke(
        app, ["bench", "--game", "toy", "--bot", "ismcts:10it", "-n", "1", "--json"]
    )
    assert bot.exit_code == 0, bot.output
    assert json.loads(bot.stdout)["opponent"] == "random"  # the toy game has no bot of its own
    bad = runner.invoke(app, ["bench", "--game", "nosuch"])
    assert bad.exit_code == 2 and "there is no game 'nosuch'" in bad.stderr


def test_bench_writes_a_marked_section(tmp_path: Path) -> None:
    md = tmp_path / "BENCHMARKS.md"
    md.write_text("# Benchmarks\n\nIntro.\n")
    for _ in range(2):
        result = runner.invoke(
            app, ["bench", "--seconds", "0.05", "-p", "2", "--no-openspiel", "--out", str(md)]
        )
        assert result.exit_code == 0, result.output
    text = md.read_text()
    assert text.startswith("# Benchmarks\n\nIntro.\n")
    assert text.count(BEGIN) == 1 and text.count(END) == 1
    assert "civcards bench --seconds 0.05 --players 2" in text
    assert "CIV: Carta Impera Victoria, 2 players" in text


def test_write_section_replaces_only_the_marked_part(tmp_path: Path) -> None:
    md = tmp_path / "b.md"
    md.write_text(f"before\n{BEGIN}\nold\n{END}\nafter\n")
    write_section(md, f"{BEGIN}\nnew\n{END}")
    assert md.read_text() == f"before\n{BEGIN}\nnew\n{END}\nafter\n"


def test_bench_bad_input_exits_2() -> None:
    for args in (["-p", "5"], ["-p", "two"], ["--seconds", "0"]):
        result = runner.invoke(app, ["bench", *args])
        assert result.exit_code == 2
        assert "error:" in result.stderr


def test_bench_bot_times_each_decision() -> None:
    """`bench --bot` times a bot's moves: the decisions with a choice are a subset of all."""
    result = runner.invoke(
        app, ["bench", "--bot", "ismcts:20it", "--games", "2", "--players", "3", "--json"]
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["bot"] == "ismcts:20it" and out["players"] == 3 and out["games"] == 2
    assert 0 < out["choices"] <= out["moves"]
    assert 0 < out["choice_p50"] <= out["choice_p95"] <= out["choice_max"]
    bad = runner.invoke(app, ["bench", "--bot", "ismcts:soon"])
    assert bad.exit_code == 2 and "ismcts budget" in bad.output
