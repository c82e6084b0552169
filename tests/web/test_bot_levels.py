"""Issue 38, defect 5: the lobby offers the search bot as a time budget a decision, within
the server's own cap, says so in the reader's language, and creates games with it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from . import net
from .conftest import ServerProcess


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server whose bots think at most half a second a decision."""
    s = ServerProcess(
        tmp_path_factory.mktemp("capped") / "civ.db", env={"CIVCARDS_BOT_MAX_SECONDS": "0.5"}
    )
    s.start()
    yield s
    s.stop()


def search_bot(server: ServerProcess, lang: str, game: str = "civ4") -> dict[str, str]:
    r = net.get(f"{server.base}/api/kinds", params={"lang": lang}, timeout=20)
    assert r.status_code == 200, r.text
    kind = next(k for k in r.json()["games"] if k["name"] == game)
    found = [b for b in kind["bots"] if b["name"].startswith("ismcts:")]
    assert len(found) == 1, kind["bots"]
    return dict(found[0])


def test_the_lobby_level_is_the_servers_seconds(capped: ServerProcess) -> None:
    assert search_bot(capped, "en") == {
        "name": "ismcts:0.5s",
        "label": "bot: strong (search, thinks up to 0.5 s a move)",
    }
    assert "0,5 s" in search_bot(capped, "de", "carta")["label"]
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "ismcts:0.5s"}]
    g = capped.create(game="civ4", players=2, seats=seats)
    info = net.get(f"{capped.base}/api/games/{g['id']}", timeout=20).json()
    assert info["seats"][1]["bot"] == "ismcts:0.5s"
    # beyond this server's cap: one sentence
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "ismcts:1s"}]
    r = net.post(f"{capped.base}/api/games", json={"players": 2, "seats": seats}, timeout=20)
    assert r.status_code == 422 and r.json()["code"] == "bad_bot", r.text
    assert "0.5 s a move" in r.json()["detail"]


def test_the_lobby_creates_a_game_with_the_search_level(
    capped: ServerProcess, browser: Any, tmp_path: Path
) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR")
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(capped.base + "/")
        seat = 'select.seat-kind[data-seat="1"]'
        page.wait_for_selector(seat)
        label = page.inner_text(f'{seat} option[value="bot:ismcts:0.5s"]')
        assert "0,5 s" in label, label
        page.select_option(seat, "bot:ismcts:0.5s")
        page.click("#create")
        page.wait_for_selector('[data-testid="play-mine"]')
        href = page.get_attribute('[data-testid="play-mine"]', "href") or ""
        gid = href.split("/game/")[1].split("#")[0]
        info = net.get(f"{capped.base}/api/games/{gid}", timeout=20).json()
        assert info["seats"][1]["kind"] == "bot" and info["seats"][1]["bot"] == "ismcts:0.5s"
        assert errors == []
    finally:
        ctx.close()


def test_a_client_cannot_name_a_weights_file_for_a_network_bot(capped: ServerProcess) -> None:
    """A seat's bot is checked before any file is opened: ``net:FILE`` (the command line's
    way to play a network of one's own) names a path on the server, so the table refuses
    it in one sentence, whether the file exists or not; the shipped network still plays."""
    for level in ("net:/etc/hostname", "net:sample:../../x.npz", "ismcts+net:0.1s:/etc/passwd"):
        seats = [{"kind": "human"}, {"kind": "bot", "bot": level}]
        r = net.post(
            f"{capped.base}/api/games",
            json={"game": "carta", "players": 2, "seats": seats},
            timeout=20,
        )
        # refused by the request's schema (a bot's name and budget only) or by the check
        assert r.status_code == 422, r.text
        assert r.json()["code"] in ("invalid_request", "bad_bot"), r.text
    for level in ("net", "ismcts+net:0.1s"):
        seats = [{"kind": "human"}, {"kind": "bot", "bot": level}]
        g = capped.create(game="carta", players=2, seats=seats)
        info = net.get(f"{capped.base}/api/games/{g['id']}", timeout=20).json()
        assert info["seats"][1]["bot"] == level
