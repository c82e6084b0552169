"""The balance page's opening table (issue 40): the headline questions for the default
set-up under greedy and search play, from a tiny fixture of games played here."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from civcards.game_api import get_game
from civcards.games.civ4.report.current import (
    HEADLINE,
    as_rules_mirror,
    current_table,
    default_options,
    is_default_setup,
    measure,
)
from civcards.games.civ4.report.questions import q1_first_seat, q7_early_leader
from civcards.sim.rows import game_row, write_rows
from civcards.sim.simulate import play_seated

GAME = get_game("civ4")
SEARCH = "ismcts:1it"  # the cheapest search: one game costs about 2 s of CPU


def _row(seats: list[str], seed: int, options: dict[str, Any] | None = None) -> dict[str, Any]:
    return game_row(play_seated(GAME, seats, seed, rows=True, options=options or {}), GAME)


@pytest.fixture(scope="module")
def rows() -> list[dict[str, Any]]:
    return [
        _row(["greedy", "greedy"], 1),
        _row(["greedy", "greedy"], 2),
        _row([SEARCH, SEARCH], 3),
        # not the default set-up (C68 named off at 2 players), not a mirror
        _row(["greedy", "greedy"], 5, {"finish_round": False}),
        _row(["greedy", "random"], 6),
    ]


def test_the_default_set_up_is_the_new_games_c68(rows: list[dict[str, Any]]) -> None:
    # C68: finish_round is the 2-player default of the platform, off at 3 and 4 players
    assert default_options(2)["finish_round"] is True
    assert default_options(3)["finish_round"] is False
    assert [is_default_setup(r) for r in rows] == [True, True, True, False, True]


def test_the_table_reads_only_default_set_up_mirrors(rows: list[dict[str, Any]]) -> None:
    out = current_table(rows)
    assert out["search_bot"] == SEARCH
    lines = out["markdown"].splitlines()
    assert "greedy mirrors (games: 2p 2)" in lines[0]
    assert f"`{SEARCH}` mirrors (games: 2p 1)" in lines[0]
    assert [s["question"] for s in out["summary"]] == [k for k, _, _ in HEADLINE]
    assert len([ln for ln in lines if ln.startswith("| Q")]) == len(HEADLINE)


def test_its_figures_are_the_questions_own(rows: list[dict[str, Any]]) -> None:
    # the table's verdicts and figures are those of the question functions over the same
    # games read as greedy mirrors under the rules as written (nothing computed twice)
    greedy = [as_rules_mirror(r) for r in rows[:2]]
    fig = measure(rows[:2])[2]
    assert fig["Q1"]["lines"] == q1_first_seat(greedy).lines
    assert fig["Q7"]["met"] == q7_early_leader(greedy).met
    assert all(r["bot_1"] == "greedy" and r["finish_round"] is False for r in greedy)
    assert rows[0]["finish_round"] is True  # the rows themselves are left as they were


def _script() -> Any:
    path = Path(__file__).parents[2] / "scripts" / "civ4_balance_current.py"
    spec = importlib.util.spec_from_file_location("civ4_balance_current", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def test_the_page_keeps_its_text_and_a_page_without_markers_is_refused(
    rows: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mod = _script()
    page = f"before\n{mod.BEGIN}\nold\n{mod.END}\nafter\n"
    assert mod.replace_block(page, "new") == f"before\n{mod.BEGIN}\nnew\n{mod.END}\nafter\n"
    bare = tmp_path / "page.md"
    bare.write_text("no markers\n", encoding="utf-8")
    results = tmp_path / "x.parquet"
    write_rows(results, rows, GAME)
    broken = tmp_path / "y.parquet"
    broken.write_text("not parquet", encoding="utf-8")
    for files in ([results], [broken]):
        assert mod.main([*map(str, files), "--write", str(bare)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and len(err.strip().splitlines()) == 1
        assert bare.read_text(encoding="utf-8") == "no markers\n"


def test_the_budget_arenas_are_pooled_by_budget(tmp_path: Path) -> None:
    # two chunks of one budget add up; a budget beats greedy when the Wilson interval's low
    # end passes 50 %, by a margin when it passes 60 % (the fields are those `civcards arena
    # --json` writes)
    mod = _script()
    paths = []
    for i, (bot, wins, games) in enumerate(
        [
            ("ismcts:200it", 9.0, 10),
            ("ismcts:200it", 9.5, 10),
            ("ismcts:50it", 3.0, 10),
            ("ismcts:100it", 66.0, 100),
        ]
    ):
        chunk = {
            "bots": [bot, "greedy"],
            "games_by_bot": {bot: games, "greedy": games},
            "wins": {bot: wins},
        }
        paths.append(tmp_path / f"c{i}.json")
        paths[-1].write_text(json.dumps(chunk), encoding="utf-8")
    lines = mod.budget_table([str(p) for p in paths]).splitlines()
    assert lines[2].startswith("| `ismcts:50it` | 10 | 3 | 30.0 %")
    assert lines[2].endswith("| no | no |")
    # 66 of 100: Wilson 56.3-74.5 %: beyond chance, not by the margin
    assert lines[3].startswith("| `ismcts:100it` | 100 | 66 | 66.0 % (56.3–74.5 %)")
    assert lines[3].endswith("| **yes** | no |")
    assert lines[4].startswith("| `ismcts:200it` | 20 | 18.5 | 92.5 %")
    assert lines[4].endswith("| **yes** | **yes** |")
