"""Issue 21, deliverable 4: clocks, takeovers, resigning and votes, through a real
``civcards serve`` process over a real SQLite file, for every game of the platform.

A clock runs out → the game's takeover bot plays the seat → the game goes on to its end →
the record notes the takeover (``takeovers``) and replays with ``civcards replay``.
Clocks are the server's: they survive restarts (clean and crashes), and the downtime
does not count against the seat to move.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from civcards.game_api import BUILTIN, game_for_record, get_game, register
from tests import toygame

from . import net
from .conftest import ROOT, ServerProcess

H = "X-Seat-Token"
#: a beat this short makes a crash of more than a second count as downtime (clocks.py)
BEAT_ENV = {"CIVCARDS_CLOCK_BEAT": "0.5"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the module, hosting the test-only game too (every game's clocks)."""
    register(toygame.GAME)
    s = ServerProcess(
        tmp_path_factory.mktemp("clocks") / "civ.db",
        env={"CIVCARDS_EXTRA_GAMES": "tests.toygame:GAME"},
    )
    s.start()
    yield s
    s.stop()


@pytest.fixture
def clock_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server of the test's own (restarts), beating every half second."""
    s = ServerProcess(tmp_path / "civ.db", env=BEAT_ENV)
    s.start()
    yield s
    s.stop()


def view(server: ServerProcess, gid: str, token: str | None = None) -> dict[str, Any]:
    r = net.get(
        f"{server.base}/api/games/{gid}/state", headers={H: token} if token else {}, timeout=10
    )
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def info(server: ServerProcess, gid: str) -> dict[str, Any]:
    r = net.get(f"{server.base}/api/games/{gid}", timeout=10)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def until(what: Callable[[], Any], timeout: float = 20.0, step: float = 0.05) -> Any:
    """``what()`` once it is truthy (polled), else fail."""
    end = time.monotonic() + timeout
    while True:
        got = what()
        if got:
            return got
        assert time.monotonic() < end, "waited in vain"
        time.sleep(step)


def instant(text: str) -> float:
    return datetime.fromisoformat(text).timestamp()


def create(server: ServerProcess, **body: Any) -> dict[str, Any]:
    return server.create(**body)


def play_humans(
    server: ServerProcess, gid: str, tokens: list[str | None], rng: random.Random, limit: int
) -> int:
    """Random choices for the seats still played by people (bots move by themselves); how
    many were sent (a step that hides nothing counts too: it is only expanded)."""
    made = 0
    while made < limit:
        g = info(server, gid)
        if g["status"] == "finished":
            break
        seat = g["to_move"]
        tok = tokens[seat]
        if g["seats"][seat]["kind"] == "bot" or tok is None:
            time.sleep(0.02)
            continue
        v = view(server, gid, tok)
        if v["move_number"] != g["move_number"] or v["game"]["to_move"] != seat:
            continue
        choices = v["pending"]["choices"] if v["pending"] else v["options"]
        r = net.post(
            f"{server.base}/api/games/{gid}/moves",
            json={"move": rng.choice(choices)["text"], "expected": v["move_number"]},
            headers={H: tok},
            timeout=10,
        )
        if r.status_code == 409:  # a clock ran out meanwhile, or the bot was first
            continue
        assert r.status_code == 200, r.text
        made += 1
    return made


def a_move(v: dict[str, Any]) -> str:
    """A whole move of the view's choices: ``end`` where it is one (CIV), else the first."""
    if v["pending"]:
        return str(v["pending"]["choices"][0]["text"])
    finals = [c["text"] for c in v["options"] if c["final"]]
    return "end" if "end" in finals else str(finals[0])


