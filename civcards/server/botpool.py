"""Bots think in a bounded pool of worker processes, never in the server's own.

The web server's event loop answers people; a bot's move (a search bot thinks for
seconds) is computed elsewhere: in one of ``workers`` processes (spawned, lowered in
priority with ``nice``), under a per-server budget. The server process only sends the
position and gets a line of notation back, which it checks with ``game.play`` before
storing it like any other move.

Use it (the table's bots, a clock's bot take-over, anything that needs a bot's move)::

    text = await pool.play(
        BotTurn(game_id=live.id, game=live.game.name, state=live.state.copy(),
                seat=seat, spec="ismcts:1s", seed=bot_seed(secret, seat, len(live.moves)))
    )

or, at the table, :meth:`civcards.server.core.TableServer.bot_choose` (which derives the
seed from the game's bot secret, :func:`civcards.server.core.bot_seed`). ``play`` waits
its turn in the queue, then for a worker; it returns the move's text, **not stored**: the
caller checks it (``game.play`` on a copy) and stores it. It raises :class:`BotBusy`
when the queue is full, and whatever the bot raised (ValueError for a bad spec) when the
bot fails. A worker that dies (killed, out of memory) is replaced and its turn retried
(:attr:`BotSettings.retries` times).

The budget (:class:`BotSettings`, from ``CIVCARDS_BOT_*``, docs/operations.md):

- ``workers`` processes think at once for the search bots (a budget of iterations or
  seconds); the others' turns wait in the queue. The light bots (``random``, ``greedy``:
  no budget, a move in a millisecond) have a lane of their own (``light_workers``
  processes, the same rules), so they never wait behind a search;
- turns of games with a human seat go before turns of bot-only games, and, among
  those, the game whose bots thought least in the last minute goes first (in the light
  lane, whose moves take a millisecond, the oldest turn: one look at the queue's head,
  not a pass over the whole queue, which grows with the live games);
- the server's bots think at most ``seconds_per_minute`` seconds in any minute, and
  one game's bots at most ``game_seconds_per_minute``: beyond it their turns wait;
- a search bot thinks by the clock: at most ``max_seconds`` a decision, whatever its
  spec says (``ismcts:400it`` thinks 400 iterations or ``max_seconds``, whichever ends
  first), and at most ``max_iterations``: a loaded machine makes its moves weaker, never
  slower, and a game stored under a higher cap thinks no longer than the server allows
  now (:func:`cap_budget`). The lobby offers it as a time budget (:func:`search_level`);
- the queue holds at most ``queue`` turns: beyond it :meth:`play` refuses
  (:class:`BotBusy`), and the table refuses new games with bots;
- one address may have at most ``strong_per_address`` unfinished games with a search bot
  (:meth:`admit_strong`).

A bot's move is reproducible: the worker builds the bot afresh from ``spec`` and
``seed``, as :func:`civcards.bots.make_bot` would anywhere else (a time budget is not
reproducible anywhere; an iteration budget is, when its iterations end before the
server's seconds).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import itertools
import logging
import multiprocessing
import os
import pickle
import signal
import threading
import time
from collections import deque
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from typing import Any

from ..bots import bot_move, make_bot
from ..game_api import BUILTIN, Game, all_games, get_game, register

log = logging.getLogger("civcards.server.bots")

#: the window of the thinking-time budgets, in seconds
WINDOW = 60.0


class BotBusy(Exception):
    """The bots' queue is full: the turn (or the game) is refused, with a sentence."""


@dataclass(frozen=True)
class BotTurn:
    """One bot decision: the bot ``spec`` with ``seed`` plays ``seat`` of the game
    ``game_id`` (of the registered game ``game``) in ``state`` (a copy: it is pickled to
    a worker). ``bot_only``: the game has no human seat (its turns wait behind others')."""

    game_id: str
    game: str
    state: Any
    seat: int
    spec: str
    seed: int | None
    bot_only: bool = False


