"""civ4's cards as cards (issue 39): one face per card (static/faces.js) on the table and in the
card reference of /rules, with the numbers of the game's own card set; plots as tiles with
their population tokens and the cards built on them (C18); an attack composed on the objects
(the units clicked, then the empire attacked) reaching the same move as the panel's buttons,
and a defence showing the attacking units and the damage of each choice (C41-C45).

The table's positions are the layout guard's recorded game (tests/web/positions.py).
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest

from civcards.civ4.cards import card_set
from civcards.civ4.options import DEFAULT_CARD_SET
from civcards.game_api import all_games
from civcards.games.civ4.text import card_name
from civcards.i18n import LANGS, t
from civcards.server.kinds import web_assets

from . import net
from .conftest import ServerProcess
from .layout import layout_problems
from .positions import Recorded, load, open_page, start

sync_api = pytest.importorskip("playwright.sync_api")

Page = Any
KINDS = ("building", "wonder", "unit", "tech", "plot")


def open_seat(browser: Any, rec: Recorded, seat: int, moves: int, size: tuple[int, int]) -> Page:
    """A page of ``seat`` at the position after ``moves`` moves, at ``size``."""
    return open_page(browser, rec, seat, moves, size, to_move=False)


def face_facts(page: Page, root: str) -> list[dict[str, Any]]:
    """Every face under ``root``: its kind, code, name, cost's text, and whether it shows
    printed resources or effect icons."""
    facts: list[dict[str, Any]] = page.evaluate(
        """(root) => [...document.querySelectorAll(`${root} .face`)].map((f) => ({
          kind: [...f.classList].find((c) => c.startsWith('k-')).slice(2),
          code: f.dataset.card,
          name: f.querySelector('.f-name').textContent.trim(),
          cost: (f.querySelector('.f-cost') || {textContent: ''}).textContent.replace(/\\s+/g, ' '),
          res: !!f.querySelector('.f-res .res'),
          fx: f.querySelectorAll('.f-fx .fx').length,
          fxWords: [...f.querySelectorAll('.f-fx .fx .sr-only')].map((s) => s.textContent),
        }))""",
        root,
    )
    return facts


def check_faces(facts: list[dict[str, Any]], cards: str) -> None:
    """Each face names its card, shows its cost (a building's, wonder's or technology's, as
    card set ``cards`` prints it) and what it gives (printed resources or effect icons, each
    icon with its words)."""
    cs = card_set(cards)
    for f in facts:
        assert f["name"].startswith(card_name(f["code"], "en")), f
        if f["kind"] in ("building", "wonder", "tech"):
            printed = (cs.techs.get(f["code"]) or cs.deck[f["code"]]).cost
            assert str(printed) in f["cost"], f
        assert f["res"] or f["fx"], f
        assert all(w.strip() for w in f["fxWords"]), f


def test_the_rules_page_loads_a_games_faces_only_where_it_has_them(server: ServerProcess) -> None:
    """The hook is generic: a game whose front-end files hold faces.js gets its module named
    on its rules page, any other none (its reference stays text); civ4's reference cards carry
    their codes and their faces' data, with the numbers of the set the page is opened for."""
    for game in all_games():
        page = net.get(f"{server.base}/rules/{game.name}?lang=en", timeout=20).text
        folder = web_assets(game)
        has = folder is not None and (Path(folder) / "faces.js").is_file()
        assert (f'data-faces="/static/games/{game.name}/faces.js"' in page) == has, game.name
        assert ('src="/static/rules.js"' in page) == has, game.name
    costs = {}
    for cards in ("reconstructed-1", "reconstructed-3"):
        page = net.get(
            f"{server.base}/rules/civ4?lang=en&option=cards%3D{cards}", timeout=20
        ).text
        faces = {
            code: json.loads(html.unescape(face))
            for code, face in re.findall(r'data-card="(\w+)" data-face=\'([^\']*)\'', page)
        }
        cs = card_set(cards)
        assert faces.keys() == {*cs.plots, *cs.techs, *cs.deck}
        costs[cards] = faces["AGR"]["cost"]
        assert costs[cards] == cs.techs["AGR"].cost
    assert costs["reconstructed-1"] != costs["reconstructed-3"]


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_the_reference_draws_every_card_with_the_tables_face(
    server: ServerProcess, browser: Any, size: tuple[int, int]
) -> None:
    """Every reference card of reconstructed-1 gets its face (every kind: name, the set's
    cost, what it gives), nothing overflowing at a desktop's and a phone's size."""
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="en-US")
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server.base}/rules/civ4?lang=en&option=cards%3Dreconstructed-1")
        page.wait_for_selector('#cards[data-faced="1"]')
        assert page.locator("#cards .ref-card .face").count() == page.locator(".ref-card").count()
        facts = face_facts(page, "#cards")
        assert {f["kind"] for f in facts} == set(KINDS)
        check_faces(facts, "reconstructed-1")
        assert layout_problems(page, "#cards") == []
        assert errors == []
    finally:
        ctx.close()


