"""Issue 22, defect 9: the API contract. A small client written only from the OpenAPI
schema (it finds the operations by their typed answers, sends what the request schemas
ask, and checks every answer against its schema) plays whole games of every game the
server hosts, choosing uniformly among the offered choices and expanding steps through the
API. Integers are strict. The WebSocket's frames are in the schema too."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import httpx
import jsonschema_rs
import pytest
from websockets.sync.client import connect

from . import net
from .conftest import ServerProcess

Json = Any


class SchemaClient:
    """Knows nothing of civcards but its OpenAPI document."""

    def __init__(self, base: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=30)
        self.doc: dict[str, Any] = self.http.get("/openapi.json").json()
        self.schemas: dict[str, Any] = self.doc["components"]["schemas"]
        #: each component's validator, built once (building one from the whole document
        #: each answer cost the test more than its requests' checking)
        self.validators: dict[str, Any] = {}

    # -- reading the schema ------------------------------------------------------------

    def op(self, method: str, answers: str, *, path_has: str = "") -> tuple[str, dict[str, Any]]:
        """The one operation ``method`` whose 200/201 answer is the schema ``answers``."""
        found = []
        for path, ops in self.doc["paths"].items():
            o = ops.get(method)
            if o is None or path_has not in path:
                continue
            for code in ("200", "201"):
                schema = o["responses"].get(code, {}).get("content", {})
                schema = schema.get("application/json", {}).get("schema", {})
                if json.dumps(schema).endswith(f'/{answers}"}}') or schema.get("$ref", "").endswith(
                    f"/{answers}"
                ):
                    found.append((path, o))
        assert len(found) == 1, (method, answers, [p for p, _ in found])
        return found[0]

    def token_header(self, o: dict[str, Any]) -> str:
        return next(str(p["name"]) for p in o["parameters"] if p["in"] == "header")

    def body_schema(self, o: dict[str, Any]) -> dict[str, Any]:
        ref = o["requestBody"]["content"]["application/json"]["schema"]
        ref = ref.get("$ref") or next(x["$ref"] for x in ref.get("anyOf", []) if "$ref" in x)
        return dict(self.schemas[ref.rsplit("/", 1)[1]])

    def check(self, answer: Json, name: str) -> None:
        """``answer`` is valid against the component ``name``."""
        v = self.validators.get(name)
        if v is None:
            schema = {"$ref": f"#/components/schemas/{name}", "components": self.doc["components"]}
            v = self.validators[name] = jsonschema_rs.validator_for(schema)
        v.validate(answer)

    # -- calling ------------------------------------------------------------------------

    def call(self, method: str, path: str, answers: str, **kw: Any) -> Json:
        for _ in range(50):
            r = self.http.request(method, path, **kw)
            if r.status_code == 429:  # documented: wait as Retry-After says
                time.sleep(float(r.headers.get("retry-after", "1")))
                continue
            assert r.status_code in (200, 201), (path, r.status_code, r.text)
            out = r.json()
            self.check(out, answers)
            return out
        raise AssertionError("rate limited for too long")


def play_whole_game(
    c: SchemaClient, kind: dict[str, Any], rng: random.Random, stats: dict[str, int]
) -> dict[str, Any]:
    create_path, create = c.op("post", "Created")
    body_schema = c.body_schema(create)
    props = body_schema["properties"]
    seat_schema = c.schemas[props["seats"]["items"]["$ref"].rsplit("/", 1)[1]]
    human = next(k for k in seat_schema["properties"]["kind"]["enum"] if k == "human")
    n = int(kind["min_players"])
    body = {"game": kind["name"], "players": n, "seats": [{"kind": human}] * n}
    assert set(body_schema["required"]) <= set(body)
    created = c.call("post", create_path, "Created", json=body)
    gid = created["id"]

    claim_path, claim = c.op("post", "SeatTokenOut", path_has="claim")
    header = c.token_header(claim)
    tokens: dict[int, str] = {}
    for s in created["seats"]:
        answer = c.call(
            "post", claim_path.format(game_id=gid), "SeatTokenOut", headers={header: s["token"]}
        )
        tokens[answer["seat"]] = answer["token"]

    info_path, _ = c.op("get", "GameOut", path_has="{game_id}")
    options_path, _ = c.op("get", "OptionsOut")
    move_path, move_op = c.op("post", "MoveResult")
    assert {"move", "expected", "steps"} <= set(c.body_schema(move_op)["properties"])
    moves = 0
    while True:
        game: dict[str, Any] = c.call("get", info_path.format(game_id=gid), "GameOut")
        if game["status"] == "finished":
            return game
        seat = game["to_move"]
        head = {header: tokens[seat]}
        o = c.call("get", options_path.format(game_id=gid), "OptionsOut", headers=head)
        choices = (o["pending"] or {}).get("choices") or o["options"]
        steps: list[str] = []
        while True:  # walk down the steps until a final choice is made
            choice = rng.choice(choices)
            sent = {"move": choice["text"], "expected": o["move_number"], "steps": steps}
            answer = c.call(
                "post", move_path.format(game_id=gid), "MoveResult", json=sent, headers=head
            )
            if answer["expansion"] is not None:  # a step that hides nothing: go down it
                stats["expanded"] = stats.get("expanded", 0) + 1
                steps = [*steps, choice["text"]]
                choices = answer["expansion"]["choices"]
                continue
            break
        moves += 1
        stats["moves"] = stats.get("moves", 0) + 1
        assert moves < 5000, "the game did not end"


def test_a_client_from_the_schema_plays_every_game(server: ServerProcess) -> None:
    c = SchemaClient(server.base)
    kinds_path, _ = c.op("get", "KindsOut")
    kinds = c.call("get", kinds_path, "KindsOut")["games"]
    assert len(kinds) >= 2
    rng = random.Random(22)
    stats: dict[str, int] = {}
    for kind in kinds:
        final = play_whole_game(c, kind, rng, stats)
        assert final["status"] == "finished" and final["game"] == kind["name"]
        # the record is a JSON object once the game is over
        record_path, _ = next((p, o) for p, o in c.doc["paths"].items() if p.endswith("/record"))
        assert isinstance(c.http.get(record_path.format(game_id=final["id"])).json(), dict)
        # every view of it fits ViewOut, a spectator's too
        state_path, _ = c.op("get", "ViewOut")
        c.call("get", state_path.format(game_id=final["id"]), "ViewOut")
    assert stats["expanded"] > 0 and stats["moves"] > 20, stats


def test_websocket_frames_are_in_the_schema(server: ServerProcess) -> None:
    c = SchemaClient(server.base)
    ws = c.doc["x-websocket"]
    assert ws["path"] == "/ws/{game_id}"
    g = server.create(players=2, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    hello = {"token": g["seats"][0]["token"], "lang": "en"}
    c.check(hello, "WsHello")
    with connect(f"ws://127.0.0.1:{server.port}/ws/{g['id']}", open_timeout=10) as sock:
        sock.send(json.dumps(hello))
        c.check(json.loads(sock.recv(timeout=10)), "WsStateFrame")
        sock.send("[")
        c.check(json.loads(sock.recv(timeout=10)), "WsErrorFrame")


@pytest.mark.parametrize("bad", [True, "2", 1.0, "true"])
def test_integers_are_strict(server: ServerProcess, bad: Any) -> None:
    # the whole games above may have spent this address's requests: each request here
    # waits out a 429 as its Retry-After says, as the schema client does, and then must
    # get its 422
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    r = net.patient("POST", f"{server.base}/api/games", json={"players": 2, "seats": seats})
    assert r.status_code == 201, r.text
    g = r.json()
    r = net.patient(
        "POST",
        f"{server.base}/api/games/{g['id']}/claim",
        headers={"X-Seat-Token": g["seats"][0]["token"]},
    )
    assert r.status_code == 200, r.text
    tok = r.json()["token"]
    r = net.patient(
        "POST",
        f"{server.base}/api/games/{g['id']}/moves",
        json={"move": "end", "expected": bad},
        headers={"X-Seat-Token": tok},
    )
    assert r.status_code == 422 and r.json()["code"] == "invalid_request", r.text
    assert "expected" in r.json()["detail"]
    humans = [{"kind": "human"}, {"kind": "human"}]
    for field, body in (
        ("players", {"players": bad, "seats": humans}),
        ("seed", {"players": 2, "seats": humans, "seed": bad}),
    ):
        r = net.patient("POST", f"{server.base}/api/games", json=body)
        assert r.status_code == 422, (field, r.text)
    r = net.patient("POST", f"{server.base}/api/kinds/carta/check", json={"players": bad})
    assert r.status_code == 422, r.text
