"""Game records (NOTATION.md): read, write, replay, and the position as JSON.

>>> rec = parse_record('{"format": "civ-notation/1", "players": 2, "seed": 1, "moves": []}')
>>> g = rec.new_state()
>>> write_record(g)[:40]
'{"format": "civ-notation/1", "players": '
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .cards import counts_to_str
from .game import ConfigError, GameState, IllegalMoveError, new_game
from .moves import NotationError, parse_move
from .observation import coin_json, markers_json

FORMAT = "civ-notation/1"
#: ``takeovers``: the web table's note of seats that bots took over (docs/web.md), beside
#: the moves; like ``result``, a reader checks nothing against it
_KEYS = {
    "format",
    "players",
    "deal",
    "teams",
    "start",
    "deck",
    "seed",
    "moves",
    "names",
    "result",
    "takeovers",
}


@dataclass
class Record:
    """A game record: the set-up and the moves, as written (moves unchecked)."""

    players: int
    deal: str = "basic"
    teams: bool = False
    start: int | None = None
    deck: str | None = None
    seed: int | str | None = None
    moves: list[Any] = field(default_factory=list)
    names: list[str] | None = None
    result: dict[str, Any] | None = None

    def new_state(self) -> GameState:
        """The position before the first move (raises ConfigError when impossible)."""
        if self.deck is not None:
            return new_game(
                self.players, deal=self.deal, teams=self.teams, deck=self.deck, start=self.start
            )
        return new_game(
            self.players, deal=self.deal, teams=self.teams, seed=self.seed, start=self.start
        )


def _fail(msg: str) -> NotationError:
    return NotationError(msg)


def record_from_obj(obj: Any) -> Record:
    """Check a parsed JSON value and make a :class:`Record`; NotationError if invalid."""
    if not isinstance(obj, dict):
        raise _fail("a game record must be a JSON object")
    unknown = sorted(set(obj) - _KEYS)
    if unknown:
        raise _fail(f"the record has an unknown key {unknown[0]!r}")
    if obj.get("format") != FORMAT:
        raise _fail(f'the record\'s "format" must be "{FORMAT}", not {obj.get("format")!r}')
    players = obj.get("players")
    if type(players) is not int or players not in (2, 3, 4):
        raise _fail(f'"players" must be 2, 3 or 4, not {players!r}')
    deal = obj.get("deal", "basic")
    if deal not in ("basic", "draft"):
        raise _fail(f'"deal" must be "basic" or "draft", not {deal!r}')
    teams = obj.get("teams", False)
    if type(teams) is not bool:
        raise _fail(f'"teams" must be true or false, not {teams!r}')
    if teams and players != 4:
        raise _fail('"teams" is true only with 4 players (R24)')
    start = obj.get("start")
    if start is not None and (type(start) is not int or not 0 <= start < players):
        raise _fail(f'"start" must be a seat from 0 to {players - 1}, not {start!r}')
    deck = obj.get("deck")
    seed = obj.get("seed")
    if deck is None:
        if seed is None:
            raise _fail('the record needs a "deck" (or a "seed" to shuffle one)')
        if type(seed) not in (int, str):
            raise _fail(f'"seed" must be a whole number or a string, not {seed!r}')
    else:
        if not isinstance(deck, str):
            raise _fail('"deck" must be a string of card letters')
        if start is None:
            raise _fail('a record with a "deck" also needs "start", the start player (R5)')
    moves = obj.get("moves", [])
    if not isinstance(moves, list):
        raise _fail('"moves" must be a list of strings')
    names = obj.get("names")
    if names is not None and (
        not isinstance(names, list)
        or len(names) != players
        or not all(isinstance(x, str) for x in names)
    ):
        raise _fail(f'"names" must be a list of {players} strings')
    result = obj.get("result")
    if result is not None and not isinstance(result, dict):
        raise _fail('"result" must be an object')
    takeovers = obj.get("takeovers")
    if takeovers is not None and not isinstance(takeovers, list):
        raise _fail('"takeovers" must be a list')
    rec = Record(players, deal, teams, start, deck, seed, moves, names, result)
    try:
        rec.new_state()
    except ConfigError as e:
        raise _fail(f"the record's set-up is impossible: {e}") from None
    return rec


def parse_record(text: str | bytes) -> Record:
    """Read a record from JSON text; raises NotationError with a sentence."""
    try:
        obj = json.loads(text)
    except UnicodeDecodeError:
        raise _fail("the record is not UTF-8 text") from None
    except json.JSONDecodeError as e:
        raise _fail(f"the record is not valid JSON ({e.msg} at line {e.lineno})") from None
    except RecursionError:
        raise _fail("the record is nested too deeply to be a game record") from None
    return record_from_obj(obj)


def record_dict(g: GameState, names: list[str] | None = None) -> dict[str, Any]:
    rec = g.record()
    if names is not None:
        rec["names"] = list(names)
    return rec


def write_record(g: GameState, names: list[str] | None = None, indent: int | None = None) -> str:
    """The record of ``g`` as JSON text, holding ``deck`` and ``start`` (and ``result``)."""
    return json.dumps(record_dict(g, names), ensure_ascii=False, indent=indent)


@dataclass
class Replay:
    """The outcome of replaying a record."""

    state: GameState
    error: str | None = None
    move_index: int | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def replay(rec: Record) -> Replay:
    """Apply the record's moves; stop before the first illegal or unreadable one."""
    g = rec.new_state()
    for i, text in enumerate(rec.moves):
        if not isinstance(text, str):
            return Replay(g, f"move {i + 1} is not a string but {json.dumps(text)}", i)
        try:
            m = parse_move(text)
        except NotationError as e:
            return Replay(g, f"move {i + 1} cannot be read: {e}", i)
        try:
            g.apply(m)
        except IllegalMoveError as e:
            return Replay(g, f"move {i + 1} ({text.strip()!r}) is illegal: {e.reason}", i)
    return Replay(g)


def position_json(
    g: GameState, *, error: str | None = None, move_index: int | None = None, legal: bool = False
) -> dict[str, Any]:
    """The position as NOTATION.md's JSON object (everything, for replays)."""
    out: dict[str, Any] = {
        "ok": error is None,
        "error": error,
        "move_index": move_index,
        "finished": g.finished,
        "winners": list(g.winners),
        "victory": g.victory,
        "points": None if g.points is None else list(g.points),
        "to_move": g.to_move,
        "phase": g.phase,
        "deck": len(g.deck),
        "hands": [counts_to_str(h) for h in g.hands],
        "areas": [counts_to_str(a) for a in g.areas],
        "discard": counts_to_str(g.discard),
        "markers": markers_json(g),
        "coin": coin_json(g),
    }
    if legal:
        out["legal"] = g.legal_strings()
    return out


def invalid_json(error: str) -> dict[str, Any]:
    """The JSON answer for a file that is not a valid record (exit status 2)."""
    return {"ok": False, "error": error}
