"""The FastAPI application: HTTP API (OpenAPI at /openapi.json), WebSocket, pages."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Header, Query, Request, WebSocket
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect

from ..game_api import DEFAULT_GAME, GameError, OptionsError, get_game
from ..i18n import normalize_lang
from .accounts import add_accounts
from .botpool import BotSettings
from .clocks import Clocks, check_clock
from .clocks import router as clocks_router
from .core import DB_DOWN, ApiError, Live, Subscriber, TableServer
from .db import hash_token, make_engine, migrate
from .kinds import describe_kinds, load_extra_games
from .limits import (
    WS_BAD,
    WS_TOO_BIG,
    WS_TOO_MANY,
    Limits,
    LimitsMiddleware,
    TooDeep,
    WsGuard,
    WsSlots,
    client_address,
    loads,
    receive_text,
    tune_gc,
)
from .models import (
    WS_MODELS,
    ClockIn,
    ExpansionOut,
    GameOut,
    JoinOut,
    KindsOut,
    OptionsOut,
    SeatTokenOut,
    SetupOut,
    StepExpansionOut,
    ViewOut,
)
from .review import review_router
from .rules import router as rules_router
from .security import (
    HostCheckMiddleware,
    ProxyMiddleware,
    Security,
    SecurityHeadersMiddleware,
)
from .web import add_pages, browser_lang, words

log = logging.getLogger("civcards.server")

HERE = Path(__file__).parent
GAME_ID = Annotated[str, PathParam(max_length=32, description="The game's id.")]
TOKEN = Annotated[
    str | None,
    Header(
        alias="X-Seat-Token",
        max_length=200,
        description="The seat's secret token (from its invitation link). Leave out to watch.",
    ),
]
LANG = Annotated[str, Query(max_length=10, description="Language of the words: en es de fr pt.")]
#: the most seats a game may have at this table (the game's own limits are checked by it)
MAX_SEATS = 16


class Problem(BaseModel):
    detail: str = Field(description="What is wrong, in a sentence.")
    code: str = Field(description="A short machine-readable code.")


class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "bot"] = Field(description="An open human seat or a bot.")
    bot: str | None = Field(
        default=None,
        max_length=24,
        pattern=r"^[a-z][a-z+]*(:[0-9.]+(it|s|ms))?$",
        description="The bot (bots only; default: the game's own first bot, else random): "
        "one of the game's bots (GET /api/kinds), a search bot with a budget a decision "
        "(ismcts:1s as the lobby offers, ismcts:2000it; at most 4000 iterations or 2 s). "
        "Every search stops at the server's seconds a decision, an iteration budget too.",
    )
    name: str | None = Field(default=None, max_length=64)


class CreateGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(
        default=DEFAULT_GAME,
        max_length=40,
        description="The game, by its registered name (GET /api/kinds lists them).",
    )
    players: int = Field(ge=1, le=MAX_SEATS, strict=True, description="The number of players.")
    options: dict[str, Any] = Field(
        default_factory=dict,
        max_length=32,
        description="The game's set-up options (variants) by name; left out: its defaults. "
        "Checked by the game (GET /api/kinds lists each game's options).",
    )
    seats: list[SeatSpec] = Field(min_length=1, max_length=MAX_SEATS)
    seed: int | None = Field(
        default=None,
        strict=True,
        ge=0,
        le=2**63 - 1,
        description="Only on a server started with --allow-seed (tests): the shuffle's seed.",
    )
    private: bool = Field(
        default=True,
        strict=True,
        description="A private game (the default: a game among invited friends) is never "
        "listed in GET /api/games; its seats' holders find it through their links. A public "
        "game (false) is an open table: listed in the lobby for anyone to watch or join.",
    )
    rated: bool = Field(
        default=False,
        strict=True,
        description="A rated game (docs/accounts.md): only for a logged-in creator (the "
        "session cookie), every seat human, and each seat taken by a logged-in account; "
        "its result counts in the accounts' ratings.",
    )
    hints: bool = Field(
        default=False,
        strict=True,
        description="Allow hints: a player may ask for the bot's suggested move "
        "(POST /api/games/{id}/hint); everyone sees that a hint was used. Not with rated.",
    )

    clock: ClockIn | None = Field(
        default=None,
        description="A clock (docs/web.md#clocks-absent-players-open-tables): none (the "
        "default), move (seconds per "
        "move), game (a time for the whole game plus an increment) or days (per move). The "
        "server enforces it: a seat whose time runs out is taken over by `takeover_bot`.",
    )
    takeover_bot: str | None = Field(
        default=None,
        max_length=24,
        description="The bot that takes over a seat whose clock runs out, whose player "
        "resigns or is voted out (default: the game's default bot).",
    )
    grace: int | None = Field(
        default=None,
        strict=True,
        description="Seconds the seat to move may keep the table waiting before the other "
        "players may vote to give it to the bot (default 300; 1 to 604800).",
    )


class SeatLink(BaseModel):
    seat: int
    kind: Literal["human", "bot"]
    bot: str | None
    name: str
    token: str | None = Field(
        description="The seat's invitation (human seats; shown only once). It is not the "
        "seat's credential: whoever uses it first (POST /api/games/{id}/join or /claim) "
        "takes the seat and gets the seat's own token; the invitation is dead then."
    )
    invite: str | None = Field(description="The invitation link (path + #token fragment).")


class Created(BaseModel):
    id: str
    seats: list[SeatLink]
    watch: str


class JoinBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(default=None, max_length=64)


class MoveBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move: str = Field(
        max_length=200,
        description="A move in the game's notation, or the text of one of the view's choices. "
        "A step (a choice that is not final) is expanded: a hidden step is committed to first "
        "(binding: its cards are shown next, as the view's pending), one that hides nothing "
        "is answered with its expansion.",
    )
    expected: int = Field(
        strict=True,
        ge=0,
        le=100000,
        description="The move number this move is meant for (the view's move_number).",
    )
    steps: list[Annotated[str, Field(max_length=200)]] = Field(
        default_factory=list,
        max_length=64,  # a civ4 move was seen 9 steps below the view's choices
        description="The texts of the expanded steps (that hide nothing) this move is below, "
        "from the view's choices down; empty for a choice of the view itself.",
    )
    lang: str = Field(
        default="en",
        max_length=10,
        description="The language of the words of an expansion: en es de fr pt.",
    )


class MoveResult(BaseModel):
    ok: bool
    applied: str | None = Field(description="The move made, in canonical notation.")
    move_number: int
    pending: ExpansionOut | None = Field(
        description="The hidden step committed to: choose among its choices next."
    )
    expansion: StepExpansionOut | None = Field(
        default=None,
        description="A step that hides nothing, expanded, with its choices' words (nothing "
        "was stored; send one of its choices with this step in `steps`).",
    )


class SetupCheck(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: int = Field(ge=1, le=MAX_SEATS, strict=True)
    options: dict[str, Any] = Field(default_factory=dict, max_length=32)


class RematchResult(BaseModel):
    id: str
    seat: int
    token: str
    invite: str


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": Problem},
    401: {"model": Problem},
    403: {"model": Problem},
    404: {"model": Problem},
    409: {"model": Problem},
    422: {"model": Problem},
    413: {"model": Problem},
    429: {"model": Problem},
}


def problem(status: int, code: str, detail: str) -> JSONResponse:
    return JSONResponse({"detail": detail, "code": code}, status_code=status)


def eviction_settings(env: Mapping[str, str]) -> dict[str, Any]:
    """How many games, and for how long, a server holds in memory: from
    ``CIVCARDS_MAX_LIVE_GAMES``, ``CIVCARDS_IDLE_EVICT_SECONDS`` and
    ``CIVCARDS_FINISHED_EVICT_SECONDS`` (docs/operations.md); ValueError with a sentence."""

    def num(var: str) -> float | None:
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

    cap = num("CIVCARDS_MAX_LIVE_GAMES")
    if cap is not None and (cap < 1 or cap != int(cap)):
        raise ValueError(f"CIVCARDS_MAX_LIVE_GAMES={cap:g} must be a whole number, at least 1")
    return {
        "max_live": None if cap is None else int(cap),
        "idle_evict": num("CIVCARDS_IDLE_EVICT_SECONDS"),
        "finished_evict": num("CIVCARDS_FINISHED_EVICT_SECONDS"),
    }


def eviction_from_env(server: TableServer, env: Mapping[str, str]) -> None:
    """Apply :func:`eviction_settings` of ``env`` to ``server``."""
    server.set_eviction(**eviction_settings(env))


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

    @app.exception_handler(ApiError)
    async def _api_error(r: Request, e: ApiError) -> JSONResponse:
        if e.words is not None:  # a sentence the catalogues say: in the request's language
            lang = normalize_lang(r.query_params.get("lang") or browser_lang(r))
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

    # -- HTTP API ----------------------------------------------------------

    @app.get(
        "/api/games",
        tags=["games"],
        summary="The latest public games, newest first (private games are never listed)",
        responses=ERRORS,
        response_model=list[GameOut],
    )
    async def list_games(
        limit: Annotated[int, Query(ge=1, le=100, description="How many games.")] = 50,
        offset: Annotated[
            int, Query(ge=0, le=10000, description="How many of the newest to skip.")
        ] = 0,
        game: Annotated[
            str | None, Query(max_length=40, description="Only games of this game (its name).")
        ] = None,
        status: Annotated[
            Literal["open", "playing", "finished"] | None,
            Query(
                description="Only games being played with a human seat free (open), being "
                "played (playing) or over (finished)."
            ),
        ] = None,
    ) -> list[dict[str, Any]]:
        return server.list_games(limit, offset, game=game, status=status)

    @app.post(
        "/api/games",
        tags=["games"],
        summary="Create a game",
        status_code=201,
        responses=ERRORS,
    )
    async def create_game(body: CreateGame, request: Request) -> Created:
        clock = check_clock(
            body.game,
            body.clock.model_dump() if body.clock is not None else None,
            body.takeover_bot,
            body.grace,
            server.bots.settings,
        )
        live, tokens = server.create(
            creator=client_address(request.scope),
            kind=body.game,
            players=body.players,
            options=body.options,
            seats=[s.model_dump() for s in body.seats],
            seed=body.seed,
            private=body.private,
            rated=body.rated,
            clock=clock,
            hints=body.hints,
        )
        server.kick_bots(live)
        links = []
        for i, s in enumerate(live.seats):
            tok = tokens.get(i)
            links.append(
                SeatLink(
                    seat=i,
                    kind="bot" if s.kind == "bot" else "human",
                    bot=s.bot,
                    name=s.name,
                    token=tok,
                    invite=f"/game/{live.id}#seat={i}&token={tok}" if tok else None,
                )
            )
        return Created(id=live.id, seats=links, watch=f"/game/{live.id}")

    @app.get(
        "/api/kinds",
        tags=["kinds"],
        summary="The games this table hosts: title, player counts, options and bots",
        response_model=KindsOut,
    )
    async def kinds(lang: LANG = "en") -> dict[str, Any]:
        return {"games": describe_kinds(lang, server.bots.settings)}

    @app.post(
        "/api/kinds/{name}/check",
        tags=["kinds"],
        summary="Check a set-up (player count and options) without creating a game",
        responses=ERRORS,
        response_model=SetupOut,
    )
    async def check_setup(
        name: Annotated[str, PathParam(max_length=40)], body: SetupCheck
    ) -> dict[str, Any]:
        try:
            game = get_game(name)
        except GameError as e:
            raise ApiError(404, "bad_game", str(e)) from None
        try:
            opts = game.check_options(body.players, body.options)
        except OptionsError as e:
            raise ApiError(422, "bad_setup", str(e), e.words) from None
        return {"ok": True, "game": game.name, "options": opts}

    @app.get(
        "/api/games/{game_id}",
        tags=["games"],
        summary="A game's public facts",
        responses=ERRORS,
        response_model=GameOut,
    )
    async def game_info(game_id: GAME_ID) -> dict[str, Any]:
        return server.get(game_id).public()

    @app.post(
        "/api/games/{game_id}/join",
        tags=["seats"],
        summary="Take your seat (with its token) and give your name",
        responses=ERRORS,
        response_model=JoinOut,
    )
    async def join(
        game_id: GAME_ID, x_seat_token: TOKEN = None, body: JoinBody | None = None
    ) -> dict[str, Any]:
        live = server.get(game_id)
        name = body.name if body else None
        token: str | None = None
        try:
            seat = server.seat_of(live, x_seat_token)
        except ApiError as e:
            if e.code != "unclaimed":
                raise
            # an invitation: claim the seat and take it (its own token is answered, once)
            seat, token = await server.claim(live, x_seat_token, join=True, name=name)
        else:
            await server.join(live, seat, name)
        return {"seat": seat, "token": token, "game": live.public()}

    @app.post(
        "/api/games/{game_id}/claim",
        tags=["seats"],
        summary="Claim the seat of an invitation: answers the seat's own token (sent the "
        "seat's own token, answers it again)",
        responses=ERRORS,
        response_model=SeatTokenOut,
    )
    async def claim(game_id: GAME_ID, x_seat_token: TOKEN = None) -> dict[str, Any]:
        live = server.get(game_id)
        try:  # the seat's own token (a link to the seat, e.g. after a revoke): the same
            return {"seat": server.seat_of(live, x_seat_token), "token": x_seat_token}
        except ApiError as e:
            if e.code != "unclaimed":
                raise
        seat, token = await server.claim(live, x_seat_token)
        return {"seat": seat, "token": token}

    @app.post(
        "/api/games/{game_id}/revoke",
        tags=["seats"],
        summary="Replace your seat's token: the old one (and its links) stops working",
        responses=ERRORS,
        response_model=SeatTokenOut,
    )
    async def revoke(game_id: GAME_ID, x_seat_token: TOKEN = None) -> dict[str, Any]:
        live = server.get(game_id)
        seat = server.seat_of(live, x_seat_token)
        token = await server.revoke(live, seat)
        return {"seat": seat, "token": token}

    @app.get(
        "/api/games/{game_id}/state",
        tags=["play"],
        summary="The game as your seat sees it (no token: as a spectator)",
        responses=ERRORS,
        response_model=ViewOut,
    )
    async def state(
        game_id: GAME_ID, x_seat_token: TOKEN = None, lang: LANG = "en"
    ) -> dict[str, Any]:
        live = server.get(game_id)
        seat = server.seat_or_spectator(live, x_seat_token)
        return server.view(live, seat, lang)

    @app.get(
        "/api/games/{game_id}/options",
        tags=["play"],
        summary="Your legal choices now (empty when it is not your turn)",
        responses=ERRORS,
        response_model=OptionsOut,
    )
    async def options(game_id: GAME_ID, x_seat_token: TOKEN = None) -> dict[str, Any]:
        live = server.get(game_id)
        seat = server.seat_of(live, x_seat_token)
        v = server.view(live, seat)
        return {
            "move_number": v["move_number"],
            "to_move": live.state.to_move,
            "options": v["options"],
            "pending": v["pending"],
        }

    @app.post(
        "/api/games/{game_id}/moves",
        tags=["play"],
        summary="Make a move (or expand a step: a hidden one is committed to)",
        responses=ERRORS,
    )
    async def make_move(game_id: GAME_ID, body: MoveBody, x_seat_token: TOKEN = None) -> MoveResult:
        live = server.get(game_id)
        seat = server.seat_of(live, x_seat_token)
        result = await server.move(live, seat, body.move, body.expected, body.steps)
        exp = result.get("expansion")
        if exp is not None:
            exp["words"] = words(live, [c["text"] for c in exp["choices"]], body.lang)
        return MoveResult(**result)

    @app.get(
        "/api/games/{game_id}/record",
        tags=["games"],
        summary="The game record (NOTATION.md), once the game is over",
        responses={
            **ERRORS,
            200: {
                "description": "The record: a JSON object in the game's notation.",
                "content": {"application/json": {"schema": {"type": "object"}}},
            },
        },
    )
    async def record(game_id: GAME_ID) -> Response:
        live = server.get(game_id)
        rec = server.record(live)
        return Response(
            json.dumps(rec, ensure_ascii=False, indent=1),
            media_type="application/json",
            headers={
                "Content-Disposition": f'attachment; filename="{live.game.name}-{live.id}.json"'
            },
        )

    @app.post(
        "/api/games/{game_id}/rematch",
        tags=["games"],
        summary="Your seat in the rematch of a finished game",
        responses=ERRORS,
    )
    async def rematch(game_id: GAME_ID, x_seat_token: TOKEN = None) -> RematchResult:
        live = server.get(game_id)
        seat = server.seat_of(live, x_seat_token)
        new, tok = await server.rematch(live, seat)
        return RematchResult(
            id=new.id, seat=seat, token=tok, invite=f"/game/{new.id}#seat={seat}&token={tok}"
        )

    # -- WebSocket ---------------------------------------------------------

    async def too_deep(websocket: WebSocket, e: TooDeep) -> None:
        """A message nested too deep (checked before parsing it): refused, socket closed."""
        log.warning(
            "websocket %s: refused a message nested too deep; closed",
            client_address(websocket.scope),
        )
        with contextlib.suppress(Exception):
            await websocket.send_json({"type": "error", "code": "bad_message", "detail": str(e)})
            await websocket.close(code=4400)

    @app.websocket("/ws/{game_id}")
    async def ws(websocket: WebSocket, game_id: str) -> None:
        """Live views. The client's first message: {"token": "..."} (or null to watch),
        optionally "lang". Each frame is then {"type": "state", ...its own view}."""
        await websocket.accept()
        if not security.origin_allowed(
            websocket.headers.get("origin"), websocket.headers.get("host")
        ):
            log.warning(
                "websocket %s: refused the origin %r",
                client_address(websocket.scope),
                websocket.headers.get("origin", "")[:100],
            )
            with contextlib.suppress(Exception):
                await websocket.send_json(
                    {
                        "type": "error",
                        "code": "bad_origin",
                        "detail": "this table does not accept live views from pages of "
                        "another site",
                    }
                )
                await websocket.close(code=4403)
            return
        refused = slots.connect(client_address(websocket.scope))
        if refused is not None:
            with contextlib.suppress(Exception):
                await websocket.send_json(refused)
                await websocket.close(code=WS_TOO_MANY)
            return
        held: list[str | None] = [None]  # the socket's slot, once its hello says who it is
        try:
            await _ws_session(websocket, game_id, held)
        finally:
            slots.release(held[0])

    async def _ws_session(websocket: WebSocket, game_id: str, held: list[str | None]) -> None:
        guard = WsGuard(limits)
        try:
            live = server.get(game_id)
        except ApiError as e:
            await websocket.send_json({"type": "error", "code": e.code, "detail": e.message})
            await websocket.close(code=4404)
            return
        except DB_DOWN:
            detail = "the game's database cannot be reached just now; try again in a few seconds"
            await websocket.send_json({"type": "error", "code": "db_unavailable", "detail": detail})
            await websocket.close(code=1013)  # try again later: the browser reconnects
            return
        try:
            hello = await asyncio.wait_for(receive_text(websocket), timeout=20)
            if guard.too_large(hello):
                raise ValueError
            msg = loads(hello)
            if not isinstance(msg, dict):
                raise ValueError
            token = msg.get("token")
            lang = msg.get("lang", "en")
            if token is not None and not isinstance(token, str):
                raise ValueError
            if not isinstance(lang, str):
                raise ValueError
            seat = server.seat_or_spectator(live, token)
            # a seat's sockets are counted against its own allowance, a spectator's against
            # its address
            held[0], refused = slots.admit(
                client_address(websocket.scope),
                hash_token(token) if seat is not None and token is not None else None,
            )
            if refused is not None:
                await websocket.send_json(refused)
                await websocket.close(code=WS_TOO_MANY)
                return
        except ApiError as e:
            await websocket.send_json({"type": "error", "code": e.code, "detail": e.message})
            await websocket.close(code=4403)
            return
        except DB_DOWN:
            with contextlib.suppress(Exception):
                await websocket.close(code=1013)
            return
        except TooDeep as e:
            await too_deep(websocket, e)
            return
        except (ValueError, TimeoutError, WebSocketDisconnect):
            with contextlib.suppress(Exception):
                await websocket.send_json(
                    {
                        "type": "error",
                        "code": "bad_hello",
                        "detail": 'first send {"token": "<seat token>" or null, "lang": "en"}',
                    }
                )
                await websocket.close(code=4400)
            return

        async def send(frame: dict[str, Any]) -> None:
            await websocket.send_json(frame)

        async def close(code: int) -> None:
            await websocket.close(code=code)

        sub = Subscriber(
            seat,
            lang[:10],
            send,
            token_hash=hash_token(token) if seat is not None and token is not None else None,
            close=close,
        )
        live.subscribers.add(sub)
        try:
            await send({"type": "state", **server.view(live, seat, sub.lang)})

            async def refuse(detail: str) -> bool:
                """A bad message: its error frame; True when it closed the socket."""
                frame, closing = guard.bad(detail)
                await send(frame)
                if closing:
                    log.warning(
                        "websocket %s: too many bad messages; closed",
                        client_address(websocket.scope),
                    )
                    await websocket.close(code=WS_BAD)
                return closing

            while True:
                try:
                    text = await receive_text(websocket)
                except ValueError as e:  # binary: refused, and counted against the rate
                    limited = guard.too_fast()
                    if limited:
                        await send(limited)
                    elif await refuse(str(e)):
                        return
                    continue
                refused = guard.too_large(text)
                if refused:
                    await send(refused)
                    await websocket.close(code=WS_TOO_BIG)
                    return
                refused = guard.too_fast()
                if refused:
                    await send(refused)
                    continue
                try:
                    msg = loads(text)
                    if not isinstance(msg, dict):
                        raise ValueError
                except TooDeep as e:
                    await too_deep(websocket, e)
                    return
                except ValueError:
                    if await refuse("send JSON objects"):
                        return
                    continue
                if isinstance(msg.get("lang"), str):
                    sub.lang = msg["lang"][:10]
                await send({"type": "state", **server.view(live, seat, sub.lang)})
        except WebSocketDisconnect:
            pass
        finally:
            live.subscribers.discard(sub)

    def openapi() -> dict[str, Any]:
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

    app.openapi = openapi  # type: ignore[method-assign]

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
