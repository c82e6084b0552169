"""The FastAPI application: HTTP API (OpenAPI at /openapi.json), WebSocket, pages.

It builds the :class:`~.core.TableServer`, its middleware and error answers, and includes
one router per area: games and kinds (:mod:`.api_games`), seats and play
(:mod:`.api_play`), the WebSocket (:mod:`.api_ws`), health, pages, clocks, accounts,
rules and review."""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from .api_accounts import add_accounts
from .api_games import games_router, kinds_router
from .api_models import ERRORS, problem
from .api_play import play_router, seats_router
from .api_ws import ws_router
from .botpool import BotSettings
from .clocks import Clocks
from .clocks import router as clocks_router
from .core import DB_DOWN, ApiError, Live, TableServer
from .db import make_engine, migrate
from .i18n_web import page_lang
from .kinds import load_extra_games
from .limits import Limits, LimitsMiddleware, WsSlots, env_number, tune_gc
from .models import WS_MODELS
from .review import review_router
from .rules import router as rules_router
from .security import (
    HostCheckMiddleware,
    ProxyMiddleware,
    Security,
    SecurityHeadersMiddleware,
)
from .web import add_pages

log = logging.getLogger("civcards.server")

HERE = Path(__file__).parent


def eviction_settings(env: Mapping[str, str]) -> dict[str, Any]:
    """How many games, and for how long, a server holds in memory: from
    ``CIVCARDS_MAX_LIVE_GAMES``, ``CIVCARDS_IDLE_EVICT_SECONDS`` and
    ``CIVCARDS_FINISHED_EVICT_SECONDS`` (docs/operations.md); ValueError with a sentence."""
    cap = env_number(env, "CIVCARDS_MAX_LIVE_GAMES")
    if cap is not None and (cap < 1 or cap != int(cap)):
        raise ValueError(f"CIVCARDS_MAX_LIVE_GAMES={cap:g} must be a whole number, at least 1")
    return {
        "max_live": None if cap is None else int(cap),
        "idle_evict": env_number(env, "CIVCARDS_IDLE_EVICT_SECONDS"),
        "finished_evict": env_number(env, "CIVCARDS_FINISHED_EVICT_SECONDS"),
    }


def eviction_from_env(server: TableServer, env: Mapping[str, str]) -> None:
    """Apply :func:`eviction_settings` of ``env`` to ``server``."""
    server.set_eviction(**eviction_settings(env))


def add_error_handlers(app: FastAPI) -> None:
    """Every refusal answered as a :class:`~.api_models.Problem` (a sentence and a code):
    an :class:`ApiError` (in the request's language where it has words), an invalid
    request, a missing route, the database out of reach (503), any crash (500, nothing
    said of it)."""

    @app.exception_handler(ApiError)
    async def _api_error(r: Request, e: ApiError) -> JSONResponse:
        if e.words is not None:  # a sentence the catalogues say: in the request's language
            lang = page_lang(r)
            return problem(e.status, e.code, e.words(lang))
        return problem(e.status, e.code, e.message)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_r: Request, e: RequestValidationError) -> JSONResponse:
        parts = []
        for err in e.errors()[:5]:
            loc = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
            parts.append(f"{loc or 'request'}: {err.get('msg', 'invalid')}")
        return problem(422, "invalid_request", "; ".join(parts) or "the request is not valid")

    @app.exception_handler(StarletteHTTPException)
    async def _http(_r: Request, e: StarletteHTTPException) -> JSONResponse:
        codes = {404: "not_found", 405: "method_not_allowed"}
        return problem(e.status_code, codes.get(e.status_code, "http_error"), str(e.detail))

    async def _db_down(_r: Request, e: Exception) -> JSONResponse:
        log.warning("the database is unavailable: %s", type(e).__name__)
        resp = problem(
            503,
            "db_unavailable",
            "the game's database cannot be reached just now; try again in a few seconds",
        )
        resp.headers["Retry-After"] = "5"
        return resp

    for exc in DB_DOWN:
        app.add_exception_handler(exc, _db_down)

    @app.exception_handler(Exception)
    async def _crash(_r: Request, e: Exception) -> JSONResponse:
        log.error("internal error: %s", type(e).__name__)
        return problem(500, "internal", "the server could not do this; nothing was changed")


