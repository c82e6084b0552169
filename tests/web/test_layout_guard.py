"""The layout guard (issue 38): what a player sees fits, at a desktop's size (1280x800) and a
phone's (390x844), in the five languages, in both games.

At every decision it checks (tests/web/layout.py): no element wider than the viewport, no
icon larger than the text around it, no text spilling out of its box or broken mid-word, no
overlapping boxes, and the decision's control within reach of the choice that opened it (the
payment's *Pay* by the plot's *Buy*).

* one whole game of each game is played by pointing, at one size and language (civ4 on a
  phone in German, carta on a phone in Spanish), checked at every decision of the seat;
* recorded positions (tests/data/layout/, scripts/layout_positions.py), one per kind of
  decision, are reached through the server's API and checked at both sizes in all five
  languages, with the panels their choices open (payment, build, attack, an effect);
* the lobby, at both sizes in all five languages.

Screenshots of what failed land in ``test-artifacts/layout-*.png``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from civcards.i18n import t

from . import test_browser as carta_ui
from . import test_civ4_browser as civ4_ui
from .conftest import ARTIFACTS, ServerProcess
from .layout import control_near, layout_problems, page_top
from .positions import Recorded, load, start

sync_api = pytest.importorskip("playwright.sync_api")

Page = Any

LANGS = ("en", "es", "de", "fr", "pt")
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}

#: counts the WebSocket frames the page has handled (a language's new view has arrived)
FRAMES_JS = """(() => {
  window.__frames = 0;
  const W = window.WebSocket;
  window.WebSocket = class extends W {
    constructor(...a) {
      super(...a);
      this.addEventListener("message", () => setTimeout(() => { window.__frames += 1; }, 0));
    }
  };
})();"""


#: selects the tab (a phone's, table.html) whose panel holds the first element matching a
#: selector, where it is not selected
OPEN_TAB_JS = r"""
(sel) => {
  const el = document.querySelector(sel);
  if (!el) return;
  const tab = [...document.querySelectorAll('.tabs:not([hidden]) [role="tab"]')].find((b) => {
    const panel = document.getElementById(b.getAttribute("aria-controls"));
    return panel && panel.contains(el);
  });
  if (tab && tab.getAttribute("aria-selected") !== "true") tab.click();
}
"""


class Thumb:
    """A phone's page as its player uses it: the regions are tabs (one shown at a time), so a
    control is looked for in the tab that holds it, opened first."""

    def __init__(self, page: Page) -> None:
        self._page = page

    def locator(self, selector: str) -> Any:
        self._page.evaluate(OPEN_TAB_JS, selector)
        return self._page.locator(selector)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._page, name)


class Guard:
    """The problems found so far, each with where it was seen (a screenshot of each place)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.found: list[str] = []
        self.shots = 0

    def add(self, page: Page, where: str, problems: list[str]) -> None:
        if not problems:
            return
        self.found += [f"{where}: {p}" for p in problems]
        if self.shots < 12:
            self.shots += 1
            ARTIFACTS.mkdir(exist_ok=True)
            safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in where)[:80]
            page.screenshot(path=str(ARTIFACTS / f"layout-{self.name}-{safe}.png"), full_page=True)

    def check(self, page: Page, where: str) -> None:
        problems = layout_problems(page)
        if problems:  # measured again a moment later: what is passing (a resize's last
            # frame, an element on its way out) is not the layout (seen once in 160: 491 px)
            page.wait_for_timeout(400)
            problems = layout_problems(page)
        self.add(page, where, problems)

    def near(self, page: Page, where: str, control: str, opener_top: float | None) -> None:
        self.add(page, where, control_near(page, control, opener_top))

    def done(self) -> None:
        if self.found:
            ARTIFACTS.mkdir(exist_ok=True)
            (ARTIFACTS / f"layout-{self.name}.txt").write_text("\n".join(self.found) + "\n")
        assert not self.found, f"{len(self.found)} layout problems:\n" + "\n".join(self.found[:40])


