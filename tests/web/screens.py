"""Screenshots of key states of each game's table (issue 39): the states, taken in Debian's
Chromium with stable pixels, and the comparison of a screenshot with its baseline.

The states are recorded positions (tests/web/positions.py): the layout guard's games of
tests/data/layout/, reached through the server's API, and for civ4's end a game of the
greedy bot against itself (its moves derived from its seed, as the layout games are). Each
is opened in a page of its own at its size, in English, in UTC, with reduced motion, no
animations, no caret and the clocks' times hidden (:data:`STYLE`, injected only here).

* ``scripts/screenshots.py --baselines`` writes the baselines (tests/data/screenshots/, at
  half size: :func:`encode_png`), ``--docs`` the pictures of docs/web.md and the README
  (docs/images/, full size, 5 bits a channel: :func:`posterize`); ``make screenshots`` does both;
* tests/web/test_screenshots.py takes every state again and compares it with its baseline
  (:func:`compare`): greyscale, each pixel against its neighbours, by blocks of 16×16 CSS
  px, a tolerance that forgives another Chromium build's antialiasing and a pixel's shift
  but not a panel moved or grown by a few dozen pixels or a region missing.

Pixels are decoded by the browser (a canvas), so no imaging library is needed: NumPy for the
arithmetic, :func:`encode_png` (zlib) to write them.
"""

from __future__ import annotations

import base64
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from civcards.bots.base import bot_move
from civcards.game_api import get_game

from . import conftest
from .positions import Recorded, derive, entry, load, start

ROOT = Path(__file__).resolve().parents[2]
BASELINES = ROOT / "tests" / "data" / "screenshots"
DOCS = ROOT / "docs" / "images"

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
#: a baseline is stored at 1/SCALE of the viewport's size (the comparison's scale too)
SCALE = 2

#: Debian's Chromium, its command line the tests' and: text drawn without the hinting of the
#: machine's fontconfig, scrollbars hidden
CHROMIUM = str(conftest.CHROMIUM)
ARGS = [*conftest.ARGS, "--hide-scrollbars", "--font-render-hinting=none"]

#: stable pixels: nothing moves, no caret blinks, no tip is open, the clocks (time-dependent)
#: are hidden; injected by the screenshots only, never served
STYLE = """
*, *::before, *::after {
  transition: none !important; animation: none !important;
  caret-color: transparent !important; scroll-behavior: auto !important;
}
#tip, [data-testid="clock"] time, [data-testid="vote-wait"] { visibility: hidden !important; }
"""

#: the comparison (:func:`compare`), at the baselines' scale: a pixel's difference is the
#: smallest over the other image's pixels within SHIFT px (both blurred by 2×2 px first), so a
#: pixel's shift or another antialiasing is no difference; a block of BLOCK×BLOCK px (16×16
#: CSS px) differs when its pixels differ by more than BLOCK_TOLERANCE grey levels (of 255)
#: on average. A screenshot fails when more than SHARE_LIMIT of its blocks differ, or when
#: PATCH_LIMIT blocks or more differ with all their eight neighbours (a region of 48×48 CSS
#: px changed wholly: a panel moved, grown or gone, where text drawn differently is spread
#: thin). Measured on this machine (tests/web/test_screenshots.py checks two of them): a page
#: shifted by 1 or 2 px, text drawn with geometricPrecision or 0.2 px wider letter spacing
#: come to at most 5.8% of blocks and no patch; a panel grown by 30 or 60 px or hidden, or
#: the log hidden, to 14–183 patches; the text in Liberation Sans instead of DejaVu Sans fails
#: too (4–206 patches): the baselines assume Debian's fonts-dejavu-core.
SHIFT = 1
BLOCK = 8
BLOCK_TOLERANCE = 16.0
SHARE_LIMIT = 0.10
PATCH_LIMIT = 4

UPDATE = (
    "if the change is meant, run `make screenshots`, look at every PNG of "
    "tests/data/screenshots/ and docs/images/, and commit them: a baseline's change is a "
    "reviewed commit"
)


