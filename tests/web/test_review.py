"""The review of finished games (issue 20): analysis in the background, the review API and
page, pasted records, hints; through a real server process and real SQLite, and the page
in Debian's Chromium."""

from __future__ import annotations

import html
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from . import net
from .conftest import ServerProcess

#: a small budget: the tests check the plumbing, test_analysis.py the judgement
ENV = {"CIVCARDS_ANALYSIS_BOT": "ismcts:40it", "CIVCARDS_HINT_BOT": "ismcts:40it"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    s = ServerProcess(tmp_path_factory.mktemp("review") / "civ.db", env=ENV)
    s.start()
    yield s
    s.stop()


def _finished_game(server: ServerProcess, seed: int) -> str:
    g = server.create(
        players=2,
        seats=[{"kind": "bot", "bot": "greedy", "name": "Ada"}, {"kind": "bot", "bot": "random"}],
        seed=seed,
    )
    gid = str(g["id"])
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        r = net.get(f"{server.base}/api/games/{gid}")
        if r.json()["status"] == "finished":
            return gid
        time.sleep(0.2)
    raise AssertionError("the bots did not finish their game")


def _analysed(server: ServerProcess, rid: str, timeout: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    seen_running = False
    while time.monotonic() < deadline:
        r = net.get(f"{server.base}/api/review/{rid}")
        assert r.status_code == 200, r.text
        a = r.json()["analysis"]
        seen_running |= a["status"] == "running"
        assert a["status"] != "failed", a
        if a["status"] == "done":
            return dict(r.json())
        time.sleep(0.3)
    raise AssertionError("the analysis did not end")


@pytest.fixture(scope="module")
def finished(server: ServerProcess) -> str:
    return _finished_game(server, 5)


def test_a_game_that_ends_is_queued_for_analysis_at_once(server: ServerProcess) -> None:
    """The end of a game queues its analysis (read in the database itself, no review asked)."""
    gid = _finished_game(server, 21)
    deadline = time.monotonic() + 60
    while True:
        with sqlite3.connect(server.db_path) as db:
            row = db.execute("SELECT status, total FROM analyses WHERE id = ?", (gid,)).fetchone()
        if row is not None and row[0] == "done":
            break
        assert time.monotonic() < deadline, row
        time.sleep(0.3)
    moves = net.get(f"{server.base}/api/games/{gid}").json()["move_number"]
    assert row[1] == moves


def test_a_game_in_progress_has_no_review(server: ServerProcess) -> None:
    g = server.create(players=2, seats=[{"kind": "human"}, {"kind": "human"}], seed=3)
    gid = g["id"]
    for path in (f"/api/review/{gid}", f"/api/review/{gid}/position?move=0", f"/review/{gid}"):
        r = net.get(server.base + path)
        assert r.status_code == 409, (path, r.text)
        assert r.json()["code"] == "not_finished"
        assert "Traceback" not in r.text
    r = net.get(server.base + "/api/review/nosuchgame000")
    assert r.status_code == 404
    assert r.json()["code"] == "no_game"
    r = net.get(server.base + "/api/review/r" + "0" * 23)
    assert r.status_code == 404 and r.json()["code"] == "no_review"


def test_a_finished_game_is_analysed_in_the_background(
    server: ServerProcess, finished: str
) -> None:
    review = _analysed(server, finished)
    data = review["analysis"]["data"]
    moves = review["moves"]
    assert review["players"] == 2 and review["names"][0] == "Ada"
    assert len(data["moves"]) == len(moves) == review["analysis"]["total"]
    assert [m["index"] for m in data["moves"]] == list(range(len(moves)))
    assert [m["move"] for m in data["moves"]] == [m["text"] for m in moves]
    assert {s["seat"] for s in data["summary"]} == {0, 1}
    assert review["link"] == f"/review/{finished}"
    # the position before a move, as a seat saw it (its own view) or whole
    seat_of_3 = moves[3]["seat"]
    r = net.get(f"{server.base}/api/review/{finished}/position?move=3&seat={seat_of_3}")
    assert r.status_code == 200, r.text
    view = r.json()["view"]
    assert view["seat"] == seat_of_3 and view["move_number"] == 3 and view["options"] == []
    r = net.get(f"{server.base}/api/review/{finished}/position?move=3")
    assert "position" in r.json()
    r = net.get(f"{server.base}/api/review/{finished}/position?move=100000")
    assert r.status_code == 422 and r.json()["code"] == "bad_move"
    page = net.get(f"{server.base}/review/{finished}")
    assert page.status_code == 200 and "review.js" in page.text
    # the annotated record: the record, its analysis under "annotations"
    ann = net.get(f"{server.base}/api/review/{finished}/annotated")
    assert ann.status_code == 200, ann.text
    record = net.get(f"{server.base}/api/games/{finished}/record").json()
    assert ann.json()["annotations"] == data
    assert {k: v for k, v in ann.json().items() if k != "annotations"} == record


def test_a_pasted_record_is_reviewed(server: ServerProcess, finished: str) -> None:
    rec = net.get(f"{server.base}/api/games/{finished}/record").json()
    r = net.post(f"{server.base}/api/review", json={"record": rec})
    assert r.status_code == 201, r.text
    rid = r.json()["id"]
    assert rid != finished and r.json()["link"] == f"/review/{rid}"
    again = net.post(f"{server.base}/api/review", json={"record": rec})
    assert again.json()["id"] == rid  # the same record, the same review
    review = _analysed(server, rid)
    assert [m["text"] for m in review["moves"]] == rec["moves"]
    # an unfinished record, a bad one: refused in one sentence, nothing stored
    for bad in ({**rec, "moves": rec["moves"][:5]}, {**rec, "moves": ["fly away"]}, {"a": 1}):
        r = net.post(f"{server.base}/api/review", json={"record": bad})
        assert r.status_code == 422, r.text
        assert r.json()["code"] == "bad_record"
        assert r.json()["detail"].count(". ") == 0


def test_hints_only_where_allowed_and_everyone_sees_them(server: ServerProcess) -> None:
    g = server.create(
        players=2, seats=[{"kind": "human", "name": "Ana"}, {"kind": "human"}], seed=8, hints=True
    )
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]
    info = net.get(f"{server.base}/api/games/{gid}").json()
    assert info["hints"] is True
    to_move = info["to_move"]
    other = 1 - to_move
    r = net.post(f"{server.base}/api/games/{gid}/hint", headers={"X-Seat-Token": tokens[other]})
    assert r.status_code == 409 and r.json()["code"] == "not_your_turn"
    r = net.post(f"{server.base}/api/games/{gid}/hint", headers={"X-Seat-Token": tokens[to_move]})
    assert r.status_code == 200, r.text
    hint = r.json()
    mine = net.get(
        f"{server.base}/api/games/{gid}/state", headers={"X-Seat-Token": tokens[to_move]}
    ).json()
    assert hint["move"] in [o["text"] for o in mine["options"]]
    assert hint["move_number"] == 0
    # everyone (a spectator too) sees that a hint was used, not what it was
    watching = net.get(f"{server.base}/api/games/{gid}/state").json()
    assert watching["hints_used"] == [{"seat": to_move, "index": 0}]
    theirs = net.get(
        f"{server.base}/api/games/{gid}/state", headers={"X-Seat-Token": tokens[other]}
    ).json()
    assert theirs["hints_used"] == [{"seat": to_move, "index": 0}]
    assert hint["move"] not in str(theirs["hints_used"])
    r = net.post(f"{server.base}/api/games/{gid}/hint")
    assert r.status_code == 401
    # a game without hints never gives one
    g2 = server.create(players=2, seats=[{"kind": "human"}, {"kind": "human"}], seed=8)
    st = net.get(f"{server.base}/api/games/{g2['id']}").json()
    r = net.post(
        f"{server.base}/api/games/{g2['id']}/hint",
        headers={"X-Seat-Token": g2["seats"][st["to_move"]]["token"]},
    )
    assert r.status_code == 403 and r.json() == {
        "detail": "this game was created without hints",
        "code": "no_hints",
    }
    assert st["hints"] is False


def test_a_rated_game_allows_no_hints(server: ServerProcess) -> None:
    r = net.post(
        f"{server.base}/api/games",
        json={
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "hints": True,
            "rated": True,
        },
    )
    assert r.status_code == 422 and r.json()["code"] == "hints_rated"


# -- the page in a browser ---------------------------------------------------------------

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = Path("/usr/bin/chromium")


def test_the_review_page_by_keyboard(server: ServerProcess, finished: str, browser: Any) -> None:
    review = _analysed(server, finished)
    marked = [
        m for m in review["analysis"]["data"]["moves"] if m["label"] in ("mistake", "blunder")
    ]
    n = len(review["moves"])
    b = browser
    page = b.new_page(viewport={"width": 1280, "height": 900}, locale="en-US")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.base}/review/{finished}")
    page.wait_for_selector("#review[data-ready='1']")
    assert page.get_attribute("#review", "data-cursor") == str(n)
    # the graph: one line per seat, its description, the marked moves
    assert page.locator("#graph svg polyline").count() == 2
    assert page.locator("#graph svg desc").count() == 1
    items = page.locator("#marked li")
    assert items.count() >= len(marked)
    if marked:
        assert page.locator("#graph circle.mark").count() >= len(marked)
        # a marked move, reached from the text alternative: the bot's move beside it
        m = marked[0]
        page.locator(f"#marked button[data-move='{m['index'] + 1}']").click()
        assert page.get_attribute("#review", "data-cursor") == str(m["index"] + 1)
        assert m["move"] in page.inner_text("#current")
        if m["best"] != m["move"]:
            assert page.locator("[data-testid=preferred]").count() == 1
            preferred = page.inner_text("[data-testid=preferred]")
            assert m["best"] in preferred and review["words"][m["best"]] in preferred
    # the keys: Home, then → twice, ← once
    page.locator("#review h3").first.click()
    page.keyboard.press("Home")
    assert page.get_attribute("#review", "data-cursor") == "0"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    assert page.get_attribute("#review", "data-cursor") == "1"
    assert page.input_value("#slider") == "1"
    assert page.input_value("#share").endswith(f"/review/{finished}#move=1")
    # the position as seat 0 saw it: drawn by the game's own module
    page.select_option("#seat-select", "0")
    page.wait_for_function("() => document.querySelector('#players').innerHTML.length > 0")
    assert page.get_attribute("#review", "data-render-error") is None
    page.locator("#review h3").first.click()
    page.keyboard.press("End")
    assert page.get_attribute("#review", "data-cursor") == str(n)
    # the link opens the same move and seat
    page = b.new_page(viewport={"width": 1280, "height": 900}, locale="en-US")
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.base}/review/{finished}#move=4&seat=1")
    page.wait_for_selector("#review[data-ready='1']")
    assert page.get_attribute("#review", "data-cursor") == "4"
    assert page.input_value("#seat-select") == "1"
    # the end screen links to the review
    page.goto(f"{server.base}/game/{finished}#watch")
    page.wait_for_selector("[data-testid=review-link]")
    assert page.get_attribute("[data-testid=review-link]", "href") == f"/review/{finished}"
    assert not errors, errors
    for ctx in b.contexts:  # the pages' own contexts
        ctx.close()


