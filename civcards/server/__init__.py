"""The web table: an authoritative, event-sourced game server (FastAPI + SQLAlchemy).

``create_app(db_url)`` (:mod:`civcards.server.app`) builds the ASGI application;
``civcards serve`` runs it. The package itself imports nothing: a bot worker process
(:mod:`civcards.server.botpool`, spawned) imports its own module without the web
framework, the database layer or the routes; ``civcards.server.create_app`` is loaded
on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