@dataclass(frozen=True)
class Shot:
    """A state to take: ``record`` (a game of tests/data/layout/, or ``civ4-greedy``), the
    ``stop`` among its positions, the size, and a panel to open there (the choice that
    opens it, the panel's control to wait for)."""

    name: str
    record: str
    stop: str
    size: str
    caption: str
    opener: str = ""
    opened: str = ""


#: the states, in the order they are reached (a record only goes forward)
SHOTS = [
    Shot("civ4-draft", "civ4-2p", "draft", "desktop", "civ4: the plot draft at the start"),
    Shot("civ4-start", "civ4-2p", "collect", "desktop", "civ4: the first turn, collecting"),
    Shot(
        "civ4-attack",
        "civ4-2p",
        "purchase-attack",
        "desktop",
        "civ4: an attack, its units chosen",
        '#actions button[data-key="attack"]',
        '#actions button[data-key="go-attack"]',
    ),
    Shot("civ4-defend", "civ4-2p", "defend", "desktop", "civ4: a defence against the attack"),
    Shot(
        "civ4-pay",
        "civ4-2p",
        "purchase-plot",
        "desktop",
        "civ4: buying a market plot, the payment open",
        '#mine button[data-key^="buy-plot-"]',
        '#actions button[data-key="go-pay"]',
    ),
    Shot(
        "civ4-pay-phone",
        "civ4-2p",
        "purchase-plot",
        "phone",
        "civ4 on a phone: the payment open",
        '#mine button[data-key^="buy-plot-"]',
        '#actions button[data-key="go-pay"]',
    ),
    Shot("civ4-end", "civ4-greedy", "finished", "desktop", "civ4: the end, the scores"),
    Shot("carta-start", "carta-4p", "play", "desktop", "CIV: the start of a 4-player game"),
    Shot("carta-draft", "carta-draft-4p", "draft", "desktop", "CIV: the draft"),
    Shot("carta-play", "carta-draft-4p", "play", "desktop", "CIV: a turn, cards to play"),
    Shot("carta-play-phone", "carta-draft-4p", "play", "phone", "CIV on a phone: a turn"),
    Shot("carta-end", "carta-draft-4p", "finished", "desktop", "CIV: the end, the winners"),
]


# -- the games ------------------------------------------------------------------------------


def greedy_record(game_name: str, players: int, seed: int) -> dict[str, Any]:
    """A game of the greedy bot against itself from ``seed``, as a record of
    :mod:`positions` (each move its path of choices) that stops at its end."""
    game = get_game(game_name)
    options = game.check_options(players, {})
    state = game.new_state(players, options, seed)
    bots = [game.bots()["greedy"](None, seed + i) for i in range(players)]
    moves = []
    while not state.finished:
        seat = state.to_move
        move = bot_move(bots[seat], game, state)
        moves.append(entry(seat, game.choice_path(state, move)))
        game.play(state, move)
    return {
        "game": game_name,
        "players": players,
        "options": {},
        "seed": seed,
        "moves": moves,
        "positions": {"finished": {"moves": len(moves), "seat": 0}},
    }


def record(name: str) -> dict[str, Any]:
    """The record of a shot: a layout game, a plain CIV deal, or civ4 played by bots."""
    if name == "civ4-greedy":
        return greedy_record("civ4", 2, 11)
    if name == "carta-4p":  # the plain deal: its first position is a turn of play
        spec = {"game": "carta", "players": 4, "options": {}, "seed": 5, "choices_seed": 1}
        return derive({**spec, "wanted": ["play"]})
    return load(name)


# -- the browser ----------------------------------------------------------------------------

Page = Any