def replay(record: dict[str, Any], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "civcards.cli", "replay", str(path), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


# -- settings -------------------------------------------------------------------------------

BAD_CLOCKS: list[tuple[dict[str, Any], str, str]] = [
    ({"clock": {"type": "blitz"}}, "bad_clock", "no clock 'blitz'"),
    ({"clock": {"type": "move", "seconds": -5}}, "bad_clock", "at least 1 second"),
    ({"clock": {"type": "move", "seconds": 0}}, "bad_clock", "at least 1 second"),
    ({"clock": {"type": "move", "seconds": 10**9}}, "bad_clock", "at most 86,400"),
    ({"clock": {"type": "move"}}, "bad_clock", "needs the seconds per move"),
    ({"clock": {"type": "game", "base": 60, "increment": -1}}, "bad_clock", "at least 0"),
    ({"clock": {"type": "game", "base": 99999999}}, "bad_clock", "at most 604,800"),
    ({"clock": {"type": "game", "base": 60, "days": 2}}, "bad_clock", "has no 'days'"),
    ({"clock": {"type": "days", "days": 365}}, "bad_clock", "at most 30 days"),
    ({"clock": {"type": "move", "seconds": "30"}}, "invalid_request", "integer"),
    ({"clock": {"type": "move", "seconds": 2.5}}, "invalid_request", "integer"),
    ({"clock": {"type": "move", "seconds": 5, "hours": 1}}, "invalid_request", "hours"),
    ({"clock": "fast"}, "invalid_request", "clock"),
    ({"takeover_bot": "nobody"}, "bad_bot", "has no bot 'nobody'"),
    ({"takeover_bot": "ismcts:99999it"}, "bad_bot", "thinks too long"),
    ({"grace": -1}, "bad_clock", "grace period is at least 1 second"),
    ({"grace": 10**8}, "bad_clock", "grace period is at most"),
]


def test_clock_settings_are_checked_in_one_sentence(server: ServerProcess) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    with server.client() as c:
        before = c.get("/api/games?limit=100").json()
        for extra, code, words in BAD_CLOCKS:
            r = c.post("/api/games", json={"players": 2, "seats": seats, "private": False, **extra})
            assert r.status_code == 422, (extra, r.text)
            body: dict[str, Any] = r.json()
            assert body["code"] == code, (extra, body)
            assert words in body["detail"], (extra, body)
            assert "Traceback" not in r.text and body["detail"].count("\n") == 0
        assert c.get("/api/games?limit=100").json() == before  # nothing was created
        # the good ones, normalised, shown with the game (a game without one: none)
        good: list[tuple[dict[str, Any] | None, dict[str, Any]]] = [
            (None, {"type": "none"}),
            ({"type": "move", "seconds": 30}, {"type": "move", "seconds": 30}),
            ({"type": "game", "base": 300}, {"type": "game", "base": 300, "increment": 0}),
            ({"type": "game", "base": 300, "increment": 5}, {"increment": 5}),
            ({"type": "days", "days": 3}, {"type": "days", "days": 3}),
        ]
        for clock, shown in good:
            body = {"players": 2, "seats": seats}
            if clock is not None:
                body["clock"] = clock
            r = c.post("/api/games", json=body)
            assert r.status_code == 201, r.text
            spec = c.get(f"/api/games/{r.json()['id']}").json()["clock"]
            assert spec.items() >= shown.items(), spec
            assert spec["takeover_bot"] == "greedy" and spec["grace"] == 300


# -- a clock runs out ------------------------------------------------------------------------


@pytest.mark.parametrize("game", [*BUILTIN, toygame.GAME.name])
def test_a_clock_runs_out_a_bot_takes_the_seat_and_the_game_goes_on(
    server: ServerProcess, game: str, tmp_path: Path
) -> None:
    g = create(
        server,
        game=game,
        players=2,
        seats=[{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bo"}],
        clock={"type": "move", "seconds": 2},
        takeover_bot="random",
        seed=5,
    )
    gid = g["id"]
    tokens: list[str | None] = [s["token"] for s in g["seats"]]
    first = view(server, gid, tokens[0])
    clock = first["clock"]
    seat = first["game"]["to_move"]
    other = 1 - seat
    assert clock["running"] == seat and clock["remaining"][seat] == 2
    assert instant(clock["deadline"]) - instant(clock["started"]) == pytest.approx(2, abs=0.01)
    # the server, not a browser, decides: nobody is connected, the time runs out
    until(lambda: info(server, gid)["seats"][seat]["kind"] == "bot", timeout=10)
    g1 = info(server, gid)
    assert g1["seats"][seat]["bot"] == "random" and g1["seats"][seat]["name"] in ("Ana", "Bo")
    assert g1["takeovers"] == [{"seat": seat, "move": 0, "bot": "random", "reason": "timeout"}]
    # the former player watches as a spectator (R25: never the bot's hand) and no longer
    # moves the seat
    v = view(server, gid, tokens[seat])
    assert v["seat"] is None and v["taken_over_seat"] == seat
    assert v["options"] == [] and v["clock"]["takeovers"]
    # the same as any spectator's, at the same move (the bot may move between two requests)
    for _ in range(50):
        v, watcher = view(server, gid, tokens[seat]), view(server, gid)
        if v["move_number"] == watcher["move_number"]:
            break
    assert v["observation"] == watcher["observation"]
    # the game goes on: the bot plays its seat, the other player makes a few moves, then
    # leaves too: its clock runs out as well, and the bots finish the game
    made = play_humans(server, gid, tokens, random.Random(7), 6)
    assert made == 6 or info(server, gid)["status"] == "finished"
    until(lambda: info(server, gid)["status"] == "finished", timeout=120, step=0.2)
    end = view(server, gid, tokens[other])
    assert end["clock"]["running"] is None and end["clock"]["deadline"] is None
    r = net.get(f"{server.base}/api/games/{gid}/record")
    assert r.status_code == 200, r.text
    record = r.json()
    assert record["takeovers"][0] == {"seat": seat, "move": 0, "bot": "random", "reason": "timeout"}
    if made == 6:  # the other left before the end: its clock ran out too
        assert [t["seat"] for t in record["takeovers"]] == [seat, other]
        assert record["takeovers"][1]["move"] > 0
        assert record["takeovers"][1]["reason"] == "timeout"
    assert game_for_record(record).name == game
    # the record replays to its end with the takeovers noted, in the library and the CLI
    state = game_for_record(record).from_record(record)
    assert state.finished
    if game in BUILTIN:  # (the command line does not host the test-only game)
        done = replay(record, tmp_path)
        assert done.returncode == 0, done.stdout + done.stderr
        assert json.loads(done.stdout).get("error") is None


def test_a_game_clock_keeps_each_seats_time_with_its_increment(server: ServerProcess) -> None:
    g = create(
        server,
        players=2,
        seats=[{"kind": "human"}, {"kind": "human"}],
        clock={"type": "game", "base": 40, "increment": 3},
        seed=8,
    )
    gid = g["id"]
    tokens = [s["token"] for s in g["seats"]]
    v = view(server, gid, tokens[0])
    seat = v["game"]["to_move"]
    assert v["clock"]["remaining"] == [40, 40]
    time.sleep(1.0)
    v = view(server, gid, tokens[seat])
    # a turn may be several moves (CIV: plays, then end): the clock runs on the seat to move
    while v["game"]["to_move"] == seat:
        r = net.post(
            f"{server.base}/api/games/{gid}/moves",
            json={"move": a_move(v), "expected": v["move_number"]},
            headers={H: tokens[seat]},
        )
        assert r.status_code == 200, r.text
        v = view(server, gid, tokens[seat])
    after = v["clock"]["remaining"][seat]
    moves = v["move_number"]
    # 40 s, less the second or so it thought (and the requests' time, more on a busy
    # machine), plus 3 s for each of its moves
    assert 40 + 3 * moves - 15 < after < 40 + 3 * moves - 0.99, (after, moves)
    assert v["clock"]["running"] == 1 - seat and v["clock"]["remaining"][1 - seat] == 40


# -- restarts ---------------------------------------------------------------------------------


@pytest.mark.parametrize("hard", [False, True], ids=["clean", "crash"])
def test_clocks_survive_a_restart_and_downtime_does_not_count(
    clock_server: ServerProcess, hard: bool
) -> None:
    server = clock_server
    g = create(
        server,
        players=2,
        seats=[{"kind": "human"}, {"kind": "human"}],
        clock={"type": "move", "seconds": 6},
        seed=3,
    )
    gid = g["id"]
    tokens = [s["token"] for s in g["seats"]]
    before = view(server, gid, tokens[0])["clock"]
    seat = before["running"]
    assert seat is not None
    if hard:
        server.kill()
    else:
        server.stop()
    down = time.monotonic()
    time.sleep(7)  # past the deadline: a server running would have given the seat away
    server.start()
    downtime = time.monotonic() - down
    after = view(server, gid, tokens[0])
    clock = after["clock"]
    assert after["game"]["seats"][seat]["kind"] == "human", "the downtime was counted"
    assert clock["running"] == seat and clock["remaining"][seat] == 6
    moved = instant(clock["deadline"]) - instant(before["deadline"])
    # the deadline moved on by the downtime: from the old server's last beat to the new
    # one's start (the test measures from the stop's return to the first answer)
    assert 7 <= moved <= downtime + 1, (moved, downtime)
    # ... and it runs out later all the same, enforced by the restarted server
    until(lambda: info(server, gid)["seats"][seat]["kind"] == "bot", timeout=10)
    assert info(server, gid)["takeovers"][0]["reason"] == "timeout"


def test_a_game_clocks_banked_time_survives_a_restart(clock_server: ServerProcess) -> None:
    server = clock_server
    g = create(
        server,
        players=2,
        seats=[{"kind": "human"}, {"kind": "human"}],
        clock={"type": "game", "base": 60, "increment": 0},
        seed=4,
    )
    gid = g["id"]
    tokens = [s["token"] for s in g["seats"]]
    seat = view(server, gid)["game"]["to_move"]
    v = view(server, gid, tokens[seat])
    time.sleep(1.2)
    while v["game"]["to_move"] == seat:
        r = net.post(
            f"{server.base}/api/games/{gid}/moves",
            json={"move": a_move(v), "expected": v["move_number"]},
            headers={H: tokens[seat]},
        )
        assert r.status_code == 200, r.text
        v = view(server, gid, tokens[seat])
    banked = v["clock"]["remaining"]
    assert banked[seat] < 59 and banked[1 - seat] == 60
    server.restart()
    again = view(server, gid, tokens[0])["clock"]
    assert again["remaining"] == banked and again["running"] == 1 - seat


# -- resigning ----------------------------------------------------------------------------------


def test_a_player_resigns_and_the_rematch_gives_the_seat_back(
    server: ServerProcess, tmp_path: Path
) -> None:
    g = create(
        server,
        players=3,
        seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}],
        clock={"type": "days", "days": 2},
        takeover_bot="random",
        seed=12,
    )
    gid = g["id"]
    tokens: list[str | None] = [s["token"] for s in g["seats"]]
    url = f"{server.base}/api/games/{gid}/resign"
    # no token, a wrong token, a spectator: refused, nothing changes
    assert net.post(url).status_code == 401
    assert net.post(url, headers={H: "nope"}).status_code == 403
    assert info(server, gid)["takeovers"] == []
    r = net.post(url, headers={H: tokens[1]})
    assert r.status_code == 200, r.text
    assert r.json()["seats"][1]["kind"] == "bot"
    assert r.json()["takeovers"] == [{"seat": 1, "move": 0, "bot": "random", "reason": "resigned"}]
    again = net.post(url, headers={H: tokens[1]})
    assert again.status_code == 409 and again.json()["code"] == "not_human"
    # its former player can no longer move it, and from now on sees what a spectator sees:
    # never the hand the bot holds and draws (R25: a partner must not learn it)
    v = view(server, gid, tokens[1])
    assert v["options"] == []
    assert v["seat"] is None and v["taken_over_seat"] == 1
    assert v["observation"] == view(server, gid)["observation"]
    r = net.post(
        f"{server.base}/api/games/{gid}/moves",
        json={"move": "end", "expected": v["move_number"]},
        headers={H: tokens[1]},
    )
    assert r.status_code == 409 and r.json()["code"] in ("taken_over", "stale")
    play_humans(server, gid, tokens, random.Random(3), 5000)
    until(lambda: info(server, gid)["status"] == "finished", timeout=120, step=0.2)
    record = net.get(f"{server.base}/api/games/{gid}/record").json()
    assert record["takeovers"] == [{"seat": 1, "move": 0, "bot": "random", "reason": "resigned"}]
    assert replay(record, tmp_path).returncode == 0
    # the rematch: the same seats for the same people (the one who resigned too), the bot
    # kept, the same clock; one click each
    rematches = []
    for seat in (0, 1):
        r = net.post(f"{server.base}/api/games/{gid}/rematch", headers={H: tokens[seat]})
        assert r.status_code == 200, r.text
        assert r.json()["seat"] == seat
        rematches.append(r.json())
    assert rematches[0]["id"] == rematches[1]["id"]
    new = info(server, rematches[0]["id"])
    assert [s["kind"] for s in new["seats"]] == ["human", "human", "bot"]
    assert new["seats"][2]["bot"] == "random" and new["takeovers"] == []
    assert new["clock"]["type"] == "days" and new["clock"]["days"] == 2
    assert new["clock"]["takeover_bot"] == "random"
    assert new["rematch_of"] == gid
    # each seat is played with the token its click gave
    v = view(server, new["id"], rematches[1]["token"])
    assert v["seat"] == 1


# -- votes ----------------------------------------------------------------------------------------


def test_the_others_vote_an_absent_seat_out_after_the_grace_period(server: ServerProcess) -> None:
    g = create(
        server,
        players=3,
        seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}],
        grace=2,
        takeover_bot="random",
        seed=9,
    )
    gid = g["id"]
    tokens = [s["token"] for s in g["seats"]]
    url = f"{server.base}/api/games/{gid}/vote"
    v = view(server, gid, tokens[0])
    absent = v["game"]["to_move"]
    a, b = (s for s in range(3) if s != absent)
    vote = view(server, gid, tokens[a])["clock"]["vote"]
    assert vote["seat"] == absent and vote["needed"] == 2 and vote["votes"] == []
    assert vote["can_vote"] is True
    assert view(server, gid, tokens[absent])["clock"]["vote"]["can_vote"] is False
    assert instant(vote["opens_at"]) - instant(v["clock"]["started"]) == pytest.approx(2, abs=0.01)
    # too early: refused in a sentence, nothing stored
    r = net.post(url, json={"seat": absent}, headers={H: tokens[a]})
    assert r.status_code == 409 and r.json()["code"] == "too_early", r.text
    assert "2 s" in r.json()["detail"]
    # bad votes: one sentence each, nothing changes
    bad = [
        ({"seat": a}, tokens[b], 409, "not_waiting"),
        ({"seat": absent}, tokens[absent], 422, "bad_seat"),
        ({"seat": 7}, tokens[a], 422, "bad_seat"),
        ({"seat": -1}, tokens[a], 422, "invalid_request"),
        ({"seat": "1"}, tokens[a], 422, "invalid_request"),
        ({}, tokens[a], 422, "invalid_request"),
        ({"seat": absent}, None, 401, "no_token"),
    ]
    time.sleep(2.1)
    for body, tok, status, code in bad:
        r = net.post(url, json=body, headers={H: tok} if tok else {})
        assert r.status_code == status and r.json()["code"] == code, (body, r.text)
    assert view(server, gid, tokens[a])["clock"]["vote"]["votes"] == []
    # one of two votes: not yet
    r = net.post(url, json={"seat": absent}, headers={H: tokens[a]})
    assert r.status_code == 200, r.text
    assert r.json() == {"seat": absent, "votes": [a], "needed": 2, "taken_over": False}
    seen = view(server, gid, tokens[b])["clock"]["vote"]
    assert seen["votes"] == [a] and seen["can_vote"] is True
    assert view(server, gid, tokens[a])["clock"]["vote"]["can_vote"] is False
    # the second: the bot takes the seat, and moves
    r = net.post(url, json={"seat": absent}, headers={H: tokens[b]})
    assert r.status_code == 200, r.text
    assert r.json()["taken_over"] is True
    g2 = info(server, gid)
    assert g2["seats"][absent]["kind"] == "bot"
    assert g2["takeovers"] == [{"seat": absent, "move": 0, "bot": "random", "reason": "vote"}]
    until(lambda: info(server, gid)["move_number"] > 0, timeout=10)


