"""``civcards arena``: seatings, fractions of shared wins, ratings, head-to-head, errors."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from typer.testing import CliRunner

from civcards.cli import app
from civcards.game_api import register
from civcards.sim.arena import (
    ArenaConfig,
    arena_seats,
    play_arena_game,
    run_arena,
    seatings,
    win_shares,
)
from civcards.sim.simulate import GameResult, default_game

from . import toygame

register(toygame.GAME)
runner = CliRunner()
TIMING = {"seconds", "games_per_sec", "seconds_per_move"}


def arena_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["arena", "--json", "--no-progress", *args])
    assert result.exit_code == 0, result.output
    assert len(result.stdout.strip().splitlines()) == 1
    out: dict[str, Any] = json.loads(result.stdout)
    return out


@pytest.mark.parametrize(
    ("bots", "players", "teams", "count"),
    [
        (("a", "b"), 2, False, 2),
        (("a", "b", "c"), 3, False, 6),
        (("a", "b", "c", "d"), 2, False, 12),
        (("a", "b"), 3, False, 6),  # AAB ABA BAA ABB BAB BBA
        (("a", "b"), 4, False, 14),
        (("a", "b", "c"), 4, False, 36),
        (("a", "b"), 4, True, 2),
        (("a", "b", "c"), 4, True, 6),
    ],
)
def test_every_bot_gets_every_seat_equally(
    bots: tuple[str, ...], players: int, teams: bool, count: int
) -> None:
    table = seatings(bots, players, teams)
    assert len(table) == count == len(set(table))
    for seat in range(players):
        per_bot = Counter(s[seat] for s in table)
        assert set(per_bot) == set(bots)
        assert len(set(per_bot.values())) == 1, (seat, per_bot)
    for s in table:
        if not teams:
            assert set(s) == set(bots) or len(bots) > players
        else:
            assert s[0] == s[2] and s[1] == s[3] and s[0] != s[1]


def test_fewer_bots_than_players_lists_the_assignments() -> None:
    assert sorted(seatings(("a", "b"), 3)) == sorted(
        [
            ("a", "a", "b"),
            ("a", "b", "a"),
            ("b", "a", "a"),
            ("a", "b", "b"),
            ("b", "a", "b"),
            ("b", "b", "a"),
        ]
    )
    assert seatings(("a", "b"), 4, teams=True) == [("a", "b", "a", "b"), ("b", "a", "b", "a")]


def test_each_deal_is_played_under_every_seating() -> None:
    cfg = ArenaConfig(bots=("greedy", "random"), games=4, players=2, seed=3)
    game = default_game()
    r = [play_arena_game(cfg, i, game) for i in range(4)]
    assert [x.seats for x in r] == [["greedy", "random"], ["random", "greedy"]] * 2
    assert r[0].seed == r[1].seed and r[2].seed == r[3].seed and r[0].seed != r[2].seed
    assert r[0].start == r[1].start
    assert arena_seats(cfg, 5) == ("random", "greedy")


def _result(seats: list[str], winners: list[int]) -> GameResult:
    return GameResult(
        index=0, seed=0, seats=seats, winners=winners, victory="majority", turns=1, moves=1,
        players=len(seats),
    )  # fmt: skip


def test_shared_victories_are_fractions() -> None:
    assert win_shares(_result(["a", "b", "a"], [1])) == {"a": 0.0, "b": 1.0}
    assert win_shares(_result(["a", "b", "a"], [0, 2])) == {"a": 1.0, "b": 0.0}
    assert win_shares(_result(["a", "b", "c"], [0, 1])) == {"a": 0.5, "b": 0.5, "c": 0.0}
    # a team's victory: both its seats are winners
    assert win_shares(_result(["a", "b", "a", "b"], [0, 2])) == {"a": 1.0, "b": 0.0}
    both = win_shares(_result(["a", "b", "a", "b"], [0, 1, 2, 3]))
    assert both == {"a": 0.5, "b": 0.5}


def test_arena_json_three_players_two_bots() -> None:
    out = arena_json("--bots", "greedy,random", "--games", "12", "--players", "3", "--seed", "4")
    assert out["games"] == out["total_games"] == 12 and out["players"] == 3
    assert out["seatings"] == 6 and out["balanced"] is True
    # both bots sit in every game (there are fewer bots than seats)
    assert out["games_by_bot"] == {"greedy": 12, "random": 12}
    assert sum(out["wins"].values()) == pytest.approx(12)
    for b in ("greedy", "random"):
        assert out["win_rate"][b] == pytest.approx(out["wins"][b] / 12, abs=1e-4)
        lo, hi = out["win_rate_ci95"][b]
        assert lo <= out["win_rate"][b] <= hi
        # every seat equally often: 2 cycles of 6 seatings, a bot holds each seat in 3 of 6
        assert out["games_by_seat"][b] == [6, 6, 6]
        assert out["seconds_per_move"][b] > 0
        assert out["moves_by_bot"][b] > 0
    assert out["win_rate"]["greedy"] > out["win_rate"]["random"]
    g, r = out["ratings"]["greedy"], out["ratings"]["random"]
    assert g["mu"] > r["mu"]
    assert g["low"] == pytest.approx(g["mu"] - 2 * g["sigma"], abs=1e-3)
    assert out["ranking"] == ["greedy", "random"]
    h = out["head_to_head"]
    gr, rg = h["greedy"]["random"], h["random"]["greedy"]
    assert gr["games"] == rg["games"] == 12
    assert gr["score"] + rg["score"] == pytest.approx(1)
    assert gr["wins"] == rg["losses"] and gr["ties"] == rg["ties"]
    assert gr["wins"] + gr["losses"] + gr["ties"] == 12
    assert sum(out["victories"].values()) == 12
    assert out.get("hegemony", 0) + out.get("majority", 0) == 12


def test_more_bots_than_seats() -> None:
    out = arena_json("-b", "greedy,random,random:b", "-n", "6", "-p", "2")
    assert out["seatings"] == 6
    # each bot plays 4 of the 6 ordered pairs
    assert out["games_by_bot"] == {"greedy": 4, "random": 4, "random:b": 4}
    assert sum(out["wins"].values()) == pytest.approx(6)
    assert out["head_to_head"]["greedy"]["random"]["games"] == 2


def test_team_arena_one_bot_per_team() -> None:
    out = arena_json("-b", "greedy,random", "-n", "4", "-p", "4", "--teams", "--draft")
    assert out["teams"] is True and out["deal"] == "draft"
    assert out["options"] == {"deal": "draft", "teams": True}
    assert out["games_by_seat"]["greedy"] == [2, 2, 2, 2]
    assert sum(out["wins"].values()) == pytest.approx(4)


def test_same_results_for_any_number_of_jobs() -> None:
    args = ("-b", "greedy,random", "-n", "8", "-p", "2", "--seed", "9")
    one = arena_json(*args, "-j", "1")
    two = arena_json(*args, "-j", "2")
    for k in TIMING:
        one.pop(k)
        two.pop(k)
    assert one == two


def test_unbalanced_game_count_is_said() -> None:
    s = run_arena(ArenaConfig(bots=("random", "greedy"), games=3, players=2))
    assert not s.balanced and s.to_json()["balanced"] is False
    result = runner.invoke(app, ["arena", "--no-progress", "-b", "random,greedy", "-n", "3"])
    assert result.exit_code == 0
    assert "not a multiple" in result.stdout
    assert "head to head" in result.stdout and "greedy" in result.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["-b", "greedy,nosuchbot"], "unknown bot"),
        (["-b", "greedy,Greedy"], "listed twice"),
        (["-b", "greedy"], "at least 2 different bots"),
        (["-b", "greedy,,random"], "empty name"),
        (["-b", "greedy,random", "-p", "5"], "players"),
        (["-b", "greedy,random", "-p", "3", "--teams"], "team game needs exactly 4"),
        (["-b", "greedy,random", "--game", "nosuch"], "there is no game 'nosuch'"),
        (["-b", "greedy,random", "--option", "speed=3"], "has no option 'speed'"),
        (["-b", "greedy,random", "--option", "deal"], "NAME=VALUE"),
        (["-b", "greedy,random", "-n", "0"], "at least 1"),
        (["-b", "greedy,random", "-j", "0"], "jobs"),
    ],
)
def test_bad_input_exits_2_with_a_message(args: list[str], words: str) -> None:
    result = runner.invoke(app, ["arena", "--no-progress", *args])
    assert result.exit_code == 2
    assert words in result.stderr
    assert "Traceback" not in result.output
    assert result.stdout == ""


def test_an_arena_of_any_game() -> None:
    """The arena plays a game it knows only through the interface (the test-only game)."""
    out = arena_json("--game", "toy", "-b", "random,ismcts:20it", "-n", "4", "-p", "2")
    assert out["games"] == 4 and out["options"] == {"peek": True}
    assert sum(out["wins"].values()) == pytest.approx(4)
    assert out["games_by_seat"]["random"] == [2, 2]
    bad = runner.invoke(app, ["arena", "--no-progress", "--game", "toy", "-b", "greedy,random"])
    assert bad.exit_code == 2 and "unknown bot 'greedy'" in bad.stderr