@dataclass(frozen=True)
class BotSettings:
    """The bots' budget on one server process (docs/operations.md, "Bots")."""

    #: worker processes thinking at once (0: think in a thread of the server process;
    #: only for embedding and tests)
    workers: int = max(1, (os.cpu_count() or 2) - 1)
    #: bot turns that may wait at once
    queue: int = 1000
    #: seconds all bots may think in any minute (0: no cap)
    seconds_per_minute: float = 0.0
    #: seconds one game's bots may think in any minute (0: no cap)
    game_seconds_per_minute: float = 30.0
    #: unfinished games with a search bot per creating address (0: no limit)
    strong_per_address: int = 3
    #: the most a search bot thinks a move: seconds, iterations
    max_seconds: float = 2.0
    max_iterations: int = 4000
    #: the workers' niceness (added to the server's): the server's answers go first
    nice: int = 10
    #: how often a turn whose worker died is tried again
    retries: int = 3
    #: processes for the light bots (no thinking budget: random, greedy), apart from the
    #: search bots' so that they never wait behind a search (0: a thread of the server)
    light_workers: int = 1

    def effective_seconds_per_minute(self) -> float:
        """The server's cap: as given, or by default three quarters of the workers' time."""
        if self.seconds_per_minute > 0:
            return self.seconds_per_minute
        return 0.75 * WINDOW * max(1, self.workers)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **given: Any) -> BotSettings:
        """From ``CIVCARDS_BOT_*`` in ``env`` (default: the environment), with ``given``
        (options given on the command line, None: not given) winning; ValueError with a
        sentence naming the variable for a bad value."""
        env = os.environ if env is None else env
        d = cls()
        out: dict[str, Any] = {}
        for name, var, kind, lo in (
            ("workers", "CIVCARDS_BOT_WORKERS", int, 0),
            ("queue", "CIVCARDS_BOT_QUEUE", int, 1),
            ("seconds_per_minute", "CIVCARDS_BOT_SECONDS_PER_MINUTE", float, 0),
            ("game_seconds_per_minute", "CIVCARDS_BOT_GAME_SECONDS_PER_MINUTE", float, 0),
            ("strong_per_address", "CIVCARDS_BOT_STRONG_PER_ADDRESS", int, 0),
            ("max_seconds", "CIVCARDS_BOT_MAX_SECONDS", float, 0.01),
            ("max_iterations", "CIVCARDS_BOT_MAX_ITERATIONS", int, 1),
            ("nice", "CIVCARDS_BOT_NICE", int, 0),
            ("light_workers", "CIVCARDS_BOT_LIGHT_WORKERS", int, 0),
        ):
            value = given.get(name)
            where = f"--bot-{name.replace('_', '-')}"
            if value is None:
                text = env.get(var, "").strip()
                if not text:
                    continue
                where = f"{var}={text!r}"
                try:
                    value = kind(text)
                except ValueError:
                    what = "a whole number" if kind is int else "a number"
                    raise ValueError(f"{where} is not {what}") from None
            if not value >= lo or value == float("inf"):
                raise ValueError(f"{where} must be a finite number, at least {lo:g}")
            out[name] = kind(value)
        return replace(d, **out)


# -- the worker side --------------------------------------------------------------


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:  # the server died (kill -9): so does its worker
            os._exit(0)


def exit_with_server(server: int) -> None:
    """In a worker process of the server whose process id is ``server`` (the bots' or the
    analyses' pool): leave Ctrl-C to the server (which stops its workers), and exit when
    the server dies (``kill -9`` leaves no worker behind). The id comes from the server,
    not from ``getppid()`` at the worker's start: a server killed while its worker was
    still starting would otherwise be missed."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if os.getppid() != server:
        os._exit(0)
    threading.Thread(target=_watch_parent, args=(server,), daemon=True).start()


def init_analysis_worker(server: int, nice: int) -> None:
    """A worker of the analysis pool (:mod:`.review`): the extra games registered, a lower
    priority (``nice``) than the table's own processes; it exits when the server dies.
    Here, not in :mod:`.review`, so that the worker does not import the web stack."""
    from .kinds import load_extra_games  # kinds imports this module

    exit_with_server(server)
    load_extra_games()
    if nice > 0:
        with contextlib.suppress(OSError):
            os.nice(nice)


def _init_worker(server: int, nice: int, games: list[bytes]) -> None:
    """A worker's start: lower its priority, register the games the server hosts beyond
    the built-in ones, leave Ctrl-C to the server (which stops the workers), and exit
    when the server dies."""
    exit_with_server(server)
    if nice > 0:
        with contextlib.suppress(OSError):
            os.nice(nice)
    for blob in games:
        with contextlib.suppress(Exception):
            register(pickle.loads(blob))
    all_games()  # the built-in games and the search bot loaded now, not in a bot's first move
    with contextlib.suppress(ImportError):
        importlib.import_module("civcards.bots.ismcts")


def cap_budget(bot: Any, max_seconds: float, max_iterations: int) -> None:
    """A search bot (one with a budget of ``iterations`` or ``seconds``) at the table thinks
    by the clock: at most ``max_seconds`` a decision whatever its spec says, an iteration
    budget included (its iterations, or the seconds, whichever ends first), and at most
    ``max_iterations``. A light bot (no budget) is left as it is, and so is ``net`` (no
    iterations: one pass of the network, which a time budget would have made a search of
    none, playing other moves than ``net`` plays elsewhere)."""
    secs = getattr(bot, "seconds", None)
    its = getattr(bot, "iterations", None)
    if secs is None and not its:
        return
    if secs is None or secs > max_seconds:
        bot.seconds = max_seconds
    if isinstance(its, int) and its > max_iterations:
        bot.iterations = max_iterations


#: how long the lobby's search bot thinks a decision, at most (less on a server whose
#: ``max_seconds`` is lower)
LOBBY_SEARCH_SECONDS = 1.0


def search_seconds(settings: BotSettings) -> float:
    """The seconds a decision of the lobby's search level (:func:`search_level`)."""
    return min(LOBBY_SEARCH_SECONDS, settings.max_seconds)