@pytest.mark.parametrize("beat", ["abc", "0", "-1", "99999"])
def test_a_bad_beat_setting_is_refused_in_one_sentence(beat: str, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "civcards.cli", "serve", "--db", f"sqlite:///{tmp_path}/c.db"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "CIVCARDS_CLOCK_BEAT": beat},
    )
    assert done.returncode == 2
    assert done.stderr.strip() == f"error: CIVCARDS_CLOCK_BEAT={beat!r} " + (
        "is not a number" if beat == "abc" else "must be from 0.1 to 3600 seconds"
    )
    assert not (tmp_path / "c.db").exists()


def test_a_move_that_comes_after_its_deadline_is_refused(tmp_path: Path) -> None:
    """The server's table itself (real SQLite), its clock check not yet run: a move sent
    after the seat's deadline is refused and stores nothing; the check then gives the seat
    to the bot."""
    import asyncio

    from civcards.server.clocks import Clocks, check_clock
    from civcards.server.core import ApiError, TableServer
    from civcards.server.db import make_engine, migrate

    engine = make_engine(f"sqlite:///{tmp_path}/c.db")
    migrate(engine)

    async def run() -> None:
        # the bots wait a minute before moving: nothing but the clocks acts in this test
        server = TableServer(engine, bot_delay=60, allow_seed=True)
        clocks = Clocks(server)
        clocks.service.open()  # service time, without the loop that enforces deadlines
        live, _ = server.create(
            kind="carta",
            players=2,
            options={},
            seats=[{"kind": "human"}, {"kind": "human"}],
            seed=2,
            clock=check_clock("carta", {"type": "move", "seconds": 1}),
        )
        seat = live.state.to_move
        text = next(c.text for c in live.game.choices(live.state) if c.final)
        await asyncio.sleep(1.2)
        with pytest.raises(ApiError) as refused:
            await server.move(live, seat, text, 0)
        assert refused.value.status == 409 and refused.value.code == "out_of_time"
        assert live.moves == [] and live.seats[seat].kind == "human"
        assert await clocks.check() == 1
        assert live.seats[seat].kind == "bot" and live.takeovers[0]["reason"] == "timeout"
        with pytest.raises(ApiError) as gone:
            await server.move(live, seat, text, 0)
        assert gone.value.code == "taken_over"
        await server.stop()

    try:
        asyncio.run(run())
    finally:
        engine.dispose()


