"""The load test of the web table: many live games played by simulated humans and bots.

It is a client of the web table's generic protocol only (HTTP API and WebSocket,
docs/web.md), for any game the server hosts (``--game``). Each game is created
through the HTTP API with ``humans`` human seats and ``players - humans`` bot
seats. Every human seat is a client that does what the browser does: it opens
``/ws/{id}``, sends its token, and whenever a frame says it is to move it waits
a little (the think time), picks one of the choices the frame offers it at
random and POSTs its text to ``/api/games/{id}/moves`` with the frame's move
number; a step is expanded by the server (a hidden one is committed to and
comes back in the next frame, one that hides nothing comes back in the answer,
and a choice below it is sent next). When a game ends its slot starts a new
one, so that ``games`` games are live all the time.

Measured: the latency from a human's move being sent to the frame with the
resulting position arriving at each human client of the game (move→broadcast;
only moves sent once the measurement began count, and the generator's own
garbage collector is held while it measures, so that neither the set-up's
backlog nor the generator's pauses count as the server's),
the moves per second (bots' included), the errors (any refused request, error
frame, unexpected close or stalled game), and the server's resident memory.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import gc
import json
import math
import os
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx
import websockets

from .game_api import DEFAULT_GAME
from .load_server import OwnServer, cpu_seconds, free_port, listens_on, rss_mb, wait_serving

__all__ = ["OwnServer", "cpu_seconds", "free_port", "listens_on", "rss_mb", "wait_serving"]

HEADER = "X-Seat-Token"


class HttpError(Exception):
    """A request that got no HTTP answer."""


class HttpConn:
    """One keep-alive HTTP/1.1 connection, as a browser tab holds one: a small client of its
    own, so that the load test measures the server and not a client library's pool."""

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        """(status, body) of one request; a JSON ``body`` is sent as JSON."""
        data = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        if body is not None:
            head.append("Content-Type: application/json")
        head.append(f"Content-Length: {len(data)}")
        head += [f"{k}: {v}" for k, v in (headers or {}).items()]
        raw = ("\r\n".join(head) + "\r\n\r\n").encode() + data
        for attempt in (0, 1):
            fresh = self.writer is None or self.reader is None or self.reader.at_eof()
            if fresh:
                await self.close()
                try:
                    self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
                except OSError as e:
                    raise HttpError(f"cannot connect to {self.host}:{self.port}: {e}") from None
            assert self.reader is not None and self.writer is not None
            try:
                self.writer.write(raw)
                status_line = await self.reader.readline()
                if not status_line:
                    raise ConnectionResetError("closed before answering")
                length = 0
                close = False
                while True:
                    line = await self.reader.readline()
                    if line in (b"\r\n", b"\n", b""):
                        break
                    name, _, value = line.decode("latin-1").partition(":")
                    name = name.strip().lower()
                    if name == "content-length":
                        length = int(value)
                    elif name == "connection" and "close" in value.lower():
                        close = True
                payload = await self.reader.readexactly(length)
                if close:
                    await self.close()
                return int(status_line.split()[1]), payload
            except (ConnectionError, asyncio.IncompleteReadError, ValueError, IndexError) as e:
                await self.close()
                # an idle keep-alive connection the server had closed: once more, afresh
                if attempt == 0 and not fresh:
                    continue
                raise HttpError(f"{method} {path}: {e!r}") from None
        raise HttpError(f"{method} {path}: no answer")

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(Exception):
                await self.writer.wait_closed()
        self.reader = self.writer = None


