"""Fuzzing every input of a real server (Hypothesis): HTTP requests and WebSocket messages.

Malformed JSON, huge payloads, wrong types, unknown games, other seats' and other games'
tokens, stale move numbers (replays), forged moves. Every refusal is a clear 4xx
``{"detail", "code"}`` (or a WebSocket error frame / close code), never a server error;
a refused request changes nothing (every seat's view of the game is the same afterwards)
and reveals nothing (a refusal carries no view; an accepted view is the token's own seat's).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from .conftest import ServerProcess

H = "X-Seat-Token"
MAX_BODY = 4096
pytestmark = pytest.mark.filterwarnings("ignore:connect\\(\\) must be used")
FUZZ = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@dataclass
class Table:
    server: ServerProcess
    gid: str  # a game under way, three human seats
    tokens: list[str]
    other_gid: str
    other_token: str  # a seat of the other game
    http: httpx.Client

    def snapshot(self) -> dict[str | int, Any]:
        """Every seat's view and the public facts of the game: what a refusal must not change."""
        out: dict[str | int, Any] = {"public": self.http.get(f"/api/games/{self.gid}").json()}
        for seat, tok in enumerate(self.tokens):
            v = self.http.get(f"/api/games/{self.gid}/state", headers={H: tok}).json()
            out[seat] = {
                k: v[k] for k in ("seat", "move_number", "observation", "options", "pending")
            }
        return out

    def seat_of(self, token: str | None) -> int | None:
        return self.tokens.index(token) if token in self.tokens else None


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    server = ServerProcess(
        tmp_path_factory.mktemp("fuzz") / "civ.db",
        extra_args=("--rate-limit", "0", "--max-body", str(MAX_BODY)),
    )
    server.start()
    a = server.create(players=3, seats=[{"kind": "human"}] * 3, seed=21)
    b = server.create(players=2, seats=[{"kind": "human"}] * 2, seed=22)
    tokens = [s["token"] for s in a["seats"]]
    http = httpx.Client(base_url=server.base, timeout=20)
    rng = random.Random(4)
    for _ in range(8):  # a few moves, so that there is a history to replay
        v = http.get(f"/api/games/{a['id']}/state", headers={H: tokens[0]}).json()
        mover = v["game"]["to_move"]
        opts = http.get(f"/api/games/{a['id']}/options", headers={H: tokens[mover]}).json()
        mv = rng.choice([o["text"] for o in opts["options"] if o["final"]])
        r = http.post(
            f"/api/games/{a['id']}/moves",
            json={"move": mv, "expected": v["move_number"]},
            headers={H: tokens[mover]},
        )
        assert r.status_code == 200, r.text
    yield Table(server, a["id"], tokens, b["id"], b["seats"][0]["token"], http)
    http.close()
    server.stop()


PATHS = [
    "/api/games",
    "/api/games/{g}",
    "/api/games/{g}/join",
    "/api/games/{g}/state",
    "/api/games/{g}/options",
    "/api/games/{g}/moves",
    "/api/games/{g}/record",
    "/api/games/{g}/rematch",
    "/api/i18n/{g}",
    "/game/{g}",
]
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda c: st.lists(c, max_size=5) | st.dictionaries(st.text(max_size=10), c, max_size=5),
    max_leaves=15,
)
ASCII = st.characters(min_codepoint=33, max_codepoint=126)
MOVES = st.sampled_from(
    ["end", "play M", "play S", "discovery discard ?", "inquisition 1 give ?",
     "keep MS", "attack C", "purge MS", "embargo 1 S", "play", "", " ", "\u0000", "play Q"]
)  # fmt: skip


def move_bodies(table: Table) -> st.SearchStrategy[bytes]:
    expected = st.one_of(
        st.integers(min_value=-5, max_value=30),
        st.integers(),
        st.text(max_size=5),
        st.none(),
        st.floats(allow_nan=False),
    )
    body = st.fixed_dictionaries(
        {"move": st.one_of(MOVES, st.text(max_size=40), st.integers()), "expected": expected},
        optional={"extra": JSON, "seat": st.integers(0, 3)},
    )
    return body.map(lambda d: json.dumps(d).encode())


def bodies(table: Table) -> st.SearchStrategy[bytes | None]:
    return st.one_of(
        st.none(),
        JSON.map(lambda v: json.dumps(v).encode()),
        st.binary(max_size=100),  # not JSON at all
        st.text(max_size=60).map(lambda t: ("{" + t).encode()),  # broken JSON
        move_bodies(table),
        move_bodies(table),
        st.integers(MAX_BODY + 1, 4 * MAX_BODY).map(
            lambda n: b'{"move": "' + b"a" * n + b'", "expected": 0}'
        ),  # huge
    )


def tokens(table: Table) -> st.SearchStrategy[str | None]:
    return st.one_of(
        st.none(),
        st.sampled_from([*table.tokens, table.other_token]),
        st.text(alphabet=ASCII, max_size=300),
    )


def game_ids(table: Table) -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from([table.gid, table.gid, table.other_gid]),
        st.text(max_size=50),
        st.just("x" * 500),
    )


def assert_problem(r: httpx.Response) -> None:
    """A refusal: a JSON object with a sentence and a code, and nothing else."""
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:500])
    body = r.json()
    assert set(body) == {"detail", "code"}, body
    assert isinstance(body["detail"], str) and body["detail"]
    assert isinstance(body["code"], str) and len(body["detail"]) < 2000


