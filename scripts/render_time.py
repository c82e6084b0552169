"""The table's update render time after a move, in Chromium (issue 39): a game of each kind
(the layout guard's recorded games, tests/data/layout/) is played on a local server through
its API while a seat's page is open; after each move the page draws, the shell's render time
(performance.now around render(), #table's data-render-ms) is read. Prints the median, the
90th percentile and the largest, in milliseconds of script time.

    .venv/bin/python scripts/render_time.py [--moves 40] [--before REV --rounds 3]

With --before, the same games are also drawn by the table's scripts of the commit REV (served in
place of the working tree's), the rounds alternating which goes first: before and after side by
side in one run, on a machine as busy for both.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.web.conftest import PACE_SCRIPT, ServerProcess  # noqa: E402
from tests.web.positions import load, start  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
#: the table's scripts: each folder and the address it is served at (civcards/server/web.py)
STATIC = {"civcards/server/static": "/static"} | {
    f"civcards/games/{d.parent.name}/static": f"/static/games/{d.parent.name}"
    for d in sorted((ROOT / "civcards/games").glob("*/static"))
}


def git(*args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=True
    ).stdout


def scripts_at(rev: str) -> dict[str, str]:
    """The table's scripts as they were at commit ``rev``, by the address they are served at."""
    out: dict[str, str] = {}
    for folder, url in STATIC.items():
        for name in git("ls-tree", "--name-only", f"{rev}:{folder}").split():
            if name.endswith(".js"):
                out[f"{url}/{name}"] = git("show", f"{rev}:{folder}/{name}")
    return out


def measure(
    base: str, record: str, moves: int, browser: object, old: dict[str, str] | None = None
) -> list[float]:
    """The render times of seat 0's page over the first ``moves`` moves of ``record`` (with
    ``old``, the scripts of another commit in place of the working tree's)."""
    rec = start(base, load(record))
    page = browser.new_page(viewport={"width": 1280, "height": 800})  # type: ignore[attr-defined]
    page.add_init_script(PACE_SCRIPT.format(ms=0))  # each move drawn as it comes (no pace)
    if old is not None:
        scripts = old

        def serve(route: object) -> None:
            path = "/" + route.request.url.split("?")[0].split("/", 3)[3]  # type: ignore[attr-defined]
            if path in scripts:
                route.fulfill(body=scripts[path], content_type="text/javascript")  # type: ignore[attr-defined]
            else:
                route.continue_()  # type: ignore[attr-defined]

        page.route(re.compile(r".*\.js(\?.*)?$"), serve)
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


def figures(ms: list[float]) -> tuple[float, float, float]:
    """The median, the 90th percentile and the largest of ``ms``."""
    ms = sorted(ms)
    return statistics.median(ms), ms[int(0.9 * (len(ms) - 1))], ms[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=40, help="moves of each game (default 40)")
    ap.add_argument("--before", metavar="REV", help="also the table's scripts of commit REV")
    ap.add_argument("--rounds", type=int, default=1, help="rounds of each game (default 1)")
    args = ap.parse_args()
    old = scripts_at(args.before) if args.before else None
    variants: list[dict[str, str] | None] = [None, old] if old is not None else [None]
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(Path(tmp) / "render.sqlite")
        server.start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM)
                for record in ("civ4-2p", "carta-draft-4p"):
                    got: dict[bool, list[float]] = {False: [], True: []}
                    for r in range(args.rounds):
                        for v in variants if r % 2 else variants[::-1]:
                            got[v is not None] += measure(
                                server.base, record, args.moves, browser, v
                            )
                    now = figures(got[False])
                    print(
                        f"{record}: {len(got[False])} updates, median {now[0]:.1f} ms, "
                        f"p90 {now[1]:.1f} ms, max {now[2]:.1f} ms"
                    )
                    if old is not None:
                        was = figures(got[True])
                        print(
                            f"  {args.before}: median {was[0]:.1f} ms, p90 {was[1]:.1f} ms, "
                            f"max {was[2]:.1f} ms; now/before: median {now[0] / was[0]:.2f}, "
                            f"p90 {now[1] / was[1]:.2f}"
                        )
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
