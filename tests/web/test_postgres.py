"""The web table on PostgreSQL (``civcards serve --db postgresql+psycopg://…``).

A real PostgreSQL server is started for these tests (Debian's ``postgresql``
package, which ``.ci/run`` installs); they are skipped, saying why, where it is
missing.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from civcards import carta

from . import net
from .conftest import ServerProcess, env_flag
from .postgres import TempPostgres, find_bin
from .test_api import human_bot_human, move, play_random, snapshot, state

pytest.importorskip("psycopg")


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    url = os.environ.get("CIVCARDS_TEST_PG_URL")
    if url:
        yield url
        return
    # CI sets CIVCARDS_REQUIRE_PG=1: there a missing PostgreSQL fails instead of skipping
    give_up = pytest.fail if env_flag("CIVCARDS_REQUIRE_PG") else pytest.skip
    bindir = find_bin()
    if bindir is None:
        give_up("PostgreSQL is not installed (apt-get install postgresql)")
        return
    pg = TempPostgres(bindir)
    try:
        pg.start()
    except Exception as e:
        pg.stop()
        give_up(f"could not start a PostgreSQL server: {e}")
        return
    yield pg.url
    pg.stop()


@pytest.fixture
def pg_server(pg_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    s = ServerProcess(tmp_path / "pg", db_url=pg_url)
    s.start()
    yield s
    s.stop()


def test_postgres_game_is_stored_and_survives_a_crash(pg_server: ServerProcess) -> None:
    """Moves go to PostgreSQL; after kill -9 the server rebuilds the same views."""
    server = pg_server
    gid, tokens, real = human_bot_human(server, "greedy", 5, random.Random(8), 30)
    before = snapshot(server, gid, real)
    assert before[0]["move_number"] >= 30
    server.restart(hard=True)
    assert snapshot(server, gid, real) == before
    # a stale move (the number already played) is refused after the restart too
    tok = tokens[before[-1]["game"]["to_move"]] or real[0]
    r = move(server, gid, tok, "end", before[0]["move_number"] - 1)
    assert r.status_code in (403, 409), r.text
    assert snapshot(server, gid, real) == before


def test_postgres_full_game_record_replays(pg_server: ServerProcess) -> None:
    server = pg_server
    g = server.create(
        players=2,
        seats=[{"kind": "human", "name": "Ana"}, {"kind": "bot"}],
        seed=12,
        private=False,  # listed
    )
    gid, tok = g["id"], g["seats"][0]["token"]
    play_random(server, gid, [tok, None], random.Random(6), 2000)
    final = state(server, gid, tok)
    assert final["game"]["status"] == "finished"
    rec = carta.parse_record(net.get(f"{server.base}/api/games/{gid}/record").text)
    replayed = carta.replay(rec)
    assert replayed.ok and replayed.state.finished
    assert replayed.state.winners == final["observation"]["winners"]
    # the game is listed by the server after a restart, from PostgreSQL
    server.restart()
    listed = net.get(f"{server.base}/api/games").json()
    assert any(x["id"] == gid for x in (listed["games"] if isinstance(listed, dict) else listed))