_DECODE_JS = """async ([b64, w, h]) => {
  const img = new Image();
  img.src = "data:image/png;base64," + b64;
  await img.decode();
  const c = document.createElement("canvas");
  c.width = w || img.naturalWidth;
  c.height = h || img.naturalHeight;
  const x = c.getContext("2d");
  x.imageSmoothingEnabled = true;
  x.imageSmoothingQuality = "high";
  x.drawImage(img, 0, 0, c.width, c.height);
  const d = x.getImageData(0, 0, c.width, c.height).data;
  let s = "";
  for (let i = 0; i < d.length; i += 0x8000) {
    s += String.fromCharCode.apply(null, d.subarray(i, i + 0x8000));
  }
  return [c.width, c.height, btoa(s)];
}"""


def decode(page: Page, png: bytes, size: tuple[int, int] | None = None) -> np.ndarray:
    """The RGB pixels (height × width × 3) of a PNG, decoded by the browser of ``page`` and
    scaled to ``size`` (width, height) when given."""
    w, h = size or (0, 0)
    width, height, raw = page.evaluate(_DECODE_JS, [base64.b64encode(png).decode(), w, h])
    rgba = np.frombuffer(base64.b64decode(raw), dtype=np.uint8).reshape(height, width, 4)
    return np.ascontiguousarray(rgba[:, :, :3])


def small_size(shot_size: str) -> tuple[int, int]:
    w, h = SIZES[shot_size]
    return w // SCALE, h // SCALE


def new_context(browser: Any, size: str) -> Any:
    """A browser context for screenshots at ``size``: English, UTC, reduced motion."""
    w, h = SIZES[size]
    ctx = browser.new_context(
        viewport={"width": w, "height": h},
        device_scale_factor=1,
        locale="en-US",
        timezone_id="UTC",
        reduced_motion="reduce",
        color_scheme="light",
        bypass_csp=True,  # the injected STYLE (the server's policy allows no inline style)
    )
    # English, and no pace between moves (docs/web.md: opponents' moves at a readable pace)
    ctx.add_init_script(
        "localStorage.setItem('civcards.lang', 'en'); localStorage.setItem('civcards.pace', '0');"
    )
    return ctx


#: the font the baselines were drawn in: Debian's fonts-dejavu-core, the first font that
#: fontconfig (and so chromium) pulls in, which system-ui and sans-serif resolve to
FONT = "DejaVu Sans"

_FONT_JS = """font => {
  const x = document.createElement("canvas").getContext("2d");
  const width = (f) => { x.font = `16px ${f}`; return x.measureText("Bartholomäus hammers 15 of 15").width; };
  return [width("system-ui"), width(`"${font}"`), width("monospace")];
}"""


def font_problem(page: Page) -> str:
    """Why this machine cannot draw the baselines' text (its system-ui font is not
    :data:`FONT`), or an empty string."""
    ui, font, mono = page.evaluate(_FONT_JS, FONT)
    if ui == font and font != mono:
        return ""
    return (
        f"this machine's system-ui font is not {FONT}, which the baselines were drawn in: "
        "install Debian's fonts-dejavu-core (apt-get install fonts-dejavu-core)"
    )


def settle(page: Page) -> None:
    """Until the fonts are loaded and two frames have been drawn."""
    page.evaluate(
        """async () => { await document.fonts.ready;
          await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))); }"""
    )


def open_state(ctx: Any, rec: Recorded, shot: Shot, extra_style: str = "") -> Page:
    """A page of the seat that sees ``shot``'s stop of ``rec`` (already reached), drawn, the
    shot's panel opened, ready to be taken."""
    pos = rec.record["positions"][shot.stop]
    moves, seat = int(pos["moves"]), int(pos["seat"])
    page = ctx.new_page()
    page.goto(rec.link(seat))
    page.wait_for_function(
        "n => Number((document.querySelector('#table') || {dataset: {}}).dataset.moves) === n",
        arg=moves,
    )
    if shot.stop == "finished":
        page.wait_for_selector("#result:not([hidden])")
    else:
        page.wait_for_function(
            "s => document.querySelector('#table').dataset.toMove === String(s)", arg=seat
        )
    page.add_style_tag(content=STYLE + extra_style)
    if shot.opener:
        opener = page.locator(shot.opener)
        assert opener.count(), (
            f"{shot.name}: nothing at the table is {shot.opener!r}, the choice that opens its "
            "panel: the table changed, name its new control in tests/web/screens.py SHOTS"
        )
        opener.first.evaluate("e => e.click()")  # a click without the pointer (no hover)
        page.wait_for_selector(shot.opened)
    settle(page)
    # where the player is, in the middle of the screen, the regions holding it scrolled as
    # little as needed (the table's own scroll to the focus may come before the last
    # layout); the end from the top
    page.evaluate(
        """finished => { const a = document.activeElement;
          window.scrollTo(0, 0);
          if (a && a !== document.body && !finished) {
            for (let p = a.parentElement; p; p = p.parentElement) p.scrollTop = 0;
            a.scrollIntoView({block: "nearest"});
            const r = a.getBoundingClientRect();
            window.scrollTo(0, Math.max(0, scrollY + r.top + r.height / 2 - innerHeight / 2));
          }
          if (a) a.blur(); }""",
        shot.stop == "finished",
    )
    settle(page)
    return page


