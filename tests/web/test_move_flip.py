"""Every move seen (issue 39): a card the move carries from one place to another glides there
(static/flip.js, at most 400 ms), and nothing moves when the reader prefers less motion. A
recorded civ4 game (tests/data/layout/civ4-2p.json) is brought to the move before its first
build, the table opened as the builder, and the build made: the animations running as the new
position is drawn are recorded by the page itself (a mutation observer on data-moves, which
runs right after the shell's render)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import ServerProcess
from .positions import load, start

pytest.importorskip("playwright.sync_api")

#: each new position: the cards and tokens gliding to it (the testid of their place, duration)
RECORD_FLIPS = """
window.__flips = [];
document.addEventListener('DOMContentLoaded', () => {
  const root = document.getElementById('table');
  new MutationObserver(() => {
    const running = document.getAnimations().filter((a) => a.id === 'flip').map((a) => {
      const el = a.effect.target;
      const at = el.isConnected ? el.closest('[data-testid]') : null;
      return [at ? at.dataset.testid : '', el.dataset.card || '', a.effect.getTiming().duration];
    });
    window.__flips.push([Number(root.dataset.moves), running]);
  }).observe(root, { attributes: true, attributeFilter: ['data-moves'] });
});
"""


def first_build(record: dict[str, Any]) -> tuple[int, int, str, str]:
    """The first move of the record that builds a card from the hand on a plot: its index,
    its seat, the card's code and the plot (``build MNM p5``: "MNM", "5")."""
    for i, m in enumerate(record["moves"]):
        text = m["path"][-1][1]
        if text.startswith("build "):
            _, code, plot = text.split()[:3]
            return i, int(m["seat"]), code, plot.removeprefix("p")
    raise AssertionError("the recorded game builds nothing: choose its seeds again")


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_built_card_glides_from_the_hand_unless_less_motion(
    server: ServerProcess, browser: Any, motion: str
) -> None:
    rec = start(server.base, load("civ4-2p"))
    at, seat, code, plot = first_build(rec.record)
    rec.advance(at)
    ctx = browser.new_context(
        viewport={"width": 1280, "height": 800}, locale="en-US", pace=300, reduced_motion=motion
    )
    try:
        page = ctx.new_page()
        page.add_init_script(RECORD_FLIPS)
        page.goto(rec.link(seat))
        page.wait_for_function(
            "n => document.getElementById('table').dataset.moves === n", arg=str(at)
        )
        assert page.locator(f'[data-testid="hand-{code}"] [data-card="{code}"]').count() == 1
        rec.advance(at + 1)  # the build, by the seat viewing (its own move: shown at once)
        built = f"built-{seat}-{plot}-{code}"
        page.wait_for_selector(f'[data-testid="{built}"]', timeout=10000)
        flips = dict(page.evaluate("window.__flips"))
        running = flips[at + 1]
        if motion == "reduce":
            assert running == [], running
        else:
            assert [built, code] in [r[:2] for r in running], running
            assert all(0 < r[2] <= 400 for r in running), running
            # the seat's turn ends and it draws: a drawn card is new to the page, nothing glides
            # it from a plot where the same card stands unchanged (this game draws the built
            # card's code again then)
            end = next(
                j
                for j, m in enumerate(rec.record["moves"])
                if j > at and int(m["seat"]) == seat and m["path"][-1][1] == "end"
            )
            rec.advance(end + 1)
            page.wait_for_function(
                "n => document.getElementById('table').dataset.moves === n", arg=str(end + 1)
            )
            drawn = dict(page.evaluate("window.__flips"))[end + 1]
            assert [f"hand-{code}", code] not in [r[:2] for r in drawn], drawn
            # the shell's render time stays small with the snapshot and the animations
            assert float(page.evaluate("document.getElementById('table').dataset.renderMs")) < 200
    finally:
        ctx.close()