@pytest.mark.slow
def test_fuzzed_http_requests_are_refused_cleanly_and_change_nothing(table: Table) -> None:
    state = {"before": table.snapshot()}

    @FUZZ
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        method = data.draw(st.sampled_from(["GET", "POST", "POST", "POST", "PUT", "DELETE"]))
        path = data.draw(st.sampled_from(PATHS)).format(
            g=quote(data.draw(game_ids(table)), safe="")
        )
        token = data.draw(tokens(table))
        body = data.draw(bodies(table)) if method != "GET" else None
        ctype = data.draw(st.sampled_from(["application/json", "text/plain", None]))
        headers = {H: token} if token is not None else {}
        if ctype:
            headers["content-type"] = ctype
        r = table.http.request(method, path, content=body, headers=headers)
        assert r.status_code < 500, (method, path, r.status_code, r.text[:500])
        if body is not None and len(body) > MAX_BODY:
            assert r.status_code == 413 and r.json()["code"] == "too_large"
        if r.status_code >= 400:
            assert_problem(r)
            after = table.snapshot()
            assert after == state["before"], (method, path, token, body, r.text)
        elif method == "POST":  # an accepted move (or join, or new game) may change the game
            state["before"] = table.snapshot()
        elif path.startswith(f"/api/games/{table.gid}/state") and r.status_code == 200:
            # no leak: a view is the token's own seat's, or a spectator's
            seat = table.seat_of(token) if token else None
            assert r.json()["seat"] == seat
            assert r.json()["observation"]["seat"] == (-1 if seat is None else seat)

    check()


def ws_messages() -> st.SearchStrategy[str | bytes]:
    return st.one_of(
        JSON.map(json.dumps),
        st.text(max_size=50),
        st.binary(max_size=50),
        st.fixed_dictionaries({"lang": st.one_of(st.text(max_size=20), JSON)}).map(json.dumps),
        st.just("x" * 20000),  # over the default 16 KB
    )


CLOSE_CODES = {1000, 1005, 1009, 4400, 4403, 4404}


@pytest.mark.slow
def test_fuzzed_websocket_messages_get_errors_or_a_clear_close(table: Table) -> None:
    before = table.snapshot()

    @settings(FUZZ, max_examples=60)
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        gid = data.draw(game_ids(table))
        token = data.draw(st.one_of(tokens(table), JSON))
        hello: str | bytes = data.draw(
            st.one_of(
                st.fixed_dictionaries(
                    {"token": st.just(token)}, optional={"lang": JSON, "x": JSON}
                ).map(json.dumps),
                ws_messages(),
            )
        )
        later = data.draw(st.lists(ws_messages(), max_size=3))
        url = f"ws://127.0.0.1:{table.server.port}/ws/{quote(gid, safe='')}"
        try:
            ws = connect(url, open_timeout=10)
        except Exception:  # an id that is no path: refused at the handshake (404/403)
            return
        frames: list[dict[str, Any]] = []
        code: int | None = None
        with ws:
            try:
                for msg in [hello, *later]:
                    ws.send(msg)
                    frames.append(json.loads(ws.recv(timeout=10)))
                ws.close()
            except ConnectionClosed as e:
                code = e.rcvd.code if e.rcvd is not None else 1006
        for f in frames:
            assert f["type"] in ("state", "error"), f
            if f["type"] == "error":
                assert isinstance(f["detail"], str) and isinstance(f["code"], str)
            elif isinstance(token, str) and token in table.tokens and gid == table.gid:
                assert f["seat"] == table.tokens.index(token)  # its own view only
            else:
                assert f["seat"] is None or (gid == table.other_gid and token == table.other_token)
        assert code is None or code in CLOSE_CODES, (code, frames, hello, later)

    check()
    assert table.snapshot() == before


def test_replays_and_other_seats_moves_are_refused_without_a_trace(table: Table) -> None:
    """The exact cases a fuzzer may seldom hit: a replay of the last move (its body sent
    again), the mover's legal move sent with another seat's or another game's token."""
    before = table.snapshot()
    v = table.http.get(f"/api/games/{table.gid}/state", headers={H: table.tokens[0]}).json()
    n, mover = v["move_number"], v["game"]["to_move"]
    last = v["observation"]["history"][-1]
    last_mover = v["observation"]["movers"][-1]
    move_url = f"/api/games/{table.gid}/moves"
    r = table.http.post(
        move_url, json={"move": last, "expected": n - 1}, headers={H: table.tokens[last_mover]}
    )
    assert r.status_code == 409 and r.json()["code"] == "stale"
    assert_problem(r)
    mine = table.http.get(f"/api/games/{table.gid}/options", headers={H: table.tokens[mover]})
    o = mine.json()  # the mover's choices (or those of the choice it committed to)
    legal = (o["pending"]["choices"] if o["pending"] else o["options"])[0]["text"]
    for token in [t for i, t in enumerate(table.tokens) if i != mover]:
        r = table.http.post(move_url, json={"move": legal, "expected": n}, headers={H: token})
        assert r.status_code == 409 and r.json()["code"] == "not_your_turn"
        assert_problem(r)
    r = table.http.post(
        move_url, json={"move": legal, "expected": n}, headers={H: table.other_token}
    )
    assert r.status_code == 403 and r.json()["code"] == "bad_token"
    assert_problem(r)
    # a seat cannot read another seat's options (an empty list: not its turn)
    for seat, token in enumerate(table.tokens):
        o = table.http.get(f"/api/games/{table.gid}/options", headers={H: token}).json()
        assert (o["options"] != [] or o["pending"] is not None) == (seat == mover)
    assert table.snapshot() == before
