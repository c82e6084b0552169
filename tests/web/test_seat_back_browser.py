"""Issue 38, items 4 and 11, in a real browser (Debian's Chromium, Playwright): the table
offers a player whose time ran out their seat back (a button), and the account page
changes the password (a form). Screenshots under ``test-artifacts/``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .conftest import ServerProcess
from .test_accounts import TOY
from .test_accounts_browser import account_form, new_page
from .test_browser import shot, watch_errors
from .test_clocks import info, until
from .test_clocks_browser import finish_my_turn, open_seat

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("argon2")


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    pg = ctx.new_page()
    yield pg
    ctx.close()


@pytest.fixture(scope="module")
def toy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    s = ServerProcess(tmp_path_factory.mktemp("seatback") / "civ.db", env=TOY)
    s.start()
    yield s
    s.stop()


def test_the_table_offers_the_seat_back_after_a_timeout(toy: ServerProcess, page: Any) -> None:
    errors = watch_errors(page)
    g = toy.create(
        players=2,
        seats=[{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bo"}],
        clock={"type": "move", "seconds": 4},
        takeover_bot="random",
        seed=31,
    )
    gid = g["id"]
    ana, bo = g["seats"][0]["token"], g["seats"][1]["token"]
    finish_my_turn(toy, gid, 0, ana)  # Bo is to move, and never comes in time
    until(lambda: info(toy, gid)["seats"][1]["kind"] == "bot", timeout=20)
    open_seat(page, toy, gid, 1, bo)
    button = page.locator("[data-testid=reclaim]")
    button.wait_for(timeout=15000)
    assert button.inner_text() == "Take my seat back"
    shot(page, "seat-back-offered")
    button.click()
    # at once when another seat is to move (the list says so), else at Bo's next turn
    page.wait_for_function(
        """() => !!document.querySelector('[data-testid=reclaim-pending]')
            || /took the seat back/.test(document.querySelector('[data-testid=clock]').innerText)""",
        timeout=15000,
    )
    until(
        lambda: (
            {"seat": 1, "reason": "reclaimed"}.items() <= info(toy, gid)["takeovers"][-1].items()
        )
    )
    page.wait_for_function(
        "() => /took the seat back/.test(document.querySelector('[data-testid=clock]').innerText)",
        timeout=15000,
    )
    shot(page, "seat-back-taken")
    assert not errors, errors


def test_the_account_page_changes_the_password(toy: ServerProcess, browser: Any) -> None:
    ctx, page, errors = new_page(browser)
    account_form(page, toy, "register", "Pia", "pia's first password")
    other = httpx.Client(base_url=toy.base, timeout=30)  # another browser, logged in too
    r = other.post("/api/account/login", json={"name": "Pia", "password": "pia's first password"})
    assert r.status_code == 200
    page.click(".acct-password summary")
    page.fill("#current-password", "not my password")
    page.fill("#new-password", "pia's second password")
    page.click("#change-password")
    page.wait_for_function("() => document.querySelector('#acct-error').textContent.trim() !== ''")
    assert "password" in page.inner_text("#acct-error")  # bad_password, in words
    page.fill("#current-password", "pia's first password")
    page.fill("#new-password", "pia's second password")
    page.click("#change-password")
    page.wait_for_function(
        "() => /password is changed/.test(document.querySelector('#acct-status').textContent)"
    )
    assert page.inner_text("#acct-error") == ""
    shot(page, "account-password-changed")
    assert other.get("/api/account/me").json()["account"] is None  # logged out there
    me = page.evaluate("fetch('/api/account/me').then((r) => r.json())")
    assert me["account"]["name"] == "Pia"  # still logged in here
    other.close()
    ctx.close()
    assert not errors, errors
