"""Accessibility (issue 39): axe-core (through ``axe-playwright-python``, its script bundled:
nothing is fetched) finds no serious or critical violation on the lobby, the civ4 table and
the CIV table with a decision open, the rules pages, the review of a finished game, and the
account pages (signed out and signed in), in Debian's Chromium.

Each failure names the page, the rule, its impact and the selectors of the offending nodes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import ServerProcess
from .positions import Recorded, load, start
from .test_browser import watch_errors
from .test_layout_guard import at_move

sync_api = pytest.importorskip("playwright.sync_api")
axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright")

Page = Any

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

#: the impacts that fail a page (axe's four: minor, moderate, serious, critical)
FAILING = ("serious", "critical")
#: a small analysis budget, in time (as test_review.py's civ4 server): the review's page is
#: checked once its analysis is done
ENV = {"CIVCARDS_ANALYSIS_BOT": "ismcts:5ms", "CIVCARDS_HINT_BOT": "ismcts:5ms"}

#: until the page's finite animations have ended
SETTLED_JS = """() => Promise.all(document.getAnimations()
  .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
  .map((a) => a.finished.catch(() => null)))"""


def violations(page: Page, where: str) -> list[str]:
    """The serious and critical violations axe finds on the page as it is now, one line each:
    the page, the rule, its impact, and the offending nodes' selectors. The page's animations
    (a move fading in) end first: a colour half faded in is no colour the player reads."""
    page.evaluate(SETTLED_JS)
    found = axe_sync.Axe().run(page).response["violations"]
    out = []
    for v in found:
        if v["impact"] not in FAILING:
            continue
        nodes = "; ".join(" ".join(map(str, n["target"])) for n in v["nodes"][:8])
        more = f" (+{len(v['nodes']) - 8} more)" if len(v["nodes"]) > 8 else ""
        out.append(f"{where}: {v['id']} [{v['impact']}] {v['help']}: {nodes}{more}")
    return out


class Found:
    """The violations of a test's pages, reported together at its end."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, page: Page, where: str) -> None:
        self.lines += violations(page, where)

    def done(self) -> None:
        assert not self.lines, f"{len(self.lines)} accessibility violations:\n" + "\n".join(
            self.lines
        )


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    s = ServerProcess(tmp_path_factory.mktemp("a11y") / "civ.db", env=ENV)
    s.start()
    yield s
    s.stop()


@pytest.fixture
def page(browser: Any) -> Iterator[Page]:
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    p = ctx.new_page()
    errors = watch_errors(p)
    yield p
    ctx.close()
    assert not errors, errors


def open_at(page: Page, rec: Recorded, name: str) -> int:
    """The table at the record's stop ``name``, seen by the seat that decides there."""
    moves = int(rec.record["positions"][name]["moves"])
    rec.advance(moves)
    seat = rec.seat_at(name)
    page.goto("about:blank")  # a fresh page (the same seat's link differs only by its hash)
    page.goto(rec.link(seat))
    at_move(page, moves)
    page.wait_for_function(
        "s => document.querySelector('#table').dataset.toMove === String(s)", arg=seat
    )
    return moves


def test_the_lobby(server: ServerProcess, page: Page) -> None:
    check = Found()
    page.goto(server.base + "/")
    page.wait_for_selector("#seats li")
    check(page, "lobby (carta)")
    page.select_option("#game", "civ4")
    page.wait_for_selector("#clock-form")
    check(page, "lobby (civ4)")
    check.done()


@pytest.mark.parametrize("game", ["carta", "civ4"])
def test_the_rules(server: ServerProcess, page: Page, game: str) -> None:
    check = Found()
    page.goto(f"{server.base}/rules/{game}")
    page.wait_for_load_state("networkidle")
    check(page, f"/rules/{game}")
    check.done()


def test_the_civ4_table_with_a_payment_open(server: ServerProcess, page: Page) -> None:
    check = Found()
    rec = start(server.base, load("civ4-2p"))
    open_at(page, rec, "draft")
    check(page, "civ4 table (draft)")
    open_at(page, rec, "purchase-attack")
    check(page, "civ4 table (purchase)")
    page.locator('#actions button[data-key="attack"]').first.click()
    page.wait_for_selector('#actions button[data-key="go-attack"]')
    check(page, "civ4 table (attack)")
    open_at(page, rec, "defend")
    check(page, "civ4 table (defence)")
    open_at(page, rec, "purchase-plot")
    page.locator('#mine button[data-key^="buy-plot-"]').first.click()
    page.wait_for_selector('#actions button[data-key="go-pay"]')
    check(page, "civ4 table (payment)")
    page.set_viewport_size(PHONE)
    check(page, "civ4 table (payment, phone)")
    check.done()


def test_the_carta_table_and_the_review_of_its_game(server: ServerProcess, page: Page) -> None:
    check = Found()
    rec = start(server.base, load("carta-draft-4p"))
    open_at(page, rec, "draft")
    check(page, "CIV table (draft)")
    open_at(page, rec, "effects")
    check(page, "CIV table (play)")
    page.locator("#actions button.effect").first.click()
    page.wait_for_selector('#actions button[data-key="cancel"]')
    check(page, "CIV table (an effect)")
    page.set_viewport_size(PHONE)
    check(page, "CIV table (an effect, phone)")
    page.set_viewport_size(DESKTOP)
    rec.advance(int(rec.record["positions"]["finished"]["moves"]))
    page.wait_for_selector('[data-testid="winners"]')
    check(page, "CIV table (finished)")
    page.goto(f"{server.base}/review/{rec.gid}")
    page.wait_for_selector('#review[data-status="done"]', timeout=60_000)
    page.locator("#next").click()
    page.wait_for_selector('[data-testid="current"] p')
    check(page, "review")
    check.done()


def test_the_account_pages(server: ServerProcess, page: Page) -> None:
    check = Found()
    page.goto(server.base + "/account")
    page.wait_for_selector("#acct-forms:not([hidden])")
    check(page, "account (signed out)")
    page.fill("#register-name", "Ana")
    page.fill("#register-password", "ana's password")
    page.click("#register")
    page.wait_for_selector('[data-testid="acct-status"][data-account="Ana"]')
    page.wait_for_selector("#acct-mine:not([hidden])")
    check(page, "account (signed in)")
    page.goto(server.base + "/")
    page.wait_for_selector("#seats li")
    check(page, "lobby (signed in)")
    check.done()
