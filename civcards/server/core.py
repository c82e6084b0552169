"""The authoritative game service: stores every move before anyone hears of it.

A game lives in the database as its record (set-up + moves) and in memory as
a :class:`Live` game rebuilt from it. Every change goes through
:class:`TableServer`, under the game's lock: check, store (one transaction),
apply, then tell the connected clients, each only its own seat's view.

Several server processes may share one database (``civcards serve --redis``):
the database is the truth. A store first locks the game's row and checks that
the record is still the one this process holds (a unique move number backs
this up), so of two processes storing a move for the same game, the second is
refused (409 ``stale``) and refreshes. After a store, the process tells the
others (:attr:`TableServer.publish`, Redis pub/sub); they read the new moves
from the database and tell their own clients. Bots are driven by the process
that stored the last move; another takes over when a bot's turn stays
unplayed (that process died).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
import unicodedata
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol, cast

import regex
import wcwidth
from sqlalchemy import BindParameter, String, bindparam, delete, func, insert, select, update
from sqlalchemy.engine import Connection, CursorResult, Engine
from sqlalchemy.exc import IntegrityError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlalchemy.orm import Session

from ..bots import bot_names, make_bot
from ..game_api import Choice, Game, GameError, MoveError, OptionsError, get_game
from .botpool import BotBusy, BotPool, BotSettings, BotTurn, is_strong
from .db import GameRow, MoveRow, PendingRow, SeatRow, hash_token, utcnow
from .kinds import default_bot

log = logging.getLogger("civcards.server")

#: a name: at most so many characters (grapheme clusters), so many code points (stored),
#: so many columns wide, so many combining marks on one character
MAX_NAME = 40
MAX_NAME_CODEPOINTS = 64
MAX_NAME_WIDTH = 40
MAX_MARKS = 4

def check_bot(game: Game, level: Any, what: str, caps: BotSettings | None = None) -> str:
    """``level`` if ``game`` has such a bot and it thinks no longer than ``caps`` allow (a
    server's :class:`~.botpool.BotSettings`; None: the defaults), else :class:`ApiError`
    with one sentence that starts with ``what`` (a seat's bot, a clock's takeover bot)."""
    bots = bot_names(game)
    if not isinstance(level, str) or level.partition(":")[0] not in bots:
        raise ApiError(
            422,
            "bad_bot",
            f"{what}: {game.title} has no bot {level!r}; its bots are: {', '.join(bots)}",
        )
    try:
        probe = make_bot(game, level, None)
    except ValueError as e:
        raise ApiError(422, "bad_bot", f"{what}: {e}") from None
    cap = caps or BotSettings()
    its = getattr(probe, "iterations", None) or 0
    secs = getattr(probe, "seconds", None) or 0.0
    if its > cap.max_iterations or secs > cap.max_seconds:
        raise ApiError(
            422,
            "bad_bot",
            f"{what}: {level!r} thinks too long for the table (at most {cap.max_iterations} "
            f"iterations or {cap.max_seconds:g} s a move)",
        )
    return level


#: the database cannot be reached (down, restarting, connections used up): answered 503
DB_DOWN: tuple[type[Exception], ...] = (OperationalError, InterfaceError, PoolTimeoutError)

#: the refusal when another process stored a change first
STALE = (
    "the game moved on before this could be stored (another move was made first): "
    "look at the game as it is now and choose again"
)


class _Stale(Exception):
    """The database holds a newer record than this process: refuse and refresh."""


# The statements of the hot path (a store), built once (SQL Core, no ORM session): SQLAlchemy
# then compiles each once and only binds the game's id.
_GID: BindParameter[str] = bindparam("gid", type_=String())
#: the game's row lock; a statement of its own, so that the check after it reads, with a
#: fresh snapshot, what the lock's previous holder committed (PostgreSQL, read committed)
_LOCK_GAME = select(GameRow.id).where(GameRow.id == _GID).with_for_update()
#: the record as the database holds it: the number of moves and the pending choice, if any
_CHECK_RECORD = (
    select(
        select(func.count())
        .select_from(MoveRow)
        .where(MoveRow.game_id == _GID)
        .scalar_subquery()
        .label("moves"),
        PendingRow.seat,
        PendingRow.idx,
        PendingRow.option,
    )
    .select_from(GameRow)
    .outerjoin(PendingRow, PendingRow.game_id == GameRow.id)
    .where(GameRow.id == _GID)
)
_INSERT_MOVE = insert(MoveRow)
_INSERT_PENDING = insert(PendingRow)
_DELETE_PENDING = delete(PendingRow).where(PendingRow.game_id == _GID)
_FINISH_GAME = update(GameRow).where(GameRow.id == _GID).values(status="finished")

#: a change stored by :meth:`TableServer._store`: it gets the connection (inside the
#: transaction that holds the game's row lock) and whether a pending row is there to delete
Write = Callable[[Connection, bool], None]


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
            "free": self.kind == "human" and self.token_hash is None and self.invite_hash is not None,
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


#: a name's ``Cf`` (format) characters that are allowed: the zero-width (non-)joiners of
#: emoji sequences and scripts, and the tags of flag sequences (🏴 + tags)
_NAME_FORMAT_OK = frozenset({0x200C, 0x200D}) | frozenset(range(0xE0020, 0xE0080))
#: variation selectors are marks (Mn) that only choose a glyph: not counted as marks
_VARIATION = frozenset(range(0xFE00, 0xFE10)) | frozenset(range(0xE0100, 0xE01F0))


def clean_name(name: str | None) -> str:
    """A display name, checked by grapheme clusters (user-perceived characters, ``regex``'s
    ``\\X``): trimmed and NFC-normalised; at most :data:`MAX_NAME` characters and
    :data:`MAX_NAME_WIDTH` columns on a terminal or a lobby row (``wcwidth``), at most
    :data:`MAX_MARKS` combining marks per character (no stacks drawn over other rows), no
    control, bidirectional or unassigned characters. Ordinary emoji, joined by zero-width
    joiners (👩‍👩‍👧‍👦) or with skin tones and flags, are names like any other."""
    if name is None:
        return ""
    name = unicodedata.normalize("NFC", name.strip())
    if not name:
        return ""
    for ch in name:
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cs", "Co", "Cn", "Zl", "Zp") or (
            cat == "Cf" and ord(ch) not in _NAME_FORMAT_OK
        ):
            raise ApiError(
                422,
                "bad_name",
                "a name may not hold control, direction, unassigned or private characters "
                f"(U+{ord(ch):04X})",
            )
    clusters = regex.findall(r"\X", name)
    if len(clusters) > MAX_NAME or len(name) > MAX_NAME_CODEPOINTS:
        raise ApiError(422, "bad_name", f"a name has at most {MAX_NAME} characters")
    for c in clusters:
        marks = sum(
            1 for ch in c if unicodedata.category(ch).startswith("M") and ord(ch) not in _VARIATION
        )
        if marks > MAX_MARKS:
            raise ApiError(
                422,
                "bad_name",
                f"a character of a name carries at most {MAX_MARKS} accents or marks, not {marks}",
            )
    width = wcwidth.wcswidth(name)
    if width < 0 or width > MAX_NAME_WIDTH:
        raise ApiError(
            422,
            "bad_name",
            f"a name is at most {MAX_NAME_WIDTH} columns wide (a wide character, such as an "
            "emoji or a CJK ideograph, takes two)",
        )
    return name


def name_key(name: str) -> str:
    """What two names must not share within a game: the name, normalised, in any case."""
    return unicodedata.normalize("NFKC", name).casefold().strip()


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


class TableServer:
    """Games in memory over the database; the only place where moves are made."""

    def __init__(
        self,
        engine: Engine,
        *,
        bot_delay: float = 1.0,
        allow_seed: bool = False,
        bots: BotSettings | None = None,
    ) -> None:
        self.engine = engine
        #: the bots think in worker processes under a budget (:mod:`.botpool`)
        self.bots = BotPool(bots)
        self.bot_delay = max(0.0, bot_delay)
        self.allow_seed = allow_seed
        self.games: dict[str, Live] = {}
        #: the token hashes of the seats of the games held here: (game id, seat)
        self.tokens: dict[str, tuple[str, int]] = {}
        self.decorate: Decorator | None = None
        #: extensions (the clocks, :mod:`.clocks`): a game created (after it is stored); a
        #: move stored (in its transaction: connection, game, seat, the new state, move
        #: number); a game loaded or refreshed from the database (True: it changed); a view
        self.on_create: list[Callable[[Live], None]] = []
        self.on_move: list[Callable[[Connection, Live, int, Any, int], None]] = []
        self.on_load: list[Callable[[Live], bool]] = []
        self.on_view: list[Callable[[Live, dict[str, Any]], None]] = []
        #: at the server's stop, after its bots': extensions with processes of their own
        #: (the analyses' pool, review.py) end them
        self.on_stop: list[Callable[[], Awaitable[None]]] = []
        #: observers of seats and games (accounts): :class:`SeatHooks`
        self.hooks: list[SeatHooks] = []
        #: tells the other processes that a game changed (game id, move number); set
        #: with :meth:`share` when several processes share the database
        self.publish: Callable[[str, int], Awaitable[None]] | None = None
        #: seconds a bot's turn may stay unplayed before this process drives it itself
        #: (when shared: the process driving it may have died)
        self.takeover = 3.0
        self.sweep_interval = 2.0
        self._sweeper: asyncio.Task[None] | None = None
        # -- eviction: the database is the truth, so a game may leave memory and be
        # rebuilt from its record when asked for again (:meth:`evict`)
        #: the most games held in memory (least recently used leave first); games in use
        #: (sockets connected, a bot to move or thinking, a move being stored) stay
        self.max_live = 2000
        #: seconds a finished game stays in memory after its last use
        self.finished_evict = 60.0
        #: seconds an unfinished game stays in memory after its last use
        self.idle_evict = 1800.0
        #: a game used within so many seconds is never evicted (a request may hold it)
        self.evict_grace = 5.0

    def has_token(self, token_hash: str) -> bool:
        """Whether ``token_hash`` is a seat's token in a game held here (the rate limit
        gives a valid seat token its own allowance)."""
        return token_hash in self.tokens

    def _index(self, live: Live) -> None:
        for i, s in enumerate(live.seats):
            if s.token_hash is not None:
                self.tokens[s.token_hash] = (live.id, i)

    def _set_token(self, live: Live, seat: int, token_hash: str | None) -> None:
        info = live.seats[seat]
        if info.token_hash is not None and info.token_hash != token_hash:
            self.tokens.pop(info.token_hash, None)
        info.token_hash = token_hash
        if token_hash is not None:
            self.tokens[token_hash] = (live.id, seat)

    @property
    def shared(self) -> bool:
        """Whether other processes may change the games too (``serve --redis``)."""
        return self.publish is not None

    def share(self, publish: Callable[[str, int], Awaitable[None]]) -> None:
        self.publish = publish

    def _tell(self, what: str, *args: Any) -> None:
        """Call each hook's method ``what`` (:class:`SeatHooks`) after a change is stored:
        an error is logged, the change stands."""
        for h in self.hooks:
            try:
                getattr(h, what)(*args)
            except Exception:
                log.exception("the %s hook failed", what)

    # -- loading -----------------------------------------------------------

    def load_unfinished(self) -> None:
        """Rebuild every unfinished game from the database (server start)."""
        with Session(self.engine) as s:
            ids = list(s.scalars(select(GameRow.id).where(GameRow.status == "playing")))
        for gid in ids:
            try:
                self.get(gid)
            except Exception:  # a broken game must not stop the server
                log.exception("game %s could not be rebuilt from its record", gid)

    def get(self, game_id: str) -> Live:
        live = self.games.get(game_id)
        if live is not None:
            live.touched = time.monotonic()
            return live
        if len(game_id) > 32:
            raise ApiError(404, "no_game", "there is no such game")
        with Session(self.engine) as s:
            row = s.get(GameRow, game_id)
            if row is None:
                raise ApiError(404, "no_game", "there is no such game")
            seats = list(
                s.scalars(select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat))
            )
            moves = list(
                s.scalars(select(MoveRow).where(MoveRow.game_id == game_id).order_by(MoveRow.idx))
            )
            prow = s.get(PendingRow, game_id)
            setup = json.loads(row.setup)
            options = setup.pop("_options", {})
            clock = setup.pop("_clock", None)
            hints = bool(setup.pop("_hints", False))
            texts = [m.text for m in moves]
            try:
                game = get_game(row.kind)
            except GameError:
                log.error(
                    "game %s is of the game %r, which this server does not host", game_id, row.kind
                )
                raise ApiError(404, "no_game", "there is no such game on this server") from None
            # event-sourced: the live state is the stored set-up with the stored moves
            state = game.from_record({**setup, "moves": texts})
            pending = None
            if prow is not None and prow.idx == len(texts) and state.to_move == prow.seat:
                pending = Pending(prow.seat, prow.idx, prow.option)
            live = Live(
                id=row.id,
                game=game,
                state=state,
                options=options,
                seats=[
                    SeatInfo(r.kind, r.bot, r.name, r.token_hash, r.joined, r.invite_hash)
                    for r in seats
                ],
                moves=texts,
                pending=pending,
                created_at=row.created_at
                if row.created_at.tzinfo
                else row.created_at.replace(tzinfo=UTC),
                rematch_of=row.rematch_of,
                rematch_id=row.rematch_id,
                # a game stored before the secret existed: its id, as then
                bot_secret=row.bot_secret or row.id,
                private=bool(row.private),
                clock=clock,
                hints=hints,
            )
        for load in self.on_load:
            load(live)
        self.games[game_id] = live
        self._index(live)
        self._evict_over_cap(keep=live)
        return live

    # -- eviction ----------------------------------------------------------

    def set_eviction(
        self,
        *,
        max_live: int | None = None,
        finished_evict: float | None = None,
        idle_evict: float | None = None,
        evict_grace: float | None = None,
    ) -> None:
        """Set how many games, and for how long, this process holds in memory."""
        if max_live is not None:
            if max_live < 1:
                raise ValueError("the most live games must be at least 1")
            self.max_live = max_live
        for name, value in (
            ("finished_evict", finished_evict),
            ("idle_evict", idle_evict),
            ("evict_grace", evict_grace),
        ):
            if value is not None:
                if value < 0:
                    raise ValueError(f"{name} cannot be negative")
                setattr(self, name, float(value))

    @staticmethod
    def _last_used(live: Live) -> float:
        return max(live.touched, live.changed_at)

    def _evictable(self, live: Live, now: float) -> bool:
        """Whether ``live`` may leave memory: nobody connected, no bot to move or
        thinking, nothing being stored or sent, not used within :attr:`evict_grace`."""
        if live.subscribers or live.lock.locked() or live.send_lock.locked():
            return False
        for task in (live.bot_task, live.refresh_task):
            if task is not None and not task.done():
                return False
        if live.stale or (not live.finished and self._bot_to_move(live) is not None):
            return False
        return now - self._last_used(live) >= self.evict_grace

    def _drop(self, live: Live) -> None:
        if self.games.get(live.id) is not live:
            return
        del self.games[live.id]
        for s in live.seats:
            if s.token_hash is not None and self.tokens.get(s.token_hash, ("",))[0] == live.id:
                del self.tokens[s.token_hash]

    def _evict_over_cap(self, keep: Live | None = None, now: float | None = None) -> int:
        over = len(self.games) - self.max_live
        if over <= 0:
            return 0
        now = time.monotonic() if now is None else now
        # finished games first, then the least recently used
        order = sorted(
            (g for g in self.games.values() if g is not keep and self._evictable(g, now)),
            key=lambda g: (not g.finished, self._last_used(g)),
        )
        for g in order[:over]:
            self._drop(g)
        return min(over, len(order))

    def evict(self, now: float | None = None) -> int:
        """Drop from memory the finished games unused for :attr:`finished_evict` seconds,
        the others unused for :attr:`idle_evict`, then the least recently used over
        :attr:`max_live`; never a game in use. Returns how many left memory. They are
        rebuilt from the database when asked for again (:meth:`get`)."""
        now = time.monotonic() if now is None else now
        drop = [
            g
            for g in self.games.values()
            if self._evictable(g, now)
            and now - self._last_used(g) >= (self.finished_evict if g.finished else self.idle_evict)
        ]
        for g in drop:
            self._drop(g)
        return len(drop) + self._evict_over_cap(now=now)

    @property
    def live_count(self) -> int:
        """How many games this process holds in memory."""
        return len(self.games)

    @staticmethod
    def _mark(live: Live) -> tuple[Any, ...]:
        """What a refresh may change: moves, the pending choice, seats, the rematch."""
        p = live.pending
        return (
            len(live.moves),
            None if p is None else (p.seat, p.idx, p.option),
            tuple((s.name, s.joined, s.token_hash, s.invite_hash, s.kind, s.bot) for s in live.seats),
            live.rematch_id,
        )

    def _sync_locked(self, live: Live) -> bool:
        """Bring ``live`` up to the database's record (under its lock); True if it changed."""
        before = self._mark(live)
        with Session(self.engine) as s:
            row = s.get(GameRow, live.id)
            if row is None:
                return False
            seats = list(
                s.scalars(select(SeatRow).where(SeatRow.game_id == live.id).order_by(SeatRow.seat))
            )
            new = list(
                s.scalars(
                    select(MoveRow)
                    .where(MoveRow.game_id == live.id, MoveRow.idx >= len(live.moves))
                    .order_by(MoveRow.idx)
                )
            )
            prow = s.get(PendingRow, live.id)
            rematch_id = row.rematch_id
        for m in new:
            if m.idx != len(live.moves):
                log.error("game %s: move %d is missing from the database", live.id, len(live.moves))
                break
            nxt = live.state.copy()
            try:
                live.game.play(nxt, m.text)
            except Exception:
                log.error("game %s: stored move %d cannot be applied", live.id, m.idx)
                break
            live.state = nxt
            live.moves.append(m.text)
            live.pending = None
            live.changed_at = time.monotonic()
        live.pending = None
        if prow is not None and prow.idx == len(live.moves) and live.state.to_move == prow.seat:
            live.pending = Pending(prow.seat, prow.idx, prow.option)
        for r in seats:
            if r.seat < len(live.seats):
                info = live.seats[r.seat]
                info.name, info.joined, info.invite_hash = r.name, r.joined, r.invite_hash
                info.kind, info.bot = r.kind, r.bot
                self._set_token(live, r.seat, r.token_hash)
        live.rematch_id = rematch_id
        loaded = [load(live) for load in self.on_load]
        return self._mark(live) != before or any(loaded)

    async def refresh(self, live: Live) -> bool:
        """Read what other processes stored for ``live``; tell its clients if it changed."""
        async with live.lock:
            changed = self._sync_locked(live)
        if changed:
            await self.broadcast(live)
        return changed

    def notice(self, game_id: str) -> None:
        """Another process changed ``game_id``: refresh it (if it is loaded here)."""
        live = self.games.get(game_id)
        if live is None:
            return
        live.stale = True
        if live.refresh_task is None or live.refresh_task.done():
            live.refresh_task = asyncio.get_running_loop().create_task(self._refresh_loop(live))

    async def _refresh_loop(self, live: Live) -> None:
        while live.stale:
            live.stale = False
            try:
                await self.refresh(live)
            except DB_DOWN as e:  # the sweeper catches up once the database is back
                log.warning("game %s: cannot refresh (%s)", live.id, type(e).__name__)
                return

    async def refresh_all(self) -> None:
        """Refresh every loaded game (after notices may have been missed)."""
        for gid in list(self.games):
            self.notice(gid)

    def list_games(
        self,
        limit: int = 50,
        offset: int = 0,
        *,
        game: str | None = None,
        status: str | None = None,
    ) -> list[dict[str, Any]]:
        """The public games, newest first: ``limit`` of them from ``offset``, of the game
        ``game`` only, with the ``status`` ``open`` (being played, a human seat free),
        ``playing`` or ``finished``. Private games are never listed."""
        q = select(GameRow.id).where(GameRow.private.is_(False))
        if game:
            q = q.where(GameRow.kind == game)
        if status in ("playing", "finished"):
            q = q.where(GameRow.status == status)
        elif status == "open":
            free = (
                select(SeatRow.seat)
                .where(SeatRow.game_id == GameRow.id)
                .where(SeatRow.kind == "human")
                .where(SeatRow.token_hash.is_(None))
                .where(SeatRow.invite_hash.is_not(None))
            )
            q = q.where(GameRow.status == "playing").where(free.exists())
        q = q.order_by(GameRow.created_at.desc(), GameRow.id).offset(offset).limit(limit)
        with Session(self.engine) as s:
            ids = list(s.scalars(q))
        out = []
        for gid in ids:
            try:
                out.append(self.get(gid).public())
            except ApiError:
                continue
        return out

    # -- creating ----------------------------------------------------------

    def create(
        self,
        *,
        kind: str,
        players: int,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        seed: int | None = None,
        rematch_of: str | None = None,
        clock: dict[str, Any] | None = None,
        issue_tokens: bool = True,
        private: bool = True,
        rated: bool = False,
        creator: str | None = None,
        hints: bool = False,
    ) -> tuple[Live, dict[int, str]]:
        """Create a game of the registered game ``kind``; returns it and the tokens of its
        human seats (shown once). The set-up is checked by the game alone
        (:meth:`~civcards.game_api.Game.check_options`)."""
        try:
            game = get_game(kind)
        except GameError as e:
            raise ApiError(422, "bad_game", str(e)) from None
        if seed is not None and not self.allow_seed:
            raise ApiError(
                422,
                "seed_not_allowed",
                "this server does not accept a seed (it would reveal the deck)",
            )
        if hints and rated:
            raise ApiError(422, "hints_rated", "a rated game cannot allow hints")
        try:
            opts = game.check_options(players, options)
        except OptionsError as e:
            raise ApiError(422, "bad_setup", str(e), e.words) from None
        if len(seats) != players:
            raise ApiError(
                422, "bad_seats", f"a {players}-player game needs {players} seats, not {len(seats)}"
            )
        infos: list[SeatInfo] = []
        named: dict[str, int] = {}
        for i, spec in enumerate(seats):
            kind_s = spec.get("kind")
            if kind_s == "bot":
                level = check_bot(
                    game, spec.get("bot") or default_bot(game), f"seat {i}", self.bots.settings
                )
                name = clean_name(spec.get("name")) or f"{level} bot {i + 1}"
                infos.append(SeatInfo("bot", level, name, None, True))
            elif kind_s == "human":
                infos.append(SeatInfo("human", None, clean_name(spec.get("name")), None, False))
            else:
                raise ApiError(422, "bad_seats", f"seat {i}: a seat is 'human' or 'bot'")
            key = name_key(infos[-1].name)
            if key and key in named:
                raise ApiError(
                    422,
                    "name_taken",
                    f"seats {named[key]} and {i} are both named {infos[-1].name!r}: "
                    "names are unique within a game",
                )
            named[key] = i
        strong = self._check_bot_budget(game, infos, creator)
        try:
            state = game.new_state(players, opts, seed)
        except OptionsError as e:  # pragma: no cover - check_options refuses first
            raise ApiError(422, "bad_setup", str(e)) from None
        tokens: dict[int, str] = {}
        if issue_tokens:  # an invitation per human seat: claiming it gives the seat's token
            for i, info in enumerate(infos):
                if info.kind == "human":
                    tok = new_token()
                    tokens[i] = tok
                    info.invite_hash = hash_token(tok)
        gid = secrets.token_urlsafe(9)
        bot_secret = secrets.token_hex(16)
        setup = game.setup_record(state)
        stored = {**setup, "_options": opts}
        if clock is not None:
            stored["_clock"] = clock
        if hints:
            stored["_hints"] = True
        created = utcnow()
        with Session(self.engine) as s, s.begin():
            s.add(
                GameRow(
                    id=gid,
                    kind=game.name,
                    players=players,
                    setup=json.dumps(stored),
                    status="finished" if state.finished else "playing",
                    created_at=created,
                    rematch_of=rematch_of,
                    bot_secret=bot_secret,
                    private=private,
                )
            )
            s.flush()
            for i, info in enumerate(infos):
                s.add(
                    SeatRow(
                        game_id=gid,
                        seat=i,
                        kind=info.kind,
                        bot=info.bot,
                        name=info.name,
                        token_hash=info.token_hash,
                        invite_hash=info.invite_hash,
                        joined=info.joined,
                    )
                )
            if rated and not self.hooks:
                raise ApiError(422, "rated_unavailable", "this table does not rate games")
            if self.hooks:
                s.flush()
            for hook in self.hooks:  # may refuse the game (ApiError): nothing is stored
                hook.creating(s, gid, infos, rated)
        live = Live(
            id=gid,
            game=game,
            state=state,
            options=opts,
            seats=infos,
            moves=[],
            pending=None,
            created_at=created,
            rematch_of=rematch_of,
            bot_secret=bot_secret,
            private=private,
            clock=clock,
            hints=hints,
        )
        for made in self.on_create:
            made(live)
        self.games[gid] = live
        self._index(live)
        if strong:
            self.bots.add_strong(creator, gid)
        self._evict_over_cap(keep=live)
        log.info("game %s created: %d players, %s", gid, players, game.name)
        return live, tokens

    def _check_bot_budget(self, game: Game, infos: list[SeatInfo], creator: str | None) -> bool:
        """Refuse (429) a game with bots while the bots' queue is full, and one with a
        search bot beyond the creating address's share (:class:`~.botpool.BotSettings`);
        whether the game has a search bot."""
        levels = [s.bot or default_bot(game) for s in infos if s.kind == "bot"]
        if not levels:
            return False
        strong = any(is_strong(game, lv) for lv in levels)
        try:
            self.bots.check_room()
        except BotBusy as e:
            raise ApiError(429, "bots_busy", str(e)) from None
        if strong:
            live = {gid: not g.finished for gid, g in self.games.items()}
            try:
                self.bots.admit_strong(creator, live)
            except BotBusy as e:
                raise ApiError(429, "bot_budget", str(e)) from None
        return strong

    # -- seats -------------------------------------------------------------

    def seat_of(self, live: Live, token: str | None) -> int:
        """The seat whose credential ``token`` is; 403 otherwise (an invitation is not a
        seat's credential: it is claimed first, :meth:`claim`)."""
        if not token:
            raise ApiError(401, "no_token", "this needs your seat's token (header X-Seat-Token)")
        h = hash_token(token)
        for attempt in range(2):
            for i, s in enumerate(live.seats):
                if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                    return i
            # another process may have given the seat out (a rematch) since this one loaded it
            if attempt == 0 and not (self.shared and self._sync_locked(live)):
                break
        if self._invitation(live, h) is not None:
            raise ApiError(
                403,
                "unclaimed",
                "this is an invitation: take the seat with it first (POST "
                f"/api/games/{live.id}/join), which gives you the seat's own token",
            )
        raise ApiError(403, "bad_token", "this token is not a seat of this game")

    @staticmethod
    def _invitation(live: Live, token_hash: str) -> int | None:
        for i, s in enumerate(live.seats):
            if s.invite_hash is not None and hmac.compare_digest(s.invite_hash, token_hash):
                return i
        return None

    def seat_or_spectator(self, live: Live, token: str | None) -> int | None:
        return None if not token else self.seat_of(live, token)

    async def claim(
        self, live: Live, invitation: str | None, *, join: bool = False, name: str | None = None
    ) -> tuple[int, str]:
        """Claim the seat of the invitation ``invitation``: the seat gets a fresh token of
        its own (returned, shown once) and the invitation is dead. With ``join``, take the
        seat at once, named ``name`` (:meth:`join`'s rules), in the same transaction."""
        name = clean_name(name)
        if not invitation:
            raise ApiError(401, "no_token", "this needs the invitation's token (X-Seat-Token)")
        h = hash_token(invitation)
        used = ApiError(
            403,
            "bad_token",
            "this invitation is not (or no longer) one of this game's: an invitation takes "
            "its seat once; ask whoever holds the seat, or the game's creator",
        )
        async with live.lock:
            seat = self._invitation(live, h)
            if seat is None and self.shared and self._sync_locked(live):
                seat = self._invitation(live, h)
            if seat is None:
                raise used
            for hook in self.hooks:  # may refuse (a rated game's seat needs an account)
                hook.claiming(live, seat)
            info = live.seats[seat]
            new_name = self._check_name(live, seat, name) if join else info.name
            tok = new_token()
            new_hash = hash_token(tok)
            with Session(self.engine) as s, s.begin():
                res = s.execute(
                    update(SeatRow)
                    .where(
                        SeatRow.game_id == live.id,
                        SeatRow.seat == seat,
                        SeatRow.invite_hash == h,
                    )
                    .values(
                        token_hash=new_hash,
                        invite_hash=None,
                        name=new_name,
                        joined=info.joined or join,
                    )
                )
                if cast("CursorResult[Any]", res).rowcount != 1:  # another process was first
                    self._sync_locked(live)
                    raise used
            info.invite_hash = None
            info.name = new_name
            info.joined = info.joined or join
            self._set_token(live, seat, new_hash)
            self._tell("seat_token", live, seat, tok)
        log.info("game %s: seat %d claimed", live.id, seat)
        await self.changed(live)
        return seat, tok

    async def revoke(self, live: Live, seat: int) -> str:
        """A new token for ``seat`` (returned, shown once); the old one is dead at once, and
        the sockets opened with it are closed."""
        async with live.lock:
            old = live.seats[seat].token_hash
            tok = new_token()
            new_hash = hash_token(tok)
            with Session(self.engine) as s, s.begin():
                res = s.execute(
                    update(SeatRow)
                    .where(
                        SeatRow.game_id == live.id,
                        SeatRow.seat == seat,
                        SeatRow.token_hash == old,
                    )
                    .values(token_hash=new_hash)
                )
                if cast("CursorResult[Any]", res).rowcount != 1:
                    self._sync_locked(live)
                    raise ApiError(409, "stale", STALE)
            self._set_token(live, seat, new_hash)
            self._tell("seat_token", live, seat, tok)
        log.info("game %s: seat %d has a new token", live.id, seat)
        await self.changed(live)
        return tok

    @staticmethod
    def _check_name(live: Live, seat: int, name: str) -> str:
        """The seat's name after it asks for ``name`` (empty: keep its own): 409 for one that
        another seat has, or any change once the game has started."""
        info = live.seats[seat]
        if not name or name == info.name:
            return info.name
        if live.moves or live.pending is not None:
            raise ApiError(409, "name_fixed", "the game has started: names can no longer change")
        key = name_key(name)
        for i, other in enumerate(live.seats):
            if i != seat and name_key(other.name) == key:
                raise ApiError(
                    409,
                    "name_taken",
                    f"{other.name!r} is already at this table: choose another name",
                )
        return name

    async def join(self, live: Live, seat: int, name: str | None) -> None:
        """Take the seat (joined) and give its name: unique within the game, and fixed once
        the game has started."""
        name = clean_name(name)
        async with live.lock:
            info = live.seats[seat]
            new_name = self._check_name(live, seat, name)
            with Session(self.engine) as s, s.begin():
                s.execute(
                    update(SeatRow)
                    .where(SeatRow.game_id == live.id, SeatRow.seat == seat)
                    .values(name=new_name, joined=True)
                )
            info.name = new_name
            info.joined = True
        await self.changed(live)

    async def rematch(self, live: Live, seat: int) -> tuple[Live, str]:
        """The rematch of a finished game (created by the first who asks) and this seat's token."""
        if not live.finished:
            raise ApiError(409, "not_finished", "a rematch is possible once the game is finished")
        async with live.lock:
            if self.shared:
                self._sync_locked(live)
            created = False
            if live.rematch_id is None:
                # a rated game's rematch is rated (its creator, the first to ask, logged in)
                rated = any(h.rated(live.id) for h in self.hooks)
                new, _ = self.create(
                    kind=live.game.name,
                    players=len(live.seats),
                    options=live.options,
                    seats=[
                        {"kind": "human", "bot": None, "name": ""}
                        if i in {t["seat"] for t in live.takeovers}
                        else {"kind": s.kind, "bot": s.bot, "name": s.name if s.kind == "bot" else ""}
                        for i, s in enumerate(live.seats)
                    ],
                    clock=live.clock,
                    rematch_of=live.id,
                    issue_tokens=False,
                    private=live.private,
                    rated=rated,
                )
                # only the first rematch counts (another process may have made one meanwhile)
                with Session(self.engine) as s, s.begin():
                    res = s.execute(
                        update(GameRow)
                        .where(GameRow.id == live.id, GameRow.rematch_id.is_(None))
                        .values(rematch_id=new.id)
                    )
                    created = cast("CursorResult[Any]", res).rowcount == 1
                    if not created:
                        s.execute(delete(SeatRow).where(SeatRow.game_id == new.id))
                        s.execute(delete(GameRow).where(GameRow.id == new.id))
                if created:
                    live.rematch_id = new.id
                else:
                    self.games.pop(new.id, None)
                    self._sync_locked(live)
            if live.rematch_id is None:
                raise ApiError(409, "stale", STALE)
            if not created:
                new = self.get(live.rematch_id)
            info = new.seats[seat]
            taken = ApiError(
                409,
                "seat_taken",
                "your seat in the rematch was already given out; open it from your game list",
            )
            if info.token_hash is not None:
                raise taken
            for hook in self.hooks:  # may refuse (a rated rematch's seat needs an account)
                hook.claiming(new, seat)
            tok = new_token()
            token_hash = hash_token(tok)
            name = live.seats[seat].name
            with Session(self.engine) as s, s.begin():
                res = s.execute(
                    update(SeatRow)
                    .where(
                        SeatRow.game_id == new.id,
                        SeatRow.seat == seat,
                        SeatRow.token_hash.is_(None),
                    )
                    .values(token_hash=token_hash, name=name)
                )
                if cast("CursorResult[Any]", res).rowcount != 1:
                    raise taken
            self._set_token(new, seat, token_hash)
            info.name = name
            self._tell("seat_token", new, seat, tok)
        if created:
            await self.changed(live)
        if self.publish is not None:
            await self.publish(new.id, len(new.moves))
        self.kick_bots(new)
        return new, tok

    # -- views -------------------------------------------------------------

    @staticmethod
    def _pending_step(live: Live) -> Choice:
        """The hidden step the seat to move committed to (only hidden steps are stored)."""
        assert live.pending is not None
        return Choice(live.pending.option, final=False, hidden=True)

    @staticmethod
    def _expansion(option: str, exp: Any, hidden: bool) -> dict[str, Any]:
        return {
            "option": option,
            "hidden": hidden,
            "reveal": exp.reveal,
            "choices": [c.to_json() for c in exp.choices],
        }

    def view(self, live: Live, seat: int | None, lang: str = "en") -> dict[str, Any]:
        """Everything ``seat`` may see now (None: a spectator): public facts, its observation,
        its choices when it is to move, and what its pending (hidden) step revealed.

        Choices are JSON objects ``{"text", "final", "hidden"}``
        (:class:`~civcards.game_api.Choice`): a step (not ``final``) is expanded by
        sending its text as a move; a ``hidden`` step is binding once sent."""
        st = live.state
        game = live.game
        former: int | None = None
        if seat is not None and not st.finished and live.seats[seat].kind != "human":
            # a bot took the seat over: its former holder watches as a spectator, and never
            # sees the cards the bot holds or draws from now on (R25 in a team game)
            former, seat = seat, None
        observation = game.observe(st, seat)  # built once a frame: the words reuse it
        obs = observation.to_json()
        options: list[dict[str, Any]] = []
        pending: dict[str, Any] | None = None
        if seat is not None and st.to_move == seat and live.seats[seat].kind == "human":
            if live.pending is not None and live.pending.seat == seat:
                step = self._pending_step(live)
                pending = self._expansion(step.text, game.expand(st, step), True)
            else:
                options = [c.to_json() for c in game.choices(st)]
        out: dict[str, Any] = {
            "game": live.public(),
            "seat": seat,
            "move_number": len(live.moves),
            "observation": obs,
            "options": options,
            "pending": pending,
        }
        if former is not None:
            out["taken_over_seat"] = former
        for extend in self.on_view:
            extend(live, out)
        if self.decorate is not None:
            self.decorate(live, out, lang, observation)
        return out

    def record(self, live: Live) -> dict[str, Any]:
        if not live.finished:
            raise ApiError(
                409, "not_finished", "the record (it holds the deck) is given once the game is over"
            )
        rec = live.game.record(live.state, live.names())
        if live.takeovers:  # beside the moves: which seats bots took over (.clocks)
            rec["takeovers"] = [dict(t) for t in live.takeovers]
        return rec

    # -- moves -------------------------------------------------------------

    async def move(
        self, live: Live, seat: int, text: str, expected: int, steps: Sequence[str] = ()
    ) -> dict[str, Any]:
        """Make ``text`` for ``seat`` if it is that seat's decision number ``expected``;
        ``steps`` are the texts of the steps that hide nothing which lead to it."""
        async with live.lock:
            before = self._mark(live)
            try:
                result = self._move_locked(live, seat, text, expected, steps)
            except ApiError:
                if self._mark(live) != before:  # refused, but a refresh found news
                    await self.broadcast(live)
                raise
        if result.get("expansion") is None:  # an expansion changes nothing
            await self.changed(live)
            self.kick_bots(live)
        return result

    #: how many steps the server expands looking for a whole move sent without its steps
    SEARCH_BUDGET = 64

    @staticmethod
    def _find(choices: list[Choice], said: str, *, step: bool) -> Choice | None:
        """The choice ``said`` names among ``choices``: a step (``step``) by its text in
        any case, a final choice by its exact text."""
        low = said.lower()
        for c in choices:
            if c.final != step and (c.text == said or (step and c.text.lower() == low)):
                return c
        return None

    @staticmethod
    def _search(game: Game, state: Any, choices: list[Choice], move: str) -> bool:
        """Whether the whole move ``move`` is a final choice below the steps of ``choices``
        that hide nothing (breadth first, :attr:`SEARCH_BUDGET` expansions at most)."""
        queue = [c for c in choices if not c.final and not c.hidden]
        budget = TableServer.SEARCH_BUDGET
        while queue and budget > 0:
            budget -= 1
            below = game.expand(state, queue.pop(0)).choices
            if TableServer._find(below, move, step=False) is not None:
                return True
            queue += [c for c in below if not c.final and not c.hidden]
        return False

    def _level(self, live: Live, st: Any, steps: Sequence[str]) -> list[Choice]:
        """The seat's choices where ``steps`` lead: from its pending step's, or its own."""
        game = live.game
        if live.pending is not None:
            choices = game.expand(st, self._pending_step(live)).choices
        else:
            choices = game.choices(st)
        for text in steps:
            said = " ".join(str(text).split())
            step = self._find(choices, said, step=True)
            if step is None or step.hidden:
                raise ApiError(
                    422,
                    "illegal",
                    f"{said!r} is not a step of your choices now (a hidden step is sent as the "
                    "move itself, and committed to)",
                )
            choices = game.expand(st, step).choices
        return choices

    def _move_locked(
        self, live: Live, seat: int, text: str, expected: int, steps: Sequence[str] = ()
    ) -> dict[str, Any]:
        if self.shared and expected != len(live.moves):
            # this process may not have heard of a move stored through another one yet
            self._sync_locked(live)
        st = live.state
        # a move for an earlier move number is stale even when the game has ended since
        # (another process, or a resent request, stored the last move first)
        if expected != len(live.moves):
            raise ApiError(
                409,
                "stale",
                f"this move was meant for move number {expected}, but the game is at move "
                f"number {len(live.moves)}: it was already made or is out of date",
            )
        if st.finished:
            raise ApiError(409, "finished", "the game is over: no more moves")
        if live.seats[seat].kind != "human":
            raise ApiError(
                409, "taken_over", "a bot plays this seat now: you may watch, no longer move"
            )
        if st.to_move != seat:
            raise ApiError(409, "not_your_turn", f"it is not your turn: seat {st.to_move} decides")
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            raise ApiError(400, "bad_move", "a move is a non-empty line of notation")
        game = live.game
        said = " ".join(text.split())
        committed = live.pending
        choices = self._level(live, st, steps)
        # a step: a hidden one is stored (binding: its cards are shown next); one that
        # hides nothing is only expanded for the seat (nothing is stored)
        step = self._find(choices, said, step=True)
        if step is not None:
            exp = game.expand(st, step)
            if not step.hidden:
                return {
                    "ok": True,
                    "applied": None,
                    "move_number": len(live.moves),
                    "pending": self._pending_json(live, st),
                    "expansion": self._expansion(step.text, exp, False),
                }
            self._commit_step(live, seat, step.text)
            log.info("game %s: seat %d committed to a choice", live.id, seat)
            return {
                "ok": True,
                "applied": None,
                "move_number": len(live.moves),
                "pending": self._expansion(step.text, exp, True),
            }
        # a whole move: parsed once (or not at all when its text is a choice's), checked
        # against the seat's choices, applied to a copy, stored, then made live
        nxt = st.copy()
        pick = self._find(choices, said, step=False)
        move: str | None
        if pick is not None:
            move = game.apply_choice(nxt, pick)
        else:
            try:
                move = game.play(nxt, said)
            except MoveError:
                move = None
            if (
                move is not None
                and self._find(choices, move, step=False) is None
                and (steps or not self._search(game, st, choices, move))
            ):
                move = None  # legal, but not one of the seat's choices (a hidden step's move)
        if move is None:
            if committed is not None:
                raise ApiError(
                    422,
                    "pending_choice",
                    f"you committed to {committed.option!r}: choose one of its "
                    f"{len(choices)} moves (there is no going back once the cards are shown)",
                )
            try:
                reason = game.why_not(st, said)
            except MoveError as e:
                raise ApiError(400, "bad_move", str(e)) from None
            raise ApiError(422, "illegal", reason)
        self._commit(live, seat, nxt, move)
        return {"ok": True, "applied": move, "move_number": len(live.moves), "pending": None}

    def _pending_json(self, live: Live, st: Any) -> dict[str, Any] | None:
        if live.pending is None:
            return None
        step = self._pending_step(live)
        return self._expansion(step.text, live.game.expand(st, step), True)

    def _commit_step(self, live: Live, seat: int, option: str) -> None:
        """Store the seat's commitment to the hidden step ``option`` (before it is shown)."""
        idx = len(live.moves)
        gid = live.id

        def write(conn: Connection, has_pending: bool) -> None:
            if has_pending:
                conn.execute(_DELETE_PENDING, {"gid": gid})
            conn.execute(
                _INSERT_PENDING,
                {"game_id": gid, "seat": seat, "idx": idx, "option": option},
            )

        self._store(live, write)
        live.pending = Pending(seat, idx, option)

    def _commit(self, live: Live, seat: int, nxt: Any, move: str) -> None:
        """Store ``move`` (one transaction), then make ``nxt`` (the live state with the move
        applied to a copy) the live state: no one hears of a move before it is stored."""
        idx = len(live.moves)
        gid = live.id
        finished = bool(nxt.finished)

        def write(conn: Connection, has_pending: bool) -> None:
            conn.execute(_INSERT_MOVE, {"game_id": gid, "idx": idx, "seat": seat, "text": move})
            for moved in self.on_move:
                moved(conn, live, seat, nxt, idx)
            if has_pending:
                conn.execute(_DELETE_PENDING, {"gid": gid})
            if finished:
                conn.execute(_FINISH_GAME, {"gid": gid})

        self._store(live, write)
        live.state = nxt
        live.moves.append(move)
        live.pending = None
        live.changed_at = time.monotonic()
        if finished:
            self._tell("finished", live)

    def store(self, live: Live, write: Write) -> None:
        """Store a change of an extension (the clocks' takeovers and reclaims) under the
        game's lock: :meth:`_store`'s one transaction (409 stale when another process
        stored first)."""
        self._store(live, write)

    def sync(self, live: Live) -> bool:
        """Bring ``live`` up to the database's record, under its lock; True if it changed."""
        return self._sync_locked(live)

    def _store(self, live: Live, write: Write) -> None:
        """One transaction: lock the game's row, check that the database holds the record
        this process holds (moves and pending choice), then ``write``. A newer record
        (another process stored first) refreshes ``live`` and refuses with 409 stale.
        SQL Core on prepared statements: this is the hot path of every move."""
        p = live.pending
        mine = None if p is None else (p.seat, p.idx, p.option)
        gid = {"gid": live.id}
        try:
            with self.engine.begin() as conn:
                conn.execute(_LOCK_GAME, gid)
                row = conn.execute(_CHECK_RECORD, gid).first()
                if row is None:  # the game's row is gone
                    raise _Stale
                n, pseat, pidx, poption = row
                has_pending = pidx is not None
                theirs = None if pidx is None or pidx != n else (pseat, pidx, poption)
                # (a pending row of an earlier move number is left over: not a choice now)
                if n != len(live.moves) or theirs != mine:
                    raise _Stale
                write(conn, has_pending)
        except (_Stale, IntegrityError):
            log.info("game %s: refused a stale change at move %d", live.id, len(live.moves))
            self._sync_locked(live)
            raise ApiError(409, "stale", STALE) from None

    # -- bots --------------------------------------------------------------

    def _bot_to_move(self, live: Live) -> int | None:
        seat = live.state.to_move
        if seat is None or live.seats[seat].kind != "bot":
            return None
        return int(seat)

    def kick_bots(self, live: Live) -> None:
        """Start the game's bot runner if a bot is to move and none runs."""
        if live.bot_task is not None and not live.bot_task.done():
            return
        if self._bot_to_move(live) is None:
            return
        live.bot_task = asyncio.get_running_loop().create_task(self._run_bots(live))

    async def bot_choose(self, live: Live, seat: int, spec: str | None = None) -> str:
        """The move (its text, **not stored**) that a bot chooses for ``seat`` of ``live``
        now: the bot ``spec`` (default: the seat's own bot, else the game's default),
        seeded from the game's bot secret (:func:`bot_seed`, so a finished game's bot
        moves replay from its record), thought in the bot pool's worker processes under
        its budget (:class:`~.botpool.BotPool`: it waits its turn; BotBusy when the queue
        is full). A caller that plays for a seat (a clock's take-over) checks the text with
        ``game.play`` on a copy of the state under the game's lock, at the same move
        number, and stores it (:meth:`play_bot_move`). A committed hidden step (pending)
        is not a bot's: the bot chooses a whole move."""
        game = live.game
        level = spec or live.seats[seat].bot or default_bot(game)
        # made afresh for each move from the game's secret: reproducible from the record
        # once the game is over, after restarts too
        secret = live.bot_secret or live.id
        turn = BotTurn(
            game_id=live.id,
            game=game.name,
            state=live.state.copy(),  # pickled to a worker later: a copy of its own
            seat=seat,
            spec=level,
            seed=bot_seed(secret, seat, len(live.moves)),
            bot_only=all(s.kind == "bot" for s in live.seats),
        )
        return await self.bots.play(turn)

    async def play_bot_move(self, live: Live, seat: int, expected: int, text: str) -> bool:
        """Store ``text``, a bot's move for ``seat`` at move number ``expected``
        (:meth:`bot_choose`), after checking it with ``game.play`` under the game's lock;
        False (nothing stored) when the game has moved on meanwhile. Then tells the
        clients. MoveError for a move that is not legal (a worker's bug)."""
        async with live.lock:
            if len(live.moves) != expected or live.state.to_move != seat or live.finished:
                return False
            if live.pending is not None:
                return False
            nxt = live.state.copy()
            self._commit(live, seat, nxt, live.game.play(nxt, text))
        await self.changed(live)
        return True

    async def _run_bots(self, live: Live) -> None:
        backoff = 0.5
        try:
            while True:
                if self._bot_to_move(live) is None:
                    return
                await asyncio.sleep(self.bot_delay)
                try:
                    seat = self._bot_to_move(live)
                    if seat is None:
                        return
                    n = len(live.moves)
                    # thought in a worker process without the game's lock: the server
                    # answers everyone meanwhile (the game's own requests too)
                    text = await self.bot_choose(live, seat)
                    await self.play_bot_move(live, seat, n, text)
                except ApiError as e:
                    if e.code != "stale":
                        raise
                    # another process stored first: it drives the bots on
                    await self.broadcast(live)
                    return
                except BotBusy as e:
                    log.warning("game %s: %s", live.id, e)
                    await asyncio.sleep(5.0)
                    continue
                except DB_DOWN as e:
                    log.warning(
                        "game %s: the database is unavailable (%s); the bot tries again in %.1f s",
                        live.id,
                        type(e).__name__,
                        backoff,
                    )
                    await asyncio.sleep(backoff)
                    backoff = min(backoff * 2, 5.0)
                    continue
                backoff = 0.5
        except asyncio.CancelledError:
            raise
        except Exception as e:
            log.error("game %s: the bot runner stopped (%s: %s)", live.id, type(e).__name__, e)

    def kick_all(self) -> None:
        for live in list(self.games.values()):
            self.kick_bots(live)

    def start(self) -> None:
        """Start the sweeper (bots left unplayed, notices missed) and the light bots'
        worker; in the event loop."""
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop())
            self.bots.warm()

    async def _sweep_loop(self) -> None:
        down = False
        while True:
            await asyncio.sleep(self.sweep_interval)
            try:
                await self.sweep()
                if down:
                    log.info("the database answers again")
                down = False
            except DB_DOWN as e:
                if not down:
                    log.warning("the database is unavailable (%s)", type(e).__name__)
                down = True
            except Exception as e:  # the sweeper must go on
                log.error("sweep failed (%s)", type(e).__name__)

    def _move_counts(self, ids: list[str]) -> dict[str, int]:
        out: dict[str, int] = {}
        with Session(self.engine) as s:
            for i in range(0, len(ids), 500):
                q = (
                    select(MoveRow.game_id, func.count())
                    .where(MoveRow.game_id.in_(ids[i : i + 500]))
                    .group_by(MoveRow.game_id)
                )
                out.update({gid: int(n) for gid, n in s.execute(q)})
        return out

    async def sweep(self) -> None:
        """Catch up games whose notice was missed (shared), and drive bots whose turn stays
        unplayed: at once when alone, after :attr:`takeover` seconds when shared."""
        watch = [
            g
            for g in list(self.games.values())
            if not g.finished and (g.subscribers or self._bot_to_move(g) is not None)
        ]
        if self.shared and watch:
            counts = self._move_counts([g.id for g in watch])
            for g in watch:
                if counts.get(g.id, 0) != len(g.moves):
                    await self.refresh(g)
        now = time.monotonic()
        wait = self.bot_delay + self.takeover if self.shared else 0.0
        for g in watch:
            idle = g.bot_task is None or g.bot_task.done()
            if idle and self._bot_to_move(g) is not None and now - g.changed_at >= wait:
                if self.shared:
                    log.info("game %s: taking over its bots", g.id)
                self.kick_bots(g)
        self.evict(now)

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        self.bots.close()  # the workers stop; a bot's turn in progress is abandoned
        tasks = [g.bot_task for g in self.games.values() if g.bot_task is not None]
        tasks += [g.refresh_task for g in self.games.values() if g.refresh_task is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        for stop in self.on_stop:
            await stop()

    # -- live clients ------------------------------------------------------

    async def changed(self, live: Live) -> None:
        """After a store: tell the other processes, then this one's clients."""
        if self.publish is not None:
            await self.publish(live.id, len(live.moves))
        await self.broadcast(live)

    async def broadcast(self, live: Live) -> None:
        """Send every connected client its own view (after the change is stored)."""
        async with live.send_lock:
            for sub in list(live.subscribers):
                try:
                    if sub.seat is not None and sub.token_hash != live.seats[sub.seat].token_hash:
                        # its token was revoked (or the seat claimed anew): no more views
                        live.subscribers.discard(sub)
                        await sub.send(
                            {
                                "type": "error",
                                "code": "bad_token",
                                "detail": "this seat's token was replaced: open the seat's new link",
                            }
                        )
                        if sub.close is not None:
                            await sub.close(4403)
                        continue
                    await sub.send({"type": "state", **self.view(live, sub.seat, sub.lang)})
                except Exception:
                    live.subscribers.discard(sub)
