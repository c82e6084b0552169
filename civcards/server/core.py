"""The authoritative game service: stores every move before anyone hears of it.

A game lives in the database as its record (set-up + moves) and in memory as
a :class:`Live` game rebuilt from it. Every change goes through
:class:`TableServer`, under the game's lock: check, store (one transaction),
apply, then tell the connected clients, each only its own seat's view.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import unicodedata
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from ..bots import Bot, bot_move, bot_names, make_bot
from .adapter import ADAPTERS, GameAdapter
from .db import GameRow, MoveRow, PendingRow, SeatRow, hash_token, utcnow

log = logging.getLogger("civcards.server")

MAX_NAME = 40


class ApiError(Exception):
    """A refused request: an HTTP status, a short code and a sentence for the client."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


@dataclass
class SeatInfo:
    kind: str  # "human" or "bot"
    bot: str | None
    name: str
    token_hash: str | None
    joined: bool

    def public(self, seat: int) -> dict[str, Any]:
        return {
            "seat": seat,
            "kind": self.kind,
            "bot": self.bot,
            "name": self.name,
            "joined": self.joined,
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


@dataclass(eq=False)
class Live:
    """A game in memory, rebuilt from the database."""

    id: str
    adapter: GameAdapter
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
    bots: dict[int, Bot] = field(default_factory=dict)

    @property
    def finished(self) -> bool:
        return bool(self.state.finished)

    def public(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.adapter.name,
            "players": len(self.seats),
            "deal": self.options.get("deal", "basic"),
            "teams": bool(self.options.get("teams", False)),
            "status": "finished" if self.finished else "playing",
            "seats": [s.public(i) for i, s in enumerate(self.seats)],
            "move_number": len(self.moves),
            "to_move": self.state.to_move,
            "created_at": self.created_at.isoformat(),
            "rematch_of": self.rematch_of,
            "rematch_id": self.rematch_id,
        }

    def names(self) -> list[str]:
        return [s.name or f"Seat {i + 1}" for i, s in enumerate(self.seats)]


def new_token() -> str:
    return secrets.token_urlsafe(24)


def clean_name(name: str | None) -> str:
    """A display name: trimmed, at most 40 characters, no control characters."""
    if name is None:
        return ""
    name = name.strip()
    if len(name) > MAX_NAME:
        raise ApiError(422, "bad_name", f"a name has at most {MAX_NAME} characters")
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in name):
        raise ApiError(422, "bad_name", "a name may not hold control or unassigned characters")
    return name


def _seed_int(*parts: object) -> int:
    h = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(h[:8], "big")


# a function that adds words (in a language) to a view; set by the web layer
Decorator = Callable[[Live, dict[str, Any], str], None]


