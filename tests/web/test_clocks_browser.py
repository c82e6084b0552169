"""Issue 21, deliverable 4, in a real browser (Debian's Chromium, Playwright): a clock
ticks on the table, runs out, and a bot takes the seat; the game goes on. A player
resigns with the table's button. Screenshots under ``test-artifacts/``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from . import net
from .conftest import ServerProcess
from .test_browser import shot, watch_errors
from .test_clocks import a_move, info, until, view

sync_api = pytest.importorskip("playwright.sync_api")

H = "X-Seat-Token"


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    pg = ctx.new_page()
    yield pg
    ctx.close()


def open_seat(page: Any, server: ServerProcess, gid: str, seat: int, token: str) -> None:
    """Open the table as ``seat`` (its token remembered as the browser would after a link)."""
    page.goto(f"{server.base}/")
    page.evaluate(
        """([id, seat, token]) => {
            const all = JSON.parse(localStorage.getItem('civcards.seats') || '[]');
            localStorage.setItem('civcards.seats', JSON.stringify([{id, seat, token}, ...all]));
        }""",
        [gid, seat, token],
    )
    page.goto(f"{server.base}/game/{gid}#seat={seat}")


def finish_my_turn(server: ServerProcess, gid: str, seat: int, token: str) -> None:
    """Make ``seat``'s moves (through the API) until another seat is to move."""
    while True:
        v = view(server, gid, token)
        if v["game"]["to_move"] != seat or v["game"]["status"] == "finished":
            return
        r = net.post(
            f"{server.base}/api/games/{gid}/moves",
            json={"move": a_move(v), "expected": v["move_number"]},
            headers={H: token},
        )
        assert r.status_code in (200, 409), r.text


def test_a_clock_runs_out_on_the_table_and_a_bot_takes_the_seat(
    server: ServerProcess, page: Any
) -> None:
    errors = watch_errors(page)
    g = server.create(
        players=2,
        seats=[{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bo"}],
        clock={"type": "move", "seconds": 5},
        takeover_bot="random",
        seed=31,
    )
    gid = g["id"]
    mine, absent = g["seats"][0]["token"], g["seats"][1]["token"]
    assert absent  # Bo never comes
    finish_my_turn(server, gid, 0, mine)  # Bo is to move now
    open_seat(page, server, gid, 0, mine)
    page.wait_for_selector("[data-testid=clock-1]")
    clock = page.locator("[data-testid=clock]")
    assert clock.get_attribute("data-running") == "1"
    assert "5 s per move" in clock.inner_text()
    # the clock ticks down in the browser (the server decides when it runs out)
    first = page.inner_text("[data-testid=clock-1] time")
    time.sleep(1.1)
    assert page.inner_text("[data-testid=clock-1] time") != first
    shot(page, "clock-ticking")
    # Bo's time runs out: the bot takes the seat, the table says so, the game goes on
    page.wait_for_selector("[data-testid=takeover-1]", timeout=15000)
    text = page.inner_text("[data-testid=takeover-1]")
    assert "Bo" in text and "random" in text and "time ran out" in text
    assert page.locator("[data-testid=clock-1]").count() == 0  # a bot has no clock
    shot(page, "clock-takeover")
    until(
        lambda: (
            info(server, gid)["move_number"] > view(server, gid)["clock"]["takeovers"][0]["move"]
        )
    )
    # ... and it is my turn again, my clock running
    page.wait_for_function(
        "() => document.querySelector('[data-testid=clock]').dataset.running === '0'",
        timeout=15000,
    )
    assert info(server, gid)["seats"][1]["kind"] == "bot"
    assert not errors, errors


def test_a_player_resigns_with_the_tables_button(server: ServerProcess, page: Any) -> None:
    errors = watch_errors(page)
    g = server.create(
        players=2,
        seats=[{"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "random"}],
        takeover_bot="random",
        seed=32,
    )
    gid, mine = g["id"], g["seats"][0]["token"]
    open_seat(page, server, gid, 0, mine)
    page.click("[data-testid=resign]")
    assert "random bot plays your seat" in page.inner_text("[data-testid=clock]")
    page.click("[data-testid=resign-yes]")
    page.wait_for_selector("[data-testid=takeover-0]", timeout=10000)
    assert "resigned" in page.inner_text("[data-testid=takeover-0]")
    assert page.locator("[data-testid=resign]").count() == 0
    # the bots play the game to its end
    until(lambda: info(server, gid)["status"] == "finished", timeout=60, step=0.2)
    page.wait_for_selector("[data-testid=winners]", timeout=15000)
    shot(page, "clock-resigned")
    assert not errors, errors


def test_the_lobby_creates_a_game_with_a_clock(server: ServerProcess, page: Any) -> None:
    errors = watch_errors(page)
    page.goto(f"{server.base}/")
    page.select_option("#clock-type", "move")
    page.fill("#clock-seconds", "45")
    page.select_option("#takeover-bot", "random")
    page.check("[data-testid=public]")
    with page.expect_response(lambda r: r.url.split("?")[0].endswith("/api/games") and r.status == 201) as got:
        page.click("#create")
    gid = got.value.json()["id"]
    clock = info(server, gid)["clock"]
    assert clock["type"] == "move" and clock["seconds"] == 45
    assert clock["takeover_bot"] == "random" and clock["grace"] == 300
    # a refused setting says so in one sentence, and creates nothing
    page.fill("#clock-seconds", "0")
    page.click("#create")
    page.wait_for_function("() => document.querySelector('#lobby-error').textContent.trim() !== ''")
    assert page.inner_text("#lobby-error").count(".") <= 1
    # the lobby lists the game with its clock
    page.goto(f"{server.base}/")
    row = page.locator("#all-games li", has=page.locator(f'a[href="/game/{gid}#watch"]'))
    row.wait_for()
    assert "45 s per move" in row.inner_text()
    assert not errors, errors