@pytest.fixture(scope="module")
def context(browser: Any) -> Iterator[tuple[Any, list[str]]]:
    """One browser context for the module's positions (each page's size and language set per
    check), and the script errors of its pages."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    ctx.add_init_script(FRAMES_JS)
    errors: list[str] = []
    ctx.on("page", lambda p: p.on("pageerror", lambda e: errors.append(str(e))))
    yield ctx, errors
    ctx.close()


def set_lang(page: Page, lang: str, table: bool = True) -> None:
    """Switch the page to ``lang`` and wait for its words (a table: the server's new view)."""
    if page.evaluate("document.documentElement.lang") == lang:
        return
    frames = page.evaluate("window.__frames")
    page.select_option("#lang-select", lang)
    page.wait_for_function(
        "([l, n, table]) => document.documentElement.lang === l && (!table || window.__frames > n)",
        arg=[lang, frames, table],
    )


def size_of(page: Page) -> tuple[int, int]:
    v = page.viewport_size
    return (v["width"], v["height"])


def set_size(page: Page, size: str) -> None:
    if size_of(page) == SIZES[size]:
        return
    w, h = SIZES[size]
    page.set_viewport_size({"width": w, "height": h})


def at_move(page: Page, moves: int) -> None:
    """Until the page shows the position after ``moves`` moves."""
    page.wait_for_function(
        "n => Number((document.querySelector('#table') || {dataset: {}}).dataset.moves) === n",
        arg=moves,
    )


# -- what each decision's panel must hold within reach -------------------------------------

#: civ4: the decision's main control
CIV4_CONTROL = {
    "draft": '#actions button[data-key^="pick-"]',
    "settle": '#actions button[data-key^="settlec-"]',
    "start_discard": '#actions button[data-key="go-discard"]',
    "discard": '#actions button[data-key="go-discard"]',
    "collect": '#actions button[data-key="go-collect"]',
    "purchase": '#actions button[data-key="end"]',
    "walls": '#actions button[data-key^="walls-"]',
    "defend": '#actions button[data-key="go-defend"]',
    "damage": '#actions button[data-key="go-damage"]',
    "place": '#actions button[data-key="go-place"]',
}
#: civ4: the choice that opens a panel, and the panel's control that ends it
CIV4_PANELS = {
    "purchase-plot": ('#mine button[data-key^="buy-plot-"]', '#actions button[data-key="go-pay"]'),
    "purchase-build": ("#mine button[data-build-card]", '#actions button[data-key^="build-p"]'),
    "purchase-attack": (
        '#actions button[data-key="attack"]',
        '#actions button[data-key="go-attack"]',
    ),
}
CARTA_CONTROL = {
    "draft": '#mine button[data-move^="keep "]',
    "play": "#mine button.playable",
    "hidden": '[data-testid="reveal"]',
    "finished": '[data-testid="winners"]',
}
CARTA_PANELS = {"effects": ("#actions button.effect", '#actions button[data-key="cancel"]')}


def focus_top(page: Page) -> float | None:
    """The top of the element the page put the focus on (where the player is), or None."""
    top: float | None = page.evaluate(
        """() => { const a = document.activeElement;
                   return a && a !== document.body ? a.getBoundingClientRect().top + scrollY : null; }"""
    )
    return top


def check_decision(
    guard: Guard,
    page: Page,
    where: str,
    decisions: list[str],
    controls: dict[str, str],
    panels: dict[str, tuple[str, str]],
) -> None:
    """The page as drawn, each decision's control within reach of where the focus is, and
    each panel a choice opens, opened (its control within reach of the choice) and closed."""
    guard.check(page, where)
    # the player is where the focus is (after a resize too)
    page.evaluate(
        "() => document.activeElement && document.activeElement.scrollIntoView({block: 'nearest'})"
    )
    for d in decisions:
        if d in controls:
            guard.near(page, f"{where} {d}", controls[d], focus_top(page))
    for d in decisions:
        if d not in panels:
            continue
        opener, control = panels[d]
        top = page_top(page, opener)
        page.locator(opener).first.click()
        page.wait_for_selector(control)
        guard.check(page, f"{where} {d} opened")
        guard.near(page, f"{where} {d} opened", control, top)
        page.locator('#actions button[data-key="cancel"]').first.click()
        page.wait_for_selector(opener)


def check_record(
    guard: Guard,
    ctx: Any,
    rec: Recorded,
    controls: dict[str, str],
    panels: dict[str, tuple[str, str]],
) -> list[str]:
    """Every stop of a record, at both sizes in the five languages, seen by the seat to
    decide (a page of its own, open while the moves are made): the decisions seen."""
    seen: list[str] = []
    pages: dict[int, Page] = {}
    for moves, decisions in rec.stops():
        rec.advance(moves)
        if "hidden" in decisions:
            rec.commit("hidden")
        seat = rec.seat_at(decisions[0])
        if seat not in pages:
            pages[seat] = ctx.new_page()
            pages[seat].goto(rec.link(seat))
        page = pages[seat]
        # the page in front: a page behind another one of the browser gets no animation
        # frames, and each click waits ~2 s for the frames that prove its target stable
        page.bring_to_front()
        at_move(page, moves)
        if "finished" in decisions:
            page.wait_for_selector('[data-testid="winners"]')
        elif "hidden" in decisions:
            page.wait_for_selector('[data-testid="reveal"]')
        else:
            page.wait_for_function(
                "s => document.querySelector('#table').dataset.toMove === String(s)", arg=seat
            )
        # the languages in turn (from the one the page was left in), each at both sizes
        now = page.evaluate("document.documentElement.lang")
        langs = sorted(LANGS, key=lambda lang: lang != now)
        for lang in langs:
            set_lang(page, lang)
            # both sizes, from the one the page was left in (one resize a language)
            for size in sorted(SIZES, key=lambda s: SIZES[s] != size_of(page)):
                set_size(page, size)
                where = f"{rec.record['game']}@{moves}-{size}-{lang}"
                check_decision(guard, page, where, decisions, controls, panels)
        seen += decisions
    for page in pages.values():
        page.close()
    return seen


def test_civ4_recorded_decisions_fit_both_sizes_in_five_languages(
    server: ServerProcess, context: tuple[Any, list[str]]
) -> None:
    ctx, errors = context
    guard = Guard("civ4")
    rec = start(server.base, load("civ4-2p"))
    seen = check_record(guard, ctx, rec, CIV4_CONTROL, CIV4_PANELS)
    for need in (
        "draft",
        "collect",
        "discard",
        "purchase-plot",
        "purchase-attack",
        "defend",
        "damage",
        "walls",
    ):
        assert need in seen, (need, seen)
    guard.done()
    assert not errors, errors


def test_carta_recorded_decisions_fit_both_sizes_in_five_languages(
    server: ServerProcess, context: tuple[Any, list[str]]
) -> None:
    ctx, errors = context
    guard = Guard("carta")
    rec = start(server.base, load("carta-draft-4p"))
    seen = check_record(guard, ctx, rec, CARTA_CONTROL, CARTA_PANELS)
    for need in ("draft", "play", "hidden", "effects", "finished"):
        assert need in seen, (need, seen)
    guard.done()
    assert not errors, errors


def test_lobby_fits_both_sizes_in_five_languages(
    server: ServerProcess, context: tuple[Any, list[str]]
) -> None:
    """The lobby with each game chosen (its options drawn), in every language and size."""
    ctx, errors = context
    guard = Guard("lobby")
    page = ctx.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#seats li")
    for lang in LANGS:
        set_lang(page, lang, table=False)
        for game in ("carta", "civ4"):
            page.select_option("#game", game)
            page.wait_for_selector("#clock-form")
            for size in SIZES:
                set_size(page, size)
                guard.check(page, f"lobby-{game}-{size}-{lang}")
    guard.done()
    assert not errors, errors


# -- one whole game of each, checked at every decision ------------------------------------


def test_civ4_whole_game_on_a_phone_in_german(server: ServerProcess, browser: Any) -> None:
    """A whole civ4 game against the greedy bot by pointing, at 390x844 in German: the page
    at every decision of the seat, and the payment each round where a plot can be bought.

    It is the browser's one whole civ4 game (the project plays each game's whole game once):
    the table marks the card set as reconstructed, the seat collects, discards, buys a
    technology and ends its steps by pointing alone, and the game ends with both scores."""
    # with less motion asked for: the layout at rest is what is checked (the moves' glide,
    # tests/web/test_move_flip.py's, costs a browser most of its work in a whole game)
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="de-DE", reduced_motion="reduce"
    )
    ctx.add_init_script("localStorage.setItem('civcards.lang', 'de')")
    guard = Guard("civ4-game")
    try:
        g = civ4_ui.create(
            server,
            2,
            [{"kind": "human", "name": "Bartholomäus"}, {"kind": "bot", "bot": "greedy"}],
            11,
        )
        page, errors = civ4_ui.open_seat(ctx, server, g, 0)
        thumb = Thumb(page)
        reconstructed = page.inner_text('[data-testid="reconstructed"]')
        assert t("de", "ccg.reconstructed")[:20] in reconstructed, reconstructed
        rng = random.Random(4)
        tried: set[str] = set()
        done: dict[str, int] = {}
        paid = 0
        for _ in range(900):
            civ4_ui.wait_turn(page, 0)
            if civ4_ui.finished(page):
                break
            n = civ4_ui.moves(page)
            now = civ4_ui.step(page)
            where = f"move{n}-{now}"
            guard.check(page, where)
            if (
                now == "purchase"
                and "plot" not in tried
                and civ4_ui.present(thumb, '#mine button[data-key^="buy-plot-"]')
            ):
                opener, control = CIV4_PANELS["purchase-plot"]
                top = page_top(page, opener)
                thumb.locator(opener).first.click()
                page.wait_for_selector(control)
                guard.check(page, f"{where}-pay")
                guard.near(page, f"{where}-pay", control, top)
                paid += 1
            what = civ4_ui.act(thumb, rng, tried)
            done[what] = done.get(what, 0) + 1
            if sum(done.values()) == 41:
                civ4_ui.shot(page, "midgame")
            if civ4_ui.step(page) != "purchase":
                tried.clear()
        else:
            raise AssertionError(f"the game did not end: {done}")
        page.wait_for_selector('[data-testid="winners"]')
        page.wait_for_selector('[data-testid="scores"]')
        assert page.locator('[data-testid="scores"] tbody tr').count() == 2
        for need in ("collect", "discard", "tech", "end"):
            assert done.get(need), (need, done)
        guard.check(page, "game-over")
        ARTIFACTS.mkdir(exist_ok=True)  # the end, to look at
        page.screenshot(path=str(ARTIFACTS / "layout-civ4-game-over-phone-de.png"), full_page=True)
        assert paid, "no plot could be bought in this game"
        guard.done()
        assert not errors, errors
    finally:
        ctx.close()