# -- several processes -----------------------------------------------------------------------


@pytest.fixture
def shared_pair(tmp_path: Path) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    """Two ``serve --redis`` processes over one PostgreSQL and one Redis of the test's own."""
    pytest.importorskip("psycopg")
    pytest.importorskip("redis")
    from .conftest import env_flag
    from .postgres import TempPostgres, find_bin
    from .redis_server import TempRedis, find_redis

    pg_bin, redis_bin = find_bin(), find_redis()
    if pg_bin is None or redis_bin is None:
        need = env_flag("CIVCARDS_REQUIRE_PG") or env_flag("CIVCARDS_REQUIRE_REDIS")
        (pytest.fail if need else pytest.skip)("PostgreSQL or redis-server is not installed")
    assert pg_bin is not None and redis_bin is not None
    pg, rd = TempPostgres(pg_bin), TempRedis(redis_bin)
    procs: list[ServerProcess] = []
    try:
        pg.start()
        rd.start()
        procs = [
            ServerProcess(tmp_path / name, db_url=pg.url, extra_args=["--redis", rd.url])
            for name in ("a", "b")
        ]
        for p in procs:
            p.start()
        yield procs[0], procs[1]
    finally:
        for p in procs:
            p.stop()
        rd.stop()
        pg.stop()
    for p in procs:
        assert "Traceback" not in p.log(), p.log()[-3000:]


