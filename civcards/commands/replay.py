"""``civcards replay RECORD [--json] [--legal] [--seat N]``: the position after a record.

The game is recognised from the record's ``format``
(:func:`civcards.game_api.game_for_record`); a game prints its own replay
through its ``replay_cli`` member (CIV: :mod:`civcards.games.carta.replay`, as
NOTATION.md says), else the generic one below (:meth:`Game.from_record` and
:meth:`Game.position_json`). A file that is no record of any game is the
default game's to refuse, in its words.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from ..game_api import Game, MoveError, RecordError, all_games, game_for_record
from .games import resolve_game

EXIT_OK = 0
EXIT_ILLEGAL = 1
EXIT_INVALID = 2


class UnreadableFile(Exception):
    """The file cannot be read as text (one sentence)."""


def read_text(path: str) -> str:
    """The bytes of ``path`` (``-`` for standard input) as text; UnreadableFile if not."""
    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except FileNotFoundError:
        raise UnreadableFile(f"there is no file {path!r}") from None
    except IsADirectoryError:
        raise UnreadableFile(f"{path!r} is a folder, not a record file") from None
    except OSError as e:
        raise UnreadableFile(f"{path!r} cannot be read ({e.strerror})") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableFile(f"{path!r} is not UTF-8 text") from None


def record_game(text: str) -> Game:
    """The game whose record ``text`` is (by its ``format``), else the default game."""
    try:
        obj = json.loads(text)
        known = {f for g in all_games() for f in g.record_formats}
        if isinstance(obj, dict) and obj.get("format") in known:
            return game_for_record(obj)
    except (ValueError, RecordError):
        pass
    return resolve_game(None)


def generic_replay(
    game: Game, text: str, *, json_out: bool, legal: bool, seat: int | None
) -> tuple[int, str]:
    """The replay of a game without its own: (exit status, what to print)."""

    def invalid(message: str) -> tuple[int, str]:
        if json_out:
            return EXIT_INVALID, json.dumps({"ok": False, "error": message})
        return EXIT_INVALID, f"error: {message}"

    try:
        obj = json.loads(text)
    except ValueError as e:
        return invalid(f"the record is not JSON ({e})")
    status = EXIT_OK
    error: str | None = None
    try:
        state = game.from_record(obj)
    except RecordError as e:
        return invalid(str(e))
    except MoveError as e:
        status, error = EXIT_ILLEGAL, str(e)
        rec = dict(obj)
        rec["moves"] = []
        state = game.from_record(rec)
        for move in obj.get("moves") or []:
            try:
                game.play(state, str(move))
            except MoveError:
                break
    if seat is not None:
        if not 0 <= seat < state.n:
            return invalid(f"there is no seat {seat} in a {state.n}-player game")
        pos = game.observe(state, seat).to_json()
    else:
        pos = game.position_json(state, legal=legal)
    if error is not None:
        pos = {**pos, "error": error}
    if json_out:
        return status, json.dumps(pos, ensure_ascii=False)
    lines = [f"illegal: {error}"] if error else []
    lines += [f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in pos.items() if k != "error"]
    return status, "\n".join(lines)


def _without_annotations(text: str) -> str:
    """An annotated record (``civcards analyse --out``) read as the record it annotates."""
    if '"annotations"' not in text:
        return text
    try:
        obj = json.loads(text)
    except ValueError:
        return text
    if isinstance(obj, dict) and "annotations" in obj:
        from ..analysis import without_annotations

        return json.dumps(without_annotations(obj), ensure_ascii=False)
    return text


def run_replay(path: str, as_json: bool, legal: bool, seat: int | None = None) -> int:
    """Replay a record file, print the position, return the exit status."""
    try:
        text = read_text(path)
    except UnreadableFile as e:
        # the default game's answer for a file that could not be read at all
        if as_json:
            typer.echo(json.dumps({"ok": False, "error": str(e)}))
        else:
            typer.echo(f"error: {e}", err=True)
        return EXIT_INVALID
    text = _without_annotations(text)
    game = record_game(text)
    own = getattr(game, "replay_cli", None)
    if own is not None:
        status, out = own(text, json_out=as_json, legal=legal, seat=seat)
    else:
        status, out = generic_replay(game, text, json_out=as_json, legal=legal, seat=seat)
    typer.echo(out, err=status == EXIT_INVALID and not as_json)
    return int(status)


def register(app: typer.Typer) -> None:
    @app.command("replay")
    def replay_cmd(
        record: Annotated[
            str,
            typer.Argument(
                help="A game record file of any game (CIV: NOTATION.md), or - for stdin."
            ),
        ],
        as_json: Annotated[
            bool, typer.Option("--json", help="Print the position as one line of JSON.")
        ] = False,
        legal: Annotated[bool, typer.Option("--legal", help="Also list the legal moves.")] = False,
        seat: Annotated[
            int | None,
            typer.Option("--seat", help="Show what this seat sees (games that offer it)."),
        ] = None,
    ) -> None:
        """Replay a game record and show the position after its last move.

        The game is recognised from the record's format. Exit status: 0 when
        the record replays to its end, 1 when a move is illegal or unreadable,
        2 when the file is not a valid record.
        """
        raise typer.Exit(run_replay(record, as_json, legal, seat))
