"""The table's update render time after a move, in Chromium (issue 39): a game of each kind
(the layout guard's recorded games, tests/data/layout/) is played on a local server through
its API while a seat's page is open; after each move the page draws, the shell's render time
(performance.now around render(), #table's data-render-ms) is read. Prints the median, the
90th percentile and the largest, in milliseconds of script time.

    .venv/bin/python scripts/render_time.py [--moves 40]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.web.conftest import PACE_SCRIPT, ServerProcess  # noqa: E402
from tests.web.positions import load, start  # noqa: E402

CHROMIUM = "/usr/bin/chromium"


def measure(base: str, record: str, moves: int, browser: object) -> list[float]:
    """The render times of seat 0's page over the first ``moves`` moves of ``record``."""
    rec = start(base, load(record))
    page = browser.new_page(viewport={"width": 1280, "height": 800})  # type: ignore[attr-defined]
    page.add_init_script(PACE_SCRIPT.format(ms=0))  # each move drawn as it comes (no pace)
    page.goto(rec.link(0))
    page.wait_for_selector("#table[data-moves]")
    out: list[float] = []
    last = min(moves, len(rec.record["moves"]) - 1)
    for n in range(1, last + 1):
        rec.advance(n)
        page.wait_for_function(
            "n => Number(document.querySelector('#table').dataset.moves) >= n", arg=n
        )
        out.append(float(page.evaluate("document.querySelector('#table').dataset.renderMs")))
    page.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=40, help="moves of each game (default 40)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(Path(tmp) / "render.sqlite")
        server.start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM)
                for record in ("civ4-2p", "carta-draft-4p"):
                    ms = sorted(measure(server.base, record, args.moves, browser))
                    p90 = ms[int(0.9 * (len(ms) - 1))]
                    print(
                        f"{record}: {len(ms)} updates, median {statistics.median(ms):.1f} ms, "
                        f"p90 {p90:.1f} ms, max {ms[-1]:.1f} ms"
                    )
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
