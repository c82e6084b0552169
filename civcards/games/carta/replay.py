"""CIV's ``civcards replay`` output (NOTATION.md): the position after a record's moves,
as text or one line of JSON (``replay_cli``, the :class:`~civcards.game_api.Game` member)."""

from __future__ import annotations

import json

from ...carta import NotationError, parse_record, position_json, replay
from ...carta.cards import DOMAIN_NAMES
from ...carta.notation import invalid_json

EXIT_OK = 0
EXIT_ILLEGAL = 1
EXIT_INVALID = 2


def replay_cli(
    text: str, *, json_out: bool = False, legal: bool = False, seat: int | None = None
) -> tuple[int, str]:
    """Replay record ``text``: (exit status, what to print). Status 0: it replays to its
    end; 1: a move is illegal or unreadable (the position before it is shown); 2: not a
    valid record (in text mode the message belongs on stderr)."""
    if seat is not None:
        message = "CIV's replay shows the whole position; --seat is not offered"
        return EXIT_INVALID, json.dumps(invalid_json(message)) if json_out else f"error: {message}"
    try:
        rec = parse_record(text)
    except NotationError as e:
        if json_out:
            return EXIT_INVALID, json.dumps(invalid_json(str(e)))
        return EXIT_INVALID, f"error: {e}"
    result = replay(rec)
    pos = position_json(result.state, error=result.error, move_index=result.move_index, legal=legal)
    out = json.dumps(pos, ensure_ascii=False) if json_out else position_text(pos, rec.names)
    return (EXIT_OK if result.ok else EXIT_ILLEGAL), out


def position_text(pos: dict[str, object], names: list[str] | None) -> str:
    """The position of ``civcards replay`` without ``--json``."""

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
    return "\n".join(lines)
