"""The web table in a real browser: Debian's Chromium driven by Playwright.

Screenshots of the table are saved under ``test-artifacts/``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from civcards import carta
from civcards.bots import bot_move, make_bot
from civcards.game_api import get_game

from . import net
from .conftest import ARTIFACTS, ServerProcess
from .test_api import find_hidden_choice

sync_api = pytest.importorskip("playwright.sync_api")

Page = Any


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    yield ctx
    ctx.close()


def watch_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def moves(page: Page) -> int:
    return int(page.get_attribute("#table", "data-moves") or "-1")


def wait_turn(page: Page, seat: int, timeout: float = 15000) -> None:
    """Until it is ``seat``'s turn (and the page shows its choices) or the game is over."""
    page.wait_for_function(
        """seat => {
            const t = document.querySelector('#table');
            if (t.dataset.status === 'finished') return true;
            if (t.dataset.toMove !== String(seat)) return false;
            return !!document.querySelector('#mine button.playable, #actions button');
        }""",
        arg=seat,
        timeout=timeout,
    )


def finished(page: Page) -> bool:
    status: str | None = page.get_attribute("#table", "data-status")
    return status == "finished"


def wait_moved(page: Page, before: int, reveal: bool = True) -> None:
    """Until the page shows a move after ``before`` (or, if ``reveal``, revealed cards)."""
    page.wait_for_function(
        """([n, reveal]) => Number(document.querySelector('#table').dataset.moves) > n
               || (reveal && !!document.querySelector('[data-testid=reveal]'))""",
        arg=[before, reveal],
        timeout=15000,
    )


def walk_effect(page: Page, rng: random.Random) -> None:
    """Click through the choices of an effect until it is made."""
    start = moves(page)
    for _ in range(30):
        if moves(page) > start:
            return
        for key in ("confirm", "commit", "picks-ok"):
            b = page.locator(f'#actions button[data-key="{key}"]')
            if b.count():
                b.first.click()
                if key == "confirm":
                    wait_moved(page, start, reveal=False)
                elif key == "commit":
                    page.wait_for_selector('[data-testid="reveal"]')
                break
        else:
            picks = page.locator('#actions button[data-key^="pick-"], #actions button[data-tok]')
            assert picks.count(), page.inner_text("#actions")
            picks.nth(rng.randrange(picks.count())).click()
    raise AssertionError("the effect did not end")


def click_a_move(page: Page, rng: random.Random, effect_rate: float = 0.35) -> None:
    """Make one move by clicking: a card to play, else an effect or the end of the turn."""
    before = moves(page)
    cards = page.locator("#mine button.playable")
    if cards.count():
        cards.nth(rng.randrange(cards.count())).click()
        wait_moved(page, before)
        return
    effects = page.locator("#actions button.effect")
    end = page.locator("#actions button.end")
    if effects.count() and (rng.random() < effect_rate or not end.count()):
        effects.nth(rng.randrange(effects.count())).click()
        walk_effect(page, rng)
        return
    end.click()
    wait_moved(page, before)


def create_in_lobby(
    page: Page, base: str, players: int, names: list[str], kinds: list[str]
) -> None:
    page.goto(base + "/")
    page.select_option("#players", str(players))
    for i, (name, kind) in enumerate(zip(names, kinds, strict=True)):
        page.select_option(f'select.seat-kind[data-seat="{i}"]', kind)
        if name:
            page.fill(f'input.seat-name[data-seat="{i}"]', name)
    page.click("#create")
    page.wait_for_selector('[data-testid="play-mine"]')


