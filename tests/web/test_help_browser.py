"""Rules at hand, turn alerts and the end screen (issue 21) in a real browser: Debian's
Chromium driven by Playwright, against a real server.

A new player's guided first game, tips on hover and on a long press, the tab's title when
the turn comes, and the end screen on a 390×844 phone for both games.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from civcards.civ4 import CARDS
from civcards.games.carta.rules_text import DOMAIN_EFFECTS
from civcards.games.civ4.text import card_help, card_name
from civcards.i18n import t

from . import net
from .conftest import ServerProcess
from .test_api import move, play_random, state
from .test_browser import context, moves, seat_link, shot, wait_moved, watch_errors
from .test_rules_pages import ENGLISH, visible_words

__all__ = ["context"]  # the fixture, shared with test_browser (browser: conftest)

Page = Any


def guide_target(page: Page) -> dict[str, str]:
    """What the guide points at: the highlighted control's move/key and the hint's text."""
    out: dict[str, str] = page.evaluate(
        """() => {
            const el = document.querySelector('.guide-target');
            const g = document.querySelector('[data-testid=guide-text]');
            return {move: el ? (el.dataset.move || '') : '', key: el ? (el.dataset.key || '') : '',
                    text: g ? g.textContent : '', count: String(document.querySelectorAll('.guide-target').length)};
        }"""
    )
    return out


def test_a_new_players_guided_first_game(server: ServerProcess, context: Any) -> None:
    """From the rules page: a guided game against a bot; the hint points at the control to
    use (a card to play, then the end of the turn); it can be turned off, and stays off."""
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(server.base + "/rules/carta?lang=en")
    page.click('[data-testid="guided-start"]')
    page.wait_for_url("**/game/**")
    page.wait_for_selector("#table[data-moves]")
    # the first hint: play a card, on a card of the hand
    page.wait_for_function(
        "() => document.querySelector('#table').dataset.toMove === '0' "
        "&& !!document.querySelector('[data-testid=guide]')",
        timeout=20000,
    )
    g = guide_target(page)
    assert g["count"] == "1"
    assert g["move"].startswith("play "), g
    assert g["text"] == t("en", "guide.play", l1=3)
    assert page.locator(f'#mine button.playable[data-move="{g["move"]}"]').first.evaluate(
        "el => el.classList.contains('guide-target')"
    )
    # who leads: the live panel, a line for each seat
    assert page.inner_text('[data-testid="standing-lead"]')
    assert page.locator('[data-testid="standing"] li').count() == 2
    before = moves(page)
    page.click(".guide-target")
    wait_moved(page, before)
    # phase 2: an effect or the end of the turn, where the guide says
    page.wait_for_function("() => !!document.querySelector('.guide-target')")
    g = guide_target(page)
    if g["key"] == "end":
        assert g["text"] == t("en", "guide.end")
    else:
        assert g["key"].startswith("effect-") and g["text"] == t("en", "guide.effect")
    shot(page, "guided-first-game")
    # turned off: gone at once, remembered after a reload
    page.click('[data-testid="guide-off"]')
    assert page.locator('[data-testid="guide"]').count() == 0
    assert page.locator(".guide-target").count() == 0
    assert page.evaluate("localStorage.getItem('civcards.guide')") == "off"
    page.reload()
    page.wait_for_selector("#table[data-moves]")
    page.wait_for_selector("#mine button.playable, #actions button.end")
    assert page.locator('[data-testid="guide"]').count() == 0
    # and on again from the settings panel
    page.click('[data-testid="settings"]')
    page.check('[data-testid="setting-guide"]')
    page.wait_for_selector('[data-testid="guide"]')
    assert not errors, errors


def test_the_guide_is_for_first_games(server: ServerProcess, browser: Any) -> None:
    """The guide is on for a player who never finished a game in this browser and in a
    guided first game (the rules page's link); once a game is finished here, a regular game
    shows none."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")

    def regular() -> dict[str, Any]:
        return server.create(players=2, seats=[{"kind": "human", "name": "Ana"}, {"kind": "bot"}])

    def open_table(g: dict[str, Any]) -> Page:
        page.goto(server.base + seat_link(g, 0))
        page.wait_for_selector("#table[data-moves]")
        page.wait_for_function("() => document.querySelector('#table').dataset.toMove === '0'")
        page.wait_for_selector("#mine button.playable, #actions button:not([disabled])")
        page.wait_for_timeout(300)  # a redraw after the last frame
        return page

    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        # a new player: the guide is on in a regular game
        open_table(regular())
        page.wait_for_selector('[data-testid="guide"]')
        assert page.evaluate("localStorage.getItem('civcards.finished')") is None
        # a game finished and seen here
        done = regular()
        tok = done["seats"][0]["token"]
        play_random(server, done["id"], [tok, None], random.Random(4), 2000)
        page.goto(server.base + seat_link(done, 0))
        page.wait_for_selector('[data-testid="outcome"]')
        assert page.evaluate("localStorage.getItem('civcards.finished')") is not None
        # now a regular game shows no guide
        later = regular()
        open_table(later)
        assert page.locator('[data-testid="guide"]').count() == 0
        assert page.locator(".guide-target").count() == 0
        # the guided first game's link shows it
        page.goto(server.base + "/rules/carta?lang=en")
        page.click('[data-testid="guided-start"]')
        page.wait_for_url("**/game/**")
        page.wait_for_function(
            "() => document.querySelector('#table').dataset.toMove === '0' "
            "&& !!document.querySelector('[data-testid=guide]')",
            timeout=20000,
        )
        # and only there: the regular game still has none
        open_table(later)
        assert page.locator('[data-testid="guide"]').count() == 0
        assert not errors, errors
    finally:
        ctx.close()


