"""Several ``civcards serve`` processes over one PostgreSQL and one Redis, and faults:
a process killed with ``kill -9`` in the middle of games, PostgreSQL stopped under a
running server, Redis lost and back.

Real processes throughout: Debian's ``postgresql`` and ``redis-server`` (``.ci/run``
installs both and sets ``CIVCARDS_REQUIRE_PG=1`` and ``CIVCARDS_REQUIRE_REDIS=1``, so
that there they fail instead of being skipped).
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from civcards import carta

from . import net
from .conftest import ServerProcess, env_flag
from .postgres import TempPostgres, find_bin
from .redis_server import TempRedis, find_redis
from .test_secrecy import expected_view

pytest.importorskip("psycopg")
pytest.importorskip("redis")
pytestmark = pytest.mark.filterwarnings("ignore:connect\\(\\) must be used")

H = "X-Seat-Token"


# -- fixtures ----------------------------------------------------------------


def start_pg() -> Iterator[TempPostgres]:
    """A PostgreSQL cluster started for the caller, stopped after it (skipped, or failed
    where CIVCARDS_REQUIRE_PG asks for it, when it cannot be had)."""
    give_up = pytest.fail if env_flag("CIVCARDS_REQUIRE_PG") else pytest.skip
    bindir = find_bin()
    if bindir is None:
        give_up("PostgreSQL is not installed (apt-get install postgresql)")
        return
    db = TempPostgres(bindir)
    try:
        db.start()
    except Exception as e:
        db.stop()
        give_up(f"could not start a PostgreSQL server: {e}")
        return
    yield db
    db.stop()


def start_rd() -> Iterator[TempRedis]:
    give_up = pytest.fail if env_flag("CIVCARDS_REQUIRE_REDIS") else pytest.skip
    binary = find_redis()
    if binary is None:
        give_up("redis-server is not installed (apt-get install redis-server)")
        return
    r = TempRedis(binary)
    try:
        r.start()
    except Exception as e:
        r.stop()
        give_up(f"could not start redis-server: {e}")
        return
    yield r
    r.stop()


def start_pair(
    pg: TempPostgres, rd: TempRedis, where: Path
) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    """Two serve processes sharing one PostgreSQL and one Redis (bots move at once), started
    side by side (each takes seconds to answer); after use, neither process showed anyone
    a traceback, nor wrote one."""
    procs = [
        ServerProcess(where / name, db_url=pg.url, extra_args=["--redis", rd.url])
        for name in ("a", "b")
    ]
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(ServerProcess.start, procs))
    yield procs[0], procs[1]
    for p in procs:
        p.stop()
    for p in procs:  # no process showed anyone a traceback, nor wrote one
        assert "Traceback" not in p.log(), p.log()[-3000:]


@pytest.fixture
def pg() -> Iterator[TempPostgres]:
    """A PostgreSQL cluster of the test's own (it may be stopped and started again)."""
    yield from start_pg()


@dataclass
class Stack:
    """One PostgreSQL, one Redis and two processes over them (:func:`start_pair`)."""

    pg: TempPostgres
    rd: TempRedis
    a: ServerProcess
    b: ServerProcess


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """The module's PostgreSQL, Redis and two processes, started once (a start costs
    seconds), not once a test: the tests that harm none of them use it first
    (:func:`shared_pair`), those that kill a process or lose Redis last (:func:`pair`,
    :func:`rd`, which put it back as they found it). After the module, neither process
    showed anyone a traceback, nor wrote one."""
    for db in start_pg():
        for r in start_rd():
            for a, b in start_pair(db, r, tmp_path_factory.mktemp("pair")):
                yield Stack(db, r, a, b)


@pytest.fixture
def rd(stack: Stack) -> Iterator[TempRedis]:
    """The module's Redis (it may be lost and started again): running again after the
    test, however it ended."""
    yield stack.rd
    if stack.rd.proc is None:
        stack.rd.start()


@pytest.fixture
def pair(stack: Stack) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    """The module's two processes (one may be killed): both running again after the test,
    however it ended."""
    yield stack.a, stack.b
    for p in (stack.a, stack.b):
        if p.proc is None:
            p.start()


