"""civ4's balance study: archetype bots, the per-game rows of ``simulate --out`` and the
Q1–Q16 report (issue 19, items 2 and 3)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from civcards.bots import bot_names, make_bot
from civcards.game_api import get_game
from civcards.games.civ4.bots import GreedyBot
from civcards.games.civ4.greedy import ARCHETYPES, GREEDY, Weights
from civcards.games.civ4.report import answers, quantile_ci, ratio_ci, report_overview
from civcards.games.civ4.sim import (
    BUILD_CODES,
    COLUMNS,
    TECH_CODES,
    UNIT_CODES,
    hist_text,
    parse_hist,
)
from civcards.sim.rows import columns, game_row, read_rows, write_rows
from civcards.sim.simulate import SimConfig, play_game, play_seated

GAME = get_game("civ4")
NAMES = ("population", "techrush", "wonders", "military", "culture")


def _row(seats: list[str], seed: int, options: dict[str, Any] | None = None) -> dict[str, Any]:
    # the report's questions read games under the rules as written: finish_round (C68) is
    # named off, the platform's default turning it on at 2 players
    opts = {"finish_round": False, **(options or {})}
    r = play_seated(GAME, seats, seed, rows=True, options=opts)
    return game_row(r, GAME)


# -- archetypes -----------------------------------------------------------------------------------


def test_archetypes_registered() -> None:
    """Item 2: the five archetypes are civ4 bots; greedy keeps weights of 1."""
    names = bot_names(GAME)
    for name in ("greedy", *NAMES):
        assert name in names
        bot = make_bot(GAME, name, seed=1)
        assert isinstance(bot, GreedyBot) and bot.name == name
    assert set(ARCHETYPES) == set(NAMES)
    assert Weights() == GREEDY
    assert isinstance(make_bot(GAME, "greedy", 0), GreedyBot)
    assert make_bot(GAME, "greedy", 0).policy.weights == Weights()  # type: ignore[attr-defined]
    for w in ARCHETYPES.values():
        assert w != GREEDY


@pytest.mark.parametrize("name", NAMES)
def test_archetype_plays_legal_games(name: str) -> None:
    """Each archetype finishes a game against greedy without a fallback (every wanted move
    matched an offered choice)."""
    state = GAME.new_state(3, {}, 40)
    bots = [make_bot(GAME, b, seed=s) for s, b in enumerate((name, "greedy", "greedy"))]
    while GAME.result(state) is None:
        from civcards.bots import bot_move

        text = bot_move(bots[state.to_move], GAME, state)
        GAME.play(state, text)
    assert bots[0].policy.fallbacks == 0  # type: ignore[attr-defined]


def test_military_attacks_more_than_greedy() -> None:
    """The military weighting changes play: more attacks than greedy's in the same deals."""
    mil = gre = 0
    for seed in range(6):
        row = _row(["military", "greedy"], 700 + seed)
        mil += row["attacks_0"]
        gre += row["attacks_1"]
    assert mil > gre


# -- rows -----------------------------------------------------------------------------------------