def test_a_game_created_in_the_lobby_is_played_by_clicking(
    server: ServerProcess, context: Any
) -> None:
    """The lobby creates a game with the names and seats chosen; its table is played by
    clicking. The browser's one whole carta game is tests/web/test_layout_guard.py's (on a
    phone, in Spanish): its end (the winners, the record to download, the rematch, the
    lobby's games) is checked there (the project plays each game's whole game once)."""
    page = context.new_page()
    errors = watch_errors(page)
    create_in_lobby(page, server.base, 3, ["Ana", "", ""], ["human", "bot:greedy", "bot:random"])
    shot(page, "lobby-created")
    page.click('[data-testid="play-mine"]')
    page.wait_for_selector("#table[data-moves]")
    assert "token=" not in page.url  # the secret leaves the address bar
    gid = page.url.split("/game/")[1].split("?")[0].split("#")[0]
    info = page.request.get(f"{server.base}/api/games/{gid}").json()
    # the seats as chosen in the lobby: the name typed, the bots picked
    seats = [(s["kind"], s["name"] if s["kind"] == "human" else s["bot"]) for s in info["seats"]]
    assert seats == [("human", "Ana"), ("bot", "greedy"), ("bot", "random")], info["seats"]
    rng = random.Random(3)
    for i in range(7):
        wait_turn(page, 0)
        assert not finished(page)
        if i == 6:
            shot(page, "table-midgame")
        if i == 0:  # the status counts the turns as the engine does (the first turn is turn 1)
            obs = page.request.get(f"{server.base}/api/games/{gid}/state").json()["observation"]
            status = page.inner_text("#status")
            assert f"Turn {obs['turn']} " in status and obs["turn"] >= 1, status
        click_a_move(page, rng)
    assert moves(page) >= 7
    assert not errors, errors


