"""Game records (``civ4-notation/1``), replay and the position JSON of NOTATION.md.

>>> from civcards.civ4.game import new_game
>>> g = new_game(2, seed=5)
>>> text = write_record(g)
>>> r = replay(parse_record(text))
>>> r.ok, r.state.step
(True, 'draft')
>>> status, out = replay_cli(text, json_out=True, legal=False, seat=None)
>>> status
0
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .cards import DECK_CODES, DECK_INDEX, res_str
from .game import (
    ConfigError,
    GameState,
    IllegalMoveError,
    check_piles,
    shuffle_piles,
    state_from_piles,
)
from .moves import NotationError, parse_move
from .observation import observe
from .options import Options, parse_options

FORMAT = "civ4-notation/1"
_PILES = ("plots", "techs", "removed", "deck")


class RecordError(ValueError):
    """A record that is not valid (exit status 2); the message names the field."""


@dataclass(frozen=True)
class Record:
    """A parsed, validated record. Piles are None when the record leaves them to ``seed``."""

    players: int
    seed: int
    options: Options = field(default_factory=Options)
    plots: tuple[str, ...] | None = None
    techs: tuple[str, ...] | None = None
    removed: tuple[str, ...] | None = None
    deck: tuple[str, ...] | None = None
    moves: tuple[Any, ...] = ()
    chance: tuple[dict[str, Any], ...] = ()
    game_id: str | None = None
    names: tuple[str, ...] | None = None
    result: Any = None


def _code_list(obj: Mapping[str, Any], key: str) -> list[str]:
    v = obj[key]
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise RecordError(f"'{key}' must be a list of card codes.")
    return list(v)


def parse_record(source: str | bytes | Mapping[str, Any]) -> Record:
    """Read and validate a record (JSON text or an already parsed object).

    Raises :class:`RecordError` with one sentence naming the field at fault.
    """
    if isinstance(source, str | bytes):
        try:
            obj = json.loads(source)
        except (ValueError, UnicodeDecodeError) as e:
            raise RecordError(f"the record is not valid JSON ({e}).") from None
    else:
        obj = source
    if not isinstance(obj, Mapping):
        raise RecordError("a record must be a JSON object.")
    if obj.get("format") != FORMAT:
        raise RecordError(f"'format' must be {FORMAT!r}.")
    players = obj.get("players")
    if isinstance(players, bool) or not isinstance(players, int) or players not in (2, 3, 4):
        raise RecordError("'players' must be the integer 2, 3 or 4.")
    seed = obj.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RecordError("'seed' must be an integer.")
    game_id = obj.get("game_id")
    if game_id is not None and not isinstance(game_id, str):
        raise RecordError("'game_id' must be a string.")
    names = obj.get("names")
    if names is not None and (
        not isinstance(names, list) or len(names) != players or not all(isinstance(x, str) for x in names)
    ):
        raise RecordError(f"'names' must be a list of {players} strings.")
    try:
        options = parse_options(obj.get("options", {}) if obj.get("options") is not None else {})
    except ConfigError as e:
        raise RecordError(f"'options': {e}") from None
    present = [k for k in _PILES if k in obj]
    piles: dict[str, tuple[str, ...] | None] = dict.fromkeys(_PILES)
    if present and len(present) != 4:
        missing = [k for k in _PILES if k not in obj]
        raise RecordError(f"'plots', 'techs', 'removed' and 'deck' must be all present or all absent ({', '.join(missing)} missing).")
    if present:
        lists = {k: _code_list(obj, k) for k in _PILES}
        from .cards import ALL_CODES

        for k, v in lists.items():
            for c in v:
                if c not in ALL_CODES:
                    raise RecordError(f"'{k}' holds {c!r}, which is not a card code of cards.toml.")
        err = check_piles(players, options, lists["plots"], lists["techs"], lists["removed"], lists["deck"])
        if err:
            raise RecordError(err + ".")
        piles = {k: tuple(v) for k, v in lists.items()}
    moves = obj.get("moves", [])
    if moves is None:
        moves = []
    if not isinstance(moves, list):
        raise RecordError("'moves' must be a list.")
    chance_raw = obj.get("chance", [])
    if chance_raw is None:
        chance_raw = []
    if not isinstance(chance_raw, list):
        raise RecordError("'chance' must be a list.")
    chance: list[dict[str, Any]] = []
    for i, entry in enumerate(chance_raw):
        if not isinstance(entry, Mapping) or entry.get("kind") not in ("steal", "reshuffle"):
            raise RecordError(f"'chance' entry {i} must be an object whose kind is 'steal' or 'reshuffle'.")
        if entry["kind"] == "steal":
            card = entry.get("card")
            if not isinstance(card, str) or card not in DECK_INDEX:
                raise RecordError(f"'chance' entry {i}: 'card' must be a game-deck card code.")
            chance.append({"kind": "steal", "card": card})
        else:
            deck = entry.get("deck")
            if not isinstance(deck, list) or not all(isinstance(c, str) and c in DECK_INDEX for c in deck):
                raise RecordError(f"'chance' entry {i}: 'deck' must be a list of game-deck card codes.")
            chance.append({"kind": "reshuffle", "deck": tuple(deck)})
    return Record(
        players=players,
        seed=seed,
        options=options,
        plots=piles["plots"],
        techs=piles["techs"],
        removed=piles["removed"],
        deck=piles["deck"],
        moves=tuple(moves),
        chance=tuple(chance),
        game_id=game_id,
        names=tuple(names) if names is not None else None,
        result=obj.get("result"),
    )


def write_record(g: GameState, *, indent: int | None = None) -> str:
    """The portable record of a game (clarification 1) as JSON text."""
    return json.dumps(g.record(), indent=indent)


def state_from_record(record: Record | str | Mapping[str, Any]) -> GameState:
    """The starting position of a record (its moves not applied): explicit piles or ``seed``."""
    r = record if isinstance(record, Record) else parse_record(record)
    if r.plots is None or r.techs is None or r.removed is None or r.deck is None:
        plots, techs, removed, deck = shuffle_piles(r.players, r.options, random.Random(r.seed))
    else:
        plots, techs, removed, deck = list(r.plots), list(r.techs), list(r.removed), list(r.deck)
    return state_from_piles(
        r.players,
        plots,
        techs,
        removed,
        deck,
        options=r.options,
        seed=r.seed,
        chance=r.chance,
        game_id=r.game_id,
        names=r.names,
    )


@dataclass
class Replay:
    """The result of :func:`replay`: the position after the last legal move."""

    state: GameState
    ok: bool = True
    error: str | None = None
    move_index: int | None = None
    legal_before: list[str] = field(default_factory=list)


def replay(record: Record | str | Mapping[str, Any]) -> Replay:
    """Replay a record's moves; stop before the first illegal or unreadable one and say why."""
    g = state_from_record(record)
    r = record if isinstance(record, Record) else parse_record(record)
    for i, mv in enumerate(r.moves):
        if not isinstance(mv, str):
            return Replay(g, False, f"move {i} is not a string (clarification 7)", i)
        try:
            m = parse_move(mv)
        except NotationError as e:
            return Replay(g, False, f"move {i} ({mv!r}) cannot be read: {e}", i)
        try:
            g.apply(m)
        except IllegalMoveError as e:
            return Replay(g, False, f"move {i} ({mv!r}) is illegal: {e.reason}", i)
    return Replay(g)