@pytest.fixture
def shared_pair(stack: Stack) -> tuple[ServerProcess, ServerProcess]:
    """The module's two processes for the tests that harm none of them (each plays games
    of its own)."""
    return stack.a, stack.b


# -- helpers -------------------------------------------------------------------


def get_state(base: str, gid: str, token: str | None = None) -> dict[str, Any]:
    r = net.get(f"{base}/api/games/{gid}/state", headers={H: token} if token else {}, timeout=10)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def post_move(base: str, gid: str, token: str, mv: str, expected: int) -> httpx.Response:
    return net.post(
        f"{base}/api/games/{gid}/moves",
        json={"move": mv, "expected": expected},
        headers={H: token},
        timeout=10,
    )


def choose(st: dict[str, Any], rng: random.Random) -> str:
    if st["pending"]:
        return str(rng.choice(st["pending"]["choices"])["text"])
    return str(rng.choice(st["options"])["text"])


Acked = dict[tuple[str, int], str]  # (game, index in the record) -> the move answered 200


def play(
    bases: Callable[[], list[str]],
    gid: str,
    tokens: list[str | None],
    rng: random.Random,
    acked: Acked,
    *,
    limit: int = 100000,
    deadline: float = 240.0,
) -> int:
    """Play random choices for the human seats through the first process of ``bases()``
    (at most ``limit`` moves); every move answered 200 goes into ``acked``. A process that does not answer (killed)
    is tried again through ``bases()``; a stale refusal (another process stored first, or
    this one had not heard yet) is answered by looking again."""
    made = 0
    end = time.monotonic() + deadline
    while made < limit:
        assert time.monotonic() < end, f"game {gid} did not get on"
        base = bases()[0]
        try:
            info = net.get(f"{base}/api/games/{gid}", timeout=10)
            if info.status_code != 200:
                raise httpx.HTTPError(info.text)
            if info.json()["status"] == "finished":
                break
            tok = tokens[info.json()["to_move"]]
            if tok is None:  # a bot's turn
                time.sleep(0.02)
                continue
            r = net.get(f"{base}/api/games/{gid}/state", headers={H: tok}, timeout=10)
            if r.status_code != 200:
                raise httpx.HTTPError(r.text)
            st = r.json()
            if st["game"]["to_move"] != info.json()["to_move"]:
                continue
            r = post_move(base, gid, tok, choose(st, rng), st["move_number"])
        except httpx.HTTPError:
            time.sleep(0.05)
            continue
        if r.status_code == 200:
            body = r.json()
            if body["applied"] is not None:  # (not a commitment to a hidden choice)
                acked[(gid, body["move_number"] - 1)] = body["applied"]
                made += 1
            continue
        assert r.status_code == 409 and r.json()["code"] == "stale", r.text
    return made


def record_of(base: str, gid: str) -> dict[str, Any]:
    r = net.get(f"{base}/api/games/{gid}/record", timeout=10)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def replays(rec: dict[str, Any]) -> carta.GameState:
    result = carta.replay(carta.parse_record(json.dumps(rec)))
    assert result.ok, result
    assert result.state.finished
    return result.state


class Watcher:
    """A WebSocket client in a thread: keeps every frame it receives."""

    def __init__(self, server: ServerProcess, gid: str, token: str | None) -> None:
        self.ws: ClientConnection = connect(
            f"ws://127.0.0.1:{server.port}/ws/{gid}", open_timeout=10
        )
        self.ws.send(json.dumps({"token": token, "lang": "en"}))
        self.frames: list[dict[str, Any]] = []
        self.closed: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            for msg in self.ws:
                self.frames.append(json.loads(msg))
        except BaseException as e:
            self.closed = e
        else:
            self.closed = EOFError("closed")

    def wait_for(
        self, pred: Callable[[dict[str, Any]], bool], timeout: float = 10
    ) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for f in list(self.frames):
                if pred(f):
                    return f
            time.sleep(0.02)
        last = self.frames[-1] if self.frames else None
        raise AssertionError(
            f"no such frame in {timeout} s; last: {last and last.get('move_number')}"
        )

    def close(self) -> None:
        self.ws.close()
        self.thread.join(5)


def at_move(n: int) -> Callable[[dict[str, Any]], bool]:
    """A frame of move number ``n`` (for :meth:`Watcher.wait_for`)."""
    return lambda f: f.get("move_number") == n


