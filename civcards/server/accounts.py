"""Accounts, optional: anonymous play stays the default (docs/accounts.md).

A player may register a name and a password. Then their seats follow them to any browser,
their games form a history with results, and rated games between accounts give them a
rating per game (openskill's Plackett-Luce model, as ``civcards arena`` uses).

Security, in short:

- the password is stored as an Argon2id hash (argon2-cffi, RFC 9106's low-memory
  profile), never as itself;
- the session is a random id in an ``HttpOnly``, ``SameSite=Lax`` cookie (``Secure`` over
  https); the server keeps only its SHA-256. Logging in always starts a new session (the
  one the browser had, if any, is revoked: no session fixation); logging out revokes it;
- every change made with the cookie needs the session's CSRF token in the
  ``X-CSRF-Token`` header (a synchronizer token derived from the session id, given by
  ``GET /api/account/me``, which only this site's pages can read); a change sent from a
  page of another site (its ``Origin``) is refused, and for the rest of the API the cookie
  is then not used at all;
- logging in is rate-limited per address and per account (:class:`.limits.RateLimiter`);
- seat tokens stay what they were, headers and never cookies. A seat taken while logged in
  is linked to the account, and its token is kept encrypted (AES-GCM) with the account's
  key: Argon2id of the password with a salt of its own, never stored; each session holds
  the key encrypted with a key derived from its session id, which only the browser has.
  Whoever reads the database learns no seat token.

The tables are created by the migration ``0004_accounts``. The table's core knows nothing
of accounts: :class:`Accounts` observes it (:class:`.core.SeatHooks`).
"""

from __future__ import annotations

import base64
import contextvars
import hashlib
import hmac
import logging
import math
import os
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Annotated, Any, Literal, cast

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from argon2.low_level import hash_secret_raw
from argon2.profiles import RFC_9106_LOW_MEMORY
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from fastapi import APIRouter, FastAPI, Header, Query, Request, Response
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Float, ForeignKey, Integer, String, Text, delete, select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Receive, Scope, Send

from ..game_api import GameError, Result, get_game
from ..i18n import LANGS, normalize_lang
from .core import ApiError, Live, SeatHooks, SeatInfo, TableServer, clean_name, name_key
from .db import Base, GameRow, SeatRow, hash_token, utcnow
from .i18n_web import catalogue
from .limits import SharedRateLimiter, client_address
from .models import AccountGameOut, OkOut, RatingOut, SeatTokenOut, SessionOut
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


# -- tables (created by the migration 0004_accounts) -------------------------------------


class AccountRow(Base):
    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    name_key: Mapped[str] = mapped_column(String(256), unique=True)
    password_hash: Mapped[str] = mapped_column(String(256))
    key_salt: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class SessionRow(Base):
    __tablename__ = "account_sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    wrapped_key: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime] = mapped_column()


class AccountSeatRow(Base):
    __tablename__ = "account_seats"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    token_enc: Mapped[str | None] = mapped_column(Text, nullable=True)
    result: Mapped[str | None] = mapped_column(String(8), nullable=True)
    linked_at: Mapped[datetime] = mapped_column(default=utcnow)


class RatedGameRow(Base):
    __tablename__ = "rated_games"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    applied_at: Mapped[datetime | None] = mapped_column(nullable=True)


class RatingRow(Base):
    __tablename__ = "ratings"

    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class RatingChangeRow(Base):
    __tablename__ = "rating_changes"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)


# -- the request's session ------------------------------------------------------------------

