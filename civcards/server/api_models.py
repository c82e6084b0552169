"""The HTTP API's bodies, answers and parameters (what the OpenAPI schema shows of the
games, seats and play routes; the views' own models are in :mod:`.models`), its errors'
shape (:class:`Problem`, :data:`ERRORS`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Header, Query
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from ..game_api import DEFAULT_GAME
from .models import ClockIn, ExpansionOut, StepExpansionOut

GAME_ID = Annotated[str, PathParam(max_length=32, description="The game's id.")]
TOKEN = Annotated[
    str | None,
    Header(
        alias="X-Seat-Token",
        max_length=200,
        description="The seat's secret token (from its invitation link). Leave out to watch.",
    ),
]
LANG = Annotated[str, Query(max_length=10, description="Language of the words: en es de fr pt.")]
#: the most seats a game may have at this table (the game's own limits are checked by it)
MAX_SEATS = 16


class Problem(BaseModel):
    detail: str = Field(description="What is wrong, in a sentence.")
    code: str = Field(description="A short machine-readable code.")


class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "bot"] = Field(description="An open human seat or a bot.")
    bot: str | None = Field(
        default=None,
        max_length=24,
        pattern=r"^[a-z][a-z+]*(:[0-9.]+(it|s|ms))?$",
        description="The bot (bots only; default: the game's own first bot, else random): "
        "one of the game's bots (GET /api/kinds), a search bot with a budget a decision "
        "(ismcts:1s as the lobby offers, ismcts:2000it; at most 4000 iterations or 2 s). "
        "Every search stops at the server's seconds a decision, an iteration budget too.",
    )
    name: str | None = Field(default=None, max_length=64)


class CreateGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(
        default=DEFAULT_GAME,
        max_length=40,
        description="The game, by its registered name (GET /api/kinds lists them).",
    )
    players: int = Field(ge=1, le=MAX_SEATS, strict=True, description="The number of players.")
    options: dict[str, Any] = Field(
        default_factory=dict,
        max_length=32,
        description="The game's set-up options (variants) by name; left out: its defaults. "
        "Checked by the game (GET /api/kinds lists each game's options).",
    )
    seats: list[SeatSpec] = Field(min_length=1, max_length=MAX_SEATS)
    seed: int | None = Field(
        default=None,
        strict=True,
        ge=0,
        le=2**63 - 1,
        description="Only on a server started with --allow-seed (tests): the shuffle's seed.",
    )
    private: bool = Field(
        default=True,
        strict=True,
        description="A private game (the default: a game among invited friends) is never "
        "listed in GET /api/games; its seats' holders find it through their links. A public "
        "game (false) is an open table: listed in the lobby for anyone to watch or join.",
    )
    rated: bool = Field(
        default=False,
        strict=True,
        description="A rated game (docs/accounts.md): only for a logged-in creator (the "
        "session cookie), every seat human, and each seat taken by a logged-in account; "
        "its result counts in the accounts' ratings.",
    )
    hints: bool = Field(
        default=False,
        strict=True,
        description="Allow hints: a player may ask for the bot's suggested move "
        "(POST /api/games/{id}/hint); everyone sees that a hint was used. Not with rated.",
    )

    clock: ClockIn | None = Field(
        default=None,
        description="A clock (docs/web.md#clocks-absent-players-open-tables): none (the "
        "default), move (seconds per "
        "move), game (a time for the whole game plus an increment) or days (per move). The "
        "server enforces it: a seat whose time runs out is taken over by `takeover_bot`.",
    )
    takeover_bot: str | None = Field(
        default=None,
        max_length=24,
        description="The bot that takes over a seat whose clock runs out, whose player "
        "resigns or is voted out (default: the game's default bot).",
    )
    grace: int | None = Field(
        default=None,
        strict=True,
        description="Seconds the seat to move may keep the table waiting before the other "
        "players may vote to give it to the bot (default 300; 1 to 604800).",
    )


class SeatLink(BaseModel):
    seat: int
    kind: Literal["human", "bot"]
    bot: str | None
    name: str
    token: str | None = Field(
        description="The seat's invitation (human seats; shown only once). It is not the "
        "seat's credential: whoever uses it first (POST /api/games/{id}/join or /claim) "
        "takes the seat and gets the seat's own token; the invitation is dead then."
    )
    invite: str | None = Field(description="The invitation link (path + #token fragment).")


class Created(BaseModel):
    id: str
    seats: list[SeatLink]
    watch: str


class JoinBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(default=None, max_length=64)


class MoveBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move: str = Field(
        max_length=200,
        description="A move in the game's notation, or the text of one of the view's choices. "
        "A step (a choice that is not final) is expanded: a hidden step is committed to first "
        "(binding: its cards are shown next, as the view's pending), one that hides nothing "
        "is answered with its expansion.",
    )
    expected: int = Field(
        strict=True,
        ge=0,
        le=100000,
        description="The move number this move is meant for (the view's move_number).",
    )
    steps: list[Annotated[str, Field(max_length=200)]] = Field(
        default_factory=list,
        max_length=64,  # a civ4 move was seen 9 steps below the view's choices
        description="The texts of the expanded steps (that hide nothing) this move is below, "
        "from the view's choices down; empty for a choice of the view itself.",
    )
    lang: str = Field(
        default="en",
        max_length=10,
        description="The language of the words of an expansion: en es de fr pt.",
    )


class MoveResult(BaseModel):
    ok: bool
    applied: str | None = Field(description="The move made, in canonical notation.")
    move_number: int
    pending: ExpansionOut | None = Field(
        description="The hidden step committed to: choose among its choices next."
    )
    expansion: StepExpansionOut | None = Field(
        default=None,
        description="A step that hides nothing, expanded, with its choices' words (nothing "
        "was stored; send one of its choices with this step in `steps`).",
    )


class SetupCheck(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: int = Field(ge=1, le=MAX_SEATS, strict=True)
    options: dict[str, Any] = Field(default_factory=dict, max_length=32)


class RematchResult(BaseModel):
    id: str
    seat: int
    token: str
    invite: str


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": Problem},
    401: {"model": Problem},
    403: {"model": Problem},
    404: {"model": Problem},
    409: {"model": Problem},
    422: {"model": Problem},
    413: {"model": Problem},
    429: {"model": Problem},
}


def problem(status: int, code: str, detail: str) -> JSONResponse:
    return JSONResponse({"detail": detail, "code": code}, status_code=status)