def take(page: Page) -> bytes:
    """The viewport, as the player sees it (PNG)."""
    png: bytes = page.screenshot(animations="disabled", caret="hide")
    return png


class Studio:
    """The shots' games on a server (each record started when first needed, advanced to
    each stop in turn), and a browser context per size."""

    def __init__(self, browser: Any, base: str) -> None:
        self.base = base
        self.contexts = {size: new_context(browser, size) for size in SIZES}
        self.records: dict[str, Recorded] = {}
        self.scratch = self.contexts["desktop"].new_page()

    def reach(self, shot: Shot) -> Recorded:
        if shot.record not in self.records:
            self.records[shot.record] = start(self.base, record(shot.record))
        rec = self.records[shot.record]
        moves = int(rec.record["positions"][shot.stop]["moves"])
        assert rec.done <= moves, f"{shot.name}: its game is past move {moves} (order SHOTS)"
        rec.advance(moves)
        return rec

    def page(self, shot: Shot, extra_style: str = "") -> Page:
        return open_state(self.contexts[shot.size], self.reach(shot), shot, extra_style)

    def shoot(self, shot: Shot, extra_style: str = "") -> bytes:
        page = self.page(shot, extra_style)
        try:
            return take(page)
        finally:
            page.close()

    def small(self, png: bytes, size: str) -> np.ndarray:
        """A screenshot at the baselines' scale (RGB)."""
        return decode(self.scratch, png, small_size(size))

    def pixels(self, png: bytes) -> np.ndarray:
        return decode(self.scratch, png)

    def close(self) -> None:
        for ctx in self.contexts.values():
            ctx.close()


# -- PNG and the comparison ------------------------------------------------------------------


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode_png(rgb: np.ndarray) -> bytes:
    """An RGB image (height × width × 3, uint8) as a PNG, each row filtered as it packs best
    (None, Sub or Up: the smallest sum of absolute values)."""
    h, w, _ = rgb.shape
    rows = rgb.reshape(h, w * 3).astype(np.int16)
    none = rows
    sub = rows.copy()
    sub[:, 3:] -= rows[:, :-3]
    up = rows.copy()
    up[1:] -= rows[:-1]
    filtered = np.stack([none, sub, up]) % 256  # (3, h, w*3)
    signed = np.where(filtered > 127, 256 - filtered, filtered)
    best = signed.sum(axis=2).argmin(axis=0)  # per row
    chosen = filtered[best, np.arange(h)].astype(np.uint8)
    raw = np.concatenate([best.astype(np.uint8)[:, None], chosen], axis=1).tobytes()
    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(raw, 9))
        + _chunk(b"IEND", b"")
    )


def posterize(rgb: np.ndarray, bits: int = 5) -> np.ndarray:
    """``rgb`` with ``bits`` bits a channel (its PNG a third smaller at 5, no difference to
    see in a screenshot): the docs' pictures."""
    keep = np.uint8(0xFF ^ ((1 << (8 - bits)) - 1))
    high = rgb & keep
    out: np.ndarray = high | (high >> bits)
    return out


