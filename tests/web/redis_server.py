"""A throwaway Redis server for tests: Debian's ``redis-server`` on a free loopback port,
in a temporary directory, persisting nothing; stopped and removed afterwards."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import redis

from civcards.loadtest import free_port


def find_redis() -> str | None:
    return shutil.which("redis-server") or (
        "/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else None
    )


class TempRedis:
    def __init__(self, binary: str) -> None:
        self.binary = binary
        self.root = Path(tempfile.mkdtemp(prefix="civcards-redis-"))
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        cmd = [
            self.binary,
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--dir", str(self.root),
            "--save", "",
            "--appendonly", "no",
            "--daemonize", "no",
        ]  # fmt: skip
        log = (self.root / "log").open("ab")
        self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=self.root)
        client = redis.Redis(port=self.port, socket_timeout=1, socket_connect_timeout=1)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"redis-server exited: {(self.root / 'log').read_text()[-1000:]}"
                )
            with contextlib.suppress(redis.RedisError):
                if client.ping():
                    client.close()
                    return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not answer in 20 s")

    def halt(self) -> None:
        """Stop abruptly (kill -9), keeping the port for :meth:`start`."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        self.halt()
        shutil.rmtree(self.root, ignore_errors=True)