def test_the_hint_button_at_the_table(server: ServerProcess, browser: Any) -> None:
    """A game created with hints: the seat to move asks for one by its button, sees the
    bot's move, and the log says a hint was used."""
    g = server.create(
        claim=False,
        players=2,
        seats=[{"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "random"}],
        seed=12,
        hints=True,
    )
    gid, invitation = g["id"], g["seats"][0]["token"]
    b = browser
    page = b.new_page(viewport={"width": 1280, "height": 900}, locale="en-US")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.base}/game/{gid}#seat=0&token={invitation}")
    page.wait_for_selector("[data-testid=hint]", timeout=20000)
    page.click("[data-testid=hint]")
    page.wait_for_selector("[data-testid=hint-text]", timeout=30000)
    assert "suggests" in page.inner_text("[data-testid=hint-text]")
    page.wait_for_selector("[data-testid=hints-used]")
    assert "Ana used a hint" in page.inner_text("[data-testid=hints-used]")
    assert not errors, errors
    for ctx in b.contexts:  # the pages' own contexts
        ctx.close()


@pytest.fixture(scope="module")
def timed_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server whose analyses have a time budget a decision, as the table's default has
    (a civ4 game's several hundred decisions, each searched a few milliseconds)."""
    env = {"CIVCARDS_ANALYSIS_BOT": "ismcts:5ms", "CIVCARDS_HINT_BOT": "ismcts:5ms"}
    s = ServerProcess(tmp_path_factory.mktemp("review-timed") / "civ.db", env=env)
    s.start()
    yield s
    s.stop()


@pytest.mark.slow
def test_a_civ4_game_is_reviewed_through_the_same_interface(
    timed_server: ServerProcess, request: pytest.FixtureRequest
) -> None:
    """The other game: its finished game analysed and its positions shown, nothing of the
    review naming a game."""
    server = timed_server
    g = server.create(
        game="civ4",
        players=2,
        seats=[{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}],
        seed=4,
    )
    gid = str(g["id"])
    deadline = time.monotonic() + 120
    while net.get(f"{server.base}/api/games/{gid}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the civ4 bots did not finish"
        time.sleep(0.3)
    review = _analysed(server, gid, timeout=240)
    assert review["game"] == "civ4"
    data = review["analysis"]["data"]
    assert len(data["moves"]) == len(review["moves"]) > 0
    judged = [m for m in data["moves"] if not m["forced"]]
    assert judged and all(0.0 <= m["after"] <= 1.0 for m in judged if m["after"] is not None)
    seat = review["moves"][10]["seat"]
    r = net.get(f"{server.base}/api/review/{gid}/position?move=10&seat={seat}")
    assert r.status_code == 200 and r.json()["view"]["seat"] == seat
    if not CHROMIUM.exists():
        return
    # the page draws the seat's position with the game's own module (the module's browser)
    b = request.getfixturevalue("browser")
    page = b.new_page(viewport={"width": 1280, "height": 900}, locale="en-US")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.base}/review/{gid}#move=10&seat={seat}")
    page.wait_for_selector("#review[data-ready='1']")
    page.wait_for_function("() => document.querySelector('#status').innerHTML.length > 0")
    assert page.get_attribute("#review", "data-render-error") is None
    assert not errors, errors
    for ctx in b.contexts:  # the pages' own contexts
        ctx.close()


def test_a_pasted_record_by_the_page(server: ServerProcess, finished: str, browser: Any) -> None:
    text = net.get(f"{server.base}/api/games/{finished}/record").text
    b = browser
    page = b.new_page(viewport={"width": 1280, "height": 900}, locale="en-US")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.base}/review")
    page.fill("#record-text", "{not json")
    page.click("#paste-form button[type=submit]")
    page.wait_for_function("() => document.querySelector('#error').textContent.length > 0")
    page.fill("#record-text", text)
    page.click("#paste-form button[type=submit]")
    page.wait_for_url(f"{server.base}/review/r*")
    page.wait_for_selector("#review[data-ready='1']")
    assert page.locator("#graph svg").count() == 1
    assert not errors, errors
    for ctx in b.contexts:  # the pages' own contexts
        ctx.close()


def test_the_whole_position_is_drawn_by_the_game_and_bots_are_named_as_at_the_table(
    server: ServerProcess, finished: str, browser: Any
) -> None:
    """Issue 38.8: the review's default view, the whole position, is drawn by the game's
    own module as the table draws it (no dump of its JSON), with every seat's own panel
    (its hand) beside the public board; and a seat is named as the table names it (a
    bot's default name in the reader's words)."""
    review = net.get(f"{server.base}/api/review/{finished}").json()
    b = browser
    page = b.new_page(viewport={"width": 1280, "height": 900}, locale="en-US")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # the table's names: the players' headings its module draws for a spectator
    page.goto(f"{server.base}/game/{finished}#watch")
    page.wait_for_selector("#players h3")
    at_table = [page.inner_text(f"#players article:nth-of-type({i + 1}) h3") for i in (0, 1)]
    page.goto(f"{server.base}/review/{finished}#move=6")
    page.wait_for_selector("#review[data-ready='1']")
    assert page.input_value("#seat-select") == ""  # the whole position
    page.wait_for_selector("[data-testid=whole-seat]")
    assert page.get_attribute("#review", "data-render-error") is None
    assert page.locator("dl.position").count() == 0  # no dump of the JSON
    assert page.is_visible("#players") and page.locator("#players article").count() == 2
    # every seat's own panel, drawn by the module from that seat's view
    seats = page.locator("[data-testid=whole-seat]")
    assert seats.count() == 2
    for s in range(2):
        assert seats.nth(s).locator("h3").first.inner_text() == review["names"][s]
        assert seats.nth(s).inner_text().strip() != review["names"][s]  # not empty
    # a bot's name as the table says it, in the summary, the graph, the seat menu
    for s, name in enumerate(review["names"]):
        assert name in at_table[s], (name, at_table[s])
    options = page.locator("#seat-select option").all_inner_texts()
    assert options[1:] == review["names"]
    assert not errors, errors
    for ctx in b.contexts:  # the pages' own contexts
        ctx.close()


def test_the_review_names_the_game_in_the_readers_language(
    server: ServerProcess, finished: str
) -> None:
    """The review (its API, its page, a position's view) gives the game's title in the
    reader's language: carta's French one spaces its colon."""
    french = "CIV : Carta Impera Victoria"
    assert net.get(f"{server.base}/api/review/{finished}?lang=fr").json()["title"] == french
    assert net.get(f"{server.base}/api/review/{finished}?lang=en").json()["title"] == (
        "CIV: Carta Impera Victoria"
    )
    page = html.unescape(net.get(f"{server.base}/review/{finished}?lang=fr").text)
    assert 'data-testid="review-title">' in page and f"· {french}</h2>" in page
    r = net.get(f"{server.base}/api/review/{finished}/position?move=3&seat=0&lang=fr")
    assert r.json()["view"]["game"]["title"] == french
