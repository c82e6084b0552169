"""CIV's card faces and the objects as controls (issue 39): one face per domain (frame,
emblem, name, cost, effect line with labelled icons) that fits a desktop (1280x800) and a phone
(390x844) with nothing spilling out; the card reference on /rules turned into the same faces
(its words kept for screen readers); a card of the hand played by a click on its face; a
domain of the own play area that starts its effects.

The table's positions are the layout guard's recorded game (tests/web/positions.py).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from civcards.i18n import LANGS, t

from . import net
from .conftest import ServerProcess
from .layout import layout_problems
from .positions import Recorded, load, open_page, start

sync_api = pytest.importorskip("playwright.sync_api")

Page = Any
LETTERS = "MRESCU"
SIZES = [(1280, 800), (390, 844)]
#: where the screenshots go (for a person to look at)
SHOTS = Path(os.environ.get("CIVCARDS_SHOTS", "/tmp"))

#: what spills out of a face: its name, cost or effect line wider than the face, or out of it
FACE_PROBLEMS_JS = r"""
(sel) => {
  const out = [];
  for (const f of document.querySelectorAll(sel)) {
    const box = f.getBoundingClientRect();
    if (f.scrollWidth > f.clientWidth + 1) out.push(`${f.dataset.face}: ${f.scrollWidth} px in ${f.clientWidth}`);
    for (const part of f.querySelectorAll(".cface-name, .cface-cost, .cface-effect, .fx, .cface-emblem")) {
      const r = part.getBoundingClientRect();
      if (r.left < box.left - 1 || r.right > box.right + 1 || r.bottom > box.bottom + 1 || r.top < box.top - 1) {
        out.push(`${f.dataset.face}: ${part.className.baseVal ?? part.className} out of its face`);
      }
      if (r.width < 1 || r.height < 1) out.push(`${f.dataset.face}: ${part.className.baseVal ?? part.className} not drawn`);
    }
  }
  return out;
}
"""

#: every domain's face, drawn by faces.js into a box of the page (a game's thresholds)
DRAW_ALL_JS = r"""
async () => {
  const m = await import("/static/games/carta/faces.js");
  m.ensureStyle();
  const box = document.createElement("ul");
  box.id = "all-faces";
  box.className = "hand";
  box.innerHTML = [..."MRESCU"].map((l) => `<li class="card has-face d-${l}">${m.face(l, { thresholds: [3, 5, 7] })}</li>`).join("");
  document.querySelector("main").prepend(box);
  await new Promise((r) => { const l = document.querySelector("link[data-carta-css]"); if (l.sheet) r(); else l.onload = r; });
}
"""


def faces_of(page: Page, sel: str) -> list[dict[str, Any]]:
    """Each face's domain, name, cost (its label) and effect line (the icons' labels and words)."""
    return list(
        page.evaluate(
            """(sel) => [...document.querySelectorAll(sel)].map((f) => ({
              face: f.dataset.face,
              name: f.querySelector('.cface-name').textContent.trim(),
              cost: f.querySelector('.cface-cost').getAttribute('aria-label'),
              effect: [...f.querySelectorAll('.cface-effect .fx')].map((x) =>
                `${x.querySelector("svg").getAttribute("aria-label")}: ${x.lastElementChild.textContent.trim()}`),
            }))""",
            sel,
        )
    )


def expected_effects(lang: str, letter: str) -> list[str]:
    effects = {
        "M": ("assassination", "purge", "attack"),
        "R": ("holybook", "divineright", "inquisition"),
        "E": ("development", "monopoly", "embargo"),
        "S": ("experiment", "research", "discovery"),
        "U": ("oligarchy", "republic", "democracy"),
    }
    if letter == "C":
        return [f"{t(lang, 'ref.majority')}: {t(lang, 'effect.inspiration')}"]
    labels = [t(lang, "ref.level", n=1), t(lang, "ref.level", n=2), t(lang, "ref.discard")]
    return [f"{a}: {t(lang, f'effect.{k}')}" for a, k in zip(labels, effects[letter], strict=True)]


def test_every_domain_face_fits_both_sizes_in_five_languages(
    server: ServerProcess, browser: Any
) -> None:
    errors: list[str] = []
    for lang, (w, h) in [(lang, size) for lang in LANGS for size in SIZES]:
        ctx = browser.new_context(viewport={"width": w, "height": h}, locale="en-US")
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server.base}/rules/carta?lang={lang}")
        page.evaluate(DRAW_ALL_JS)
        got = faces_of(page, "#all-faces .cface")
        assert [f["face"] for f in got] == list(LETTERS)
        for f in got:
            d = f["face"]
            assert f["name"] == t(lang, f"domain.{d}")
            assert f["cost"] == t(lang, "ui.thresholds", l1=3, l2=5, heg=7)
            assert f["effect"] == expected_effects(lang, d)
        assert page.evaluate(FACE_PROBLEMS_JS, "#all-faces .cface") == []
        assert layout_problems(page, "#all-faces") == []
        page.locator("#all-faces").screenshot(path=str(SHOTS / f"carta-faces-{lang}-{w}.png"))
        assert errors == []
        ctx.close()


def test_the_reference_entries_become_faces(server: ServerProcess, browser: Any) -> None:
    """/rules/carta draws its domains as the table's faces (the page's hook calls faces.js's
    upgradeReference); the entries' words stay for screen readers; the other entries (effects,
    markers) stay as they were. upgradeReference itself, on entries built here: each [data-card]
    of a domain becomes its face, once."""
    for w, h in SIZES:
        ctx = browser.new_context(viewport={"width": w, "height": h}, locale="en-US")
        page = ctx.new_page()
        page.goto(f"{server.base}/rules/carta?lang=fr")
        page.wait_for_selector('#cards[data-faced="1"]')
        page.wait_for_function("() => !!document.querySelector('link[data-carta-css]')?.sheet")
        got = faces_of(page, ".ref-card > .cface")
        assert [f["face"] for f in got] == list(LETTERS)
        for f in got:
            assert f["name"] == t("fr", f"domain.{f['face']}")
            assert f["effect"] == expected_effects("fr", f["face"])
        # the words stay, for screen readers; the face is their picture
        words = page.evaluate(
            """() => [...document.querySelectorAll('.ref-card.has-face')].map((el) => [
              el.querySelector(':scope > .cface').getAttribute('aria-hidden'),
              el.querySelector('dt').className, el.querySelector('dt').textContent.trim()])"""
        )
        assert all(hidden == "true" and "sr-only" in cls for hidden, cls, _ in words)
        assert [name.split()[0] for _, _, name in words] == [
            t("fr", f"domain.{d}").split()[0] for d in LETTERS
        ]
        # the effects and markers stay words
        assert page.locator(".ref-card:not(.has-face) dd:not(.sr-only)").count() >= 15
        assert page.evaluate(FACE_PROBLEMS_JS, ".ref-card > .cface") == []
        assert layout_problems(page, "#cards") == []
        page.locator("#cards .ref-cards").first.screenshot(
            path=str(SHOTS / f"carta-reference-{w}.png")
        )
        # upgradeReference on entries of its own: the domains become faces, once; others stay
        built = page.evaluate(
            """async () => {
              const m = await import('/static/games/carta/faces.js');
              const dl = document.createElement('dl');
              dl.id = 'built';
              dl.innerHTML = [..."MRESCU", "attack"].map((c) =>
                `<div class="ref-card" data-card="${c}"><dt>${c}</dt><dd>text of ${c}</dd></div>`).join('');
              document.querySelector('#cards').append(dl);
              return [m.upgradeReference(dl), m.upgradeReference(dl),
                [...dl.children].map((el) => [el.dataset.card, el.querySelectorAll('.cface').length,
                  el.querySelector('dd').classList.contains('sr-only')])];
            }"""
        )
        assert built[:2] == [6, 0]
        assert built[2] == [[c, 1, True] for c in LETTERS] + [["attack", 0, False]]
        ctx.close()


def open_at(browser: Any, rec: Recorded, seat: int, moves: int, size: tuple[int, int]) -> Page:
    page = open_page(browser, rec, seat, moves, size, to_move=True)
    page.wait_for_function("() => !!document.querySelector('link[data-carta-css]')?.sheet")
    return page


def count_in_area(page: Page, seat: int, letter: str) -> int:
    return int(page.inner_text(f'[data-testid="cell-{seat}-{letter}"] .count').split("L")[0])


def test_a_card_of_the_hand_is_played_by_a_click_on_its_face(
    server: ServerProcess, browser: Any
) -> None:
    rec = start(server.base, load("carta-draft-4p"))
    at = rec.record["positions"]["play"]
    moves, seat = int(at["moves"]), int(at["seat"])
    rec.advance(moves)
    for size in SIZES:
        page = open_at(browser, rec, seat, moves, size)
        # the hand's cards are faces: the name, the game's thresholds, the effects
        got = faces_of(page, "#mine .hand .cface")
        assert got and all(f["cost"] == t("en", "ui.thresholds", l1=2, l2=4, heg=7) for f in got)
        assert page.evaluate(FACE_PROBLEMS_JS, "#mine .cface") == []
        assert layout_problems(page) == []
        page.screenshot(path=str(SHOTS / f"carta-table-play-{size[0]}.png"))
        if size != SIZES[-1]:
            page.context.close()
    # a domain's track shows the domain's face in its tip, above the tip's words
    other = (seat + 1) % 4
    page.click("#tab-players")  # (on the phone the boards are a tab away)
    page.locator(f'[data-testid="cell-{other}-R"] .cell-head').hover()
    page.wait_for_selector("#tip .cface")
    assert page.get_attribute("#tip .cface", "data-face") == "R"
    words = t(
        "en",
        "ref.domain",
        **{
            k: t("en", f"effect.{e}")
            for k, e in (("l1", "holybook"), ("l2", "divineright"), ("disc", "inquisition"))
        },
    )
    assert (
        page.inner_text("#tip")
        .strip()
        .endswith(t("en", "web.tip.card", domain="Religion", effects=words))
    )
    page.mouse.move(0, 0)
    page.click("#tab-mine")
    card = page.locator("#mine button.playable").first
    letter = (card.get_attribute("data-move") or "").split()[1]
    before = count_in_area(page, seat, letter)
    card.locator(".cface-emblem").click()
    page.wait_for_function(
        "n => Number(document.querySelector('#table').dataset.moves) > n", arg=moves
    )
    assert count_in_area(page, seat, letter) == before + 1
    assert page.errors == []
    page.context.close()


def test_a_domain_of_the_own_play_area_starts_its_effects(
    server: ServerProcess, browser: Any
) -> None:
    """At a position with several effects, the own domains that have effects to use are
    controls: one with a single effect starts its walk; one with several marks them in the
    action bar (the buttons stay for the keyboard)."""
    rec = start(server.base, load("carta-draft-4p"))
    at = rec.record["positions"]["effects"]
    moves, seat = int(at["moves"]), int(at["seat"])
    rec.advance(moves)
    page = open_at(browser, rec, seat, moves, (1280, 800))
    kinds = page.evaluate(
        "() => [...document.querySelectorAll('#actions button.effect')].map((b) => b.dataset.kind)"
    )
    assert len(kinds) >= 3
    acts = page.locator(f'[data-testid="player-{seat}"] button.cell-act')
    domains = [acts.nth(i).get_attribute("data-domain") for i in range(acts.count())]
    assert domains, "no domain of the own play area starts an effect"
    # only the own board's domains, and only those with an effect to use now
    assert page.locator("#players button.cell-act").count() == len(domains)
    page.screenshot(path=str(SHOTS / "carta-table-effects-1280.png"))
    by_domain = page.evaluate(
        """(ds) => Object.fromEntries(ds.map((d) => [d,
          [...document.querySelectorAll('#actions button.effect')].filter((b) =>
            (b.querySelector('.tag svg')?.getAttribute('class') || '').includes('d-' + d)).length]))""",
        domains,
    )
    assert all(n >= 1 for n in by_domain.values()), by_domain
    several = [d for d, n in by_domain.items() if n > 1]
    if several:
        page.locator(
            f'[data-testid="player-{seat}"] button.cell-act[data-domain="{several[0]}"]'
        ).click()
        chosen = page.locator("#actions button.effect.chosen")
        assert chosen.count() == by_domain[several[0]]
        assert page.evaluate("() => document.activeElement.classList.contains('chosen')")
    one = next(d for d, n in by_domain.items() if n == 1) if 1 in by_domain.values() else None
    if one:
        page.locator(f'[data-testid="player-{seat}"] button.cell-act[data-domain="{one}"]').click()
        page.wait_for_selector(
            '#actions button[data-key="cancel"], #actions button[data-key="confirm"]'
        )
        page.screenshot(path=str(SHOTS / "carta-table-walk-1280.png"))
    assert several or one
    assert page.errors == []
    page.context.close()


#: the answers of carta.js's cue(table) to a seat's views, one after the other (the module
#: of a page of its own: the table's shell would call it so as each view comes)
CUES_JS = r"""
async ([views, gid]) => {
  const m = await import("/static/games/carta/carta.js");
  return views.map((view) => {
    const table = { view, gameId: gid, name: (s) => `seat ${s}`, myTurn: () => false, render() {}, send() {} };
    m.onView(table, true);
    return [m.cue(table), m.cue(table)];
  });
}
"""


def seat_view(rec: Recorded, seat: int) -> dict[str, Any]:
    r = net.get(
        f"{rec.base}/api/games/{rec.gid}/state", headers={"X-Seat-Token": rec.tokens[seat]}
    )
    assert r.status_code == 200, r.text
    return dict(r.json())


def cues(browser: Any, server: ServerProcess, rec: Recorded, views: list[dict[str, Any]]) -> Any:
    ctx = browser.new_context(locale="en-US")
    page = ctx.new_page()
    page.goto(f"{server.base}/rules/carta")
    out = page.evaluate(CUES_JS, [views, rec.gid])
    ctx.close()
    return out


def test_cue_tells_a_seat_when_an_opponent_hurts_it(server: ServerProcess, browser: Any) -> None:
    """cue(table) is "attacked" once, at the position where an opponent's move hurts the seat
    (an Embargo on one of its domains, R17; an Attack that took one of its cards, R15), never at
    the position the page opened at, and null for a teammate's move or one that spares it."""
    rec = start(server.base, load("carta-draft-4p"))
    moves = [m["path"][-1][1] for m in rec.record["moves"]]
    # the first Embargo, and the first Attack, made by an opponent of some seat (teams: s % 2)
    embargo = next(i for i, m in enumerate(moves) if m.startswith("embargo "))
    attack = next(i for i, m in enumerate(moves) if m.startswith("attack ") and i > embargo)
    by = int(rec.record["moves"][embargo]["seat"])
    target = int(moves[embargo].split()[1])
    assert target % 2 != by % 2
    mate = (by + 2) % 4
    rec.advance(embargo)
    before = {s: seat_view(rec, s) for s in (target, mate)}
    rec.advance(embargo + 1)
    after = {s: seat_view(rec, s) for s in (target, mate)}
    assert cues(browser, server, rec, [before[target], after[target]]) == [
        [None, None],  # the page opened here: no cue for what was there before
        ["attacked", None],  # once
    ]
    assert cues(browser, server, rec, [before[mate], after[mate]]) == [[None, None]] * 2
    # an Attack: the opponents that had a card of its domain lose one (R15)
    rec.advance(attack)
    attacker = int(rec.record["moves"][attack]["seat"])
    domain = moves[attack].split()[1]
    opponents = [s for s in range(4) if s % 2 != attacker % 2]
    before = {s: seat_view(rec, s) for s in opponents}
    rec.advance(attack + 1)
    after = {s: seat_view(rec, s) for s in opponents}
    for s in opponents:
        had = before[s]["observation"]["areas"][s].count(domain)
        want = "attacked" if had else None
        assert cues(browser, server, rec, [before[s], after[s]])[1][0] == want, (s, had)


