"""The balance report after tuning (issue 19, item 4): one card set per report, Q6 from real
games of the search bot, Q10 beside the owners of the other era II technologies."""

from __future__ import annotations

from typing import Any

from civcards.game_api import get_game
from civcards.games.civ4.report import q6_skill, q10_writing_code_of_laws, report_overview
from civcards.sim.rows import game_row
from civcards.sim.simulate import play_seated

GAME = get_game("civ4")


def _row(seats: list[str], seed: int, options: dict[str, Any] | None = None) -> dict[str, Any]:
    r = play_seated(GAME, seats, seed, rows=True, options=options)
    return game_row(r, GAME)


def test_q6_is_answered_from_search_bot_games() -> None:
    """Q6: ismcts against greedy (its seat's win share) and a larger budget against a smaller
    one, from real games (tiny budgets here; the study's runs are in run-study.sh)."""
    rows = [_row(["ismcts:4it", "greedy"], 900), _row(["greedy", "ismcts:4it"], 901)]
    rows += [_row(["ismcts:6it", "ismcts:2it"], 902)]
    a = q6_skill(rows)
    labels = [ln["label"] for ln in a.lines]
    assert labels == [
        "2p ismcts:4it against greedy (2 games)",
        "2p ismcts:6it against ismcts:2it (1 games)",
    ]
    first = a.lines[0]
    assert first["value"] is not None and 0.0 <= first["value"] <= 1.0
    assert first["met"] == (first["value"] >= 0.65)
    assert a.verdict() in ("met", "partly met", "not met")
    # no search games: not measured, and said so
    assert q6_skill([_row(["greedy", "greedy"], 903)]).verdict() == "not measured"


def test_one_card_set_per_report_and_q10_comparison() -> None:
    """Rows of two card sets: the report answers for the newest and counts the others; Q10
    adds the owners of the other era II technologies for comparison (rows name every owner)."""
    # the rules as written (finish_round named off: it is on by default at 2 players)
    r2, r1 = ({"cards": n, "finish_round": False} for n in ("reconstructed-2", "reconstructed-1"))
    new = [_row(["greedy", "greedy"], 910 + i, r2) for i in range(3)]
    old = [_row(["greedy", "greedy"], 920, r1)]
    assert {r["cards"] for r in new} == {"reconstructed-2"}
    ov = report_overview(new + old)
    md = ov["markdown"]
    assert "Card set: `reconstructed-2`" in md
    assert "`reconstructed-1` (1 games)" in md
    assert "| 2 | rules | greedy mirror | 3 |" in md  # the old set's game is not counted
    assert all(q["card_set"] == "reconstructed-2" for q in ov["summary"])
    lines = [ln["label"] for ln in q10_writing_code_of_laws(new).lines]
    assert "2p rules: owner of another era II technology (comparison)" in lines