def test_two_browsers_play_each_other_live(server: ServerProcess, browser: Any) -> None:
    g = server.create(
        players=2,
        seats=[{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bo"}],
        seed=12,
        claim=False,
    )
    pages = []
    contexts = []
    for s in range(2):
        ctx = browser.new_context(viewport={"width": 1100, "height": 900})
        contexts.append(ctx)
        page = ctx.new_page()
        page.goto(server.base + g["seats"][s]["invite"])  # the invitation: claimed by the page
        page.wait_for_selector("#table[data-moves]")
        assert "token=" not in page.url
        pages.append(page)
    try:
        rng = random.Random(8)
        for _ in range(14):
            info = net.get(f"{server.base}/api/games/{g['id']}").json()
            seat = info["to_move"]
            mover, other = pages[seat], pages[1 - seat]
            wait_turn(mover, seat)
            before = moves(other)
            click_a_move(mover, rng, effect_rate=0.2)
            # the other browser hears of it without reloading
            wait_moved(other, before)
            log_other = other.inner_text('[data-testid="log"]')
            log_mover = mover.inner_text('[data-testid="log"]')
            assert (
                log_other.splitlines()[-1].split(":")[0] == log_mover.splitlines()[-1].split(":")[0]
            )
        shot(pages[0], "two-players-seat0")
        shot(pages[1], "two-players-seat1")
        # each sees only its own hand
        hands = [
            net.get(
                f"{server.base}/api/games/{g['id']}/state",
                headers={"X-Seat-Token": seat_token(pages[s], g["id"])},
            ).json()["observation"]["hand"]
            for s in range(2)
        ]
        for s in range(2):
            shown = pages[s].locator('[data-testid="hand"] .card').count()
            assert shown == len(hands[s])
    finally:
        for ctx in contexts:
            ctx.close()


def seat_link(g: dict[str, Any], seat: int) -> str:
    """A link to a seat with the seat's own token (claimed by ``server.create``)."""
    return f"/game/{g['id']}#seat={seat}&token={g['seats'][seat]['token']}"


def seat_token(page: Page, gid: str) -> str:
    """The seat's own token, as the page keeps it (it claimed the invitation)."""
    token: str = page.evaluate(
        "id => JSON.parse(localStorage.getItem('civcards.seats')).find(e => e.id === id).token",
        gid,
    )
    return token


def table_text(page: Page) -> str:
    return "\n".join(
        page.inner_text(sel) for sel in ("#status", "#players", "#mine", '[data-testid="log"]')
    )


def test_reload_and_server_restart_resume_exactly(server: ServerProcess, context: Any) -> None:
    # the module's server, restarted here (its database and port kept: no server of its own)
    g = server.create(players=2, seats=[{"kind": "human", "name": "Ana"}, {"kind": "bot"}], seed=31)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(server.base + seat_link(g, 0))
    rng = random.Random(1)
    for _ in range(8):
        wait_turn(page, 0)
        click_a_move(page, rng, effect_rate=0.0)
    wait_turn(page, 0)
    before = table_text(page)
    n = moves(page)
    page.reload()
    page.wait_for_selector("#table[data-moves]")
    wait_turn(page, 0)
    assert moves(page) == n and table_text(page) == before
    server.restart(hard=True)
    page.reload()
    page.wait_for_selector("#table[data-moves]")
    wait_turn(page, 0)
    assert moves(page) == n and table_text(page) == before
    # the open page of a restarted server reconnects by itself and play goes on
    server.restart()
    page.wait_for_timeout(300)
    wait_turn(page, 0)
    click_a_move(page, rng)
    assert moves(page) > n
    shot(page, "after-restart")
    assert not errors, errors


def test_language_switch_and_browser_default(server: ServerProcess, browser: Any) -> None:
    g = server.create(players=2, seats=[{"kind": "human", "name": "Ana"}, {"kind": "bot"}], seed=40)
    ctx = browser.new_context(locale="fr-FR", viewport={"width": 1100, "height": 900})
    try:
        page = ctx.new_page()
        page.goto(server.base + seat_link(g, 0))
        page.wait_for_selector("#table[data-moves]")
        wait_turn(page, 0)
        assert "Art" in page.inner_text("#players")  # Culture is "Art" in French
        assert page.locator("html").get_attribute("lang") == "fr"
        page.select_option("#lang-select", "de")
        page.wait_for_function("() => document.documentElement.lang === 'de'")
        page.wait_for_function(
            "() => document.querySelector('[data-testid=turn]').innerText.includes('Du bist am Zug')"
        )
        text = page.inner_text("#players")
        assert "Wissenschaft" in text and "Militär" in text
        assert "Nimm Platz" in page.inner_text("#join")  # nothing left in French
        # the move log comes in the new language too (words from the server)
        page.wait_for_function(
            "() => !document.querySelector('[data-testid=log]') || !document.querySelector('[data-testid=log]').innerText.includes('End the turn')"
        )
        shot(page, "table-de")
        page.reload()
        page.wait_for_selector("#table[data-moves]")
        page.wait_for_function("() => document.documentElement.lang === 'de'")
        for code, word in (("es", "Ciencia"), ("pt", "Ciência"), ("en", "Science")):
            page.select_option("#lang-select", code)
            page.wait_for_function(f"() => document.documentElement.lang === '{code}'")
            assert word in page.inner_text("#players")
    finally:
        ctx.close()


def test_a_refused_move_is_explained_in_the_players_language(
    server: ServerProcess, browser: Any
) -> None:
    """A move that reaches the server late (stale) is refused in Spanish; nothing changes."""
    from civcards.server.i18n_web import catalogue

    g = server.create(players=2, seats=[{"kind": "human", "name": "Ana"}, {"kind": "bot"}], seed=41)
    ctx = browser.new_context(locale="es-ES", viewport={"width": 1100, "height": 900})
    try:
        page = ctx.new_page()
        page.goto(server.base + seat_link(g, 0))
        page.wait_for_selector("#table[data-moves]")
        wait_turn(page, 0)
        click_a_move(page, random.Random(1), effect_rate=0.0)
        wait_turn(page, 0)
        before = moves(page)
        assert before > 0
        state_before = net.get(f"{server.base}/api/games/{g['id']}").json()

        def late(route: Any) -> None:
            # as if the request had been sent for an older position
            body = route.request.post_data_json
            body["expected"] = body["expected"] - 1
            route.continue_(post_data=json.dumps(body))

        page.route("**/moves", late)
        page.locator("#mine button.playable, #actions button.end").first.click()
        want = catalogue("es")["web.err.stale"]
        page.wait_for_function("w => document.getElementById('error').textContent === w", arg=want)
        assert moves(page) == before
        assert net.get(f"{server.base}/api/games/{g['id']}").json() == state_before
        # once the request is on time again, the same click plays
        page.unroute("**/moves")
        page.locator("#mine button.playable, #actions button.end").first.click()
        wait_moved(page, before)
        assert page.inner_text("#error") == ""
    finally:
        ctx.close()


def test_keyboard_only_turn(server: ServerProcess, context: Any) -> None:
    g = server.create(players=2, seats=[{"kind": "human", "name": "Ana"}, {"kind": "bot"}], seed=52)
    page = context.new_page()
    page.goto(server.base + seat_link(g, 0))
    page.wait_for_selector("#table[data-moves]")
    wait_turn(page, 0)
    start = moves(page)
    # it is the seat's turn: the page has put the focus on the hand already
    page.wait_for_function(
        "() => (document.activeElement.getAttribute('aria-label') || '').startsWith('Play ')"
    )
    page.wait_for_timeout(300)  # no more frames are coming
    page.evaluate("document.activeElement.blur()")
    # back to the top with Shift+Tab: the skip link leads to the hand
    for _ in range(60):
        page.keyboard.press("Shift+Tab")
        if page.evaluate("document.activeElement.className") == "skip":
            break
    else:
        raise AssertionError("the skip link is not reachable")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.getAttribute('aria-label') || ''")
    assert focused.startswith("Play "), focused
    page.keyboard.press("Enter")
    wait_moved(page, start)
    # now phase 2: Tab to "End the turn" and press it
    for _ in range(40):
        if page.evaluate("document.activeElement.dataset.key") == "end":
            break
        page.keyboard.press("Tab")
    else:
        raise AssertionError("the end button is not reachable by Tab")
    n = moves(page)
    page.keyboard.press("Enter")
    wait_moved(page, n)
    wait_turn(page, 0)
    assert moves(page) >= start + 2
    shot(page, "keyboard-turn")


def test_hidden_choice_is_committed_before_the_cards_show(
    server: ServerProcess, context: Any
) -> None:
    rng = random.Random(6)
    found = None
    for seed in range(40):
        g = server.create(players=2, seats=[{"kind": "human"}, {"kind": "human"}], seed=300 + seed)
        tokens = [s["token"] for s in g["seats"]]
        found = find_hidden_choice(server, g["id"], tokens, rng)
        if found:
            break
    assert found
    tok, st = found
    seat = st["seat"]
    kind = next(o["text"] for o in st["options"] if o["hidden"]).split()[0]
    page = context.new_page()
    page.goto(f"{server.base}/game/{g['id']}#seat={seat}&token={tok}")
    wait_turn(page, seat)
    n = moves(page)
    page.click(f'#actions button.effect[data-kind="{kind}"]')
    # choose the target (Inquisition) until the commit step
    for _ in range(3):
        if page.locator('#actions button[data-key="commit"]').count():
            break
        page.locator("#actions button[data-tok]").first.click()
    assert "no going back" in page.inner_text("#actions")
    assert page.locator('[data-testid="reveal"]').count() == 0
    page.click('#actions button[data-key="cancel"]')  # cancel before the reveal
    assert page.locator("#actions button.effect").count()
    assert moves(page) == n
    page.click(f'#actions button.effect[data-kind="{kind}"]')
    for _ in range(3):
        if page.locator('#actions button[data-key="commit"]').count():
            break
        page.locator("#actions button[data-tok]").first.click()
    page.click('#actions button[data-key="commit"]')
    page.wait_for_selector('[data-testid="reveal"]')
    assert page.locator('#actions button[data-key="cancel"]').count() == 0
    shot(page, "hidden-choice-revealed")
    page.reload()  # the commitment survives a reload
    page.wait_for_selector('[data-testid="reveal"]')
    walk_effect(page, rng)
    assert moves(page) == n + 1


def test_draft_team_game_and_spectator_on_a_phone(server: ServerProcess, browser: Any) -> None:
    """A 4-player team game with the draft: keep and take by clicking; a spectator on a phone."""
    g = server.create(
        players=4,
        options={"deal": "draft", "teams": True},
        seats=[{"kind": "human", "name": "Ana"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}],
        seed=9,
    )
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(server.base + seat_link(g, 0))
        page.wait_for_selector("#table[data-moves]")
        rng = random.Random(2)
        kept = 0
        for _ in range(6):
            wait_turn(page, 0)
            if page.locator(
                '#mine button[data-move^="keep"], #mine button[data-move^="take"]'
            ).count():
                kept += 1
            click_a_move(page, rng, effect_rate=0.0)
        assert kept >= 3  # three keeps (and a take) in the draft
        assert "team A" in page.inner_text('[data-testid="player-0"]')
        watcher = phone.new_page()
        watcher.goto(f"{server.base}/game/{g['id']}#watch")
        watcher.wait_for_selector("#table[data-moves]")
        assert "watching" in watcher.inner_text("#status")
        assert watcher.locator("#mine").is_hidden()
        # nothing wider than the phone's screen
        width = watcher.evaluate("document.documentElement.scrollWidth")
        assert width <= 400, width
        shot(watcher, "spectator-phone")
        label = watcher.get_attribute('[data-testid="cell-0-M"]', "aria-label")
        assert label and label.startswith("Military:") and "cards" in label
        assert not errors, errors
    finally:
        ctx.close()
        phone.close()


def test_every_effect_offered_can_be_walked_to_a_legal_move(
    server: ServerProcess, browser: Any
) -> None:
    """For each kind of effect met in random games, the guided choices end in a legal move
    (checked against the server's options), and Cancel leaves the game as it was.

    The games are driven by their moves alone (one request each): the same game played
    here (``local``) says whose turn it is and what is offered, and where it offers a kind
    of effect not walked yet the server's options are fetched and must be the same."""
    rng = random.Random(11)
    covered: set[str] = set()
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    http = httpx.Client(base_url=server.base, timeout=20)
    try:
        pages: dict[str, Any] = {}
        for seed in range(30):
            g = server.create(players=2, seats=[{"kind": "human"}] * 2, seed=500 + seed)
            tokens = [s["token"] for s in g["seats"]]
            local = carta.new_game(2, seed=500 + seed)  # to let a greedy bot choose the moves
            civ = get_game("carta")
            bot = make_bot(civ, "greedy", seed)
            number = 0  # the moves made (the server's move number)
            for _ in range(250):
                if local.finished:
                    info = http.get(f"/api/games/{g['id']}").json()
                    assert info["status"] == "finished", info
                    break
                seat = local.to_move
                assert seat is not None
                choices = civ.choices(local)
                opts = [c.text for c in choices]
                kinds = {c.text.split()[0] for c in choices if c.final}
                new = kinds - covered - {"play", "keep", "take", "end"}
                if new:
                    st = http.get(
                        f"/api/games/{g['id']}/state",
                        headers={"X-Seat-Token": tokens[seat]},
                    ).json()
                    assert st["move_number"] == number, (st["move_number"], number)
                    assert [o["text"] for o in st["options"]] == opts, (st["options"], opts)
                    kind = sorted(new)[0]
                    key = f"{g['id']}:{seat}"
                    if key not in pages:
                        pages[key] = ctx.new_page()
                        pages[key].goto(server.base + seat_link(g, seat))
                    page = pages[key]
                    page.wait_for_function(
                        "n => document.querySelector('#table').dataset.moves === String(n)",
                        arg=st["move_number"],
                    )
                    page.click(f'#actions button.effect[data-kind="{kind}"]')
                    for _ in range(30):
                        confirm = page.locator('#actions button[data-key="confirm"]')
                        if confirm.count():
                            break
                        ok = page.locator('#actions button[data-key="picks-ok"]')
                        if ok.count() and rng.random() < 0.7:
                            ok.click()
                            continue
                        picks = page.locator(
                            '#actions button[data-key^="pick-"], #actions button[data-tok]'
                        )
                        assert picks.count(), page.inner_text("#actions")
                        picks.nth(rng.randrange(picks.count())).click()
                    move = confirm.first.get_attribute("data-send")
                    assert move in opts, (move, opts)
                    page.click('#actions button[data-key="cancel"]')
                    assert page.locator(f'#actions button.effect[data-kind="{kind}"]').count()
                    covered.add(kind)
                mv = bot_move(bot, civ, local)
                if mv not in opts:  # below a hidden step: commit to it first
                    words = mv.split()
                    prefix = " ".join(words[:2] if words[0] == "inquisition" else words[:1])
                    option = next(
                        c.text for c in choices if c.hidden and c.text.startswith(prefix + " ")
                    )
                    r = http.post(
                        f"/api/games/{g['id']}/moves",
                        json={"move": option, "expected": number},
                        headers={"X-Seat-Token": tokens[seat]},
                    )
                    assert r.status_code == 200, r.text
                local.apply(mv)
                r = http.post(
                    f"/api/games/{g['id']}/moves",
                    json={"move": mv, "expected": number},
                    headers={"X-Seat-Token": tokens[seat]},
                )
                assert r.status_code == 200, r.text
                number += 1
                if len(covered) >= 10:
                    break
            if len(covered) >= 10:
                break
    finally:
        http.close()
        ctx.close()
    assert len(covered) >= 8, covered
    print("effects walked:", sorted(covered))


@pytest.fixture(scope="module")
def toy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server that hosts the test-only game too (registered at start-up)."""
    s = ServerProcess(
        tmp_path_factory.mktemp("toy") / "toy.db",
        env={"CIVCARDS_EXTRA_GAMES": "tests.toygame:GAME"},
    )
    s.start()
    yield s
    s.stop()


def test_a_game_without_a_module_of_its_own_is_played_at_the_generic_table(
    toy_server: ServerProcess, context: Any
) -> None:
    """The test-only game brings no front-end module: the generic one shows its choices;
    a step that hides nothing opens (and can be left), a hidden one shows what it hides."""
    server = toy_server
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(server.base + "/")
    page.select_option("#game", "toy")
    assert page.locator("#opt-peek").is_checked()  # its bool option, as a checkbox
    page.select_option('select.seat-kind[data-seat="1"]', "bot:random")
    page.click("#create")
    page.wait_for_selector('[data-testid="play-mine"]')
    page.click('[data-testid="play-mine"]')
    page.wait_for_selector("#table[data-moves]")
    rng = random.Random(5)
    left_a_step = False
    for _ in range(200):
        page.wait_for_function(
            """() => { const t = document.querySelector('#table');
                return t.dataset.status === 'finished'
                    || (t.dataset.toMove === '0' && !!document.querySelector('#actions button')); }""",
            timeout=15000,
        )
        if finished(page):
            break
        before = moves(page)
        if not left_a_step and page.locator('#actions button.step[data-send="play"]').count():
            page.click('#actions button.step[data-send="play"]')
            page.wait_for_selector('#actions button[data-key="cancel"]')
            page.click('#actions button[data-key="cancel"]')
            left_a_step = True
            assert moves(page) == before
        for _ in range(4):  # down the steps to a move
            buttons = page.locator("#actions button:not([data-key=cancel])")
            buttons.nth(rng.randrange(buttons.count())).click()
            page.wait_for_timeout(100)
            if moves(page) > before or finished(page):
                break
        page.wait_for_function("n => Number(document.querySelector('#table').dataset.moves) > n",
                               arg=before, timeout=15000)  # fmt: skip
    else:
        raise AssertionError("the game did not end")
    page.wait_for_selector('[data-testid="winners"]')
    assert page.locator('[data-testid="scores"] tr').count() == 3
    assert left_a_step
    shot(page, "generic-table")
    assert not errors, errors
