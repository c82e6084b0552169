"""What the server's rooms share: a game in memory (:class:`Live`) and its seats, a refused
request (:class:`ApiError`), the observers of seats (:class:`SeatHooks`), and a few facts
of a game read alike by every room (whose bot is to move, what a refresh may change).

It owns no state and imports no other room (docs/architecture.md)."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy.engine import Connection
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlalchemy.orm import Session

from ..game_api import Game

log = logging.getLogger("civcards.server")

#: the database cannot be reached (down, restarting, connections used up): answered 503
DB_DOWN: tuple[type[Exception], ...] = (OperationalError, InterfaceError, PoolTimeoutError)

#: the refusal when another process stored a change first
STALE = (
    "the game moved on before this could be stored (another move was made first): "
    "look at the game as it is now and choose again"
)


class ApiError(Exception):
    """A refused request: an HTTP status, a short code and a sentence for the client
    (``words``, when given, says the sentence in a language: the request's, see app.py)."""

    def __init__(
        self, status: int, code: str, message: str, words: Callable[[str], str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.words = words


@dataclass
class SeatInfo:
    kind: str  # "human" or "bot"
    bot: str | None
    name: str
    token_hash: str | None
    joined: bool
    #: an unused invitation (its hash): claiming the seat replaces it by the seat's token
    invite_hash: str | None = None

    def public(self, seat: int) -> dict[str, Any]:
        return {
            "seat": seat,
            "kind": self.kind,
            "bot": self.bot,
            "name": self.name,
            "joined": self.joined,
            "claimed": self.kind == "bot" or self.token_hash is not None,
            "free": self.kind == "human"
            and self.token_hash is None
            and self.invite_hash is not None,
        }


@dataclass
class Pending:
    seat: int
    idx: int
    option: str


#: a connected client: (seat or None for a spectator, language, send function)
@dataclass(eq=False)
class Subscriber:
    seat: int | None
    lang: str
    send: Callable[[dict[str, Any]], Awaitable[None]]
    #: the hash of the token the seat connected with: once revoked, the socket is closed
    token_hash: str | None = None
    close: Callable[[int], Awaitable[None]] | None = None


@dataclass(eq=False)
class Live:
    """A game in memory, rebuilt from the database."""

    id: str
    game: Game
    state: Any
    options: dict[str, Any]
    seats: list[SeatInfo]
    moves: list[str]
    pending: Pending | None
    created_at: datetime
    rematch_of: str | None = None
    rematch_id: str | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # one broadcast at a time, so that every client hears the positions in order
    send_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: set[Subscriber] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    #: the clock settings (:mod:`.clocks`; None: a game stored before clocks)
    clock: dict[str, Any] | None = None
    #: its creator allowed hints (the bot's suggested move on request: .review)
    hints: bool = False
    #: the seats bots took over (the record's ``takeovers``), and the clock now (.clocks)
    takeovers: list[dict[str, Any]] = field(default_factory=list)
    clock_state: Any = None
    #: the bots' randomness is drawn from it (:func:`bot_seed`); shown once the game is over
    bot_secret: str | None = None
    #: listed only to those holding one of its seats (the lobby lists public games)
    private: bool = False
    # when a move was last added (stored here or read from the database): bot take-over
    changed_at: float = field(default_factory=time.monotonic)
    # another process announced a change: a refresh is due / running
    stale: bool = False
    refresh_task: asyncio.Task[None] | None = None
    # when a request last asked for it (:meth:`TableServer.get`): eviction from memory
    touched: float = field(default_factory=time.monotonic)

    @property
    def finished(self) -> bool:
        return bool(self.state.finished)

    def public(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "players": len(self.seats),
            "options": dict(self.options),
            "status": "finished" if self.finished else "playing",
            "private": self.private,
            "seats": [s.public(i) for i, s in enumerate(self.seats)],
            "move_number": len(self.moves),
            "to_move": self.state.to_move,
            "created_at": self.created_at.isoformat(),
            "rematch_of": self.rematch_of,
            "rematch_id": self.rematch_id,
            # the bots' seeds: secret while the game is played (a bot's next move would show
            # what it holds), given with the record once it is over (its bots' moves replay)
            "bot_secret": self.bot_secret if self.finished else None,
            "clock": self.clock,
            "takeovers": [dict(t) for t in self.takeovers],
            "hints": self.hints,
        }

    def names(self) -> list[str]:
        return [s.name or f"Seat {i + 1}" for i, s in enumerate(self.seats)]


def new_token() -> str:
    return secrets.token_urlsafe(24)


def _seed_int(*parts: object) -> int:
    h = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(h[:8], "big")


def bot_seed(secret: str, seat: int, move_number: int) -> int:
    """The seed of the bot of ``seat`` choosing move number ``move_number`` of a game whose
    bots' secret is ``secret`` (``games.bot_secret``, never shown before the game is over):
    each move's bot is made afresh with it, so a finished game's bot moves can be made again
    from its record and secret (``GET /api/games/{id}``'s ``bot_secret``), and no observer
    can foresee them while it is played."""
    return _seed_int("bot", secret, seat, move_number)


class Decorator(Protocol):
    """A function that adds words (in a language) to a view; set by the web layer.
    ``obs``: the seat's observation the view was built from (None: built again)."""

    def __call__(self, live: Live, view: dict[str, Any], lang: str, obs: Any = None) -> None: ...


class SeatHooks:
    """An observer of seats and games (the accounts, :mod:`.accounts`), added to
    :attr:`TableServer.hooks`; each method does nothing unless overridden."""

    def creating(self, s: Session, game_id: str, seats: list[SeatInfo], rated: bool) -> None:
        """Inside the transaction that stores a new game (its seats added): an
        :class:`ApiError` refuses the game, and nothing is stored."""

    def claiming(self, live: Live, seat: int) -> None:
        """Before an invitation to ``seat`` is claimed: an :class:`ApiError` refuses it."""

    def seat_token(self, live: Live, seat: int, token: str) -> None:
        """``seat`` got a token of its own (claimed, revoked, a rematch), once stored, under
        the game's lock. Errors are logged, never refuse."""

    def finished(self, live: Live) -> None:
        """A move finished the game, once stored, under the game's lock. Errors are logged."""

    def rated(self, game_id: str) -> bool:
        """Whether the game is rated (its rematch is rated too)."""
        return False


#: a change stored by :meth:`.store.Store.commit`: it gets the connection (inside the
#: transaction that holds the game's row lock) and whether a pending row is there to delete
Write = Callable[[Connection, bool], None]


def bot_to_move(live: Live) -> int | None:
    """The seat to move if a bot plays it, else None."""
    seat = live.state.to_move
    if seat is None or live.seats[seat].kind != "bot":
        return None
    return int(seat)


def record_mark(live: Live) -> tuple[Any, ...]:
    """What a refresh may change: moves, the pending choice, seats, the rematch."""
    p = live.pending
    return (
        len(live.moves),
        None if p is None else (p.seat, p.idx, p.option),
        tuple((s.name, s.joined, s.token_hash, s.invite_hash, s.kind, s.bot) for s in live.seats),
        live.rematch_id,
    )


def tell(hooks: list[SeatHooks], what: str, *args: Any) -> None:
    """Call each hook's method ``what`` (:class:`SeatHooks`) after a change is stored:
    an error is logged, the change stands."""
    for h in hooks:
        try:
            getattr(h, what)(*args)
        except Exception:
            log.exception("the %s hook failed", what)