def test_two_processes_enforce_a_clock_once(
    shared_pair: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = shared_pair
    g = create(
        a,
        players=2,
        seats=[{"kind": "human"}, {"kind": "human"}],
        clock={"type": "move", "seconds": 2},
        takeover_bot="random",
        seed=6,
    )
    gid = g["id"]
    seat = view(b, gid)["game"]["to_move"]
    # both processes check the deadlines: the seat is given to the bot once, and each
    # process shows it
    until(lambda: info(b, gid)["seats"][seat]["kind"] == "bot", timeout=15)
    until(lambda: info(a, gid)["seats"][seat]["kind"] == "bot", timeout=15)
    until(lambda: info(b, gid)["move_number"] > 0, timeout=15)
    time.sleep(1.0)
    for server in (a, b):
        taken = info(server, gid)["takeovers"]
        assert taken[0] == {"seat": seat, "move": 0, "bot": "random", "reason": "timeout"}
        assert [t["seat"] for t in taken].count(seat) == 1


def test_the_takeover_bot_and_seat_bots_obey_the_servers_own_caps() -> None:
    """A server that caps its bots lower (``CIVCARDS_BOT_MAX_ITERATIONS``) refuses a clock's
    takeover bot beyond its cap with the same sentence as a seat's bot: one check, the
    server's settings, not the defaults."""
    from civcards.server.botpool import BotSettings
    from civcards.server.clocks import check_clock
    from civcards.server.core import ApiError, check_bot

    low = BotSettings(max_iterations=100, max_seconds=0.5)
    clock = {"type": "move", "seconds": 30}
    assert check_clock("carta", clock, "ismcts:500it")["takeover_bot"] == "ismcts:500it"
    with pytest.raises(ApiError, match=r"at most 100 iterations or 0\.5 s a move") as took:
        check_clock("carta", clock, "ismcts:500it", None, low)
    assert took.value.code == "bad_bot"
    assert str(took.value).startswith("the bot taking over a seat: ")
    game = get_game("carta")
    with pytest.raises(ApiError, match="at most 100 iterations") as seat:
        check_bot(game, "ismcts:1s", "seat 1", low)
    assert str(seat.value).startswith("seat 1: ")
    assert check_bot(game, "ismcts:100it", "seat 1", low) == "ismcts:100it"
