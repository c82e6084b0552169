"""``civcards serve`` on the command line."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytest.importorskip("fastapi")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "civcards.cli", *args], capture_output=True, text=True, timeout=60
    )


def test_serve_is_listed_with_its_options() -> None:
    r = run("serve", "--help")
    assert r.returncode == 0
    for opt in ("--host", "--port", "--db", "--redis", "--bot-delay", "--max-body",
                "--rate-limit", "--rate-burst", "--ws-max-message"):  # fmt: skip
        assert opt in r.stdout


def test_a_bad_database_url_is_a_clear_error() -> None:
    r = run("serve", "--db", "nonsense-url", "--port", "0")
    assert r.returncode == 2
    assert "cannot use the database" in r.stderr
    assert "Traceback" not in r.stderr


def test_a_bad_redis_url_is_a_clear_error() -> None:
    pytest.importorskip("redis")
    r = run("serve", "--redis", "http://localhost:6379", "--port", "0")
    assert r.returncode == 2
    assert "is not a Redis URL" in r.stderr
    assert "Traceback" not in r.stderr


def test_a_bad_eviction_setting_is_named_not_blamed_on_the_database() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "civcards.cli", "serve", "--port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "CIVCARDS_MAX_LIVE_GAMES": "lots"},
    )
    assert r.returncode == 2
    assert "CIVCARDS_MAX_LIVE_GAMES" in r.stderr
    assert "database" not in r.stderr and "Traceback" not in r.stderr
