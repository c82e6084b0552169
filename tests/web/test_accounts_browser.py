"""Accounts in a real browser (Debian's Chromium, Playwright): registering, logging in from
a second browser and finding the history there, and a rated game between two accounts
changing both ratings (docs/accounts.md)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import ServerProcess
from .test_accounts import TOY, play_out
from .test_browser import shot, watch_errors

sync_api = pytest.importorskip("playwright.sync_api")

Page = Any


@pytest.fixture(scope="module")
def toy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    s = ServerProcess(tmp_path_factory.mktemp("acctb") / "acct.db", env=TOY)
    s.start()
    yield s
    s.stop()


def new_page(browser: Any) -> tuple[Any, Page, list[str]]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = ctx.new_page()
    return ctx, page, watch_errors(page)


def account_form(page: Page, server: ServerProcess, which: str, name: str, pw: str) -> None:
    """Register or log in (``which``) on the account page, until it says who is in."""
    page.goto(server.base + "/account")
    page.wait_for_selector("#acct-forms:not([hidden])")
    page.fill(f"#{which}-name", name)
    page.fill(f"#{which}-password", pw)
    page.click(f"#{which}")
    page.wait_for_selector(f'[data-testid="acct-status"][data-account="{name}"]')


def stored_seat(page: Page, gid: str) -> dict[str, Any]:
    seats = json.loads(page.evaluate("localStorage.getItem('civcards.seats') || '[]'"))
    found = [s for s in seats if s["id"] == gid]
    assert found, seats
    return dict(found[0])


def test_register_then_log_in_from_another_browser_and_see_the_history(
    toy: ServerProcess, browser: Any
) -> None:
    ctx1, page, errors = new_page(browser)
    account_form(page, toy, "register", "Ana", "ana's password")
    assert "Logged in as Ana" in page.inner_text('[data-testid="acct-status"]')
    cookie = next(c for c in ctx1.cookies() if c["name"] == "civcards_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
    assert "civcards_session" not in page.evaluate("document.cookie")  # no script sees it
    # a game from the lobby against a bot, played to its end (seat 0's moves by the API)
    page.click('[data-testid="account-link"]')  # the header's link leads to the account
    page.wait_for_url("**/account")
    page.goto(toy.base + "/")
    page.select_option("#game", "toy")
    page.select_option('select.seat-kind[data-seat="1"]', "bot:random")
    page.click("#create")
    page.wait_for_selector('[data-testid="play-mine"]')
    gid = page.get_attribute('[data-testid="play-mine"]', "href").split("/game/")[1].split("#")[0]
    mine = stored_seat(page, gid)
    final = play_out(toy, gid, {0: mine["token"], 1: mine["token"]}, only=0)
    winners = final["result"]["winners"]
    want = ("shared" if final["result"]["shared"] else "won") if 0 in winners else "lost"

    # a second browser: log in, and the game is there with its result
    ctx2, page2, errors2 = new_page(browser)
    account_form(page2, toy, "login", "Ana", "ana's password")
    row = page2.wait_for_selector(f'[data-testid="history-{gid}"]')
    assert row.get_attribute("data-result") == want
    assert {"won": "Won", "lost": "Lost", "shared": "Shared victory"}[want] in row.inner_text()
    # ... and opens it there: the seat's token comes from the account
    page2.click(f'[data-testid="open-{gid}"]')
    page2.wait_for_url(f"**/game/{gid}#seat=0")
    page2.wait_for_selector('#table[data-status="finished"]')
    assert stored_seat(page2, gid)["token"] == mine["token"]
    assert errors == [] and errors2 == []
    ctx1.close()
    ctx2.close()


def test_a_rated_game_changes_both_ratings(toy: ServerProcess, browser: Any) -> None:
    ctx_a, a, errors_a = new_page(browser)
    ctx_b, b, errors_b = new_page(browser)
    account_form(a, toy, "register", "Rae", "rae's password")
    account_form(b, toy, "register", "Sol", "sol's password")
    for page in (a, b):  # no ratings yet
        page.wait_for_selector("#ratings tbody td.muted")
    a.goto(toy.base + "/")
    a.select_option("#game", "toy")
    a.select_option('select.seat-kind[data-seat="1"]', "human")
    a.check("#rated")  # offered once logged in
    a.click("#create")
    invite = a.input_value('[data-testid="invite-1"]', timeout=10000)
    gid = invite.split("/game/")[1].split("#")[0]
    b.goto(invite)  # Sol takes the seat, logged in
    b.wait_for_selector("#table[data-moves]")
    b.wait_for_function(
        "gid => (JSON.parse(localStorage.getItem('civcards.seats') || '[]')).some(s => s.id === gid)",
        arg=gid,
    )
    tokens = {0: stored_seat(a, gid)["token"], 1: stored_seat(b, gid)["token"]}
    play_out(toy, gid, tokens)
    seen = {}
    for page, name in ((a, "Rae"), (b, "Sol")):
        page.goto(toy.base + "/account")
        cell = page.wait_for_selector('[data-testid="rating-toy"]')
        assert cell.get_attribute("data-games") == "1"
        seen[name] = float(cell.get_attribute("data-ordinal") or "nan")
        assert seen[name] != 0.0  # a new rating's ordinal is 25 - 3 * 25/3 = 0
        row = page.wait_for_selector(f'[data-testid="history-{gid}"]')
        assert "Rated" in row.inner_text()
        assert "Rating 0.0 →" in row.inner_text()
        shot(page, f"account-{name}")
    assert errors_a == [] and errors_b == []
    ctx_a.close()
    ctx_b.close()


def test_the_games_of_this_browser_join_a_new_account(toy: ServerProcess, browser: Any) -> None:
    ctx, page, errors = new_page(browser)
    page.goto(toy.base + "/")  # a game before any account
    page.select_option("#game", "toy")
    page.select_option('select.seat-kind[data-seat="1"]', "bot:random")
    page.click("#create")
    page.wait_for_selector('[data-testid="play-mine"]')
    gid = page.get_attribute('[data-testid="play-mine"]', "href").split("/game/")[1].split("#")[0]
    account_form(page, toy, "register", "Late", "late's password")
    button = page.wait_for_selector('[data-testid="link-here"]:not([hidden])')
    assert button.inner_text() == "Add the games of this browser to your account (1)"
    button.click()
    page.wait_for_selector(f'[data-testid="history-{gid}"]')
    page.wait_for_selector('[data-testid="link-here"][hidden]', state="attached")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: no sideways scroll
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "account-390")
    assert errors == []
    ctx.close()


def test_the_history_names_each_game_in_the_pages_language(
    toy: ServerProcess, browser: Any
) -> None:
    """The account's lists carry the game's own (English) title; the page shows the title
    of the page's language (civ4's has one in every catalogue)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE")
    page = ctx.new_page()
    errors = watch_errors(page)
    account_form(page, toy, "register", "Dora", "dora's password")
    page.goto(toy.base + "/?lang=de")  # a civ4 game from the lobby, against a bot
    page.select_option("#game", "civ4")
    page.select_option('select.seat-kind[data-seat="1"]', "bot:random")
    page.click("#create")
    page.wait_for_selector('[data-testid="play-mine"]')
    page.goto(toy.base + "/account?lang=de")
    kind = page.wait_for_selector('#history .game-kind[data-game="civ4"]')
    assert kind.inner_text() == "Civilization: Das Kartenspiel"
    page.select_option("#lang-select", "en")  # the page's language changed: the title too
    page.wait_for_function(
        "() => document.querySelector('#history .game-kind[data-game=civ4]')"
        "?.textContent === 'Civilization: The Card Game'"
    )
    assert errors == []
    ctx.close()
