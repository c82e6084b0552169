"""The server a load test runs against when it is given no ``--url``: a ``civcards serve``
subprocess on a free loopback port, and what is read of it from Linux's /proc (its memory,
its CPU time, whether it holds its port)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def listens_on(pid: int, port: int) -> bool | None:
    """Whether process ``pid`` holds the socket listening on loopback ``port`` (Linux /proc);
    None where that cannot be told."""
    try:
        inodes = set()
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if link.startswith("socket:["):
                inodes.add(link[8:-1])
        with open("/proc/net/tcp") as fh:
            next(fh)
            for line in fh:
                f = line.split()
                if f[3] == "0A" and int(f[1].rsplit(":", 1)[1], 16) == port:
                    return f[9] in inodes
    except (OSError, StopIteration, IndexError, ValueError):
        return None
    return False


def wait_serving(
    proc: subprocess.Popen[bytes], port: int, log_path: Path, log_from: int, timeout: float
) -> bool:
    """Wait until the ``civcards serve`` process ``proc`` answers on loopback ``port``.

    True once it answers, and the socket listening on the port is its own (another
    program that took the port is not taken for it); False when it exited because the
    port was taken before it could bind it. RuntimeError when it exited otherwise (with
    its log from byte ``log_from`` of ``log_path``) or did not answer in ``timeout`` s.
    """
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    # one client for every try (a client of its own per try cost more than the wait)
    with httpx.Client(timeout=1) as client:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                with log_path.open("rb") as fh:
                    fh.seek(log_from)
                    tail = fh.read().decode(errors="replace")
                if "address already in use" in tail:
                    return False
                raise RuntimeError(f"the server exited at start: {tail[-2000:]}")
            try:
                ok = client.get(base + "/healthz").status_code == 200
                if ok and listens_on(proc.pid, port) is not False:
                    return True
                # another program answers on the port: wait for ours to start or fail
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
    raise RuntimeError(f"the server did not answer in {timeout:g} s")


class OwnServer:
    """A ``civcards serve`` subprocess on a free loopback port over a temporary SQLite file.

    A free port can be taken by another program between the moment it is
    found and the moment the server binds it; then the server exits at once
    (or another server answers in its place) and :meth:`start` tries again on
    another port.
    """

    ATTEMPTS = 5

    def __init__(self, bot_delay: float, bot_workers: int | None = None) -> None:
        self.dir = tempfile.TemporaryDirectory(prefix="civcards-load-")
        self.bot_delay = bot_delay
        self.bot_workers = bot_workers
        self.log_path = Path(self.dir.name) / "serve.log"
        self.db = Path(self.dir.name) / "load.db"
        self.log = self.log_path.open("wb")
        self._launch()

    def _launch(self) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        cmd = [
            sys.executable, "-m", "civcards.cli", "serve",
            "--port", str(self.port), "--db", f"sqlite:///{self.db}",
            "--bot-delay", str(self.bot_delay), "--log-level", "warning",
        ]  # fmt: skip
        if self.bot_workers is not None:
            cmd += ["--bot-workers", str(self.bot_workers)]
        self.log_from = self.log_path.stat().st_size
        # all the load comes from one address (loopback): the per-address limits on games
        # created, WebSocket connections and requests (docs/operations.md) are off or out
        # of reach on this server (and the share of games with search bots per address);
        # with the default 50 requests a second, 300 games could not even be set up
        env = {**os.environ, "CIVCARDS_CREATE_RATE": "0", "CIVCARDS_WS_CONNECT_RATE": "0",
               "CIVCARDS_WS_PER_ADDRESS": "0", "CIVCARDS_BOT_STRONG_PER_ADDRESS": "0",
               "CIVCARDS_RATE_LIMIT": "1000000", "CIVCARDS_RATE_BURST": "1000000"}  # fmt: skip
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT, env=env)

    def wait_ready(self, timeout: float = 60.0) -> None:
        for attempt in range(self.ATTEMPTS):
            if wait_serving(self.proc, self.port, self.log_path, self.log_from, timeout):
                return
            if attempt < self.ATTEMPTS - 1:
                self._launch()  # the port was taken: another one
        raise RuntimeError(f"the server found no free port in {self.ATTEMPTS} tries: {self.tail()}")

    def rss_mb(self) -> float | None:
        return rss_mb(self.proc.pid)

    def tail(self) -> str:
        self.log.flush()
        return self.log_path.read_text(errors="replace")[-2000:]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.log.close()
        self.dir.cleanup()


def rss_mb(pid: int) -> float | None:
    """Resident memory of process ``pid`` in MiB (Linux /proc), None where unknown."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def cpu_seconds(pid: int) -> float | None:
    """The CPU time (user + system, in seconds) of process ``pid`` and of its live children
    (a server's bot workers), from Linux's /proc; None where unknown."""
    tick = os.sysconf("SC_CLK_TCK")

    def own(p: int) -> tuple[int, float] | None:
        try:
            with open(f"/proc/{p}/stat") as fh:
                f = fh.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            return None
        # after the name: state ppid ... utime (14th field) stime (15th)
        return int(f[1]), (int(f[11]) + int(f[12])) / tick

    top = own(pid)
    if top is None:
        return None
    total = top[1]
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != pid:
            child = own(int(entry))
            if child is not None and child[0] == pid:
                total += child[1]
    return total
