"""Civilization: The Card Game at the web table, in a real browser (Debian's Chromium through
Playwright): the five languages, the phone's viewport, and two browsers with a bot where a
human defends. The one whole game against the greedy bot played by pointing alone is
tests/web/test_layout_guard.py's (on a phone, in German): its checks (collect, discard, a
technology, the end of a step, both scores) are made there; :func:`act` plays it.

Screenshots land in ``test-artifacts/`` (``civ4-*.png``).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from civcards.i18n import t

from . import net
from .conftest import ARTIFACTS, ServerProcess

sync_api = pytest.importorskip("playwright.sync_api")

Page = Any


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"civ4-{name}.png"), full_page=True)


def create(
    server: ServerProcess,
    players: int,
    seats: list[dict[str, Any]],
    seed: int,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """POST /api/games for civ4; the answer's invitation links are not used yet."""
    body: dict[str, Any] = {"game": "civ4", "players": players, "seats": seats, "seed": seed}
    if options:
        body["options"] = options
    r = net.post(server.base + "/api/games", json=body, timeout=20)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def open_seat(
    ctx: Any, server: ServerProcess, g: dict[str, Any], seat: int
) -> tuple[Page, list[str]]:
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + g["seats"][seat]["invite"])
    page.wait_for_selector("#table[data-moves]")
    return page, errors


def moves(page: Page) -> int:
    return int(page.get_attribute("#table", "data-moves") or "-1")


def step(page: Page) -> str:
    return page.get_attribute("#table", "data-step") or ""


def finished(page: Page) -> bool:
    return bool(page.get_attribute("#table", "data-status") == "finished")


def wait_turn(page: Page, seat: int, timeout: float = 20000) -> None:
    """Until ``seat`` is to move and its panel shows its choices, or the game is over."""
    page.wait_for_function(
        """seat => {
            const t = document.querySelector('#table');
            if (t.dataset.status === 'finished') return true;
            return t.dataset.toMove === String(seat) && !!document.querySelector('#actions button');
        }""",
        arg=seat,
        timeout=timeout,
    )


def click_and_wait(page: Page, selector: str) -> None:
    """Click, then wait for the next position (a move that ends the game with the seat
    behind asks first: confirmed)."""
    before = moves(page)
    page.locator(selector).first.click()
    page.wait_for_function(
        """n => Number(document.querySelector('#table').dataset.moves) > n
            || !!document.querySelector('[data-testid=ending-warning]')""",
        arg=before,
        timeout=15000,
    )
    if moves(page) == before:
        page.locator('#actions button[data-key="go-ending"]').click()
        page.wait_for_function(
            "n => Number(document.querySelector('#table').dataset.moves) > n",
            arg=before,
            timeout=15000,
        )


def present(page: Page, selector: str) -> bool:
    loc = page.locator(selector)
    return bool(loc.count() > 0 and loc.first.is_enabled())


def purchase(page: Page, rng: random.Random, tried: set[str]) -> str:
    """One purchase by pointing (a technology, a build, population, a plot with the proposed
    payment, cashing, an attack) or the end of the step; returns what was done."""
    if present(page, '#mine button[data-key^="buy-tech-"]'):
        click_and_wait(page, '#mine button[data-key^="buy-tech-"]')
        return "tech"
    if "build" not in tried and present(page, '#mine button[data-key^="build-"]'):
        tried.add("build")
        page.locator('#mine button[data-key^="build-"]').first.click()
        page.wait_for_selector('#actions button[data-key^="build-p"]')
        # the plots with room show a Build button too
        assert page.locator('#players button[data-key^="build-at-"]').count() >= 1
        before = moves(page)
        page.locator('#actions button[data-key^="build-p"]').first.click()
        page.wait_for_function(
            """n => Number(document.querySelector('#table').dataset.moves) > n
                || !!document.querySelector('#actions button[data-key^="open-"]')""",
            arg=before,
        )
        if moves(page) == before:  # a step (free population or technologies): its first move
            click_and_wait(page, '#actions button[data-key^="open-"]')
        return "build"
    if present(page, '#players button[data-key^="pop-"]') and rng.random() < 0.7:
        click_and_wait(page, '#players button[data-key^="pop-"]')
        return "pop"
    if "plot" not in tried and present(page, '#mine button[data-key^="buy-plot-"]'):
        tried.add("plot")
        page.locator('#mine button[data-key^="buy-plot-"]').first.click()
        page.wait_for_selector('[data-testid="pay-sum"]')
        if present(page, '#actions button[data-key="go-pay"]'):
            click_and_wait(page, '#actions button[data-key="go-pay"]')
            return "plot"
        page.locator('#actions button[data-key="cancel"]').click()
    hand = page.locator('#mine button[data-key^="cash-"]').count()
    if hand > 2 and rng.random() < 0.8:
        click_and_wait(page, '#mine button[data-key^="cash-"]')
        return "cash"
    if "attack" not in tried and present(page, '#actions button[data-key="attack"]'):
        tried.add("attack")
        page.locator('#actions button[data-key="attack"]').click()
        page.locator('#actions button[data-key^="inc-attack."]').first.click()
        click_and_wait(page, '#actions button[data-key="go-attack"]')
        return "attack"
    click_and_wait(page, '#actions button[data-key="end"]')
    return "end"


