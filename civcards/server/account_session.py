"""An account's session: the request's session cookie read once (:class:`SessionMiddleware`),
its CSRF token, the sealed keys, the login limits, the request bodies, and how a rated
game's result reads for a seat."""

from __future__ import annotations

import base64
import contextvars
import hashlib
import hmac
import logging
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from argon2.low_level import hash_secret_raw
from argon2.profiles import RFC_9106_LOW_MEMORY
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from pydantic import BaseModel, ConfigDict, Field
from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Receive, Scope, Send

from .core import ApiError
from .limits import env_number
from .security import Security

log = logging.getLogger("civcards.server")

HERE = Path(__file__).parent
#: the session cookie's name
COOKIE = "civcards_session"
#: the header that carries the session's CSRF token
CSRF_HEADER = "X-CSRF-Token"
#: how long a session lasts
SESSION_DAYS = 30
#: a password's length, in characters
MIN_PASSWORD = 8
MAX_PASSWORD = 256
#: the methods that change nothing (no CSRF check)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: where the account's key comes from: Argon2id with RFC 9106's low-memory profile
KDF = RFC_9106_LOW_MEMORY


# -- the request's session ------------------------------------------------------------------

#: the session id of the request being served (its cookie), when it may be used
SESSION_ID: contextvars.ContextVar[list[str | None] | None] = contextvars.ContextVar(
    "civcards_sid", default=None
)


@dataclass(frozen=True)
class Who:
    """A logged-in account, as one request's session shows it."""

    account_id: str
    name: str
    created_at: datetime
    sid: str
    #: the account's key (unwrapped with the session id): it encrypts the seats' tokens
    key: bytes


class SessionMiddleware:
    """ASGI middleware: makes the request's session cookie known to the hooks
    (:data:`SESSION_ID`). A change (POST …) sent from a page of another site (its ``Origin``) is
    served as if no one were logged in."""

    def __init__(self, app: ASGIApp, security: Security) -> None:
        self.app = app
        self.security = security

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        sid = cookie_parser(headers.get("cookie", "")).get(COOKIE) or None
        if sid is not None and not same_site(scope, headers, self.security):
            sid = None
        # a holder emptied when the request is over: a task it started (the bots) inherits
        # the context, never the session
        holder: list[str | None] = [sid]
        mark = SESSION_ID.set(holder)
        try:
            await self.app(scope, receive, send)
        finally:
            holder[0] = None
            SESSION_ID.reset(mark)


def same_site(scope: Scope, headers: Headers, security: Security) -> bool:
    """Whether a request may use the session cookie: a safe method, or a change whose
    ``Origin`` (when the browser sends one) is this site's."""
    if scope.get("method", "GET") in SAFE_METHODS:
        return True
    return security.origin_allowed(headers.get("origin"), headers.get("host"))


def csrf_of(sid: str) -> str:
    """The session's CSRF token (HMAC of the session id: it does not reveal the id)."""
    return hmac.new(sid.encode(), b"civcards-csrf", hashlib.sha256).hexdigest()


def session_aead(sid: str) -> AESGCM:
    return AESGCM(hashlib.sha256(b"civcards-session-key\0" + sid.encode()).digest())


def seal(aead: AESGCM, data: bytes, aad: bytes) -> str:
    nonce = os.urandom(12)
    return base64.b64encode(nonce + aead.encrypt(nonce, data, aad)).decode("ascii")


def seat_aad(game_id: str, seat: int) -> bytes:
    """What a seat's sealed token is bound to besides the key: its game and seat (a sealed
    token cannot be moved to another seat)."""
    return f"{game_id}:{seat}".encode()


def seal_seat_token(key: bytes, game_id: str, seat: int, token: str) -> str:
    """A seat's token sealed with an account's ``key`` (:func:`seal`, :func:`seat_aad`)."""
    return seal(AESGCM(key), token.encode(), seat_aad(game_id, seat))


def unseal(aead: AESGCM, text: str, aad: bytes) -> bytes | None:
    """The data of :func:`seal`; None if it was not sealed with this key."""
    try:
        raw = base64.b64decode(text)
        return aead.decrypt(raw[:12], raw[12:], aad)
    except (InvalidTag, ValueError):
        return None


def derive_key(password: str, salt: bytes) -> bytes:
    """The account's key: Argon2id of the password with the account's key salt."""
    return hash_secret_raw(
        password.encode("utf-8"),
        salt,
        time_cost=KDF.time_cost,
        memory_cost=KDF.memory_cost,
        parallelism=KDF.parallelism,
        hash_len=32,
        type=KDF.type,
    )


def as_aware(dt: datetime) -> datetime:
    """SQLite gives naive datetimes back: they are UTC."""
    return dt if dt.tzinfo is not None else dt.replace(tzinfo=UTC)


def ordinal(mu: float, sigma: float) -> float:
    return round(mu - 3.0 * sigma, 3)


# -- request bodies -------------------------------------------------------------------------


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=64, description="The account's name.")
    password: str = Field(min_length=1, max_length=1024, description="Its password.")


class PasswordBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    password: str = Field(min_length=1, max_length=1024, description="The account's password.")


class NewPasswordBody(PasswordBody):
    new_password: str = Field(
        min_length=1,
        max_length=1024,
        description=f"The new password ({MIN_PASSWORD} to {MAX_PASSWORD} characters).",
    )


class LoginRateLimited(ApiError):
    """Too many attempts to log in: 429, with ``Retry-After``."""

    def __init__(self, seconds: int) -> None:
        super().__init__(
            429,
            "login_rate_limited",
            f"too many attempts to log in: try again in {max(1, seconds)} seconds",
        )
        self.retry_after = max(1, seconds)


# -- settings -------------------------------------------------------------------------------


@dataclass(frozen=True)
class LoginLimits:
    """Login (and register) attempts: ``burst`` at once, then ``rate`` a second, per account
    name and per address (0: off). From ``CIVCARDS_LOGIN_*`` (docs/accounts.md)."""

    account_rate: float = 1 / 60
    account_burst: int = 10
    address_rate: float = 0.2
    address_burst: int = 30

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> LoginLimits:
        env = dict(os.environ) if env is None else env
        names = {
            "account_rate": "CIVCARDS_LOGIN_RATE",
            "account_burst": "CIVCARDS_LOGIN_BURST",
            "address_rate": "CIVCARDS_LOGIN_ADDRESS_RATE",
            "address_burst": "CIVCARDS_LOGIN_ADDRESS_BURST",
        }
        values: dict[str, Any] = {}
        for field_name, var in names.items():
            value = env_number(env, var)
            if value is None:
                continue
            values[field_name] = int(value) if field_name.endswith("burst") else value
        return cls(**values)