def test_a_seats_board_answers_the_effect_that_asks_for_a_seat(
    server: ServerProcess, browser: Any
) -> None:
    """Inquisition asks for a seat (R16): the boards of the seats it may name are targets, and a
    click on one of them is that seat's button (the walk goes on to the step that shows its hand)."""
    rec = start(server.base, load("carta-draft-4p"))
    moves = [m["path"][-1][1] for m in rec.record["moves"]]
    at = next(i for i, m in enumerate(moves) if m.startswith("inquisition "))
    seat = int(rec.record["moves"][at]["seat"])
    target = int(moves[at].split()[1])
    rec.advance(at)
    page = open_at(browser, rec, seat, at, (1280, 800))
    page.locator('#actions button.effect[data-kind="inquisition"]').click()
    page.wait_for_selector("#players .player.target")
    targets = page.evaluate(
        "() => [...document.querySelectorAll('#players .player.target')].map((p) => p.dataset.pickSeat)"
    )
    offered = page.evaluate(
        "() => [...document.querySelectorAll('#actions button[data-tok]')].map((b) => b.dataset.tok)"
    )
    assert targets == offered and str(target) in targets and str(seat) not in targets
    page.locator(f'[data-testid="player-{target}"] h3').click()
    page.wait_for_selector('#actions button[data-key="commit"]')
    assert page.locator("#players .player.target").count() == 0
    assert page.errors == []
    page.context.close()
