"""The table as a game (issue 39): during play at a desktop's size (1280x800) the page does not
scroll and every region is in sight (the action bar, the own empire, the hand, the markets or
everyone's tracks, each opponent's board, the log); on a phone (390x844) the action bar is
fixed at the bottom and nothing is wider than the screen; the common turns take few clicks
(civ4: collect as proposed, buy a market plot with the proposed payment, end: at most 4;
CIV: play a card, end: at most 2).

The positions are the layout guard's recorded games (tests/web/positions.py), reached through
the server's API.
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import ServerProcess
from .layout import layout_problems
from .positions import Recorded, load, open_page, start

sync_api = pytest.importorskip("playwright.sync_api")

Page = Any

#: how much of a region must be in sight (px), inside the viewport and every box that scrolls it
IN_SIGHT_JS = r"""
(sel) => {
  const el = [...document.querySelectorAll(sel)].find((e) => e.getClientRects().length);
  if (!el) return `no visible ${sel}`;
  let r = el.getBoundingClientRect();
  let top = Math.max(r.top, 0), bottom = Math.min(r.bottom, innerHeight);
  let left = Math.max(r.left, 0), right = Math.min(r.right, innerWidth);
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    const cs = getComputedStyle(p);
    if (cs.overflowY === "visible" && cs.overflowX === "visible") continue;
    const q = p.getBoundingClientRect();
    top = Math.max(top, q.top); bottom = Math.min(bottom, q.bottom);
    left = Math.max(left, q.left); right = Math.min(right, q.right);
  }
  const h = Math.round(bottom - top), w = Math.round(right - left);
  return h >= 16 && w >= 40 ? "" : `${sel} is out of sight (${w}x${h} px of it seen)`;
}
"""


def open_at(browser: Any, rec: Recorded, seat: int, moves: int, size: tuple[int, int]) -> Page:
    """A page of ``seat`` at the position after ``moves`` moves, at ``size``."""
    page = open_page(browser, rec, seat, moves, size, to_move=True)
    page.wait_for_timeout(100)  # the tips and the guide placed
    return page


def not_in_sight(page: Page, selectors: list[str]) -> list[str]:
    out = [page.evaluate(IN_SIGHT_JS, s) for s in selectors]
    return [w for w in out if w]


def page_scrolls(page: Page) -> list[str]:
    h, vh, w, vw = page.evaluate(
        "[document.documentElement.scrollHeight, innerHeight,"
        " document.documentElement.scrollWidth, innerWidth]"
    )
    out = []
    if h > vh:
        out.append(f"the page is {h} px high in a {vh} px viewport")
    if w > vw:
        out.append(f"the page is {w} px wide in a {vw} px viewport")
    return out


def test_civ4_purchase_is_one_screen_at_1280x800(server: ServerProcess, browser: Any) -> None:
    rec = start(server.base, load("civ4-2p"))
    at = rec.record["positions"]["purchase-plot"]
    rec.advance(int(at["moves"]))
    seat = int(at["seat"])
    page = open_at(browser, rec, seat, int(at["moves"]), (1280, 800))
    others = [s for s in range(int(rec.record["players"])) if s != seat]
    regions = [
        '[data-testid="turn"]',
        '#actions button[data-key="end"]',
        f'[data-testid="player-{seat}"]',
        '[data-testid="hand"]',
        "#c4-markets",
        '[data-testid^="market-plot-"]',
        '[data-testid="log"]',
    ] + [f'[data-testid="player-{s}"]' for s in others]
    assert page_scrolls(page) == []
    assert not_in_sight(page, regions) == []
    assert layout_problems(page) == []
    assert page.errors == []
    page.context.close()


def test_carta_play_is_one_screen_at_1280x800(server: ServerProcess, browser: Any) -> None:
    rec = start(server.base, load("carta-draft-4p"))
    at = rec.record["positions"]["play"]
    rec.advance(int(at["moves"]))
    seat = int(at["seat"])
    page = open_at(browser, rec, seat, int(at["moves"]), (1280, 800))
    regions = [
        '[data-testid="turn"]',
        '[data-testid="hand"]',
        "#mine button.playable",
        '[data-testid="log"]',
    ] + [f"#players .player:nth-child({i + 1})" for i in range(int(rec.record["players"]))]
    assert page_scrolls(page) == []
    assert not_in_sight(page, regions) == []
    assert layout_problems(page) == []
    assert page.errors == []
    page.context.close()


def test_civ4_phone_action_bar_is_fixed_at_the_bottom(server: ServerProcess, browser: Any) -> None:
    rec = start(server.base, load("civ4-2p"))
    at = rec.record["positions"]["purchase-plot"]
    rec.advance(int(at["moves"]))
    seat = int(at["seat"])
    page = open_at(browser, rec, seat, int(at["moves"]), (390, 844))
    bar = page.evaluate(
        "(() => { const r = document.querySelector('#actions').getBoundingClientRect();"
        " return [getComputedStyle(document.querySelector('#actions')).position,"
        " Math.round(r.bottom), r.width]; })()"
    )
    assert bar == ["fixed", 844, 390]
    assert not_in_sight(page, ['#actions button[data-key="end"]']) == []
    # a tab brings its region into sight; the address keeps the seat
    assert not_in_sight(page, ['[data-testid="tabs"] a[href="#mine"]']) == []
    page.click('[data-testid="tabs"] a[href="#mine"]')
    page.wait_for_function(
        "() => document.querySelector('#mine').getBoundingClientRect().top < 120"
    )
    assert "seat=" in page.evaluate("location.hash")
    # the end of the page (the log) is not under the bar
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    last = page.evaluate(
        "document.querySelector('.side').getBoundingClientRect().bottom"
        " <= document.querySelector('#actions').getBoundingClientRect().top + 1"
    )
    assert last
    assert layout_problems(page) == []
    page.context.close()


def test_civ4_collect_buy_a_plot_and_end_in_four_clicks(
    server: ServerProcess, browser: Any
) -> None:
    """Collect as proposed, buy a market plot with the proposed payment, end: 4 clicks."""
    rec = start(server.base, load("civ4-2p"))
    at = rec.record["positions"]["purchase-plot"]
    moves = int(at["moves"]) - 1  # the seat's collect, before that purchase
    rec.advance(moves)
    seat = int(at["seat"])
    page = open_at(browser, rec, seat, moves, (1280, 800))
    clicks = 0

    def click(selector: str) -> None:
        nonlocal clicks
        page.locator(selector).first.click()
        clicks += 1

    click('#actions button[data-key="go-collect"]')
    page.wait_for_selector('#mine button[data-key^="buy-plot-"]')
    plots_before = page.locator(f'[data-testid^="plot-{seat}-"]').count()
    click('#mine button[data-key^="buy-plot-"]')
    click('#actions button[data-key="go-pay"]')
    page.wait_for_function(
        "([s, n]) => document.querySelectorAll(`[data-testid^='plot-${s}-']`).length > n",
        arg=[seat, plots_before],
    )
    # the move is seen: the new plot is marked as the last move's change, until the next move
    new_plot = f'[data-testid="plot-{seat}-{plots_before + 1}"]'
    assert "moved" in (page.get_attribute(new_plot, "class") or "").split()
    # animated in, unless the player asks for less motion
    motion = (
        "s => { const el = document.querySelector(s); el.classList.add('moved-in');"
        " return getComputedStyle(el).animationName; }"
    )
    assert page.evaluate(motion, new_plot) == "moved-in"
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(motion, new_plot) == "none"
    click('#actions button[data-key="end"]')
    # the purchases are over: the next step (the seat's own or another's) is shown
    page.wait_for_function(
        "n => Number(document.querySelector('#table').dataset.moves) === n", arg=moves + 3
    )
    assert page.evaluate("document.querySelector('#table').dataset.step") != "purchase"

    assert clicks <= 4
    assert page.errors == []
    page.context.close()


def test_carta_play_a_card_and_end_in_two_clicks(server: ServerProcess, browser: Any) -> None:
    rec = start(server.base, load("carta-draft-4p"))
    at = rec.record["positions"]["play"]
    moves = int(at["moves"])
    rec.advance(moves)
    seat = int(at["seat"])
    page = open_at(browser, rec, seat, moves, (1280, 800))
    clicks = 0

    def click(selector: str) -> None:
        nonlocal clicks
        page.locator(selector).first.click()
        clicks += 1

    click("#mine button.playable")
    click('#actions button[data-key="end"]')
    page.wait_for_function(
        "s => document.querySelector('#table').dataset.toMove !== String(s)", arg=seat
    )
    assert clicks <= 2
    assert page.errors == []
    page.context.close()


def test_civ4_a_market_plot_clicked_opens_its_payment_with_steppers(
    server: ServerProcess, browser: Any
) -> None:
    """The card is the control: a click on a market plot's face opens the payment, the
    proposed payment filled in (its total the cost); a stepper changes one resource."""
    rec = start(server.base, load("civ4-2p"))
    at = rec.record["positions"]["purchase-plot"]
    rec.advance(int(at["moves"]))
    page = open_at(browser, rec, int(at["seat"]), int(at["moves"]), (1280, 800))
    page.locator('[data-testid^="market-plot-"] h4').first.click()
    pay = page.locator('#actions button[data-key="go-pay"]')
    pay.wait_for()
    assert pay.is_enabled()
    total = page.locator('[data-testid="pay-sum"]')
    assert "warn" not in (total.get_attribute("class") or "")
    less = page.locator('#actions button[data-key^="pay-dec-"]:not([disabled])').first
    less.click()
    assert "warn" in (total.get_attribute("class") or "")
    assert not pay.is_enabled()
    page.locator('#actions button[data-key="pay-reset"]').click()
    assert pay.is_enabled()
    assert not_in_sight(page, ['#actions button[data-key="go-pay"]']) == []
    assert page.errors == []
    page.context.close()
