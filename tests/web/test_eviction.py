"""Games leave memory (finished, idle, over the cap) and come back from the database."""

from __future__ import annotations

import asyncio
import gc
import os
import time
import weakref
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine

from civcards.server.app import create_app, eviction_from_env
from civcards.server.core import TableServer
from civcards.server.db import make_engine, migrate
from civcards.server.live import Live

BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]


def wait_finished(c: TestClient, gid: str) -> None:
    end = time.monotonic() + 30
    while c.get(f"/api/games/{gid}").json()["status"] != "finished":
        assert time.monotonic() < end, f"game {gid} did not finish"
        time.sleep(0.02)


def test_cap_holds_and_an_evicted_game_is_served_from_the_store(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'e.db'}", bot_delay=0.0, allow_seed=True)
    server: TableServer = app.state.server
    server.set_eviction(max_live=3, evict_grace=0.0)
    with TestClient(app, headers={"host": "localhost"}) as c:
        # a human game, played a little, then left: kept out of memory too
        made = c.post(
            "/api/games", json={"players": 2, "seats": [{"kind": "human"}, BOTS[0]], "seed": 5}
        ).json()
        hid = made["id"]
        r = c.post(f"/api/games/{hid}/claim", headers={"x-seat-token": made["seats"][0]["token"]})
        assert r.status_code == 200, r.text
        tok = r.json()["token"]
        end = time.monotonic() + 60
        while c.get(f"/api/games/{hid}").json()["to_move"] != 0:  # the bot moves first
            assert time.monotonic() < end, "the bot did not move"
            time.sleep(0.02)
        before_state = c.get(f"/api/games/{hid}/state", headers={"x-seat-token": tok}).json()
        ids = []
        for seed in range(8):
            r = c.post("/api/games", json={"players": 2, "seats": BOTS, "seed": seed})
            assert r.status_code == 201, r.text
            ids.append(r.json()["id"])
            wait_finished(c, ids[-1])
            assert server.live_count <= 3 + 1  # the cap, and the game being finished now
        records = {gid: c.get(f"/api/games/{gid}/record").json() for gid in ids}
        server.evict()
        assert server.live_count <= 3
        server.evict(time.monotonic() + 3600)  # an hour on: the idle human game leaves too
        assert c.get("/healthz").json()["games_loaded"] == server.live_count
        first = ids[0]
        assert first not in server.games and hid not in server.games
        # served again from the database, the same as before
        assert c.get(f"/api/games/{first}").json()["status"] == "finished"
        assert c.get(f"/api/games/{first}/record").json() == records[first]
        assert first in server.games
        after = c.get(f"/api/games/{hid}/state", headers={"x-seat-token": tok}).json()
        assert after == before_state
        # and played on after its reload: the seat's token still works
        opts = c.get(f"/api/games/{hid}/options", headers={"x-seat-token": tok}).json()
        if opts["options"]:
            move = opts["options"][0]
            text = move["text"] if isinstance(move, dict) else move
            r = c.post(
                f"/api/games/{hid}/moves",
                json={"move": text, "expected": opts["move_number"]},
                headers={"x-seat-token": tok},
            )
            assert r.status_code in (200, 201), r.text
        # a game watched through a socket is never evicted
        server.set_eviction(max_live=1)
        with c.websocket_connect(f"/ws/{first}", headers={"origin": "http://localhost"}) as ws:
            ws.send_json({"token": None})
            ws.receive_json()
            server.evict(time.monotonic() + 10**6)
            assert list(server.games) == [first]
        server.evict(time.monotonic() + 10**6)
        assert server.live_count == 0


def test_settings_from_the_environment(tmp_path: Path) -> None:
    server = TableServer(create_engine("sqlite://"))
    eviction_from_env(
        server,
        {
            "CIVCARDS_MAX_LIVE_GAMES": "7",
            "CIVCARDS_IDLE_EVICT_SECONDS": "90",
            "CIVCARDS_FINISHED_EVICT_SECONDS": "2.5",
        },
    )
    assert (server.max_live, server.idle_evict, server.finished_evict) == (7, 90.0, 2.5)
    for env in ({"CIVCARDS_MAX_LIVE_GAMES": "0"}, {"CIVCARDS_IDLE_EVICT_SECONDS": "soon"}):
        with pytest.raises(ValueError, match="CIVCARDS_"):
            eviction_from_env(server, env)


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


async def play(server: TableServer, n: int, seed0: int, played: list[weakref.ref[Live]]) -> None:
    for i in range(n):
        live, _ = server.create(kind="carta", players=2, options={}, seats=BOTS, seed=seed0 + i)
        played.append(weakref.ref(live))
        server.kick_bots(live)
        assert live.bot_task is not None
        await live.bot_task
        assert live.finished
        server.evict()


def memory_marks(tmp_path: Path, warm: int, rounds: int, per_round: int) -> list[float]:
    """The server's resident memory (MB) after ``warm`` games, then after each of ``rounds``
    rounds of ``per_round`` more (two bots each, played to the end, evicted as they go);
    and no more of the games left in memory, held by anything, than the cap lets the
    server keep."""
    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    migrate(engine)
    server = TableServer(engine, bot_delay=0.0, allow_seed=True)
    server.set_eviction(max_live=20, evict_grace=0.0)
    played: list[weakref.ref[Live]] = []

    async def main() -> list[float]:
        marks = []
        await play(server, warm, 0, played)  # warm up: caches, the allocator's arenas
        for k in range(rounds):
            marks.append(rss_mb())
            await play(server, per_round, 10_000 * (k + 1), played)
        marks.append(rss_mb())
        await server.stop()
        return marks

    marks = asyncio.run(main())
    assert server.live_count <= 20
    gc.collect()
    alive = sum(ref() is not None for ref in played)
    assert alive <= 20, f"{alive} of {len(played)} games still in memory (the cap is 20)"
    return marks


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="needs /proc")
def test_resident_memory_levels_off(tmp_path: Path) -> None:
    # a game kept in memory costs ~0.03 MB now (120 held added 4 MB to the 5 MB that 120
    # evicted ones add): below this measurement's noise, so memory_marks counts the games
    # still alive (a kept one fails it); the limit here catches a leak of what is not a
    # game (over 0.4 MB a game in these 30, as 0.1 MB a game did in 120)
    marks = memory_marks(tmp_path, 10, 2, 15)
    assert marks[-1] - marks[0] < 12, marks


#: the soak test runs only when asked: CIVCARDS_SOAK=1 (it takes minutes; ``make test``
#: runs the slow tests, but not this one)
SOAK = os.environ.get("CIVCARDS_SOAK", "") not in ("", "0")


@pytest.mark.slow
@pytest.mark.skipif(not SOAK, reason="a soak test: CIVCARDS_SOAK=1 runs it")
@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="needs /proc")
def test_resident_memory_levels_off_over_2000_games(tmp_path: Path) -> None:
    """The issue's test: 2,000 games played (with their bots in the worker processes) and
    resident memory levels off: held, they would take ~0.19 MB each (~340 MB more)."""
    marks = memory_marks(tmp_path, 200, 4, 450)
    assert marks[-1] - marks[0] < 20, marks
    # and it stops growing: the last two rounds add no more than the noise of the first
    assert marks[-1] - marks[2] < 10, marks
