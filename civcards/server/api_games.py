"""The routes of games (list, create, facts, record, rematch) and of the games a table
hosts (kinds, a set-up's check): one :class:`~fastapi.APIRouter` over a
:class:`~.core.TableServer`."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import Response

from ..game_api import GameError, OptionsError, get_game
from .api_models import (
    ERRORS,
    GAME_ID,
    LANG,
    TOKEN,
    Created,
    CreateGame,
    RematchResult,
    SeatLink,
    SetupCheck,
)
from .clocks import check_clock
from .core import ApiError, TableServer
from .kinds import describe_kinds
from .limits import client_address
from .models import GameOut, KindsOut, SetupOut


def games_router(server: TableServer) -> APIRouter:
    """GET/POST /api/games, GET /api/games/{id}, its record and rematch."""
    router = APIRouter()

    @router.get(
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

    @router.post(
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

    @router.get(
        "/api/games/{game_id}",
        tags=["games"],
        summary="A game's public facts",
        responses=ERRORS,
        response_model=GameOut,
    )
    async def game_info(game_id: GAME_ID) -> dict[str, Any]:
        return server.get(game_id).public()

    @router.get(
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

    @router.post(
        "/api/games/{game_id}/rematch",
        tags=["games"],
        summary="Your seat in the rematch of a finished game",
        responses=ERRORS,
    )
    async def rematch(game_id: GAME_ID, x_seat_token: TOKEN = None) -> RematchResult:
        live, seat = server.seat_at(game_id, x_seat_token)
        new, tok = await server.rematch(live, seat)
        return RematchResult(
            id=new.id, seat=seat, token=tok, invite=f"/game/{new.id}#seat={seat}&token={tok}"
        )

    return router


def kinds_router(server: TableServer) -> APIRouter:
    """GET /api/kinds, POST /api/kinds/{name}/check."""
    router = APIRouter()

    @router.get(
        "/api/kinds",
        tags=["kinds"],
        summary="The games this table hosts: title, player counts, options and bots",
        response_model=KindsOut,
    )
    async def kinds(lang: LANG = "en") -> dict[str, Any]:
        return {"games": describe_kinds(lang, server.bots.settings)}

    @router.post(
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

    return router
