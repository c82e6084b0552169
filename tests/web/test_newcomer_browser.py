"""What a newcomer meets at the civ4 table and in the lobby (issue 38, items 6 and 7), in
Debian's Chromium driven by Playwright against a real server:

* the guide says, per decision, what to do now and why, by the right control;
* a choice that is missing says why (population that costs more food than the supply);
* the plot's price has its unit; the defence button says when nothing is blocked, and the
  damage of the chosen blocks shows beside it;
* a move that ends the game with the mover behind asks first;
* no rule codes in labels and status lines; the lobby, the review's failure and the
  resources' letters in the reader's language (the no-English check of test_help_browser).

The late positions are reached fast: a random game found in-process (the same seed gives
the server the same deal), then its moves posted to the server, no browser play.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from civcards.analysis import parse_record
from civcards.game_api import get_game
from civcards.i18n import t

from . import net
from .conftest import ROOT, ServerProcess
from .test_browser import seat_link, watch_errors
from .test_rules_pages import ENGLISH, visible_words

sync_api = pytest.importorskip("playwright.sync_api")

Page = Any
LANGS = ("es", "de", "fr", "pt")
#: a rule's number as the rules cite it (C37, R24, RU3)
RULE_CODE = re.compile(r"\b(?:C|R|RU|Q)\d{1,2}\b")
#: the last technology ends the game at once (C68; finish_round off, as at 3 or 4 players)
OPTIONS = {"finish_round": False}
#: the analyses as quick as can be (this module checks the words, not the judgement)
ENV = {"CIVCARDS_ANALYSIS_BOT": "ismcts:1it", "CIVCARDS_HINT_BOT": "ismcts:1it"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    s = ServerProcess(tmp_path_factory.mktemp("newcomer") / "civ.db", env=ENV)
    s.start()
    yield s
    s.stop()


# -- a late civ4 position, found in-process and replayed on the server ------------------------


@dataclass
class Walk:
    """A random 2-player civ4 game of ``seed`` up to a position of interest."""

    seed: int
    #: (seat, steps, move) of every move made
    path: list[tuple[int, list[str], str]] = field(default_factory=list)
    state: Any = None


def random_walk(seed: int, stop: Any) -> Walk | None:
    """Random choices (steps expanded) from the deal of ``seed`` until ``stop(state)``."""
    game = get_game("civ4")
    st = game.new_state(2, game.check_options(2, OPTIONS), seed)
    rng = random.Random(seed)
    w = Walk(seed)
    while not st.finished:
        if stop(st):
            w.state = st
            return w
        seat = st.to_move
        steps: list[str] = []
        c = rng.choice(game.choices(st))
        while not c.final:
            steps.append(c.text)
            c = rng.choice(game.expand(st, c).choices)
        game.apply_choice(st, c)
        w.path.append((seat, steps, c.text))
    return None


def ends_behind(st: Any) -> list[str]:
    """The technologies seat 0 may buy now that end the game with seat 0 not winning (C68)."""
    game = get_game("civ4")
    if st.step != "purchase" or st.to_move != 0:
        return []
    out = []
    for c in game.choices(st):
        if c.final and c.text.startswith("tech "):
            cp = st.copy()
            game.apply_choice(cp, c)
            if cp.finished and 0 not in cp.winners:
                out.append(c.text)
    return out


def late_position(st: Any) -> bool:
    """Seat 0 buys: a technology would end the game with it behind, a population costs more
    food than it has, and a plot can be bought."""
    if not ends_behind(st):
        return False
    texts = {c.text for c in get_game("civ4").choices(st)}
    short = [
        n
        for n in range(1, len(st.plots[0]) + 1)
        if f"pop p{n}" not in texts and st.pop_cost(0, n) > st.supply[0][0]
    ]
    return bool(short) and st.pop_supply > 0 and any(x.startswith("plot ") for x in texts)


def defending(st: Any) -> bool:
    """Seat 0 defends and has a unit to block with."""
    return bool(st.step == "defend" and st.to_move == 0 and len(st.legal_strings()) > 1)


def find(stop: Any) -> Walk:
    for seed in range(1, 60):
        w = random_walk(seed, stop)
        if w is not None:
            return w
    raise AssertionError("no seed reaches the position")


def replay(server: ServerProcess, w: Walk) -> dict[str, Any]:
    """A civ4 game of two human seats on the server with ``w``'s moves made."""
    g = server.create(
        game="civ4",
        players=2,
        seats=[{"kind": "human"}, {"kind": "human"}],
        seed=w.seed,
        options=OPTIONS,
    )
    tokens = [s["token"] for s in g["seats"]]
    with httpx.Client(base_url=server.base, timeout=20) as client:
        for i, (seat, steps, move) in enumerate(w.path):
            r = client.post(
                f"/api/games/{g['id']}/moves",
                json={"move": move, "expected": i, "steps": steps},
                headers={"X-Seat-Token": tokens[seat]},
            )
            assert r.status_code == 200 and r.json()["applied"], (i, move, r.text)
    return g


