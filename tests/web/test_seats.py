"""Seats: an invitation is claimed once and gives the joiner a token of its own; the seat's
holder can replace its token; names are unique within a game and fixed once it started."""

from __future__ import annotations

import json
import unicodedata
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from . import net
from .conftest import ServerProcess, texts

H = "X-Seat-Token"
pytestmark = pytest.mark.filterwarnings("ignore:connect\\(\\) must be used")


def get_state(server: ServerProcess, gid: str, token: str) -> httpx.Response:
    return net.get(f"{server.base}/api/games/{gid}/state", headers={H: token})


def post(server: ServerProcess, gid: str, what: str, token: str, **body: Any) -> httpx.Response:
    return net.post(f"{server.base}/api/games/{gid}/{what}", headers={H: token}, json=body)


def test_an_invitation_is_claimed_once_and_yields_a_fresh_token(server: ServerProcess) -> None:
    """The creator sees every invitation: it must not be the seat's credential."""
    g = server.create(
        players=2, seats=[{"kind": "human", "name": "Ana"}, {"kind": "human"}], claim=False
    )
    gid, invitation = g["id"], g["seats"][1]["token"]
    assert g["seats"][1]["invite"] == f"/game/{gid}#seat=1&token={invitation}"
    # an invitation shows no hand and makes no move
    r = get_state(server, gid, invitation)
    assert r.status_code == 403 and r.json()["code"] == "unclaimed", r.text
    assert "join" in r.json()["detail"]
    r = post(server, gid, "moves", invitation, move="end", expected=0)
    assert r.status_code == 403
    # joining claims the seat: a fresh token, which the invitation link no longer yields
    r = post(server, gid, "join", invitation, name="Bea")
    assert r.status_code == 200, r.text
    mine = r.json()["token"]
    assert r.json()["seat"] == 1 and mine and mine != invitation
    assert r.json()["game"]["seats"][1]["name"] == "Bea"
    assert r.json()["game"]["seats"][1]["claimed"]
    assert get_state(server, gid, mine).json()["seat"] == 1
    for what in ("join", "claim"):
        r = post(server, gid, what, invitation)
        assert r.status_code == 403 and r.json()["code"] == "bad_token", r.text
    assert get_state(server, gid, invitation).status_code == 403
    # joining again with the seat's own token keeps it
    r = post(server, gid, "join", mine)
    assert r.status_code == 200 and r.json()["token"] is None
    # the public facts say which seats are taken, and never hold a token
    info = net.get(f"{server.base}/api/games/{gid}").json()
    assert [s["claimed"] for s in info["seats"]] == [False, True]
    assert invitation not in json.dumps(info) and mine not in json.dumps(info)
    # claim alone (the table page's way) takes the seat without a name
    r = post(server, gid, "claim", g["seats"][0]["token"])
    assert r.status_code == 200 and r.json()["seat"] == 0
    assert not net.get(f"{server.base}/api/games/{gid}").json()["seats"][0]["joined"]


def test_the_seat_holder_revokes_its_token(server: ServerProcess) -> None:
    g = server.create(players=2, seats=[{"kind": "human"}, {"kind": "human"}], seed=5)
    gid, old = g["id"], g["seats"][0]["token"]
    ws = connect(f"ws://127.0.0.1:{server.port}/ws/{gid}", open_timeout=10)
    try:
        ws.send(json.dumps({"token": old, "lang": "en"}))
        assert json.loads(ws.recv(timeout=10))["seat"] == 0
        r = post(server, gid, "revoke", old)
        assert r.status_code == 200, r.text
        new = r.json()["token"]
        assert r.json()["seat"] == 0 and new != old
        # the old token is dead at once, for requests and for the socket opened with it
        assert get_state(server, gid, old).status_code == 403
        assert post(server, gid, "revoke", old).status_code == 403
        f = json.loads(ws.recv(timeout=10))
        assert f["type"] == "error" and f["code"] == "bad_token"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
    finally:
        ws.close()
    v = get_state(server, gid, new).json()
    assert v["seat"] == 0
    r = net.get(f"{server.base}/api/games/{gid}/options", headers={H: new})
    assert r.status_code == 200, r.text
    # a spectator's view never says anything of tokens
    assert new not in net.get(f"{server.base}/api/games/{gid}/state").text


