"""The store: every SQL statement of the games' tables (games, seats, moves, pending), each
change in one transaction. The database is the truth; the other rooms hold copies.

A change of a game's record (a move, a committed step, an extension's write) goes through
:meth:`Store.commit`: it locks the game's row, checks that the database holds the record
the caller holds (a unique move number backs this up), then writes; a newer record is
refused with :class:`StaleRecord` (another process stored first).

It imports only :mod:`.db` and :mod:`.live` (docs/architecture.md)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import BindParameter, String, bindparam, delete, func, insert, select, update
from sqlalchemy.engine import Connection, CursorResult, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .db import GameRow, MoveRow, PendingRow, SeatRow
from .live import Live, SeatHooks, SeatInfo, Write


class StaleRecord(Exception):
    """The database holds a newer record than the caller: refuse and refresh."""


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


@dataclass
class GameRows:
    """A game's record as stored: its row, seats, moves and pending choice."""

    row: GameRow
    seats: list[SeatRow]
    moves: list[MoveRow]
    pending: PendingRow | None


@dataclass
class News:
    """What the database holds of a game beyond move number ``from_idx``."""

    seats: list[SeatRow]
    moves: list[MoveRow]
    pending: PendingRow | None
    rematch_id: str | None


def _changed_one(res: Any) -> bool:
    return cast("CursorResult[Any]", res).rowcount == 1


def _seat_rows(s: Session, game_id: str) -> list[SeatRow]:
    """The seats of ``game_id``, in order."""
    return list(s.scalars(select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)))