def ws_openapi(app: FastAPI) -> dict[str, Any]:
    """The schema, with the WebSocket's frames among its components (WsHello,
    WsStateFrame, WsErrorFrame): OpenAPI has no place for a WebSocket route."""
    if app.openapi_schema is None:
        from fastapi.openapi.utils import get_openapi

        schema = get_openapi(
            title=app.title,
            version=app.version,
            description=app.description,
            routes=app.routes,
        )
        comps = schema.setdefault("components", {}).setdefault("schemas", {})
        for model in WS_MODELS:
            js = model.model_json_schema(ref_template="#/components/schemas/{model}")
            for name, sub in js.pop("$defs", {}).items():
                comps.setdefault(name, sub)
            comps[model.__name__] = js
        schema["x-websocket"] = {
            "path": "/ws/{game_id}",
            "client_messages": {"$ref": "#/components/schemas/WsHello"},
            "server_frames": {
                "oneOf": [
                    {"$ref": "#/components/schemas/WsStateFrame"},
                    {"$ref": "#/components/schemas/WsErrorFrame"},
                ]
            },
        }
        app.openapi_schema = schema
    return app.openapi_schema


def create_app(
    db_url: str = "sqlite:///civcards.db",
    *,
    bot_delay: float = 1.0,
    allow_seed: bool = False,
    redis_url: str | None = None,
    limits: Limits | None = None,
    security: Security | None = None,
    bots: BotSettings | None = None,
) -> FastAPI:
    """The web table over the database at ``db_url`` (migrated on start), with ``limits``
    on what clients send (default: :meth:`Limits.from_env`); with ``redis_url``, one of
    several processes sharing that database (docs/operations.md)."""
    limits = Limits.from_env() if limits is None else limits
    security = Security.from_env() if security is None else security
    load_extra_games()  # $CIVCARDS_EXTRA_GAMES: games registered at start-up
    engine = make_engine(db_url)
    # the bots' worker processes and budget (botpool.py): $CIVCARDS_BOT_* by default
    bots = BotSettings.from_env(os.environ) if bots is None else bots
    server = TableServer(engine, bot_delay=bot_delay, allow_seed=allow_seed, bots=bots)
    eviction_from_env(server, os.environ)
    clocks = Clocks(server)  # clocks, takeovers, open seats (clocks.py)
    bus = None
    if redis_url:
        from .bus import Bus

        bus = Bus(redis_url, on_notice=server.notice, on_connect=server.refresh_all)
        server.share(bus.publish)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        migrate(engine)
        clocks.start()  # service time (downtime forgiven), then the clocks' checks (clocks.py)
        server.load_unfinished()
        if bus is not None:
            await bus.start()
        else:
            server.kick_all()  # shared: the sweeper takes over bots nobody drives
        server.start()
        tune_gc()
        yield
        await clocks.stop()
        await server.stop()
        if bus is not None:
            await bus.stop()
        engine.dispose()

    app = FastAPI(
        title="civcards web table",
        version="1",
        description=(
            "Play the registered card games over HTTP (GET /api/kinds lists them). A seat's "
            "credential is its token (header X-Seat-Token). Moves carry the move number "
            "they are meant for."
        ),
        lifespan=lifespan,
    )
    app.state.server = server
    app.state.limits = limits
    # the health checks (health.py) are not limited: a probe refused 429 would take the
    # process out of the proxy
    app.add_middleware(
        LimitsMiddleware,
        limits=limits,
        exempt=("/healthz", "/readyz"),
        valid_token=server.has_token,
    )
    # outermost last: a trusted proxy's client and host first, then every answer's headers
    # (429 and 400 included), then the Host check
    app.add_middleware(
        HostCheckMiddleware,
        allowed_hosts=list(security.allowed_hosts),
        exempt=("/healthz", "/readyz"),
    )
    app.add_middleware(SecurityHeadersMiddleware)
    if security.trust_proxy:
        app.add_middleware(ProxyMiddleware, security=security)
    app.state.security = security
    slots = WsSlots(limits)

    add_error_handlers(app)
    app.include_router(games_router(server))
    app.include_router(kinds_router(server))
    app.include_router(seats_router(server))
    app.include_router(play_router(server))
    app.include_router(ws_router(server, security, limits, slots))
    app.openapi = lambda: ws_openapi(app)  # type: ignore[method-assign]

    from .health import add_health

    add_health(app, server, bus)
    add_pages(app, server)
    app.include_router(clocks_router(clocks, ERRORS))  # resign, vote, sit (clocks.py)
    # optional accounts: /api/account/..., /account (accounts.py); the login limit counted
    # in Redis when processes share the games
    add_accounts(app, server, redis_url)
    app.include_router(rules_router)  # /rules/{game}, /api/rules/{game} (rules.py)
    app.include_router(review_router(server))  # /review, analyses, hints (review.py)
    return app


__all__ = ["Live", "create_app"]