class TableServer:
    """Games in memory over the database; the only place where moves are made."""

    def __init__(
        self,
        engine: Engine,
        *,
        bot_delay: float = 1.0,
        allow_seed: bool = False,
    ) -> None:
        self.engine = engine
        self.bot_delay = max(0.0, bot_delay)
        self.allow_seed = allow_seed
        self.games: dict[str, Live] = {}
        self.decorate: Decorator | None = None

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
            adapter = ADAPTERS[row.kind]
            options = setup.pop("_options", {})
            texts = [m.text for m in moves]
            state = adapter.state_from(setup, texts)
            pending = None
            if prow is not None and prow.idx == len(texts) and state.to_move == prow.seat:
                pending = Pending(prow.seat, prow.idx, prow.option)
            live = Live(
                id=row.id,
                adapter=adapter,
                state=state,
                options=options,
                seats=[SeatInfo(r.kind, r.bot, r.name, r.token_hash, r.joined) for r in seats],
                moves=texts,
                pending=pending,
                created_at=row.created_at
                if row.created_at.tzinfo
                else row.created_at.replace(tzinfo=UTC),
                rematch_of=row.rematch_of,
                rematch_id=row.rematch_id,
            )
        self.games[game_id] = live
        return live

    def list_games(self, limit: int = 50) -> list[dict[str, Any]]:
        with Session(self.engine) as s:
            ids = list(
                s.scalars(select(GameRow.id).order_by(GameRow.created_at.desc()).limit(limit))
            )
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
        issue_tokens: bool = True,
    ) -> tuple[Live, dict[int, str]]:
        """Create a game; returns it and the tokens of its human seats (shown once)."""
        adapter = ADAPTERS.get(kind)
        if adapter is None:
            raise ApiError(422, "bad_game", f"unknown game {kind!r}; the games are: carta")
        if seed is not None and not self.allow_seed:
            raise ApiError(
                422,
                "seed_not_allowed",
                "this server does not accept a seed (it would reveal the deck)",
            )
        if len(seats) != players:
            raise ApiError(
                422, "bad_seats", f"a {players}-player game needs {players} seats, not {len(seats)}"
            )
        infos: list[SeatInfo] = []
        for i, spec in enumerate(seats):
            kind_s = spec.get("kind")
            if kind_s == "bot":
                level = spec.get("bot") or "greedy"
                if level not in bot_names():
                    raise ApiError(
                        422,
                        "bad_bot",
                        f"seat {i}: unknown bot {level!r}; the bots are: {', '.join(bot_names())}",
                    )
                name = clean_name(spec.get("name")) or f"{level} bot {i + 1}"
                infos.append(SeatInfo("bot", level, name, None, True))
            elif kind_s == "human":
                infos.append(SeatInfo("human", None, clean_name(spec.get("name")), None, False))
            else:
                raise ApiError(422, "bad_seats", f"seat {i}: a seat is 'human' or 'bot'")
        try:
            state = adapter.new_state(players, options, seed)
        except ValueError as e:
            raise ApiError(422, "bad_setup", str(e)) from None
        tokens: dict[int, str] = {}
        if issue_tokens:
            for i, info in enumerate(infos):
                if info.kind == "human":
                    tok = new_token()
                    tokens[i] = tok
                    info.token_hash = hash_token(tok)
        gid = secrets.token_urlsafe(9)
        setup = adapter.setup_of(state)
        stored = {**setup, "_options": options}
        created = utcnow()
        with Session(self.engine) as s, s.begin():
            s.add(
                GameRow(
                    id=gid,
                    kind=kind,
                    players=players,
                    setup=json.dumps(stored),
                    status="finished" if state.finished else "playing",
                    created_at=created,
                    rematch_of=rematch_of,
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
                        joined=info.joined,
                    )
                )
        live = Live(
            id=gid,
            adapter=adapter,
            state=state,
            options=options,
            seats=infos,
            moves=[],
            pending=None,
            created_at=created,
            rematch_of=rematch_of,
        )
        self.games[gid] = live
        log.info("game %s created: %d players, %s", gid, players, kind)
        return live, tokens

    # -- seats -------------------------------------------------------------

    def seat_of(self, live: Live, token: str | None) -> int:
        """The seat whose credential ``token`` is; 403 otherwise."""
        if not token:
            raise ApiError(401, "no_token", "this needs your seat's token (header X-Seat-Token)")
        h = hash_token(token)
        for i, s in enumerate(live.seats):
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                return i
        raise ApiError(403, "bad_token", "this token is not a seat of this game")

    def seat_or_spectator(self, live: Live, token: str | None) -> int | None:
        return None if not token else self.seat_of(live, token)

    async def join(self, live: Live, seat: int, name: str | None) -> None:
        name = clean_name(name)
        async with live.lock:
            info = live.seats[seat]
            new_name = name or info.name
            with Session(self.engine) as s, s.begin():
                s.execute(
                    update(SeatRow)
                    .where(SeatRow.game_id == live.id, SeatRow.seat == seat)
                    .values(name=new_name, joined=True)
                )
            info.name = new_name
            info.joined = True
        await self.broadcast(live)

    async def rematch(self, live: Live, seat: int) -> tuple[Live, str]:
        """The rematch of a finished game (created by the first who asks) and this seat's token."""
        if not live.finished:
            raise ApiError(409, "not_finished", "a rematch is possible once the game is finished")
        async with live.lock:
            if live.rematch_id is None:
                new, _ = self.create(
                    kind=live.adapter.name,
                    players=len(live.seats),
                    options=live.options,
                    seats=[
                        {"kind": s.kind, "bot": s.bot, "name": s.name if s.kind == "bot" else ""}
                        for s in live.seats
                    ],
                    rematch_of=live.id,
                    issue_tokens=False,
                )
                with Session(self.engine) as s, s.begin():
                    s.execute(
                        update(GameRow).where(GameRow.id == live.id).values(rematch_id=new.id)
                    )
                live.rematch_id = new.id
                created = True
            else:
                new = self.get(live.rematch_id)
                created = False
            info = new.seats[seat]
            if info.token_hash is not None:
                raise ApiError(
                    409,
                    "seat_taken",
                    "your seat in the rematch was already given out; open it from your game list",
                )
            tok = new_token()
            info.token_hash = hash_token(tok)
            info.name = live.seats[seat].name
            with Session(self.engine) as s, s.begin():
                s.execute(
                    update(SeatRow)
                    .where(SeatRow.game_id == new.id, SeatRow.seat == seat)
                    .values(token_hash=info.token_hash, name=info.name)
                )
        if created:
            await self.broadcast(live)
        self.kick_bots(new)
        return new, tok

    # -- views -------------------------------------------------------------

    def view(self, live: Live, seat: int | None, lang: str = "en") -> dict[str, Any]:
        """Everything ``seat`` may see now (None: a spectator): public facts, its observation,
        its options when it is to move, and what its pending choice revealed."""
        st = live.state
        obs = live.adapter.observation(st, seat)
        options: list[str] = []
        pending: dict[str, Any] | None = None
        if seat is not None and st.to_move == seat:
            if live.pending is not None and live.pending.seat == seat:
                reveal, full = live.adapter.game.expand(st, live.pending.option)
                pending = {"option": live.pending.option, "reveal": reveal, "choices": full}
            else:
                options = live.adapter.game.seat_options(st)
        out: dict[str, Any] = {
            "game": live.public(),
            "seat": seat,
            "move_number": len(live.moves),
            "observation": obs,
            "options": options,
            "pending": pending,
        }
        if self.decorate is not None:
            self.decorate(live, out, lang)
        return out

    def record(self, live: Live) -> dict[str, Any]:
        if not live.finished:
            raise ApiError(
                409, "not_finished", "the record (it holds the deck) is given once the game is over"
            )
        return live.adapter.record(live.state, live.names())

    # -- moves -------------------------------------------------------------

    async def move(self, live: Live, seat: int, text: str, expected: int) -> dict[str, Any]:
        """Make ``text`` for ``seat`` if it is that seat's decision number ``expected``."""
        async with live.lock:
            result = self._move_locked(live, seat, text, expected)
        await self.broadcast(live)
        self.kick_bots(live)
        return result

    def _move_locked(self, live: Live, seat: int, text: str, expected: int) -> dict[str, Any]:
        st = live.state
        if st.finished:
            raise ApiError(409, "finished", "the game is over: no more moves")
        if expected != len(live.moves):
            raise ApiError(
                409,
                "stale",
                f"this move was meant for move number {expected}, but the game is at move "
                f"number {len(live.moves)}: it was already made or is out of date",
            )
        if st.to_move != seat:
            raise ApiError(409, "not_your_turn", f"it is not your turn: seat {st.to_move} decides")
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            raise ApiError(400, "bad_move", "a move is a non-empty line of notation")
        game = live.adapter.game
        hidden = text.strip().endswith("?")
        if live.pending is not None:
            _reveal, full = game.expand(st, live.pending.option)
            move = "" if hidden else self._canonical(live, text)
            if move not in full:
                raise ApiError(
                    422,
                    "pending_choice",
                    f"you committed to {live.pending.option!r}: choose one of its "
                    f"{len(full)} full moves (there is no going back once the cards are shown)",
                )
            self._commit(live, seat, move)
            return {"ok": True, "applied": move, "move_number": len(live.moves), "pending": None}
        options = game.seat_options(st)
        if hidden:
            option = " ".join(text.split())
            norm = [o for o in options if o.lower() == option.lower()]
            if not norm:
                raise ApiError(422, "illegal", f"{option!r} is not one of your choices now")
            option = norm[0]
            with Session(self.engine) as s, s.begin():
                s.execute(delete(PendingRow).where(PendingRow.game_id == live.id))
                s.add(PendingRow(game_id=live.id, seat=seat, idx=len(live.moves), option=option))
            live.pending = Pending(seat, len(live.moves), option)
            reveal, full = game.expand(st, option)
            log.info("game %s: seat %d committed to a choice", live.id, seat)
            return {
                "ok": True,
                "applied": None,
                "move_number": len(live.moves),
                "pending": {"option": option, "reveal": reveal, "choices": full},
            }
        move = self._canonical(live, text)
        if move not in options:
            raise ApiError(422, "illegal", live.adapter.why_not(st, move))
        self._commit(live, seat, move)
        return {"ok": True, "applied": move, "move_number": len(live.moves), "pending": None}

    @staticmethod
    def _canonical(live: Live, text: str) -> str:
        try:
            return live.adapter.canonical(text)
        except ValueError as e:
            raise ApiError(400, "bad_move", str(e)) from None

    def _commit(self, live: Live, seat: int, move: str) -> None:
        """Store ``move`` (one transaction), then apply it to the live state."""
        nxt = live.state.copy()
        nxt.apply(move)
        idx = len(live.moves)
        with self.engine.begin() as conn:  # SQL Core: the hot path, no ORM session
            conn.execute(
                insert(MoveRow), [{"game_id": live.id, "idx": idx, "seat": seat, "text": move}]
            )
            conn.execute(delete(PendingRow).where(PendingRow.game_id == live.id))
            if nxt.finished:
                conn.execute(update(GameRow).where(GameRow.id == live.id).values(status="finished"))
        live.state = nxt
        live.moves.append(move)
        live.pending = None

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

    async def _run_bots(self, live: Live) -> None:
        try:
            while True:
                if self._bot_to_move(live) is None:
                    return
                await asyncio.sleep(self.bot_delay)
                async with live.lock:
                    seat = self._bot_to_move(live)
                    if seat is None:
                        return
                    bot = live.bots.get(seat)
                    if bot is None:
                        level = live.seats[seat].bot or "greedy"
                        bot = make_bot(level, seed=_seed_int(live.id, seat, len(live.moves)))
                        live.bots[seat] = bot
                    text = bot_move(bot, live.adapter.game, live.state)
                    self._commit(live, seat, live.adapter.canonical(text))
                await self.broadcast(live)
        except asyncio.CancelledError:
            raise
        except Exception as e:
            log.error("game %s: the bot runner stopped (%s)", live.id, type(e).__name__)

    def kick_all(self) -> None:
        for live in list(self.games.values()):
            self.kick_bots(live)

    async def stop(self) -> None:
        tasks = [g.bot_task for g in self.games.values() if g.bot_task is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t

    # -- live clients ------------------------------------------------------

    async def broadcast(self, live: Live) -> None:
        """Send every connected client its own view (after the change is stored)."""
        async with live.send_lock:
            for sub in list(live.subscribers):
                try:
                    await sub.send({"type": "state", **self.view(live, sub.seat, sub.lang)})
                except Exception:
                    live.subscribers.discard(sub)
