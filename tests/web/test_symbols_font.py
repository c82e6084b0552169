"""Every symbol the web table writes as text is drawn by Debian's default font (issue 39).

A machine with only the fonts that Chromium pulls in (fontconfig's first choice, DejaVu
Sans: the font of the screenshot baselines, tests/web/screens.py) shows a character that
no font holds as an empty box, as civ4's steal line and CIV's markers did (✋, ⛔, 🗳).
The front end's files are read as text; the font's characters come from fontconfig."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
#: what the table draws: the shared front end, each game's module, the pages
FILES = (
    "civcards/server/static/*.js",
    "civcards/server/static/*.css",
    "civcards/server/templates/*.html",
    "civcards/games/*/static/*.js",
    "civcards/games/*/static/*.css",
)
#: punctuation and spaces below this are in every font
FROM = 0x2000


def charset(font: Path) -> set[int]:
    """The code points ``font`` holds (``fc-query``'s ranges: ``20-7e a0-2e9 …``)."""
    out = subprocess.run(
        ["fc-query", "-f", "%{charset}", str(font)], capture_output=True, text=True, check=True
    ).stdout
    points: set[int] = set()
    for part in out.split():
        lo, _, hi = part.partition("-")
        points.update(range(int(lo, 16), int(hi or lo, 16) + 1))
    return points


def symbols() -> dict[str, set[str]]:
    """Each character at or above :data:`FROM` in the front end's files, with where."""
    found: dict[str, set[str]] = {}
    for pattern in FILES:
        for path in ROOT.glob(pattern):
            for ch in path.read_text(encoding="utf-8"):
                if ord(ch) >= FROM:
                    found.setdefault(ch, set()).add(str(path.relative_to(ROOT)))
    return found


def missing(held: set[int]) -> dict[str, list[str]]:
    return {
        f"{ch} (U+{ord(ch):04X})": sorted(where)
        for ch, where in symbols().items()
        if ord(ch) not in held and ch not in "\u2028\u2029\ufe0f"
    }


def test_every_symbol_of_the_table_is_in_the_default_font() -> None:
    if not FONT.exists() or shutil.which("fc-query") is None:
        pytest.skip("Debian's fonts-dejavu-core and fontconfig are not installed")
    bad = missing(charset(FONT))
    assert not bad, f"characters that {FONT.name} lacks (drawn as an empty box): {bad}"


def test_the_check_sees_a_symbol_the_font_lacks() -> None:
    """The scan can fail: without ⚔ in the font, civ4's steal line is reported."""
    if not FONT.exists() or shutil.which("fc-query") is None:
        pytest.skip("Debian's fonts-dejavu-core and fontconfig are not installed")
    held = charset(FONT) - {ord("⚔")}
    bad = missing(held)
    assert any(k.startswith("⚔") for k in bad), bad
