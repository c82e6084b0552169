"""Clocks, absent players and open tables: the server's side of a table that goes on.

A game may be created with a clock (``clock`` in POST /api/games):

- ``{"type": "none"}`` (the default): no clock;
- ``{"type": "move", "seconds": S}``: each move gets S seconds;
- ``{"type": "game", "base": B, "increment": I}``: each seat has B seconds for the whole
  game, and gains I seconds after each of its moves (Fischer);
- ``{"type": "days", "days": D}``: correspondence, D days a move.

A *move* is one decision the game asks of a seat (a CIV turn is several moves: its plays,
then ``end``). Only human seats' clocks run; a bot's never does. The clock of the seat to
move runs from the moment the previous move was stored, whether or not its player has
taken the seat yet (an open seat nobody takes in time gets a bot).

A seat leaves the game when its clock runs out, when its player resigns, or when the
other players vote it out after it has kept the table waiting for the game's grace period
(``grace``, seconds; a vote needs a majority of the other human seats that are held). A
bot of the creator's choice (``takeover_bot``, default the game's own default bot) takes
the seat for the rest of the game, and plays it like any other bot seat
(:meth:`TableServer.kick_bots`). The record notes each takeover in a top-level
``takeovers`` list beside ``moves`` (``{"seat", "move", "bot", "reason"}``: from move
number ``move`` on, ``bot`` played ``seat``, because of ``reason``: ``timeout``,
``resigned`` or ``vote``); every game's ``from_record`` accepts and ignores it, so the
record replays as before. A seat taken over because its time ran out is its player's
again for the start of their next turn when they ask (:meth:`Clocks.reclaim`): noted in
``takeovers`` too (``reclaimed``: from move number ``move`` on, the player played it).

The server enforces the clocks, never the browser: a loop (:meth:`Clocks.check`, every
:attr:`Clocks.tick` seconds) reads the database for deadlines past, so a game evicted
from memory, or held by another process, is timed all the same. Clocks survive restarts:
deadlines are stored in *service time*, the wall clock less the time during which no
server ran (table ``clock_service``: each server beats every ``CIVCARDS_CLOCK_BEAT``
seconds, 5 by default; a server stopped cleanly says so). Downtime does not count against
anyone: after a clean stop the whole gap is forgiven, after a crash the gap is forgiven
when it is longer than two beats (a crash and a restart within 10 s counts those seconds
against the seat to move).

Open tables: a public game's free seat (a human seat whose invitation is unused) may be
taken by anyone (POST /api/games/{id}/sit), as its invitation would.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from dataclasses import replace
from datetime import UTC, datetime
from typing import Annotated, Any, cast

from fastapi import APIRouter, Header
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import (
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, CursorResult
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .clock_state import (
    CLOCK_TYPES,
    RECLAIMS,
    UPDATE_CLOCK,
    ClockRow,
    ClockState,
    SeatGone,
    ServiceRow,
    ServiceTime,
    allowance,
    check_clock,
    spec_of,
    turn_state,
)
from .core import (
    DB_DOWN,
    ApiError,
    Live,
    TableServer,
    clean_name,
)
from .db import PendingRow
from .models import ClockIn, GameOut, JoinOut, ReclaimOut, VoteOut
from .names import seat_name
from .store import Store

log = logging.getLogger("civcards.server")

# -- the clocks -----------------------------------------------------------------------------


def beat_from_env() -> float:
    text = os.environ.get("CIVCARDS_CLOCK_BEAT", "").strip()
    if not text:
        return 5.0
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"CIVCARDS_CLOCK_BEAT={text!r} is not a number") from None
    if not 0.1 <= value <= 3600:
        raise ValueError(f"CIVCARDS_CLOCK_BEAT={text!r} must be from 0.1 to 3600 seconds")
    return value


class Clocks:
    """The clocks of a :class:`TableServer`'s games: kept with each move (in the move's
    transaction), shown in the views, enforced by :meth:`check`."""

    def __init__(self, server: TableServer, *, tick: float = 0.25, beat: float | None = None):
        self.server = server
        self.tick = tick
        self.service = ServiceTime(server.engine, beat_from_env() if beat is None else beat)
        self._task: asyncio.Task[None] | None = None
        #: games whose timeout could not be handled (not hosted here): not tried again
        self._skip: set[str] = set()
        server.on_create.append(self._created)
        server.on_move.append(self._moved)
        server.on_load.append(self._loaded)
        server.on_view.append(self._view)

    # -- hooks of the table server --

    def _created(self, live: Live) -> None:
        """A game was stored: its first turn's clock starts now."""
        spec = spec_of(live)
        remaining = [float(spec["base"])] * len(live.seats) if spec["type"] == "game" else []
        st = turn_state(live, spec, live.state, 0, self.service.now(), remaining, [])
        with self.server.engine.begin() as conn:
            conn.execute(insert(ClockRow).values(game_id=live.id, **st.values()))
        live.clock_state = st

    def _moved(self, conn: Connection, live: Live, seat: int, nxt: Any, idx: int) -> None:
        """In the transaction storing move ``idx`` by ``seat``: the next turn's clock."""
        spec = spec_of(live)
        now = self.service.now()
        old = cast("ClockState | None", live.clock_state)
        if (
            old is not None
            and old.idx == idx
            and old.seat == seat
            and old.deadline is not None
            and now > old.deadline
            and live.seats[seat].kind == "human"
        ):
            # the time ran out before the move came (the bot takes the seat in a moment):
            # refused, and the move's transaction with it
            raise ApiError(
                409, "out_of_time", "your time ran out before this move: a bot plays your seat"
            )
        remaining = list(old.remaining) if old is not None else []
        if spec["type"] == "game":
            if len(remaining) != len(live.seats):
                remaining = [float(spec["base"])] * len(live.seats)
            if (
                old is not None
                and old.idx == idx
                and old.seat == seat
                and old.deadline is not None
                and live.seats[seat].kind == "human"
            ):
                # what was left of its time (service time: downtime not counted), plus the
                # increment
                left = old.deadline - now
                remaining[seat] = max(0.0, left) + float(spec["increment"])
        takeovers = list(old.takeovers) if old is not None else list(live.takeovers)
        reclaims = list(old.reclaims) if old is not None else []
        if self.server.shared:  # another process may have taken a reclaim meanwhile
            got = conn.execute(RECLAIMS, {"gid": live.id}).scalar()
            reclaims = [int(x) for x in json.loads(got or "[]")]
        if reclaims:
            reclaims = self._give_back(conn, live, nxt, idx + 1, reclaims, takeovers)
        st = turn_state(live, spec, nxt, idx + 1, now, remaining, takeovers, reclaims)
        self._write(conn, live.id, st)
        live.clock_state = st
        live.takeovers = list(st.takeovers)

    @staticmethod
    def _give_back(
        conn: Connection,
        live: Live,
        nxt: Any,
        idx: int,
        reclaims: list[int],
        takeovers: list[dict[str, Any]],
    ) -> list[int]:
        """In the transaction storing a move: the seats of ``reclaims`` whose turn the bot
        has ended (another seat to move in ``nxt``, the state at move number ``idx``) are
        their players' again (``takeovers`` notes it); the reclaims left. A game over
        gives nothing back."""
        if nxt.finished:
            return []
        left = []
        for seat in reclaims:
            if nxt.to_move == seat:
                left.append(seat)
                continue
            info = live.seats[seat]
            if not Store.hand_seat(conn, live.id, seat, None):
                continue
            takeovers.append({"seat": seat, "move": idx, "bot": info.bot, "reason": "reclaimed"})
            info.kind, info.bot = "human", None
            log.info("game %s: seat %d is its player's again", live.id, seat)
        return left

    @staticmethod
    def _write(conn: Connection, gid: str, st: ClockState) -> None:
        values = st.values()
        res = conn.execute(UPDATE_CLOCK, {"gid": gid, **{f"v_{k}": v for k, v in values.items()}})
        if cast("CursorResult[Any]", res).rowcount != 1:
            conn.execute(insert(ClockRow).values(game_id=gid, **values))

    def _loaded(self, live: Live) -> bool:
        """Read the game's clock from the database (a game stored before clocks gets one,
        its turn starting now); True if it changed."""
        with Session(self.server.engine) as s:
            row = s.get(ClockRow, live.id)
            st = ClockState.of(row) if row is not None else None
        if st is None:
            spec = spec_of(live)
            remaining = [float(spec["base"])] * len(live.seats) if spec["type"] == "game" else []
            st = turn_state(
                live, spec, live.state, len(live.moves), self.service.now(), remaining, []
            )
            try:
                with self.server.engine.begin() as conn:
                    conn.execute(insert(ClockRow).values(game_id=live.id, **st.values()))
            except IntegrityError:  # another process was first: read its row
                with Session(self.server.engine) as s:
                    row = s.get(ClockRow, live.id)
                    if row is not None:
                        st = ClockState.of(row)
        changed = bool(live.clock_state != st)
        live.clock_state = st
        live.takeovers = list(st.takeovers)
        return changed

    def _view(self, live: Live, view: dict[str, Any]) -> None:
        view["clock"] = self.clock_view(live, view["seat"], view.get("taken_over_seat"))

    def _wall(self, t: float) -> str:
        """A service time as an ISO 8601 wall-clock time."""
        return datetime.fromtimestamp(t + self.service.downtime, UTC).isoformat()

    def clock_view(
        self, live: Live, viewer: int | None, former: int | None = None
    ) -> dict[str, Any]:
        """The game's clocks as a seat (or a spectator) sees them: the same until something
        changes (times are instants, not countdowns: the browser counts down itself).
        ``former``: the viewer's seat, which a bot plays now (it may be taken back)."""
        spec = spec_of(live)
        st = cast("ClockState | None", live.clock_state)
        remaining: list[float | None] = [None] * len(live.seats)
        for i, s in enumerate(live.seats):
            if s.kind == "human" and spec["type"] != "none":
                allow = allowance(spec, st.remaining if st is not None else [], i)
                remaining[i] = None if allow is None else round(allow, 3)
        running = None
        deadline = None
        started = None
        current = st is not None and st.idx == len(live.moves) and not live.finished
        if current and st is not None:
            started = datetime.fromtimestamp(st.started, UTC).isoformat()
            if st.deadline is not None and st.seat is not None:
                running = st.seat
                deadline = self._wall(st.deadline)
        vote = None
        to_move = live.state.to_move
        if (
            current
            and st is not None
            and to_move is not None
            and live.seats[to_move].kind == "human"
        ):
            voters = self.voters(live, to_move)
            vote = {
                "seat": to_move,
                "opens_at": datetime.fromtimestamp(st.started + spec["grace"], UTC).isoformat(),
                "votes": list(st.votes),
                "needed": len(voters) // 2 + 1,
                "can_vote": viewer in voters and viewer not in st.votes,
            }
        return {
            **{k: spec[k] for k in ("type", "seconds", "base", "increment", "days")},
            "takeover_bot": spec["takeover_bot"],
            "grace": spec["grace"],
            "running": running,
            "remaining": remaining,
            "started": started,
            "deadline": deadline,
            "vote": vote,
            "takeovers": list(live.takeovers),
            "reclaim": self.reclaim_state(live, former),
        }

    @staticmethod
    def reclaimable(live: Live, seat: int) -> str | None:
        """Why ``seat``'s player cannot take it back now (None: they can): only a seat a bot
        took over because its time ran out, while the game is played."""
        if live.finished:
            return "the game is over"
        if live.seats[seat].kind == "human":
            return "you play this seat: there is nothing to take back"
        last = [t for t in live.takeovers if t.get("seat") == seat]
        if not last or last[-1].get("reason") != "timeout":
            return (
                "a seat given up by resigning, or voted out by the others, stays with the bot "
                "for the rest of the game; only a seat whose time ran out may be taken back"
            )
        return None

    def reclaim_state(self, live: Live, former: int | None) -> dict[str, Any] | None:
        if former is None or self.reclaimable(live, former) is not None:
            return None
        st = cast("ClockState | None", live.clock_state)
        return {"seat": former, "pending": st is not None and former in st.reclaims}

    @staticmethod
    def voters(live: Live, absent: int) -> list[int]:
        """The seats that may vote ``absent`` out: the other human seats that are held."""
        return [
            i
            for i, s in enumerate(live.seats)
            if i != absent and s.kind == "human" and s.token_hash is not None
        ]

    # -- the loop --

    def start(self) -> None:
        self.service.open()
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._loop())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        with contextlib.suppress(Exception):
            self.service.beat(stopping=True)

    async def _loop(self) -> None:
        down = False
        while True:
            await asyncio.sleep(self.tick)
            try:
                await self.check()
                down = False
            except DB_DOWN as e:
                if not down:
                    log.warning("clocks: the database is unavailable (%s)", type(e).__name__)
                down = True
            except Exception as e:  # the clocks must go on
                log.error("clocks: a check failed (%s)", type(e).__name__)

    async def check(self) -> int:
        """Beat, and give every seat whose clock ran out to its bot; how many."""
        if self.service.due():
            self.service.beat()
        now = self.service.now()
        with Session(self.server.engine) as s:
            due = list(
                s.execute(
                    select(ClockRow.game_id, ClockRow.idx, ClockRow.seat).where(
                        ClockRow.deadline <= now
                    )
                )
            )
        done = 0
        for gid, idx, seat in due:
            if gid in self._skip or seat is None:
                continue
            try:
                live = self.server.get(gid)
            except ApiError:
                self._skip.add(gid)
                continue
            try:
                if await self.take_over(live, seat, "timeout", idx=idx):
                    done += 1
            except ApiError as e:
                if e.code not in ("stale", "finished", "not_human"):
                    log.warning("game %s: no takeover (%s)", gid, e.code)
        return done

    # -- takeovers --

    async def take_over(
        self, live: Live, seat: int, reason: str, *, idx: int | None = None
    ) -> bool:
        """Give ``seat`` to the game's takeover bot for the rest of the game (a timeout:
        only if its clock for move ``idx`` has run out). True when it was done."""
        async with live.lock:
            done = self._take_over_locked(live, seat, reason, idx=idx)
        if done:
            await self.server.changed(live)
            self.server.kick_bots(live)
        return done

    def _take_over_locked(self, live: Live, seat: int, reason: str, *, idx: int | None) -> bool:
        server = self.server
        if server.shared:
            server.sync(live)
        if live.finished:
            raise ApiError(409, "finished", "the game is over")
        info = live.seats[seat]
        if info.kind != "human":
            raise ApiError(409, "not_human", f"a bot already plays seat {seat}")
        st = cast("ClockState | None", live.clock_state)
        if st is None:
            self._loaded(live)
            st = cast("ClockState", live.clock_state)
        if reason == "timeout" and (
            idx != len(live.moves)
            or st.idx != idx
            or st.seat != seat
            or st.deadline is None
            or st.deadline > self.service.now()
        ):
            return False  # it moved meanwhile
        spec = spec_of(live)
        bot = spec["takeover_bot"]
        entry = {"seat": seat, "move": len(live.moves), "bot": bot, "reason": reason}
        new = replace(
            st,
            votes=[] if st.seat == seat else list(st.votes),
            deadline=None if st.seat == seat else st.deadline,
            takeovers=[*st.takeovers, entry],
        )
        # a hidden step the seat committed to is void: the bot chooses afresh
        drop = live.pending is not None and live.pending.seat == seat
        gid = live.id

        def write(conn: Connection, has_pending: bool) -> None:
            if not Store.hand_seat(conn, gid, seat, bot):
                raise SeatGone
            self._write(conn, gid, new)
            if drop and has_pending:
                conn.execute(delete(PendingRow).where(PendingRow.game_id == gid))

        try:
            server.store(live, write)
        except SeatGone:
            server.sync(live)
            return False
        info.kind = "bot"
        info.bot = bot
        live.clock_state = new
        live.takeovers = list(new.takeovers)
        if drop:
            live.pending = None
        live.changed_at = time.monotonic()
        log.info("game %s: seat %d taken over by %s (%s)", gid, seat, bot, reason)
        return True

    async def vote(self, live: Live, voter: int, absent: int) -> dict[str, Any]:
        """``voter``'s vote to give ``absent`` (the seat to move) to the bot."""
        async with live.lock:
            server = self.server
            if server.shared:
                server.sync(live)
            if live.finished:
                raise ApiError(409, "finished", "the game is over")
            if not 0 <= absent < len(live.seats):
                raise ApiError(
                    422, "bad_seat", f"there is no seat {absent} in a {len(live.seats)}-player game"
                )
            if live.seats[voter].kind != "human":
                raise ApiError(409, "taken_over", "a bot plays your seat now: it cannot vote")
            if absent == voter:
                raise ApiError(422, "bad_seat", "you cannot vote yourself out: resign instead")
            if live.seats[absent].kind != "human":
                raise ApiError(409, "not_human", f"a bot already plays seat {absent}")
            if live.state.to_move != absent:
                raise ApiError(
                    409,
                    "not_waiting",
                    f"seat {absent} is not keeping the table waiting: only the seat to move "
                    "can be voted out",
                )
            st = cast("ClockState | None", live.clock_state)
            if st is None or st.idx != len(live.moves):
                self._loaded(live)
                st = cast("ClockState", live.clock_state)
            grace = spec_of(live)["grace"]
            waited = time.time() - st.started
            if waited < grace:
                raise ApiError(
                    409,
                    "too_early",
                    f"seat {absent} has been to move for {waited:.0f} s; a vote opens once "
                    f"it has kept the table waiting {grace} s",
                )
            votes = sorted({*st.votes, voter})
            needed = len(self.voters(live, absent)) // 2 + 1
            taken = False
            if len(votes) >= needed:
                taken = self._take_over_locked(live, absent, "vote", idx=None)
            else:
                new = replace(st, votes=votes)
                with server.engine.begin() as conn:
                    res = conn.execute(
                        update(ClockRow)
                        .where(ClockRow.game_id == live.id, ClockRow.idx == st.idx)
                        .values(votes=json.dumps(votes))
                    )
                    if cast("CursorResult[Any]", res).rowcount != 1:
                        self._loaded(live)
                        raise ApiError(409, "stale", "the game moved on: look again and vote")
                live.clock_state = new
        await server.changed(live)
        if taken:
            server.kick_bots(live)
        return {"seat": absent, "votes": votes, "needed": needed, "taken_over": taken}

    async def reclaim(self, live: Live, seat: int) -> dict[str, Any]:
        """``seat``'s player takes it back from the bot that took it over when its time ran
        out, for the start of their next turn: at once when another seat is to move, else
        once the bot has ended the turn it plays (:meth:`_give_back`, in that move's
        transaction). Never after resigning or a vote (:meth:`reclaimable`)."""
        server = self.server
        async with live.lock:
            if server.shared:
                server.sync(live)
            st = cast("ClockState | None", live.clock_state)
            if st is None or st.idx != len(live.moves):
                self._loaded(live)
                st = cast("ClockState", live.clock_state)
            info = live.seats[seat]
            why = self.reclaimable(live, seat)
            if why is not None:
                code = "finished" if live.finished else "no_reclaim"
                raise ApiError(409, "not_taken_over" if info.kind == "human" else code, why)
            back = live.state.to_move != seat
            if not back and seat in st.reclaims:
                return {"seat": seat, "back": False}  # asked already
            gid = live.id
            if back:
                entry = {
                    "seat": seat,
                    "move": len(live.moves),
                    "bot": info.bot,
                    "reason": "reclaimed",
                }
                left = [s for s in st.reclaims if s != seat]
                new = replace(st, takeovers=[*st.takeovers, entry], reclaims=left)
            else:
                new = replace(st, reclaims=sorted({*st.reclaims, seat}))

            def write(conn: Connection, has_pending: bool) -> None:
                if back and not Store.hand_seat(conn, gid, seat, None):
                    raise SeatGone
                self._write(conn, gid, new)

            try:
                server.store(live, write)
            except SeatGone:
                server.sync(live)
                raise ApiError(409, "stale", "the seat changed meanwhile: look again") from None
            if back:
                info.kind, info.bot = "human", None
                live.takeovers = list(new.takeovers)
                log.info("game %s: seat %d is its player's again", gid, seat)
            live.clock_state = new
        await server.changed(live)
        return {"seat": seat, "back": back}

    # -- open tables --

    async def sit(self, live: Live, seat: int | None, name: str | None) -> tuple[int, str]:
        """Take a free seat of a public game (the first free one when ``seat`` is None):
        the seat's own token (shown once), as its invitation would have given. With a
        ``name``, the seat is joined at once (:meth:`TableServer.join`'s rules); without,
        the table asks for the name as after a claimed invitation."""
        server = self.server
        name = clean_name(name)
        if live.private:
            raise ApiError(
                403,
                "private",
                "this game is private: its seats are taken with the links its creator sent",
            )
        async with live.lock:
            if server.shared:
                server.sync(live)
            if live.finished:
                raise ApiError(409, "finished", "the game is over")
            free = [i for i, s in enumerate(live.seats) if free_seat(s)]
            if seat is None:
                if not free:
                    raise ApiError(409, "no_free_seat", "every seat of this game is taken")
                seat = free[0]
            elif not 0 <= seat < len(live.seats):
                raise ApiError(
                    422, "bad_seat", f"there is no seat {seat} in a {len(live.seats)}-player game"
                )
            elif seat not in free:
                raise ApiError(409, "seat_taken", f"seat {seat} is not free")
            for h in getattr(server, "hooks", []):  # may refuse (a rated game's seat)
                h.claiming(live, seat)
            info = live.seats[seat]
            new_name = seat_name(live, seat, name)
            tok = server.seats.give(
                live, seat, name=new_name, joined=info.joined or bool(name), unclaimed=True
            )
            if tok is None:
                raise ApiError(409, "seat_taken", f"seat {seat} was taken meanwhile")
        log.info("game %s: open seat %d taken", live.id, seat)
        await server.changed(live)
        return seat, tok


