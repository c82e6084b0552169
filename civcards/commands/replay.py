"""``civcards replay RECORD [--json] [--legal]`` (NOTATION.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from ..carta import NotationError, parse_record, position_json, replay
from ..carta.cards import DOMAIN_NAMES
from ..carta.notation import invalid_json

EXIT_OK = 0
EXIT_ILLEGAL = 1
EXIT_INVALID = 2


def read_text(path: str) -> str:
    """The bytes of ``path`` (``-`` for standard input) as text; NotationError if unreadable."""
    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except FileNotFoundError:
        raise NotationError(f"there is no file {path!r}") from None
    except IsADirectoryError:
        raise NotationError(f"{path!r} is a folder, not a record file") from None
    except OSError as e:
        raise NotationError(f"{path!r} cannot be read ({e.strerror})") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise NotationError(f"{path!r} is not UTF-8 text") from None


def run_replay(path: str, as_json: bool, legal: bool) -> int:
    """Replay a record file, print the position, return the exit status."""
    try:
        rec = parse_record(read_text(path))
    except NotationError as e:
        if as_json:
            typer.echo(json.dumps(invalid_json(str(e))))
        else:
            typer.echo(f"error: {e}", err=True)
        return EXIT_INVALID
    result = replay(rec)
    pos = position_json(result.state, error=result.error, move_index=result.move_index, legal=legal)
    if as_json:
        typer.echo(json.dumps(pos, ensure_ascii=False))
    else:
        _print_text(pos, rec.names)
    return EXIT_OK if result.ok else EXIT_ILLEGAL


def _print_text(pos: dict[str, object], names: list[str] | None) -> None:
    def who(s: object) -> str:
        return f"{names[int(str(s))]} (seat {s})" if names else f"seat {s}"

    lines = []
    if pos["error"]:
        lines.append(f"illegal: {pos['error']}")
        lines.append(f"position before move {int(str(pos['move_index'])) + 1}:")
    if pos["finished"]:
        winners = ", ".join(who(s) for s in pos["winners"])  # type: ignore[attr-defined]
        lines.append(f"game over: {winners} won by {pos['victory']}")
        if pos["points"] is not None:
            lines.append(f"majority points: {pos['points']}")
    else:
        lines.append(f"to move: {who(pos['to_move'])}, phase: {pos['phase']}")
    lines.append(f"deck: {pos['deck']} cards   discard: {pos['discard'] or '-'}")
    hands = pos["hands"]
    areas = pos["areas"]
    assert isinstance(hands, list) and isinstance(areas, list)
    for s, (h, a) in enumerate(zip(hands, areas, strict=True)):
        lines.append(f"  {who(s)}: hand {h or '-':<8} play area {a or '-'}")
    for mk in pos["markers"]:  # type: ignore[attr-defined]
        lines.append(
            f"  {mk['kind']} by seat {mk['by']} on seat {mk['seat']}'s "
            f"{DOMAIN_NAMES['MRESCU'.index(mk['domain'])]}"
        )
    if pos.get("coin"):
        lines.append(f"  Culture coin: {pos['coin']}")
    if "legal" in pos:
        lines.append("legal moves: " + ("; ".join(pos["legal"]) or "none"))  # type: ignore[arg-type]
    typer.echo("\n".join(lines))


def register(app: typer.Typer) -> None:
    @app.command("replay")
    def replay_cmd(
        record: Annotated[
            str, typer.Argument(help="A game record file (NOTATION.md), or - for stdin.")
        ],
        as_json: Annotated[
            bool, typer.Option("--json", help="Print the position as one line of JSON.")
        ] = False,
        legal: Annotated[bool, typer.Option("--legal", help="Also list the legal moves.")] = False,
    ) -> None:
        """Replay a game record and show the position after its last move.

        Exit status: 0 when the record replays to its end, 1 when a move is
        illegal or unreadable, 2 when the file is not a valid record.
        """
        raise typer.Exit(run_replay(record, as_json, legal))
