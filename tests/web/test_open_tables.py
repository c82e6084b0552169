"""Issue 21, deliverable 5: open tables. A public game's free seats are listed in the lobby
and anyone may take one (POST /api/games/{id}/sit), through the API and with one click in
the lobby (Debian's Chromium); a private game's seats are not for strangers."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from . import net
from .conftest import ServerProcess, claim_seat
from .test_browser import shot, watch_errors

H = "X-Seat-Token"


def table(server: ServerProcess, *, private: bool = False, humans: int = 2) -> dict[str, Any]:
    seats = [{"kind": "human"}] * humans + [{"kind": "bot", "bot": "random"}] * (3 - humans)
    return server.create(claim=False, players=3, seats=seats, private=private)


def open_ids(c: httpx.Client) -> list[str]:
    return [g["id"] for g in c.get("/api/games?status=open&limit=100").json()]


def test_anyone_takes_a_free_seat_of_a_public_game(server: ServerProcess) -> None:
    # three human seats, so that no bot moves before the stranger sits (a name is fixed
    # once the game has started: test_seats)
    g = table(server, humans=3)
    gid = g["id"]
    # the creator takes seat 0 with its invitation, a friend seat 2 with theirs; seat 1 is
    # free for anyone
    mine = claim_seat(server.base, gid, g["seats"][0]["token"])
    claim_seat(server.base, gid, g["seats"][2]["token"])
    with server.client() as c:
        seats = c.get(f"/api/games/{gid}").json()["seats"]
        assert [s["free"] for s in seats] == [False, True, False]
        assert gid in open_ids(c)
        r = c.post(f"/api/games/{gid}/sit", json={"name": "Zoé"})
        assert r.status_code == 200, r.text
        got = r.json()
        assert got["seat"] == 1 and got["token"]
        assert got["game"]["seats"][1] == {
            "seat": 1,
            "kind": "human",
            "bot": None,
            "name": "Zoé",
            "joined": True,
            "claimed": True,
            "free": False,
        }
        # the token is the seat's own: it plays the seat
        v = c.get(f"/api/games/{gid}/state", headers={H: got["token"]}).json()
        assert v["seat"] == 1
        # the table is full now: not listed as open, no more seats to take
        assert gid not in open_ids(c)
        r = c.post(f"/api/games/{gid}/sit", json={})
        assert r.status_code == 409 and r.json()["code"] == "no_free_seat"
        # the invitation of the seat taken is dead
        dead = c.post(f"/api/games/{gid}/claim", headers={H: g["seats"][1]["token"]})
        assert dead.status_code == 403
        # the creator's seat is untouched
        assert c.get(f"/api/games/{gid}/state", headers={H: mine}).json()["seat"] == 0


def test_taking_a_seat_is_refused_in_one_sentence_and_changes_nothing(
    server: ServerProcess,
) -> None:
    # no bot at this table: none moves (and fixes the names) before the seat is taken
    public = table(server, humans=3)
    with_bot = table(server)
    private = table(server, private=True)
    gid = public["id"]
    claim_seat(server.base, gid, public["seats"][0]["token"])
    claim_seat(server.base, gid, public["seats"][2]["token"])
    cases = [
        (private["id"], {}, 403, "private"),
        (gid, {"seat": 0}, 409, "seat_taken"),  # taken by the creator
        (gid, {"seat": 2}, 409, "seat_taken"),  # taken with its invitation
        (with_bot["id"], {"seat": 2}, 409, "seat_taken"),  # a bot's
        (gid, {"seat": 9}, 422, "bad_seat"),
        (gid, {"seat": -1}, 422, "invalid_request"),
        (gid, {"seat": "1"}, 422, "invalid_request"),
        (gid, {"seat": 1, "color": "red"}, 422, "invalid_request"),
        (gid, {"seat": 1, "name": "x" * 65}, 422, "invalid_request"),
        (gid, {"seat": 1, "name": "a\u202eb"}, 422, "bad_name"),
        ("nope", {}, 404, "no_game"),
    ]
    with server.client() as c:
        before = c.get(f"/api/games/{gid}").json()
        for game, body, status, code in cases:
            r = c.post(f"/api/games/{game}/sit", json=body)
            assert r.status_code == status, (body, r.text)
            assert r.json()["code"] == code, (body, r.text)
            assert "Traceback" not in r.text and r.json()["detail"]
        assert c.get(f"/api/games/{gid}").json() == before
        assert c.get(f"/api/games/{private['id']}").json()["seats"][1]["free"] is True
        # a name already at the table is refused too
        first = c.post(f"/api/games/{gid}/sit", json={"seat": 1, "name": "Ana"})
        assert first.status_code == 200
        g2 = table(server, humans=3)
        c.post(f"/api/games/{g2['id']}/sit", json={"seat": 0, "name": "Bo"})
        clash = c.post(f"/api/games/{g2['id']}/sit", json={"seat": 1, "name": "bo"})
        assert clash.status_code == 409 and clash.json()["code"] == "name_taken"
        assert c.get(f"/api/games/{g2['id']}").json()["seats"][1]["free"] is True


def test_a_rematch_seat_waits_for_its_own_player(server: ServerProcess) -> None:
    """A rematch offers each seat to the player who held it: not a free seat for anyone."""
    g = server.create(
        players=2, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}], private=False
    )
    gid, tok = g["id"], g["seats"][0]["token"]
    with server.client() as c:
        r = c.post(f"/api/games/{gid}/resign", headers={H: tok})
        assert r.status_code == 200
        until_finished(c, gid)
        new = c.post(f"/api/games/{gid}/rematch", headers={H: tok}).json()
        other = c.get(f"/api/games/{new['id']}").json()
        assert other["seats"][0]["kind"] == "human" and other["seats"][1]["bot"] == "random"
        assert not any(s["free"] for s in other["seats"])
        assert new["id"] not in open_ids(c)


def until_finished(c: httpx.Client, gid: str) -> None:
    import time

    end = time.monotonic() + 60
    while c.get(f"/api/games/{gid}").json()["status"] != "finished":
        assert time.monotonic() < end
        time.sleep(0.1)


sync_api = pytest.importorskip("playwright.sync_api")


def test_the_lobby_lists_a_free_seat_and_one_click_takes_it(
    server: ServerProcess, browser: Any
) -> None:
    g = table(server)
    gid = g["id"]
    claim_seat(server.base, gid, g["seats"][0]["token"])
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(f"{server.base}/")
        button = page.locator(f"[data-testid=sit-{gid}-1]")
        button.wait_for()
        assert button.inner_text() == "Take seat 2"
        assert page.locator(f"[data-testid^=sit-{gid}-]").count() == 1
        shot(page, "open-table-lobby")
        button.click()
        page.wait_for_function(f"() => location.pathname === '/game/{gid}'")
        assert page.evaluate("() => location.hash") == "#seat=1"
        page.wait_for_function("() => document.querySelector('#table').dataset.status")
        # the table asks the newcomer to sit down (and its name while no move was made), as
        # after an invitation
        page.wait_for_selector("#join-form button[type=submit]")
        named = page.locator("#join-name").count() > 0
        if named:
            page.fill("#join-name", "Newcomer")
        page.click("#join-form button[type=submit]")
        page.wait_for_function("() => document.querySelector('#join').hidden", timeout=10000)
        info = net.get(f"{server.base}/api/games/{gid}").json()
        assert info["seats"][1]["joined"]
        assert info["seats"][1]["name"] == ("Newcomer" if named else "")
        assert (
            page.evaluate("() => JSON.parse(localStorage.getItem('civcards.seats'))[0].seat") == 1
        )
        assert not errors, errors
    finally:
        ctx.close()