# -- (a) two processes share games ----------------------------------------------


def test_a_move_through_one_process_reaches_clients_of_the_other(
    shared_pair: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = shared_pair
    g = a.create(players=2, seats=[{"kind": "human"}, {"kind": "human"}], seed=31)
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]
    engine = carta.new_game(2, seed=31)
    seat = engine.to_move
    assert seat is not None
    watchers = {0: Watcher(a, gid, tokens[0]), 1: Watcher(a, gid, tokens[1])}
    spectator = Watcher(a, gid, None)
    try:
        for w in [*watchers.values(), spectator]:
            w.wait_for(lambda f: f.get("move_number") == 0)
        st = get_state(b.base, gid, tokens[seat])
        mv = next(o["text"] for o in st["options"] if o["final"])
        r = post_move(b.base, gid, tokens[seat], mv, 0)
        assert r.status_code == 200, r.text
        engine.apply(r.json()["applied"])
        # each client of process A hears of it, with its own seat's view
        keys = ("seat", "move_number", "observation", "options", "pending")
        for s, w in watchers.items():
            f = w.wait_for(lambda f: f.get("move_number") == 1)
            assert {k: f[k] for k in keys} == expected_view(engine, s, None)
        spectator.wait_for(lambda f: f.get("move_number") == 1)
        # and both processes now answer the same views
        for tok in [*tokens, None]:
            assert get_state(a.base, gid, tok) == get_state(b.base, gid, tok)
        # a notice, not the sweep (every 2 s) that would catch up too: no waiting
        delays = []
        for _ in range(6):
            st = get_state(b.base, gid)
            n = st["move_number"]
            t0 = time.monotonic()
            play(lambda: [b.base], gid, tokens, random.Random(n), {}, limit=1)
            spectator.wait_for(at_move(n + 1))
            delays.append(time.monotonic() - t0)
        assert sorted(delays)[3] < 0.5, delays
    finally:
        for w in [*watchers.values(), spectator]:
            w.close()


def test_two_processes_storing_the_same_move_number_one_is_refused(
    shared_pair: tuple[ServerProcess, ServerProcess],
) -> None:
    """The same move number sent at once through both processes: exactly one is stored,
    the other is refused 409 stale; the record holds no move twice and replays."""
    a, b = shared_pair
    g = a.create(players=2, seats=[{"kind": "human"}, {"kind": "human"}], seed=32)
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]
    rng = random.Random(3)
    stored = 0
    with ThreadPoolExecutor(2) as pool:
        for _ in range(400):
            st = get_state(a.base, gid)
            if st["game"]["status"] == "finished":
                break
            tok = tokens[st["game"]["to_move"]]
            mine = get_state(a.base, gid, tok)
            n = mine["move_number"]
            mv = choose(mine, rng)
            answers = list(
                pool.map(post_move, [a.base, b.base], [gid] * 2, [tok] * 2, [mv] * 2, [n] * 2)
            )
            codes = sorted(r.status_code for r in answers)
            # refused: 409 stale, or (a hidden choice the other process had already
            # heard of) 422 "choose one of the committed choice's moves"
            assert codes in ([200, 409], [200, 422]), [r.text for r in answers]
            refused = next(r for r in answers if r.status_code != 200).json()
            assert refused["code"] in ("stale", "pending_choice"), refused
            stored += 1
            # both processes are at the same move number now
            assert get_state(b.base, gid)["move_number"] == get_state(a.base, gid)["move_number"]
    final = get_state(b.base, gid)
    assert final["game"]["status"] == "finished", "the game did not end in 400 rounds"
    rec = record_of(a.base, gid)
    assert len(rec["moves"]) == final["move_number"]
    replays(rec)


def test_bots_are_driven_once_across_processes(
    shared_pair: tuple[ServerProcess, ServerProcess],
) -> None:
    """A game with bots created through B, its human playing through A and B in turn:
    the bots' moves are stored once (no gaps, no doubles), the record replays."""
    a, b = shared_pair
    g = b.create(
        players=3,
        seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot"}],
        seed=33,
    )
    gid = g["id"]
    tokens: list[str | None] = [s["token"] for s in g["seats"]]
    acked: Acked = {}
    flip = [0]

    def alternate() -> list[str]:
        flip[0] += 1
        return [a.base, b.base] if flip[0] % 2 else [b.base, a.base]

    play(alternate, gid, tokens, random.Random(4), acked)
    rec = record_of(a.base, gid)
    assert rec == record_of(b.base, gid)
    replays(rec)
    for (_, idx), mv in acked.items():
        assert rec["moves"][idx] == mv