class Store:
    """The games' tables over ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- reading -----------------------------------------------------------

    def read_game(self, game_id: str) -> GameRows | None:
        """The stored record of ``game_id``; None if there is no such game."""
        with Session(self.engine) as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return None
            seats = _seat_rows(s, game_id)
            moves = list(
                s.scalars(select(MoveRow).where(MoveRow.game_id == game_id).order_by(MoveRow.idx))
            )
            return GameRows(row, seats, moves, s.get(PendingRow, game_id))

    def read_news(self, game_id: str, from_idx: int) -> News | None:
        """The seats, the moves from number ``from_idx``, the pending choice and the rematch
        of ``game_id``; None if there is no such game."""
        with Session(self.engine) as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return None
            seats = _seat_rows(s, game_id)
            new = list(
                s.scalars(
                    select(MoveRow)
                    .where(MoveRow.game_id == game_id, MoveRow.idx >= from_idx)
                    .order_by(MoveRow.idx)
                )
            )
            return News(seats, new, s.get(PendingRow, game_id), row.rematch_id)

    def unfinished_ids(self) -> list[str]:
        with Session(self.engine) as s:
            return list(s.scalars(select(GameRow.id).where(GameRow.status == "playing")))

    def public_ids(
        self, limit: int, offset: int, game: str | None, status: str | None
    ) -> list[str]:
        """The public games' ids, newest first (:meth:`.tables.Tables.list_games`)."""
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
            return list(s.scalars(q))

    def move_counts(self, ids: list[str]) -> dict[str, int]:
        """How many moves each game of ``ids`` has stored (a game without any: absent)."""
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

    # -- a new game --------------------------------------------------------

    def insert_game(
        self,
        game: GameRow,
        infos: list[SeatInfo],
        hooks: list[SeatHooks],
        rated: bool,
        refuse_rated: Callable[[], Exception],
    ) -> None:
        """Store a new game and its seats in one transaction; each hook's ``creating`` may
        refuse it (nothing is stored). A rated game without hooks: ``refuse_rated()``."""
        gid = game.id
        with Session(self.engine) as s, s.begin():
            s.add(game)
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
            if rated and not hooks:
                raise refuse_rated()
            if hooks:
                s.flush()
            for hook in hooks:  # may refuse the game (ApiError): nothing is stored
                hook.creating(s, gid, infos, rated)

    @staticmethod
    def game_row(
        *,
        gid: str,
        kind: str,
        players: int,
        stored: dict[str, Any],
        finished: bool,
        created: datetime,
        rematch_of: str | None,
        bot_secret: str,
        private: bool,
    ) -> GameRow:
        return GameRow(
            id=gid,
            kind=kind,
            players=players,
            setup=json.dumps(stored),
            status="finished" if finished else "playing",
            created_at=created,
            rematch_of=rematch_of,
            bot_secret=bot_secret,
            private=private,
        )

    def link_rematch(self, game_id: str, new_id: str) -> bool:
        """Record ``new_id`` as the rematch of ``game_id`` unless it has one already (then
        the game ``new_id`` is deleted): whether it was recorded."""
        with Session(self.engine) as s, s.begin():
            res = s.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.rematch_id.is_(None))
                .values(rematch_id=new_id)
            )
            created = _changed_one(res)
            if not created:
                s.execute(delete(SeatRow).where(SeatRow.game_id == new_id))
                s.execute(delete(GameRow).where(GameRow.id == new_id))
        return created

    # -- seats -------------------------------------------------------------

    def claim_seat(
        self,
        game_id: str,
        seat: int,
        *,
        invite_hash: str | None,
        token_hash: str,
        name: str,
        joined: bool,
        unclaimed: bool = False,
    ) -> bool:
        """Give ``seat`` the token ``token_hash`` in place of its invitation ``invite_hash``
        (with ``unclaimed``: only while it has no token); whether it was still there."""
        q = update(SeatRow).where(
            SeatRow.game_id == game_id, SeatRow.seat == seat, SeatRow.invite_hash == invite_hash
        )
        if unclaimed:
            q = q.where(SeatRow.token_hash.is_(None))
        with Session(self.engine) as s, s.begin():
            res = s.execute(
                q.values(token_hash=token_hash, invite_hash=None, name=name, joined=joined)
            )
            return _changed_one(res)

    def replace_token(self, game_id: str, seat: int, old: str | None, new: str) -> bool:
        """The seat's token ``old`` replaced by ``new``; whether ``old`` was still its token."""
        with Session(self.engine) as s, s.begin():
            res = s.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat, SeatRow.token_hash == old)
                .values(token_hash=new)
            )
            return _changed_one(res)

    def give_free_seat(self, game_id: str, seat: int, token_hash: str, name: str) -> bool:
        """A seat without a token (a rematch's) gets ``token_hash`` and ``name``; whether it
        had none still."""
        with Session(self.engine) as s, s.begin():
            res = s.execute(
                update(SeatRow)
                .where(
                    SeatRow.game_id == game_id,
                    SeatRow.seat == seat,
                    SeatRow.token_hash.is_(None),
                )
                .values(token_hash=token_hash, name=name)
            )
            return _changed_one(res)

    def join_seat(self, game_id: str, seat: int, name: str) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                .values(name=name, joined=True)
            )

    # -- a game's record: moves, committed steps, extensions' writes -------------

    def commit(self, live: Live, write: Write) -> None:
        """One transaction: lock the game's row, check that the database holds the record
        ``live`` holds (moves and pending choice), then ``write``. A newer record (another
        process stored first): :class:`StaleRecord`, nothing written. SQL Core on
        prepared statements: this is the hot path of every move."""
        p = live.pending
        mine = None if p is None else (p.seat, p.idx, p.option)
        gid = {"gid": live.id}
        try:
            with self.engine.begin() as conn:
                conn.execute(_LOCK_GAME, gid)
                row = conn.execute(_CHECK_RECORD, gid).first()
                if row is None:  # the game's row is gone
                    raise StaleRecord
                n, pseat, pidx, poption = row
                has_pending = pidx is not None
                theirs = None if pidx is None or pidx != n else (pseat, pidx, poption)
                # (a pending row of an earlier move number is left over: not a choice now)
                if n != len(live.moves) or theirs != mine:
                    raise StaleRecord
                write(conn, has_pending)
        except IntegrityError:
            raise StaleRecord from None

    @staticmethod
    def hand_seat(conn: Connection, game_id: str, seat: int, bot: str | None) -> bool:
        """In ``conn``'s transaction: a human's seat goes to the bot ``bot`` (a takeover), or
        a bot's seat back to its human (``bot`` None: a reclaim); whether the seat was still
        the other kind."""
        was, kind = ("human", "bot") if bot is not None else ("bot", "human")
        res = conn.execute(
            update(SeatRow)
            .where(SeatRow.game_id == game_id, SeatRow.seat == seat, SeatRow.kind == was)
            .values(kind=kind, bot=bot)
        )
        return _changed_one(res)

    @staticmethod
    def write_step(game_id: str, seat: int, idx: int, option: str) -> Write:
        """The write of a seat's commitment to the hidden step ``option`` at move ``idx``."""

        def write(conn: Connection, has_pending: bool) -> None:
            if has_pending:
                conn.execute(_DELETE_PENDING, {"gid": game_id})
            conn.execute(
                _INSERT_PENDING,
                {"game_id": game_id, "seat": seat, "idx": idx, "option": option},
            )

        return write

    @staticmethod
    def write_move(
        game_id: str,
        seat: int,
        idx: int,
        text: str,
        finished: bool,
        also: Callable[[Connection], None],
    ) -> Write:
        """The write of move number ``idx`` (and ``also``'s, in the same transaction);
        the pending choice goes, and the game is finished with its last move."""

        def write(conn: Connection, has_pending: bool) -> None:
            conn.execute(_INSERT_MOVE, {"game_id": game_id, "idx": idx, "seat": seat, "text": text})
            also(conn)
            if has_pending:
                conn.execute(_DELETE_PENDING, {"gid": game_id})
            if finished:
                conn.execute(_FINISH_GAME, {"gid": game_id})

        return write
