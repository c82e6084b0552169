"""Issue 22, defect 10: private games (the default for invitations) are never listed;
public open tables are; the list is paged and filtered, and a flood of created games does
not swamp it. Also the lobby's small fixes: the ``web.game`` label, a neutral site title
with the game's title on its table, and a cleared number option meaning its default."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from civcards.server.i18n_web import catalogue

from . import net
from .conftest import ServerProcess, claim_seat


def game(public: bool | None = None, humans: int = 1, **extra: Any) -> dict[str, Any]:
    seats = [{"kind": "human"}] * humans + [{"kind": "bot", "bot": "random"}] * (2 - humans)
    body: dict[str, Any] = {"players": 2, "seats": seats, **extra}
    if public is not None:
        body["private"] = not public
    return body


def ids(c: httpx.Client, query: str = "") -> list[str]:
    r = c.get("/api/games" + query)
    assert r.status_code == 200, r.text
    return [g["id"] for g in r.json()]


def test_invitations_are_private_by_default(server: ServerProcess) -> None:
    private = server.create(claim=False, **game())
    public = server.create(claim=False, **game(public=True))
    with server.client() as c:
        listed = ids(c, "?limit=100")
        assert public["id"] in listed and private["id"] not in listed
        # its link still leads to it
        info = c.get(f"/api/games/{private['id']}").json()
        assert info["private"] is True
        assert c.get(f"/api/games/{public['id']}").json()["private"] is False
        for bad in ("yes", 1, None):
            r = c.post("/api/games", json={**game(), "private": bad})
            assert r.status_code == 422, bad


def test_a_flood_does_not_swamp_the_lobby(server: ServerProcess) -> None:
    with server.client() as c:
        table = c.post("/api/games", json=game(public=True)).json()["id"]
        for _ in range(60):  # invitations: private
            assert c.post("/api/games", json=game()).status_code == 201
        assert ids(c, "?limit=5")[0] == table
        assert table in ids(c, "?status=open&limit=5")


def test_the_list_is_paged_and_filtered(server: ServerProcess) -> None:
    with server.client() as c:
        made = [c.post("/api/games", json=game(public=True)).json()["id"] for _ in range(5)]
        first, second = ids(c, "?limit=3"), ids(c, "?limit=3&offset=3")
        assert first[:3] == made[::-1][:3]  # newest first
        assert second[:2] == made[::-1][3:5]
        assert not set(first) & set(second)
        assert len(ids(c, "?limit=1")) == 1
        for bad in ("?limit=0", "?limit=101", "?offset=-1", "?status=lost", "?limit=x"):
            r = c.get("/api/games" + bad)
            assert r.status_code == 422 and r.json()["code"] == "invalid_request", bad
        assert ids(c, "?game=civ4") == [] or all(
            g["game"] == "civ4" for g in c.get("/api/games?game=civ4").json()
        )
        assert all(g["game"] == "carta" for g in c.get("/api/games?game=carta").json())
        # open: a human seat still free; claimed, the game is no longer open
        gid = made[-1]
        assert gid in ids(c, "?status=open")
        info = c.get(f"/api/games/{gid}").json()
        assert info["status"] == "playing"
        created = c.post("/api/games", json=game(public=True)).json()
        claim_seat(server.base, created["id"], created["seats"][0]["token"])
        assert created["id"] not in ids(c, "?status=open")
        assert created["id"] in ids(c, "?status=playing")
        # two bots: played out at once, then finished
        bots = c.post("/api/games", json=game(public=True, humans=0)).json()["id"]
        deadline = time.monotonic() + 60
        while bots not in ids(c, "?status=finished"):
            assert time.monotonic() < deadline, "the bots' game did not finish"
            time.sleep(0.3)
        assert bots not in ids(c, "?status=playing")


def test_site_title_is_neutral_and_the_table_shows_its_game(server: ServerProcess) -> None:
    for lang in ("en", "es", "de", "fr", "pt"):
        cat = catalogue(lang)
        assert cat.get("web.game") and cat.get("web.public_table"), lang
    gid = server.create(claim=False, **game(game="civ4"))["id"]
    with server.client() as c:
        lobby = c.get("/?lang=de").text
        assert "<title>civcards</title>" in lobby
        assert '<h1><a href="/">civcards</a></h1>' in lobby
        assert '<span id="game-label" data-i18n="web.game">Spiel</span>' in lobby
        table = c.get(f"/game/{gid}").text
        assert '<h1><a href="/">civcards</a></h1>' in table
        title = c.get("/api/kinds").json()["games"]
        civ4 = next(k["title"] for k in title if k["name"] == "civ4")
        assert f"<title>{civ4} · civcards</title>" in table
        assert f'data-testid="game-title">{civ4}</h2>' in table


def test_a_cleared_number_option_means_its_default(server: ServerProcess, tmp_path: Path) -> None:
    """civ4's hand limit: typed, then cleared, the game is created with no limit (not 0)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    chromium = Path("/usr/bin/chromium")
    if not chromium.exists():
        pytest.skip("Debian's chromium is not installed")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(chromium), args=["--headless", "--no-sandbox"])
        try:
            page = b.new_page()
            page.goto(server.base + "/?lang=en")
            page.select_option("#game", "civ4")
            field = page.locator("#opt-hand_limit")
            assert field.input_value() == ""
            field.fill("5")
            field.dispatch_event("change")
            field.fill("")
            field.dispatch_event("change")
            page.check("#public")
            with page.expect_response(
                lambda r: r.url.split("?")[0].endswith("/api/games") and r.request.method == "POST"
            ) as resp:
                page.click("#create")
            sent = resp.value.request.post_data_json
            assert "hand_limit" not in sent["options"] or sent["options"]["hand_limit"] is None
            assert sent["private"] is False
            created = resp.value.json()
            info = net.get(f"{server.base}/api/games/{created['id']}").json()
            assert info["options"].get("hand_limit") in (None, -1), info["options"]
            assert info["private"] is False
        finally:
            b.close()


