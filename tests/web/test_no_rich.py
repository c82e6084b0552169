"""The web process never imports Rich or the terminal (issue 16): a fresh interpreter builds
the app, lists the games as the lobby does, and creates and shows a game of every
registered game (without an HTTP client: httpx imports Rich for its command line)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import sys, tempfile
from civcards.game_api import all_games
from civcards.server.app import create_app
from civcards.server.db import migrate
from civcards.server.kinds import describe_kinds

app = create_app(f"sqlite:///{tempfile.mkdtemp()}/t.db", bot_delay=0.0)
server = app.state.server
migrate(server.engine)
assert describe_kinds("de")  # what the lobby shows
for game in all_games():  # a game of each, and its views with their words
    n = max(2, game.min_players)
    live, tokens = server.create(
        kind=game.name, players=n, options={}, seats=[{"kind": "human"}] * n
    )
    for seat in [*range(n), None]:
        assert server.view(live, seat, "fr")["observation"]
loaded = sorted(
    m for m in sys.modules
    if m == "rich" or m.startswith("rich.") or m == "civcards.terminal"
    or m.startswith("civcards.terminal.")
)
print("LOADED", loaded)
"""


def assert_loads_none(script: str) -> None:
    """Run ``script`` in a fresh interpreter: it exits cleanly and prints ``LOADED []``."""
    out = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert "LOADED []" in out.stdout, out.stdout[-2000:]


def test_the_web_process_imports_neither_rich_nor_the_terminal() -> None:
    assert_loads_none(SCRIPT)


#: what a bot worker process imports (botpool's initializer): the pool's module, every game
#: and the search bot
WORKER = """
import sys
import civcards.server.botpool
from civcards.game_api import all_games
all_games()
import civcards.bots.ismcts
heavy = ("fastapi", "starlette", "sqlalchemy", "alembic", "pydantic", "jinja2", "uvicorn")
print("LOADED", sorted(m for m in sys.modules if m.split(".")[0] in heavy))
"""


def test_a_bot_worker_imports_no_web_framework_nor_database() -> None:
    """A bot worker (spawned: it imports ``civcards.server.botpool`` afresh) loads neither
    the web framework nor the database layer: the server package imports nothing itself."""
    assert_loads_none(WORKER)