def search_level(settings: BotSettings, search: str = "ismcts") -> str:
    """The search bot ``search`` as the lobby offers it: a time budget a decision
    (``ismcts:1s``), within the server's cap. The lobby's top level is the game's
    :func:`~civcards.bots.table_search`."""
    return f"{search}:{search_seconds(settings):g}s"


def think(turn: BotTurn, max_seconds: float, max_iterations: int) -> tuple[str, int, float]:
    """In a worker: (the move's text, the worker's process id, seconds thought). A search
    thinks at most ``max_seconds`` a decision (:func:`cap_budget`)."""
    t0 = time.perf_counter()
    game = get_game(turn.game)
    bot = make_bot(game, turn.spec, turn.seed)
    cap_budget(bot, max_seconds, max_iterations)
    text = bot_move(bot, game, turn.state)
    return text, os.getpid(), time.perf_counter() - t0


def _pid() -> int:
    return os.getpid()


def is_strong(game: Game, spec: str) -> bool:
    """Whether the bot ``spec`` of ``game`` searches (has a thinking budget)."""
    probe = make_bot(game, spec, None)
    return bool(getattr(probe, "iterations", None) or getattr(probe, "seconds", None))


# -- the server side --------------------------------------------------------------


@dataclass(eq=False)
class _Waiting:
    turn: BotTurn
    seq: int
    ready: asyncio.Future[None]


@dataclass
class _Spent:
    """Seconds thought, by when: the sliding window of a budget."""

    entries: deque[tuple[float, float]] = field(default_factory=deque)
    total: float = 0.0

    def add(self, now: float, secs: float) -> None:
        self.entries.append((now, secs))
        self.total += secs

    def used(self, now: float) -> float:
        while self.entries and self.entries[0][0] <= now - WINDOW:
            self.total -= self.entries.popleft()[1]
        if not self.entries:
            self.total = 0.0
        return self.total

    def frees_at(self) -> float:
        return self.entries[0][0] + WINDOW if self.entries else 0.0


#: seconds close() waits, at most, for the worker pools' manager threads to finish
CLOSE_WAIT = 5.0


def end_pool(ex: ProcessPoolExecutor) -> list[Any]:
    """Stop the process pool ``ex`` without waiting: its queued calls cancelled, its
    workers terminated (a call in progress is abandoned). Returns what to wait for
    (:func:`wait_pools`): its manager thread and its worker processes, taken before
    ``shutdown()`` forgets them. For the bots' pool and the analyses' (review.py)."""
    manager = getattr(ex, "_executor_manager_thread", None)
    procs = list((getattr(ex, "_processes", None) or {}).values())
    ex.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        with contextlib.suppress(Exception):
            p.terminate()
    return [manager, *procs] if manager is not None else procs


