"""The live-game cache: the games this process holds in memory, rebuilt from the store's
records, kept up to date with it (:meth:`GameCache.sync`), and evicted when unused (the
database is the truth, so a game may leave memory and be rebuilt when asked for again).

It also indexes the seats' token hashes of the games it holds (the rate limit gives a
valid seat token its own allowance).

It imports :mod:`.store`, :mod:`.live` and the game API (docs/architecture.md)."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from datetime import UTC

from ..game_api import GameError, get_game
from .live import STALE, ApiError, Live, Pending, SeatInfo, Write, bot_to_move, record_mark
from .store import StaleRecord, Store

log = logging.getLogger("civcards.server")


class GameCache:
    """The games in memory, by id, over ``store``; ``on_load``: the extensions' hooks of a
    game loaded or refreshed from the database (True: it changed)."""

    def __init__(self, store: Store, on_load: list[Callable[[Live], bool]]) -> None:
        self.records = store
        self.on_load = on_load
        self.games: dict[str, Live] = {}
        #: the token hashes of the seats of the games held here: (game id, seat)
        self.tokens: dict[str, tuple[str, int]] = {}
        #: the most games held in memory (least recently used leave first); games in use
        #: (sockets connected, a bot to move or thinking, a move being stored) stay
        self.max_live = 2000
        #: seconds a finished game stays in memory after its last use
        self.finished_evict = 60.0
        #: seconds an unfinished game stays in memory after its last use
        self.idle_evict = 1800.0
        #: a game used within so many seconds is never evicted (a request may hold it)
        self.evict_grace = 5.0

    # -- tokens --------------------------------------------------------------

    def has_token(self, token_hash: str) -> bool:
        return token_hash in self.tokens

    def index(self, live: Live) -> None:
        for i, s in enumerate(live.seats):
            if s.token_hash is not None:
                self.tokens[s.token_hash] = (live.id, i)

    def set_token(self, live: Live, seat: int, token_hash: str | None) -> None:
        """The seat's token is now ``token_hash`` (the old one leaves the index)."""
        info = live.seats[seat]
        if info.token_hash is not None and info.token_hash != token_hash:
            self.tokens.pop(info.token_hash, None)
        info.token_hash = token_hash
        if token_hash is not None:
            self.tokens[token_hash] = (live.id, seat)

    # -- holding games -------------------------------------------------------

    def add(self, live: Live) -> None:
        """Hold a game just made (or loaded), then evict over the cap (never it)."""
        self.games[live.id] = live
        self.index(live)
        self.evict_over_cap(keep=live)

    def forget(self, game_id: str) -> None:
        """Let go of a game that was never shown to anyone (a rematch made twice)."""
        self.games.pop(game_id, None)

    def load_unfinished(self) -> None:
        """Rebuild every unfinished game from the database (server start)."""
        for gid in self.records.unfinished_ids():
            try:
                self.get(gid)
            except Exception:  # a broken game must not stop the server
                log.exception("game %s could not be rebuilt from its record", gid)

    def get(self, game_id: str) -> Live:
        """The game ``game_id``, from memory or rebuilt from its record; 404 if none."""
        live = self.games.get(game_id)
        if live is not None:
            live.touched = time.monotonic()
            return live
        if len(game_id) > 32:
            raise ApiError(404, "no_game", "there is no such game")
        rows = self.records.read_game(game_id)
        if rows is None:
            raise ApiError(404, "no_game", "there is no such game")
        row, prow = rows.row, rows.pending
        setup = json.loads(row.setup)
        options = setup.pop("_options", {})
        clock = setup.pop("_clock", None)
        hints = bool(setup.pop("_hints", False))
        texts = [m.text for m in rows.moves]
        try:
            game = get_game(row.kind)
        except GameError:
            log.error(
                "game %s is of the game %r, which this server does not host", game_id, row.kind
            )
            raise ApiError(404, "no_game", "there is no such game on this server") from None
        # event-sourced: the live state is the stored set-up with the stored moves
        state = game.from_record({**setup, "moves": texts})
        pending = None
        if prow is not None and prow.idx == len(texts) and state.to_move == prow.seat:
            pending = Pending(prow.seat, prow.idx, prow.option)
        live = Live(
            id=row.id,
            game=game,
            state=state,
            options=options,
            seats=[
                SeatInfo(r.kind, r.bot, r.name, r.token_hash, r.joined, r.invite_hash)
                for r in rows.seats
            ],
            moves=texts,
            pending=pending,
            created_at=row.created_at
            if row.created_at.tzinfo
            else row.created_at.replace(tzinfo=UTC),
            rematch_of=row.rematch_of,
            rematch_id=row.rematch_id,
            # a game stored before the secret existed: its id, as then
            bot_secret=row.bot_secret or row.id,
            private=bool(row.private),
            clock=clock,
            hints=hints,
        )
        for load in self.on_load:
            load(live)
        self.add(live)
        return live

    # -- the database's record -----------------------------------------------

    def sync(self, live: Live) -> bool:
        """Bring ``live`` up to the database's record (under its lock); True if it changed."""
        before = record_mark(live)
        news = self.records.read_news(live.id, len(live.moves))
        if news is None:
            return False
        for m in news.moves:
            if m.idx != len(live.moves):
                log.error("game %s: move %d is missing from the database", live.id, len(live.moves))
                break
            nxt = live.state.copy()
            try:
                live.game.play(nxt, m.text)
            except Exception:
                log.error("game %s: stored move %d cannot be applied", live.id, m.idx)
                break
            live.state = nxt
            live.moves.append(m.text)
            live.pending = None
            live.changed_at = time.monotonic()
        live.pending = None
        prow = news.pending
        if prow is not None and prow.idx == len(live.moves) and live.state.to_move == prow.seat:
            live.pending = Pending(prow.seat, prow.idx, prow.option)
        for r in news.seats:
            if r.seat < len(live.seats):
                info = live.seats[r.seat]
                info.name, info.joined, info.invite_hash = r.name, r.joined, r.invite_hash
                info.kind, info.bot = r.kind, r.bot
                self.set_token(live, r.seat, r.token_hash)
        live.rematch_id = news.rematch_id
        loaded = [load(live) for load in self.on_load]
        return record_mark(live) != before or any(loaded)

    def commit(self, live: Live, write: Write) -> None:
        """:meth:`.store.Store.commit` ``write`` for ``live`` (under the game's lock): when
        another process stored first, ``live`` is brought up to the database's record and
        the change is refused (409 stale)."""
        try:
            self.records.commit(live, write)
        except StaleRecord:
            log.info("game %s: refused a stale change at move %d", live.id, len(live.moves))
            self.sync(live)
            raise ApiError(409, "stale", STALE) from None

    # -- eviction --------------------------------------------------------------

    def set_eviction(
        self,
        *,
        max_live: int | None = None,
        finished_evict: float | None = None,
        idle_evict: float | None = None,
        evict_grace: float | None = None,
    ) -> None:
        """Set how many games, and for how long, this process holds in memory."""
        if max_live is not None:
            if max_live < 1:
                raise ValueError("the most live games must be at least 1")
            self.max_live = max_live
        for name, value in (
            ("finished_evict", finished_evict),
            ("idle_evict", idle_evict),
            ("evict_grace", evict_grace),
        ):
            if value is not None:
                if value < 0:
                    raise ValueError(f"{name} cannot be negative")
                setattr(self, name, float(value))

    @staticmethod
    def last_used(live: Live) -> float:
        return max(live.touched, live.changed_at)

    def evictable(self, live: Live, now: float) -> bool:
        """Whether ``live`` may leave memory: nobody connected, no bot to move or
        thinking, nothing being stored or sent, not used within :attr:`evict_grace`."""
        if live.subscribers or live.lock.locked() or live.send_lock.locked():
            return False
        for task in (live.bot_task, live.refresh_task):
            if task is not None and not task.done():
                return False
        if live.stale or (not live.finished and bot_to_move(live) is not None):
            return False
        return now - self.last_used(live) >= self.evict_grace

    def drop(self, live: Live) -> None:
        if self.games.get(live.id) is not live:
            return
        del self.games[live.id]
        for s in live.seats:
            if s.token_hash is not None and self.tokens.get(s.token_hash, ("",))[0] == live.id:
                del self.tokens[s.token_hash]

    def evict_over_cap(self, keep: Live | None = None, now: float | None = None) -> int:
        over = len(self.games) - self.max_live
        if over <= 0:
            return 0
        now = time.monotonic() if now is None else now
        # finished games first, then the least recently used
        order = sorted(
            (g for g in self.games.values() if g is not keep and self.evictable(g, now)),
            key=lambda g: (not g.finished, self.last_used(g)),
        )
        for g in order[:over]:
            self.drop(g)
        return min(over, len(order))

    def evict(self, now: float | None = None) -> int:
        """Drop from memory the finished games unused for :attr:`finished_evict` seconds,
        the others unused for :attr:`idle_evict`, then the least recently used over
        :attr:`max_live`; never a game in use. Returns how many left memory. They are
        rebuilt from the database when asked for again (:meth:`get`)."""
        now = time.monotonic() if now is None else now
        drop = [
            g
            for g in self.games.values()
            if self.evictable(g, now)
            and now - self.last_used(g) >= (self.finished_evict if g.finished else self.idle_evict)
        ]
        for g in drop:
            self.drop(g)
        return len(drop) + self.evict_over_cap(now=now)
