"""The lobby shows civ4's default set-up (issue 40): ``reconstructed-3``, and the
``finish_round`` variant (C68) checked at 2 players, unchecked at 3 and 4 as the player
count changes, and kept as the player set it once they touch it."""

from __future__ import annotations

from typing import Any

from civcards.civ4.options import CARD_SETS
from civcards.game_api import get_game
from civcards.i18n import LANGS, t
from civcards.server.i18n_web import seat_name
from civcards.server.kinds import describe_kind

from .conftest import ServerProcess

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


def test_each_card_set_is_explained_in_one_line_in_five_languages() -> None:
    """C1: the lobby's card-set choice names what each set is, in every language."""
    seen: dict[str, set[str]] = {c: set() for c in CARD_SETS}
    for lang in LANGS:
        cards = next(
            o for o in describe_kind(get_game("civ4"), lang)["options"] if o["name"] == "cards"
        )
        helps = cards["choice_helps"]
        assert set(helps) == set(CARD_SETS), lang
        for c, line in helps.items():
            assert line and "\n" not in line and line == t(lang, f"ccg.web.card_set_about.{c}")
            seen[c].add(line)
    assert all(len(lines) == len(LANGS) for lines in seen.values()), seen  # translated
    assert len({min(v) for v in seen.values()}) == len(CARD_SETS)  # one line a set


def test_the_lobby_explains_the_card_set_chosen(server: ServerProcess, browser: Any) -> None:
    """C1: the line under the card-set choice follows the choice, in the reader's language."""
    ctx = browser.new_context(locale="fr-FR")
    try:
        page = ctx.new_page()
        page.goto(server.base + "/?lang=fr")
        page.select_option("#game", "civ4")
        about = page.locator('[data-testid="opt-about-cards"]')
        page.wait_for_function(
            "w => document.querySelector('[data-testid=opt-about-cards]')?.textContent === w",
            arg=t("fr", "ccg.web.card_set_about.reconstructed-3"),
        )
        page.select_option('#game-options select[data-opt="cards"]', "reconstructed-1")
        assert about.inner_text() == t("fr", "ccg.web.card_set_about.reconstructed-1")
    finally:
        ctx.close()


def test_every_bot_of_the_lobby_has_words_in_five_languages() -> None:
    # issue 37: the learned bots (`net`, `ismcts+net`) are offered by name in the lobby;
    # each bot, like the others, is labelled in each language, never shown as its code
    for name in ("carta", "civ4"):
        game = get_game(name)
        for lang in LANGS:
            bots = describe_kind(game, lang)["bots"]
            assert {"net", "ismcts+net"} <= {b["name"].partition(":")[0] for b in bots}, name
            for b in bots:
                assert b["label"] != b["name"] and b["label"].strip(), (name, lang, b)
                # and a seat the bot takes is named in words ("Bot 2 (network)")
                base = b["name"].partition(":")[0]
                named = seat_name(1, "bot", b["name"], f"{b['name']} bot 2", lang)
                if base in ("net", "ismcts+net"):
                    assert f"({base})" not in named and "_" not in named, (lang, named)
