"""The clocks' settings (:func:`check_clock`), their stored state (:class:`ClockRow`,
:class:`ClockState`, :func:`turn_state`) and service time (:class:`ServiceTime`: the wall
clock less the time no server ran). :mod:`.clocks` runs them over the table server."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    bindparam,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from ..game_api import GameError, get_game
from .botpool import BotSettings
from .core import (
    ApiError,
    Live,
    check_bot,
)
from .db import Base
from .kinds import default_bot

log = logging.getLogger("civcards.server")

CLOCK_TYPES = ("none", "move", "game", "days")
#: seconds a seat to move may keep the table waiting before the others may vote it out
DEFAULT_GRACE = 300
MAX_GRACE = 7 * 86400
#: the most seconds a move (``move``) or a whole game (``game``) may be given
MAX_MOVE_SECONDS = 86400
MAX_BASE_SECONDS = 7 * 86400
MAX_INCREMENT = 3600
MAX_DAYS = 30
DAY = 86400.0
REASONS = ("timeout", "resigned", "vote")


class ClockRow(Base):
    """A game's clock and absent-player state (seconds since the epoch: ``deadline`` in
    service time, ``started`` in wall time)."""

    __tablename__ = "clocks"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    #: the move number the current turn began at
    idx: Mapped[int] = mapped_column(Integer)
    #: the seat to move since then (null: nobody, the game is over)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: when the turn began (wall time: what the views show, the vote's grace counts from it)
    started: Mapped[float] = mapped_column(Float)
    #: when the seat to move runs out of time, in service time (null: no clock runs)
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    #: JSON: each seat's time left at the start of the turn (``game`` clocks), else []
    remaining: Mapped[str] = mapped_column(Text, default="[]")
    #: JSON: the seats voting to replace the seat to move
    votes: Mapped[str] = mapped_column(Text, default="[]")
    #: JSON: the takeovers so far (the record's ``takeovers``)
    takeovers: Mapped[str] = mapped_column(Text, default="[]")
    #: JSON: the seats taken over for time whose players asked for them back while the bot
    #: played their turn: theirs again once it ends (migration 0006_reclaims)
    reclaims: Mapped[str] = mapped_column(Text, default="[]")


class ServiceRow(Base):
    """The one row of the service's heartbeat: service time is wall time less downtime."""

    __tablename__ = "clock_service"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    beat: Mapped[float] = mapped_column(Float)
    downtime: Mapped[float] = mapped_column(Float)
    stopped: Mapped[bool] = mapped_column(Boolean, default=False)


# -- settings -----------------------------------------------------------------------------


def whole_number(value: object, what: str, low: int, high: int, unit: str) -> int:
    if value is None:
        raise ApiError(422, "bad_clock", f"this clock needs {what}")
    if type(value) is not int:
        raise ApiError(422, "bad_clock", f"{what} is a whole number of {unit}")
    if value < low:
        least = unit.removesuffix("s") if low == 1 else unit
        raise ApiError(422, "bad_clock", f"{what} is at least {low} {least}, not {value}")
    if value > high:
        raise ApiError(422, "bad_clock", f"{what} is at most {high:,} {unit}, not {value:,}")
    return value


def check_clock(
    game_name: str,
    clock: Mapping[str, Any] | None,
    takeover_bot: str | None = None,
    grace: int | None = None,
    caps: BotSettings | None = None,
) -> dict[str, Any]:
    """The normalised clock settings of a new game of ``game_name`` (stored with its
    set-up), or :class:`ApiError` with one sentence. ``caps``: the server's bot settings
    (the takeover bot thinks within them; None: the defaults)."""
    try:
        game = get_game(game_name)
    except GameError as e:
        raise ApiError(422, "bad_game", str(e)) from None
    clock = dict(clock or {})
    kind = clock.get("type") or "none"
    if kind not in CLOCK_TYPES:
        raise ApiError(
            422,
            "bad_clock",
            f"there is no clock {kind!r}: choose none, move (seconds per move), game (a "
            "time for the whole game with an increment) or days (days per move)",
        )
    wanted = {"none": (), "move": ("seconds",), "game": ("base", "increment"), "days": ("days",)}
    for key in ("seconds", "base", "increment", "days"):
        if clock.get(key) is not None and key not in wanted[kind]:
            raise ApiError(422, "bad_clock", f"a {kind!r} clock has no {key!r}")
    spec: dict[str, Any] = {
        "type": kind,
        "seconds": None,
        "base": None,
        "increment": None,
        "days": None,
    }
    if kind == "move":
        spec["seconds"] = whole_number(
            clock.get("seconds"), "the seconds per move", 1, MAX_MOVE_SECONDS, "seconds"
        )
    elif kind == "game":
        spec["base"] = whole_number(
            clock.get("base"), "the game's time", 1, MAX_BASE_SECONDS, "seconds"
        )
        inc = clock.get("increment")
        spec["increment"] = whole_number(
            0 if inc is None else inc, "the increment", 0, MAX_INCREMENT, "seconds"
        )
    elif kind == "days":
        spec["days"] = whole_number(clock.get("days"), "the days per move", 1, MAX_DAYS, "days")
    spec["takeover_bot"] = check_bot(
        game, takeover_bot or default_bot(game), "the bot taking over a seat", caps
    )
    spec["grace"] = whole_number(
        DEFAULT_GRACE if grace is None else grace, "the grace period", 1, MAX_GRACE, "seconds"
    )
    return spec