def wait_pools(left: list[Any], timeout: float = CLOSE_WAIT) -> bool:
    """Wait, at most ``timeout`` seconds in all, until the threads and processes of
    :func:`end_pool` have finished; True when they all have. Each pool's manager thread
    sees its workers gone, joins them and closes its wake-up pipe: waiting for that here,
    at the server's stop, means none is still closing it when the interpreter exits
    (CPython 3.11's exit hook writes to that pipe unlocked: a pipe closed under it printed
    "OSError: [Errno 9] Bad file descriptor" after a clean stop), and no worker outlives
    the server."""
    deadline = time.monotonic() + timeout
    for x in left:
        if x is threading.current_thread():
            continue
        with contextlib.suppress(Exception):
            x.join(max(0.0, deadline - time.monotonic()))
    return not any(x.is_alive() for x in left if x is not threading.current_thread())


class BotPool:
    """A bounded pool of bot worker processes with a budget (see the module's text)."""

    def __init__(self, settings: BotSettings | None = None, *, lane: bool = False) -> None:
        self.settings = settings or BotSettings()
        #: the light bots' lane (of another pool), which takes the oldest turn first
        self.lane = lane
        #: the light bots' own pool (a lane of this one: no search bot ahead of them)
        self.light: BotPool | None = None
        if not lane:
            # not lowered in priority: a light bot's move takes a millisecond, and a game
            # whose bot waited behind every other program of a busy machine would stall
            light = replace(self.settings, workers=self.settings.light_workers, nice=0)
            self.light = BotPool(light, lane=True)
        self._strong_spec: dict[tuple[str, str], bool] = {}
        self._executor: ProcessPoolExecutor | None = None
        #: the manager threads and workers of executors replaced (new games, a lost
        #: worker) and shut down without waiting: close() ends them and waits for them
        self._retired: list[Any] = []
        self._games: frozenset[str] = frozenset()
        self._waiting: list[_Waiting] = []
        self._seq = itertools.count()
        self._running = 0
        self._spent = _Spent()
        self._spent_by_game: dict[str, _Spent] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._pruned = 0.0
        #: the unfinished games with a search bot, by the address that created them
        self.strong: dict[str, set[str]] = {}
        #: worker process ids that have answered (tests, /healthz)
        self.pids: set[int] = set()
        #: counters: turns played, workers lost, turns refused
        self.played = 0
        self.lost = 0
        self.refused = 0
        self.closed = False

    # -- the budget at creation ----------------------------------------------

    @property
    def waiting(self) -> int:
        """Bot turns waiting (both lanes)."""
        return len(self._waiting) + (self.light.waiting if self.light is not None else 0)

    def all_pids(self) -> set[int]:
        """The worker process ids that have answered, both lanes."""
        return self.pids | (self.light.pids if self.light is not None else set())

    def check_room(self) -> None:
        """BotBusy when the queue is full (no new game with bots now)."""
        waiting = self.waiting
        if waiting >= self.settings.queue:
            self.refused += 1
            raise BotBusy(
                f"the server's bots are busy ({waiting} bot turns are waiting): "
                "try a game with bots again in a minute"
            )

    def searches(self, game: str, spec: str) -> bool:
        """Whether the bot ``spec`` of the game ``game`` searches (its turns take the
        search bots' lane); remembered."""
        key = (game, spec)
        found = self._strong_spec.get(key)
        if found is None:
            if len(self._strong_spec) > 1000:
                self._strong_spec.clear()
            found = self._strong_spec[key] = is_strong(get_game(game), spec)
        return found

    def admit_strong(self, address: str | None, live: Mapping[str, bool]) -> None:
        """BotBusy when ``address`` already has :attr:`BotSettings.strong_per_address`
        unfinished games with a search bot; ``live`` says, by game id, whether each game
        this process holds is unfinished (a game not in it has ended or left memory)."""
        cap = self.settings.strong_per_address
        if cap <= 0 or address is None:
            return
        mine = self.strong.get(address, set())
        mine.intersection_update(g for g in mine if live.get(g, False))
        if len(mine) >= cap:
            self.refused += 1
            raise BotBusy(
                f"you already have {len(mine)} unfinished games with a search bot (at most "
                f"{cap} at once): finish one, or choose a lighter bot"
            )

    def add_strong(self, address: str | None, game_id: str) -> None:
        """A game with a search bot was made by ``address``: counted, and the search
        bots' worker started if none runs yet."""
        self._warm_lane(self)
        if address is not None and self.settings.strong_per_address > 0:
            self.strong.setdefault(address, set()).add(game_id)

    # -- playing -------------------------------------------------------------

    def _make_executor(self) -> ProcessPoolExecutor:
        extra = []
        for g in all_games():
            if g.name in BUILTIN:
                continue
            try:
                extra.append(pickle.dumps(g))
            except Exception as e:  # its bots cannot think in a worker
                log.warning("game %s cannot be sent to the bot workers (%s)", g.name, e)
        self._games = frozenset(g.name for g in all_games())
        return ProcessPoolExecutor(
            max_workers=self.settings.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_init_worker,
            initargs=(os.getpid(), self.settings.nice, extra),
        )

    def _executor_for(self, game: str) -> ProcessPoolExecutor:
        if self.closed:
            # a turn dispatched just before close() resumes after it: no new workers now,
            # or they would outlive the server (and race the interpreter's exit)
            raise BotBusy("the server is stopping: its bots no longer play")
        ex = self._executor
        if ex is None or game not in self._games:
            # first use, or a game registered since the workers started: new workers
            if ex is not None:
                self._retire(ex)
            ex = self._executor = self._make_executor()
        return ex

    def _retire(self, ex: ProcessPoolExecutor) -> None:
        """Shut ``ex`` down without waiting (a turn it thinks is finished); close() ends
        and waits for its workers and its manager thread later."""
        t = getattr(ex, "_executor_manager_thread", None)
        procs = list((getattr(ex, "_processes", None) or {}).values())
        ex.shutdown(wait=False)
        self._retired = [r for r in self._retired if r.is_alive()]
        if t is not None:
            self._retired += [t, *procs]

    def _pick_oldest(self, now: float) -> _Waiting | None:
        """The light lane's next turn: the oldest of a game with a human seat whose bots are
        within their budget, else the oldest of a bot-only game within it."""
        cap = self.settings.game_seconds_per_minute
        later: _Waiting | None = None
        for w in self._waiting:
            if cap > 0 and self._game_used(w.turn.game_id, now) >= cap:
                continue
            if not w.turn.bot_only:
                return w
            if later is None:
                later = w
        return later

    def _pick(self, now: float) -> _Waiting | None:
        """The waiting turn to go next: people's games first, then the game whose bots
        thought least in the window, then the oldest; None when the budget holds them all.
        One pass over the queue, each game's seconds looked up once."""
        cap = self.settings.game_seconds_per_minute
        used: dict[str, float] = {}
        best: _Waiting | None = None
        best_key: tuple[bool, float, int] | None = None
        for w in self._waiting:
            gid = w.turn.game_id
            u = used.get(gid)
            if u is None:
                u = used[gid] = self._game_used(gid, now)
            if cap > 0 and u >= cap:
                continue
            key = (w.turn.bot_only, u, w.seq)
            if best_key is None or key < best_key:
                best, best_key = w, key
        return best

    def _dispatch(self) -> None:
        """Hand free workers to the first waiting turns that the budget lets through."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        limit = max(1, self.settings.workers)
        now = time.monotonic()
        later: float | None = None
        server_over = self._spent.used(now) >= self.settings.effective_seconds_per_minute()
        while self._running < limit and self._waiting:
            if server_over:
                later = self._spent.frees_at()
                break
            pick = self._pick_oldest(now) if self.lane else self._pick(now)
            if pick is None:
                later = min(
                    self._spent_by_game[w.turn.game_id].frees_at()
                    for w in self._waiting
                    if w.turn.game_id in self._spent_by_game
                )
                break
            self._waiting.remove(pick)
            self._running += 1
            if not pick.ready.done():
                pick.ready.set_result(None)
        if later is not None:
            delay = max(0.05, later - now)
            self._timer = asyncio.get_running_loop().call_later(delay, self._dispatch)

    def _game_used(self, game_id: str, now: float) -> float:
        g = self._spent_by_game.get(game_id)
        return 0.0 if g is None else g.used(now)

    def _account(self, game_id: str, secs: float) -> None:
        now = time.monotonic()
        self._spent.add(now, secs)
        self._spent_by_game.setdefault(game_id, _Spent()).add(now, secs)
        if now - self._pruned > WINDOW / 4:  # forget the games idle for a window, at times
            self._pruned = now
            for gid in [k for k, v in self._spent_by_game.items() if v.used(now) <= 0]:
                del self._spent_by_game[gid]

    async def play(self, turn: BotTurn) -> str:
        """The move (its text, not stored) that the bot ``turn.spec`` seeded with
        ``turn.seed`` chooses for ``turn.seat`` in ``turn.state``: queued (BotBusy when
        the queue is full), then thought in a worker process. See the module's text."""
        if self.closed:
            raise BotBusy("the server is stopping: its bots no longer play")
        self.check_room()
        if self.light is not None and not self.searches(turn.game, turn.spec):
            return await self.light.play(turn)  # a light bot: no search ahead of it
        loop = asyncio.get_running_loop()
        w = _Waiting(turn, next(self._seq), loop.create_future())
        self._waiting.append(w)
        self._dispatch()
        try:
            await w.ready
        except BaseException:
            if w in self._waiting:
                self._waiting.remove(w)
            elif w.ready.done() and not w.ready.cancelled():
                self._running -= 1
                self._dispatch()
            raise
        try:
            text, secs = await self._run(turn)
        finally:
            self._running -= 1
            if not self.closed:
                self._dispatch()
        self._account(turn.game_id, secs)
        self.played += 1
        return text

    async def _run(self, turn: BotTurn) -> tuple[str, float]:
        s = self.settings
        loop = asyncio.get_running_loop()
        if s.workers == 0:  # in a thread of this process (embedding, tests)
            text, _pid, secs = await asyncio.to_thread(think, turn, s.max_seconds, s.max_iterations)
            return text, secs
        for attempt in range(s.retries + 1):
            ex = self._executor_for(turn.game)
            try:
                text, pid, secs = await loop.run_in_executor(
                    ex, think, turn, s.max_seconds, s.max_iterations
                )
            except BrokenProcessPool:
                # a worker died (killed, out of memory): new workers, the turn again
                self.lost += 1
                if self._executor is ex:
                    self._retire(ex)
                    self._executor = None
                if self.closed or attempt == s.retries:
                    raise
                log.warning(
                    "game %s: a bot worker died; its turn is tried again (%d)",
                    turn.game_id,
                    attempt + 1,
                )
                continue
            self.pids.add(pid)
            return text, secs
        raise AssertionError("unreachable")  # pragma: no cover

    def warm(self) -> None:
        """Start the light bots' worker now (in the event loop, without waiting for it), so
        that the first light bot's move does not wait for a process to start; the search
        bots' workers start with the first search."""
        if self.light is not None:
            self._warm_lane(self.light)

    @staticmethod
    def _warm_lane(lane: BotPool) -> None:
        if lane.closed or lane.settings.workers == 0 or lane._executor is not None:
            return
        try:
            lane._executor_for(next(iter(BUILTIN))).submit(_pid)
        except Exception as e:  # the first bot's move starts it then
            log.warning("a bot worker could not be started now (%s)", e)

    async def worker_pid(self) -> int:
        """The process id of a worker (started if none runs): tests and diagnostics."""
        if self.settings.workers == 0:
            return os.getpid()
        ex = self._executor_for(next(iter(BUILTIN)))
        pid: int = await asyncio.get_running_loop().run_in_executor(ex, _pid)
        return pid

    def status(self) -> dict[str, Any]:
        now = time.monotonic()
        return {
            "workers": self.settings.workers,
            "thinking": self._running,
            "waiting": len(self._waiting),
            "seconds_last_minute": round(self._spent.used(now), 2),
            "played": self.played,
            "workers_lost": self.lost,
            **({"light": self.light.status()} if self.light is not None else {}),
        }

    def close(self) -> None:
        """Stop the workers (a turn being thought is abandoned), both lanes at once, and
        wait until their pools have wound down (:func:`wait_pools`)."""
        wait_pools(self._end())

    def _end(self) -> list[Any]:
        """Stop both lanes without waiting: what is left to wait for."""
        self.closed = True
        left = self.light._end() if self.light is not None else []
        if self._timer is not None:
            self._timer.cancel()
        for w in self._waiting:
            if not w.ready.done():
                w.ready.cancel()
        self._waiting.clear()
        ex, self._executor = self._executor, None
        for x in self._retired:  # a retired pool's worker still thinking: abandoned too
            if not isinstance(x, threading.Thread):
                with contextlib.suppress(Exception):
                    x.terminate()
        left += self._retired
        self._retired = []
        if ex is not None:
            left += end_pool(ex)
        return left
