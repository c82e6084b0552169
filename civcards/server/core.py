"""The authoritative game service: stores every move before anyone hears of it.

A game lives in the database as its record (set-up + moves) and in memory as
a :class:`Live` game rebuilt from it. Every change goes through
:class:`TableServer`, under the game's lock: check, store (one transaction),
apply, then tell the connected clients, each only its own seat's view.

Several server processes may share one database (``civcards serve --redis``):
the database is the truth. A store first locks the game's row and checks that
the record is still the one this process holds (a unique move number backs
this up), so of two processes storing a move for the same game, the second is
refused (409 ``stale``) and refreshes. After a store, the process tells the
others (:attr:`TableServer.publish`, Redis pub/sub); they read the new moves
from the database and tell their own clients. Bots are driven by the process
that stored the last move; another takes over when a bot's turn stays
unplayed (that process died).

:class:`TableServer` is the front of the rooms that do the work, each owning one thing
(docs/architecture.md): the store (:mod:`.store`), the live-game cache
(:mod:`.cache`), broadcast and bus (:mod:`.broadcast`), seats (:mod:`.seats`), the move
pipeline (:mod:`.moves`), the bot runner and sweeper (:mod:`.botrunner`), tables
(:mod:`.tables`: create, rematch, list), views (:mod:`.views`), names (:mod:`.names`) and
the bot-level check (:mod:`.botlevel`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from sqlalchemy.engine import Connection, Engine

from .botlevel import check_bot
from .botpool import BotPool, BotSettings
from .botrunner import BotRunner, Sweeper
from .broadcast import Fanout
from .cache import GameCache
from .live import (
    DB_DOWN,
    STALE,
    ApiError,
    Decorator,
    Live,
    Pending,
    SeatHooks,
    SeatInfo,
    Subscriber,
    Write,
    bot_seed,
    new_token,
)
from .moves import SEARCH_BUDGET, MovePipeline
from .names import MAX_MARKS, MAX_NAME, MAX_NAME_CODEPOINTS, MAX_NAME_WIDTH, clean_name, name_key
from .seats import Seats
from .store import Store
from .tables import Tables
from .views import Views

__all__ = [
    "DB_DOWN",
    "MAX_MARKS",
    "MAX_NAME",
    "MAX_NAME_CODEPOINTS",
    "MAX_NAME_WIDTH",
    "STALE",
    "ApiError",
    "Decorator",
    "Live",
    "Pending",
    "SeatHooks",
    "SeatInfo",
    "Subscriber",
    "TableServer",
    "Write",
    "bot_seed",
    "check_bot",
    "clean_name",
    "name_key",
    "new_token",
]


class TableServer:
    """Games in memory over the database; the only place where moves are made."""

    #: how many steps the server expands looking for a whole move sent without its steps
    SEARCH_BUDGET = SEARCH_BUDGET

    def __init__(
        self,
        engine: Engine,
        *,
        bot_delay: float = 1.0,
        allow_seed: bool = False,
        bots: BotSettings | None = None,
    ) -> None:
        self.engine = engine
        #: the bots think in worker processes under a budget (:mod:`.botpool`)
        self.bots = BotPool(bots)
        #: extensions (the clocks, :mod:`.clocks`): a game created (after it is stored); a
        #: move stored (in its transaction: connection, game, seat, the new state, move
        #: number); a game loaded or refreshed from the database (True: it changed); a view
        self.on_create: list[Callable[[Live], None]] = []
        self.on_move: list[Callable[[Connection, Live, int, Any, int], None]] = []
        self.on_load: list[Callable[[Live], bool]] = []
        self.on_view: list[Callable[[Live, dict[str, Any]], None]] = []
        #: at the server's stop, after its bots': extensions with processes of their own
        #: (the analyses' pool, review.py) end them
        self.on_stop: list[Callable[[], Awaitable[None]]] = []
        #: observers of seats and games (accounts): :class:`SeatHooks`
        self.hooks: list[SeatHooks] = []
        # the rooms
        self.cache = GameCache(Store(engine), self.on_load)
        self.views = Views(self.on_view)
        self.fanout = Fanout(self.cache, self.views.view)
        self.seats = Seats(self.cache, self.fanout, self.hooks)
        self.moves = MovePipeline(self.cache, self.fanout, self.hooks, self.on_move)
        self.runner = BotRunner(self.cache, self.fanout, self.moves, self.bots, max(0.0, bot_delay))
        self.sweeper = Sweeper(self.cache, self.fanout, self.runner)
        self.tables = Tables(
            self.cache, self.fanout, self.runner, self.bots, self.hooks, self.on_create
        )
        self.tables.allow_seed = allow_seed
        #: create a game: it and its invitations (:meth:`.tables.Tables.create`, whose
        #: signature it is)
        self.create = self.tables.create
        #: the public games (:meth:`.tables.Tables.list_games`)
        self.list_games = self.tables.list_games
        #: how many games, and for how long, this process holds in memory
        #: (:meth:`.cache.GameCache.set_eviction`)
        self.set_eviction = self.cache.set_eviction

    # -- settings, read and set through the rooms that use them ------------------

    @property
    def games(self) -> dict[str, Live]:
        """The games held in memory, by id."""
        return self.cache.games

    @property
    def tokens(self) -> dict[str, tuple[str, int]]:
        """The token hashes of the seats of the games held here: (game id, seat)."""
        return self.cache.tokens

    @property
    def decorate(self) -> Decorator | None:
        """Adds words to a view (set by the web layer)."""
        return self.views.decorate

    @decorate.setter
    def decorate(self, value: Decorator | None) -> None:
        self.views.decorate = value

    @property
    def publish(self) -> Callable[[str, int], Awaitable[None]] | None:
        """Tells the other processes that a game changed (game id, move number)."""
        return self.fanout.publish

    @publish.setter
    def publish(self, value: Callable[[str, int], Awaitable[None]] | None) -> None:
        self.fanout.publish = value

    @property
    def bot_delay(self) -> float:
        return self.runner.delay

    @bot_delay.setter
    def bot_delay(self, value: float) -> None:
        self.runner.delay = max(0.0, value)

    @property
    def allow_seed(self) -> bool:
        return self.tables.allow_seed

    @allow_seed.setter
    def allow_seed(self, value: bool) -> None:
        self.tables.allow_seed = value

    @property
    def takeover(self) -> float:
        """Seconds a bot's turn may stay unplayed before this process drives it itself."""
        return self.sweeper.takeover

    @takeover.setter
    def takeover(self, value: float) -> None:
        self.sweeper.takeover = value

    @property
    def sweep_interval(self) -> float:
        return self.sweeper.interval

    @sweep_interval.setter
    def sweep_interval(self, value: float) -> None:
        self.sweeper.interval = value

    @property
    def max_live(self) -> int:
        return self.cache.max_live

    @max_live.setter
    def max_live(self, value: int) -> None:
        self.cache.max_live = value

    @property
    def finished_evict(self) -> float:
        return self.cache.finished_evict

    @finished_evict.setter
    def finished_evict(self, value: float) -> None:
        self.cache.finished_evict = value

    @property
    def idle_evict(self) -> float:
        return self.cache.idle_evict

    @idle_evict.setter
    def idle_evict(self, value: float) -> None:
        self.cache.idle_evict = value

    @property
    def evict_grace(self) -> float:
        return self.cache.evict_grace

    @evict_grace.setter
    def evict_grace(self, value: float) -> None:
        self.cache.evict_grace = value

    @property
    def shared(self) -> bool:
        """Whether other processes may change the games too (``serve --redis``)."""
        return self.fanout.shared

    @property
    def live_count(self) -> int:
        """How many games this process holds in memory."""
        return len(self.cache.games)

    # -- the rooms' doors ------------------------------------------------------

    def has_token(self, token_hash: str) -> bool:
        """Whether ``token_hash`` is a seat's token in a game held here (the rate limit
        gives a valid seat token its own allowance)."""
        return self.cache.has_token(token_hash)

    def share(self, publish: Callable[[str, int], Awaitable[None]]) -> None:
        self.fanout.share(publish)

    def load_unfinished(self) -> None:
        self.cache.load_unfinished()

    def get(self, game_id: str) -> Live:
        return self.cache.get(game_id)

    def evict(self, now: float | None = None) -> int:
        return self.cache.evict(now)

    def store(self, live: Live, write: Write) -> None:
        """Store a change of an extension (the clocks' takeovers and reclaims) under the
        game's lock, in the one transaction of a move (409 stale when another process
        stored first: ``live`` is refreshed)."""
        self.cache.commit(live, write)

    def sync(self, live: Live) -> bool:
        """Bring ``live`` up to the database's record, under its lock; True if it changed."""
        return self.cache.sync(live)

    async def refresh(self, live: Live) -> bool:
        return await self.fanout.refresh(live)

    def notice(self, game_id: str) -> None:
        self.fanout.notice(game_id)

    async def refresh_all(self) -> None:
        await self.fanout.refresh_all()

    async def rematch(self, live: Live, seat: int) -> tuple[Live, str]:
        return await self.tables.rematch(live, seat)

    def seat_of(self, live: Live, token: str | None) -> int:
        return self.seats.seat_of(live, token)

    def seat_at(self, game_id: str, token: str | None) -> tuple[Live, int]:
        """The game ``game_id`` and the seat whose token is ``token``: what a seat's request
        acts on (:meth:`get`, then :meth:`seat_of`: their refusals)."""
        live = self.get(game_id)
        return live, self.seat_of(live, token)

    def seat_or_spectator(self, live: Live, token: str | None) -> int | None:
        return self.seats.seat_or_spectator(live, token)

    async def claim(
        self, live: Live, invitation: str | None, *, join: bool = False, name: str | None = None
    ) -> tuple[int, str]:
        return await self.seats.claim(live, invitation, join=join, name=name)

    async def revoke(self, live: Live, seat: int) -> str:
        return await self.seats.revoke(live, seat)

    async def join(self, live: Live, seat: int, name: str | None) -> None:
        await self.seats.join(live, seat, name)

    def view(self, live: Live, seat: int | None, lang: str = "en") -> dict[str, Any]:
        return self.views.view(live, seat, lang)

    def record(self, live: Live) -> dict[str, Any]:
        return self.views.record(live)

    async def move(
        self, live: Live, seat: int, text: str, expected: int, steps: Sequence[str] = ()
    ) -> dict[str, Any]:
        """Make ``text`` for ``seat`` if it is that seat's decision number ``expected``;
        ``steps`` are the texts of the steps that hide nothing which lead to it."""
        result = await self.moves.move(live, seat, text, expected, steps)
        if result.get("expansion") is None:  # an expansion changes nothing
            await self.fanout.changed(live)
            self.runner.kick(live)
        return result

    def kick_bots(self, live: Live) -> None:
        self.runner.kick(live)

    def kick_all(self) -> None:
        self.runner.kick_all()

    async def bot_choose(self, live: Live, seat: int, spec: str | None = None) -> str:
        return await self.runner.bot_choose(live, seat, spec)

    async def play_bot_move(self, live: Live, seat: int, expected: int, text: str) -> bool:
        return await self.moves.play_bot_move(live, seat, expected, text)

    def start(self) -> None:
        """Start the sweeper (bots left unplayed, notices missed) and the light bots'
        worker; in the event loop."""
        if self.sweeper.task is None:
            self.sweeper.start()
            self.bots.warm()

    async def sweep(self) -> None:
        await self.sweeper.sweep()

    async def stop(self) -> None:
        await self.sweeper.stop(self.on_stop)

    async def changed(self, live: Live) -> None:
        await self.fanout.changed(live)

    async def broadcast(self, live: Live) -> None:
        await self.fanout.broadcast(live)