@dataclass(frozen=True)
class LoadConfig:
    games: int = 10  # games live at once
    players: int = 3  # seats per game
    humans: int = 2  # simulated humans per game (the other seats are bots)
    duration: float = 20.0  # seconds of measurement (after the games are set up)
    moves: int | None = None  # or stop after this many human moves
    think_ms: float = 1000.0  # mean think time of a human (uniform 0.5x..1.5x)
    url: str | None = None  # a running server; None: start one
    seed: int = 0
    bot_delay: float = 0.2  # --bot-delay of the server started here
    stall_s: float = 30.0  # a game without a frame for this long is an error
    bot: str = "random"  # the bots' level
    game: str = DEFAULT_GAME  # the registered game to play
    bot_games: int = 0  # of the games, so many have search_bot bots instead (bots thinking)
    search_bot: str = "ismcts:0.5s"  # the bots of those games
    bot_workers: int | None = None  # --bot-workers of the server started here

    def check(self) -> None:
        if self.games < 1:
            raise ValueError("--games must be at least 1")
        if self.players < 1:
            raise ValueError("--players must be at least 1")
        if not self.game.strip():
            raise ValueError("--game must name a game")
        if not 1 <= self.humans <= self.players:
            raise ValueError(f"--humans must be between 1 and --players ({self.players})")
        if self.duration <= 0 and self.moves is None:
            raise ValueError("--duration must be positive")
        if self.moves is not None and self.moves < 1:
            raise ValueError("--moves must be at least 1")
        if self.think_ms < 0:
            raise ValueError("--think-ms cannot be negative")
        if not 0 <= self.bot_games <= self.games:
            raise ValueError(f"--bot-games must be between 0 and --games ({self.games})")
        if self.bot_games and self.humans >= self.players:
            raise ValueError("--bot-games needs a bot seat: --humans must be below --players")
        if not self.search_bot.strip():
            raise ValueError("--search-bot must name a bot")
        if self.bot_workers is not None and self.bot_workers < 0:
            raise ValueError("--bot-workers cannot be negative")


@dataclass
class LoadResult:
    games: int
    players: int
    humans: int
    clients: int
    think_ms: float
    duration_s: float
    moves: int
    human_moves: int
    moves_per_sec: float
    samples: int
    p50_ms: float | None
    p90_ms: float | None
    p99_ms: float | None
    max_ms: float | None
    #: the human moves' latency in the games without search bots / with them (--bot-games)
    plain_p50_ms: float | None
    plain_p99_ms: float | None
    bot_games: int
    search_bot: str | None
    bot_games_samples: int
    bot_games_p50_ms: float | None
    bot_games_p99_ms: float | None
    #: moves made in the games with search bots (theirs and their humans')
    bot_games_moves: int
    errors: int
    error_kinds: dict[str, int]
    error_samples: list[str]
    games_started: int
    games_finished: int
    server_rss_mb: float | None
    url: str
    #: the server process's CPU time (user + system, its bot workers' included) over the
    #: measured window, and that divided by the human moves made in it (None with --url)
    server_cpu_s: float | None = None
    server_cpu_ms_per_move: float | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def percentile(values: list[float], q: float) -> float | None:
    """The ``q``-quantile (0..1) of ``values`` by the nearest rank; None if empty."""
    if not values:
        return None
    s = sorted(values)
    k = max(0, min(len(s) - 1, math.ceil(q * len(s)) - 1))
    return s[k]


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    #: the latencies of human moves in the games with search bots (also in latencies)
    search_latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    samples: list[str] = field(default_factory=list)
    human_moves: int = 0
    games_started: int = 0
    games_finished: int = 0
    moves_at_start: int = 0
    moves_seen: dict[str, int] = field(default_factory=dict)  # game id -> move number
    search_games: set[str] = field(default_factory=set)  # the games with search bots
    search_moves: int = 0  # moves measured in those games

    def error(self, kind: str, detail: str) -> None:
        self.errors[kind] += 1
        if len(self.samples) < 10:
            self.samples.append(f"{kind}: {detail}"[:300])


@dataclass(eq=False)
class GameRun:
    id: str
    #: a game whose bots are the search bots (--bot-games)
    search: bool = False
    #: resulting move number -> when the human move that leads to it was sent
    sent: dict[int, float] = field(default_factory=dict)
    #: (seat, move number) -> when a commit to a hidden step was sent
    commits: dict[tuple[int, int], float] = field(default_factory=dict)
    done: asyncio.Event = field(default_factory=asyncio.Event)