def test_rows_have_every_column_and_absent_seats_empty() -> None:
    """simulate --out rows carry every civ4 column (None for seats the game lacks)."""
    row = _row(["greedy", "greedy"], 5)
    assert set(COLUMNS) <= set(row)
    assert list(columns(GAME))[-len(COLUMNS) :] == list(COLUMNS)
    for key in ("vp", "attacks", "hand_med", "trades"):
        assert row[f"{key}_0"] is not None and row[f"{key}_1"] is not None
        assert row[f"{key}_2"] is None and row[f"{key}_3"] is None


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12), (4, 13)])
def test_rows_are_consistent(players: int, seed: int) -> None:
    """VP by source sums to the score (C70) and matches the result; war, statuses, cards and
    decision counts agree with each other."""
    seats = ["military", *(["greedy"] * (players - 1))]
    r = play_seated(GAME, seats, seed, rows=True)
    row = game_row(r, GAME)
    state = GAME.new_state(players, {}, seed)
    # the row's score is the finished game's (replaying the record gives the same game)
    final = GAME.from_record(json.loads(play_seated(GAME, seats, seed, records=True).record or ""))
    for s in range(players):
        assert row[f"vp_{s}"] == row[f"vp_tech_{s}"] + row[f"vp_pop_{s}"] + row[f"vp_wonder_{s}"]
        assert [row[f"vp_{s}"], row[f"vp_tech_{s}"], row[f"vp_pop_{s}"], row[f"vp_wonder_{s}"]] == (
            final.scores[s]
        )
        assert row[f"hand_med_{s}"] <= row[f"hand_max_{s}"]
        assert row[f"plots_{s}"] == len(final.plots[s])
    assert state.round == 0
    best = max(range(players), key=lambda s: final.scores[s])
    assert str(best) in row["winners"].split()
    attacks = sum(row[f"attacks_{s}"] for s in range(players))
    attacked = sum(row[f"attacked_{s}"] for s in range(players))
    assert attacks <= attacked <= attacks * (players - 1)
    assert sum(row[f"stole_{s}"] for s in range(players)) == sum(
        row[f"lost_{s}"] for s in range(players)
    )
    assert row["units_blocked"] + row["units_bounced"] + row["units_broke"] <= row["units_sent"]
    assert row["draws_culture"] <= row["draws"] and row["purchases_happy"] <= row["purchases"]
    # one hand sample and one turn count per turn (the collect step of the active seat)
    turns = sum(parse_hist(row["turn_hist"]).values())
    assert sum(parse_hist(row["hand_hist"]).values()) == turns
    assert turns >= players * (row["turns"] - 1)
    # a copy is built or cashed once per time it reached a hand: drawn, or back from play
    # (destroyed, C45; City Walls broken, C42.1); a unit attacks again after a bounce (C42.2)
    back = row["destroyed"] + row["units_broke"]
    used = sum(row[f"built_{c}"] + row[f"cashed_{c}"] for c in BUILD_CODES)
    assert used <= sum(row[f"drawn_{c}"] for c in BUILD_CODES) + back
    assert sum(row[f"built_{c}"] for c in BUILD_CODES) >= 1
    fought = sum(row[f"combat_{c}"] + row[f"cashed_{c}"] for c in UNIT_CODES)
    assert fought <= sum(row[f"drawn_{c}"] for c in UNIT_CODES) + row["units_bounced"]
    assert sum(row[f"combat_{c}"] for c in UNIT_CODES) >= row["units_sent"]
    assert sum(row[f"market_{t}"] is not None for t in TECH_CODES) >= 3
    assert all(row[f"market_{t}"] is None or row[f"market_{t}"] >= 0 for t in TECH_CODES)
    assert row["victory"] == final.reason


def test_rows_round_trip_through_csv(tmp_path: Path) -> None:
    cfg = SimConfig(games=2, players=2, bots=("greedy", "culture"), seed=3, rows=True)
    rows = [game_row(play_game(cfg, i, GAME), GAME) for i in range(2)]
    path = tmp_path / "r.csv"
    assert write_rows(path, rows, GAME) == 2
    back = read_rows(path, GAME)
    assert back[0]["hand_hist"] == rows[0]["hand_hist"]
    assert back[1]["vp_1"] == rows[1]["vp_1"] and back[1]["vp_2"] is None


def test_hist_text_round_trip() -> None:
    c = Counter({3: 2, 10: 1, 1: 4})
    assert hist_text(c) == "1:4 3:2 10:1"
    assert parse_hist(hist_text(c)) == c
    assert parse_hist(None) == Counter()


# -- statistics and the report ----------------------------------------------------------------------


def test_statistics() -> None:
    med, lo, hi = quantile_ci(Counter({1: 50, 2: 50, 3: 100}), 0.5)
    assert med == 3 and lo <= med <= hi
    r, lo, hi = ratio_ci([(1.0, 4.0), (1.0, 4.0), (2.0, 4.0)])
    assert r == pytest.approx(4 / 12) and lo < r < hi


@pytest.fixture(scope="module")
def rows() -> list[dict[str, Any]]:
    out = []
    for i in range(3):
        out.append(_row(["greedy", "greedy"], 100 + i))
        out.append(_row(["greedy"] * 4, 200 + i))
        out.append(_row(["military", "greedy"], 300 + i))
        out.append(_row(["greedy", "wonders"], 400 + i))
        out.append(_row(["greedy", "greedy"], 500 + i, {"finish_round": True}))
        out.append(_row(["greedy", "greedy"], 600 + i, {"one_shot_steals": True}))
        out.append(_row(["greedy", "greedy"], 650 + i, {"happiness_not_wonders": True}))
        out.append(_row(["military", "greedy"], 680 + i, {"happiness_not_wonders": True}))
    return out


