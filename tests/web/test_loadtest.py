"""``civcards loadtest`` for real: a server process, simulated humans over WebSocket + HTTP."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from civcards.loadtest import percentile

pytest.importorskip("websockets")


def run(
    *args: str, timeout: float = 180, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "civcards.cli", "loadtest", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **env} if env else None,
    )


def test_loadtest_json_reports_moves_latency_and_no_errors() -> None:
    r = run("--games", "3", "--duration", "4", "--think-ms", "50", "--bot-delay", "0", "--json")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    out = json.loads(r.stdout)
    for key in ("games", "moves_per_sec", "p50_ms", "p99_ms", "errors", "duration_s", "moves",
                "server_rss_mb", "players"):  # fmt: skip
        assert key in out
    assert out["games"] == 3 and out["players"] == 3
    assert out["errors"] == 0, out["error_samples"]
    assert out["moves"] > 10 and out["moves_per_sec"] > 0
    assert out["samples"] > 0 and 0 < out["p50_ms"] <= out["p99_ms"]
    assert out["server_rss_mb"] is not None and out["server_rss_mb"] > 10
    # the server's CPU over the window, per human move (issue 36): some, and under the
    # window's length on the machine's CPUs
    assert out["human_moves"] > 0
    assert 0 < out["server_cpu_s"] <= out["duration_s"] * (os.cpu_count() or 1)
    assert out["server_cpu_ms_per_move"] == pytest.approx(
        out["server_cpu_s"] * 1000 / out["human_moves"], rel=0.02
    )


def test_loadtest_reports_human_latency_apart_in_games_with_search_bots() -> None:
    """``--bot-games``: so many games have search bots thinking (in the server's bot
    workers) while people play; their humans' move latency is reported apart."""
    r = run(
        "--games", "3", "--bot-games", "1", "--search-bot", "ismcts:30it", "--duration", "10",
        "--think-ms", "50", "--bot-delay", "0", "--bot-workers", "1", "--json",
    )  # fmt: skip
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    out = json.loads(r.stdout)
    assert out["errors"] == 0, out["error_samples"]
    assert out["bot_games"] == 1 and out["search_bot"] == "ismcts:30it"
    assert out["bot_games_samples"] > 0 and out["bot_games_moves"] > 0
    assert out["samples"] > out["bot_games_samples"]
    assert 0 < out["plain_p50_ms"] <= out["plain_p99_ms"] <= out["max_ms"]
    assert 0 < out["bot_games_p50_ms"] <= out["bot_games_p99_ms"] <= out["max_ms"]


def test_loadtest_plays_any_game_the_server_hosts() -> None:
    """The load test knows no game: the test-only game (steps that hide nothing, and a
    hidden one) registered in the server it starts, through CIVCARDS_EXTRA_GAMES."""
    r = run(
        "--game", "toy", "--players", "3", "--games", "2", "--duration", "3",
        "--think-ms", "20", "--bot-delay", "0", "--json",
        env={"CIVCARDS_EXTRA_GAMES": "tests.toygame:GAME"},
    )  # fmt: skip
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    out = json.loads(r.stdout)
    assert out["errors"] == 0, out["error_samples"]
    assert out["human_moves"] > 5 and out["games_finished"] >= 1


def test_loadtest_refuses_bad_options_clearly() -> None:
    for args, words in (
        (("--players", "3", "--humans", "4"), "--humans"),
        (("--url", "ftp://example"), "http://"),
        (("--curve", "10,x"), "--curve"),
        (("--game", "chess", "--duration", "1"), "hosts no game 'chess'"),
        (("--players", "9", "--humans", "1", "--duration", "1"), "--players"),
        (("--games", "2", "--bot-games", "3"), "--bot-games"),
        (("--bot-games", "1", "--search-bot", "deep", "--duration", "1"), "--search-bot"),
    ):
        r = run(*args, timeout=60)
        assert r.returncode == 2, (args, r.stderr)
        assert words in r.stderr and "Traceback" not in r.stderr


def test_loadtest_against_no_server_is_an_error_not_a_traceback() -> None:
    r = run("--url", "http://127.0.0.1:9", "--games", "1", "--duration", "1", "--json",
            timeout=60)  # fmt: skip
    assert r.returncode == 1
    assert "no civcards server answers" in r.stderr and "Traceback" not in r.stderr


def test_percentile_is_the_nearest_rank() -> None:
    xs = [float(i) for i in range(1, 101)]
    assert percentile(xs, 0.5) == 50.0
    assert percentile(xs, 0.99) == 99.0
    assert percentile([3.0], 0.99) == 3.0
    assert percentile([], 0.5) is None


def test_loadtest_curve_draws_its_plot(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "curve.png"
    r = run("--curve", "1,2", "--duration", "1", "--think-ms", "50", "--bot-delay", "0",
            "--plot", str(png), "--json")  # fmt: skip
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    curve = json.loads(r.stdout)["curve"]
    assert [c["games"] for c in curve] == [1, 2]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def taken_port(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """A loopback port another socket listens on, handed out first by both ``free_port``
    functions (the load test's and the web tests' fixture's), as a race would."""
    import socket

    import civcards.loadtest as lt

    from . import conftest

    squatter = socket.socket()
    squatter.bind(("127.0.0.1", 0))
    squatter.listen()
    taken = int(squatter.getsockname()[1])
    for module in (lt, conftest):
        real = module.free_port
        ports = iter([taken])
        monkeypatch.setattr(module, "free_port", lambda p=ports, r=real: next(p, None) or r())
    yield taken
    squatter.close()


def test_own_server_moves_to_another_port_when_its_port_is_taken(taken_port: int) -> None:
    """A port found free can be taken before the server binds it (another test's server, say):
    the load test's own server then starts again on another port instead of failing, and the
    server that answers is its own."""
    import civcards.loadtest as lt

    srv = lt.OwnServer(0.0)
    try:
        srv.wait_ready()
        assert srv.port != taken_port
        assert lt.listens_on(srv.proc.pid, srv.port) is True
        assert lt.listens_on(srv.proc.pid, taken_port) is False
    finally:
        srv.stop()


def test_test_server_moves_to_another_port_when_its_port_is_taken(
    tmp_path: Path, taken_port: int
) -> None:
    """The web tests' own server fixture has the same guard: a port taken between finding it
    and binding it is traded for another, and the server that answers is its own; a restart
    keeps the port it ran on."""
    from civcards.loadtest import listens_on

    from . import conftest

    srv = conftest.ServerProcess(tmp_path / "civ.db")
    try:
        srv.start()
        assert srv.port != taken_port
        assert srv.proc is not None and listens_on(srv.proc.pid, srv.port) is True
        port = srv.port
        srv.restart()
        assert srv.port == port
        assert srv.proc is not None and listens_on(srv.proc.pid, port) is True
    finally:
        srv.stop()
