"""CIV in words, for every user interface (UI-neutral: no Rich, no HTML).

Moves, cards and results in the player's language; used by the web table and
the terminal alike.

>>> describe_move("en", "attack C", ["Ana", "Bob"])
'Attack on Culture'
>>> describe_move("de", "embargo 1 S", ["Ana", "Bob"])
'Embargo gegen Bob: Wissenschaft'
>>> cards_text("es", "MSS")
'Militar, Ciencia ×2'
"""

from __future__ import annotations

from collections.abc import Sequence

from ...carta import GameState, NotationError, parse_move
from ...carta.cards import TIE_BREAK_ORDER
from ...carta.moves import Move
from ...i18n import domain_name, effect_name, t

LETTERS = "MRESCU"
SECRET = "?"


def cards_text(lang: str, cards: str) -> str:
    """A card list in words: ``MSS`` -> ``Military, Science ×2``."""
    if not cards:
        return "—"
    parts = []
    for letter in LETTERS:
        k = cards.upper().count(letter)
        if k:
            parts.append(domain_name(lang, letter) + (f" ×{k}" if k > 1 else ""))
    return ", ".join(parts)


def seat_label(names: list[str], seat: int) -> str:
    """How a seat is named in sentences."""
    if 0 <= seat < len(names):
        return names[seat]
    return f"#{seat}"


def describe_move(lang: str, text: str, names: list[str], *, past: bool = False) -> str:
    """A move of the notation (or a ``?`` option, or a redacted history entry) in words.

    ``past``: the move is from the history, where ``?`` stands for cards kept secret.
    """
    words = text.split()
    if not words:
        return text
    if words[-1] == SECRET:
        if past and words[0] == "inquisition" and len(words) >= 2 and words[1].isdigit():
            return t(
                lang,
                "move.inquisition",
                effect=effect_name(lang, "inquisition"),
                seat=seat_label(names, int(words[1])),
            )
        return _describe_secret(lang, words, names)
    try:
        m = parse_move(text)
    except NotationError:
        return text
    return _describe(lang, m, names)


def _describe_secret(lang: str, words: list[str], names: list[str]) -> str:
    kind = words[0]
    if kind == "keep":
        return t(lang, "move.keep_hidden")
    if kind == "discovery":
        return t(lang, "move.discovery_hidden", effect=effect_name(lang, "discovery"))
    if kind == "inquisition" and len(words) >= 2 and words[1].isdigit():
        return t(
            lang,
            "move.inquisition_hidden",
            effect=effect_name(lang, "inquisition"),
            seat=seat_label(names, int(words[1])),
        )
    return " ".join(words)


def _describe(lang: str, m: Move, names: list[str]) -> str:
    k = m.kind
    c = cards_text(lang, m.cards)
    if k == "end":
        return t(lang, "move.end")
    if k == "play":
        return t(lang, "move.play", cards=c)
    if k == "keep":
        return t(lang, "move.keep", cards=c)
    if k == "take":
        return t(lang, "move.take", cards=c)
    eff = effect_name(lang, k)
    if k in ("assassination", "purge"):
        return t(lang, "move.discard_hand", effect=eff, cards=c)
    if k == "attack":
        return t(lang, "move.attack", effect=eff, domain=domain_name(lang, m.cards))
    if k == "inquisition":
        seat = seat_label(names, m.seat)
        if m.cards:
            return t(lang, "move.inquisition_give", effect=eff, seat=seat, cards=c)
        return t(lang, "move.inquisition", effect=eff, seat=seat)
    if k in ("development", "monopoly", "experiment", "research"):
        base = "move.swap_discard" if k in ("development", "monopoly") else "move.swap_return"
        if m.more:
            return t(lang, base, effect=eff, cards=c, more=cards_text(lang, m.more))
        return t(lang, base + "_only", effect=eff, cards=c)
    if k in ("embargo", "democracy"):
        return t(
            lang,
            "move.place",
            effect=eff,
            seat=seat_label(names, m.seat),
            domain=domain_name(lang, m.cards),
        )
    if k == "discovery":
        if m.cards:
            return t(lang, "move.discovery", effect=eff, cards=c)
        return t(lang, "move.discovery_empty", effect=eff)
    if k in ("oligarchy", "republic"):
        return t(lang, "move.take_discard", effect=eff, cards=c)
    if k in ("holybook", "divineright"):
        return t(lang, "move.handsize", effect=eff, n=5 if k == "holybook" else 7)
    if k == "inspiration" and m.copy is not None:
        return t(
            lang,
            "move.inspiration",
            effect=eff,
            seat=seat_label(names, m.seat),
            copy=_describe(lang, m.copy, names),
        )
    return str(m)  # pragma: no cover - every kind is handled above


def move_kind(text: str) -> str:
    """The first word of a move or option (its kind)."""
    return text.split(" ", 1)[0].lower() if text.strip() else ""


def winners_text(g: GameState, names: Sequence[str], lang: str) -> str:
    who = ", ".join(f"{names[s]} ({s})" for s in g.winners)
    return t(lang, "ui.winner" if len(g.winners) == 1 else "ui.winners", who=who)


def hegemony_domain(g: GameState) -> tuple[int, int, int]:
    """(domain, cards, cards needed) of the hegemony that ended the game."""
    d = g.victory_domain
    if d is None:
        raise ValueError("the game did not end by hegemony")
    seat = g.active
    return d, g.areas[seat][d], g.thresholds[2] + g.democracy_on(seat, d)


def sides(g: GameState) -> list[list[int]]:
    """The scoring sides: one per seat, or the two teams (R24)."""
    if g.teams:
        return [[0, 2], [1, 3]]
    return [[s] for s in range(g.n)]


def tiebreak_text(g: GameState, lang: str) -> str | None:
    """Why the tie on points (if any) was broken, or that the victory is shared (R22, R24)."""
    points = g.points
    if points is None:
        return None
    by_side = sides(g)
    top = max(points)
    tied = [i for i, p in enumerate(points) if p == top]
    if len(tied) < 2:
        return None
    for d in TIE_BREAK_ORDER:
        values = {i: sum(g.areas[s][d] for s in by_side[i]) for i in tied}
        best = max(values.values())
        if list(values.values()).count(best) < len(tied):
            return t(lang, "ui.tiebreak", points=top, domain=domain_name(lang, d))
    return t(lang, "ui.shared")