class LoadTest:
    def __init__(
        self,
        cfg: LoadConfig,
        base: str,
        on_move: Callable[[], None] | None = None,
    ) -> None:
        self.cfg = cfg
        self.base = base.rstrip("/")
        self.ws_base = "ws" + self.base[4:] if self.base.startswith("http") else self.base
        self.stats = Stats()
        self.rng = random.Random(cfg.seed)
        self.measuring = False
        #: when the measurement began (perf_counter): moves sent earlier are not measured
        self.t_start = math.inf
        self.stopping = asyncio.Event()
        self.on_move = on_move
        #: reads the server's CPU seconds (None: not known) at the window's two ends
        self.cpu_probe: Callable[[], float | None] | None = None
        self.cpu_window: float | None = None
        parts = urlsplit(self.base)
        if parts.scheme != "http" or not parts.hostname:
            raise ValueError(f"the load test speaks plain http://host:port, not {base!r}")
        self.host = parts.hostname
        self.port = parts.port or 80
        self.sockets: set[websockets.ClientConnection] = set()

    # -- one human seat ----------------------------------------------------

    async def human(self, game: GameRun, seat: int, token: str, ready: asyncio.Event) -> None:
        rng = random.Random(f"{self.cfg.seed}:{game.id}:{seat}")
        http = HttpConn(self.host, self.port)
        url = f"{self.ws_base}/ws/{game.id}"
        acted: tuple[int, bool] | None = None
        last = -1
        act_task: asyncio.Task[None] | None = None
        ws: websockets.ClientConnection | None = None
        try:
            async with websockets.connect(url, max_size=None, open_timeout=30) as ws:
                self.sockets.add(ws)
                await ws.send(json.dumps({"token": token, "lang": "en"}))
                while True:
                    # a search bot's turn may wait behind the other games' (the server's bot
                    # budget): those games stall only after four times as long
                    stall = self.cfg.stall_s * (4 if game.search else 1)
                    try:
                        raw = await asyncio.wait_for(ws.recv(), timeout=stall)
                    except TimeoutError:
                        if not self.stopping.is_set():
                            self.stats.error("stalled", f"game {game.id}: no frame in {stall:g} s")
                        return
                    now = time.perf_counter()
                    f = json.loads(raw)
                    if f.get("type") != "state":
                        self.stats.error(
                            "error_frame", f"game {game.id} seat {seat}: {raw[:200]!r}"
                        )
                        continue
                    ready.set()
                    mn = int(f["move_number"])
                    if mn > last:
                        if self.measuring:
                            for k in range(max(last + 1, 1), mn + 1):
                                t0 = game.sent.get(k)
                                # a move sent before the measurement began (while the
                                # games were still being set up) is not measured
                                if t0 is not None and t0 >= self.t_start:
                                    self.stats.latencies.append(now - t0)
                                    if game.search:
                                        self.stats.search_latencies.append(now - t0)
                        self.stats.moves_seen[game.id] = max(
                            mn, self.stats.moves_seen.get(game.id, 0)
                        )
                        last = mn
                    pending = f.get("pending")
                    if pending is not None and self.measuring:
                        t0 = game.commits.pop((seat, mn), None)
                        if t0 is not None and t0 >= self.t_start:
                            self.stats.latencies.append(now - t0)
                            if game.search:
                                self.stats.search_latencies.append(now - t0)
                    if f["game"]["status"] == "finished":
                        game.done.set()
                        return
                    if self.stopping.is_set():
                        return
                    choices = pending["choices"] if pending else f.get("options") or []
                    mine = f["game"]["to_move"] == seat and choices
                    key = (mn, pending is not None)
                    if mine and acted != key:
                        acted = key
                        move = rng.choice(sorted(choices, key=lambda c: str(c["text"])))
                        act_task = asyncio.create_task(
                            self.act(http, game, seat, token, move, mn, rng)
                        )
        except websockets.ConnectionClosed as e:
            if not self.stopping.is_set():
                self.stats.error("disconnect", f"game {game.id} seat {seat}: {e}")
        except (OSError, websockets.InvalidHandshake, TimeoutError) as e:
            if not self.stopping.is_set():
                self.stats.error("connect", f"game {game.id} seat {seat}: {e!r}")
        except (ValueError, KeyError, TypeError) as e:  # a frame that is not a view
            self.stats.error("bad_frame", f"game {game.id} seat {seat}: {e!r}")
        finally:
            ready.set()
            if ws is not None:
                self.sockets.discard(ws)
            if act_task is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await act_task
            await http.close()

    async def act(
        self,
        http: HttpConn,
        game: GameRun,
        seat: int,
        token: str,
        choice: dict[str, Any],
        mn: int,
        rng: random.Random,
    ) -> None:
        think = self.cfg.think_ms / 1000 * rng.uniform(0.5, 1.5)
        if think > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopping.wait(), timeout=think)
        if self.stopping.is_set():
            return
        if self.cfg.moves is not None and self.stats.human_moves >= self.cfg.moves:
            self.stopping.set()
            return
        steps: list[str] = []  # the expanded steps (that hide nothing) the choice is below
        for _depth in range(8):
            move = str(choice["text"])
            t0 = time.perf_counter()
            if choice.get("hidden"):
                game.commits[(seat, mn)] = t0
            elif choice.get("final"):
                game.sent[mn + 1] = t0
            answer = await self.post(
                http,
                f"/api/games/{game.id}/moves",
                {"move": move, "expected": mn, "steps": steps},
                {HEADER: token},
                what=f"POST move {move!r}",
            )
            if answer is None:
                return
            expansion = json.loads(answer).get("expansion")
            if expansion is None:
                break
            # a step that hides nothing, expanded in the answer: choose below it
            below = expansion.get("choices") or []
            if not below:
                self.stats.error("empty_step", f"game {game.id}: the step {move!r} has no choices")
                return
            steps.append(move)
            choice = rng.choice(sorted(below, key=lambda c: str(c["text"])))
        if self.measuring:
            self.stats.human_moves += 1
        if self.on_move is not None:
            self.on_move()

    # -- one game slot -----------------------------------------------------

    async def post(
        self,
        http: HttpConn,
        path: str,
        body: Any,
        headers: dict[str, str] | None = None,
        *,
        what: str | None = None,
        expect: int = 200,
    ) -> bytes | None:
        """POST ``body`` (JSON) to ``path``: the answer's body, or None, the error counted
        (``what`` names the request; default ``POST path``), when the request fails or its
        status is not ``expect``."""
        what = what or f"POST {path}"
        try:
            status, answer = await http.request("POST", path, body, headers)
        except HttpError as e:
            self.stats.error("http", f"{what}: {e}")
            return None
        if status != expect:
            self.stats.error(f"http_{status}", f"{what}: {answer[:200]!r}")
            return None
        return answer

    async def create_game(
        self, http: HttpConn, search: bool = False
    ) -> tuple[GameRun, list[tuple[int, str]]] | None:
        cfg = self.cfg
        seats: list[dict[str, Any]] = [
            {"kind": "human", "name": f"load {i}"} for i in range(cfg.humans)
        ]
        bot = cfg.search_bot if search else cfg.bot
        seats += [{"kind": "bot", "bot": bot}] * (cfg.players - cfg.humans)
        order = list(range(cfg.players))
        self.rng.shuffle(order)
        body = {"game": cfg.game, "players": cfg.players, "seats": [seats[i] for i in order]}
        answer = await self.post(http, "/api/games", body, expect=201)
        if answer is None:
            return None
        data = json.loads(answer)
        self.stats.games_started += 1
        if search:
            self.stats.search_games.add(str(data["id"]))
        humans = []
        for s in data["seats"]:
            if s["token"]:  # an invitation: claimed for the seat's own token
                path = f"/api/games/{data['id']}/claim"
                answer = await self.post(http, path, None, {HEADER: s["token"]})
                if answer is None:
                    return None
                humans.append((s["seat"], str(json.loads(answer)["token"])))
        return GameRun(data["id"], search=search), humans

    async def slot(self, first_ready: asyncio.Event, search: bool = False) -> None:
        http = HttpConn(self.host, self.port)
        try:
            await self._slot(http, first_ready, search)
        finally:
            await http.close()

    async def _slot(self, http: HttpConn, first_ready: asyncio.Event, search: bool) -> None:
        failures = 0
        while not self.stopping.is_set():
            made = await self.create_game(http, search)
            if made is None:
                failures += 1
                if failures >= 5:  # the server is gone or refuses: end the run
                    self.stats.error("giving_up", "5 games in a row could not be created")
                    self.stopping.set()
                    return
                await asyncio.sleep(1.0)
                continue
            failures = 0
            game, humans = made
            readies = [asyncio.Event() for _ in humans]
            tasks = [
                asyncio.create_task(self.human(game, seat, tok, ev))
                for (seat, tok), ev in zip(humans, readies, strict=True)
            ]
            await asyncio.gather(*(ev.wait() for ev in readies))
            first_ready.set()
            await asyncio.gather(*tasks)
            if game.done.is_set():
                self.stats.games_finished += 1

    # -- the whole run -----------------------------------------------------

    async def run(self, on_ready: Callable[[], None] | None = None) -> tuple[float, int]:
        """Play until the duration or move budget is spent: (seconds measured, moves made)."""
        cfg = self.cfg
        readies = [asyncio.Event() for _ in range(cfg.games)]
        slots = []
        # set the games up in waves, as people arrive, not all in one instant
        for i, ev in enumerate(readies):
            # the first --bot-games slots play against the search bots
            slots.append(asyncio.create_task(self.slot(ev, search=i < cfg.bot_games)))
            if i % 20 == 19:
                await asyncio.sleep(0.05)
        setup_s = 60.0 + cfg.games * 0.5
        try:
            await asyncio.wait_for(asyncio.gather(*(ev.wait() for ev in readies)), timeout=setup_s)
        except TimeoutError:
            self.stopping.set()
            for ws in list(self.sockets):
                await ws.close()
            await asyncio.gather(*slots, return_exceptions=True)
            why = "; ".join(self.stats.samples[:3]) or "no reason known"
            raise RuntimeError(
                f"the {cfg.games} games could not be set up in {setup_s:g} s ({why})"
            ) from None
        if on_ready is not None:
            on_ready()
        self.stats.moves_at_start = sum(self.stats.moves_seen.values())
        seen_before = dict(self.stats.moves_seen)
        # the load generator's own garbage collections (a thousand sockets' frames: pauses of
        # 30-140 ms) must not count as the server's latency: what the set-up made is frozen
        # out of the collections and the collector waits while the clients measure
        gc.collect()
        gc.freeze()
        gc.disable()
        cpu0 = self.cpu_probe() if self.cpu_probe is not None else None
        t0 = self.t_start = time.perf_counter()
        self.measuring = True
        try:
            if cfg.moves is None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.stopping.wait(), timeout=cfg.duration)
            else:
                await self.stopping.wait()
        finally:
            elapsed = time.perf_counter() - t0
            self.measuring = False
            cpu1 = self.cpu_probe() if self.cpu_probe is not None else None
            if cpu0 is not None and cpu1 is not None:
                self.cpu_window = cpu1 - cpu0
            gc.enable()
            gc.unfreeze()
        self.stopping.set()
        for ws in list(self.sockets):  # wake the clients that wait for a frame
            await ws.close()
        moves = sum(n - seen_before.get(g, 0) for g, n in self.stats.moves_seen.items())
        self.stats.search_moves = sum(
            n - seen_before.get(g, 0)
            for g, n in self.stats.moves_seen.items()
            if g in self.stats.search_games
        )
        await asyncio.gather(*slots, return_exceptions=True)
        return elapsed, moves


