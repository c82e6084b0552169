"""The server plays a whole game of every registered game through its HTTP API and WebSocket.

Parametrized over :func:`civcards.game_api.all_games`, so a new game needs no change
here. The test-only game (``tests.toygame``) is registered in this process and, through
``CIVCARDS_EXTRA_GAMES``, in the server process: the server hosts a game registered at
runtime.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from civcards.game_api import BUILTIN, Game, all_games, register
from tests import toygame

from . import net
from .conftest import ServerProcess

H = "X-Seat-Token"
pytestmark = pytest.mark.filterwarnings("ignore:connect\\(\\) must be used")

register(toygame.GAME)


def extra_games_spec() -> str:
    """``module:attribute`` of every registered game that does not ship with civcards."""
    specs = []
    for game in all_games():
        if game.name in BUILTIN:
            continue
        module = sys.modules[type(game).__module__]
        attr = next(k for k, v in vars(module).items() if v is game)
        specs.append(f"{module.__name__}:{attr}")
    return ",".join(specs)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    register(toygame.GAME)  # again: a test elsewhere in this process may have removed it
    s = ServerProcess(
        tmp_path_factory.mktemp("every") / "every.db",
        env={"CIVCARDS_EXTRA_GAMES": extra_games_spec()},
    )
    s.start()
    yield s
    s.stop()


def frame_at(ws: ClientConnection, move_number: int, pending: bool = False) -> dict[str, Any]:
    """The seat's frames until the one of ``move_number`` (with a pending step if asked)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        f: dict[str, Any] = json.loads(ws.recv(timeout=20))
        assert f["type"] == "state", f
        if f["move_number"] == move_number and (f["pending"] is not None or not pending):
            return f
        if f["game"]["status"] == "finished" and f["move_number"] >= move_number:
            return f
    raise AssertionError(f"no frame of move {move_number}")


def jsonish(x: Any) -> Any:
    return json.loads(json.dumps(x))


def play_turn(
    http: httpx.Client, gid: str, token: str, ws: ClientConnection, f: dict[str, Any],
    rng: random.Random,
) -> None:
    """One decision of the seat of ``ws`` whose frame ``f`` offers it choices: a random
    choice, its steps expanded (a hidden one is committed to, then chosen below)."""
    n = f["move_number"]
    choices = f["pending"]["choices"] if f["pending"] else f["options"]
    assert choices, f
    choice = rng.choice(choices)
    steps: list[str] = []
    for _ in range(12):
        r = http.post(
            f"/api/games/{gid}/moves",
            json={"move": choice["text"], "expected": n, "steps": steps},
            headers={H: token},
        )
        assert r.status_code == 200, (r.text, choice, steps)
        body = r.json()
        if body["applied"] is not None:
            assert body["move_number"] == n + 1
            return
        assert not choice["final"]
        if body.get("expansion") is not None:  # a step that hides nothing: below it
            exp = body["expansion"]
            assert exp["option"] == choice["text"] and not exp["hidden"] and exp["choices"]
            steps.append(choice["text"])
            choice = rng.choice(exp["choices"])
            continue
        # a hidden step: committed to, it shows this seat (and no other) what it hides
        assert choice["hidden"] and body["pending"]["option"] == choice["text"]
        g = frame_at(ws, n, pending=True)
        assert g["pending"] == body["pending"] and g["options"] == []
        steps = []
        choice = rng.choice(g["pending"]["choices"])
    raise AssertionError("the steps did not end in a move")


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_the_server_plays_a_whole_game(server: ServerProcess, game: Game) -> None:
    kinds = net.get(f"{server.base}/api/kinds", timeout=20).json()["games"]
    kind = next(k for k in kinds if k["name"] == game.name)
    assert kind["title"] == game.title
    assert [o["name"] for o in kind["options"]] == [o.name for o in game.options]
    assert "random" in [b["name"] for b in kind["bots"]]
    players = min(max(2, game.min_players), game.max_players)
    # the last seat is a bot (the generic random bot plays any game); the others are humans
    seats: list[dict[str, Any]] = [{"kind": "human"} for _ in range(players - 1)]
    seats.append({"kind": "bot", "bot": "random"})
    created = server.create(game=game.name, players=players, seats=seats, seed=5)
    gid = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    info = net.get(f"{server.base}/api/games/{gid}", timeout=20).json()
    assert info["game"] == game.name and info["title"] == game.title
    assert info["options"] == game.check_options(players, {})
    socks = {s: connect(f"ws://127.0.0.1:{server.port}/ws/{gid}", open_timeout=20)
             for s, tok in enumerate(tokens) if tok}  # fmt: skip
    for s, ws in socks.items():
        ws.send(json.dumps({"token": tokens[s], "lang": "en"}))
    rng = random.Random(game.name)
    # one connection for the game's requests (a new client each request costs ~25 ms)
    http = httpx.Client(base_url=server.base, timeout=20)
    try:
        for _ in range(5000):
            info = http.get(f"/api/games/{gid}").json()
            if info["status"] == "finished":
                break
            seat = info["to_move"]
            if tokens[seat] is None:  # the bot's turn: it moves at once
                time.sleep(0.005)
                continue
            f = frame_at(socks[seat], info["move_number"])
            if f["game"]["status"] == "finished":
                break
            assert f["seat"] == seat and f["game"]["to_move"] == seat
            play_turn(http, gid, tokens[seat], socks[seat], f, rng)
        else:
            raise AssertionError(f"{game.name}: the game did not end")
        # the record replays to the position the server holds, and every seat's last
        # frame is its own observation of it
        r = net.get(f"{server.base}/api/games/{gid}/record", timeout=20)
        assert r.status_code == 200, r.text
        final = game.from_record(r.json())
        result = game.result(final)
        assert result is not None
        n = info["move_number"]
        for s, ws in socks.items():
            last = frame_at(ws, n)
            assert last["game"]["status"] == "finished"
            assert last["observation"] == jsonish(game.observe(final, s).to_json())
            assert last["options"] == [] and last["pending"] is None
            assert last["result"]["winners"] == list(result.winners)
    finally:
        http.close()
        for ws in socks.values():
            ws.close()


