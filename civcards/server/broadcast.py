"""Broadcast and bus: after a change is stored, the other processes hear of it (the bus,
``serve --redis``: :attr:`Fanout.publish`) and this process's clients get their own
views; a change another process announced is read from the database and told here.

It imports :mod:`.cache` and :mod:`.live` (docs/architecture.md)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from .cache import GameCache
from .live import DB_DOWN, Live

log = logging.getLogger("civcards.server")

#: a seat's view of a game (None: a spectator's) in a language
View = Callable[[Live, "int | None", str], dict[str, Any]]


class Fanout:
    """Tells the clients of the games held in ``cache`` their ``view``s."""

    def __init__(self, cache: GameCache, view: View) -> None:
        self.cache = cache
        self.view = view
        #: tells the other processes that a game changed (game id, move number); set
        #: with :meth:`share` when several processes share the database
        self.publish: Callable[[str, int], Awaitable[None]] | None = None

    @property
    def shared(self) -> bool:
        """Whether other processes may change the games too (``serve --redis``)."""
        return self.publish is not None

    def share(self, publish: Callable[[str, int], Awaitable[None]]) -> None:
        self.publish = publish

    async def changed(self, live: Live) -> None:
        """After a store: tell the other processes, then this one's clients."""
        if self.publish is not None:
            await self.publish(live.id, len(live.moves))
        await self.broadcast(live)

    async def broadcast(self, live: Live) -> None:
        """Send every connected client its own view (after the change is stored)."""
        async with live.send_lock:
            for sub in list(live.subscribers):
                try:
                    if sub.seat is not None and sub.token_hash != live.seats[sub.seat].token_hash:
                        # its token was revoked (or the seat claimed anew): no more views
                        live.subscribers.discard(sub)
                        await sub.send(
                            {
                                "type": "error",
                                "code": "bad_token",
                                "detail": "this seat's token was replaced: open the seat's new link",
                            }
                        )
                        if sub.close is not None:
                            await sub.close(4403)
                        continue
                    await sub.send({"type": "state", **self.view(live, sub.seat, sub.lang)})
                except Exception:
                    live.subscribers.discard(sub)

    # -- what other processes stored -------------------------------------------

    async def refresh(self, live: Live) -> bool:
        """Read what other processes stored for ``live``; tell its clients if it changed."""
        async with live.lock:
            changed = self.cache.sync(live)
        if changed:
            await self.broadcast(live)
        return changed

    def notice(self, game_id: str) -> None:
        """Another process changed ``game_id``: refresh it (if it is loaded here)."""
        live = self.cache.games.get(game_id)
        if live is None:
            return
        live.stale = True
        if live.refresh_task is None or live.refresh_task.done():
            live.refresh_task = asyncio.get_running_loop().create_task(self._refresh_loop(live))

    async def _refresh_loop(self, live: Live) -> None:
        while live.stale:
            live.stale = False
            try:
                await self.refresh(live)
            except DB_DOWN as e:  # the sweeper catches up once the database is back
                log.warning("game %s: cannot refresh (%s)", live.id, type(e).__name__)
                return

    async def refresh_all(self) -> None:
        """Refresh every loaded game (after notices may have been missed)."""
        for gid in list(self.cache.games):
            self.notice(gid)
