"""WebSocket live views: each frame is that seat's own view, sent after the move is stored."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from civcards import carta
from civcards.game_api import Choice

from . import net
from .conftest import ServerProcess, texts
from .test_secrecy import CIV, expected_view

H = "X-Seat-Token"
pytestmark = pytest.mark.filterwarnings("ignore:connect\\(\\) must be used")


def ws_url(server: ServerProcess, gid: str) -> str:
    return f"ws://127.0.0.1:{server.port}/ws/{gid}"


def open_ws(server: ServerProcess, gid: str, token: str | None) -> ClientConnection:
    ws = connect(ws_url(server, gid), open_timeout=10)
    ws.send(json.dumps({"token": token, "lang": "en"}))
    return ws


def frame(ws: ClientConnection) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(ws.recv(timeout=10))
    return out


def strip(view: dict[str, Any]) -> dict[str, Any]:
    return {k: view[k] for k in ("seat", "move_number", "observation", "options", "pending")}


def test_frames_are_each_seats_own_view(server: ServerProcess) -> None:
    seed = 77
    created = server.create(players=3, seats=[{"kind": "human"}] * 3, seed=seed)
    gid = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    g = carta.new_game(3, seed=seed)
    socks = {seat: open_ws(server, gid, tokens[seat]) for seat in range(3)}
    socks[None] = open_ws(server, gid, None)  # type: ignore[index]
    try:
        for seat, ws in socks.items():
            f = frame(ws)
            assert f["type"] == "state"
            assert strip(f) == expected_view(g, seat, None)
        rng = random.Random(5)
        pending: tuple[int, str] | None = None
        for _ in range(40):
            if g.finished:
                break
            mover = g.to_move
            assert mover is not None
            if pending:
                choice = rng.choice(CIV.expand(g, Choice(pending[1], False, True)).choices)
            else:
                choice = rng.choice(CIV.choices(g))
            mv = choice.text
            r = net.post(
                f"{server.base}/api/games/{gid}/moves",
                json={"move": mv, "expected": len(g.history)},
                headers={H: tokens[mover]},
            )
            assert r.status_code == 200, r.text
            if choice.hidden:
                pending = (mover, mv)
            else:
                g.apply(mv)
                pending = None
            for seat, ws in socks.items():
                f = frame(ws)
                assert strip(f) == expected_view(g, seat, pending)
    finally:
        for ws in socks.values():
            ws.close()


def test_ws_refuses_bad_tokens_and_messages(server: ServerProcess) -> None:
    created = server.create(players=2, seats=[{"kind": "human"}] * 2, seed=1)
    gid = created["id"]
    ws = open_ws(server, gid, "forged-token")
    f = frame(ws)
    assert f["type"] == "error" and f["code"] == "bad_token"
    ws.close()
    ws = connect(ws_url(server, gid))
    ws.send("hello")
    f = frame(ws)
    assert f["type"] == "error" and "token" in f["detail"]
    ws.close()
    ws = connect(ws_url(server, "nosuchgame"))
    f = frame(ws)
    assert f["type"] == "error" and f["code"] == "no_game"
    ws.close()
    # a connected seat that sends garbage gets an error frame and stays connected
    ws = open_ws(server, gid, created["seats"][0]["token"])
    assert frame(ws)["seat"] == 0
    ws.send("{{{")
    assert frame(ws)["type"] == "error"
    ws.send(json.dumps({"lang": "de"}))
    assert frame(ws)["type"] == "state"
    ws.close()


def test_bot_moves_arrive_live(server: ServerProcess) -> None:
    created = server.create(players=2, seats=[{"kind": "human"}, {"kind": "bot"}], seed=8)
    gid, tok = created["id"], created["seats"][0]["token"]
    ws = open_ws(server, gid, tok)
    try:
        f = frame(ws)
        deadline = time.monotonic() + 10
        while f["game"]["to_move"] != 0 and time.monotonic() < deadline:
            f = frame(ws)
        assert f["game"]["to_move"] == 0 and f["options"]
        n = f["move_number"]
        # the human ends the turn quickly; the bot's moves come as frames
        for _ in range(20):
            opts = texts(f["options"])
            mv = "end" if "end" in opts else opts[0]
            r = net.post(
                f"{server.base}/api/games/{gid}/moves",
                json={"move": mv, "expected": f["move_number"]},
                headers={H: tok},
            )
            assert r.status_code == 200
            f = frame(ws)
            while f["game"]["to_move"] != 0 and not f["observation"]["finished"]:
                f = frame(ws)
            if f["move_number"] > n + 3:
                break
        movers = f["observation"]["movers"]
        assert 1 in movers[n:], "the bot moved and the seat heard of it"
    finally:
        ws.close()
