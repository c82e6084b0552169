"""Issue 38, item 4: a timeout is not forever. A player whose seat a bot took over because
their time ran out takes it back for the start of their next turn (at once when another
seat is to move; else once the bot has ended the turn it plays); never after resigning or
a vote. Both events are in the game's ``takeovers`` and the record. Through a real
``civcards serve`` over a real SQLite file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests import toygame

from . import net
from .conftest import ServerProcess
from .test_clocks import info, until, view

H = "X-Seat-Token"
TOY = {"CIVCARDS_EXTRA_GAMES": "tests.toygame:GAME"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    s = ServerProcess(tmp_path_factory.mktemp("reclaim") / "civ.db", env=TOY)
    s.start()
    yield s
    s.stop()


def new_game(server: ServerProcess, seconds: int) -> tuple[str, list[str]]:
    g = server.create(
        game="toy",
        players=2,
        seats=[{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bo"}],
        clock={"type": "move", "seconds": seconds},
        takeover_bot="random",
        seed=3,
    )
    return g["id"], [s["token"] for s in g["seats"]]


def reclaim(server: ServerProcess, gid: str, token: str) -> httpx.Response:
    return net.post(f"{server.base}/api/games/{gid}/reclaim", headers={H: token}, timeout=10)


def first_final(server: ServerProcess, gid: str, token: str) -> tuple[str, int]:
    """A whole move of the seat's (the toy's ``play N``) and the move number it is for."""
    v = view(server, gid, token)
    assert v["options"], v
    return f"play {v['observation']['hand'][0]}", v["move_number"]


def test_a_timed_out_player_takes_the_seat_back_and_the_record_says_so(
    server: ServerProcess, tmp_path: Path
) -> None:
    gid, tokens = new_game(server, 6)
    # Ana (seat 0, first to move) lets her time run out: the bot plays her move (the
    # module's server lets bots move at once), and Bo is to move
    until(lambda: info(server, gid)["move_number"] == 1, timeout=15)
    g = info(server, gid)
    assert g["seats"][0]["kind"] == "bot" and g["to_move"] == 1
    # the table offers her the seat back (the view of her former seat)
    v = view(server, gid, tokens[0])
    assert v["taken_over_seat"] == 0
    assert v["clock"]["reclaim"] == {"seat": 0, "pending": False}
    assert view(server, gid, tokens[1])["clock"]["reclaim"] is None  # not Bo's to take
    assert view(server, gid)["clock"]["reclaim"] is None  # nor a spectator's
    # a spectator, a made-up token, another seat: refused, nothing changes
    assert net.post(f"{server.base}/api/games/{gid}/reclaim").status_code == 401
    assert reclaim(server, gid, "made-up").status_code == 403
    r = reclaim(server, gid, tokens[1])
    assert r.status_code == 409 and r.json()["code"] == "not_taken_over", r.text
    # another seat is to move: the seat is hers again at once, for her next turn
    r = reclaim(server, gid, tokens[0])
    assert r.status_code == 200, r.text
    assert r.json() == {"seat": 0, "back": True}
    g = info(server, gid)
    assert g["seats"][0]["kind"] == "human" and g["seats"][0]["bot"] is None
    assert g["takeovers"] == [
        {"seat": 0, "move": 0, "bot": "random", "reason": "timeout"},
        {"seat": 0, "move": 1, "bot": "random", "reason": "reclaimed"},
    ]
    again = reclaim(server, gid, tokens[0])
    assert again.status_code == 409 and again.json()["code"] == "not_taken_over"
    # Bo moves; Ana's turn starts with her own clock, and her move is hers
    move, n = first_final(server, gid, tokens[1])
    r = net.post(
        f"{server.base}/api/games/{gid}/moves",
        json={"move": move, "expected": n},
        headers={H: tokens[1]},
    )
    assert r.status_code == 200, r.text
    v = view(server, gid, tokens[0])
    assert v["seat"] == 0 and "taken_over_seat" not in v and v["options"]
    assert v["clock"]["running"] == 0 and v["clock"]["reclaim"] is None
    move, n = first_final(server, gid, tokens[0])
    r = net.post(
        f"{server.base}/api/games/{gid}/moves",
        json={"move": move, "expected": n},
        headers={H: tokens[0]},
    )
    assert r.status_code == 200, r.text
    # she resigns: that seat is the bot's for good
    assert (
        net.post(f"{server.base}/api/games/{gid}/resign", headers={H: tokens[0]}).status_code
        == 200
    )
    r = reclaim(server, gid, tokens[0])
    assert r.status_code == 409 and r.json()["code"] == "no_reclaim", r.text
    assert "resign" in r.json()["detail"]
    assert view(server, gid, tokens[0])["clock"]["reclaim"] is None
    assert (
        net.post(f"{server.base}/api/games/{gid}/resign", headers={H: tokens[1]}).status_code
        == 200
    )
    until(lambda: info(server, gid)["status"] == "finished", timeout=30)
    record = net.get(f"{server.base}/api/games/{gid}/record").json()
    assert [(t["seat"], t["move"], t["reason"]) for t in record["takeovers"]] == [
        (0, 0, "timeout"),
        (0, 1, "reclaimed"),
        (0, 3, "resigned"),
        (1, 3, "resigned"),
    ]
    # the record replays (the takeovers beside the moves are ignored by the game's reader)
    assert toygame.GAME.from_record(record).finished


def test_a_reclaim_during_the_bots_turn_takes_effect_at_the_next_turn(tmp_path: Path) -> None:
    # the bots wait 8 s before each move: Ana asks while the bot still plays her turn
    s = ServerProcess(tmp_path / "slow.db", env=TOY, bot_delay=8.0)
    s.start()
    try:
        gid, tokens = new_game(s, 2)
        until(lambda: info(s, gid)["seats"][0]["kind"] == "bot", timeout=15)
        assert info(s, gid)["move_number"] == 0  # the bot has not moved yet
        r = reclaim(s, gid, tokens[0])
        assert r.status_code == 200, r.text
        assert r.json() == {"seat": 0, "back": False}
        assert view(s, gid, tokens[0])["clock"]["reclaim"] == {"seat": 0, "pending": True}
        assert info(s, gid)["seats"][0]["kind"] == "bot"  # the bot ends the turn it plays
        r = reclaim(s, gid, tokens[0])  # asked twice: the same
        assert r.status_code == 200 and r.json() == {"seat": 0, "back": False}
        until(lambda: info(s, gid)["move_number"] == 1, timeout=30)
        g = info(s, gid)
        assert g["seats"][0]["kind"] == "human"
        assert [(t["move"], t["reason"]) for t in g["takeovers"]][:2] == [
            (0, "timeout"),
            (1, "reclaimed"),
        ]
        # after a restart, the same (the clock's row keeps the takeovers; Bo's own clock
        # may have run out meanwhile)
        s.restart()
        assert info(s, gid)["takeovers"][:2] == g["takeovers"][:2]
    finally:
        s.stop()
