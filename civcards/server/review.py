"""The review of a finished game (issue 20): its analysis by the search bot, run in the
background in a small pool of worker processes, stored with the game, and the hints of
games created with hints allowed.

* ``/review/{id}``: the review page of a finished game of this table (or of a pasted
  record); ``/review``: paste or upload a record. A game in progress has no review (its
  moves would show what a seat holds): refused with 409 ``not_finished``.
* ``GET /api/review/{id}``: the moves in words, the result, and the analysis so far with
  its progress (:mod:`civcards.analysis`); ``GET /api/review/{id}/position``: the
  position before a move, as one seat saw it or whole; ``POST /api/review``: a pasted
  record (a finished game of any registered game), reviewed under an id of its own.
* ``POST /api/games/{id}/hint``: the bot's suggested move for the caller's own seat, in
  a game created with ``hints`` (computed in the pool from the seat's information set;
  stored, and shown as "hint used" in everyone's log).

The analysis pool (:class:`AnalysisPool`) has ``CIVCARDS_ANALYSIS_WORKERS`` processes (1
by default); each game is analysed a few moves at a time, so a hint waits for one task
at most, and the table's own work never waits for it (the event loop only awaits).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import multiprocessing
import os
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import (
    Column,
    DateTime,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from ..analysis import (
    GAME_SECONDS,
    AnalysisError,
    analyse_indices,
    annotate,
    assemble,
    check_bot,
    chunks,
    fitted_bot,
    parse_record,
    state_at,
    suggest,
)
from ..bots import TABLE_SEARCHES, table_search
from ..bots.ismcts import parse_budget
from ..game_api import Game, GameError
from ..i18n import LANGS, normalize_lang
from .botpool import end_pool, init_analysis_worker, wait_pools
from .core import ApiError, Live, SeatInfo, TableServer, bot_seed
from .i18n_web import catalogue, page_lang, seat_names
from .kinds import game_title, web_module

log = logging.getLogger("civcards.server.review")

HERE = os.path.dirname(__file__)

#: the budget of the table's analyses: a time budget a decision, so that every game's review
#: ends in a bounded time; a long game's decisions get less
#: (:func:`civcards.analysis.fitted_bot`), so that a review takes about
#: :data:`~civcards.analysis.GAME_SECONDS` at most on one core (issue 38: 60 s a game).
#: The bot is the game's strongest search (:func:`~civcards.bots.table_search`) unless
#: ``CIVCARDS_ANALYSIS_BOT`` names one for every game.
DEFAULT_ANALYSIS_BUDGET = "250ms"
#: the budget of a hint, by the game's strongest search unless ``CIVCARDS_HINT_BOT`` names one
DEFAULT_HINT_BUDGET = "1s"
#: the analysis workers' niceness: the table's requests and bots come first
WORKER_NICE = 10
#: the length of a pasted record's review id ("r" and hex digits; a table's game ids are
#: shorter)
PASTED_LEN = 24
#: moves analysed by one task of the pool
CHUNK = 4
#: the most reviews waiting for the pool; more are refused (a page asks again later)
MAX_QUEUED = 200
#: a review "running" without news for so long was left by a process that stopped: again
STALE_SECONDS = 300.0

_META = MetaData()
ANALYSES = Table(
    "analyses",
    _META,
    Column("id", String(32), primary_key=True),
    Column("record", Text, nullable=True),
    Column("status", String(16), nullable=False),
    Column("done", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    Column("bot", String(40), nullable=False),
    Column("data", Text, nullable=True),
    Column("error", String(300), nullable=True),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)
HINTS = Table(
    "hint_uses",
    _META,
    Column("game_id", String(32), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("move", String(200), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

REVIEW_ID = Annotated[str, PathParam(max_length=32, description="The game's or review's id.")]
TOKEN = Annotated[
    str | None,
    Header(alias="X-Seat-Token", max_length=200, description="The seat's secret token."),
]


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(t: datetime) -> datetime:
    return t if t.tzinfo else t.replace(tzinfo=UTC)


# --------------------------------------------------------------------------- the pool


class AnalysisPool:
    """A bounded pool of worker processes for analyses and hints, and the queue of
    reviews waiting for it (one coordinator task a worker, each analysing one game at a
    time, a few moves a task)."""

    def __init__(self, engine: Engine, workers: int, bot: str | None, hint_bot: str | None) -> None:
        self.engine = engine
        self.workers = max(1, workers)
        #: the bots the server's settings name for every game (None: each game's own)
        self.bot = bot
        self.hint_bot = hint_bot
        self._pool: ProcessPoolExecutor | None = None
        self._queue: asyncio.Queue[tuple[str, str]] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        #: the reviews queued or running in this process
        self.busy: set[str] = set()

    def bot_for(self, game: Game) -> str:
        """The bot of ``game``'s reviews: the one the settings name, else the game's
        strongest search at :data:`DEFAULT_ANALYSIS_BUDGET` a decision."""
        return self.bot or f"{table_search(game)}:{DEFAULT_ANALYSIS_BUDGET}"

    def hint_bot_for(self, game: Game) -> str:
        """The bot of ``game``'s hints, likewise at :data:`DEFAULT_HINT_BUDGET`."""
        return self.hint_bot or f"{table_search(game)}:{DEFAULT_HINT_BUDGET}"

    def executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: a fresh interpreter, never a fork of the server's threads and sockets
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                # in botpool.py: the worker imports that module, not this one's web stack
                initializer=init_analysis_worker,
                initargs=(os.getpid(), WORKER_NICE),
            )
        return self._pool

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor(), fn, *args)

    def enqueue(self, rid: str, record: str) -> bool:
        """Queue the review ``rid`` of ``record`` (JSON); False when the queue is full."""
        if rid in self.busy:
            return True
        if self._queue is None:
            self._queue = asyncio.Queue()
            self._tasks = [
                asyncio.get_running_loop().create_task(self._work()) for _ in range(self.workers)
            ]
        if self._queue.qsize() >= MAX_QUEUED:
            return False
        self.busy.add(rid)
        self._queue.put_nowait((rid, record))
        return True

    async def _work(self) -> None:
        assert self._queue is not None
        while True:
            rid, record = await self._queue.get()
            try:
                await self._analyse(rid, record)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the review fails; the table goes on
                log.exception("the analysis of %s failed", rid)
                msg = str(e) if isinstance(e, AnalysisError) else "the analysis could not be made"
                self._set(rid, status="failed", error=msg[:300])
            finally:
                self.busy.discard(rid)

    def _set(self, rid: str, **values: Any) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(ANALYSES).where(ANALYSES.c.id == rid).values(updated_at=_now(), **values)
            )

    async def _analyse(self, rid: str, record: str) -> None:
        game, rec = parse_record(record)
        n = len(rec["moves"])
        seed = int.from_bytes(hashlib.sha256(rid.encode()).digest()[:4], "big")
        spec = self.bot_for(game)
        self._set(rid, status="running", done=0, total=n, bot=spec, error=None)
        moves: list[dict[str, Any]] = []
        done = 0
        start = time.monotonic()
        for task in chunks(n, CHUNK):
            # a time budget a decision fitted to what is left of the game's time (a long
            # game's decisions get less, so that its review ends in GAME_SECONDS or so)
            left = GAME_SECONDS - (time.monotonic() - start)
            bot = fitted_bot(spec, n - done, left)
            moves += await self.run(analyse_indices, record, task, bot, seed)
            done += len(task)
            partial = assemble(game, rec, spec, seed, moves)
            self._set(rid, done=done, data=json.dumps(partial))
        final = assemble(game, rec, spec, seed, moves)
        self._set(rid, status="done", done=n, data=json.dumps(final))
        log.info("review %s analysed: %d moves", rid, n)

    async def stop(self) -> None:
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        self._tasks = []
        self._queue = None
        if self._pool is not None:
            # an analysis in progress is abandoned (a review left running is taken up
            # again: STALE_SECONDS); its workers and the pool's thread end before the
            # server does
            wait_pools(end_pool(self._pool))
            self._pool = None