def free_seat(info: Any) -> bool:
    """A human seat waiting for its player: its invitation unused."""
    return bool(info.kind == "human" and info.token_hash is None and info.invite_hash is not None)


# -- routes -------------------------------------------------------------------------------

GAME_ID = Annotated[str, PathParam(max_length=32, description="The game's id.")]
TOKEN = Annotated[
    str | None,
    Header(alias="X-Seat-Token", max_length=200, description="The seat's own token."),
]


class VoteBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int = Field(
        strict=True, ge=0, le=64, description="The seat to move that keeps the table waiting."
    )


class SitBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = Field(
        default=None, strict=True, ge=0, le=64, description="The free seat (null: the first)."
    )
    name: str | None = Field(default=None, max_length=64)


def router(clocks: Clocks, errors: dict[int | str, dict[str, Any]]) -> APIRouter:
    """The routes of resigning, taking back a seat lost for time, voting an absent seat out,
    and taking an open seat."""
    r = APIRouter()
    server = clocks.server

    @r.post(
        "/api/games/{game_id}/resign",
        tags=["seats"],
        summary="Resign: the game's takeover bot plays your seat for the rest of the game",
        responses=errors,
        response_model=GameOut,
    )
    async def resign(game_id: GAME_ID, x_seat_token: TOKEN = None) -> dict[str, Any]:
        live, seat = server.seat_at(game_id, x_seat_token)
        await clocks.take_over(live, seat, "resigned")
        return live.public()

    @r.post(
        "/api/games/{game_id}/reclaim",
        tags=["seats"],
        summary="Take back your seat, which a bot took over when your time ran out, for the "
        "start of your next turn",
        responses=errors,
        response_model=ReclaimOut,
    )
    async def reclaim(game_id: GAME_ID, x_seat_token: TOKEN = None) -> dict[str, Any]:
        live, seat = server.seat_at(game_id, x_seat_token)
        return await clocks.reclaim(live, seat)

    @r.post(
        "/api/games/{game_id}/vote",
        tags=["seats"],
        summary="Vote to give the seat to move, absent past the grace period, to the bot",
        responses=errors,
        response_model=VoteOut,
    )
    async def vote(game_id: GAME_ID, body: VoteBody, x_seat_token: TOKEN = None) -> dict[str, Any]:
        live, seat = server.seat_at(game_id, x_seat_token)
        return await clocks.vote(live, seat, body.seat)

    @r.post(
        "/api/games/{game_id}/sit",
        tags=["seats"],
        summary="Take a free seat of a public game (an open table): answers the seat's token",
        responses=errors,
        response_model=JoinOut,
    )
    async def sit(game_id: GAME_ID, body: SitBody | None = None) -> dict[str, Any]:
        live = server.get(game_id)
        body = body or SitBody()
        seat, token = await clocks.sit(live, body.seat, body.name)
        return {"seat": seat, "token": token, "game": live.public()}

    return r


__all__ = [
    "CLOCK_TYPES",
    "ClockIn",
    "ClockRow",
    "ClockState",
    "Clocks",
    "ServiceRow",
    "check_clock",
    "free_seat",
    "router",
    "spec_of",
]
