"""Limits on what a client may send: request size, request rate, WebSocket message size and rate.

Every limit answers with a clear refusal and changes nothing:

- an HTTP body over ``max_body`` bytes: ``413`` ``{"code": "too_large"}``;
- more requests than ``rate`` per second (``burst`` at once) from one client:
  ``429`` ``{"code": "rate_limited"}`` with a ``Retry-After`` header. A client
  is its IP address, whatever ``X-Seat-Token`` says; a request with a *valid*
  seat token (a seat of a game this process holds) is counted against that
  seat's own allowance instead (a made-up token is counted as the address);
- more games created than ``create_rate`` per second (``create_burst`` at once)
  from one address: ``429`` ``{"code": "rate_limited"}``;
- more WebSocket handshakes than ``ws_connect_rate`` per second
  (``ws_connect_burst`` at once) from one address, more than ``ws_per_address``
  sockets open at once from one address without a seat token, or more than
  ``ws_per_seat`` sockets of one seat: an error frame and the close code 4429;
- a WebSocket message over ``ws_max_message`` bytes: an error frame
  ``too_large`` and the close code 1009; more than ``ws_rate`` messages per
  second (``ws_burst`` at once) on one socket: an error frame ``rate_limited``
  (the message is dropped, the socket stays open);
- a WebSocket message that is no JSON object (or binary): an error frame
  ``bad_message``; the :data:`WS_MAX_BAD`-th on one socket also closes it with 4400.

A limit set to 0 is off. ``civcards serve`` takes them as options or from the
environment (:data:`ENV`).
"""

from __future__ import annotations

import gc
import hashlib
import json
import logging
import math
import os
import re
import time
from collections.abc import Awaitable, Callable, Collection, Mapping, MutableMapping
from dataclasses import dataclass, fields
from typing import Any