def _row(conn: Connection, rid: str) -> Any:
    return conn.execute(select(ANALYSES).where(ANALYSES.c.id == rid)).first()


def _start(
    engine: Engine, pool: AnalysisPool, game: Game, rid: str, record: str, *, stored: bool
) -> str:
    """Make sure the review ``rid`` of a game of ``game`` exists and is analysed (queued
    unless done or running in some process); its status."""
    with engine.begin() as conn:
        row = _row(conn, rid)
        if row is None:
            try:
                conn.execute(
                    insert(ANALYSES).values(
                        id=rid,
                        record=record if stored else None,
                        status="queued",
                        done=0,
                        total=0,
                        bot=pool.bot_for(game),
                        updated_at=_now(),
                    )
                )
            except IntegrityError:  # another process made it first
                return "queued"
            status = "queued"
            fresh = True
        else:
            status = str(row.status)
            age = (_now() - _aware(row.updated_at)).total_seconds()
            fresh = status in ("queued", "running") and age > STALE_SECONDS
    if rid not in pool.busy and (fresh or status == "queued"):
        pool.enqueue(rid, record)
    return status


# --------------------------------------------------------------------------- models


class ReviewMove(BaseModel):
    index: int
    seat: int | None
    text: str
    words: str


class AnalysisOut(BaseModel):
    model_config = ConfigDict(extra="allow")

    status: str = Field(description="queued, running, done or failed.")
    done: int = Field(description="Moves analysed so far.")
    total: int = Field(description="Moves to analyse.")
    bot: str
    error: str | None = None
    data: dict[str, Any] | None = Field(
        description="The analysis so far (civcards analyse --json; docs/analysis.md)."
    )