def test_tips_on_hover_and_long_press(server: ServerProcess, browser: Any) -> None:
    """Every card, effect and marker explains itself: hover a card of the hand, a domain's
    thresholds; on a phone a long press shows the tip and plays nothing."""
    g = server.create(players=2, seats=[{"kind": "human", "name": "Ana"}, {"kind": "bot"}], seed=21)
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    try:
        page = ctx.new_page()
        page.goto(server.base + seat_link(g, 0))
        page.wait_for_selector("#mine .hand .card")
        card = page.locator("#mine .hand .card").first
        card.hover()
        tip = page.locator("#tip")
        tip.wait_for(state="visible")
        text = tip.inner_text()
        letter = card.get_attribute("class").split("d-")[1][0]
        want = t("en", "web.tip.card", domain=t("en", f"domain.{letter}"), effects=effects(letter))
        assert text.endswith(want), (text, want)
        assert card.get_attribute("aria-describedby") == "tip"
        page.locator('[data-testid="cell-0-M"] .need').hover()
        page.wait_for_function(
            "want => document.querySelector('#tip').textContent === want",
            arg=t("en", "web.thresholds_legend", l1=3, l2=5, heg=8),
        )
        page.keyboard.press("Escape")
        assert tip.is_hidden()
    finally:
        ctx.close()
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="en-US"
    )
    try:
        page = phone.new_page()
        page.goto(server.base + seat_link(g, 0))
        page.wait_for_selector("#mine button.playable")
        before = moves(page)
        box = page.locator("#mine button.playable").first.bounding_box()
        assert box is not None
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        cdp = phone.new_cdp_session(page)
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]}
        )
        # held well past help.js's LONG_PRESS_MS (450 ms): the press's timer has fired even
        # on a loaded machine (the touch's focus alone may show the tip sooner), and the tip
        # is then waited for rather than read at once
        page.wait_for_timeout(1500)
        page.locator("#tip").wait_for(state="visible", timeout=5000)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        assert "Play " in page.inner_text("#tip")
        page.wait_for_timeout(500)
        assert moves(page) == before  # the long press showed the tip, it played nothing
        # the table with its guide, panel of who leads (in the moves' tab) and settings fits
        # the phone
        assert page.locator('[data-testid="guide"]').count() == 1
        page.wait_for_timeout(300)  # past the clicks a long press ends with (help.js: 700 ms)
        page.click("#tab-side")
        assert page.locator('[data-testid="standing"]').is_visible()
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    finally:
        phone.close()


def effects(letter: str) -> str:
    l1, l2, disc = DOMAIN_EFFECTS[letter]
    if disc is None:
        return t("en", "ref.domain_culture", effect=t("en", f"effect.{l1}"))
    return t(
        "en",
        "ref.domain",
        l1=t("en", f"effect.{l1}"),
        l2=t("en", f"effect.{l2}"),
        disc=t("en", f"effect.{disc}"),
    )


