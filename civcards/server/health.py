"""Health checks for load balancers and supervisors: ``/healthz`` and ``/readyz``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from sqlalchemy import text

from .core import DB_DOWN, TableServer
from .models import HealthOut, ReadyOut

if TYPE_CHECKING:  # redis is needed only by a shared server
    from .bus import Bus


def add_health(app: FastAPI, server: TableServer, bus: Bus | None) -> None:
    @app.get(
        "/healthz",
        tags=["operations"],
        summary="Liveness: the process answers",
        response_model=HealthOut,
    )
    async def healthz() -> dict[str, Any]:
        return {"ok": True, "games_loaded": len(server.games)}

    @app.get(
        "/readyz",
        tags=["operations"],
        summary="Readiness: the database (and Redis, when shared) can be reached",
        responses={
            200: {"model": ReadyOut},
            503: {"model": ReadyOut, "description": "The database or Redis cannot be reached."},
        },
    )
    async def readyz() -> JSONResponse:
        checks: dict[str, str] = {}
        try:
            with server.engine.connect() as conn:
                conn.execute(text("SELECT 1"))
            checks["database"] = "ok"
        except DB_DOWN as e:
            checks["database"] = f"unavailable ({type(e).__name__})"
        if bus is not None:
            checks["redis"] = "ok" if bus.connected and await bus.ping() else "unavailable"
        ok = all(v == "ok" for v in checks.values())
        return JSONResponse({"ok": ok, **checks}, status_code=200 if ok else 503)