def test_report_answers_all_sixteen(rows: list[dict[str, Any]], tmp_path: Path) -> None:
    """Item 3: the report answers Q1–Q16 one by one, each with figures, targets and a
    verdict; the questions the rows can answer have measured figures."""
    ans = answers(rows, tmp_path)
    assert [a.key for a in ans] == [f"Q{i}" for i in range(1, 17)]
    for a in ans:
        assert a.lines, a.key
        assert a.verdict() in ("met", "partly met", "not met", "not measured")
        if a.key != "Q6":
            assert any(ln["value"] is not None for ln in a.lines), a.key
    assert ans[5].verdict() == "not measured"  # Q6 needs ismcts
    q1 = ans[0]
    labels = [ln["label"] for ln in q1.lines]
    assert any(lb.startswith("2p rules, seat 0") for lb in labels)
    assert any(lb.startswith("2p finish_round, seat 1") for lb in labels)
    assert any(lb.startswith("4p rules, seat 3") for lb in labels)
    # seat shares of one configuration add up to 1
    shares = [ln["value"] for ln in q1.lines if ln["label"].startswith("2p rules")]
    assert sum(shares) == pytest.approx(1.0)
    q4 = ans[3]
    assert any("military" in ln["label"] for ln in q4.lines)
    q15 = ans[14]
    assert any("military" in ln["label"] for ln in q15.lines)
    assert (tmp_path / "q1_seats.png").is_file()


def test_civcards_report_writes_the_questions(rows: list[dict[str, Any]], tmp_path: Path) -> None:
    from civcards.sim.report import write_report

    data = tmp_path / "rows.csv"
    write_rows(data, rows, GAME)
    out = tmp_path / "report"
    summary = write_report([data], out, game=GAME)
    text = (out / "README.md").read_text(encoding="utf-8")
    for i in range(1, 17):
        assert f"### Q{i}. " in text
    assert text.index("### Q1. ") < text.index("## Findings")
    assert [q["question"] for q in summary["overview"]] == [f"Q{i}" for i in range(1, 17)]
    saved = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert len(saved["overview"]) == 16
    for png in ("q1_seats.png", "q8_cards.png", "q11_hands.png", "q14_decisions.png"):
        assert (out / png).is_file()


def test_overview_without_folder(rows: list[dict[str, Any]]) -> None:
    ov = report_overview(rows)
    assert "Q16" in ov["markdown"] and len(ov["summary"]) == 16


def test_report_q4_judges_archetypes_against_the_search_bot() -> None:
    """Q4's last target (no archetype beats the ISMCTS bot): an archetype in one seat against
    ``ismcts`` in the others gives one line per archetype, its win share against the fair
    share; without such games the line says it is not measured."""
    from civcards.games.civ4.report import q4_archetypes

    rows = [_row(["culture", "ismcts:5it"], 700), _row(["ismcts:5it", "culture"], 700)]
    rows += [_row(["military", "greedy"], 710)]
    lines = {ln["label"]: ln for ln in q4_archetypes(rows).lines}
    label = "2p culture against ismcts:5it (2 games)"
    assert label in lines, sorted(lines)
    share = (
        sum(
            1.0 / len(r["winners"].split())
            for r in rows[:2]
            if str(_bots_of(r).index("culture")) in r["winners"].split()
        )
        / 2
    )
    assert lines[label]["value"] == pytest.approx(round(share, 4))
    assert lines[label]["met"] == (share < 0.5)
    assert "archetypes against ismcts" not in lines
    assert "2p military (1 games)" in lines
    alone = {ln["label"]: ln for ln in q4_archetypes(rows[2:]).lines}
    assert alone["archetypes against ismcts"]["measured"].startswith("not measured")


def _bots_of(r: dict[str, Any]) -> list[str]:
    return [str(r[f"bot_{s}"]) for s in range(int(r["players"]))]