#: the session id of the request being served (its cookie), when it may be used
_SID: contextvars.ContextVar[list[str | None] | None] = contextvars.ContextVar(
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
    (:data:`_SID`). A change (POST …) sent from a page of another site (its ``Origin``) is
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
        mark = _SID.set(holder)
        try:
            await self.app(scope, receive, send)
        finally:
            holder[0] = None
            _SID.reset(mark)


def same_site(scope: Scope, headers: Headers, security: Security) -> bool:
    """Whether a request may use the session cookie: a safe method, or a change whose
    ``Origin`` (when the browser sends one) is this site's."""
    if scope.get("method", "GET") in SAFE_METHODS:
        return True
    return security.origin_allowed(headers.get("origin"), headers.get("host"))


def csrf_of(sid: str) -> str:
    """The session's CSRF token (HMAC of the session id: it does not reveal the id)."""
    return hmac.new(sid.encode(), b"civcards-csrf", hashlib.sha256).hexdigest()


def _session_aead(sid: str) -> AESGCM:
    return AESGCM(hashlib.sha256(b"civcards-session-key\0" + sid.encode()).digest())


def seal(aead: AESGCM, data: bytes, aad: bytes) -> str:
    nonce = os.urandom(12)
    return base64.b64encode(nonce + aead.encrypt(nonce, data, aad)).decode("ascii")


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


def _aware(dt: datetime) -> datetime:
    """SQLite gives naive datetimes back: they are UTC."""
    return dt if dt.tzinfo is not None else dt.replace(tzinfo=UTC)


def resigned_seats(live: Live) -> frozenset[int]:
    """The seats whose players resigned (a takeover for ``resigned``: never reclaimed)."""
    return frozenset(int(t["seat"]) for t in live.takeovers if t.get("reason") == "resigned")


def people_result(result: Result, resigned: frozenset[int]) -> Result:
    """The game's result for the people at the table: a seat whose player resigned lost,
    whatever the bot that took it over did; when every winner resigned, the best score of
    those who stayed wins (ties share). The game's own result (the view's) stays."""
    if not resigned:
        return result
    winners = tuple(w for w in result.winners if w not in resigned)
    if winners:
        return replace(result, winners=winners, shared=result.shared and len(winners) > 1)
    stayed = [i for i in range(len(result.scores)) if i not in resigned]
    if stayed:
        best = max(result.scores[i] for i in stayed)
        winners = tuple(i for i in stayed if result.scores[i] == best)
    return replace(result, winners=winners, shared=len(winners) > 1)


def live_outcome(live: Live, seat: int) -> Literal["won", "lost", "shared"] | None:
    """How a game held in memory ended for ``seat``'s player (None: not over)."""
    result = live.game.result(live.state) if live.finished else None
    if result is None:
        return None
    return outcome(people_result(result, resigned_seats(live)), seat)


def outcome(result: Result, seat: int) -> Literal["won", "lost", "shared"]:
    if seat not in result.winners:
        return "lost"
    return "shared" if result.shared else "won"


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
            text = env.get(var, "").strip()
            if not text:
                continue
            try:
                value = float(text)
            except ValueError:
                raise ValueError(f"{var}={text!r} is not a number") from None
            if not value >= 0 or value == float("inf"):
                raise ValueError(f"{var}={text!r} must be a finite number, at least 0")
            values[field_name] = int(value) if field_name.endswith("burst") else value
        return cls(**values)


# -- the accounts ---------------------------------------------------------------------------


class Accounts(SeatHooks):
    """Accounts over the table's database; observes its seats and games (linking seats,
    results, ratings)."""

    def __init__(
        self, server: TableServer, limits: LoginLimits | None = None, redis: Any = None
    ) -> None:
        self.server = server
        self.engine = server.engine
        self.hasher = PasswordHasher.from_parameters(KDF)
        limits = LoginLimits.from_env() if limits is None else limits
        # counted in Redis when processes share it (``serve --redis``): N processes do not
        # give N times the attempts
        self.by_account = SharedRateLimiter(
            limits.account_rate, limits.account_burst, redis, "civcards:login:account:"
        )
        self.by_address = SharedRateLimiter(
            limits.address_rate, limits.address_burst, redis, "civcards:login:address:"
        )
        #: whether a game is rated (never changes once it is created)
        self._rated: dict[str, bool] = {}
        # a hash to verify against when the name is unknown (the same time either way)
        self._dummy = self.hasher.hash(secrets.token_hex(16))

    # -- sessions -----------------------------------------------------------

    def who(self, sid: str | None = None, s: Session | None = None) -> Who | None:
        """The account of the session ``sid`` (default: the request's), if it is valid."""
        if sid is None:
            holder = _SID.get()
            sid = holder[0] if holder else None
        if not sid or len(sid) > 128:
            return None
        q = (
            select(SessionRow, AccountRow)
            .join(AccountRow, AccountRow.id == SessionRow.account_id)
            .where(SessionRow.id_hash == hash_token(sid))
        )
        if s is None:
            with Session(self.engine) as own:
                row = own.execute(q).first()
        else:
            row = s.execute(q).first()
        if row is None:
            return None
        sess, acc = row
        if _aware(sess.expires_at) <= utcnow():
            return None
        key = unseal(_session_aead(sid), sess.wrapped_key, sess.id_hash.encode())
        if key is None:
            return None
        return Who(acc.id, acc.name, _aware(acc.created_at), sid, key)

    def _new_session(self, account_id: str, key: bytes, old_sid: str | None) -> str:
        """A fresh session (the old one, if any, is revoked): its id, for the cookie."""
        sid = secrets.token_urlsafe(32)
        id_hash = hash_token(sid)
        now = utcnow()
        with Session(self.engine) as s, s.begin():
            if old_sid:
                s.execute(delete(SessionRow).where(SessionRow.id_hash == hash_token(old_sid)))
            s.execute(delete(SessionRow).where(SessionRow.expires_at < now))
            s.add(
                SessionRow(
                    id_hash=id_hash,
                    account_id=account_id,
                    wrapped_key=seal(_session_aead(sid), key, id_hash.encode()),
                    created_at=now,
                    expires_at=now + timedelta(days=SESSION_DAYS),
                )
            )
        return sid

    def _revoke(self, sid: str) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(delete(SessionRow).where(SessionRow.id_hash == hash_token(sid)))

    async def limit(self, address: str, account: str | None) -> None:
        """429 when an address or an account tried to log in too often."""
        waits = [await self.by_address.take(address)]
        if account is not None:
            waits.append(await self.by_account.take(account))
        wait = max(waits)
        if wait > 0:
            raise LoginRateLimited(math.ceil(wait))

    def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` is the one of the hash ``stored`` (None: an unknown name,
        checked against a dummy hash all the same)."""
        try:
            return self.hasher.verify(stored or self._dummy, password) and stored is not None
        except (VerificationError, InvalidHashError):
            return False

    # -- accounts -----------------------------------------------------------

    def find(self, key: str) -> AccountRow | None:
        with Session(self.engine) as s:
            return s.scalars(select(AccountRow).where(AccountRow.name_key == key)).first()

    def register(self, name: str, password: str) -> tuple[AccountRow, bytes]:
        """A new account (slow: Argon2 twice): the row and the account's key."""
        salt = os.urandom(16)
        pw_hash = self.hasher.hash(password)
        key = derive_key(password, salt)
        row = AccountRow(
            id=secrets.token_urlsafe(12),
            name=name,
            name_key=name_key(name),
            password_hash=pw_hash,
            key_salt=salt.hex(),
            created_at=utcnow(),
        )
        try:
            with Session(self.engine, expire_on_commit=False) as s, s.begin():
                s.add(row)
        except IntegrityError:
            raise ApiError(409, "account_taken", "this name is taken: choose another") from None
        return row, key

    def login(self, key: str, password: str) -> tuple[AccountRow, bytes] | None:
        """The account and its key when ``password`` is right (slow: Argon2 twice)."""
        row = self.find(key)
        if not self.verify(row.password_hash if row else None, password) or row is None:
            return None
        if self.hasher.check_needs_rehash(row.password_hash):
            with Session(self.engine) as s, s.begin():
                s.execute(
                    update(AccountRow)
                    .where(AccountRow.id == row.id)
                    .values(password_hash=self.hasher.hash(password))
                )
        return row, derive_key(password, bytes.fromhex(row.key_salt))

    def change_password(self, who: Who, current: str, new: str) -> bool:
        """Change the account's password (slow: Argon2 four times); False when ``current``
        is wrong. The account's key changes with it: the seats' kept tokens are sealed
        anew, the session ``who`` keeps the new key, the account's other sessions end."""
        with Session(self.engine) as s:
            row = s.get(AccountRow, who.account_id)
        if row is None or not self.verify(row.password_hash, current):
            return False
        old_key = derive_key(current, bytes.fromhex(row.key_salt))
        salt = os.urandom(16)
        new_key = derive_key(new, salt)
        pw_hash = self.hasher.hash(new)
        keep = hash_token(who.sid)
        with Session(self.engine) as s, s.begin():
            res = s.execute(
                update(AccountRow)
                .where(AccountRow.id == row.id, AccountRow.password_hash == row.password_hash)
                .values(password_hash=pw_hash, key_salt=salt.hex())
            )
            if cast("CursorResult[Any]", res).rowcount != 1:  # changed meanwhile
                return False
            for link in s.scalars(
                select(AccountSeatRow).where(
                    AccountSeatRow.account_id == row.id, AccountSeatRow.token_enc.is_not(None)
                )
            ):
                aad = f"{link.game_id}:{link.seat}".encode()
                raw = unseal(AESGCM(old_key), link.token_enc or "", aad)
                link.token_enc = None if raw is None else seal(AESGCM(new_key), raw, aad)
            s.execute(
                delete(SessionRow).where(
                    SessionRow.account_id == row.id, SessionRow.id_hash != keep
                )
            )
            s.execute(
                update(SessionRow)
                .where(SessionRow.id_hash == keep)
                .values(wrapped_key=seal(_session_aead(who.sid), new_key, keep.encode()))
            )
        return True

    async def delete(self, who: Who) -> None:
        """Remove the account's personal data (its name, password hash, sessions, links,
        ratings); its seats' names are emptied in every game, which stays, anonymised."""
        with Session(self.engine) as s, s.begin():
            links = s.execute(
                select(AccountSeatRow.game_id, AccountSeatRow.seat).where(
                    AccountSeatRow.account_id == who.account_id
                )
            ).all()
            for gid, seat in links:
                s.execute(
                    update(SeatRow)
                    .where(SeatRow.game_id == gid, SeatRow.seat == seat)
                    .values(name="")
                )
            for table in (SessionRow, AccountSeatRow, RatingRow, RatingChangeRow):
                s.execute(delete(table).where(table.account_id == who.account_id))
            s.execute(delete(AccountRow).where(AccountRow.id == who.account_id))
        for gid, seat in links:  # the games held in memory: the same
            live = self.server.games.get(gid)
            if live is None:
                continue
            async with live.lock:
                live.seats[seat].name = ""
            await self.server.changed(live)
        log.info("an account was deleted (%d seats anonymised)", len(links))

    # -- the hooks (core.SeatHooks) ----------------------------------------------

    def rated(self, game_id: str) -> bool:
        known = self._rated.get(game_id)
        if known is None:
            with Session(self.engine) as s:
                known = s.get(RatedGameRow, game_id) is not None
            if len(self._rated) > 50_000:
                self._rated.clear()
            self._rated[game_id] = known
        return known

    def creating(self, s: Session, game_id: str, seats: list[SeatInfo], rated: bool) -> None:
        if not rated:
            return
        if any(x.kind != "human" for x in seats):
            raise ApiError(
                422,
                "rated_bots",
                "a rated game has no bots: every seat is a player with an account",
            )
        if self.who(s=s) is None:
            raise ApiError(
                401, "login_needed", "log in to create a rated game: its players are accounts"
            )
        s.add(RatedGameRow(game_id=game_id, applied_at=None))
        self._rated[game_id] = True

    def claiming(self, live: Live, seat: int) -> None:
        if not self.rated(live.id):
            return
        who = self.who()
        if who is None:
            raise ApiError(
                403,
                "account_needed",
                "this is a rated game: log in (or register) to take a seat in it",
            )
        with Session(self.engine) as s:
            held = s.scalars(
                select(AccountSeatRow.seat).where(
                    AccountSeatRow.game_id == live.id,
                    AccountSeatRow.account_id == who.account_id,
                )
            ).first()
        if held is not None:
            raise ApiError(
                409, "already_seated", "your account already holds a seat in this rated game"
            )

    def seat_token(self, live: Live, seat: int, token: str) -> None:
        who = self.who()
        aad = f"{live.id}:{seat}".encode()
        with Session(self.engine) as s, s.begin():
            link = s.get(AccountSeatRow, (live.id, seat))
            if who is None:
                if link is not None:  # taken anonymously: the stored token is dead
                    link.token_enc = None
                return
            sealed = seal(AESGCM(who.key), token.encode(), aad)
            if link is None:
                s.add(
                    AccountSeatRow(
                        game_id=live.id,
                        seat=seat,
                        account_id=who.account_id,
                        token_enc=sealed,
                        linked_at=utcnow(),
                    )
                )
            elif link.account_id == who.account_id:
                link.token_enc = sealed
            else:
                link.token_enc = None
                return
            # a seat with no name of its own takes the account's (before the game starts)
            info = live.seats[seat]
            if info.name or live.moves or live.pending is not None:
                return
            key = name_key(who.name)
            if any(name_key(o.name) == key for i, o in enumerate(live.seats) if i != seat):
                return
            s.execute(
                update(SeatRow)
                .where(SeatRow.game_id == live.id, SeatRow.seat == seat)
                .values(name=who.name)
            )
        info.name = who.name

    def finished(self, live: Live) -> None:
        result = live.game.result(live.state)
        if result is None:
            return
        resigned = resigned_seats(live)
        result = people_result(result, resigned)  # a resignation is a loss (issue 38)
        with Session(self.engine) as s, s.begin():
            for link in s.scalars(select(AccountSeatRow).where(AccountSeatRow.game_id == live.id)):
                link.result = outcome(result, link.seat)
        if self.rated(live.id):
            self.apply_ratings(live.id, live.game.name, result, resigned)

    # -- ratings ------------------------------------------------------------

    def apply_ratings(
        self, game_id: str, game: str, result: Result, resigned: frozenset[int] = frozenset()
    ) -> bool:
        """Count a finished rated game in its accounts' ratings, once: False if it was
        counted already (by this process or another, before a restart or not). ``result``
        is the people's (:func:`people_result`): the seats of ``resigned`` rank last."""
        from openskill.models import PlackettLuce

        with Session(self.engine) as s, s.begin():
            res = s.execute(
                update(RatedGameRow)
                .where(RatedGameRow.game_id == game_id, RatedGameRow.applied_at.is_(None))
                .values(applied_at=utcnow())
            )
            if cast("CursorResult[Any]", res).rowcount != 1:
                return False
            seats: dict[str, int] = {}
            for link in s.scalars(
                select(AccountSeatRow)
                .where(AccountSeatRow.game_id == game_id)
                .order_by(AccountSeatRow.seat)
            ):
                seats.setdefault(link.account_id, link.seat)
            if len(seats) < 2:
                return True
            model = PlackettLuce()
            rows: dict[str, RatingRow] = {}
            for acc in seats:
                row = s.scalars(
                    select(RatingRow)
                    .where(RatingRow.account_id == acc, RatingRow.game == game)
                    .with_for_update()
                ).first()
                if row is None:
                    fresh = model.rating()
                    row = RatingRow(
                        account_id=acc,
                        game=game,
                        mu=float(fresh.mu),
                        sigma=float(fresh.sigma),
                        games=0,
                        wins=0.0,
                    )
                    s.add(row)
                rows[acc] = row
            accs = list(seats)
            teams = [[model.rating(mu=rows[a].mu, sigma=rows[a].sigma)] for a in accs]
            ranks: list[float] = [
                1.0 if seats[a] in result.winners else 3.0 if seats[a] in resigned else 2.0
                for a in accs
            ]
            new = model.rate(teams, ranks=ranks)
            for a, team in zip(accs, new, strict=True):
                row = rows[a]
                s.add(
                    RatingChangeRow(
                        game_id=game_id,
                        account_id=a,
                        mu_before=row.mu,
                        sigma_before=row.sigma,
                        mu_after=float(team[0].mu),
                        sigma_after=float(team[0].sigma),
                    )
                )
                row.mu = float(team[0].mu)
                row.sigma = float(team[0].sigma)
                row.games += 1
                if seats[a] in result.winners:
                    row.wins += 1.0 / len(result.winners) if result.shared else 1.0
                row.updated_at = utcnow()
        log.info("game %s: ratings updated (%d accounts)", game_id, len(seats))
        return True

    def catch_up(self) -> int:
        """At start: count the finished rated games not counted yet (the server stopped
        in between), and fill in the results of linked seats. Returns the games rated."""
        with Session(self.engine) as s:
            due = list(
                s.scalars(
                    select(RatedGameRow.game_id)
                    .join(GameRow, GameRow.id == RatedGameRow.game_id)
                    .where(RatedGameRow.applied_at.is_(None), GameRow.status == "finished")
                )
            )
            open_results = list(
                s.scalars(
                    select(AccountSeatRow.game_id)
                    .join(GameRow, GameRow.id == AccountSeatRow.game_id)
                    .where(AccountSeatRow.result.is_(None), GameRow.status == "finished")
                    .distinct()
                )
            )
        done = 0
        for gid in dict.fromkeys(open_results + due):
            try:
                live = self.server.get(gid)
                result = live.game.result(live.state)
                if result is None:
                    continue
                resigned = resigned_seats(live)
                result = people_result(result, resigned)
                with Session(self.engine) as s, s.begin():
                    for link in s.scalars(
                        select(AccountSeatRow).where(AccountSeatRow.game_id == gid)
                    ):
                        link.result = outcome(result, link.seat)
                if gid in due and self.apply_ratings(gid, live.game.name, result, resigned):
                    done += 1
            except Exception:
                log.exception("game %s: its ratings could not be caught up", gid)
        return done

    # -- what the API shows -------------------------------------------------

    def history(self, who: Who, limit: int, offset: int) -> list[dict[str, Any]]:
        with Session(self.engine) as s:
            rows = s.execute(
                select(AccountSeatRow, GameRow, RatedGameRow.game_id, RatingChangeRow)
                .join(GameRow, GameRow.id == AccountSeatRow.game_id)
                .outerjoin(RatedGameRow, RatedGameRow.game_id == AccountSeatRow.game_id)
                .outerjoin(
                    RatingChangeRow,
                    (RatingChangeRow.game_id == AccountSeatRow.game_id)
                    & (RatingChangeRow.account_id == AccountSeatRow.account_id),
                )
                .where(AccountSeatRow.account_id == who.account_id)
                .order_by(GameRow.created_at.desc(), AccountSeatRow.seat)
                .limit(limit)
                .offset(offset)
            ).all()
            ids = list({link.game_id for link, *_ in rows})
            names: dict[str, dict[int, str]] = {}
            for gid, seat, name in s.execute(
                select(SeatRow.game_id, SeatRow.seat, SeatRow.name).where(SeatRow.game_id.in_(ids))
            ):
                names.setdefault(gid, {})[seat] = name
        out = []
        for link, game, rated_id, change in rows:
            try:
                title = get_game(game.kind).title
            except GameError:
                title = game.kind
            result = link.result
            if result is None and game.status == "finished":
                try:
                    result = live_outcome(self.server.get(game.id), link.seat)
                except Exception:  # a game this server cannot host any more: no result
                    log.warning("game %s: its result could not be read", game.id)
                    result = None
            seat_names = names.get(game.id, {})
            out.append(
                {
                    "id": game.id,
                    "game": game.kind,
                    "title": title,
                    "seat": link.seat,
                    "names": [seat_names.get(i, "") for i in range(game.players)],
                    "status": "finished" if game.status == "finished" else "playing",
                    "created_at": _aware(game.created_at).isoformat(),
                    "rated": rated_id is not None,
                    "result": result,
                    "rating_before": (
                        None if change is None else ordinal(change.mu_before, change.sigma_before)
                    ),
                    "rating_after": (
                        None if change is None else ordinal(change.mu_after, change.sigma_after)
                    ),
                }
            )
        return out

    def ratings(self, account_id: str) -> list[dict[str, Any]]:
        with Session(self.engine) as s:
            rows = list(
                s.scalars(
                    select(RatingRow)
                    .where(RatingRow.account_id == account_id)
                    .order_by(RatingRow.game)
                )
            )
        out = []
        for r in rows:
            try:
                title = get_game(r.game).title
            except GameError:
                title = r.game
            out.append(
                {
                    "game": r.game,
                    "title": title,
                    "mu": round(r.mu, 3),
                    "sigma": round(r.sigma, 3),
                    "ordinal": ordinal(r.mu, r.sigma),
                    "games": r.games,
                    "wins": r.wins,
                }
            )
        return out

    def link(self, who: Who, live: Live, seat: int, token: str) -> None:
        """Link a seat this browser holds (its token, checked) to the account: a game
        played before logging in joins the account's games."""
        with Session(self.engine) as s, s.begin():
            link = s.get(AccountSeatRow, (live.id, seat))
            if link is not None and link.account_id != who.account_id:
                raise ApiError(409, "seat_linked", "this seat belongs to another account")
            if link is None and self.rated(live.id):
                raise ApiError(
                    409,
                    "rated_seat",
                    "a rated game's seats belong to the accounts that took them",
                )
            sealed = seal(AESGCM(who.key), token.encode(), f"{live.id}:{seat}".encode())
            result = live_outcome(live, seat)
            if link is None:
                s.add(
                    AccountSeatRow(
                        game_id=live.id,
                        seat=seat,
                        account_id=who.account_id,
                        token_enc=sealed,
                        result=result,
                        linked_at=utcnow(),
                    )
                )
            else:
                link.token_enc = sealed

    async def seat_of(self, who: Who, game_id: str) -> dict[str, Any]:
        """The account's seat in a game and its token: the one kept (when it still works),
        else a new one (the seat's old token stops working)."""
        with Session(self.engine) as s:
            link = s.scalars(
                select(AccountSeatRow)
                .where(
                    AccountSeatRow.game_id == game_id,
                    AccountSeatRow.account_id == who.account_id,
                )
                .order_by(AccountSeatRow.seat)
            ).first()
        if link is None:
            raise ApiError(404, "not_your_game", "this game is not one of your account's")
        live = self.server.get(game_id)
        # a seat a bot took over (resigned, timed out, voted out) keeps its token: with it
        # the person views the game as a spectator of the seat (never the bot's hand while
        # it is played) and makes no move (core.TableServer.view and move)
        info = live.seats[link.seat]
        if link.token_enc is not None:
            raw = unseal(AESGCM(who.key), link.token_enc, f"{game_id}:{link.seat}".encode())
            if raw is not None and info.token_hash is not None:
                token = raw.decode()
                if hmac.compare_digest(hash_token(token), info.token_hash):
                    return {"seat": link.seat, "token": token}
        # not known any more (revoked elsewhere, or the game moved on): a new one
        return {"seat": link.seat, "token": await self.server.revoke(live, link.seat)}


# -- the routes -----------------------------------------------------------------------------

ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"description": "Not logged in, or a wrong name or password."},
    403: {"description": "No CSRF token, or a page of another site."},
    404: {"description": "Not found."},
    409: {"description": "A name taken."},
    422: {"description": "Not valid."},
    429: {"description": "Too many attempts to log in."},
}


def add_accounts(app: FastAPI, server: TableServer, redis_url: str | None = None) -> Accounts:
    """Accounts for ``app``: the routes (``/api/account/...``, ``/account``), the session
    middleware, the hooks on ``server``, and the ratings' catch-up at start. With
    ``redis_url`` (processes sharing the games), the login limit is counted there."""
    security: Security = getattr(app.state, "security", None) or Security()
    shared: Any = None  # the Redis client the login limit is counted in
    if redis_url:
        import redis.asyncio as aioredis

        shared = aioredis.Redis.from_url(redis_url, socket_timeout=5, socket_connect_timeout=5)
    accounts = Accounts(server, redis=shared)
    server.hooks.append(accounts)
    app.add_middleware(SessionMiddleware, security=security)
    app.state.accounts = accounts

    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(a: Any) -> AsyncIterator[Any]:
        async with inner(a) as state:
            rated = await run_in_threadpool(accounts.catch_up)
            if rated:
                log.info("%d rated games counted at start", rated)
            yield state
            if shared is not None:
                await shared.aclose()

    app.router.lifespan_context = lifespan
    secure_env = os.environ.get("CIVCARDS_SECURE_COOKIES", "").strip().lower()
    force_secure = secure_env in ("1", "true", "yes", "on")

    def origin_ok(request: Request) -> None:
        if not same_site(request.scope, request.headers, security):
            raise ApiError(
                403, "bad_origin", "this table does not accept changes from pages of another site"
            )

    def set_cookie(request: Request, response: Response, sid: str) -> None:
        response.set_cookie(
            COOKIE,
            sid,
            max_age=SESSION_DAYS * 86400,
            path="/",
            httponly=True,
            samesite="lax",
            secure=force_secure or request.url.scheme == "https",
        )

    def clear_cookie(request: Request, response: Response) -> None:
        response.delete_cookie(
            COOKIE,
            path="/",
            httponly=True,
            samesite="lax",
            secure=force_secure or request.url.scheme == "https",
        )

    def current(request: Request) -> Who:
        """The logged-in account of a change: 401 without one, 403 without its CSRF token."""
        origin_ok(request)
        who = accounts.who()
        if who is None:
            raise ApiError(401, "not_logged_in", "log in first (POST /api/account/login)")
        sent = request.headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(sent.encode(), csrf_of(who.sid).encode()):
            raise ApiError(
                403,
                "bad_csrf",
                f"this change needs the session's CSRF token (header {CSRF_HEADER}, "
                "from GET /api/account/me)",
            )
        return who

    def reader(_request: Request) -> Who:
        who = accounts.who()
        if who is None:
            raise ApiError(401, "not_logged_in", "log in first (POST /api/account/login)")
        return who

    def session_out(who: Who | None) -> dict[str, Any]:
        if who is None:
            return {"account": None, "csrf": None}
        return {
            "account": {
                "id": who.account_id,
                "name": who.name,
                "created_at": who.created_at.isoformat(),
            },
            "csrf": csrf_of(who.sid),
        }

    def start_session(
        request: Request, response: Response, row: AccountRow, key: bytes
    ) -> dict[str, Any]:
        # always a new session id: one set before (by anyone) is revoked, never kept
        old = cookie_parser(request.headers.get("cookie", "")).get(COOKIE)
        sid = accounts._new_session(row.id, key, old)
        set_cookie(request, response, sid)
        return session_out(Who(row.id, row.name, _aware(row.created_at), sid, key))

    router = APIRouter(prefix="/api/account", tags=["accounts"])

    @router.get(
        "/me",
        summary="Who this browser is logged in as (and the session's CSRF token)",
        response_model=SessionOut,
    )
    async def me() -> dict[str, Any]:
        return session_out(accounts.who())

    @router.post(
        "/register",
        summary="Register a name and a password (and log in)",
        status_code=201,
        responses=ERRORS,
        response_model=SessionOut,
    )
    async def register(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        origin_ok(request)
        name = clean_name(body.name)
        if not name:
            raise ApiError(422, "bad_name", "choose a name")
        if not MIN_PASSWORD <= len(body.password) <= MAX_PASSWORD:
            raise ApiError(
                422,
                "bad_password",
                f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters",
            )
        await accounts.limit(client_address(request.scope), None)
        if accounts.find(name_key(name)) is not None:
            raise ApiError(409, "account_taken", "this name is taken: choose another")
        row, key = await run_in_threadpool(accounts.register, name, body.password)
        log.info("an account was registered")
        return start_session(request, response, row, key)

    @router.post(
        "/login",
        summary="Log in: a new session cookie (HttpOnly, SameSite=Lax)",
        responses=ERRORS,
        response_model=SessionOut,
    )
    async def login(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        origin_ok(request)
        wrong = ApiError(401, "bad_login", "the name or the password is wrong")
        try:
            key = name_key(clean_name(body.name))
        except ApiError:
            key = name_key(body.name)
        await accounts.limit(client_address(request.scope), key)
        found = await run_in_threadpool(accounts.login, key, body.password)
        if found is None:
            raise wrong
        return start_session(request, response, *found)

    @router.post(
        "/logout",
        summary="Log out: the session is revoked",
        responses=ERRORS,
        response_model=OkOut,
    )
    async def logout(request: Request, response: Response) -> dict[str, Any]:
        who = current(request)
        accounts._revoke(who.sid)
        clear_cookie(request, response)
        return {"ok": True}

    @router.post(
        "/password",
        summary="Change the password: needs the current one; the account's sessions in other "
        "browsers end (this one stays)",
        responses=ERRORS,
        response_model=SessionOut,
    )
    async def change_password(body: NewPasswordBody, request: Request) -> dict[str, Any]:
        who = current(request)
        if not MIN_PASSWORD <= len(body.new_password) <= MAX_PASSWORD:
            raise ApiError(
                422,
                "bad_password",
                f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters",
            )
        await accounts.limit(client_address(request.scope), "id:" + who.account_id)
        done = await run_in_threadpool(
            accounts.change_password, who, body.password, body.new_password
        )
        if not done:
            raise ApiError(401, "bad_password", "the password is wrong")
        log.info("an account changed its password")
        return session_out(accounts.who(who.sid))

    @router.post(
        "/delete",
        summary="Delete the account: its personal data goes, its games stay, anonymised",
        responses=ERRORS,
        response_model=OkOut,
    )
    async def delete_account(
        body: PasswordBody, request: Request, response: Response
    ) -> dict[str, Any]:
        who = current(request)
        await accounts.limit(client_address(request.scope), "id:" + who.account_id)
        with Session(accounts.engine) as s:
            row = s.get(AccountRow, who.account_id)
        stored = row.password_hash if row is not None else None
        if not await run_in_threadpool(accounts.verify, stored, body.password):
            raise ApiError(401, "bad_password", "the password is wrong")
        await accounts.delete(who)
        clear_cookie(request, response)
        return {"ok": True}

    @router.get(
        "/games",
        summary="Your games, newest first, with their results (the history)",
        responses=ERRORS,
        response_model=list[AccountGameOut],
    )
    async def games(
        request: Request,
        limit: Annotated[int, Query(ge=1, le=100, description="How many games.")] = 50,
        offset: Annotated[int, Query(ge=0, le=100000, description="How many to skip.")] = 0,
    ) -> list[dict[str, Any]]:
        return accounts.history(reader(request), limit, offset)

    @router.post(
        "/games/{game_id}/seat",
        summary="Your seat's token in one of your games, to play it in this browser",
        responses=ERRORS,
        response_model=SeatTokenOut,
    )
    async def seat(
        game_id: Annotated[str, PathParam(max_length=32)], request: Request
    ) -> dict[str, Any]:
        return await accounts.seat_of(current(request), game_id)

    @router.post(
        "/games/{game_id}/link",
        summary="Add a seat this browser holds (its token) to your games",
        responses=ERRORS,
        response_model=OkOut,
    )
    async def link(
        game_id: Annotated[str, PathParam(max_length=32)],
        request: Request,
        x_seat_token: Annotated[
            str | None,
            Header(alias="X-Seat-Token", max_length=200, description="The seat's own token."),
        ] = None,
    ) -> dict[str, Any]:
        who = current(request)
        live = server.get(game_id)
        seat = server.seat_of(live, x_seat_token)
        assert x_seat_token is not None  # seat_of refused a missing token
        async with live.lock:
            accounts.link(who, live, seat, x_seat_token)
        return {"ok": True}

    @router.get(
        "/ratings",
        summary="Your ratings, one per game (rated games between accounts)",
        responses=ERRORS,
        response_model=list[RatingOut],
    )
    async def ratings(request: Request) -> list[dict[str, Any]]:
        return accounts.ratings(reader(request).account_id)

    app.include_router(router)

    @app.exception_handler(LoginRateLimited)
    async def _too_many(_r: Request, e: LoginRateLimited) -> JSONResponse:
        return JSONResponse(
            {"detail": e.message, "code": e.code},
            status_code=429,
            headers={"Retry-After": str(e.retry_after)},
        )

    templates = Jinja2Templates(directory=str(HERE / "templates"))

    @app.get("/account", response_class=HTMLResponse, include_in_schema=False)
    async def account_page(request: Request) -> HTMLResponse:
        from .web import browser_lang

        lang = normalize_lang(request.query_params.get("lang") or browser_lang(request))
        return templates.TemplateResponse(
            request,
            "account.html",
            {"lang": lang, "t": catalogue(lang), "langs": LANGS},
            headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"},
        )

    return accounts


__all__ = ["COOKIE", "CSRF_HEADER", "Accounts", "Who", "add_accounts", "csrf_of"]
