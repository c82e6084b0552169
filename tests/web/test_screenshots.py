"""Screenshot baselines (issue 39): each key state of each game's table (tests/web/screens.py
names them: civ4's draft, first turn, attack, defence, payment and end; CIV's start, draft,
turn and end; one of each on a phone) is taken again in Debian's Chromium and compared with
its baseline in tests/data/screenshots/, with a tolerance (:func:`screens.compare`) that
forgives another Chromium build's antialiasing but not a panel moved, grown or missing.

A failure leaves ``test-artifacts/screenshot-<name>-actual.png`` (what was seen, full size)
and ``-diff.png`` (the differing blocks in red). When the change is meant: ``make
screenshots``, look at the PNGs, commit them (a baseline's change is a reviewed commit).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import ARTIFACTS, ServerProcess
from .screens import (
    ARGS,
    BASELINES,
    CHROMIUM,
    SHOTS,
    UPDATE,
    Studio,
    compare,
    diff_image,
    encode_png,
    font_problem,
    settle,
    take,
)

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def studio(server: ServerProcess) -> Iterator[Studio]:
    """The shots' games on the module's server, and Chromium as scripts/screenshots.py
    launches it."""
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        s = Studio(browser, server.base)
        yield s
        s.close()
        browser.close()


def test_every_key_state_matches_its_baseline(studio: Studio) -> None:
    font = font_problem(studio.scratch)
    assert not font, font
    problems = []
    names = {f"{s.name}.png" for s in SHOTS}
    stale = sorted(p.name for p in BASELINES.glob("*.png") if p.name not in names)
    assert not stale, f"baselines of no state in screens.SHOTS: {stale} (delete them)"
    for shot in SHOTS:
        baseline = BASELINES / f"{shot.name}.png"
        if not baseline.exists():
            problems.append(f"{shot.name}: no baseline {baseline.relative_to(ARTIFACTS.parent)}")
            continue
        png = studio.shoot(shot)
        actual = studio.small(png, shot.size)
        diff = compare(studio.pixels(baseline.read_bytes()), actual)
        if diff.problem:
            ARTIFACTS.mkdir(exist_ok=True)
            (ARTIFACTS / f"screenshot-{shot.name}-actual.png").write_bytes(png)
            (ARTIFACTS / f"screenshot-{shot.name}-diff.png").write_bytes(
                encode_png(diff_image(actual, diff))
            )
            problems.append(
                f"{shot.name} ({shot.caption}): {diff.problem}; see "
                f"test-artifacts/screenshot-{shot.name}-actual.png and -diff.png"
            )
    assert not problems, "\n".join(problems) + f"\n{UPDATE}"


def shot_named(name: str) -> Any:
    return next(s for s in SHOTS if s.name == name)


def test_the_comparison_forgives_a_pixel_and_fails_a_grown_or_missing_panel(
    studio: Studio,
) -> None:
    """The comparator on one state (CIV's start, no moves to make), its page taken with a
    style added and taken away: shifted by a pixel it passes; a panel grown by 60 px or a
    region gone fails."""
    shot = shot_named("carta-start")
    page = studio.page(shot)

    def seen(style: str = "") -> Any:
        tag = page.add_style_tag(content=style) if style else None
        settle(page)
        png = take(page)
        if tag is not None:
            tag.evaluate("e => e.remove()")
        return studio.small(png, shot.size)

    try:
        before = seen()
        assert not compare(before, before).problem
        shifted = compare(before, seen("body { transform: translate(1px, 1px); }"))
        assert not shifted.problem, shifted.problem
        grown = compare(before, seen("#mine { padding-top: 60px !important; }"))
        assert grown.problem, f"a panel grown by 60 px passed: {grown}"
        gone = compare(before, seen("#players { visibility: hidden !important; }"))
        assert gone.problem, f"the players' region hidden passed: {gone}"
        assert not compare(before, seen()).problem  # each style taken away again
    finally:
        page.close()
