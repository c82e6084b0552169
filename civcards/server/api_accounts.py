"""The accounts' routes (/api/account/..., /account): one router over :class:`~.accounts.Accounts`."""

from __future__ import annotations

import hmac
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Header, Query, Request, Response
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.templating import Jinja2Templates
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool
from starlette.requests import cookie_parser

from ..i18n import LANGS
from .account_rows import (
    AccountRow,
)
from .account_session import (
    COOKIE,
    CSRF_HEADER,
    HERE,
    MAX_PASSWORD,
    MIN_PASSWORD,
    SESSION_DAYS,
    Credentials,
    LoginRateLimited,
    NewPasswordBody,
    PasswordBody,
    SessionMiddleware,
    Who,
    as_aware,
    csrf_of,
    same_site,
)
from .accounts import (
    Accounts,
)
from .core import ApiError, TableServer, clean_name, name_key
from .i18n_web import catalogue, page_lang
from .limits import client_address
from .models import AccountGameOut, OkOut, RatingOut, SeatTokenOut, SessionOut
from .security import Security

log = logging.getLogger("civcards.server")

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
        sid = accounts.new_session(row.id, key, old)
        set_cookie(request, response, sid)
        return session_out(Who(row.id, row.name, as_aware(row.created_at), sid, key))

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
        accounts.revoke_session(who.sid)
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
        live, seat = server.seat_at(game_id, x_seat_token)
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
        lang = page_lang(request)
        return templates.TemplateResponse(
            request,
            "account.html",
            {"lang": lang, "t": catalogue(lang), "langs": LANGS},
            headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"},
        )

    return accounts


__all__ = ["COOKIE", "CSRF_HEADER", "Accounts", "Who", "add_accounts", "csrf_of"]
