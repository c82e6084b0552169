"""``civcards serve`` runs the web table in a process without Rich or the terminal game
(issue 16: words out of the terminal; the web never imports the terminal)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")

SCRIPT = textwrap.dedent(
    """
    import sys
    import uvicorn

    def fake_run(*args, **kwargs):
        # the moment the server would start: what has this process loaded?
        print("LOADED", "rich" in sys.modules, "civcards.terminal" in sys.modules)

    uvicorn.run = fake_run
    from civcards.cli import main
    main(["serve", "--db", "sqlite:///{db}", "--port", "0"])
    """
)


def test_serve_process_loads_neither_rich_nor_the_terminal(tmp_path: Path) -> None:
    code = SCRIPT.format(db=tmp_path / "lean.db")
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert out.returncode == 0, out.stderr
    assert "LOADED False False" in out.stdout, out.stdout + out.stderr


def test_other_commands_still_load_the_whole_command_line() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "civcards.cli", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert out.returncode == 0
    for name in ("play", "replay", "simulate", "arena", "bench", "serve", "games"):
        assert name in out.stdout


#: what no command needs to declare itself: imported when a command runs, not by ``--help``
HEAVY = (
    "civcards.terminal",
    "civcards.sim.arena",
    "civcards.sim.report",
    "civcards.sim.rows",
    "rich.progress",
    "civcards.server",
)


def test_the_whole_command_line_declares_itself_without_the_commands_work() -> None:
    """``civcards --help`` builds every command (their options and help) without importing
    the terminal, the arena, the report, the rows, Rich's progress or the web table."""
    code = (
        "import sys\n"
        "from civcards.cli import build_app\n"
        "build_app()\n"
        f"print('LOADED', sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert out.returncode == 0, out.stderr
    assert "LOADED []" in out.stdout, out.stdout + out.stderr