@dataclass
class Difference:
    """How a screenshot differs from its baseline: the share of its blocks that differ, how
    many of them are patches (differ with their eight neighbours), which blocks differ (a
    grid of booleans); ``problem`` says why it fails, empty when it passes."""

    share: float
    patches: int
    blocks: np.ndarray
    problem: str = ""

    def __str__(self) -> str:
        return (
            f"{self.share:.1%} of its blocks differ (at most {SHARE_LIMIT:.0%}), {self.patches} "
            f"of them in whole regions (fewer than {PATCH_LIMIT})"
        )


def grey(rgb: np.ndarray) -> np.ndarray:
    """Greyscale, blurred by 2×2 px."""
    g = rgb.astype(np.float64) @ np.array([0.299, 0.587, 0.114])
    p = np.pad(g, ((0, 1), (0, 1)), mode="edge")
    blurred: np.ndarray = (p[:-1, :-1] + p[1:, :-1] + p[:-1, 1:] + p[1:, 1:]) / 4
    return blurred


def shifted(g: np.ndarray, dy: int, dx: int) -> np.ndarray:
    """``g`` moved by (dy, dx) px, its edges repeated."""
    h, w = g.shape
    p = np.pad(g, SHIFT, mode="edge")
    out: np.ndarray = p[SHIFT + dy : SHIFT + dy + h, SHIFT + dx : SHIFT + dx + w]
    return out


def pixel_difference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per pixel, the grey difference to the nearest match within SHIFT px, both ways."""
    a_to_b = np.full(a.shape, np.inf)
    b_to_a = np.full(a.shape, np.inf)
    for dy in range(-SHIFT, SHIFT + 1):
        for dx in range(-SHIFT, SHIFT + 1):
            a_to_b = np.minimum(a_to_b, np.abs(a - shifted(b, dy, dx)))
            b_to_a = np.minimum(b_to_a, np.abs(shifted(a, dy, dx) - b))
    out: np.ndarray = np.maximum(a_to_b, b_to_a)
    return out


def compare(expected: np.ndarray, actual: np.ndarray) -> Difference:
    """Compare a screenshot with its baseline (both RGB at the baselines' scale)."""
    if expected.shape != actual.shape:
        problem = f"the size changed: {actual.shape[1]}×{actual.shape[0]} px, "
        problem += f"the baseline {expected.shape[1]}×{expected.shape[0]} px"
        return Difference(1.0, 0, np.ones((1, 1), dtype=bool), problem)
    d = pixel_difference(grey(expected), grey(actual))
    h, w = d.shape[0] // BLOCK * BLOCK, d.shape[1] // BLOCK * BLOCK
    blocks = d[:h, :w].reshape(h // BLOCK, BLOCK, w // BLOCK, BLOCK).mean((1, 3))
    differ = blocks > BLOCK_TOLERANCE
    whole = differ.copy()  # a block that differs with its eight neighbours
    whole[0, :] = whole[-1, :] = whole[:, 0] = whole[:, -1] = False
    rows, cols = differ.shape
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            whole[1:-1, 1:-1] &= differ[1 + dy : rows - 1 + dy, 1 + dx : cols - 1 + dx]
    diff = Difference(float(differ.mean()), int(whole.sum()), differ)
    if diff.share > SHARE_LIMIT or diff.patches >= PATCH_LIMIT:
        diff.problem = str(diff)
    return diff


def diff_image(actual: np.ndarray, diff: Difference) -> np.ndarray:
    """The screenshot faded, its differing blocks in red (for the test's artifacts)."""
    out = (actual.astype(np.float64) * 0.4 + 153).astype(np.uint8)
    if diff.blocks.shape == (1, 1):
        return out
    mask = np.repeat(np.repeat(diff.blocks, BLOCK, axis=0), BLOCK, axis=1)
    h, w = mask.shape
    region = out[:h, :w]
    region[mask] = (region[mask] * 0.5 + np.array([255, 0, 0]) * 0.5).astype(np.uint8)
    return out