def test_carta_whole_game_on_a_phone_in_spanish(server: ServerProcess, browser: Any) -> None:
    """A whole carta game against two bots by pointing, at 390x844 in Spanish, checked at
    every decision of the seat and at its end.

    It is the browser's one whole carta game (the project plays each game's whole game once):
    its end names the winners, gives the record to download (the seats' names in it), and
    its rematch opens a new game that the lobby lists with this one."""
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="es-ES", reduced_motion="reduce"
    )
    ctx.add_init_script("localStorage.setItem('civcards.lang', 'es')")
    guard = Guard("carta-game")
    try:
        g = server.create(
            claim=False,
            players=3,
            seed=3,
            seats=[
                {"kind": "human", "name": "Bartholomäus"},
                {"kind": "bot", "bot": "greedy"},
                {"kind": "bot", "bot": "random"},
            ],
        )
        page = ctx.new_page()
        errors = carta_ui.watch_errors(page)
        page.goto(server.base + g["seats"][0]["invite"])
        page.wait_for_selector("#table[data-moves]")
        rng = random.Random(3)
        for _ in range(400):
            carta_ui.wait_turn(page, 0)
            if carta_ui.finished(page):
                break
            guard.check(page, f"move{carta_ui.moves(page)}")
            carta_ui.click_a_move(page, rng)
        else:
            raise AssertionError("the game did not end")
        page.wait_for_selector('[data-testid="winners"]')
        guard.check(page, "game-over")
        ARTIFACTS.mkdir(exist_ok=True)  # the end, to look at
        page.screenshot(path=str(ARTIFACTS / "layout-carta-game-over-phone-es.png"), full_page=True)
        guard.done()
        # the winners, in the page's language
        winners = page.inner_text('[data-testid="winners"]')
        said = [t("es", k, who="\0").split("\0")[0] for k in ("ui.winner", "ui.winners")]
        assert winners.startswith(tuple(said)) and len(winners) > max(map(len, said)), winners
        # the record to download: the game's notation, the seats' names
        href = page.get_attribute('[data-testid="download"]', "href")
        record = page.request.get(server.base + str(href))
        assert record.ok and record.json()["format"] == "civ-notation/1"
        assert record.json()["names"][0] == "Bartholomäus"
        # the rematch opens a new game; the lobby lists both among this browser's games
        game_url = page.url
        page.click("#rematch")
        page.wait_for_function(
            "u => location.href !== u && !!document.querySelector('#table[data-moves]')",
            arg=game_url,
        )
        assert "/game/" in page.url
        page.goto(server.base + "/")
        page.wait_for_selector("#my-games a.button")
        assert page.locator("#my-games li").count() >= 2
        assert not errors, errors
    finally:
        ctx.close()
