"""Schemathesis against the generated OpenAPI schema of a real server: no server error."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from . import net
from .conftest import ServerProcess


def test_openapi_schema_lists_the_api(server: ServerProcess) -> None:
    schema = net.get(server.base + "/openapi.json").json()
    paths = set(schema["paths"])
    for p in (
        "/api/games",
        "/api/games/{game_id}/join",
        "/api/games/{game_id}/state",
        "/api/games/{game_id}/options",
        "/api/games/{game_id}/moves",
        "/api/games/{game_id}/record",
        "/api/games/{game_id}/rematch",
    ):
        assert p in paths


def test_schemathesis_finds_no_server_error(server: ServerProcess, tmp_path: Path) -> None:
    exe = shutil.which("schemathesis", path=str(Path(sys.executable).parent))
    if exe is None:
        pytest.skip("schemathesis is not installed")
    g = server.create(players=2, seats=[{"kind": "human"}, {"kind": "bot"}], seed=1)
    (tmp_path / "schemathesis.toml").write_text(f'[parameters]\n"game_id" = "{g["id"]}"\n')
    r = subprocess.run(
        [
            exe,
            "--config-file",
            str(tmp_path / "schemathesis.toml"),
            "run",
            server.base + "/openapi.json",
            "--checks",
            "not_a_server_error",
            "--max-examples",
            "15",
            "--seed",
            "1",
            "-w",
            "1",
            "--no-color",
            "-H",
            f"X-Seat-Token: {g['seats'][0]['token']}",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    assert "passed" in r.stdout