class ReviewOut(BaseModel):
    model_config = ConfigDict(extra="allow")

    id: str
    game: str
    title: str
    players: int
    names: list[str]
    moves: list[ReviewMove]
    winners: list[int]
    result: str
    hints: list[dict[str, Any]] = Field(description="The hints used: {seat, index, move}.")
    words: dict[str, str] = Field(description="The bot's preferred moves in words.")
    analysis: AnalysisOut
    link: str


class PasteBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    record: dict[str, Any] = Field(description="A finished game's record (any game).")


class PasteOut(BaseModel):
    id: str
    link: str


class HintOut(BaseModel):
    move: str = Field(description="The suggested move (a hidden step's text: its cards unseen).")
    words: str
    move_number: int


# --------------------------------------------------------------------------- the router


def review_settings(env: Mapping[str, str]) -> tuple[int, str | None, str | None]:
    """(workers, analysis bot, hint bot) from ``CIVCARDS_ANALYSIS_WORKERS``,
    ``CIVCARDS_ANALYSIS_BOT`` and ``CIVCARDS_HINT_BOT``; a bot not set is None (each game's
    strongest search, :meth:`AnalysisPool.bot_for`); ValueError with a sentence."""
    text = env.get("CIVCARDS_ANALYSIS_WORKERS", "").strip() or "1"
    if not text.isdigit() or not 1 <= int(text) <= 64:
        raise ValueError(f"CIVCARDS_ANALYSIS_WORKERS={text!r} must be a whole number from 1 to 64")
    bots: list[str | None] = []
    for var in ("CIVCARDS_ANALYSIS_BOT", "CIVCARDS_HINT_BOT"):
        spec = env.get(var, "").strip()
        if not spec:
            bots.append(None)
            continue
        name, _, arg = spec.partition(":")
        if name not in TABLE_SEARCHES:
            raise ValueError(
                f"{var}={spec!r} must name a search bot (ismcts:BUDGET or ismcts+net:BUDGET)"
            )
        try:
            parse_budget(arg.partition(":")[0] or None)
        except ValueError as e:
            raise ValueError(f"{var}: {e}") from None
        bots.append(spec)
    return int(text), bots[0], bots[1]