def test_turn_alert_in_the_tab_title(server: ServerProcess, browser: Any) -> None:
    """When the other seat moves and the turn comes, the title and the icon change; turned
    off in the settings, the title stays plain."""
    g = server.create(players=2, seats=[{"kind": "human"}, {"kind": "human"}], seed=33)
    gid = g["id"]
    tokens = [s["token"] for s in g["seats"]]
    ctx = browser.new_context(locale="en-US")
    try:
        st = state(server, gid, tokens[0])
        mover = st["game"]["to_move"]
        other = 1 - mover
        page = ctx.new_page()
        page.goto(server.base + seat_link(g, other))
        page.wait_for_selector("#table[data-moves]")
        page.wait_for_timeout(300)
        plain = page.title()
        assert t("en", "web.alert.your_turn") not in plain
        assert page.get_attribute('link[rel="icon"]', "data-mine") == "0"
        # the other seat plays a card and ends its turn (through the API, as its browser would)
        for _ in range(10):
            st = state(server, gid, tokens[mover])
            if st["game"]["to_move"] != mover:
                break
            texts = [o["text"] for o in st["options"] if o["final"]]
            pick = "end" if "end" in texts else texts[0]
            r = move(server, gid, tokens[mover], pick, st["move_number"])
            assert r.status_code == 200, r.text
        page.wait_for_function(
            "want => document.title.startsWith('▶ ' + want)",
            arg=t("en", "web.alert.your_turn"),
            timeout=10000,
        )
        assert page.get_attribute('link[rel="icon"]', "data-mine") == "1"
        assert page.evaluate("document.documentElement.dataset.alerted") == "1"
        # the settings panel turns the title off
        page.click('[data-testid="settings"]')
        page.uncheck('[data-testid="setting-title"]')
        page.wait_for_function("want => document.title === want", arg=plain)
        assert page.evaluate("JSON.parse(localStorage.getItem('civcards.alerts')).title") is False
    finally:
        ctx.close()


#: what the page does with the browser's alerts, recorded (the browser's own Notification and
#: AudioContext, which a headless browser cannot show or play, stand in for them)
RECORD_ALERTS = """
window.__notes = [];
window.__beeps = 0;
window.__hidden = false;
class RecordedNotification {
  constructor(title, opts) { window.__notes.push([title, (opts || {}).body || '']); }
  close() {}
  static get permission() { return 'granted'; }
  static requestPermission() { return Promise.resolve('granted'); }
}
window.Notification = RecordedNotification;
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  createOscillator() { window.__beeps += 1; return super.createOscillator(); }
};
Object.defineProperty(document, 'hidden', { get: () => window.__hidden });
"""


def test_turn_alert_sound_and_notification_while_hidden(
    server: ServerProcess, browser: Any
) -> None:
    """With notifications allowed and the tab hidden, the turn's coming beeps and sends a
    notification naming the game, in the reader's language."""
    g = server.create(players=2, seats=[{"kind": "human"}, {"kind": "human"}], seed=34)
    gid = g["id"]
    tokens = [s["token"] for s in g["seats"]]
    ctx = browser.new_context(locale="es-ES")
    try:
        mover = state(server, gid, tokens[0])["game"]["to_move"]
        page = ctx.new_page()
        page.add_init_script(RECORD_ALERTS)
        page.goto(server.base + seat_link(g, 1 - mover))
        page.wait_for_selector("#table[data-moves]")
        page.click('[data-testid="settings"]')
        page.check('[data-testid="setting-notify"]')
        assert page.evaluate("JSON.parse(localStorage.getItem('civcards.alerts')).notify")
        page.click('[data-testid="sound-toggle"]')  # the sounds are off at first (issue 39)
        page.evaluate("window.__hidden = true; window.__beeps = 0")
        for _ in range(10):
            st = state(server, gid, tokens[mover])
            if st["game"]["to_move"] != mover:
                break
            texts = [o["text"] for o in st["options"] if o["final"]]
            pick = "end" if "end" in texts else texts[0]
            assert move(server, gid, tokens[mover], pick, st["move_number"]).status_code == 200
        page.wait_for_function("() => window.__notes.length === 1", timeout=10000)
        title, body = page.evaluate("window.__notes[0]")
        assert title == t("es", "web.alert.your_turn")
        assert body == t("es", "web.alert.notify_body", game="CIV: Carta Impera Victoria")
        assert page.evaluate("window.__beeps") >= 1
    finally:
        ctx.close()


