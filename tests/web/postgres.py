"""A throwaway PostgreSQL cluster for tests: Debian's ``postgresql`` binaries, a temporary
data directory, a free port on loopback; stopped and removed afterwards.

``CIVCARDS_TEST_PG_URL`` (a ``postgresql+psycopg://`` URL of an empty database) is used
instead when it is set.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from civcards.loadtest import free_port


def find_bin() -> Path | None:
    """The directory of ``initdb``/``pg_ctl`` (newest Debian version), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class TempPostgres:
    """``initdb`` + ``pg_ctl start`` as the ``postgres`` user when run as root."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="civcards-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.url = f"postgresql+psycopg://civ@127.0.0.1:{self.port}/civ"
        self._as: list[str] = []
        if os.geteuid() == 0:
            # PostgreSQL refuses to run as root: hand the directory to its own user
            self.root.chmod(0o755)
            shutil.chown(self.root, "postgres", "postgres")
            self._as = ["runuser", "-u", "postgres", "--"]

    def _run(self, *args: str) -> None:
        subprocess.run(
            [*self._as, *args], check=True, capture_output=True, timeout=120, cwd=self.root
        )

    def start(self) -> None:
        b = self.bindir
        self._run(str(b / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "civ", "--no-sync")
        self.resume()
        self._run(str(b / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "civ", "civ")

    def resume(self) -> None:
        """Start the server (again) on the same data directory and port."""
        opts = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = str(self.root / "log")
        self._run(
            str(self.bindir / "pg_ctl"), "-D", str(self.data), "-o", opts, "-l", log, "-w", "start"
        )

    def halt(self) -> None:
        """Stop the server (its connections are cut), keeping the data: :meth:`resume`."""
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def stop(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        shutil.rmtree(self.root, ignore_errors=True)