def test_the_table_draws_its_cards_as_faces_and_plots_as_tiles(
    server: ServerProcess, browser: Any
) -> None:
    """At a recorded position after a build: the hand and the markets are faces (name, cost,
    what each gives), the built card is a face on its plot's tile (C18: one of its at most 2
    slots), the plot's population its tokens; the reconstructed card set marked once on the
    table, not on every card; nothing overflows."""
    rec = start(server.base, load("civ4-2p"))
    moves = rec.record["moves"]
    n, built = next(
        (i + 1, m) for i, m in enumerate(moves) if m["path"][-1][1].startswith("build ")
    )
    _, code, plot = built["path"][-1][1].split()[:3]
    seat = int(built["seat"])
    rec.advance(n)
    page = open_seat(browser, rec, seat, n, (1280, 800))
    try:
        check_faces(face_facts(page, "#mine"), rec.record["options"].get("cards", DEFAULT_CARD_SET))
        kinds = {f["kind"] for f in face_facts(page, "#mine")}
        assert {"plot", "tech"} <= kinds, kinds
        tile = page.locator(f'[data-testid="plot-{seat}-{plot[1:]}"]')
        on = tile.locator(f'[data-testid="built-{seat}-{plot[1:]}-{code}"] .face .f-name')
        assert on.inner_text().strip() == card_name(code, "en")
        assert 1 <= tile.locator(".slots > li.slot").count() <= 2  # C18
        tokens = tile.locator('[data-testid^="tokens-"]')
        pop = int(tokens.get_attribute("data-n") or "-1")
        assert pop >= 0
        shown = tokens.locator("svg").count()
        assert shown == pop if pop <= 5 else shown == 1
        assert page.locator("#table .c4-note").count() == 1  # the table's one mark
        reconstructed = t("en", "ccg.reconstructed")
        assert reconstructed in page.inner_text('[data-testid="reconstructed"]')
        assert not any(reconstructed in x for x in page.locator(".face").all_inner_texts())
        assert layout_problems(page) == []
        assert page.errors == []
    finally:
        page.context.close()


def test_an_attack_clicked_on_the_objects_is_the_buttons_move(
    server: ServerProcess, browser: Any
) -> None:
    """C41, C40: the units chosen on the hand, then the neighbour's board clicked, compose the
    same move as the panel's counters, and the server takes it; the defender then sees the
    attacking unit's face and, in each choice of blocker (C43), the damage it would take
    (C45)."""
    rec = start(server.base, load("civ4-2p"))
    at = rec.record["positions"]["purchase-attack"]
    moves, seat = int(at["moves"]), int(at["seat"])
    rec.advance(moves)
    page = open_seat(browser, rec, seat, moves, (1280, 800))
    try:
        page.locator('#actions button[data-key="attack"]').click()
        unit = page.locator("#mine li.ccard:has(> button[data-pick])").first
        code = unit.locator("button[data-pick]").get_attribute("data-pick")
        go = page.locator('#actions button[data-key="go-attack"]')
        assert not go.is_enabled()
        unit.locator(".f-name").click()  # the card itself, not its button
        target = page.locator("#players article.targetable").first
        victim = int((target.get_attribute("data-testid") or "").split("-")[1])
        target.locator("h3").click()
        clicked = go.get_attribute("data-move")
        assert clicked and clicked.startswith("attack "), clicked
        page.locator('#actions button[data-key="cancel"]').click()
        page.locator('#actions button[data-key="attack"]').click()
        page.locator(f'#actions button[data-key="inc-attack.{victim}.{code}"]').click()
        assert go.get_attribute("data-move") == clicked
        go.click()
        page.wait_for_function(
            "n => Number(document.querySelector('#table').dataset.moves) > n", arg=moves
        )
        assert page.errors == []
    finally:
        page.context.close()
    # the defender: the attacking unit's face, the damage of each choice
    page = open_seat(browser, rec, victim, moves + 1, (1280, 800))
    try:
        page.wait_for_selector('[data-testid="defend-0"]')
        assert page.locator('[data-testid="attacker-0"] .face.k-unit').count() == 1
        options = page.locator('[data-testid="defend-0"] option').all_inner_texts()
        words = t("en", "ccg.web.damage_short", s=0, x=0).split("0")[0]
        assert options and all(words in o for o in options), options
        # the module's cue: this seat is attacked, and the shell sounds it (sounds on)
        assert page.evaluate("document.documentElement.dataset.soundAttack") is None
        page.locator('[data-testid="sound-toggle"]').click()
        page.reload()
        page.wait_for_selector('[data-testid="defend-0"]')
        page.wait_for_function("document.documentElement.dataset.soundAttack === '1'")
        assert page.errors == []
    finally:
        page.context.close()


def test_the_longest_card_names_stay_in_their_cards_on_a_phone(
    server: ServerProcess, browser: Any
) -> None:
    """A card's name is never broken inside a word, so the longest word of any language's
    card names must fit a market card at a phone's size: German's Bronzeverarbeitung once
    spilt out of its card (the layout guard's German game with another deal). Each
    technology of the market is drawn again by the table's own faces.js with the longest
    name of the five languages, and the hand and markets must lay out."""
    names = [card_name(c, lang) for c in card_set(DEFAULT_CARD_SET).deck for lang in LANGS]
    names += [card_name(c, lang) for c in card_set(DEFAULT_CARD_SET).techs for lang in LANGS]
    longest = max(names, key=lambda n: max(len(w) for w in n.split()))
    rec = start(server.base, load("civ4-2p"))
    # a collect of seat 0's: the markets are on its table
    n = next(
        i
        for i, m in enumerate(rec.record["moves"])
        if int(m["seat"]) == 0 and m["path"][-1][1].startswith("collect")
    )
    rec.advance(n)
    page = open_seat(browser, rec, 0, n, (390, 844))
    try:
        if page.locator("#tab-mine").count():
            page.click("#tab-mine")
        drawn = page.evaluate(
            """async (name) => {
              const { face } = await import('/static/games/civ4/faces.js');
              const lis = [...document.querySelectorAll('[data-testid^="market-tech-"]')];
              for (const li of lis) {
                const old = li.querySelector('.face');
                const card = { kind: 'tech', code: old.dataset.card, name, cost: 3,
                               res: [0, 0, 1], fx: [], help: name };
                old.outerHTML = face(card, { now: 3, text: true });
              }
              return lis.length;
            }""",
            longest,
        )
        assert drawn > 0
        assert layout_problems(page) == [], longest
    finally:
        page.context.close()