def check_game(base: str, cfg: LoadConfig) -> None:
    """That the server hosts ``cfg.game`` for ``cfg.players`` players (GET /api/kinds);
    ValueError with a sentence otherwise."""
    try:
        r = httpx.get(base.rstrip("/") + "/api/kinds", timeout=10)
        r.raise_for_status()
        kinds = r.json()["games"]
    except (httpx.HTTPError, ValueError, KeyError) as e:
        raise RuntimeError(f"the server does not list its games (GET /api/kinds): {e}") from None
    found = next((k for k in kinds if k.get("name") == cfg.game), None)
    if found is None:
        names = ", ".join(str(k.get("name")) for k in kinds)
        raise ValueError(f"--game: the server hosts no game {cfg.game!r}; it hosts: {names}")
    lo, hi = int(found["min_players"]), int(found["max_players"])
    if not lo <= cfg.players <= hi:
        raise ValueError(f"--players must be between {lo} and {hi} for {found['title']}")
    # the lobby names a search bot with its time budget (ismcts:1s): compare the bots' names
    bots = [str(b["name"]).partition(":")[0] for b in found.get("bots", [])]
    if cfg.bot.partition(":")[0] not in bots and cfg.humans < cfg.players:
        raise ValueError(f"{found['title']} has no bot {cfg.bot!r}")
    if cfg.bot_games and cfg.search_bot.partition(":")[0] not in bots:
        raise ValueError(f"--search-bot: {found['title']} has no bot {cfg.search_bot!r}")


