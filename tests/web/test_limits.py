"""Request limits of a real server: body size (413), rate (429 + Retry-After), WebSocket
message size (close 1009) and rate; each refusal is clear and changes nothing."""

from __future__ import annotations

import contextlib
import json
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from civcards.server.limits import Limits, RateLimiter, TokenBucket

from . import net
from .conftest import ServerProcess, claim_seat

H = "X-Seat-Token"
pytestmark = pytest.mark.filterwarnings("ignore:connect\\(\\) must be used")


@pytest.fixture(scope="module")
def tight(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server with small limits: 2 KB bodies, 1000-character WebSocket messages (options),
    1 message/s (3 at once) per socket (environment)."""
    s = ServerProcess(
        tmp_path_factory.mktemp("tight") / "civ.db",
        extra_args=("--max-body", "2048", "--ws-max-message", "1000"),
        env={"CIVCARDS_WS_RATE_LIMIT": "1", "CIVCARDS_WS_RATE_BURST": "3"},
    )
    s.start()
    yield s
    s.stop()


@pytest.fixture
def hasty(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server of the test's own that lets little through: a request per 100 s (8 at once)
    per address or seat, a game per 100 s (3 at once) per address, a WebSocket handshake
    per 100 s (6 at once) per address, 2 spectator sockets per address, 2 sockets per seat."""
    s = ServerProcess(
        tmp_path / "civ.db",
        extra_args=("--rate-limit", "0.01", "--rate-burst", "8"),
        env={
            "CIVCARDS_CREATE_RATE": "0.01",
            "CIVCARDS_CREATE_BURST": "3",
            "CIVCARDS_WS_CONNECT_RATE": "0.01",
            "CIVCARDS_WS_CONNECT_BURST": "6",
            "CIVCARDS_WS_PER_ADDRESS": "2",
            "CIVCARDS_WS_PER_SEAT": "2",
        },
    )
    s.start()
    yield s
    s.stop()


def seat_tokens(server: ServerProcess, g: dict[str, Any]) -> list[str]:
    """The seat tokens of a created game's human seats (each invitation claimed)."""
    return [claim_seat(server.base, g["id"], s["token"]) for s in g["seats"] if s["token"]]


def game_count(server: ServerProcess, token: str) -> int:
    r = net.get(server.base + "/api/games")
    assert r.status_code == 200, r.text
    return len(r.json())


def test_a_body_over_the_limit_is_413_and_creates_nothing(tight: ServerProcess) -> None:
    before = game_count(tight, "counter-1")
    seats = [{"kind": "human", "name": c * 30} for c in "xy"]
    body = {"players": 2, "seats": seats, "padding": "y" * 5000}
    r = net.post(tight.base + "/api/games", json=body, headers={H: "big-1"})
    assert r.status_code == 413
    assert r.json()["code"] == "too_large" and "2048 bytes" in r.json()["detail"]
    # the same without a length: a chunked body is counted as it arrives
    chunks = (b'{"players": 2, "pad": "' + b"z" * 1000 for _ in range(5))
    r = net.post(tight.base + "/api/games", content=chunks, headers={H: "big-2"})
    assert r.status_code == 413
    assert game_count(tight, "counter-2") == before
    # a body under the limit goes through
    r = net.post(
        tight.base + "/api/games",
        json={"players": 2, "seats": seats, "private": False},  # listed
        headers={H: "small"},
    )
    assert r.status_code == 201
    assert game_count(tight, "counter-3") == before + 1


def test_too_many_requests_are_429_with_retry_after(hasty: ServerProcess) -> None:
    g = hasty.create(players=2, seats=[{"kind": "human"}, {"kind": "human"}], claim=False)
    seats = seat_tokens(hasty, g)
    # a made-up token on each request is no way around the limit: the address is counted
    codes = [
        net.get(hasty.base + "/api/games", headers={H: secrets.token_urlsafe(24)}).status_code
        for _ in range(10)
    ]
    assert codes == sorted(codes) and codes.count(200) <= 7 and codes[-3:] == [429] * 3, codes
    r = net.get(hasty.base + "/api/games", headers={H: "hasty"})
    assert r.status_code == 429
    assert 1 <= int(r.headers["retry-after"]) <= 100
    assert r.json()["code"] == "rate_limited" and "per second" in r.json()["detail"]
    # a valid seat token has an allowance of its own, apart from its address's
    mine = [
        net.get(f"{hasty.base}/api/games/{g['id']}/state", headers={H: seats[0]}).status_code
        for _ in range(9)
    ]
    assert mine == [200] * 8 + [429]
    # and so has another seat
    r = net.get(f"{hasty.base}/api/games/{g['id']}/state", headers={H: seats[1]})
    assert r.status_code == 200


def test_games_created_are_limited_per_address(hasty: ServerProcess) -> None:
    """1,000 games were once created in 4.4 s, each request with a made-up token."""
    body = {"players": 2, "seats": [{"kind": "human"}, {"kind": "bot"}], "private": False}
    codes = [
        net.post(
            hasty.base + "/api/games", json=body, headers={H: secrets.token_urlsafe(24)}
        ).status_code
        for _ in range(5)
    ]
    assert codes == [201] * 3 + [429] * 2
    r = net.post(hasty.base + "/api/games", json=body)
    assert r.status_code == 429 and "games created" in r.json()["detail"]
    assert int(r.headers["retry-after"]) >= 1
    assert len(net.get(hasty.base + "/api/games").json()) == 3


def ws_hello(server: ServerProcess, gid: str, token: str | None) -> tuple[Any, dict[str, Any]]:
    ws = connect(f"ws://127.0.0.1:{server.port}/ws/{gid}", open_timeout=10)
    with contextlib.suppress(ConnectionClosed):  # a refused socket may close first
        ws.send(json.dumps({"token": token, "lang": "en"}))
    return ws, json.loads(ws.recv(timeout=10))


def closed_with(ws: Any) -> int | None:
    with pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=10)
    return None if closed.value.rcvd is None else closed.value.rcvd.code


