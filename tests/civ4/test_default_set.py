"""The platform's default set-up of civ4 (issue 40, decision 1): new games play
``reconstructed-3`` at every player count, and at 2 players the ``finish_round`` variant
(C68) is on unless switched off; the engine's defaults stay the rules as written (C68,
C9: a record naming nothing is the original set with no variant)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from civcards import civ4
from civcards.civ4.options import RECORD_CARD_SET, Options
from civcards.cli import build_app  # the whole CLI, as `civcards` runs it
from civcards.game_api import OptionSpec, default_options
from civcards.games.civ4.game import GAME
from civcards.server.app import create_app


def _civ4_json(options: list[dict[str, object]]) -> dict[str, dict[str, object]]:
    return {str(o["name"]): o for o in options}


def test_civcards_games_json_shows_the_new_default() -> None:
    """C68: ``civcards games --json`` names reconstructed-3 and finish_round on at 2 players."""
    out = CliRunner().invoke(build_app(), ["games", "--json"])
    assert out.exit_code == 0, out.output
    civ = next(g for g in json.loads(out.output)["games"] if g["name"] == "civ4")
    opts = _civ4_json(civ["options"])
    assert opts["cards"]["default"] == "reconstructed-3"
    assert opts["finish_round"]["default"] is False
    assert opts["finish_round"]["player_defaults"] == {"2": True}
    assert "player_defaults" not in opts["all_techs"]
    text = CliRunner().invoke(build_app(), ["games"]).output
    assert "--option finish_round=False (True at 2 players)" in text


@pytest.mark.parametrize(("players", "on"), [(2, True), (3, False), (4, False)])
def test_a_new_game_takes_the_default_of_its_player_count(players: int, on: bool) -> None:
    """C68 on by default at 2 players only; the card set at every count; both in the record."""
    opts = GAME.check_options(players, {})
    assert opts["cards"] == "reconstructed-3" and opts["finish_round"] is on
    assert default_options(GAME, players)["finish_round"] is on
    rec = GAME.record(GAME.new_state(players, opts, 7))
    assert rec["options"].get("finish_round", False) is on
    assert rec["options"]["cards"] == "reconstructed-3"


def test_an_explicit_false_stays_off_and_true_stays_on() -> None:
    """C68: the variant switched off at 2 players is off, and on at 3 players is on."""
    assert GAME.check_options(2, {"finish_round": False})["finish_round"] is False
    assert GAME.check_options(2, {"finish_round": None})["finish_round"] is True
    assert GAME.check_options(3, {"finish_round": True})["finish_round"] is True
    g = GAME.new_state(2, GAME.check_options(2, {"finish_round": False}), 7)
    assert "finish_round" not in GAME.record(g)["options"]


def test_the_engine_keeps_the_rules_as_written() -> None:
    """C68, C9: with no option the engine plays the original set and no variant, so an old
    record keeps its meaning; the older sets stay playable by name."""
    assert Options().finish_round is False and Options().cards is None
    g = civ4.new_game(2, {}, seed=1)
    assert g.cs.set_name == RECORD_CARD_SET and g.options.finish_round is False
    for name in ("reconstructed-1", "reconstructed-2"):
        assert GAME.check_options(2, {"cards": name})["cards"] == name


def test_option_spec_default_for() -> None:
    spec = OptionSpec("x", "int", 1, "h", player_defaults=((3, 5),))
    assert (spec.default_for(2), spec.default_for(3), spec.default_for(None)) == (1, 5, 1)


def test_a_new_two_player_game_from_the_api(tmp_path: Path) -> None:
    """C68: a game made through the API with no options has finish_round at 2 players only,
    and keeps an explicit false."""
    app = create_app(f"sqlite:///{tmp_path / 'd.db'}", bot_delay=0.0)
    bots = [{"kind": "bot", "bot": "random"}] * 4
    with TestClient(app, headers={"host": "localhost"}) as c:
        for players, options, on in (
            (2, {}, True),
            (2, {"finish_round": False}, False),
            (3, {}, False),
        ):
            r = c.post(
                "/api/games",
                json={
                    "game": "civ4",
                    "players": players,
                    "seats": bots[:players],
                    "options": options,
                },
            )
            assert r.status_code == 201, r.text
            got = c.get(f"/api/games/{r.json()['id']}").json()["options"]
            assert got["finish_round"] is on and got["cards"] == "reconstructed-3", got


def test_a_new_two_player_game_from_the_cli(tmp_path: Path) -> None:
    """C68: ``civcards simulate`` with no option plays the new default (the row names it)."""
    out = tmp_path / "rows.csv"
    args = ["simulate", "--game", "civ4", "--games", "1", "--players", "2"]
    res = CliRunner().invoke(
        build_app(),
        [*args, "--bots", "random,random", "--seed", "3", "--out", str(out), "--no-progress"],
    )
    assert res.exit_code == 0, res.output
    row = next(csv.DictReader(out.read_text().splitlines()))
    assert row["finish_round"].lower() == "true" and row["cards"] == "reconstructed-3", row
