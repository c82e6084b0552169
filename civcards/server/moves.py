"""The move pipeline: a seat's move is checked at its move number, matched against its
choices (at the level its steps lead to), applied to a copy of the state, stored (one
transaction, :meth:`.cache.GameCache.commit`), and only then made live. A hidden step is
stored as the seat's commitment; a step that hides nothing is only expanded.

It imports :mod:`.cache`, :mod:`.broadcast`, :mod:`.views`, :mod:`.store`, :mod:`.live`
and the game API (docs/architecture.md)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy.engine import Connection

from ..game_api import Choice, Game, MoveError
from .broadcast import Fanout
from .cache import GameCache
from .live import ApiError, Live, Pending, SeatHooks, record_mark, tell
from .store import Store
from .views import expansion, pending_step

log = logging.getLogger("civcards.server")

#: how many steps the server expands looking for a whole move sent without its steps
SEARCH_BUDGET = 64

#: an extension's part of a move's transaction: connection, game, seat, the new state,
#: move number
OnMove = Callable[[Connection, Live, int, Any, int], None]


def find_choice(choices: list[Choice], said: str, *, step: bool) -> Choice | None:
    """The choice ``said`` names among ``choices``: a step (``step``) by its text in
    any case, a final choice by its exact text."""
    low = said.lower()
    for c in choices:
        if c.final != step and (c.text == said or (step and c.text.lower() == low)):
            return c
    return None


def below_steps(game: Game, state: Any, choices: list[Choice], move: str) -> bool:
    """Whether the whole move ``move`` is a final choice below the steps of ``choices``
    that hide nothing (breadth first, :data:`SEARCH_BUDGET` expansions at most)."""
    queue = [c for c in choices if not c.final and not c.hidden]
    budget = SEARCH_BUDGET
    while queue and budget > 0:
        budget -= 1
        below = game.expand(state, queue.pop(0)).choices
        if find_choice(below, move, step=False) is not None:
            return True
        queue += [c for c in below if not c.final and not c.hidden]
    return False


def choices_at(live: Live, st: Any, steps: Sequence[str]) -> list[Choice]:
    """The seat's choices where ``steps`` lead: from its pending step's, or its own."""
    game = live.game
    if live.pending is not None:
        choices = game.expand(st, pending_step(live)).choices
    else:
        choices = game.choices(st)
    for text in steps:
        said = " ".join(str(text).split())
        step = find_choice(choices, said, step=True)
        if step is None or step.hidden:
            raise ApiError(
                422,
                "illegal",
                f"{said!r} is not a step of your choices now (a hidden step is sent as the "
                "move itself, and committed to)",
            )
        choices = game.expand(st, step).choices
    return choices


class MovePipeline:
    def __init__(
        self, cache: GameCache, fanout: Fanout, hooks: list[SeatHooks], on_move: list[OnMove]
    ) -> None:
        self.cache = cache
        self.fanout = fanout
        self.hooks = hooks
        self.on_move = on_move

    async def move(
        self, live: Live, seat: int, text: str, expected: int, steps: Sequence[str] = ()
    ) -> dict[str, Any]:
        """Make ``text`` for ``seat`` if it is that seat's decision number ``expected``
        (under the game's lock; the clients are told by the caller)."""
        async with live.lock:
            before = record_mark(live)
            try:
                return self.move_locked(live, seat, text, expected, steps)
            except ApiError:
                if record_mark(live) != before:  # refused, but a refresh found news
                    await self.fanout.broadcast(live)
                raise

    def move_locked(
        self, live: Live, seat: int, text: str, expected: int, steps: Sequence[str] = ()
    ) -> dict[str, Any]:
        if self.fanout.shared and expected != len(live.moves):
            # this process may not have heard of a move stored through another one yet
            self.cache.sync(live)
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
        choices = choices_at(live, st, steps)
        # a step: a hidden one is stored (binding: its cards are shown next); one that
        # hides nothing is only expanded for the seat (nothing is stored)
        step = find_choice(choices, said, step=True)
        if step is not None:
            exp = game.expand(st, step)
            if not step.hidden:
                return {
                    "ok": True,
                    "applied": None,
                    "move_number": len(live.moves),
                    "pending": pending_json(live, st),
                    "expansion": expansion(step.text, exp, False),
                }
            self.commit_step(live, seat, step.text)
            log.info("game %s: seat %d committed to a choice", live.id, seat)
            return {
                "ok": True,
                "applied": None,
                "move_number": len(live.moves),
                "pending": expansion(step.text, exp, True),
            }
        # a whole move: parsed once (or not at all when its text is a choice's), checked
        # against the seat's choices, applied to a copy, stored, then made live
        nxt = st.copy()
        pick = find_choice(choices, said, step=False)
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
                and find_choice(choices, move, step=False) is None
                and (steps or not below_steps(game, st, choices, move))
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
        self.commit(live, seat, nxt, move)
        return {"ok": True, "applied": move, "move_number": len(live.moves), "pending": None}

    def commit_step(self, live: Live, seat: int, option: str) -> None:
        """Store the seat's commitment to the hidden step ``option`` (before it is shown)."""
        idx = len(live.moves)
        self.cache.commit(live, Store.write_step(live.id, seat, idx, option))
        live.pending = Pending(seat, idx, option)

    def commit(self, live: Live, seat: int, nxt: Any, move: str) -> None:
        """Store ``move`` (one transaction), then make ``nxt`` (the live state with the move
        applied to a copy) the live state: no one hears of a move before it is stored."""
        idx = len(live.moves)
        finished = bool(nxt.finished)

        def also(conn: Connection) -> None:
            for moved in self.on_move:
                moved(conn, live, seat, nxt, idx)

        self.cache.commit(live, Store.write_move(live.id, seat, idx, move, finished, also))
        live.state = nxt
        live.moves.append(move)
        live.pending = None
        live.changed_at = time.monotonic()
        if finished:
            tell(self.hooks, "finished", live)

    async def play_bot_move(self, live: Live, seat: int, expected: int, text: str) -> bool:
        """Store ``text``, a bot's move for ``seat`` at move number ``expected``, after
        checking it with ``game.play`` under the game's lock; False (nothing stored) when
        the game has moved on meanwhile. Then tells the clients. MoveError for a move that
        is not legal (a worker's bug)."""
        async with live.lock:
            if len(live.moves) != expected or live.state.to_move != seat or live.finished:
                return False
            if live.pending is not None:
                return False
            nxt = live.state.copy()
            self.commit(live, seat, nxt, live.game.play(nxt, text))
        await self.fanout.changed(live)
        return True


def pending_json(live: Live, st: Any) -> dict[str, Any] | None:
    if live.pending is None:
        return None
    step = pending_step(live)
    return expansion(step.text, live.game.expand(st, step), True)