def open_table(server: ServerProcess, browser: Any, g: dict[str, Any], lang: str = "en") -> Any:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale=lang)
    # a newcomer: the guide is on (no game finished in this browser)
    page = ctx.new_page()
    page.goto(server.base + seat_link(g, 0))
    page.wait_for_selector("#table[data-moves]")
    page.wait_for_function(
        "() => document.querySelector('#table').dataset.toMove === '0' "
        "&& !!document.querySelector('#actions button')"
    )
    return ctx, page


def guide(page: Page) -> dict[str, str]:
    page.wait_for_selector('[data-testid="guide-text"]')
    out: dict[str, str] = page.evaluate(
        """() => {
            const el = document.querySelector('.guide-target');
            return {key: el ? (el.dataset.key || '') : '',
                    text: document.querySelector('[data-testid=guide-text]').textContent};
        }"""
    )
    return out


@pytest.fixture(scope="module")
def late(server: ServerProcess) -> tuple[Walk, dict[str, Any]]:
    w = find(late_position)
    return w, replay(server, w)


def test_the_purchase_explains_itself(
    server: ServerProcess, browser: Any, late: tuple[Walk, dict[str, Any]]
) -> None:
    """C27, C26: population that costs more food than the supply holds says so where its
    button would be; the plot's price has its unit; the guide points at a purchase (not at
    the end of the purchases) and says what it is for, and in the payment, how to pay."""
    w, g = late
    st = w.state
    ctx, page = open_table(server, browser, g)
    try:
        errors = watch_errors(page)
        texts = {c.text for c in get_game("civ4").choices(st)}
        for n in range(1, len(st.plots[0]) + 1):
            if f"pop p{n}" in texts:
                continue
            why = page.locator(f'[data-testid="why-pop-{n}"]')
            cost, food = st.pop_cost(0, n), st.supply[0][0]
            assert why.inner_text() == t("en", "ccg.why.pop_cost", cost=cost, have=food)
        buy = page.locator('#mine button[data-key^="buy-plot-"]').first
        assert buy.inner_text().strip() == t("en", "ccg.web.buy_plot_btn", cost=st.plot_cost(0))
        # the guide: a purchase, by its control, in words of its own (never the end here,
        # never the technology that would lose the game)
        hint = guide(page)
        assert hint["key"] != "end" and hint["key"] not in {
            "buy-tech-" + m.split()[1] for m in ends_behind(st)
        }, hint
        kinds = ("tech", "build", "pop", "plot", "cash")
        said = {t("en", f"ccg.guide.purchase_{k}"): k for k in kinds}
        assert hint["text"] in said, hint
        # the payment of a plot: the guide says how to pay, at Pay
        buy.click()
        page.wait_for_selector('[data-testid="pay-sum"]')
        hint = guide(page)
        assert hint == {"key": "go-pay", "text": t("en", "ccg.guide.pay", cost=st.plot_cost(0))}
        assert not errors, errors
    finally:
        ctx.close()