def position_json(g: GameState, legal: bool = False, seat: int | None = None) -> dict[str, Any]:
    """The position as ``replay --json`` prints it (omniscient), or as ``seat`` may know it (clarification 24)."""
    obs = observe(g, seat)
    body = obs.to_json()
    for k in ("seat", "history", "known_steals"):
        del body[k]
    if seat is None:
        for s, pj in enumerate(body["players"]):
            pj["hand"] = g.hand(s)
    out: dict[str, Any] = {"ok": True, "error": None, "move_index": None}
    out.update(body)
    if legal:
        out["legal"] = g.legal_strings() if (seat is None or seat == g.to_move) else []
    return out


def board_text(g: GameState) -> str:
    """A readable board (``replay`` without ``--json``; not a contract)."""
    lines = []
    if g.finished:
        lines.append(f"Game over ({g.reason}), round {g.round}: winners {', '.join(map(str, g.winners))}")
    else:
        lines.append(f"Round {g.round}, step {g.step}, active {g.active}, to move {g.to_move}")
    lines.append(f"Card set: {g.cs.set_name} (RECONSTRUCTED: the original card list was never published)")
    lines.append(
        f"Plot market: {' '.join(g.plot_market) or '-'} (pile {g.plot_pile_size}); "
        f"tech market: {' '.join(g.tech_market) or '-'} (pile {g.tech_pile_size}); deck {g.deck_size}; "
        f"population supply {g.pop_supply}"
    )
    for s in range(g.n):
        plots = "  ".join(
            f"p{i + 1} {code} pop {pop}{' [' + ','.join(on) + ']' if on else ''}"
            for i, (code, pop, on) in enumerate(g.plots[s])
        )
        sc = g.score(s)
        lines.append(
            f"Seat {s}: {sc[0]} VP, supply {res_str(g.supply[s])}, techs {','.join(g.techs[s]) or '-'}, "
            f"culture {g.culture(s)}, happiness {g.happiness(s)}"
        )
        lines.append(f"  plots: {plots}")
        lines.append(f"  hand: {','.join(g.hand(s)) or '-'}")
    lines.append(f"Discard pile: {','.join(g.discard_list()) or '-'}")
    return "\n".join(lines)


def replay_cli(text: str, *, json_out: bool, legal: bool, seat: int | None) -> tuple[int, str]:
    """``civcards replay``: the exit status (0, 1 or 2, NOTATION.md) and the text to print."""

    def bad(msg: str) -> tuple[int, str]:
        if json_out:
            return 2, json.dumps({"ok": False, "error": msg})
        return 2, f"error: {msg}"

    try:
        rec = parse_record(text)
    except RecordError as e:
        return bad(str(e))
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < rec.players):
        return bad(f"--seat must be a seat of this game (0…{rec.players - 1}), not {seat!r}.")
    try:
        r = replay(rec)
    except ConfigError as e:  # pragma: no cover - parse_record validates the piles
        return bad(str(e))
    status = 0 if r.ok else 1
    if json_out:
        pos = position_json(r.state, legal=legal, seat=seat)
        pos["ok"] = r.ok
        pos["error"] = r.error
        pos["move_index"] = r.move_index
        return status, json.dumps(pos, separators=(",", ":"))
    out = board_text(r.state) if seat is None else _seat_text(r.state, seat)
    if not r.ok:
        out = f"{r.error}\n{out}"
    if legal:
        moves = r.state.legal_strings() if seat is None or seat == r.state.to_move else []
        out += "\nLegal moves: " + (", ".join(moves) if moves else "none")
    return status, out


def _seat_text(g: GameState, seat: int) -> str:
    pos = position_json(g, seat=seat)
    return json.dumps({k: v for k, v in pos.items() if k not in ("ok", "error", "move_index")}, indent=1)


__all__ = [
    "DECK_CODES",
    "FORMAT",
    "Record",
    "RecordError",
    "Replay",
    "board_text",
    "parse_record",
    "position_json",
    "replay",
    "replay_cli",
    "state_from_record",
    "write_record",
]
