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


#: what of each element matching a selector is out of sight: every such element (shown) must lie
#: wholly inside the viewport and inside every box that scrolls it (1 px spared)
WHOLLY_IN_SIGHT_JS = r"""
(sel) => {
  const els = [...document.querySelectorAll(sel)].filter((e) => e.getClientRects().length);
  if (!els.length) return [`no visible ${sel}`];
  const out = [];
  for (const el of els) {
    const r = el.getBoundingClientRect();
    let top = 0, bottom = innerHeight, left = 0, right = innerWidth;
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const cs = getComputedStyle(p);
      if (cs.overflowY === "visible" && cs.overflowX === "visible") continue;
      const q = p.getBoundingClientRect();
      top = Math.max(top, q.top); bottom = Math.min(bottom, q.bottom);
      left = Math.max(left, q.left); right = Math.min(right, q.right);
    }
    if (r.top < top - 1 || r.bottom > bottom + 1 || r.left < left - 1 || r.right > right + 1) {
      const id = el.dataset.testid || el.dataset.key || el.tagName.toLowerCase();
      out.push(`${sel} ${id} is not wholly in sight (${Math.round(r.left)},${Math.round(r.top)}-`
        + `${Math.round(r.right)},${Math.round(r.bottom)} in ${Math.round(left)},${Math.round(top)}-`
        + `${Math.round(right)},${Math.round(bottom)})`);
    }
  }
  return out;
}
"""


def not_wholly_in_sight(page: Page, selectors: list[str]) -> list[str]:
    out: list[str] = []
    for s in selectors:
        out += page.evaluate(WHOLLY_IN_SIGHT_JS, s)
    return out


def open_at(browser: Any, rec: Recorded, seat: int, moves: int, size: tuple[int, int]) -> Page:
    """A page of ``seat`` at the position after ``moves`` moves, at ``size``."""
    page = open_page(browser, rec, seat, moves, size, to_move=True)
    page.wait_for_timeout(100)  # the tips and the guide placed
    return page


def open_position(
    server: ServerProcess,
    browser: Any,
    record: str,
    position: str,
    size: tuple[int, int],
    *,
    back: int = 0,
) -> tuple[Recorded, Page, int, int]:
    """The recorded game ``record`` started on ``server`` and played to its ``position``
    (``back`` moves before it), and a page of the seat to move there at ``size``: (the
    game, the page, the seat, the moves played)."""
    rec = start(server.base, load(record))
    at = rec.record["positions"][position]
    moves = int(at["moves"]) - back
    rec.advance(moves)
    seat = int(at["seat"])
    return rec, open_at(browser, rec, seat, moves, size), seat, moves


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
    rec, page, seat, _ = open_position(server, browser, "civ4-2p", "purchase-plot", (1280, 800))
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


def test_civ4_payment_shows_the_own_plots_the_whole_hand_and_the_whole_editor(
    server: ServerProcess, browser: Any
) -> None:
    """At 1280x800 with the payment editor open, without scrolling anything: the editor whole
    (its title, every stepper, the pay button), the own empire's header and every plot of it,
    every card of the hand; the status's Highest Culture/Happiness lines one line each."""
    _, page, seat, _ = open_position(server, browser, "civ4-2p", "purchase-plot", (1280, 800))
    page.locator('#mine button[data-key^="buy-plot-"]').first.click()
    page.wait_for_selector('#actions button[data-key="go-pay"]')
    # as the page is, every box at its top (the focus may have scrolled one)
    page.evaluate("document.querySelectorAll('*').forEach((e) => { e.scrollTop = 0; })")
    assert page_scrolls(page) == []
    assert (
        not_wholly_in_sight(
            page,
            [
                "#actions h2",
                '#actions [data-testid="actions"] .counter',
                '#actions button[data-key="go-pay"]',
                '#actions [data-testid="pay-sum"]',
                f'[data-testid="player-{seat}"] > h3',
                f'[data-testid^="plot-{seat}-"]',
                '[data-testid="hand"] > li',
            ],
        )
        == []
    )
    heights = page.evaluate(
        "[...document.querySelectorAll('#status .statuses > li')].map((e) => e.getClientRects().length"
        " ? Math.round(e.getBoundingClientRect().height) : 0)"
    )
    assert heights and all(0 < h <= 24 for h in heights), heights
    assert page.errors == []
    page.context.close()


