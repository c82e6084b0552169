"""The routes of seats (join, claim, revoke) and of play (a seat's view, its choices, a
move): one :class:`~fastapi.APIRouter` each over a :class:`~.core.TableServer`."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from .api_models import ERRORS, GAME_ID, LANG, TOKEN, JoinBody, MoveBody, MoveResult
from .core import ApiError, TableServer
from .models import JoinOut, OptionsOut, SeatTokenOut, ViewOut
from .web import words


def seats_router(server: TableServer) -> APIRouter:
    """POST /api/games/{id}/join, /claim, /revoke."""
    router = APIRouter()

    @router.post(
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

    @router.post(
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

    @router.post(
        "/api/games/{game_id}/revoke",
        tags=["seats"],
        summary="Replace your seat's token: the old one (and its links) stops working",
        responses=ERRORS,
        response_model=SeatTokenOut,
    )
    async def revoke(game_id: GAME_ID, x_seat_token: TOKEN = None) -> dict[str, Any]:
        live, seat = server.seat_at(game_id, x_seat_token)
        token = await server.revoke(live, seat)
        return {"seat": seat, "token": token}

    return router


def play_router(server: TableServer) -> APIRouter:
    """GET /api/games/{id}/state, /options; POST /api/games/{id}/moves."""
    router = APIRouter()

    @router.get(
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

    @router.get(
        "/api/games/{game_id}/options",
        tags=["play"],
        summary="Your legal choices now (empty when it is not your turn)",
        responses=ERRORS,
        response_model=OptionsOut,
    )
    async def options(game_id: GAME_ID, x_seat_token: TOKEN = None) -> dict[str, Any]:
        live, seat = server.seat_at(game_id, x_seat_token)
        v = server.view(live, seat)
        return {
            "move_number": v["move_number"],
            "to_move": live.state.to_move,
            "options": v["options"],
            "pending": v["pending"],
        }

    @router.post(
        "/api/games/{game_id}/moves",
        tags=["play"],
        summary="Make a move (or expand a step: a hidden one is committed to)",
        responses=ERRORS,
    )
    async def make_move(game_id: GAME_ID, body: MoveBody, x_seat_token: TOKEN = None) -> MoveResult:
        live, seat = server.seat_at(game_id, x_seat_token)
        result = await server.move(live, seat, body.move, body.expected, body.steps)
        exp = result.get("expansion")
        if exp is not None:
            exp["words"] = words(live, [c["text"] for c in exp["choices"]], body.lang)
        return MoveResult(**result)

    return router
