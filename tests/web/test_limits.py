"""Request limits of a real server: body size (413), rate (429 + Retry-After), WebSocket
message size (close 1009) and rate; each refusal is clear and changes nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from civcards.server.limits import Limits, RateLimiter, TokenBucket

from .conftest import ServerProcess

H = "X-Seat-Token"
pytestmark = pytest.mark.filterwarnings("ignore:connect\\(\\) must be used")


@pytest.fixture(scope="module")
def tight(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server with small limits: 2 KB bodies, a request per 100 s (5 at once), 1000-character
    WebSocket messages (options), 1 message/s (3 at once) per socket (environment)."""
    s = ServerProcess(
        tmp_path_factory.mktemp("tight") / "civ.db",
        extra_args=(
            "--max-body",
            "2048",
            "--rate-limit",
            "0.01",
            "--rate-burst",
            "5",
            "--ws-max-message",
            "1000",
        ),
        env={"CIVCARDS_WS_RATE_LIMIT": "1", "CIVCARDS_WS_RATE_BURST": "3"},
    )
    s.start()
    yield s
    s.stop()


def game_count(server: ServerProcess, token: str) -> int:
    r = httpx.get(server.base + "/api/games", headers={H: token})
    assert r.status_code == 200, r.text
    return len(r.json())


def test_a_body_over_the_limit_is_413_and_creates_nothing(tight: ServerProcess) -> None:
    before = game_count(tight, "counter-1")
    seats = [{"kind": "human", "name": "x" * 30}] * 2
    body = {"players": 2, "seats": seats, "padding": "y" * 5000}
    r = httpx.post(tight.base + "/api/games", json=body, headers={H: "big-1"})
    assert r.status_code == 413
    assert r.json()["code"] == "too_large" and "2048 bytes" in r.json()["detail"]
    # the same without a length: a chunked body is counted as it arrives
    chunks = (b'{"players": 2, "pad": "' + b"z" * 1000 for _ in range(5))
    r = httpx.post(tight.base + "/api/games", content=chunks, headers={H: "big-2"})
    assert r.status_code == 413
    assert game_count(tight, "counter-2") == before
    # a body under the limit goes through
    r = httpx.post(
        tight.base + "/api/games", json={"players": 2, "seats": seats}, headers={H: "small"}
    )
    assert r.status_code == 201
    assert game_count(tight, "counter-3") == before + 1


def test_too_many_requests_are_429_with_retry_after(tight: ServerProcess) -> None:
    codes = [
        httpx.get(tight.base + "/api/games", headers={H: "hasty"}).status_code for _ in range(8)
    ]
    assert codes == [200] * 5 + [429] * 3
    r = httpx.get(tight.base + "/api/games", headers={H: "hasty"})
    assert r.status_code == 429
    assert 1 <= int(r.headers["retry-after"]) <= 100
    assert r.json()["code"] == "rate_limited" and "per second" in r.json()["detail"]
    # another client (another token) is not held back
    assert httpx.get(tight.base + "/api/games", headers={H: "patient"}).status_code == 200


def test_health_checks_are_never_rate_limited(tight: ServerProcess) -> None:
    """A load balancer's probe shares its address with other requests: /healthz and /readyz
    answer even when that client is held back everywhere else."""
    codes = [
        httpx.get(tight.base + "/api/games", headers={H: "probe"}).status_code for _ in range(6)
    ]
    assert codes[-1] == 429
    for _ in range(10):
        assert httpx.get(tight.base + "/healthz", headers={H: "probe"}).status_code == 200
        r = httpx.get(tight.base + "/readyz", headers={H: "probe"})
        assert r.status_code == 200 and r.json()["database"] == "ok"
    assert httpx.get(tight.base + "/api/games", headers={H: "probe"}).status_code == 429


def test_websocket_messages_too_large_or_too_fast(tight: ServerProcess) -> None:
    g = httpx.post(
        tight.base + "/api/games",
        json={"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}], "seed": 3},
        headers={H: "ws-setup"},
    ).json()
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
        assert httpx.get(server.base + "/api/games").status_code == 200


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