def test_a_move_that_ends_the_game_behind_asks_first(
    server: ServerProcess, browser: Any, late: tuple[Walk, dict[str, Any]]
) -> None:
    """C68: buying the last technology ends the game at once; while the buyer is behind the
    table asks first (the engine's result of the move, from the server), and going back
    changes nothing."""
    w, g = late
    move = ends_behind(w.state)[0]
    cp = w.state.copy()
    get_game("civ4").play(cp, move)
    ctx, page = open_table(server, browser, g)
    try:
        errors = watch_errors(page)
        before = len(w.path)
        key = f'#mine button[data-key="buy-tech-{move.split()[1]}"]'
        page.click(key)
        warn = page.locator('[data-testid="ending-warning"]')
        warn.wait_for()
        leader = max(cp.scores[1:])[0] if cp.n > 1 else 0
        assert t(
            "en",
            "ccg.web.ending_warn",
            you=cp.scores[0][0],
            name=t("en", "web.seat_n", n=2),
            best=leader,
        ) in (warn.inner_text()), warn.inner_text()
        assert guide(page)["key"] == "cancel"
        page.click('#actions button[data-key="cancel"]')
        assert page.locator('[data-testid="ending-warning"]').count() == 0
        time.sleep(0.3)
        assert net.get(f"{server.base}/api/games/{g['id']}").json()["move_number"] == before
        # asked again, and confirmed: the game is over
        page.click(key)
        page.click('#actions button[data-key="go-ending"]')
        page.wait_for_selector('[data-testid="winners"]')
        assert not errors, errors
    finally:
        ctx.close()


def test_the_defence_says_what_it_blocks_and_what_it_costs(
    server: ServerProcess, browser: Any
) -> None:
    """C43, C45: blocking nothing reads so on the button, and the damage of the blocks chosen
    (the engine's, after the move) shows beside it; the guide explains the defence."""
    w = find(defending)
    g = replay(server, w)
    game = get_game("civ4")
    st = w.state

    def damage(move: str) -> tuple[int, int]:
        cp = st.copy()
        game.play(cp, move)
        if cp.combat is None:
            return 0, 0
        s, x = cp.damage_amounts(0)
        pop = sum(p[1] for p in cp.plots[0])
        built = sum(1 for _, _, on in cp.plots[0] for c in on if cp.cs.deck[c].kind == "building")
        return min(s, pop), min(x, built)

    ctx, page = open_table(server, browser, g)
    try:
        errors = watch_errors(page)
        hint = guide(page)
        assert hint == {"key": "go-defend", "text": t("en", "ccg.guide.defend")}, hint
        selects = page.locator("#actions select[data-defend]")
        for i in range(selects.count()):
            page.select_option(f'#actions select[data-defend="{i}"]', "")
        go = page.locator('#actions button[data-key="go-defend"]')
        assert go.inner_text().strip() == t("en", "ccg.web.block_none")
        s, x = damage("defend")
        said = page.inner_text('[data-testid="defend-damage"]')
        assert said == t("en", "ccg.web.damage_if", s=s, x=x), said
        # a block chosen: the button blocks, the damage follows the engine
        blocking = next(m for m in st.legal_strings() if m != "defend")
        b, a = blocking.split()[1].split(">")
        sel = page.locator("#actions select[data-defend]").nth(0)
        for i in range(selects.count()):
            opts = page.locator(f'#actions select[data-defend="{i}"] option').evaluate_all(
                "os => os.map(o => o.value)"
            )
            if b in opts:
                sel = page.locator(f'#actions select[data-defend="{i}"]')
                break
        sel.select_option(b)
        assert go.inner_text().strip() == t("en", "ccg.menu.defend")
        s, x = damage(f"defend {b}>{a}")
        said = page.inner_text('[data-testid="defend-damage"]')
        assert said == t("en", "ccg.web.damage_if", s=s, x=x), said
        assert not errors, errors
    finally:
        ctx.close()


# -- words: rule codes, the lobby, the review, the resources' letters ---------------------------


def status_text(page: Page) -> str:
    """What the reader sees of the table's status lines and its player panels (no tips)."""
    text: str = page.evaluate(
        "() => ['#status', '#players'].map(s => document.querySelector(s).innerText).join(' ')"
    )
    return text


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_the_lobby_in_the_readers_language_without_rule_codes(
    server: ServerProcess, browser: Any, lang: str
) -> None:
    """Every label of both games' options and their tips (the card set's too) in the
    reader's language; rule numbers only in the tips (the rules page has them)."""
    ctx = browser.new_context(locale=lang)
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.goto(server.base + "/")
        page.wait_for_selector("#game-options")
        for name in ("carta", "civ4"):
            page.select_option("#game", name)
            page.wait_for_selector("#game-options [data-opt]")
            labels = page.inner_text("#game-options")
            assert not RULE_CODE.findall(labels), (lang, labels)
            if lang == "en":
                continue
            tips = " ".join(
                page.locator("#game-options [title]").evaluate_all(
                    "els => els.map(e => e.getAttribute('title'))"
                )
            )
            shown = page.evaluate(
                """() => [...document.querySelectorAll('#game-options select option')]
                    .map(o => o.textContent).join(' ')"""
            )
            words = set(visible_words(f"{labels} {tips} {shown}"))
            leaks = words & (
                ENGLISH | {"game", "ends", "round", "card", "set", "technology", "removed"}
            )
            assert not leaks, f"English in the {lang} lobby ({name}): {sorted(leaks)}"
        assert not errors, errors
    finally:
        ctx.close()