def spec_of(live: Live) -> dict[str, Any]:
    """The game's clock settings (a game stored before clocks: none, the defaults)."""
    if live.clock:
        return live.clock
    return {
        "type": "none",
        "seconds": None,
        "base": None,
        "increment": None,
        "days": None,
        "takeover_bot": default_bot(live.game),
        "grace": DEFAULT_GRACE,
    }


# -- state --------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClockState:
    """A game's clock now: ``started`` in wall time, ``deadline`` in service time."""

    idx: int
    seat: int | None
    started: float
    deadline: float | None
    remaining: list[float] = field(default_factory=list)
    votes: list[int] = field(default_factory=list)
    takeovers: list[dict[str, Any]] = field(default_factory=list)
    #: the seats to give back to their players once the bot ends the turn it plays
    reclaims: list[int] = field(default_factory=list)

    def values(self) -> dict[str, Any]:
        return {
            "idx": self.idx,
            "seat": self.seat,
            "started": self.started,
            "deadline": self.deadline,
            "remaining": json.dumps(self.remaining),
            "votes": json.dumps(self.votes),
            "takeovers": json.dumps(self.takeovers),
            "reclaims": json.dumps(self.reclaims),
        }

    @staticmethod
    def of(row: ClockRow) -> ClockState:
        return ClockState(
            idx=row.idx,
            seat=row.seat,
            started=row.started,
            deadline=row.deadline,
            remaining=[float(x) for x in json.loads(row.remaining or "[]")],
            votes=[int(x) for x in json.loads(row.votes or "[]")],
            takeovers=list(json.loads(row.takeovers or "[]")),
            reclaims=[int(x) for x in json.loads(row.reclaims or "[]")],
        )


def allowance(spec: Mapping[str, Any], remaining: list[float], seat: int) -> float | None:
    """The time ``seat`` has for a move starting now (None: no clock)."""
    kind = spec["type"]
    if kind == "move":
        return float(spec["seconds"])
    if kind == "days":
        return float(spec["days"]) * DAY
    if kind == "game":
        return remaining[seat] if seat < len(remaining) else float(spec["base"])
    return None


def turn_state(
    live: Live,
    spec: Mapping[str, Any],
    state: Any,
    idx: int,
    now: float,
    remaining: list[float],
    takeovers: list[dict[str, Any]],
    reclaims: list[int] | None = None,
) -> ClockState:
    """The clock of a turn starting now (``now``: service time) at move number ``idx`` of
    ``state``."""
    seat = None if state.finished else state.to_move
    deadline = None
    if seat is not None and live.seats[seat].kind == "human":
        allow = allowance(spec, remaining, seat)
        if allow is not None:
            deadline = now + max(0.0, allow)
    return ClockState(
        idx, seat, time.time(), deadline, list(remaining), [], list(takeovers), list(reclaims or [])
    )


#: the clock's row after a move: built once (SQL Core on bound parameters, as the moves'
#: own statements are), it is on the hot path of every move
_CLOCK_FIELDS = (
    "idx",
    "seat",
    "started",
    "deadline",
    "remaining",
    "votes",
    "takeovers",
    "reclaims",
)
UPDATE_CLOCK = (
    update(ClockRow)
    .where(ClockRow.game_id == bindparam("gid", type_=String()))
    .values({f: bindparam(f"v_{f}") for f in _CLOCK_FIELDS})
)


#: the reclaims in the clock's row (read in a move's transaction when processes share games)
RECLAIMS = select(ClockRow.reclaims).where(ClockRow.game_id == bindparam("gid", type_=String()))


class SeatGone(Exception):
    """The seat was taken over meanwhile (another process was first)."""


# -- service time ---------------------------------------------------------------------------


class ServiceTime:
    """Service time: the wall clock less the time during which no server ran."""

    def __init__(self, engine: Engine, beat: float) -> None:
        self.engine = engine
        self.interval = beat
        self.downtime = 0.0
        self.last_beat = 0.0

    def now(self) -> float:
        return time.time() - self.downtime

    def open(self) -> None:
        """At start: forgive the time no server ran (a clean stop's, or a long gap)."""
        now = time.time()
        with self.engine.begin() as conn:
            row = conn.execute(
                select(ServiceRow.beat, ServiceRow.downtime, ServiceRow.stopped)
                .where(ServiceRow.id == 1)
                .with_for_update()
            ).first()
            if row is None:
                try:
                    with conn.begin_nested():
                        conn.execute(
                            insert(ServiceRow).values(id=1, beat=now, downtime=0.0, stopped=False)
                        )
                except IntegrityError:  # another process was first
                    pass
                self.downtime = 0.0
            else:
                beat, downtime, stopped = row
                gap = now - beat
                if gap > 0 and (stopped or gap > 2 * self.interval):
                    downtime += gap
                    log.info("clocks: %.1f s without a server; no clock counts them", gap)
                self.downtime = downtime
                conn.execute(
                    update(ServiceRow)
                    .where(ServiceRow.id == 1)
                    .values(beat=now, downtime=downtime, stopped=False)
                )
        self.last_beat = now

    def beat(self, *, stopping: bool = False) -> None:
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(
                update(ServiceRow)
                .where(ServiceRow.id == 1)
                .where(ServiceRow.beat < now)
                .values(beat=now, stopped=stopping)
            )
            got = conn.execute(select(ServiceRow.downtime).where(ServiceRow.id == 1)).scalar()
        if got is not None:
            self.downtime = float(got)
        self.last_beat = now

    def due(self) -> bool:
        return time.time() - self.last_beat >= self.interval