def test_civ4_defence_is_whole_at_1280x800(server: ServerProcess, browser: Any) -> None:
    _, page, seat, _ = open_position(server, browser, "civ4-2p", "defend", (1280, 800))
    page.evaluate("document.querySelectorAll('*').forEach((e) => { e.scrollTop = 0; })")
    assert page_scrolls(page) == []
    assert (
        not_wholly_in_sight(
            page,
            [
                "#actions h2",
                "#actions select[data-defend]",
                "#actions button[data-go]",
                f'[data-testid^="plot-{seat}-"]',
                '[data-testid="hand"] > li',
            ],
        )
        == []
    )
    assert layout_problems(page) == []
    assert page.errors == []
    page.context.close()


#: how much of a box is empty under its content (px): a panel stretched to a row's height
EMPTY_UNDER_JS = r"""
(sel) => {
  const el = document.querySelector(sel);
  const kids = [...el.children].filter((c) => c.getClientRects().length);
  const last = Math.max(...kids.map((c) => c.getBoundingClientRect().bottom));
  const pad = parseFloat(getComputedStyle(el).paddingBottom);
  return Math.round(el.getBoundingClientRect().bottom - pad - last);
}
"""


#: the gaps (px) over 24 between the side column's boxes, from the top
SIDE_GAPS_JS = r"""
() => {
  const boxes = ["#standing", "#clock", "#settings", "#discard", "#log"].map((s) => document.querySelector(s))
    .filter((e) => e && e.getClientRects().length).map((e) => e.getBoundingClientRect())
    .sort((a, b) => a.top - b.top);
  const out = [];
  for (let i = 1; i < boxes.length; i++) {
    const gap = Math.round(boxes[i].top - boxes[i - 1].bottom);
    if (gap > 24) out.push(gap);
  }
  return out;
}
"""


def test_carta_play_is_one_screen_at_1280x800(server: ServerProcess, browser: Any) -> None:
    rec, page, _, _ = open_position(server, browser, "carta-draft-4p", "play", (1280, 800))
    regions = [
        '[data-testid="turn"]',
        '[data-testid="hand"]',
        "#mine button.playable",
        '[data-testid="log"]',
    ] + [f"#players .player:nth-child({i + 1})" for i in range(int(rec.record["players"]))]
    assert page_scrolls(page) == []
    assert not_in_sight(page, regions) == []
    # the status and who leads are as tall as what they hold (no row stretches them)
    assert page.evaluate(EMPTY_UNDER_JS, "#status") <= 16
    # the side column (who leads, the clock, the discard pile, the log) has no gap
    assert page.evaluate(SIDE_GAPS_JS) == []
    assert layout_problems(page) == []
    assert page.errors == []
    page.context.close()


#: the phone's regions: which are shown (displayed), by tab panel id
SHOWN_JS = r"""
() => Object.fromEntries(["mine", "players", "col-side"].map((id) => {
  const el = document.getElementById(id);
  return [id, !!el && el.getClientRects().length > 0];
}))
"""


def test_civ4_phone_action_bar_is_fixed_at_the_bottom(server: ServerProcess, browser: Any) -> None:
    _, page, _, _ = open_position(server, browser, "civ4-2p", "purchase-plot", (390, 844))
    bar = page.evaluate(
        "(() => { const r = document.querySelector('#actions').getBoundingClientRect();"
        " return [getComputedStyle(document.querySelector('#actions')).position,"
        " Math.round(r.bottom), r.width]; })()"
    )
    assert bar == ["fixed", 844, 390]
    assert not_in_sight(page, ['#actions button[data-key="end"]']) == []
    # the payment open: the bar at most about 45% of the screen, its primary button wholly in
    # sight with its content scrolled to the top
    page.locator('#mine button[data-key^="buy-plot-"]').first.click()
    page.wait_for_selector('#actions button[data-key="go-pay"]')
    page.evaluate(
        "document.querySelectorAll('#actions, #actions *').forEach((e) => { e.scrollTop = 0; })"
    )
    height = page.evaluate("document.querySelector('#actions').getBoundingClientRect().height")
    assert height <= 0.46 * 844
    assert not_wholly_in_sight(page, ['#actions button[data-key="go-pay"]']) == []
    # the end of the page is not under the bar
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    last = page.evaluate(
        "document.querySelector('#mine').getBoundingClientRect().bottom"
        " <= document.querySelector('#actions').getBoundingClientRect().top + 1"
    )
    assert last
    assert layout_problems(page) == []
    assert page.errors == []
    page.context.close()