log = logging.getLogger("civcards.server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: close code of a WebSocket whose message is too big (RFC 6455)
WS_TOO_BIG = 1009
#: close code of a WebSocket whose client sent a bad first message, or too many bad ones
WS_BAD = 4400
#: bad messages (no JSON object, binary) a socket may send: the last closes it (4400)
WS_MAX_BAD = 10


def env_number(env: Mapping[str, str], var: str) -> float | None:
    """The setting ``var`` of ``env``: a finite number, at least 0; None when it is unset
    or blank; ValueError with a sentence otherwise."""
    text = env.get(var, "").strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{var}={text!r} is not a number") from None
    if not value >= 0 or value == float("inf"):
        raise ValueError(f"{var}={text!r} must be a finite number, at least 0")
    return value


@dataclass(frozen=True)
class Limits:
    """The limits of one server. The defaults let a browser, the tests and the load test through."""

    max_body: int = 64 * 1024  # bytes of an HTTP request body
    rate: float = 50.0  # requests per second and client, sustained
    burst: int = 500  # requests a client may send at once
    ws_max_message: int = 16 * 1024  # bytes of one WebSocket message from a client
    ws_rate: float = 20.0  # WebSocket messages per second and socket, sustained
    ws_burst: int = 100  # WebSocket messages at once
    create_rate: float = 0.5  # games created per second and address, sustained
    create_burst: int = 20  # games an address may create at once
    ws_connect_rate: float = 10.0  # WebSocket handshakes per second and address
    ws_connect_burst: int = 100  # WebSocket handshakes an address may make at once
    ws_per_address: int = 100  # sockets open at once per address, not counting seats'
    ws_per_seat: int = 8  # sockets open at once per seat token

    def __post_init__(self) -> None:
        for f in fields(self):
            if getattr(self, f.name) < 0:
                raise ValueError(f"the limit {f.name} cannot be negative")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Limits:
        """Defaults, overridden by the environment variables of :data:`ENV`."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for f in fields(cls):
            var = ENV[f.name]
            text = env.get(var)
            if text is None or not text.strip():
                continue
            try:
                values[f.name] = float(text) if f.type == "float" else int(text)
            except ValueError:
                raise ValueError(f"{var}={text!r} is not a number") from None
        return cls(**values)

    def ws_hard_cap(self) -> int:
        """The most bytes the WebSocket layer reads at all (it closes with 1009 beyond)."""
        if self.ws_max_message == 0:
            return 16 * 1024 * 1024
        return max(4 * self.ws_max_message, 64 * 1024)


#: the environment variable of each limit
ENV: dict[str, str] = {
    "max_body": "CIVCARDS_MAX_BODY",
    "rate": "CIVCARDS_RATE_LIMIT",
    "burst": "CIVCARDS_RATE_BURST",
    "ws_max_message": "CIVCARDS_WS_MAX_MESSAGE",
    "ws_rate": "CIVCARDS_WS_RATE_LIMIT",
    "ws_burst": "CIVCARDS_WS_RATE_BURST",
    "create_rate": "CIVCARDS_CREATE_RATE",
    "create_burst": "CIVCARDS_CREATE_BURST",
    "ws_connect_rate": "CIVCARDS_WS_CONNECT_RATE",
    "ws_connect_burst": "CIVCARDS_WS_CONNECT_BURST",
    "ws_per_address": "CIVCARDS_WS_PER_ADDRESS",
    "ws_per_seat": "CIVCARDS_WS_PER_SEAT",
}

#: close code of a WebSocket refused for too many connections (4000 + the HTTP status)
WS_TOO_MANY = 4429


class TokenBucket:
    """``burst`` tokens, refilled at ``rate`` per second; each request takes one."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: int, now: float | None = None) -> None:
        self.rate = rate
        self.burst = float(max(burst, 1))
        self.tokens = self.burst
        self.stamp = time.monotonic() if now is None else now

    def take(self, now: float | None = None) -> float:
        """Take a token: 0.0 if there was one, else the seconds until there is one."""
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate

    def full(self, now: float) -> bool:
        return self.tokens + (now - self.stamp) * self.rate >= self.burst


class RateLimiter:
    """A token bucket per client key; full buckets are forgotten when there are many."""

    def __init__(self, rate: float, burst: int, max_keys: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.max_keys = max_keys
        self.buckets: dict[str, TokenBucket] = {}

    @property
    def enabled(self) -> bool:
        return self.rate > 0

    def take(self, key: str) -> float:
        """0.0 if ``key`` may go on, else the seconds it must wait."""
        if not self.enabled:
            return 0.0
        now = time.monotonic()
        b = self.buckets.get(key)
        if b is None:
            if len(self.buckets) >= self.max_keys:
                self._prune(now)
            b = self.buckets[key] = TokenBucket(self.rate, self.burst, now)
        return b.take(now)

    def _prune(self, now: float) -> None:
        for k in [k for k, b in self.buckets.items() if b.full(now)]:
            del self.buckets[k]
        if len(self.buckets) >= self.max_keys:  # all busy: forget the oldest half
            for k in list(self.buckets)[: len(self.buckets) // 2]:
                del self.buckets[k]


#: a token bucket kept in Redis (:class:`SharedRateLimiter`): KEYS[1] the bucket, ARGV the
#: rate and the burst; answers the seconds to wait (0: a token was taken). Redis's own clock,
#: so that every process counts alike; the key expires once it would be full again
_BUCKET_LUA = """
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local b = redis.call('HMGET', KEYS[1], 'tokens', 'stamp')
local tokens = tonumber(b[1])
local stamp = tonumber(b[2])
if tokens == nil or stamp == nil then
  tokens = burst
  stamp = now
end
tokens = math.min(burst, tokens + math.max(0, now - stamp) * rate)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = (1 - tokens) / rate end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'stamp', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.min(math.ceil(burst / rate * 1000) + 1000, 2592000000))
return tostring(wait)
"""


class SharedRateLimiter:
    """:class:`RateLimiter`'s token buckets, kept in Redis when ``client`` (an asyncio Redis
    client) is given: counted across every process that shares it (``serve --redis``),
    not once per process. While Redis cannot be reached, this process counts on its own
    (as without Redis), and says so once."""

    def __init__(
        self, rate: float, burst: int, client: Any = None, prefix: str = "civcards:limit:"
    ) -> None:
        self.local = RateLimiter(rate, burst)
        self.client = client
        self.prefix = prefix
        self._script = client.register_script(_BUCKET_LUA) if client is not None else None
        self._away = False

    async def take(self, key: str) -> float:
        """0.0 if ``key`` may go on, else the seconds it must wait."""
        local = self.local
        if not local.enabled:
            return 0.0
        if self._script is None:
            return local.take(key)
        from redis.exceptions import RedisError

        bucket = self.prefix + hashlib.sha256(key.encode()).hexdigest()
        try:
            got = await self._script(keys=[bucket], args=[repr(local.rate), max(local.burst, 1)])
        except (RedisError, OSError) as e:
            if not self._away:
                log.warning("cannot count the limit in Redis (%s): counted here alone", e)
            self._away = True
            return local.take(key)
        if self._away:
            log.info("the limit is counted in Redis again")
        self._away = False
        return float(got.decode() if isinstance(got, bytes) else got)


def client_address(scope: Scope) -> str:
    """The client's address: the socket's peer, or with ``--trust-proxy`` the one a listed
    proxy forwarded (:class:`~civcards.server.security.ProxyMiddleware`)."""
    client = scope.get("client")
    return str(client[0]) if client else "?"


def seat_token(scope: Scope) -> bytes | None:
    for name, value in scope.get("headers", ()):
        if name == b"x-seat-token" and value:
            return bytes(value)
    return None


#: whether a seat token (its SHA-256, hex) is a seat of a game this process holds
TokenCheck = Callable[[str], bool]


def client_key(scope: Scope, valid: TokenCheck | None = None) -> str:
    """Who a request is counted against: a *valid* seat token's own allowance (``valid``
    says which hashes are seats), else its address, whatever ``X-Seat-Token`` says."""
    token = seat_token(scope)
    if token is not None and valid is not None:
        digest = hashlib.sha256(token).hexdigest()
        if valid(digest):
            return "t:" + digest
    return "ip:" + client_address(scope)


def _problem(status: int, code: str, detail: str, headers: list[tuple[bytes, bytes]]) -> Any:
    body = json.dumps({"detail": detail, "code": code}).encode()
    start = {
        "type": "http.response.start",
        "status": status,
        "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            *headers,
        ],
    }
    return start, {"type": "http.response.body", "body": body}


class LimitsMiddleware:
    """ASGI middleware: the HTTP rate limit (429) and body size limit (413). The paths in
    ``exempt`` (the health checks) are never limited: a load balancer's probe must not be
    refused because other requests came from its address."""

    def __init__(
        self,
        app: ASGIApp,
        limits: Limits,
        exempt: Collection[str] = (),
        valid_token: TokenCheck | None = None,
        create_paths: Collection[str] = ("/api/games",),
    ) -> None:
        self.app = app
        self.limits = limits
        self.limiter = RateLimiter(limits.rate, limits.burst)
        self.creates = RateLimiter(limits.create_rate, limits.create_burst)
        self.exempt = frozenset(exempt)
        self.valid_token = valid_token
        self.create_paths = frozenset(create_paths)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("path") in self.exempt:
            await self.app(scope, receive, send)
            return
        wait = self.limiter.take(client_key(scope, self.valid_token))
        what = f"requests: at most {self.limits.rate:g} per second ({self.limits.burst} at once)"
        if wait <= 0 and scope.get("method") == "POST" and scope.get("path") in self.create_paths:
            wait = self.creates.take("ip:" + client_address(scope))
            what = (
                f"games created: at most {self.limits.create_rate:g} per second "
                f"({self.limits.create_burst} at once) from one address"
            )
        if wait > 0:
            secs = max(1, math.ceil(wait))
            await self._refuse(
                send,
                429,
                "rate_limited",
                f"too many {what}; try again in {secs} s",
                [(b"retry-after", str(secs).encode())],
            )
            return
        limit = self.limits.max_body
        if limit > 0:
            length = _content_length(scope)
            if length is not None and length > limit:
                await self._too_large(send, limit)
                return
            if length is not None or _chunked(scope):
                body, more = await _read_body(receive, limit)
                if more:
                    await self._too_large(send, limit)
                    return
                receive = _replay(body, receive)
        await self.app(scope, receive, send)

    async def _too_large(self, send: Send, limit: int) -> None:
        await self._refuse(
            send,
            413,
            "too_large",
            f"the request body is larger than this server accepts ({limit} bytes)",
            [(b"connection", b"close")],
        )

    @staticmethod
    async def _refuse(
        send: Send, status: int, code: str, detail: str, headers: list[tuple[bytes, bytes]]
    ) -> None:
        start, body = _problem(status, code, detail, headers)
        await send(start)
        await send(body)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def _chunked(scope: Scope) -> bool:
    return any(
        name == b"transfer-encoding" and b"chunked" in value.lower()
        for name, value in scope.get("headers", ())
    )


async def _read_body(receive: Receive, limit: int) -> tuple[bytes, bool]:
    """The body, read up to ``limit`` bytes; True as second value if it was longer."""
    parts: list[bytes] = []
    size = 0
    while True:
        msg = await receive()
        if msg["type"] != "http.request":  # the client went away
            return b"".join(parts), False
        chunk = msg.get("body", b"")
        size += len(chunk)
        if size > limit:
            return b"", True
        parts.append(chunk)
        if not msg.get("more_body", False):
            return b"".join(parts), False


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def again() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again


class WsGuard:
    """The limits of one WebSocket: :meth:`check` says what is wrong with a message, if anything."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.bucket = TokenBucket(limits.ws_rate, limits.ws_burst) if limits.ws_rate > 0 else None
        #: the bad messages the socket has sent
        self.bad_messages = 0

    def bad(self, detail: str) -> tuple[dict[str, Any], bool]:
        """A bad message (no JSON object, binary): its error frame, and whether the socket
        is to be closed now (4400: :data:`WS_MAX_BAD` of them)."""
        self.bad_messages += 1
        close = self.bad_messages >= WS_MAX_BAD
        if close:
            detail += f"; {WS_MAX_BAD} bad messages: the socket is closed"
        return {"type": "error", "code": "bad_message", "detail": detail}, close

    def too_large(self, text: str) -> dict[str, Any] | None:
        """The error frame for a message over the size limit (then close with 1009)."""
        limit = self.limits.ws_max_message
        if limit > 0 and len(text) > limit:
            return {
                "type": "error",
                "code": "too_large",
                "detail": f"a message has at most {limit} characters",
            }
        return None

    def too_fast(self) -> dict[str, Any] | None:
        """The error frame for a message over the rate limit (the message is dropped)."""
        if self.bucket is None:
            return None
        wait = self.bucket.take()
        if wait > 0:
            return {
                "type": "error",
                "code": "rate_limited",
                "detail": f"too many messages: at most {self.limits.ws_rate:g} per second; "
                f"this one was ignored",
                "retry_after": round(wait, 3),
            }
        return None


class WsSlots:
    """The WebSocket connections of one process: handshakes per second per address, sockets
    open at once per address (until a seat token moves one to its seat) and per seat."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.handshakes = RateLimiter(limits.ws_connect_rate, limits.ws_connect_burst)
        self.open: dict[str, int] = {}

    def _error(self, detail: str, wait: float = 0.0) -> dict[str, Any]:
        frame: dict[str, Any] = {"type": "error", "code": "too_many_connections", "detail": detail}
        if wait > 0:
            frame["retry_after"] = round(wait, 3)
        return frame

    def connect(self, address: str) -> dict[str, Any] | None:
        """A handshake from ``address``: None, or the refusal's frame (too many at once)."""
        wait = self.handshakes.take("ip:" + address)
        if wait > 0:
            return self._error(
                f"too many connections: at most {self.limits.ws_connect_rate:g} per second "
                f"({self.limits.ws_connect_burst} at once) from one address",
                wait,
            )
        return None

    def admit(
        self, address: str, token_hash: str | None
    ) -> tuple[str | None, dict[str, Any] | None]:
        """The socket said who it is: a seat (``token_hash`` of a valid seat token) is counted
        against the seat's own allowance, a spectator against its address. (its slot, None),
        or (None, the refusal's frame)."""
        if token_hash is not None:
            if self._take("t:" + token_hash, self.limits.ws_per_seat):
                return "t:" + token_hash, None
            return None, self._error(
                f"too many connections of this seat: at most {self.limits.ws_per_seat} "
                "at once; close another tab of it"
            )
        if self._take("ip:" + address, self.limits.ws_per_address):
            return "ip:" + address, None
        return None, self._error(
            f"too many connections open: at most {self.limits.ws_per_address} from one "
            "address (a seat's own sockets are counted apart)"
        )

    def _take(self, key: str, limit: int) -> bool:
        n = self.open.get(key, 0)
        if limit > 0 and n >= limit:
            return False
        self.open[key] = n + 1
        return True

    def release(self, slot: str | None) -> None:
        if slot is None:
            return
        n = self.open.get(slot, 0) - 1
        if n > 0:
            self.open[slot] = n
        else:
            self.open.pop(slot, None)


#: the deepest nesting of arrays and objects a client's JSON may have (the table's own
#: messages are 2 deep; Python's parser overflows its stack some thousands deep)
MAX_JSON_DEPTH = 32

_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_JSON_BRACKET = re.compile(r"[\[\]{}]")


def json_too_deep(text: str | bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether the JSON ``text`` nests arrays and objects deeper than ``limit``: checked
    before parsing it (the parser would overflow its stack), strings left out."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    depth = 0
    for m in _JSON_BRACKET.finditer(_JSON_STRING.sub("", text)):
        if m.group() in "[{":
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def loads(text: str) -> Any:
    """``json.loads`` for a client's message: ValueError (never a RecursionError) for one
    nested deeper than :data:`MAX_JSON_DEPTH`, or that is not JSON."""
    if json_too_deep(text):
        raise TooDeep(f"a message nests at most {MAX_JSON_DEPTH} levels of arrays and objects")
    try:
        return json.loads(text)
    except RecursionError:  # pragma: no cover - refused above
        raise TooDeep("the message nests too deep") from None


class TooDeep(ValueError):
    """A client's JSON nested deeper than :data:`MAX_JSON_DEPTH`."""


class BinaryMessage(ValueError):
    """A WebSocket message in binary: the table speaks JSON text only."""


async def receive_text(websocket: Any) -> str:
    """The next text message of a Starlette WebSocket; :class:`BinaryMessage` for a binary
    one (Starlette's own ``receive_text`` fails on it with a KeyError: a server error)."""
    from starlette.websockets import WebSocketDisconnect

    msg = await websocket.receive()
    if msg["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(msg.get("code", 1000), msg.get("reason"))
    text = msg.get("text")
    if text is None:
        raise BinaryMessage("send JSON objects as text messages, not binary ones")
    return str(text)


def tune_gc() -> None:
    """Keep the garbage collector's pauses out of the moves' latency under load: what exists
    once the server has started (modules, the app, the games rebuilt) is frozen out of the
    collections, and young objects are collected in larger, rarer batches."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)
