"""Moves: small immutable values, written and read in the notation of NOTATION.md.

A :class:`Move` carries every choice of one decision. Its canonical text is
its identity: two moves are the same move when ``str(a) == str(b)``.

>>> m = parse_move("Monopoly  discard sm PLAY ce")
>>> str(m)
'monopoly discard MS play EC'
>>> parse_move("inspiration 2 holybook")
Move(kind='inspiration', seat=2, cards='', more='', copy=Move(kind='holybook', seat=-1, cards='', more='', copy=None))
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import LETTER_INDEX, canonical


class NotationError(ValueError):
    """A move or a record that cannot be read; the message is a plain sentence."""


class Move(NamedTuple):
    """One decision. ``cards`` and ``more`` are canonical card lists.

    * ``keep``/``take``/``play``/``assassination``/``purge``/``attack``/
      ``discovery``/``oligarchy``/``republic``: ``cards`` are the cards named.
    * ``inquisition``/``embargo``/``democracy``: ``seat`` is the target seat.
    * ``development``/``monopoly``: ``cards`` discarded, ``more`` played.
    * ``experiment``/``research``: ``cards`` returned, ``more`` played.
    * ``inspiration``: ``seat`` copied from, ``copy`` the copied effect's move.
    """

    kind: str
    seat: int = -1
    cards: str = ""
    more: str = ""
    copy: Move | None = None

    def __str__(self) -> str:
        return format_move(self)


END = Move("end")

#: Moves whose single card list follows the keyword directly.
_SIMPLE = ("keep", "take", "play", "assassination", "purge", "attack")
#: Permanent effects that Inspiration can copy (R19), by domain and level.
COPYABLE = {
    (0, 1): "assassination",
    (0, 2): "purge",
    (1, 1): "holybook",
    (1, 2): "divineright",
    (2, 1): "development",
    (2, 2): "monopoly",
    (3, 1): "experiment",
    (3, 2): "research",
    (5, 1): "oligarchy",
    (5, 2): "republic",
}
EFFECT_OF_KIND = {kind: dl for dl, kind in COPYABLE.items()}
#: Effect kinds as the notation writes them, in the order of the rules (R15-R20).
EFFECT_KINDS: tuple[str, ...] = (
    "assassination",
    "purge",
    "attack",
    "holybook",
    "divineright",
    "inquisition",
    "development",
    "monopoly",
    "embargo",
    "experiment",
    "research",
    "discovery",
    "oligarchy",
    "republic",
    "democracy",
    "inspiration",
)
#: Every move kind of the notation.
KINDS = frozenset(("keep", "take", "play", *EFFECT_KINDS, "end"))


def format_move(m: Move) -> str:
    """Canonical text of a move (NOTATION.md)."""
    k = m.kind
    if k in _SIMPLE:
        return f"{k} {m.cards}"
    if k == "end" or k == "holybook" or k == "divineright":
        return k
    if k == "inquisition":
        return f"inquisition {m.seat} give {m.cards}" if m.cards else f"inquisition {m.seat}"
    if k == "embargo" or k == "democracy":
        return f"{k} {m.seat} {m.cards}"
    if k == "development" or k == "monopoly":
        return f"{k} discard {m.cards} play {m.more}" if m.more else f"{k} discard {m.cards}"
    if k == "experiment" or k == "research":
        return f"{k} return {m.cards} play {m.more}" if m.more else f"{k} return {m.cards}"
    if k == "discovery":
        return f"discovery discard {m.cards}" if m.cards else "discovery"
    if k == "oligarchy" or k == "republic":
        return f"{k} take {m.cards}"
    if k == "inspiration":
        assert m.copy is not None
        return f"inspiration {m.seat} {format_move(m.copy)}"
    raise ValueError(f"unknown move kind {k!r}")


#: the notation of the moves written so far (moves are small immutable values)
_TEXTS: dict[Move, str] = {}


def move_text(m: Move) -> str:
    """:func:`format_move`, memoised (every seat's view and every list of choices writes
    the same moves again)."""
    t = _TEXTS.get(m)
    if t is None:
        if len(_TEXTS) > 200_000:
            _TEXTS.clear()
        t = _TEXTS[m] = format_move(m)
    return t


def _cards(tok: str, text: str) -> str:
    for ch in tok:
        if ch not in LETTER_INDEX:
            raise NotationError(
                f"{text!r}: {tok!r} is not a card list "
                f"(cards are written with the letters M R E S C U)"
            )
    return canonical(tok)


def _seat(tok: str, text: str) -> int:
    if not tok.isdigit() or len(tok) > 1:
        raise NotationError(f"{text!r}: {tok!r} is not a seat number (0 to 3)")
    return int(tok)


def _parse(toks: list[str], text: str, nested: bool) -> Move:
    if not toks:
        raise NotationError("an empty move")
    k = toks[0].lower()
    rest = toks[1:]
    n = len(rest)
    bad = NotationError(f"{text!r} is not a move in the notation (see NOTATION.md)")
    if k not in KINDS:
        raise NotationError(f"{text!r}: {toks[0]!r} is not a move word")
    if k in _SIMPLE:
        if n != 1:
            raise bad
        return Move(k, cards=_cards(rest[0], text))
    if k in ("end", "holybook", "divineright"):
        if n:
            raise bad
        return Move(k)
    if k == "inquisition":
        if n == 1:
            return Move(k, _seat(rest[0], text))
        if n == 3 and rest[1].lower() == "give":
            return Move(k, _seat(rest[0], text), _cards(rest[2], text))
        raise bad
    if k in ("embargo", "democracy"):
        if n != 2:
            raise bad
        return Move(k, _seat(rest[0], text), _cards(rest[1], text))
    if k in ("development", "monopoly", "experiment", "research"):
        word = "discard" if k in ("development", "monopoly") else "return"
        if n not in (2, 4) or rest[0].lower() != word:
            raise bad
        more = ""
        if n == 4:
            if rest[2].lower() != "play":
                raise bad
            more = _cards(rest[3], text)
        return Move(k, cards=_cards(rest[1], text), more=more)
    if k == "discovery":
        if n == 0:
            return Move(k)
        if n == 2 and rest[0].lower() == "discard":
            return Move(k, cards=_cards(rest[1], text))
        raise bad
    if k in ("oligarchy", "republic"):
        if n != 2 or rest[0].lower() != "take":
            raise bad
        return Move(k, cards=_cards(rest[1], text))
    # inspiration
    if nested or n < 2:
        raise bad
    sub = _parse(rest[1:], text, True)
    if sub.kind not in EFFECT_OF_KIND:
        raise NotationError(
            f"{text!r}: Inspiration copies a level-1 or level-2 effect, not {sub.kind!r}"
        )
    return Move(k, _seat(rest[0], text), copy=sub)


def parse_move(text: str) -> Move:
    """Read a move written in the notation; extra spaces and any case are accepted.

    Raises :class:`NotationError` with a sentence when the text is not a move.
    """
    if not isinstance(text, str):
        raise NotationError(f"a move must be a string, not {type(text).__name__}")
    return _parse(text.split(), text, False)
