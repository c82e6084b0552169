"""The rules pages' layout (issue 38): each game's rules page and card reference, and the index
of the rules, at a phone's size (390x844) and a desktop's (1440x900) in the five languages,
through a real server and Debian's Chromium. Nothing is wider than the viewport, no text spills
out of its box (a card's name, a table's cell), no word of a card's name or a table's cell is
broken across lines (the rules' tables broke "Hinrichtung" and "Military" mid-word on a phone:
help.css), and the page's controls (the header's, the guided game's button) are on the first
screen. And the reference's narrowest grid column (a 600 px tablet): a card face's one long
word (German's Bronzeverarbeitung) stays whole there (help.css). Pages are loaded, no game is
played: one server, one browser for the module.

``CIVCARDS_SHOTS`` (a folder) keeps a screenshot of each page's first screen and its tables.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from civcards.i18n import LANGS

from .conftest import ServerProcess
from .layout import layout_problems

GAMES = ("carta", "civ4")
SIZES = [(390, 844), (1440, 900)]
#: a tablet's width, where the reference's grid columns are at their narrowest (16rem)
TABLET = (600, 960)
SHOTS = os.environ.get("CIVCARDS_SHOTS", "")

#: the page's own measures: the page's width; each card name's and table cell's text in its
#: box, its words whole (a break after a hyphen is a word's own); the controls on the first
#: screen
_MEASURE_JS = r"""
() => {
  const out = [];
  const vw = window.innerWidth, vh = window.innerHeight;
  const doc = document.documentElement;
  if (doc.scrollWidth > vw) out.push(`wide: the page is ${doc.scrollWidth} px wide in ${vw} px`);
  const shown = (el) => el.getClientRects().length > 0 && !el.closest(".sr-only");
  const name = (el) => `${el.tagName.toLowerCase()} "${el.textContent.trim().replace(/\s+/g, " ").slice(0, 30)}"`;
  const boxes = [...document.querySelectorAll(
    ".ref-card, .ref-card dt, .ref-card dd, .f-name, .cface-name, .rules-text th, .rules-text td")].filter(shown);
  for (const el of boxes) {
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === "visible") {
      out.push(`spill: ${name(el)} holds ${el.scrollWidth} px in ${el.clientWidth} px`);
    }
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.parentElement.closest(".sr-only")) continue;
      for (const m of n.textContent.matchAll(/[^\s\u00a0\-\u2010\/]{2,}/g)) {
        const r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        const tops = new Set([...r.getClientRects()].filter((q) => q.width > 0).map((q) => Math.round(q.top)));
        if (tops.size > 1) out.push(`word: ${name(el)} breaks "${m[0]}" across lines`);
      }
    }
  }
  const controls = [...document.querySelectorAll(
    "header.top a, header.top select, #guided-start, .rules-nav a, .games a")].filter(shown);
  for (const el of controls) {
    const r = el.getBoundingClientRect();
    if (r.left < 0 || r.right > vw || r.top < 0 || r.bottom > vh) {
      out.push(`control: ${name(el)} at ${Math.round(r.left)},${Math.round(r.top)}..${Math.round(r.right)},${Math.round(r.bottom)} is not on the first screen (${vw}x${vh})`);
    }
  }
  return [...new Set(out)];
}
"""

#: the page is drawn: its style sheets (a game's faces add theirs) and fonts loaded
_DRAWN_JS = """() => [...document.querySelectorAll('link[rel=stylesheet]')].every((l) => l.sheet)
  && document.fonts.status === 'loaded'"""


def problems(page: Any, path: str, shot: str, scope: str | None = None) -> list[str]:
    """The layout problems of the page at ``path`` (the guard's, within ``scope`` if
    given, and this page's own)."""
    page.goto(path)
    if "/rules/" in path:
        page.wait_for_selector("#cards[data-faced]")
        assert page.get_attribute("#cards", "data-faced") == "1", path
    page.wait_for_function(_DRAWN_JS)
    found: list[str] = layout_problems(page, scope) + page.evaluate(_MEASURE_JS)
    found = list(dict.fromkeys(found))  # the guard's and the measure's same finding once
    if SHOTS:
        folder = Path(SHOTS)
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"{shot}.png"))
        for i, table in enumerate(page.locator(".rules-text table").all()):
            table.screenshot(path=str(folder / f"{shot}-table{i}.png"))
    return found


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", GAMES)
def test_the_rules_page_and_card_reference_fit_in_every_language(
    server: ServerProcess, browser: Any, game: str, size: tuple[int, int]
) -> None:
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="en-US")
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        found = {
            lang: problems(
                page, f"{server.base}/rules/{game}?lang={lang}", f"rules-{game}-{lang}-{size[0]}"
            )
            for lang in LANGS
        }
        # the reference cards are the game's faces (civ4's long German names among them)
        assert page.locator("#cards .ref-card.has-face").count() > 0
        assert {lang: p for lang, p in found.items() if p} == {}
        assert errors == []
    finally:
        ctx.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_rules_index_fits_in_every_language(
    server: ServerProcess, browser: Any, size: tuple[int, int]
) -> None:
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="en-US")
    try:
        page = ctx.new_page()
        found = {
            lang: problems(page, f"{server.base}/rules?lang={lang}", f"rules-{lang}-{size[0]}")
            for lang in LANGS
        }
        assert {lang: p for lang, p in found.items() if p} == {}
    finally:
        ctx.close()


def test_a_long_card_name_stays_whole_in_the_references_narrowest_column(
    server: ServerProcess, browser: Any
) -> None:
    """civ4's faces in the reference's grid at its narrowest columns: every word of a face
    whole (German's Bronzeverarbeitung and Eisenverarbeitung broke mid-word there), nothing
    spilling out of a card."""
    ctx = browser.new_context(viewport={"width": TABLET[0], "height": TABLET[1]}, locale="en-US")
    try:
        page = ctx.new_page()
        found = {}
        for lang in LANGS:
            found[lang] = problems(
                page, f"{server.base}/rules/civ4?lang={lang}", f"ref-civ4-{lang}-600", "#cards"
            )
            # the columns are at their narrowest: two of 16rem and a gap
            widths = page.evaluate(
                "() => [...document.querySelectorAll('.ref-card')].map((c) => c.offsetWidth)"
            )
            assert max(widths) < 17 * 16, widths
        assert {lang: p for lang, p in found.items() if p} == {}
    finally:
        ctx.close()
