"""The typed answers of the HTTP API and the WebSocket frames (the OpenAPI schema's
components; docs/api.md explains them).

Everything that is the same for every game is typed field by field. What a game shows in
its own way (its ``observation``, its set-up ``options``, its ``board``, a step's
``reveal``) is a JSON object whose fields that game defines; a client generic over games
needs only the typed fields: the choices it is offered, the move number, whose turn it is.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class ChoiceOut(BaseModel):
    """One choice offered to the seat to move."""

    text: str = Field(description="Send this text as the move (POST .../moves).")
    final: bool = Field(
        description="True: a whole move. False: a step; sending it answers its expansion "
        "(its own choices below it)."
    )
    hidden: bool = Field(
        description="A step that commits to something hidden (binding once sent: its cards "
        "show next, as the view's pending)."
    )


class ExpansionOut(BaseModel):
    """A step expanded: what it revealed to the seat and the choices below it."""

    option: str = Field(description="The step's text.")
    hidden: bool = Field(description="True for a hidden step committed to (stored).")
    reveal: Any = Field(default=None, description="What the step revealed (game-specific JSON).")
    choices: list[ChoiceOut]


class StepExpansionOut(ExpansionOut):
    """A step that hides nothing, expanded (nothing stored), with its choices in words."""

    words: dict[str, str] = Field(
        default_factory=dict, description="The choices' texts in words, in the request's language."
    )


# -- clocks, takeovers, open tables (civcards/server/clocks.py) -----------------------


class ClockIn(BaseModel):
    """A clock for a new game (POST /api/games's ``clock``)."""

    model_config = ConfigDict(extra="forbid")

    type: str = Field(
        default="none",
        max_length=16,
        description="none (the default), move (seconds per move), game (base seconds for "
        "the whole game plus an increment after each move: Fischer) or days "
        "(correspondence: days per move).",
    )
    seconds: int | None = Field(
        default=None, strict=True, description="move: seconds per move (1 to 86400)."
    )
    base: int | None = Field(
        default=None, strict=True, description="game: seconds for the whole game (1 to 604800)."
    )
    increment: int | None = Field(
        default=None,
        strict=True,
        description="game: seconds added after each of the seat's moves (0 to 3600; default 0).",
    )
    days: int | None = Field(
        default=None, strict=True, description="days: days per move (1 to 30)."
    )


class ClockSpecOut(BaseModel):
    """A game's clock settings, as created."""

    type: Literal["none", "move", "game", "days"]
    seconds: int | None = Field(description="move: seconds per move.")
    base: int | None = Field(description="game: seconds for the whole game.")
    increment: int | None = Field(description="game: seconds added after each move.")
    days: int | None = Field(description="days: days per move.")
    takeover_bot: str = Field(description="The bot that takes a seat over.")
    grace: int = Field(
        description="Seconds the seat to move may keep the table waiting before the others "
        "may vote it out."
    )


class TakeoverOut(BaseModel):
    """A bot took a seat over, or its player took it back (also in the record's
    ``takeovers``)."""

    seat: int
    move: int = Field(
        description="The move number from which the bot played the seat (reclaimed: from "
        "which its player played it again)."
    )
    bot: str = Field(description="The bot (reclaimed: the bot that had played it).")
    reason: Literal["timeout", "resigned", "vote", "reclaimed"] = Field(
        description="timeout, resigned or vote: the bot took the seat over; reclaimed: its "
        "player, whose time had run out, took it back (POST /api/games/{id}/reclaim)."
    )


class ReclaimStateOut(BaseModel):
    """The viewer's seat, taken over because its time ran out, may be taken back."""

    seat: int = Field(description="The viewer's former seat.")
    pending: bool = Field(
        description="Asked for already: the seat is the player's again once the bot has "
        "ended the turn it plays."
    )


class ReclaimOut(BaseModel):
    seat: int
    back: bool = Field(
        description="True: the seat is yours again now (another seat is to move). False: "
        "from the start of your next turn, once the bot has ended the turn it plays."
    )


class VoteStateOut(BaseModel):
    """The vote on the seat to move (a human seat)."""

    seat: int = Field(description="The seat to move.")
    opens_at: str = Field(
        description="When the others may vote it out (ISO 8601): its turn's start plus the "
        "grace period."
    )
    votes: list[int] = Field(description="The seats that voted it out so far.")
    needed: int = Field(description="How many votes give it to the bot.")
    can_vote: bool = Field(description="Whether the viewer may vote (once it opens).")


class ClockOut(ClockSpecOut):
    """The clocks as a seat sees them (a view's ``clock``). Times are instants, so a view
    stays the same until something changes: count down to ``deadline``."""

    running: int | None = Field(description="The seat whose clock runs (null: none).")
    remaining: list[float | None] = Field(
        description="Each seat's time in seconds for its move: the running seat's at the "
        "start of its turn, the others' for their next move; null for bots and games "
        "without a clock."
    )
    started: str | None = Field(description="When the seat to move's turn began (ISO 8601).")
    deadline: str | None = Field(description="When the running clock runs out (ISO 8601).")
    vote: VoteStateOut | None = Field(description="The vote on the seat to move, if human.")
    takeovers: list[TakeoverOut]
    reclaim: ReclaimStateOut | None = Field(
        default=None,
        description="The viewer's seat may be taken back (a bot took it when its time ran "
        "out): POST /api/games/{id}/reclaim. Null otherwise.",
    )


class VoteOut(BaseModel):
    seat: int = Field(description="The seat voted on.")
    votes: list[int]
    needed: int
    taken_over: bool = Field(description="The vote passed: the bot plays the seat now.")


class SeatOut(BaseModel):
    """A seat's public facts."""

    seat: int
    kind: Literal["human", "bot"]
    bot: str | None = Field(description="The bot's name (bots only).")
    name: str
    joined: bool = Field(description="Its player has taken the seat (join).")
    claimed: bool = Field(description="Its invitation is used (or it is a bot).")
    free: bool = Field(
        default=False,
        description="A human seat waiting for its player (its invitation unused): in a public "
        "game, anyone may take it (POST /api/games/{id}/sit).",
    )


class GameOut(BaseModel):
    """A game's public facts."""

    model_config = ConfigDict(extra="allow")

    id: str
    game: str = Field(description="The game's registered name (GET /api/kinds).")
    title: str
    players: int
    options: dict[str, Any] = Field(description="The set-up options (the game's own).")
    status: Literal["playing", "finished"]
    private: bool = Field(description="Not listed in GET /api/games.")
    seats: list[SeatOut]
    move_number: int = Field(description="How many moves have been made.")
    to_move: int | None = Field(description="The seat to move (null: nobody).")
    created_at: str = Field(description="ISO 8601 time.")
    rematch_of: str | None
    rematch_id: str | None
    bot_secret: str | None = Field(
        description="The bots' seed secret, once the game is over (null before)."
    )
    clock: ClockSpecOut | None = Field(
        default=None, description="The clock settings (null: a game stored before clocks)."
    )
    takeovers: list[TakeoverOut] = Field(
        default_factory=list, description="The seats bots took over (clocks, resigning, votes)."
    )
    hints: bool = Field(
        default=False, description="Its creator allowed hints (POST /api/games/{id}/hint)."
    )


class ResultOut(BaseModel):
    """Who won and why (a finished game)."""

    model_config = ConfigDict(extra="allow")

    winners: list[int]
    winners_text: str
    reason: str
    scores: list[Any]
    shared: bool
    why: str


class HintUsedOut(BaseModel):
    """A hint a seat asked for (POST /api/games/{id}/hint)."""

    seat: int
    index: int = Field(description="The move number it was asked at.")


class ViewOut(BaseModel):
    """The game as one seat (or a spectator) sees it."""

    model_config = ConfigDict(extra="allow")

    game: GameOut
    seat: int | None = Field(description="The viewer's seat (null: a spectator).")
    move_number: int = Field(description="Send it as `expected` with your move.")
    observation: dict[str, Any] = Field(description="What the seat sees (game-specific).")
    options: list[ChoiceOut] = Field(description="The seat's choices (empty: not its turn).")
    pending: ExpansionOut | None = Field(
        description="A hidden step committed to: choose among its choices."
    )
    lang: str = "en"
    names: list[str] = Field(default_factory=list, description="The seats' names.")
    log: list[Any] = Field(default_factory=list, description="The moves in words.")
    words: dict[str, str] = Field(default_factory=dict, description="The choices in words.")
    result: ResultOut | None = None
    board: dict[str, Any] = Field(default_factory=dict, description="Game-specific display.")
    clock: ClockOut | None = Field(default=None, description="The clocks and the vote now.")
    hints_used: list[HintUsedOut] | None = Field(
        default=None,
        description="In a game created with hints: the hints used (who, at which move; never "
        "what they said).",
    )


class OptionsOut(BaseModel):
    move_number: int
    to_move: int | None
    options: list[ChoiceOut]
    pending: ExpansionOut | None


class JoinOut(BaseModel):
    seat: int
    token: str | None = Field(
        description="The seat's own token when an invitation was claimed (shown once); "
        "null when joined with the seat's token."
    )
    game: GameOut


class SeatTokenOut(BaseModel):
    seat: int
    token: str = Field(description="The seat's own token: send it as X-Seat-Token.")


class SetupOut(BaseModel):
    ok: Literal[True]
    game: str
    options: dict[str, Any] = Field(description="The options, normalised, defaults filled in.")


class OptionSpecOut(BaseModel):
    model_config = ConfigDict(extra="allow")

    name: str
    kind: str = Field(description="bool, int or choice.")
    default: Any
    help: str
    label: str
    choices: list[str] | None = None
    labels: dict[str, str] | None = None
    minimum: int | None = None
    maximum: int | None = None


class BotOut(BaseModel):
    name: str
    label: str


class KindOut(BaseModel):
    model_config = ConfigDict(extra="allow")

    name: str
    title: str
    note: str
    min_players: int
    max_players: int
    options: list[OptionSpecOut]
    bots: list[BotOut]
    default_bot: str
    module: str


class KindsOut(BaseModel):
    games: list[KindOut]


class HealthOut(BaseModel):
    ok: bool
    games_loaded: int


class ReadyOut(BaseModel):
    ok: bool
    database: str = Field(description="ok, or unavailable (why).")
    redis: str | None = Field(default=None, description="ok or unavailable (shared servers).")


# -- WebSocket /ws/{game_id} ----------------------------------------------------------


class WsHello(BaseModel):
    """The client's first message (within 20 s); later messages may change ``lang``."""

    token: str | None = Field(description="The seat's own token, or null to watch.")
    lang: str = Field(default="en", max_length=10)


class WsStateFrame(ViewOut):
    """A frame from the server: the position as this socket's seat sees it, sent at
    connection and after every change."""

    type: Literal["state"]


class WsErrorFrame(BaseModel):
    """A frame from the server: something refused (the socket may be closed next)."""

    type: Literal["error"]
    code: str = Field(
        description="bad_hello, bad_message, too_large, rate_limited, too_many_connections, "
        "bad_origin, not_found, bad_token, db_unavailable, ..."
    )
    detail: str


WS_MODELS: tuple[type[BaseModel], ...] = (WsHello, WsStateFrame, WsErrorFrame)


# -- accounts (optional; docs/accounts.md) -------------------------------------


class AccountOut(BaseModel):
    """An account (only ever shown to itself)."""

    id: str
    name: str
    created_at: str = Field(description="When it was registered (ISO 8601).")


class SessionOut(BaseModel):
    """Who this browser's session cookie belongs to."""

    account: AccountOut | None = Field(description="The account logged in; null: anonymous.")
    csrf: str | None = Field(
        description="The session's CSRF token: send it as the X-CSRF-Token header with every "
        "change made with the session cookie (POST /api/account/...). Null: not logged in."
    )


class AccountGameOut(BaseModel):
    """A game one of the account's seats is in (the history)."""

    id: str
    game: str = Field(description="The game's registered name.")
    title: str
    seat: int = Field(description="The account's seat.")
    names: list[str] = Field(description="The seats' names, in seat order ('' where none).")
    status: Literal["playing", "finished"]
    created_at: str
    rated: bool
    result: Literal["won", "lost", "shared"] | None = Field(
        description="How it ended for the account's seat; null while it is played."
    )
    rating_before: float | None = Field(
        description="A rated game: the account's rating (ordinal, mu - 3 sigma) before it."
    )
    rating_after: float | None = Field(description="… and after it (null until it is over).")


class RatingOut(BaseModel):
    """The account's rating at one game (openskill's Plackett-Luce model)."""

    game: str
    title: str
    mu: float
    sigma: float
    ordinal: float = Field(description="The rating shown: mu - 3 sigma.")
    games: int = Field(description="Rated games counted.")
    wins: float = Field(description="Rated games won (a shared victory counts its share).")


class OkOut(BaseModel):
    ok: Literal[True]