def test_unknown_game_and_bad_options_are_one_sentence(server: ServerProcess) -> None:
    names = [g.name for g in all_games()]
    r = net.post(
        f"{server.base}/api/games",
        json={"game": "chess", "players": 2, "seats": [{"kind": "human"}] * 2},
        timeout=20,
    )
    assert r.status_code == 422 and r.json()["code"] == "bad_game"
    assert all(n in r.json()["detail"] for n in names)
    for game in all_games():
        r = net.post(
            f"{server.base}/api/kinds/{game.name}/check",
            json={"players": game.max_players + 1, "options": {}},
            timeout=20,
        )
        assert r.status_code == 422 and r.json()["code"] == "bad_setup", r.text
        assert "\n" not in r.json()["detail"]
        r = net.post(
            f"{server.base}/api/kinds/{game.name}/check",
            json={"players": game.min_players, "options": {}},
            timeout=20,
        )
        assert r.status_code == 200 and r.json()["options"] == game.check_options(
            game.min_players, {}
        )


def test_the_lobby_lists_every_game(server: ServerProcess) -> None:
    page = net.get(server.base + "/", timeout=20).text
    for game in all_games():
        assert f'<option value="{game.name}"' in page


def test_a_bad_extra_game_stops_the_server_with_a_sentence(tmp_path: Path) -> None:
    s = ServerProcess(tmp_path / "bad.db", env={"CIVCARDS_EXTRA_GAMES": "tests.nothing:GAME"})
    with pytest.raises(RuntimeError) as e:
        s.start()
    assert "CIVCARDS_EXTRA_GAMES" in str(e.value) and "Traceback" not in str(e.value)


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_the_board_built_from_the_frames_observation_is_the_same(game: Game) -> None:
    """The web table builds a seat's observation once a frame and hands it to the game's
    ``web_view`` (``obs``): the board must be exactly what the game builds on its own, for
    every seat and spectators, all through random games."""
    from civcards.server.kinds import web_view
    from tests.test_conformance import random_game

    def visit(state: Any, step: int) -> None:
        if step % 7:
            return
        names = [f"P{i}" for i in range(state.n)]
        for seat in [*range(len(names)), None]:
            alone = web_view(game, state, seat, names, "en")
            given = web_view(game, state, seat, names, "en", game.observe(state, seat))
            assert given == alone, (step, seat)

    for seed in range(2):
        random_game(game, seed, visit)
