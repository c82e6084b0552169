"""The WebSocket of live views (``/ws/{game_id}``): the client's hello says its seat (a
token) or none (a spectator); each frame is then its own view. Its origin, its address's
and seat's sockets, and its messages' size, rate and depth are checked (:mod:`.limits`,
:mod:`.security`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from .core import DB_DOWN, ApiError, Subscriber, TableServer
from .db import hash_token
from .limits import (
    WS_BAD,
    WS_TOO_BIG,
    WS_TOO_MANY,
    Limits,
    TooDeep,
    WsGuard,
    WsSlots,
    client_address,
    loads,
    receive_text,
)
from .security import Security

log = logging.getLogger("civcards.server")


async def too_deep(websocket: WebSocket, e: TooDeep) -> None:
    """A message nested too deep (checked before parsing it): refused, socket closed."""
    log.warning(
        "websocket %s: refused a message nested too deep; closed",
        client_address(websocket.scope),
    )
    with contextlib.suppress(Exception):
        await websocket.send_json({"type": "error", "code": "bad_message", "detail": str(e)})
        await websocket.close(code=4400)


def ws_router(server: TableServer, security: Security, limits: Limits, slots: WsSlots) -> APIRouter:
    """/ws/{game_id}."""
    router = APIRouter()

    @router.websocket("/ws/{game_id}")
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
            await ws_session(server, limits, slots, websocket, game_id, held)
        finally:
            slots.release(held[0])

    return router


async def ws_session(
    server: TableServer,
    limits: Limits,
    slots: WsSlots,
    websocket: WebSocket,
    game_id: str,
    held: list[str | None],
) -> None:
    """One socket's life after its origin and address are admitted: its hello (a seat's
    token or none, a language), then a view a frame after every change, and one for each
    message it sends (a new language); ``held[0]``: the allowance it is counted against."""
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