def test_websocket_connections_are_limited_per_address_and_seat(hasty: ServerProcess) -> None:
    g = hasty.create(players=2, seats=[{"kind": "human"}, {"kind": "human"}], claim=False)
    seats = seat_tokens(hasty, g)
    opened = []
    try:
        # two spectators from one address, then the third is refused
        for _ in range(2):
            ws, f = ws_hello(hasty, g["id"], None)
            assert f["type"] == "state"
            opened.append(ws)
        ws, f = ws_hello(hasty, g["id"], None)
        assert f["type"] == "error" and f["code"] == "too_many_connections"
        assert closed_with(ws) == 4429
        # a seat's sockets are counted apart from the address: two, not three
        for _ in range(2):
            ws, f = ws_hello(hasty, g["id"], seats[0])
            assert f["type"] == "state" and f["seat"] == 0
            opened.append(ws)
        ws, f = ws_hello(hasty, g["id"], seats[0])
        assert f["code"] == "too_many_connections"
        assert closed_with(ws) == 4429
        # six handshakes at once from the address, then no more (even a seat's)
        ws, f = ws_hello(hasty, g["id"], seats[1])
        assert f["code"] == "too_many_connections" and "per second" in f["detail"]
        assert closed_with(ws) == 4429
    finally:
        for ws in opened:
            ws.close()


def test_health_checks_are_never_rate_limited(hasty: ServerProcess) -> None:
    """A load balancer's probe shares its address with other requests: /healthz and /readyz
    answer even when that client is held back everywhere else."""
    codes = [net.get(hasty.base + "/api/games").status_code for _ in range(9)]
    assert codes[-1] == 429
    for _ in range(10):
        assert net.get(hasty.base + "/healthz").status_code == 200
        r = net.get(hasty.base + "/readyz")
        assert r.status_code == 200 and r.json()["database"] == "ok"
    assert net.get(hasty.base + "/api/games").status_code == 429


def test_websocket_messages_too_large_or_too_fast(tight: ServerProcess) -> None:
    g = tight.create(players=2, seats=[{"kind": "human"}, {"kind": "human"}], seed=3)
    url = f"ws://127.0.0.1:{tight.port}/ws/{g['id']}"
    with connect(url) as ws:
        ws.send(json.dumps({"token": g["seats"][0]["token"], "lang": "en"}))
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        # 3 at once, then 1 per second: the 4th of a quick burst is refused, not applied
        answers = []
        for _ in range(4):
            ws.send(json.dumps({"lang": "de"}))
            answers.append(json.loads(ws.recv(timeout=10)))
        assert [a["type"] for a in answers[:3]] == ["state"] * 3
        assert answers[3]["type"] == "error" and answers[3]["code"] == "rate_limited"
    with connect(url) as ws:
        ws.send(json.dumps({"token": g["seats"][1]["token"], "lang": "en"}))
        assert json.loads(ws.recv(timeout=10))["seat"] == 1
        ws.send(json.dumps({"lang": "en", "pad": "p" * 2000}))
        f = json.loads(ws.recv(timeout=10))
        assert f["type"] == "error" and f["code"] == "too_large"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    # a first message over the limit is a bad hello
    with connect(url) as ws:
        ws.send(json.dumps({"token": None, "pad": "p" * 2000}))
        f = json.loads(ws.recv(timeout=10))
        assert f["type"] == "error" and f["code"] == "bad_hello"


def test_default_limits_let_the_browser_through(server: ServerProcess) -> None:
    """The module server runs with the defaults: a body of a few KB and a burst pass."""
    for _ in range(60):
        assert net.get(server.base + "/api/games").status_code == 200