def test_phone_regions_are_tabs(server: ServerProcess, browser: Any) -> None:
    """On a phone the regions are WAI-ARIA tabs: one panel shown at a time, a click or the
    arrow keys select another; the address keeps the seat."""
    _, page, seat, _ = open_position(server, browser, "civ4-2p", "defend", (390, 844))
    tabs = page.locator('[role="tablist"] [role="tab"]')
    assert tabs.count() == 3
    assert page.locator('[role="tab"][aria-selected="true"]').count() == 1
    assert page.evaluate(SHOWN_JS) == {"mine": True, "players": False, "col-side": False}
    assert page.get_attribute("#mine", "role") == "tabpanel"
    assert page.get_attribute("#mine", "aria-labelledby") == "tab-mine"
    page.click("#tab-players")
    assert page.evaluate(SHOWN_JS) == {"mine": False, "players": True, "col-side": False}
    assert page.get_attribute("#tab-players", "aria-selected") == "true"
    assert page.get_attribute("#tab-mine", "aria-selected") == "false"
    assert page.get_attribute("#tab-mine", "tabindex") == "-1"
    assert not_in_sight(page, [f'[data-testid="plot-{seat}-1"]']) == []
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "tab-side"
    assert page.evaluate(SHOWN_JS) == {"mine": False, "players": False, "col-side": True}
    assert not_in_sight(page, ['[data-testid="log"]']) == []
    page.keyboard.press("ArrowRight")  # round to the first
    assert page.evaluate("document.activeElement.id") == "tab-mine"
    page.keyboard.press("End")
    assert page.get_attribute("#tab-side", "aria-selected") == "true"
    page.keyboard.press("Home")
    assert page.evaluate(SHOWN_JS) == {"mine": True, "players": False, "col-side": False}
    # the skip link goes to the hand, its tab selected
    page.click("#tab-side")
    page.focus(".skip")
    page.keyboard.press("Enter")
    assert page.evaluate(SHOWN_JS) == {"mine": True, "players": False, "col-side": False}
    assert "seat=" in page.evaluate("location.hash")
    # the defence's choice is not wider than the screen, the bar's button in sight
    assert (
        not_wholly_in_sight(page, ["#actions select[data-defend]", "#actions button[data-go]"])
        == []
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert layout_problems(page) == []
    # at a desktop's size there are no tabs, every region shown
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_function("() => document.querySelector('[role=\"tablist\"]').hidden")
    assert page.evaluate(SHOWN_JS) == {"mine": True, "players": True, "col-side": True}
    assert page.get_attribute("#mine", "role") is None
    assert page.errors == []
    page.context.close()


def test_civ4_collect_buy_a_plot_and_end_in_four_clicks(
    server: ServerProcess, browser: Any
) -> None:
    """Collect as proposed, buy a market plot with the proposed payment, end: 4 clicks."""
    # back=1: the seat's collect, before that purchase
    _, page, seat, moves = open_position(
        server, browser, "civ4-2p", "purchase-plot", (1280, 800), back=1
    )
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
    _, page, seat, _ = open_position(server, browser, "carta-draft-4p", "play", (1280, 800))
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
    _, page, _, _ = open_position(server, browser, "civ4-2p", "purchase-plot", (1280, 800))
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


def test_civ4_an_opponents_board_opens_to_the_full_view_and_stays_open(
    server: ServerProcess, browser: Any
) -> None:
    """Each opponent's board is compact, a disclosure (a button with aria-expanded, the board's
    tiles its aria-controls) opens it to the full view; it stays open when the board is drawn
    again after the next moves; the keyboard closes it. The own empire has none."""
    rec, page, seat, moves = open_position(server, browser, "civ4-2p", "purchase-plot", (1280, 800))
    other = 1 - seat
    board = f'[data-testid="player-{other}"]'
    toggle = page.locator(f'{board} button[data-board="{other}"]')
    assert toggle.get_attribute("aria-expanded") == "false"
    assert "compact" in (page.get_attribute(board, "class") or "").split()
    assert page.locator(f"#{toggle.get_attribute('aria-controls')}").count() == 1
    assert page.locator(f'[data-testid="player-{seat}"] button[data-board]').count() == 0
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    assert "compact" not in (page.get_attribute(board, "class") or "").split()
    # the opponent's turn comes (its board drawn anew, the arrow on it): still open
    old = page.evaluate_handle(f"document.querySelector('{board}')")
    upto = next(
        n
        for n in range(moves + 1, len(rec.record["moves"]))
        if rec.record["moves"][n]["seat"] == other
    )
    rec.advance(upto)
    page.wait_for_function(
        "n => Number(document.querySelector('#table').dataset.moves) >= n", arg=upto
    )
    assert page.evaluate("el => el.isConnected", old) is False
    assert toggle.get_attribute("aria-expanded") == "true"
    assert "compact" not in (page.get_attribute(board, "class") or "").split()
    toggle.focus()
    page.keyboard.press("Enter")
    assert toggle.get_attribute("aria-expanded") == "false"
    assert page.evaluate("document.activeElement.dataset.board") == str(other)
    assert page.errors == []
    page.context.close()


def test_civ4_phone_a_build_opens_the_boards_tab_once(server: ServerProcess, browser: Any) -> None:
    """On a phone, choosing the plot where to build needs the boards: a card's Build opens their
    tab (the plot's Build in sight) once for that choice, and the choice cancelled brings the
    hand's tab back; the tab the player selects is kept over the redraws of the same choice.
    The settlement's choice of a plot opens it too."""
    _, page, _, _ = open_position(server, browser, "civ4-2p", "purchase-build", (390, 844))
    assert page.get_attribute("#tab-mine", "aria-selected") == "true"
    card = page.locator("#mine button[data-build-card]").first
    code = card.get_attribute("data-build-card")
    card.click()
    page.wait_for_selector('#tab-players[aria-selected="true"]')
    assert page.evaluate(SHOWN_JS)["players"] is True
    assert not_in_sight(page, ["#players button[data-build]"]) == []
    page.locator('#actions button[data-key="cancel"]').click()  # over: the hand's tab again
    page.wait_for_selector('#tab-mine[aria-selected="true"]')
    card.click()
    page.wait_for_selector('#tab-players[aria-selected="true"]')
    page.click("#tab-mine")
    page.locator(f'#mine button[data-build-card="{code}"]').click()  # the same choice, drawn again
    page.wait_for_timeout(100)
    assert page.get_attribute("#tab-mine", "aria-selected") == "true"
    assert page.errors == []
    page.context.close()
    _, page, _, _ = open_position(server, browser, "civ4-2p", "settle", (390, 844))
    page.wait_for_selector('#tab-players[aria-selected="true"]')
    assert not_in_sight(page, ['#players button[data-key^="settle-"]']) == []
    assert page.errors == []
    page.context.close()


def test_carta_phone_a_choice_of_a_domain_opens_the_play_areas_tab_once(
    server: ServerProcess, browser: Any
) -> None:
    """On a phone, an effect whose next step asks for a domain of the play area (Experiment)
    opens the play areas' tab once; the tab the player then selects is kept when the table is
    drawn again (the guide turned off) with the same choice pending."""
    _, page, _, _ = open_position(server, browser, "carta-draft-4p", "effects", (390, 844))
    assert page.get_attribute("#tab-mine", "aria-selected") == "true"
    page.locator('#actions button[data-key="effect-experiment"]').click()
    page.wait_for_selector('#tab-players[aria-selected="true"]')
    assert not_in_sight(page, ["#players button.cell-act"]) == []
    page.click("#tab-mine")
    page.locator("#actions button", has_text="guide").first.click()  # drawn again
    page.wait_for_timeout(100)
    assert page.get_attribute("#tab-mine", "aria-selected") == "true"
    assert page.locator('#actions button[data-key^="tok-"]').count() > 0  # the same choice
    assert page.errors == []
    page.context.close()
