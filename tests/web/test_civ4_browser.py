"""Civilization: The Card Game at the web table, in a real browser (Debian's Chromium through
Playwright): a whole game against the greedy bot played by pointing alone, the five
languages, the phone's viewport, and two browsers with a bot where a human defends.

Screenshots land in ``test-artifacts/`` (``civ4-*.png``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import ARTIFACTS, ServerProcess

sync_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
Page = Any


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"civ4-{name}.png"), full_page=True)


def create(
    server: ServerProcess, players: int, seats: list[dict[str, Any]], seed: int
) -> dict[str, Any]:
    """POST /api/games for civ4; the answer's invitation links are not used yet."""
    r = httpx.post(
        server.base + "/api/games",
        json={"game": "civ4", "players": players, "seats": seats, "seed": seed},
        timeout=20,
    )
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
    """Click, then wait for the next position."""
    before = moves(page)
    page.locator(selector).first.click()
    page.wait_for_function(
        "n => Number(document.querySelector('#table').dataset.moves) > n", arg=before, timeout=15000
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


def test_civ4_whole_game_against_greedy_by_pointing(server: ServerProcess, browser: Any) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    try:
        g = create(
            server, 2, [{"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "greedy"}], 11
        )
        page, errors = open_seat(ctx, server, g, 0)
        assert "RECONSTRUCTED" in page.inner_text('[data-testid="reconstructed"]')
        rng = random.Random(4)
        done: dict[str, int] = {}
        tried: set[str] = set()
        last_round = -1
        for i in range(900):
            wait_turn(page, 0)
            if finished(page):
                break
            text = page.inner_text("#status")
            if "Round" in text:
                rnd = int(text.split("Round")[1].split()[0])
                if rnd != last_round:
                    tried.clear()
                    last_round = rnd
            what = act(page, rng, tried)
            done[what] = done.get(what, 0) + 1
            if i == 40:
                shot(page, "midgame")
        else:
            raise AssertionError(f"the game did not end: {done}")
        page.wait_for_selector('[data-testid="winners"]')
        shot(page, "game-over")
        assert page.locator('[data-testid="scores"] tbody tr').count() == 2
        for need in ("collect", "discard", "tech", "end"):
            assert done.get(need), (need, done)
        assert not errors, errors
    finally:
        ctx.close()
