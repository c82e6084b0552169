"""Screenshots of the web table's key states (tests/web/screens.py names them): the baselines
of tests/web/test_screenshots.py and the pictures of docs/web.md and the README.

Run from the repository root (``make screenshots`` runs both)::

    .venv/bin/python scripts/screenshots.py --baselines   # tests/data/screenshots/*.png
    .venv/bin/python scripts/screenshots.py --docs        # docs/images/*.png

It starts a server of its own (``civcards serve`` on a free port, a database in a temporary
folder) and Debian's Chromium (/usr/bin/chromium) through Playwright. Look at every PNG it
wrote before committing them: a baseline's change is a reviewed commit.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.conftest import ServerProcess  # noqa: E402
from tests.web.screens import (  # noqa: E402
    ARGS,
    BASELINES,
    CHROMIUM,
    DOCS,
    SHOTS,
    Studio,
    encode_png,
    font_problem,
    posterize,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baselines", action="store_true", help=f"write {BASELINES}")
    parser.add_argument("--docs", action="store_true", help=f"write {DOCS}")
    parser.add_argument("--only", default="", help="only these shots (names, comma-separated)")
    args = parser.parse_args(argv)
    if not (args.baselines or args.docs):
        parser.error("say what to write: --baselines, --docs, or both")
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)")
        return 1
    from playwright.sync_api import sync_playwright

    only = set(filter(None, args.only.split(",")))
    unknown = sorted(only - {s.name for s in SHOTS})
    if unknown:
        parser.error(f"no shot is named {', '.join(unknown)}: {', '.join(s.name for s in SHOTS)}")
    shots = [s for s in SHOTS if not only or s.name in only]
    for folder, wanted in ((BASELINES, args.baselines), (DOCS, args.docs)):
        if wanted:
            folder.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(Path(tmp) / "civ.db")
        server.start()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                studio = Studio(browser, server.base)
                font = font_problem(studio.scratch)
                if font and args.baselines:
                    print(font)
                    return 1
                for shot in shots:
                    t = time.perf_counter()
                    png = studio.shoot(shot)
                    if args.docs:
                        docs = encode_png(posterize(studio.pixels(png)))
                        (DOCS / f"{shot.name}.png").write_bytes(docs)
                    if args.baselines:
                        small = encode_png(studio.small(png, shot.size))
                        (BASELINES / f"{shot.name}.png").write_bytes(small)
                    print(f"{shot.name}: {time.perf_counter() - t:.1f} s", flush=True)
                studio.close()
                browser.close()
        finally:
            server.stop()
    print(f"{len(shots)} screenshots in {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
