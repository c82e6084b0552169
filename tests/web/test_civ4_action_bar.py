"""civ4's action panel at the recorded defence (issue 39): its button bar never covers the
panel's text, at a desktop's size and a phone's; the defence says "Block nothing" once (the
button), and a plot without population shows no stray mark.

The position is the layout guard's recorded game (tests/data/layout/civ4-2p.json, its
'defend' decision), reached through the server's API.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import ARTIFACTS, ServerProcess
from .layout import layout_problems
from .positions import Recorded, load, start

sync_api = pytest.importorskip("playwright.sync_api")

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


@pytest.fixture(scope="module")
def defend(server: ServerProcess) -> Iterator[tuple[Recorded, int, int]]:
    """The recorded game at its defence: the record, the moves made, the defending seat."""
    rec = start(server.base, load("civ4-2p"))
    at = rec.record["positions"]["defend"]
    rec.advance(int(at["moves"]))
    yield rec, int(at["moves"]), int(at["seat"])


def open_defence(browser: Any, where: tuple[Recorded, int, int], size: str) -> Any:
    rec, moves, seat = where
    w, h = SIZES[size]
    ctx = browser.new_context(viewport={"width": w, "height": h}, locale="en-US")
    page = ctx.new_page()
    page.goto(rec.link(seat))
    page.wait_for_function(
        "([n, s]) => { const t = document.querySelector('#table');"
        " return !!t && Number(t.dataset.moves) === n && t.dataset.toMove === String(s); }",
        arg=[moves, seat],
    )
    page.wait_for_selector('#actions button[data-key="go-defend"]')
    return page


@pytest.mark.parametrize("size", list(SIZES))
def test_defence_buttons_cover_no_text(
    browser: Any, defend: tuple[Recorded, int, int], size: str
) -> None:
    page = open_defence(browser, defend, size)
    try:
        # each scrolling box of the panel at its top, as the player may leave it (the focus
        # on the button scrolls the button to its place in the flow)
        page.evaluate(
            "() => { for (const e of [document.querySelector('#actions'),"
            " ...document.querySelectorAll('#actions *')]) e.scrollTop = 0; }"
        )
        problems = [p for p in layout_problems(page, "#actions") if p.startswith("cover")]
        ARTIFACTS.mkdir(exist_ok=True)  # to look at
        page.screenshot(path=str(ARTIFACTS / f"action-bar-defend-{size}.png"))
        assert problems == []
        # the damage line is in sight in the panel, not under its button
        assert page.locator('[data-testid="defend-damage"]').is_visible()
    finally:
        page.context.close()


def test_defence_says_block_nothing_once(browser: Any, defend: tuple[Recorded, int, int]) -> None:
    page = open_defence(browser, defend, "desktop")
    try:
        label = page.locator('#actions button[data-key="go-defend"]').inner_text().strip()
        text = page.locator("#actions").inner_text()
        assert label == "Block nothing"
        assert text.count(label) == 1, text
    finally:
        page.context.close()


def test_plot_without_population_shows_no_stray_mark(
    browser: Any, defend: tuple[Recorded, int, int]
) -> None:
    page = open_defence(browser, defend, "desktop")
    try:
        tokens = page.locator('[data-testid^="tokens-"][data-n="0"]')
        assert tokens.count() > 0
        for i in range(tokens.count()):
            # nothing drawn; the screen reader's words say there is no population
            seen = tokens.nth(i).evaluate(
                "e => [...e.querySelectorAll('.pop')].map((p) => [...p.childNodes]"
                ".filter((n) => !(n.classList && n.classList.contains('sr-only')))"
                ".map((n) => n.textContent).join('')).join('').trim()"
            )
            assert seen == ""
            assert tokens.nth(i).locator(".sr-only").first.text_content() == "0 population"
    finally:
        page.context.close()
