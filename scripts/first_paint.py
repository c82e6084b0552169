"""First paint of the lobby and of a table page, in Chromium (issue 39: under 1 s on this
machine). A local server (``civcards serve`` over a fresh SQLite file) and Debian's Chromium;
each page is opened ``--runs`` times, each time in a fresh browser context (nothing cached).
For each page: the browser's paint entries (Performance API: ``first-paint``,
``first-contentful-paint``) and, for a table, when the first view of the game was drawn
(the shell sets ``#table[data-moves]``), in milliseconds from the start of the navigation.
Prints the median and the largest of each.

    .venv/bin/python scripts/first_paint.py [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.web.conftest import ARGS, CHROMIUM, PACE_SCRIPT, ServerProcess  # noqa: E402

#: when the table's first view was drawn (ms from the navigation's start), for the table pages
DRAWN_SCRIPT = """
new MutationObserver((_, obs) => {
  if (window.__drawn === undefined) window.__drawn = performance.now();
  obs.disconnect();
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-moves"] });
"""

PAINTS_JS = """() => Object.fromEntries(
  performance.getEntriesByType('paint').map((e) => [e.name, e.startTime]))"""


def open_once(browser: Any, url: str, table: bool) -> dict[str, float]:
    """One cold visit of ``url``: its paint times (and, for a table, its first view drawn)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    ctx.add_init_script(PACE_SCRIPT.format(ms=0))
    ctx.add_init_script(DRAWN_SCRIPT)
    try:
        page = ctx.new_page()
        page.goto(url, wait_until="load")
        if table:
            page.wait_for_function("() => window.__drawn !== undefined", timeout=20000)
        page.wait_for_function(
            "() => performance.getEntriesByType('paint').length >= 2", timeout=10000
        )
        out: dict[str, float] = dict(page.evaluate(PAINTS_JS))
        if table:
            out["table drawn"] = float(page.evaluate("window.__drawn"))
        return out
    finally:
        ctx.close()


def summary(name: str, runs: list[dict[str, float]]) -> str:
    parts = []
    for key in ("first-paint", "first-contentful-paint", "table drawn"):
        vals = [r[key] for r in runs if key in r]
        if vals:
            parts.append(f"{key} median {statistics.median(vals):.0f} ms, max {max(vals):.0f} ms")
    return f"{name} ({len(runs)} cold visits): " + "; ".join(parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="cold visits of each page (default 5)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(Path(tmp) / "paint.sqlite")
        server.start()
        try:
            pages: list[tuple[str, str, bool]] = [("lobby", server.base + "/", False)]
            for game in ("carta", "civ4"):
                g = server.create(
                    game=game,
                    players=2,
                    seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}],
                    seed=7,
                )
                link = f"/game/{g['id']}#seat=0&token={g['seats'][0]['token']}"
                pages.append((f"table ({game})", server.base + link, True))
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
                open_once(browser, pages[0][1], False)  # the server's first answers (imports)
                for name, url, table in pages:
                    runs = [open_once(browser, url, table) for _ in range(args.runs)]
                    print(summary(name, runs))
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
