"""The web table: an authoritative, event-sourced game server (FastAPI + SQLAlchemy).

``create_app(db_url)`` builds the ASGI application; ``civcards serve`` runs it.
"""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