def test_limits_from_the_environment() -> None:
    lim = Limits.from_env({"CIVCARDS_MAX_BODY": "10", "CIVCARDS_RATE_LIMIT": "0.5"})
    assert lim.max_body == 10 and lim.rate == 0.5 and lim.burst == Limits().burst
    with pytest.raises(ValueError, match="CIVCARDS_RATE_BURST"):
        Limits.from_env({"CIVCARDS_RATE_BURST": "many"})
    with pytest.raises(ValueError, match="negative"):
        Limits(max_body=-1)


def test_token_bucket_refills_at_its_rate() -> None:
    b = TokenBucket(rate=2.0, burst=3, now=0.0)
    assert [b.take(0.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert b.take(0.0) == pytest.approx(0.5)
    assert b.take(0.5) == 0.0
    lim = RateLimiter(rate=1.0, burst=1, max_keys=4)
    for i in range(10):
        assert lim.take(f"k{i}") == 0.0
    assert len(lim.buckets) <= 4
    assert RateLimiter(rate=0, burst=1).take("x") == 0.0  # off


def test_a_bad_limit_in_the_environment_is_a_clear_error(tmp_path: Path) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "civcards.cli", "serve", "--port", "0",
         "--db", f"sqlite:///{tmp_path / 'x.db'}"],
        capture_output=True, text=True, timeout=60,
        env={**__import__("os").environ, "CIVCARDS_WS_RATE_LIMIT": "fast"},
    )  # fmt: skip
    assert r.returncode == 2
    assert "CIVCARDS_WS_RATE_LIMIT" in r.stderr and "Traceback" not in r.stderr


def test_deep_json_is_refused_before_it_is_parsed(server: ServerProcess) -> None:
    """A 16 KB message nested 8,000 deep once raised an unhandled RecursionError (59 lines
    of traceback, the socket dropped without an error frame)."""
    g = server.create(players=2, seats=[{"kind": "human"}, {"kind": "human"}], seed=4)
    url = f"ws://127.0.0.1:{server.port}/ws/{g['id']}"
    deep = "[" * 8000 + "]" * 8000  # 16,000 characters: under the size limit
    logged = len(server.log())
    # as the first message, and after it
    for hello in (True, False):
        with connect(url) as ws:
            if not hello:
                ws.send(json.dumps({"token": g["seats"][0]["token"], "lang": "en"}))
                assert json.loads(ws.recv(timeout=10))["type"] == "state"
            ws.send(deep)
            f = json.loads(ws.recv(timeout=10))
            assert f["type"] == "error" and f["code"] == "bad_message", f
            assert "nests at most" in f["detail"]
            assert closed_with(ws) == 4400
    # one line each in the log, no traceback
    log = server.log()[logged:]
    assert "Traceback" not in log and "RecursionError" not in log
    assert log.count("nested too deep") == 2
    # a string that looks deep is no nesting; a message as deep as ours passes
    with connect(url) as ws:
        ws.send(json.dumps({"token": None, "lang": "[" * 300}))
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
    # over HTTP too: a clear 4xx, never a server error
    r = net.post(
        f"{server.base}/api/games/{g['id']}/moves",
        content=deep.encode(),
        headers={H: g["seats"][0]["token"], "content-type": "application/json"},
    )
    assert r.status_code in (400, 422) and "Traceback" not in r.text, r.text


def test_repeated_bad_messages_close_the_socket_with_4400(server: ServerProcess) -> None:
    """Issue 38, defect 10: 1,000 junk frames left a socket open (each answered with an error
    frame, most dropped by the rate limit). A few bad messages are forgiven (an error frame
    each); the tenth closes the socket with 4400, as docs/api.md says, in one log line."""
    g = server.create(players=2, seats=[{"kind": "human"}, {"kind": "human"}], seed=5)
    url = f"ws://127.0.0.1:{server.port}/ws/{g['id']}"
    logged = len(server.log())
    with connect(url) as ws:
        ws.send(json.dumps({"token": g["seats"][0]["token"], "lang": "en"}))
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        codes = []
        for i in range(9):  # text that is no JSON object, and binary
            ws.send(b"\x00junk" if i % 3 == 2 else ["{{{", "[1, 2]", "null"][i % 3])
            codes.append(json.loads(ws.recv(timeout=10))["code"])
        assert codes == ["bad_message"] * 9
        ws.send(json.dumps({"lang": "de"}))  # a good message between changes nothing
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        ws.send("junk")
        f = json.loads(ws.recv(timeout=10))
        assert f["code"] == "bad_message" and "closed" in f["detail"], f
        assert closed_with(ws) == 4400
    # a flood: closed long before the thousandth frame
    with connect(url) as ws:
        ws.send(json.dumps({"token": None}))
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        with contextlib.suppress(ConnectionClosed):
            for _ in range(1000):
                ws.send("junk")
        frames = []
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                frames.append(json.loads(ws.recv(timeout=10)))
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4400
        assert len(frames) <= 10, len(frames)
    log = server.log()[logged:]
    assert log.count("too many bad messages") == 2 and "Traceback" not in log