def finish(server: ServerProcess, name: str, seed: int, humans: int) -> dict[str, Any]:
    """A two-player game of ``name`` (``humans`` human seats, played at random through the
    API, the others bots), played to its end."""
    seats = [{"kind": "human"}] * humans + [{"kind": "bot"}] * (2 - humans)
    g = server.create(game=name, players=2, seats=seats, seed=seed)
    deadline = time.time() + 240
    tokens: list[str | None] = [s["token"] for s in g["seats"]]
    rng = random.Random(seed)
    while net.get(f"{server.base}/api/games/{g['id']}").json()["status"] != "finished":
        assert time.time() < deadline, "the game did not end"
        play_random(server, g["id"], tokens, rng, 200)
    return g


@pytest.mark.parametrize("name", ["carta", "civ4"])
def test_end_screen_on_a_phone(server: ServerProcess, browser: Any, name: str) -> None:
    """390×844: the end says plainly won or lost, shows every final hand, and nothing is wider
    than the phone (no horizontal scroll)."""
    # CIV: random players end by Majorities (the widest end screen, with its table)
    for seed in range(17, 27):
        g = finish(server, name, seed, 2 if name == "carta" else 1)
        view = state(server, g["id"], g["seats"][0]["token"])
        if name != "carta" or view["result"]["reason"] == "majority":
            break
    else:
        raise AssertionError("no random game ended by Majorities")
    won = 0 in view["result"]["winners"]
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, locale="en-US"
    )
    try:
        page = phone.new_page()
        errors = watch_errors(page)
        page.goto(server.base + seat_link(g, 0))
        page.wait_for_selector('[data-testid="outcome"]')
        want = t("en", "web.you_won" if won else "web.you_lost")
        if won and view["result"]["shared"] and len(view["result"]["winners"]) > 1:
            want = t("en", "web.you_shared")
        assert page.inner_text('[data-testid="outcome"]') == want
        assert view["result"]["why"] and view["result"]["why"] in page.inner_text("#result")
        hands = page.locator('[data-testid="final-hands"] li')
        assert hands.count() == 2
        assert [h["words"] for h in view["result"]["hands"]] == [
            hands.nth(i).inner_text().split(": ", 1)[1] for i in range(2)
        ]
        if name == "carta":
            assert page.locator('[data-testid="majority"]').is_visible()
        else:
            assert page.locator('[data-testid="scores"]').is_visible()
        width = page.evaluate("document.scrollingElement.scrollWidth")
        shot(page, f"end-screen-phone-{name}")
        assert width <= 390, width
        assert not errors, errors
    finally:
        phone.close()


def test_every_text_in_the_players_language(server: ServerProcess, browser: Any) -> None:
    """Seats nobody named and bots named by the server read in the page's language."""
    g = server.create(
        players=2, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}], seed=4
    )
    ctx = browser.new_context(locale="de-DE")
    try:
        page = ctx.new_page()
        page.goto(server.base + seat_link(g, 0))
        page.wait_for_selector('[data-testid="player-1"]')
        bot = t("de", "web.bot_seat", n=2, level=t("de", "web.botlevel.random"))
        page.wait_for_function(
            "want => document.querySelector('[data-testid=player-1]').textContent.includes(want)",
            arg=bot,
        )
        assert "random bot" not in page.inner_text("#table")
        assert t("de", "web.seat_n", n=1) in page.inner_text('[data-testid="player-0"]')
    finally:
        ctx.close()