def run_load(
    cfg: LoadConfig,
    on_move: Callable[[], None] | None = None,
    on_ready: Callable[[], None] | None = None,
) -> LoadResult:
    """Run one load test (starting a server unless ``cfg.url``) and measure it."""
    cfg.check()
    own: OwnServer | None = None
    if cfg.url is None:
        own = OwnServer(cfg.bot_delay, cfg.bot_workers)
        try:
            own.wait_ready()
        except RuntimeError:
            own.stop()
            raise
    base = cfg.url or (own.base if own else "")
    if cfg.url is not None:
        try:
            httpx.get(cfg.url.rstrip("/") + "/api/games", timeout=10).raise_for_status()
        except httpx.HTTPError as e:
            raise RuntimeError(f"no civcards server answers at {cfg.url}: {e}") from None
    try:
        check_game(base, cfg)
    except BaseException:
        if own is not None:
            own.stop()
        raise
    peak_rss: float | None = None
    try:
        test = LoadTest(cfg, base, on_move=on_move)
        if own is not None:
            pid = own.proc.pid
            test.cpu_probe = lambda: cpu_seconds(pid)

        async def main() -> tuple[float, int]:
            nonlocal peak_rss

            async def sample() -> None:
                nonlocal peak_rss
                while own is not None:
                    r = own.rss_mb()
                    if r is not None:
                        peak_rss = max(peak_rss or 0.0, r)
                    await asyncio.sleep(0.5)

            sampler = asyncio.create_task(sample())
            try:
                return await test.run(on_ready=on_ready)
            finally:
                sampler.cancel()

        elapsed, moves = asyncio.run(main())
        if own is not None and own.proc.poll() is not None:
            test.stats.error("server_exit", f"the server exited: {own.tail()[-300:]}")
    finally:
        if own is not None:
            own.stop()
    st = test.stats
    ms = [x * 1000 for x in st.latencies]
    search_ms = [x * 1000 for x in st.search_latencies]
    plain_ms = sorted(ms)
    for x in search_ms:  # the others': all but those
        del plain_ms[bisect.bisect_left(plain_ms, x)]

    def r(v: float | None) -> float | None:
        return None if v is None else round(v, 2)

    return LoadResult(
        games=cfg.games,
        players=cfg.players,
        humans=cfg.humans,
        clients=cfg.games * cfg.humans,
        think_ms=cfg.think_ms,
        duration_s=round(elapsed, 3),
        moves=moves,
        human_moves=st.human_moves,
        moves_per_sec=round(moves / elapsed, 1) if elapsed > 0 else 0.0,
        samples=len(ms),
        p50_ms=r(percentile(ms, 0.50)),
        p90_ms=r(percentile(ms, 0.90)),
        p99_ms=r(percentile(ms, 0.99)),
        max_ms=r(max(ms) if ms else None),
        plain_p50_ms=r(percentile(plain_ms, 0.50)),
        plain_p99_ms=r(percentile(plain_ms, 0.99)),
        bot_games=cfg.bot_games,
        search_bot=cfg.search_bot if cfg.bot_games else None,
        bot_games_samples=len(search_ms),
        bot_games_p50_ms=r(percentile(search_ms, 0.50)),
        bot_games_p99_ms=r(percentile(search_ms, 0.99)),
        bot_games_moves=st.search_moves,
        errors=sum(st.errors.values()),
        error_kinds=dict(st.errors),
        error_samples=st.samples,
        games_started=st.games_started,
        games_finished=st.games_finished,
        server_rss_mb=None if peak_rss is None else round(peak_rss, 1),
        url=cfg.url or "(own server)",
        server_cpu_s=r(test.cpu_window),
        server_cpu_ms_per_move=(
            round(test.cpu_window * 1000 / st.human_moves, 3)
            if test.cpu_window is not None and st.human_moves
            else None
        ),
    )


def plot_curve(results: list[LoadResult], path: str) -> None:
    """p50/p99 latency and moves/s against concurrent games, as a PNG (matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise RuntimeError(f"--plot needs matplotlib (pip install 'civcards[load]'): {e}") from None
    xs = [r.games for r in results]
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
    ax.plot(xs, [r.p99_ms or 0 for r in results], "o-", color="#c0392b", label="p99")
    ax.plot(xs, [r.p50_ms or 0 for r in results], "s--", color="#2471a3", label="p50")
    ax.axhline(100, color="#888", lw=0.8, ls=":", label="100 ms target")
    ax.set_xlabel("concurrent live games")
    ax.set_ylabel("move → broadcast latency (ms)")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax2 = ax.twinx()
    ax2.plot(xs, [r.moves_per_sec for r in results], "^-", color="#27ae60", alpha=0.6,
             label="moves/s")  # fmt: skip
    ax2.set_ylabel("moves per second")
    ax2.set_ylim(bottom=0)
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, loc="upper left", fontsize=8)
    r0 = results[0]
    ax.set_title(
        f"civcards loadtest: {r0.players} players ({r0.humans} humans), think {r0.think_ms:g} ms",
        fontsize=10,
    )
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