# -- (b) kill -9 a process with moves in flight ----------------------------------


def test_kill_9_a_process_mid_game_loses_no_acknowledged_move(
    pair: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = pair
    games = [
        b.create(players=2, seats=[{"kind": "human"}, {"kind": "human"}], seed=41),
        b.create(players=2, seats=[{"kind": "human"}, {"kind": "bot"}], seed=42),
        b.create(players=3, seats=[{"kind": "human"}, {"kind": "bot"}, {"kind": "human"}], seed=43),
    ]
    tokens = {g["id"]: [s["token"] for s in g["seats"]] for g in games}
    # clients of the process that survives
    watch_gid = games[0]["id"]
    watchers = [Watcher(a, watch_gid, tokens[watch_gid][0]), Watcher(a, watch_gid, None)]
    for w in watchers:
        w.wait_for(lambda f: f.get("type") == "state")
    acked: Acked = {}
    b_alive = threading.Event()
    b_alive.set()

    def through_b_then_a() -> list[str]:
        return [b.base, a.base] if b_alive.is_set() else [a.base]

    # phase 1: every game played through B, concurrently; B is killed while moves fly
    def phase1(gid: str, seed: int) -> None:
        play(through_b_then_a, gid, tokens[gid], random.Random(seed), acked, limit=25)

    threads = [
        threading.Thread(target=phase1, args=(g["id"], i), daemon=True) for i, g in enumerate(games)
    ]
    for t in threads:
        t.start()
    time.sleep(1.0)
    b_alive.clear()
    b.kill()  # kill -9, moves in flight
    for t in threads:
        t.join(120)
        assert not t.is_alive()
    # phase 2: the games go on through A (it takes over the bots B drove) to their end
    for i, g in enumerate(games):
        play(lambda: [a.base], g["id"], tokens[g["id"]], random.Random(100 + i), acked)
    b.start()
    for g in games:
        gid = g["id"]
        rec = record_of(a.base, gid)
        assert record_of(b.base, gid) == rec  # the restarted process serves the same record
        replays(rec)
        for (game, idx), mv in acked.items():
            if game == gid:
                assert rec["moves"][idx] == mv, (gid, idx)
    assert len(acked) > 30
    # the clients of A never lost their connection and saw the game to its end
    final = get_state(a.base, watch_gid)["move_number"]
    for w in watchers:
        w.wait_for(lambda f: f.get("move_number") == final)
        assert w.closed is None, w.closed
        numbers = [f["move_number"] for f in w.frames if f.get("type") == "state"]
        assert numbers == sorted(numbers)
        w.close()


# -- (c) the database goes away and comes back ------------------------------------


def test_postgres_restarted_under_a_running_server(pg: TempPostgres, tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "solo", db_url=pg.url, bot_delay=0.3)
    server.start()
    try:
        g = server.create(players=2, seats=[{"kind": "human"}, {"kind": "human"}], seed=51)
        gid, tokens = g["id"], [s["token"] for s in g["seats"]]
        bot_game = server.create(players=2, seats=[{"kind": "human"}, {"kind": "bot"}], seed=52)
        bgid, btok = bot_game["id"], bot_game["seats"][0]["token"]
        acked: Acked = {}
        play(lambda: [server.base], gid, tokens, random.Random(5), acked, limit=6)
        # the human's move in the bot game: then the bot (0.3 s later) meets the outage
        play(lambda: [server.base], bgid, [btok, None], random.Random(6), acked, limit=1)
        before = get_state(server.base, gid)
        pg.halt()
        try:
            tok = tokens[before["game"]["to_move"]]
            mine = get_state(server.base, gid, tok)  # held in memory: still answered
            mv = choose(mine, random.Random(7))
            r = post_move(server.base, gid, tok, mv, mine["move_number"])
            assert r.status_code == 503, r.text
            assert r.json()["code"] == "db_unavailable"
            assert "Traceback" not in r.text and r.headers.get("retry-after")
            for path in ("/api/games", "/readyz", "/api/games/nosuchgame"):
                r = net.get(server.base + path, timeout=20)
                assert r.status_code == 503, (path, r.text)
            assert net.get(server.base + "/healthz").status_code == 200
            time.sleep(1.0)  # the bot tries meanwhile
        finally:
            pg.resume()
        end = time.monotonic() + 30
        while net.get(server.base + "/readyz", timeout=20).status_code != 200:
            assert time.monotonic() < end, "the server did not recover"
            time.sleep(0.2)
        # the refused move changed nothing; now it is stored
        assert get_state(server.base, gid) == before
        r = post_move(server.base, gid, tok, mv, mine["move_number"])
        assert r.status_code == 200, r.text
        for game, toks in ((gid, tokens), (bgid, [btok, None])):
            play(lambda: [server.base], game, toks, random.Random(8), acked)
            replays(record_of(server.base, game))
        log = server.log()
        assert "Traceback" not in log, log[-3000:]
    finally:
        server.stop()


# -- Redis lost and back -----------------------------------------------------------


def moves_held(server: ServerProcess, gid: str) -> int:
    """The moves of ``gid`` that ``server`` holds in memory (its /api/games/{id} answers from
    memory: it reads nothing from the database for a game it holds)."""
    r = net.get(f"{server.base}/api/games/{gid}", timeout=10)
    assert r.status_code == 200, r.text
    return int(r.json()["move_number"])


def until_held(server: ServerProcess, gid: str, n: int, why: str, timeout: float = 10) -> None:
    end = time.monotonic() + timeout
    while moves_held(server, gid) != n:
        assert time.monotonic() < end, f"{why}: still {moves_held(server, gid)} moves, not {n}"
        time.sleep(0.05)


def test_redis_lost_and_back(pair: tuple[ServerProcess, ServerProcess], rd: TempRedis) -> None:
    """Without Redis the processes still share the record (clients hear late, by the
    sweep); when Redis is back, a's resubscription refreshes the games it holds, and
    notices flow again.

    A notice, not the sweep: a second game (``quiet``) is held by a but watched by nobody
    there and has no bot, so a's sweep passes it by (it catches up only the games with
    clients or a bot to move); a move of it made through b reaches a's memory only by a
    notice (or a resubscription's refresh). That the sweep passes it by is checked here
    too, while Redis is lost."""
    a, b = pair
    g = a.create(players=2, seats=[{"kind": "human"}, {"kind": "human"}], seed=61)
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]
    q = a.create(players=2, seats=[{"kind": "human"}, {"kind": "human"}], seed=62)
    quiet, qtokens = q["id"], [s["token"] for s in q["seats"]]
    w = Watcher(a, gid, None)
    try:
        w.wait_for(lambda f: f.get("move_number") == 0)
        rd.halt()
        acked: Acked = {}
        play(lambda: [b.base], quiet, qtokens, random.Random(8), acked, limit=1)
        play(lambda: [b.base], gid, tokens, random.Random(9), acked, limit=1)
        # a's sweep brings the watched game's move (stored after the quiet one's) ...
        w.wait_for(lambda f: f.get("move_number") == 1, timeout=15)
        # ... and passes the quiet game by: a still holds it as it was
        assert moves_held(a, quiet) == 0
        assert net.get(a.base + "/readyz", timeout=20).status_code == 503
        rd.start()
        end = time.monotonic() + 30
        while net.get(a.base + "/readyz", timeout=20).status_code != 200:
            assert time.monotonic() < end, "the server did not find Redis again"
            time.sleep(0.2)
        # resubscribed: every game a holds is refreshed (notices were missed meanwhile)
        until_held(a, quiet, 1, "the resubscription did not refresh the quiet game")
        # a move through b reaches a's memory: only a notice can bring it
        play(lambda: [b.base], quiet, qtokens, random.Random(8), acked, limit=1)
        until_held(a, quiet, 2, "no notice reached a")
        # and the watched game's clients hear again
        play(lambda: [b.base], gid, tokens, random.Random(9), acked, limit=1)
        w.wait_for(lambda f: f.get("move_number") == 2, timeout=15)
    finally:
        w.close()