def test_the_draft_is_explained_and_civ4_cards_explain_themselves(
    server: ServerProcess, browser: Any
) -> None:
    """R8: while the draft runs the table says how it works; civ4: a plot on offer shows
    what it does (its tip is the card's text) and the card set reads as reconstructed."""
    ctx = browser.new_context(locale="fr-FR")
    try:
        g = server.create(
            players=3,
            options={"deal": "draft"},
            seats=[{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}],
            seed=8,
        )
        page = ctx.new_page()
        page.goto(server.base + seat_link(g, 0))
        page.wait_for_selector('[data-testid="draft-explain"]')
        assert page.inner_text('[data-testid="draft-explain"]') == t("fr", "web.draft_explain")
        g = server.create(
            game="civ4", players=2, seats=[{"kind": "human"}, {"kind": "bot"}], seed=3
        )
        page.goto(server.base + seat_link(g, 0))
        # the plot draft (C11) opens the game: each plot offered explains what it yields
        page.wait_for_selector("#actions .cards h4[data-tip]")
        card = page.locator("#actions .cards h4[data-tip]").first
        card.hover(position={"x": 3, "y": 3})  # its name (its resource chips have their own)
        page.wait_for_selector("#tip", state="visible")
        shown = card.inner_text().strip()
        code = next(c for c in CARDS.plots if shown.startswith(card_name(c, "fr")))
        assert page.inner_text("#tip") == card_help(code, "fr")
        # the guide points at a plot to take, in French
        g = guide_target(page)
        assert g["key"].startswith("pick-") and g["count"] == "1", g
        assert g["text"] == t("fr", "ccg.guide.draft")
        assert t("fr", "ccg.reconstructed") in page.inner_text('[data-testid="reconstructed"]')
    finally:
        ctx.close()


@pytest.mark.parametrize("name", ["carta", "civ4"])
def test_no_english_at_the_table_in_other_languages(
    server: ServerProcess, browser: Any, name: str
) -> None:
    """Every text of the table (the board, who leads, the settings, the guide, seats nobody
    named and the server's bots) in the reader's language: no English word shows, beyond
    proper names (the game's title) and the move notation."""
    g = server.create(
        game=name,
        players=3,
        seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot"}],
        seed=5,
    )
    for lang in ("fr", "de", "es", "pt"):
        ctx = browser.new_context(locale=lang)
        try:
            page = ctx.new_page()
            page.goto(server.base + seat_link(g, 0))
            page.wait_for_selector("#table[data-moves]")
            page.wait_for_selector('[data-testid="standing"]')
            page.click('[data-testid="settings"]')
            page.evaluate("for (const d of document.querySelectorAll('details')) d.open = true")
            shown = page.evaluate(
                """() => {
                    const body = document.body.cloneNode(true);
                    for (const el of body.querySelectorAll('code, script, .game-title')) el.remove();
                    return body.innerText;
                }"""
            )
            title = net.get(f"{server.base}/api/games/{g['id']}").json()["title"]
            leaks = sorted(
                set(visible_words(shown.replace(title, " ")))
                & (ENGLISH | {"seat", "random", "greedy"})
            )
            assert not leaks, f"English at the {lang} table: {leaks}"
        finally:
            ctx.close()


def test_a_refused_setup_in_the_lobby_shows_no_english(
    server: ServerProcess, browser: Any
) -> None:
    """R24, C37: the lobby's refusal of a set-up, the game's own sentence included, in the
    reader's language (fr, de, es, pt): no English word shows."""
    for lang in ("fr", "de", "es", "pt"):
        ctx = browser.new_context(locale=lang)
        try:
            page = ctx.new_page()
            errors = watch_errors(page)
            page.goto(server.base + "/")
            page.wait_for_selector("#game-options")
            # CIV's team game with 3 players (R24)
            page.select_option("#game", "carta")
            page.select_option("#players", "3")
            page.check("#opt-teams")
            want = t(lang, "web.err.bad_setup", detail=t(lang, "setup.teams_four"))
            page.wait_for_function(
                "w => document.querySelector('#lobby-error').textContent === w", arg=want
            )
            # civ4 with a negative hand limit (C37)
            page.select_option("#game", "civ4")
            page.fill("#opt-hand_limit", "-1")
            page.dispatch_event("#opt-hand_limit", "change")
            said = t(lang, "ccg.setup.hand_limit", value="-1")
            page.wait_for_function(
                "w => document.querySelector('#lobby-error').textContent === w",
                arg=t(lang, "web.err.bad_setup", detail=said),
            )
            shown = page.inner_text("#lobby-error")
            leaks = sorted(
                (set(visible_words(shown)) - {"hand_limit"})
                & (ENGLISH | {"must", "not", "integer", "negative", "option"})
            )
            assert not leaks, f"English in the {lang} lobby: {leaks}"
            assert not errors, errors
        finally:
            ctx.close()
