"""The database: games stored as their records (set-up + moves), seats, pending choices.

Schema changes go through Alembic (``migrations/``); :func:`migrate` applies
them when the server starts.
"""

from __future__ import annotations

import hashlib
import os
from datetime import UTC, datetime
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    event,
    text,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    """One game: which game (``kind``), its set-up record (JSON, no moves) and status."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    setup: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), default="playing")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: the secret the bots' randomness is drawn from (never shown before the game is over)
    bot_secret: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: listed only to those holding one of its seats
    private: Mapped[bool] = mapped_column(Boolean, default=False)


class SeatRow(Base):
    """A seat: a bot (with its level) or a human whose credential is a token (hash only)."""

    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name: Mapped[str] = mapped_column(String(64), default="")
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    #: an unused invitation's hash; claiming the seat replaces it by the seat's own token
    invite_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    joined: Mapped[bool] = mapped_column(Boolean, default=False)


class MoveRow(Base):
    """The ``idx``-th move of a game's record, in canonical notation."""

    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PendingRow(Base):
    """A committed choice whose cards are revealed to its seat only (Discovery, Inquisition).

    While it exists, only one of the full moves it stands for is accepted.
    """

    __tablename__ = "pending"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer)
    idx: Mapped[int] = mapped_column(Integer)
    option: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


#: SQLite's ``synchronous`` setting (environment variable ``CIVCARDS_SQLITE_SYNC``)
SQLITE_SYNC = ("OFF", "NORMAL", "FULL", "EXTRA")


def sqlite_sync() -> str:
    """``NORMAL`` (default): in WAL mode a commit is written to the log before the move is
    told to anyone and survives a crash of the server process, without a disk flush per
    move; ``FULL`` flushes every commit to the disk too (survives a power cut; slower)."""
    value = os.environ.get("CIVCARDS_SQLITE_SYNC", "NORMAL").strip().upper() or "NORMAL"
    if value not in SQLITE_SYNC:
        raise ValueError(f"CIVCARDS_SQLITE_SYNC={value!r}: choose one of {', '.join(SQLITE_SYNC)}")
    return value


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets foreign keys, a busy timeout, and the write-ahead
    log (WAL: readers never wait for the writer, a commit is one append)."""
    if url.startswith("sqlite"):
        sync = sqlite_sync()
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn, _rec):  # type: ignore[no-untyped-def]
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={sync}")
            cur.close()

        return engine
    # pre-ping: a connection that died (the database restarted) is replaced, not used;
    # connect_timeout: while the database is unreachable, requests fail fast (503)
    args = {"connect_timeout": 5} if url.startswith("postgresql") else {}
    return create_engine(url, pool_pre_ping=True, pool_timeout=10, connect_args=args)


#: the PostgreSQL advisory lock taken while migrating (any constant of our own)
MIGRATION_LOCK = 0x43495643  # "CIVC"


def migrate(engine: Engine) -> None:
    """Bring the schema up to date (Alembic ``upgrade heads``: features add their own
    migrations on separate branches from ``0002``, so there may be several heads)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            # several processes starting at once: one migrates, the others wait for it
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "heads")