#: civ4's title in each language (its catalogue's ``ccg.title``)
CIV4_TITLES = {
    "en": "Civilization: The Card Game",
    "de": "Civilization: Das Kartenspiel",
    "es": "Civilization: el juego de cartas",
    "fr": "Civilization : le jeu de cartes",
    "pt": "Civilization: o jogo de cartas",
}


def test_the_games_title_is_in_the_pages_language(server: ServerProcess) -> None:
    """The lobby's kinds, the table's page and the table's view give a game's title in the
    reader's language, not always in English."""
    gid = server.create(claim=False, **game(game="civ4"))["id"]
    with server.client() as c:
        for lang, title in CIV4_TITLES.items():
            kinds = c.get("/api/kinds", params={"lang": lang}).json()["games"]
            assert next(k["title"] for k in kinds if k["name"] == "civ4") == title, lang
        carta = c.get("/api/kinds?lang=fr").json()["games"]
        assert next(k["title"] for k in carta if k["name"] == "carta") == (
            "CIV : Carta Impera Victoria"
        )
        # the table: its page (by ?lang= or the browser's language) and its view
        table = c.get(f"/game/{gid}?lang=fr").text
        assert f'data-testid="game-title">{CIV4_TITLES["fr"]}</h2>' in table
        table = c.get(f"/game/{gid}", headers={"Accept-Language": "de-DE,de;q=0.9"}).text
        assert f"<title>{CIV4_TITLES['de']} · civcards</title>" in table
        view = c.get(f"/api/games/{gid}/state?lang=fr").json()
        assert view["lang"] == "fr" and view["game"]["title"] == CIV4_TITLES["fr"]
        view = c.get(f"/api/games/{gid}/state?lang=en").json()
        assert view["game"]["title"] == CIV4_TITLES["en"]
