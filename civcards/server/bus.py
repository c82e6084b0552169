"""Live fan-out between several ``civcards serve`` processes over Redis pub/sub.

The database stays the record of truth; Redis only carries small notices
``{"game": id, "n": move number, "from": process}``. A process that stored a
change publishes one; every other process refreshes that game from the
database (if it holds it) and tells its own clients. A lost notice costs only
time: the sweeper of :class:`~civcards.server.core.TableServer` compares move
counts with the database every few seconds, and every (re)subscription
refreshes all loaded games.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable

import redis.asyncio as aioredis
from redis.exceptions import RedisError

log = logging.getLogger("civcards.server")

CHANNEL = "civcards:games"


def check_url(url: str) -> None:
    """Refuse a URL that is not a Redis URL (ValueError with a sentence)."""
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError(
            f"{url!r} is not a Redis URL (redis://host:6379/0, rediss://… or unix:///path)"
        )


class Bus:
    """One process's connection to the others: publish notices, listen for theirs."""

    def __init__(
        self,
        url: str,
        *,
        on_notice: Callable[[str], None],
        on_connect: Callable[[], Awaitable[None]],
        channel: str = CHANNEL,
    ) -> None:
        check_url(url)
        self.url = url
        self.channel = channel
        self.origin = secrets.token_hex(6)
        self.on_notice = on_notice
        self.on_connect = on_connect
        self.connected = False
        self._publish_failed = False
        self.client = aioredis.Redis.from_url(
            url, socket_timeout=5, socket_connect_timeout=5, health_check_interval=10
        )
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._listen())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        with contextlib.suppress(RedisError, OSError):
            await self.client.aclose()

    async def ping(self) -> bool:
        try:
            return bool(await self.client.ping())
        except (RedisError, OSError):
            return False

    async def publish(self, game_id: str, move_number: int) -> None:
        """Tell the other processes that ``game_id`` changed. Never fails the caller: the
        change is stored already, and the others catch up by themselves."""
        msg = json.dumps({"game": game_id, "n": move_number, "from": self.origin})
        try:
            await self.client.publish(self.channel, msg)
            if self._publish_failed:
                log.info("Redis takes notices again")
            self._publish_failed = False
        except (RedisError, OSError) as e:
            if not self._publish_failed:
                log.warning("cannot publish to Redis (%s): other processes catch up later", e)
            self._publish_failed = True

    async def _listen(self) -> None:
        delay = 0.2
        while True:
            pubsub = self.client.pubsub()
            try:
                await pubsub.subscribe(self.channel)
                while True:
                    m = await pubsub.get_message(timeout=5.0)
                    if m is None:
                        continue
                    if m.get("type") == "subscribe":
                        # (re)subscribed: notices sent meanwhile are lost, so refresh all
                        if not self.connected:
                            log.info("listening to other processes on Redis %s", self.channel)
                        self.connected = True
                        delay = 0.2
                        await self.on_connect()
                    elif m.get("type") == "message":
                        self._handle(m.get("data"))
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as e:
                if self.connected:
                    log.warning("lost Redis (%s); reconnecting", e)
                self.connected = False
            finally:
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)

    def _handle(self, data: object) -> None:
        try:
            msg = json.loads(data if isinstance(data, (str, bytes)) else "")
            gid = msg["game"]
            origin = msg.get("from")
        except (ValueError, KeyError, TypeError):
            log.warning("ignored a notice that is not ours on %s", self.channel)
            return
        if origin != self.origin and isinstance(gid, str):
            self.on_notice(gid)
