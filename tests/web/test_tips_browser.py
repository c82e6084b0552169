"""The tips at the table by keyboard (issue 38, item 9): every element that explains itself
(``data-tip``) is reached with Tab and shows its tip, described by it (aria-describedby);
Escape closes the tip, and so does the page moving under it (no tip left over other text).

Positions: recorded games (tests/data/layout/, tests/web/positions.py) at a purchase of civ4
and a play of carta, where the board is full.
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import ARTIFACTS, ServerProcess
from .positions import load, start

sync_api = pytest.importorskip("playwright.sync_api")

Page = Any

#: every element with a tip that is drawn, numbered (data-tip-n) for the walk with Tab
NUMBER_TIPS = """() => {
  // drawn: not in a closed <details>, not hidden
  const shown = [...document.querySelectorAll('[data-tip]')].filter((e) => e.getClientRects().length
    && e.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true }));
  shown.forEach((e, i) => { e.dataset.tipN = String(i); });
  return shown.length;
}"""

#: where Tab has put the focus: the tip of the element (or of the one it lies in), shown?
FOCUSED = """() => {
  const a = document.activeElement;
  const el = a && a.closest ? a.closest('[data-tip]') : null;
  const tip = document.getElementById('tip');
  if (!window.__firstFocus && a !== document.body) window.__firstFocus = a;
  else if (a === window.__firstFocus) return { again: true };
  return {
    again: false,
    key: a ? a.outerHTML.slice(0, 60) : '',
    n: el && el.dataset.tipN !== undefined ? Number(el.dataset.tipN) : null,
    // the tip's words (a card's tip may show its face above them: faces.js)
    shown: !!(el && tip && !tip.hidden && tip.textContent.endsWith(el.dataset.tip)),
    described: !!(el && (el.getAttribute('aria-describedby') || '').split(' ').includes('tip')),
  };
}"""

#: the box that scrolls an element: its nearest ancestor that can scroll, or the page
BOX = """(el) => {
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    const oy = getComputedStyle(p).overflowY;
    if ((oy === 'auto' || oy === 'scroll') && p.scrollHeight > p.clientHeight + 1) return p;
  }
  const d = document.scrollingElement;
  return d.scrollHeight > d.clientHeight + 1 ? d : null;
}"""
#: the first tip whose element lies in a box that can scroll (its number), or null
SCROLLS = f"""() => {{ const box = {BOX};
  const el = [...document.querySelectorAll('[data-tip-n]')].find((e) => box(e));
  return el ? Number(el.dataset.tipN) : null; }}"""
#: scroll the box of tip ``n`` by 250 px (up, where it cannot go down)
SCROLL_BOX = f"""(n) => {{ const box = ({BOX})(document.querySelector(`[data-tip-n="${{n}}"]`));
  const before = box.scrollTop; box.scrollTop = before + 250;
  if (box.scrollTop === before) box.scrollTop = before - 250; }}"""

#: the tip is closed, or stands by the element it explains (not left over other text)
PLACED = """() => {
  const tip = document.getElementById('tip');
  if (!tip || tip.hidden) return 'closed';
  const el = document.querySelector('[aria-describedby~="tip"]');
  if (!el) return 'open for no element';
  const r = el.getBoundingClientRect();
  const t = tip.getBoundingClientRect();
  const by = Math.abs(t.top - (r.bottom + 6)) < 3 || Math.abs(t.bottom - (r.top - 6)) < 3;
  return by ? 'by its element' : `left ${Math.round(t.top - r.bottom)} px away from its element`;
}"""


def walk_tips(page: Page, name: str) -> None:
    """Tab through the whole page: every tip is reached, shown and described."""
    total = int(page.evaluate(NUMBER_TIPS))
    assert total >= 10, f"{name}: only {total} tips drawn"
    page.locator("body").focus()
    reached: set[int] = set()
    bad: list[str] = []
    for _ in range(800):
        page.keyboard.press("Tab")
        f = page.evaluate(FOCUSED)
        if f["again"]:
            break  # round the page once
        if f["n"] is None:
            continue
        reached.add(f["n"])
        if not (f["shown"] and f["described"]):
            bad.append(f"{f['key']}: shown {f['shown']}, described {f['described']}")
    missed = page.evaluate(
        """r => [...document.querySelectorAll('[data-tip-n]')]
            .filter((e) => !r.includes(Number(e.dataset.tipN))).map((e) => e.outerHTML.slice(0, 90))""",
        sorted(reached),
    )
    if missed or bad:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"tips-{name}.png"), full_page=True)
    assert not missed, f"{name}: {len(missed)} of {total} tips not reached by Tab: {missed[:8]}"
    assert not bad, bad[:8]


def closes(page: Page, name: str) -> None:
    """Escape closes a tip; a scroll closes it too (a hovered one, and a focused one)."""
    el = page.locator("[data-tip-n]").nth(3)
    el.focus()
    assert page.evaluate(PLACED) == "by its element", name
    page.keyboard.press("Escape")
    assert page.evaluate(PLACED) == "closed", f"{name}: Escape left the tip open"
    # a tip shown by the mouse, then the page scrolled under it
    page.evaluate("window.scrollTo(0, 0)")
    el = page.locator("[data-tip-n]").first
    el.hover()
    page.wait_for_function("() => !document.getElementById('tip').hidden")
    page.evaluate("window.scrollBy(0, 300)")
    page.wait_for_timeout(150)
    placed = page.evaluate(PLACED)
    assert placed in ("closed", "by its element"), f"{name}: after a scroll the tip is {placed}"
    # a tip shown by focus, then the box it lies in scrolled (the page, or a region of a
    # one-screen table), not by the focus itself
    n = page.evaluate(SCROLLS)
    if n is None:  # the whole table fits the screen: a lower window makes something scroll
        page.set_viewport_size({"width": 1280, "height": 420})
        page.wait_for_timeout(100)
        page.evaluate(NUMBER_TIPS)
        n = page.evaluate(SCROLLS)
    assert n is not None, f"{name}: no tip lies in a box that can scroll"
    page.locator(f'[data-tip-n="{n}"]').focus()
    page.wait_for_timeout(450)
    page.evaluate(SCROLL_BOX, n)
    page.wait_for_timeout(100)
    assert page.evaluate(PLACED) == "closed", f"{name}: a scroll left the focused tip open"


@pytest.mark.parametrize(
    ("record", "stop"), [("civ4-2p", "purchase-plot"), ("carta-draft-4p", "play")]
)
def test_every_tip_is_reached_by_keyboard_and_closes_on_escape_and_scroll(
    server: ServerProcess, browser: Any, record: str, stop: str
) -> None:
    rec = start(server.base, load(record))
    moves = int(rec.record["positions"][stop]["moves"])
    rec.advance(moves)
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(rec.link(rec.seat_at(stop)))
        page.wait_for_function(
            "n => Number((document.querySelector('#table') || {dataset: {}}).dataset.moves) === n",
            arg=moves,
        )
        page.wait_for_selector("#actions button, #mine button.playable")
        walk_tips(page, record)
        closes(page, record)
        assert not errors, errors
    finally:
        ctx.close()