def test_names_are_unique_within_a_game_and_fixed_once_it_started(server: ServerProcess) -> None:
    r = net.post(
        f"{server.base}/api/games",
        json={
            "players": 2,
            "seats": [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "ANA "}],
        },
    )
    assert r.status_code == 422 and r.json()["code"] == "name_taken", r.text
    r = net.post(
        f"{server.base}/api/games",
        json={
            "players": 2,
            "seats": [{"kind": "human", "name": "Zed"}, {"kind": "bot", "name": "zed"}],
        },
    )
    assert r.status_code == 422 and r.json()["code"] == "name_taken", r.text
    g = server.create(
        players=3,
        seats=[{"kind": "human", "name": "Ana"}, {"kind": "human"}, {"kind": "human"}],
        seed=9,
        claim=False,
    )
    gid, inv = g["id"], [s["token"] for s in g["seats"]]
    r = post(server, gid, "join", inv[1], name="ana")
    assert r.status_code == 409 and r.json()["code"] == "name_taken", r.text
    # the refused join claimed nothing: the invitation still works
    r = post(server, gid, "join", inv[1], name="Bea")
    assert r.status_code == 200, r.text
    bea = r.json()["token"]
    assert post(server, gid, "join", bea, name="Bea").status_code == 200  # the same: fine
    r = post(server, gid, "join", inv[0], name="Ana")
    ana = r.json()["token"]
    assert r.status_code == 200
    v = get_state(server, gid, ana).json()
    mover = {0: ana, 1: bea}.get(v["game"]["to_move"])
    if mover is None:  # seat 2 is to move first: claim it
        mover = post(server, gid, "join", inv[2]).json()["token"]
    mv = texts(get_state(server, gid, mover).json()["options"])[0]
    assert post(server, gid, "moves", mover, move=mv, expected=0).status_code == 200
    # started: a name is fixed
    r = post(server, gid, "join", bea, name="Beatriz")
    assert r.status_code == 409 and r.json()["code"] == "name_fixed", r.text
    assert post(server, gid, "join", bea, name="Bea").status_code == 200
    names = [s["name"] for s in net.get(f"{server.base}/api/games/{gid}").json()["seats"]]
    assert names[:2] == ["Ana", "Bea"]


FAMILY = "\U0001f469\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"  # 👩‍👩‍👧‍👦
SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"


@pytest.mark.parametrize(
    "name",
    [
        f"{FAMILY} Ana",
        "\U0001f9d1\U0001f3fd\u200d\U0001f680 Bo",  # astronaut, medium skin tone
        f"Cy {SCOTLAND}",
        "\u2764\ufe0f Di",  # a heart with its emoji variation selector
        "Nguy\u1ec5n Th\u1ecb \u00c1nh",  # Vietnamese: two marks on a letter
        "Zo\u0065\u0301 \u0915\u094d\u0937\u093f",  # a decomposed é (NFC) and Devanagari
    ],
)
def test_ordinary_names_with_emoji_and_accents_are_names(server: ServerProcess, name: str) -> None:
    g = server.create(players=2, seats=[{"kind": "human", "name": name}, {"kind": "bot"}])
    info = net.get(f"{server.base}/api/games/{g['id']}").json()
    assert info["seats"][0]["name"] == unicodedata.normalize("NFC", name)
    g = server.create(players=2, seats=[{"kind": "human"}, {"kind": "human"}], claim=False)
    r = post(server, g["id"], "join", g["seats"][0]["token"], name=name)
    assert r.status_code == 200, r.text


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("a" + "\u0301" * 39, "marks"),  # 40 stacked marks: drawn over the rows around
        ("Zalgo" + "\u0336\u0334\u0337\u0335\u0338", "marks"),
        ("\uff37" * 30, "columns"),  # 30 full-width letters: 60 columns
        ("\U0001f600" * 21, "columns"),  # 21 emoji: 42 columns
        ("x" * 41, "characters"),
        ("\u202eAna", "direction"),  # a right-to-left override
        ("A\u2028B", "control"),
        ("\U000f0000 Eve", "private"),
    ],
)
def test_names_that_would_break_a_row_are_refused(
    server: ServerProcess, name: str, words: str
) -> None:
    r = net.post(
        f"{server.base}/api/games",
        json={"players": 2, "seats": [{"kind": "human", "name": name}, {"kind": "bot"}]},
    )
    assert r.status_code == 422 and r.json()["code"] in ("bad_name", "invalid_request"), r.text
    assert words in r.json()["detail"], r.json()
    g = server.create(players=2, seats=[{"kind": "human"}, {"kind": "human"}])
    r = post(server, g["id"], "join", g["seats"][0]["token"], name=name)
    assert r.status_code == 422 and words in r.json()["detail"], r.text