def test_no_rule_codes_and_the_resources_letters_at_the_table(
    server: ServerProcess, browser: Any
) -> None:
    """The status lines carry no rule numbers, and the resources' letters (F/H/C in English)
    are the reader's language's, in the icons and the legend alike."""
    g = server.create(
        game="civ4", players=2, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}], seed=4
    )
    for lang in ("en", *LANGS):
        ctx = browser.new_context(locale=lang)
        try:
            page = ctx.new_page()
            errors = watch_errors(page)
            page.goto(server.base + seat_link(g, 0))
            page.wait_for_selector("#players .res svg text")
            page.evaluate("for (const d of document.querySelectorAll('details')) d.open = true")
            assert not RULE_CODE.findall(status_text(page)), (lang, status_text(page))
            letters = page.evaluate(
                """() => Object.fromEntries(['F', 'H', 'C'].map(r => [r, [...new Set(
                    [...document.querySelectorAll(`.res.r-${r} svg text`)].map(e => e.textContent))]]))"""
            )
            want = {r: t(lang, f"ccg.res_letter.{r}") for r in "FHC"}
            for r, seen in letters.items():
                assert seen in ([], [want[r]]), (lang, r, seen, want[r])
            assert any(letters.values())
            if lang in ("es", "fr", "pt"):
                assert want["F"] != "F" and want["C"] != "C", want
            assert not errors, errors
        finally:
            ctx.close()


def test_the_reviews_failure_in_the_readers_language(server: ServerProcess, browser: Any) -> None:
    """A failed analysis reads in the reader's language; the analysis's own sentence is kept
    as a technical detail (code), like the notation."""
    raw = (ROOT / "tests/data/notation-examples/hegemony-2p.json").read_text()
    # the review of a pasted record is named by its text (civcards/server/review.py)
    text = json.dumps(parse_record(raw)[1], sort_keys=True)
    gid = "r" + hashlib.sha256(text.encode()).hexdigest()[:23]
    # the failure as the analysis stores it (its English sentence), there before the record
    # is pasted: the paste then queues no analysis that could overwrite it
    with sqlite3.connect(server.db_path) as db:
        db.execute(
            "INSERT INTO analyses (id, record, status, done, total, bot, data, error, updated_at)"
            " VALUES (?, ?, 'failed', 0, 0, 'ismcts:1it', NULL, ?, ?)",
            (
                gid,
                text,
                "move 7 ('play 3M') is not among the seat's choices",
                "2026-01-01 00:00:00",
            ),
        )
    r = net.post(f"{server.base}/api/review", json={"record": json.loads(raw)}, timeout=20)
    assert r.status_code == 201 and r.json()["id"] == gid, r.text
    for lang in LANGS:
        ctx = browser.new_context(locale=lang)
        try:
            page = ctx.new_page()
            errors = watch_errors(page)
            page.goto(f"{server.base}/review/{gid}")
            page.wait_for_function(
                "() => (document.querySelector('#progress-text') || {}).textContent"
            )
            shown = page.evaluate(
                """() => {
                    const el = document.querySelector('#progress-text').cloneNode(true);
                    for (const c of el.querySelectorAll('code')) c.remove();
                    return el.innerText;
                }"""
            )
            assert shown.startswith(t(lang, "web.review.failed_plain")), (lang, shown)
            leaks = set(visible_words(shown)) & (ENGLISH | {"move", "among", "choices", "seat"})
            assert not leaks, (lang, shown)
            assert "is not among" in page.inner_text("#progress-text code")
            assert not errors, errors
        finally:
            ctx.close()