def act(page: Page, rng: random.Random, tried: set[str]) -> str:
    """One decision of the seat to move, by pointing at its panel (the proposals kept)."""
    s = step(page)
    go = {
        "collect": "go-collect",
        "start_discard": "go-discard",
        "discard": "go-discard",
        "defend": "go-defend",
        "damage": "go-damage",
        "place": "go-place",
    }
    if s in go:
        click_and_wait(page, f'#actions button[data-key="{go[s]}"]')
        return s
    if s == "draft":
        click_and_wait(page, '#actions button[data-key^="pick-"]')
        return s
    if s == "settle":
        click_and_wait(page, '#players button[data-key^="settle-"]')
        return s
    if s == "walls":
        click_and_wait(page, '#actions button[data-key^="walls-"]')
        return s
    if s == "purchase":
        return purchase(page, rng, tried)
    raise AssertionError(f"no panel for the step {s!r}: {page.inner_text('#actions')}")


def no_horizontal_scroll(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"))


def unlabelled_controls(page: Page) -> list[str]:
    """Buttons, selects and inputs with no accessible name (text, aria-label or label)."""
    out: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('button, select, input')].filter(el => {
            if (el.offsetParent === null) return false;
            if ((el.getAttribute('aria-label') || '').trim()) return false;
            if (el.tagName === 'BUTTON' && el.textContent.trim()) return false;
            if (el.closest('label')) return false;
            if (el.id && document.querySelector(`label[for="${el.id}"]`)) return false;
            return true;
        }).map(el => el.outerHTML.slice(0, 120))"""
    )
    return out


def test_civ4_five_languages_on_a_phone_by_keyboard(server: ServerProcess, browser: Any) -> None:
    """The lobby marks the card set as reconstructed; the table in es/de/fr/pt/en at 390×844:
    its texts and card names in the language, no horizontal scrolling, every control
    labelled, and moves made with the keyboard alone (Tab to the control, Enter)."""
    from civcards.games.civ4.text import card_name
    from civcards.i18n import t

    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.base + "/")
        page.select_option("#game", "civ4")
        note = page.locator('[data-testid="game-note"]')
        assert "RECONSTRUCTED" in note.inner_text()
        assert page.locator('#game-options input[data-opt="finish_round"]').count() == 1
        shot(page, "lobby-phone")
        assert no_horizontal_scroll(page)
        g = create(
            server, 2, [{"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "greedy"}], 5
        )
        page.goto(server.base + g["seats"][0]["invite"])
        page.wait_for_selector("#table[data-moves]")
        rng = random.Random(2)
        for lang in ("es", "de", "fr", "pt", "en"):
            page.select_option("#lang-select", lang)
            page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
            wait_turn(page, 0)
            page.wait_for_function(
                "w => document.querySelector('[data-testid=reconstructed]').textContent.includes(w)",
                arg=t(lang, "ccg.reconstructed")[:20],
            )
            status = page.inner_text("#status")
            assert t(lang, "ccg.web.about") in status, (lang, status)
            # the plots of the empires are named in the language
            names = page.inner_text("#players")
            plot = page.get_attribute('[data-testid="plot-0-1"]', "aria-label") or ""
            assert plot.startswith(
                t(lang, "ccg.web.plot_label", n=1, name="X", res="", pop=0, cards="", free=0).split(
                    ":"
                )[0]
            )
            assert any(
                card_name(c, lang) in names
                for c in (
                    "GRS",
                    "PLN",
                    "HIL",
                    "OCN",
                    "FLD",
                    "FOR",
                    "RVG",
                    "CST",
                    "GLD",
                    "IRN",
                    "PAS",
                    "RVP",
                    "GEM",
                    "SLK",
                )
            )
            assert no_horizontal_scroll(page), lang
            assert not unlabelled_controls(page), unlabelled_controls(page)
            shot(page, f"phone-{lang}")
            # two decisions by keyboard: focus the panel's main control and press Enter
            for _ in range(2):
                wait_turn(page, 0)
                if finished(page):
                    break
                before = moves(page)
                s = step(page)
                target = {
                    "draft": '#actions button[data-key^="pick-"]',
                    "settle": '#players button[data-key^="settle-"]',
                    "start_discard": '#actions button[data-key="go-discard"]',
                    "discard": '#actions button[data-key="go-discard"]',
                    "collect": '#actions button[data-key="go-collect"]',
                    "purchase": '#actions button[data-key="end"]',
                }.get(s)
                if target is None:
                    act(page, rng, set())
                    continue
                page.locator(target).first.focus()
                page.keyboard.press("Enter")
                page.wait_for_function(
                    "n => Number(document.querySelector('#table').dataset.moves) > n", arg=before
                )
        assert not errors, errors
    finally:
        ctx.close()


def test_civ4_three_players_two_browsers_a_human_defends(
    server: ServerProcess, browser: Any
) -> None:
    """Ana and Bo in two browsers and a greedy bot: both attack when they can; a human
    defends through the panel (walls, blocks offering only legal blockers, damage), and the
    other browser sees the combat unfold."""
    g = create(
        server,
        3,
        [
            {"kind": "human", "name": "Ana"},
            {"kind": "human", "name": "Bo"},
            {"kind": "bot", "bot": "greedy"},
        ],
        # a deal where a human defends after 15 decisions (seed 3 took 73: 48 s against 11)
        6,
    )
    contexts = [browser.new_context(viewport={"width": 1000, "height": 900}) for _ in range(2)]
    try:
        pages = []
        errors: list[str] = []
        for seat in range(2):
            p, errs = open_seat(contexts[seat], server, g, seat)
            pages.append(p)
            errors += errs
        rng = random.Random(7)
        tried: list[set[str]] = [set(), set()]
        defended = seen = False
        last = 0  # the moves the acting browser has seen: the other may not have heard yet
        for _ in range(600):
            # pages[0] must have caught up with the last move made, or a stale view (seat 1
            # still to move after seat 1 passed the turn to seat 0) sends us to wait on the
            # wrong browser
            pages[0].wait_for_function(
                """n => {
                    const t = document.querySelector('#table');
                    if (Number(t.dataset.moves) < n) return false;
                    return t.dataset.status === 'finished' || t.dataset.toMove !== '2';
                }""",
                arg=last,
                timeout=20000,
            )
            if finished(pages[0]):
                break
            who = int(pages[0].get_attribute("#table", "data-to-move") or "0")
            if who not in (0, 1):
                # the bot's turn came between the wait and the read: wait again
                continue
            page, other = pages[who], pages[1 - who]
            wait_turn(page, who)
            s = step(page)
            if s in ("walls", "defend", "damage"):
                # the other browser sees the combat too
                other.wait_for_selector('[data-testid="combat"]')
                # every unit of the combat explains itself (its card's text as a tip)
                tips = other.eval_on_selector_all(
                    '[data-testid="combat"] [data-testid="combat-unit"]',
                    "els => els.map(e => e.dataset.tip || '')",
                )
                assert tips and all(tips), tips
                seen = True
                if s == "defend":
                    defended = True
                    for sel in page.locator("#actions select[data-defend]").all():
                        # only legal blockers are offered: every option names a unit in hand
                        assert sel.locator("option").count() >= 1
                    shot(page, "defending")
            if s == "purchase":
                tried[who].discard("attack")
                if present(page, '#actions button[data-key="attack"]'):
                    page.locator('#actions button[data-key="attack"]').click()
                    page.locator('#actions button[data-key^="inc-attack."]').first.click()
                    click_and_wait(page, '#actions button[data-key="go-attack"]')
                    last = moves(page)
                    continue
            act(page, rng, tried[who])
            last = moves(page)
            if defended and seen:
                break
        assert defended and seen, "no human defended in this game"
        assert not errors, errors
    finally:
        for c in contexts:
            c.close()


def test_civ4_the_tables_rules_link_shows_its_own_card_set(
    server: ServerProcess, browser: Any
) -> None:
    """C14, C26: a table of reconstructed-3 links to the rules and cards of reconstructed-3
    (2 Spearmen in the box, where the default set has 5), not to the default set's."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    try:
        g = create(
            server,
            2,
            [{"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "random"}],
            5,
            {"cards": "reconstructed-3"},
        )
        page, errors = open_seat(ctx, server, g, 0)
        href = page.get_attribute('[data-testid="rules-link"]', "href") or ""
        assert "option=cards%3Dreconstructed-3" in href, href
        page.goto(server.base + href)
        note = page.inner_text('[data-testid="reference-note"]')
        assert "reconstructed-3" in note, note
        cards = page.locator('[data-testid="ref-card"] dt').all_inner_texts()
        spear = [c for c in cards if c.startswith("Spearmen")]
        assert spear and t("en", "ccg.ref.copies", n=2) in spear[0], cards
        # a reader whose language is another: the page loads again in it, same set-up
        page.evaluate("localStorage.setItem('civcards.lang', 'fr')")
        page.goto(server.base + href)
        page.wait_for_selector('html[lang="fr"]')
        assert "option=cards%3Dreconstructed-3" in page.url, page.url
        note = page.inner_text('[data-testid="reference-note"]')
        assert "reconstructed-3" in note, note
        assert not errors, errors
    finally:
        ctx.close()
