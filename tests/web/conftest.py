"""Fixtures for the web table: a real ``civcards serve`` process over a real SQLite file."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest

from . import net

pytest.importorskip("fastapi")

from civcards.loadtest import free_port, wait_serving

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"

#: the per-address limits on games created and WebSocket handshakes are off for the test
#: servers (all their clients share 127.0.0.1); test_limits.py turns them on
TEST_ENV = {
    "CIVCARDS_CREATE_RATE": "0",
    "CIVCARDS_WS_CONNECT_RATE": "0",
    "CIVCARDS_WS_PER_ADDRESS": "0",
}


class ServerProcess:
    """``civcards serve`` in a subprocess; :meth:`restart` keeps the database and port."""

    def __init__(
        self,
        db_path: Path,
        bot_delay: float = 0.0,
        allow_seed: bool = True,
        db_url: str | None = None,
        extra_args: Sequence[str] = (),
        env: dict[str, str] | None = None,
    ) -> None:
        self.db_path = db_path
        self.db_url = db_url or f"sqlite:///{db_path}"
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.bot_delay = bot_delay
        self.allow_seed = allow_seed
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = db_path.with_suffix(".log")
        self.extra_args = list(extra_args)
        self.env = env
        #: whether the server has run on self.port (then a restart must keep it)
        self._ran = False

    def start(self) -> None:
        """Start the server; a port another program took first is traded for a fresh one,
        unless the server already ran on it (a restart keeps its port)."""
        for attempt in range(5):
            if self._launch_once():
                self._ran = True
                return
            if self._ran or attempt == 4:
                break
            self.port = free_port()
            self.base = f"http://127.0.0.1:{self.port}"
        raise RuntimeError(f"the server could not bind port {self.port}: {self.log()[-2000:]}")

    def _launch_once(self) -> bool:
        """Launch once: True when the server answers on its port, False when the port was taken
        (:func:`~civcards.loadtest.wait_serving`)."""
        cmd = [
            sys.executable,
            "-m",
            "civcards.cli",
            "serve",
            "--port",
            str(self.port),
            "--db",
            self.db_url,
            "--bot-delay",
            str(self.bot_delay),
            "--log-level",
            "info",
        ]
        if self.allow_seed:
            cmd.append("--allow-seed")
        cmd += self.extra_args
        env = {**os.environ, **TEST_ENV, **(self.env or {})}
        start = self.log_path.stat().st_size if self.log_path.exists() else 0
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen(
                cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env
            )
        if wait_serving(self.proc, self.port, self.log_path, start, 120):
            return True
        self.proc = None
        return False

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None

    def kill(self) -> None:
        """Stop abruptly (as a crash would)."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(5)
        self.proc = None

    def restart(self, *, hard: bool = False) -> None:
        if hard:
            self.kill()
        else:
            self.stop()
        self.start()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    # -- small API helpers --------------------------------------------------

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.base, timeout=20)

    def create(self, *, claim: bool = True, **body: Any) -> dict[str, Any]:
        """Create a game; with ``claim`` (default) each human seat's invitation is claimed
        and its ``token`` is then the seat's own token (the invitation in ``invitation``)."""
        r = net.post(self.base + "/api/games", json=body, timeout=20)
        assert r.status_code == 201, r.text
        out: dict[str, Any] = r.json()
        return claim_all(self.base, out) if claim else out


def claim_seat(base: str, gid: str, invitation: str) -> str:
    """Claim the seat of an invitation: the seat's own token."""
    r = net.post(f"{base}/api/games/{gid}/claim", headers={"X-Seat-Token": invitation})
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def claim_all(base: str, created: dict[str, Any]) -> dict[str, Any]:
    """``created`` (POST /api/games's answer) with every human seat claimed: its ``token``
    the seat's own, its invitation (dead now) in ``invitation``."""
    for s in created["seats"]:
        if s["token"]:
            s["invitation"] = s["token"]
            s["token"] = claim_seat(base, created["id"], s["token"])
    return created


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for a test module (bots move at once, seeds allowed)."""
    s = ServerProcess(tmp_path_factory.mktemp("srv") / "civ.db")
    s.start()
    yield s
    s.stop()


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server of the test's own (for restarts)."""
    s = ServerProcess(tmp_path / "civ.db")
    s.start()
    yield s
    s.stop()


def texts(choices: list[dict[str, Any]]) -> list[str]:
    """The texts of a view's choices (``{"text", "final", "hidden"}`` objects)."""
    return [str(c["text"]) for c in choices]


def env_flag(name: str) -> bool:
    return os.environ.get(name, "") not in ("", "0")


# -- the real browser (Debian's Chromium through Playwright), shared by the browser tests ------

#: Debian's Chromium (``apt-get install chromium``; downloading a browser fails here)
CHROMIUM = Path("/usr/bin/chromium")
#: its command line for the tests: headless, and nothing that reaches out of the machine
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


#: the table's pace (ms each opponent's move stays on screen, table.js), set before any page
#: script runs
PACE_SCRIPT = "try {{ localStorage.setItem('civcards.pace', '{ms}'); }} catch (e) {{}}"


class PacedBrowser:
    """The browser, whose contexts show opponents' moves at ``pace`` ms each: 0 (no pace, the
    tests stay fast) unless asked; ``pace=None`` keeps the table's own default."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def new_context(self, *, pace: int | None = 0, **kw: Any) -> Any:
        ctx = self._browser.new_context(**kw)
        if pace is not None:
            ctx.add_init_script(PACE_SCRIPT.format(ms=int(pace)))
        return ctx

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium per test module (skipped where Playwright or Chromium is missing); its
    contexts without the table's pace (:class:`PacedBrowser`)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield PacedBrowser(b)
        b.close()