def review_router(server: TableServer) -> APIRouter:
    """The review's routes; hooks the analysis of every game that ends on ``server``."""
    engine = server.engine
    pool = AnalysisPool(engine, *review_settings(os.environ))
    server.on_stop.append(pool.stop)  # its workers end with the server's
    router = APIRouter()
    templates = Jinja2Templates(directory=os.path.join(HERE, "templates"))
    #: hints used per game held in memory: [{seat, index, move}]
    used: dict[str, list[dict[str, Any]]] = {}

    def hints_of(gid: str) -> list[dict[str, Any]]:
        got = used.get(gid)
        if got is None:
            with engine.connect() as conn:
                rows = conn.execute(
                    select(HINTS).where(HINTS.c.game_id == gid).order_by(HINTS.c.idx)
                ).all()
            got = used[gid] = [{"seat": r.seat, "index": r.idx, "move": r.move} for r in rows]
            if len(used) > 4000:
                used.clear()
                used[gid] = got
        return got

    # -- hooks: a game ends -> its analysis; every view says which hints were used ----

    def finished_game(live: Live) -> None:
        if not live.finished:  # the store failed: nothing ended
            return
        record = json.dumps(live.game.record(live.state, live.names()))
        try:
            _start(engine, pool, live.game, live.id, record, stored=False)
        except Exception:
            log.exception("the analysis of %s could not be queued", live.id)

    seen_loop: list[asyncio.AbstractEventLoop] = []

    def on_move(_conn: Connection, live: Live, _seat: int, nxt: Any, _idx: int) -> None:
        if not nxt.finished:
            return
        # after the store (this runs inside its transaction): queue once it is done
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # a worker thread: the server's loop, once known
            if seen_loop:
                seen_loop[0].call_soon_threadsafe(finished_game, live)
            return
        if not seen_loop:
            seen_loop.append(loop)
        loop.call_soon(finished_game, live)

    def on_view(live: Live, view: dict[str, Any]) -> None:
        if getattr(live, "hints", False):
            # that a hint was used, never what it said (it would show the seat's cards)
            view["hints_used"] = [
                {"seat": h["seat"], "index": h["index"]} for h in hints_of(live.id)
            ]

    def on_load(live: Live) -> bool:
        if not getattr(live, "hints", False):
            return False
        before = used.pop(live.id, None)
        return hints_of(live.id) != (before or [])

    for name, hook in (("on_move", on_move), ("on_view", on_view), ("on_load", on_load)):
        hooks = getattr(server, name, None)
        if isinstance(hooks, list):
            hooks.append(hook)

    # -- what a review shows ----------------------------------------------------------

    def finished_live(rid: str) -> Live:
        live = server.get(rid)  # 404 for an unknown game
        if not live.finished:
            raise ApiError(
                409,
                "not_finished",
                "a game is reviewed once it is over (its moves would show what a seat holds)",
            )
        return live

    def pasted(rid: str) -> tuple[Game, dict[str, Any]]:
        with engine.connect() as conn:
            row = _row(conn, rid)
        if row is None or row.record is None:
            raise ApiError(404, "no_review", "there is no such review")
        return parse_record(row.record)

    def source(rid: str) -> tuple[Live, dict[str, Any], bool]:
        """A live game (a table's, or a pasted record's stand-in), its record, stored."""
        if not (len(rid) == PASTED_LEN and rid.startswith("r")):
            live = finished_live(rid)
            return live, live.game.record(live.state, live.names()), False
        game, rec = pasted(rid)
        state = game.from_record(rec)
        n = int(state.n)
        names = rec.get("names")
        if not (isinstance(names, list) and len(names) == n):
            names = [f"Seat {i + 1}" for i in range(n)]
        live = Live(
            id=rid,
            game=game,
            state=state,
            options={},
            seats=[SeatInfo("human", None, str(x)[:64], None, True) for x in names],
            moves=list(rec["moves"]),
            pending=None,
            created_at=_now(),
        )
        return live, rec, True

    def analysis_of(game: Game, rid: str, record: dict[str, Any], stored: bool) -> dict[str, Any]:
        _start(engine, pool, game, rid, json.dumps(record), stored=stored)
        with engine.connect() as conn:
            row = _row(conn, rid)
        if row is None:  # pragma: no cover - made just above
            bot = pool.bot_for(game)
            return {"status": "queued", "done": 0, "total": 0, "bot": bot, "data": None}
        return {
            "status": row.status,
            "done": row.done,
            "total": row.total or len(record.get("moves") or []),
            "bot": row.bot,
            "error": row.error,
            "data": json.loads(row.data) if row.data else None,
        }

    @router.get(
        "/api/review/{rid}",
        tags=["review"],
        summary="The review of a finished game: its moves, and the analysis so far",
        response_model=ReviewOut,
    )
    async def review_api(rid: REVIEW_ID, lang: Annotated[str, Query(max_length=10)] = "en") -> Any:
        live, rec, stored = source(rid)
        lang = normalize_lang(lang)
        names = seat_names(live.seats, lang)  # as the table names them (a bot's in lang)
        game = live.game
        moves = []
        for i, state, move in _walk(game, rec):
            try:
                words = game.describe_move(move, names, lang, past=True)
            except Exception:
                words = move
            moves.append({"index": i, "seat": state.to_move, "text": move, "words": words})
        res = game.result(live.state)
        try:
            result = game.describe_result(live.state, names, lang)
        except Exception:
            result = ""
        analysis = analysis_of(live.game, rid, rec, stored)
        said: dict[str, str] = {}
        for m in (analysis.get("data") or {}).get("moves", []):
            best = m.get("best")
            if isinstance(best, str) and best not in said:
                try:
                    said[best] = game.describe_move(best, names, lang)
                except Exception:
                    said[best] = best
        return {
            "id": rid,
            "game": game.name,
            "title": game_title(game, lang),
            "players": len(names),
            "names": names,
            "moves": moves,
            "winners": list(res.winners) if res is not None else [],
            "result": result,
            "hints": [] if stored else hints_of(rid),
            "analysis": analysis,
            "words": said,
            "link": f"/review/{rid}",
        }

    @router.get(
        "/api/review/{rid}/position",
        tags=["review"],
        summary="The position before a move of a finished game: as a seat saw it, or whole",
    )
    async def review_position(
        rid: REVIEW_ID,
        move: Annotated[int, Query(ge=0, le=100000, description="Moves made before it.")] = 0,
        seat: Annotated[
            int | None, Query(ge=0, le=16, description="The seat; left out: the whole position.")
        ] = None,
        lang: Annotated[str, Query(max_length=10)] = "en",
    ) -> dict[str, Any]:
        live, rec, _ = source(rid)
        game = live.game
        n_moves = len(rec["moves"])
        if move > n_moves:
            raise ApiError(422, "bad_move", f"the game has {n_moves} moves, not {move}")
        if seat is not None and seat >= len(live.seats):
            raise ApiError(422, "bad_seat", f"there is no seat {seat} in this game")
        state = state_at(game, rec, move)
        at = replace(live, state=state, moves=list(rec["moves"][:move]), pending=None)

        def view_of(who: int | None) -> dict[str, Any]:
            """What the table shows ``who`` (None: a spectator) in this position."""
            view: dict[str, Any] = {
                "game": at.public(),
                "seat": who,
                "move_number": move,
                "observation": game.observe(state, who).to_json(),
                "options": [],
                "pending": None,
            }
            if server.decorate is not None:
                server.decorate(at, view, lang)
            return view

        if seat is None:
            # the whole position: the public board, and every seat's own view (drawn by
            # the game's module as the table draws them), and the position's JSON
            return {
                "move_number": move,
                "seat": None,
                "view": view_of(None),
                "seats": [view_of(s) for s in range(len(live.seats))],
                "position": game.position_json(state),
            }
        return {"move_number": move, "seat": seat, "view": view_of(seat)}

    @router.get(
        "/api/review/{rid}/annotated",
        tags=["review"],
        summary="The annotated record: the record with its analysis under `annotations`",
        responses={
            200: {
                "description": "The record with its analysis (civcards replay ignores it).",
                "content": {"application/json": {"schema": {"type": "object"}}},
            }
        },
    )
    async def annotated(rid: REVIEW_ID) -> Response:
        live, rec, stored = source(rid)
        analysis = analysis_of(live.game, rid, rec, stored)
        if analysis["status"] != "done" or not analysis["data"]:
            raise ApiError(409, "not_analysed", "the analysis of this game is not done yet")
        return Response(
            json.dumps(annotate(rec, analysis["data"]), ensure_ascii=False, indent=1),
            media_type="application/json",
            headers={
                "Content-Disposition": f'attachment; filename="{live.game.name}-{rid}-review.json"'
            },
        )

    @router.post(
        "/api/review",
        tags=["review"],
        summary="Review a pasted record (a finished game of any registered game)",
        status_code=201,
        response_model=PasteOut,
    )
    async def paste(body: PasteBody) -> dict[str, Any]:
        try:
            game, rec = parse_record(body.record)
            check_bot(game, pool.bot_for(game))
        except AnalysisError as e:
            raise ApiError(422, "bad_record", str(e)) from None
        text = json.dumps(rec, sort_keys=True)
        rid = "r" + hashlib.sha256(text.encode()).hexdigest()[: PASTED_LEN - 1]
        _start(engine, pool, game, rid, text, stored=True)
        return {"id": rid, "link": f"/review/{rid}"}

    @router.post(
        "/api/games/{rid}/hint",
        tags=["play"],
        summary="The bot's suggested move for your seat (games created with hints allowed)",
        response_model=HintOut,
    )
    async def hint(
        rid: REVIEW_ID,
        x_seat_token: TOKEN = None,
        lang: Annotated[str, Query(max_length=10)] = "en",
    ) -> dict[str, Any]:
        live, seat = server.seat_at(rid, x_seat_token)
        if not getattr(live, "hints", False):
            raise ApiError(403, "no_hints", "this game was created without hints")
        if live.finished or live.state.to_move != seat:
            raise ApiError(409, "not_your_turn", "a hint is given on your own turn")
        idx = len(live.moves)
        known = [h for h in hints_of(live.id) if h["index"] == idx]
        if known:
            text = str(known[0]["move"])
        else:
            record = json.dumps(live.game.record(live.state))
            pending = live.pending.option if live.pending is not None else None
            seed = bot_seed(live.bot_secret or live.id, seat, idx) ^ 0x4117
            try:
                hint_bot = pool.hint_bot_for(live.game)
                text = await pool.run(suggest, record, seat, hint_bot, seed, pending)
            except (AnalysisError, GameError, ValueError) as e:
                raise ApiError(409, "no_hint", f"no hint can be given now: {e}") from None
            if len(live.moves) != idx:
                raise ApiError(409, "stale", "the game moved on meanwhile: ask again")
            try:
                with engine.begin() as conn:
                    conn.execute(
                        insert(HINTS).values(
                            game_id=live.id, idx=idx, seat=seat, move=text, created_at=_now()
                        )
                    )
            except IntegrityError:
                pass
            used.pop(live.id, None)
            await server.broadcast(live)  # everyone's log: a hint was used
        try:
            lang = normalize_lang(lang)
            words = live.game.describe_move(text, seat_names(live.seats, lang), lang)
        except Exception:
            words = text
        return {"move": text, "words": words, "move_number": idx}

    # -- pages -----------------------------------------------------------------------

    def page(request: Request, **ctx: Any) -> HTMLResponse:
        lang = page_lang(request)
        return templates.TemplateResponse(
            request,
            "review.html",
            {"lang": lang, "t": catalogue(lang), "langs": LANGS, **ctx},
            headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"},
        )

    @router.get("/review", response_class=HTMLResponse, include_in_schema=False)
    async def paste_page(request: Request) -> HTMLResponse:
        return page(request, review_id="", module="", title="")

    @router.get("/review/{rid}", response_class=HTMLResponse, include_in_schema=False)
    async def review_page(request: Request, rid: REVIEW_ID) -> HTMLResponse:
        live, _rec, _ = source(rid)
        return page(
            request,
            review_id=rid,
            module=f"/static/{web_module(live.game)}",
            title=game_title(live.game, page_lang(request)),
        )

    return router


def _walk(game: Game, rec: dict[str, Any]) -> list[tuple[int, Any, str]]:
    """(index, the state before the move, the move): the seat to move is read at once."""
    out = []
    from ..analysis import positions

    for i, state, move in positions(game, rec):
        out.append((i, _Mover(state.to_move), move))
    return out


class _Mover:
    __slots__ = ("to_move",)

    def __init__(self, to_move: int | None) -> None:
        self.to_move = to_move


__all__ = ["AnalysisPool", "review_router", "review_settings"]
