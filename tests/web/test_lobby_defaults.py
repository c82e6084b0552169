"""The lobby shows civ4's default set-up (issue 40): ``reconstructed-3``, and the
``finish_round`` variant (C68) checked at 2 players, unchecked at 3 and 4 as the player
count changes, and kept as the player set it once they touch it."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import ServerProcess

pytest.importorskip("playwright.sync_api")

BOX = '#game-options input[data-opt="finish_round"]'


def test_the_lobby_shows_the_default_of_each_player_count(
    server: ServerProcess, browser: Any
) -> None:
    """C68 checked at 2 players only, until the player chooses; the card set reconstructed-3."""
    ctx = browser.new_context(locale="en-US")
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.base + "/")
        page.select_option("#game", "civ4")
        page.select_option("#players", "2")
        assert page.locator(BOX).is_checked()
        assert page.locator('#game-options select[data-opt="cards"]').input_value() == (
            "reconstructed-3"
        )
        for n, on in (("3", False), ("4", False), ("2", True)):
            page.select_option("#players", n)
            assert page.locator(BOX).is_checked() is on, n
        # switched off at 2 players, it stays off whatever the count
        page.locator(BOX).uncheck()
        for n in ("3", "2"):
            page.select_option("#players", n)
            assert not page.locator(BOX).is_checked(), n
        assert not errors, errors
    finally:
        ctx.close()
