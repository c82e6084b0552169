"""The bot runner: while a bot is to move in a game, its turn is thought in the bot pool's
worker processes (:mod:`.botpool`, without the game's lock) and played through the move
pipeline; and the sweeper, which catches up games whose notice was missed and drives bots
whose turn stays unplayed, then evicts unused games.

It imports :mod:`.cache`, :mod:`.broadcast`, :mod:`.moves`, :mod:`.botpool`,
:mod:`.kinds` and :mod:`.live` (docs/architecture.md)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from .botpool import BotBusy, BotPool, BotTurn
from .broadcast import Fanout
from .cache import GameCache
from .kinds import default_bot
from .live import DB_DOWN, ApiError, Live, bot_seed, bot_to_move
from .moves import MovePipeline

log = logging.getLogger("civcards.server")


class BotRunner:
    def __init__(
        self, cache: GameCache, fanout: Fanout, moves: MovePipeline, pool: BotPool, delay: float
    ) -> None:
        self.cache = cache
        self.fanout = fanout
        self.moves = moves
        self.pool = pool
        #: seconds a bot waits before it plays (so that people can follow)
        self.delay = delay

    def kick(self, live: Live) -> None:
        """Start the game's bot runner if a bot is to move and none runs."""
        if live.bot_task is not None and not live.bot_task.done():
            return
        if bot_to_move(live) is None:
            return
        live.bot_task = asyncio.get_running_loop().create_task(self._run(live))

    def kick_all(self) -> None:
        for live in list(self.cache.games.values()):
            self.kick(live)

    async def bot_choose(self, live: Live, seat: int, spec: str | None = None) -> str:
        """The move (its text, **not stored**) that a bot chooses for ``seat`` of ``live``
        now: the bot ``spec`` (default: the seat's own bot, else the game's default),
        seeded from the game's bot secret (:func:`bot_seed`, so a finished game's bot
        moves replay from its record), thought in the bot pool's worker processes under
        its budget (:class:`~.botpool.BotPool`: it waits its turn; BotBusy when the queue
        is full). A caller that plays for a seat (a clock's take-over) checks the text with
        ``game.play`` on a copy of the state under the game's lock, at the same move
        number, and stores it (:meth:`.moves.MovePipeline.play_bot_move`). A committed hidden step (pending)
        is not a bot's: the bot chooses a whole move."""
        game = live.game
        level = spec or live.seats[seat].bot or default_bot(game)
        # made afresh for each move from the game's secret: reproducible from the record
        # once the game is over, after restarts too
        secret = live.bot_secret or live.id
        turn = BotTurn(
            game_id=live.id,
            game=game.name,
            state=live.state.copy(),  # pickled to a worker later: a copy of its own
            seat=seat,
            spec=level,
            seed=bot_seed(secret, seat, len(live.moves)),
            bot_only=all(s.kind == "bot" for s in live.seats),
        )
        return await self.pool.play(turn)

    async def _run(self, live: Live) -> None:
        backoff = 0.5
        try:
            while True:
                if bot_to_move(live) is None:
                    return
                await asyncio.sleep(self.delay)
                try:
                    seat = bot_to_move(live)
                    if seat is None:
                        return
                    n = len(live.moves)
                    # thought in a worker process without the game's lock: the server
                    # answers everyone meanwhile (the game's own requests too)
                    text = await self.bot_choose(live, seat)
                    await self.moves.play_bot_move(live, seat, n, text)
                except ApiError as e:
                    if e.code != "stale":
                        raise
                    # another process stored first: it drives the bots on
                    await self.fanout.broadcast(live)
                    return
                except BotBusy as e:
                    log.warning("game %s: %s", live.id, e)
                    await asyncio.sleep(5.0)
                    continue
                except DB_DOWN as e:
                    log.warning(
                        "game %s: the database is unavailable (%s); the bot tries again in %.1f s",
                        live.id,
                        type(e).__name__,
                        backoff,
                    )
                    await asyncio.sleep(backoff)
                    backoff = min(backoff * 2, 5.0)
                    continue
                backoff = 0.5
        except asyncio.CancelledError:
            raise
        except Exception as e:
            log.error("game %s: the bot runner stopped (%s: %s)", live.id, type(e).__name__, e)


class Sweeper:
    """Every :attr:`interval` seconds: :meth:`sweep`."""

    def __init__(self, cache: GameCache, fanout: Fanout, runner: BotRunner) -> None:
        self.cache = cache
        self.fanout = fanout
        self.runner = runner
        #: seconds a bot's turn may stay unplayed before this process drives it itself
        #: (when shared: the process driving it may have died)
        self.takeover = 3.0
        self.interval = 2.0
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._loop())

    async def _loop(self) -> None:
        down = False
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.sweep()
                if down:
                    log.info("the database answers again")
                down = False
            except DB_DOWN as e:
                if not down:
                    log.warning("the database is unavailable (%s)", type(e).__name__)
                down = True
            except Exception as e:  # the sweeper must go on
                log.error("sweep failed (%s)", type(e).__name__)

    async def sweep(self) -> None:
        """Catch up games whose notice was missed (shared), and drive bots whose turn stays
        unplayed: at once when alone, after :attr:`takeover` seconds when shared."""
        watch = [
            g
            for g in list(self.cache.games.values())
            if not g.finished and (g.subscribers or bot_to_move(g) is not None)
        ]
        shared = self.fanout.shared
        if shared and watch:
            counts = self.cache.records.move_counts([g.id for g in watch])
            for g in watch:
                if counts.get(g.id, 0) != len(g.moves):
                    await self.fanout.refresh(g)
        now = time.monotonic()
        wait = self.runner.delay + self.takeover if shared else 0.0
        for g in watch:
            idle = g.bot_task is None or g.bot_task.done()
            if idle and bot_to_move(g) is not None and now - g.changed_at >= wait:
                if shared:
                    log.info("game %s: taking over its bots", g.id)
                self.runner.kick(g)
        self.cache.evict(now)

    async def stop(self, on_stop: list[Callable[[], Awaitable[None]]]) -> None:
        """Stop the sweeper, the bots' workers (a turn in progress is abandoned), the
        games' bot and refresh tasks, then the extensions (``on_stop``)."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None
        self.runner.pool.close()
        games = self.cache.games.values()
        tasks = [g.bot_task for g in games if g.bot_task is not None]
        tasks += [g.refresh_task for g in games if g.refresh_task is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        for stop in on_stop:
            await stop()
