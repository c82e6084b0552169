"""Moves: immutable values written and read in the notation of NOTATION.md.

A :class:`Move` carries every choice of one decision; its canonical text is its
identity (two moves are the same move when ``str(a) == str(b)``). The reader is
lenient as NOTATION.md's clarification 10 says (any whitespace, either case,
list elements and terms in any order) and rejects everything else with a
:class:`NotationError` whose message is one sentence.

>>> str(parse_move("  Plot pas 5h10F "))
'plot PAS 10F5H'
>>> str(parse_move("defend arc>axe   AXE>SPR"))
'defend ARC>AXE AXE>SPR'
>>> str(parse_move("attack 3=axe 1=swd,chr"))
'attack 1=CHR,SWD 3=AXE'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple, TypeVar

from .cards import ALL_CODES, RES_INDEX, Res, res_str

_T = TypeVar("_T")


class NotationError(ValueError):
    """A move or a record that cannot be read; the message is one plain sentence."""


class Move(NamedTuple):
    """One decision (NOTATION.md, *Moves*). Fields unused by a kind keep their defaults.

    * ``pick``/``cash``/``tech``: ``code``.
    * ``settle``/``pop``: ``num`` is the plot number.
    * ``discard``: ``cards``; ``place``: ``plots``.
    * ``collect``: ``collect`` holds ``(plot, letters)`` terms.
    * ``trade``: ``res`` given, ``get`` received; ``plot``: ``code`` and ``res`` paid.
    * ``build``: ``code``, ``num`` (plot), ``extra`` ``"settle"`` (``plots``) or
      ``"free"`` (``cards``, in the order taken).
    * ``use``: ``code``, ``num`` (the target seat), ``extra == "res"`` with ``res``.
    * ``attack``: ``attack`` holds ``(seat, units)`` terms.
    * ``walls``: ``plots`` lost, ``cards`` bounced; ``defend``: ``blocks`` as
      ``(blocker, attacker)``; ``damage``: ``plots`` stolen from, ``destroy`` as
      ``(plot, code)``.
    """

    kind: str
    code: str = ""
    num: int = 0
    cards: tuple[str, ...] = ()
    plots: tuple[int, ...] = ()
    res: Res = (0, 0, 0)
    get: Res = (0, 0, 0)
    collect: tuple[tuple[int, str], ...] = ()
    destroy: tuple[tuple[int, str], ...] = ()
    attack: tuple[tuple[int, tuple[str, ...]], ...] = ()
    blocks: tuple[tuple[str, str], ...] = ()
    extra: str = ""

    def __str__(self) -> str:
        return format_move(self)


KINDS = (
    "pick",
    "settle",
    "discard",
    "collect",
    "cash",
    "trade",
    "pop",
    "plot",
    "tech",
    "build",
    "use",
    "end",
    "attack",
    "walls",
    "defend",
    "damage",
    "place",
)


def _plots(ps: tuple[int, ...]) -> str:
    return ",".join(f"p{p}" for p in ps)


def format_move(m: Move) -> str:
    """The canonical text of a move (NOTATION.md, *Canonical form*)."""
    k = m.kind
    if k in ("pick", "cash", "tech"):
        return f"{k} {m.code}"
    if k in ("settle", "pop"):
        return f"{k} p{m.num}"
    if k == "discard":
        return "discard " + ",".join(m.cards)
    if k == "place":
        return "place " + _plots(m.plots)
    if k == "collect":
        return " ".join(["collect"] + [f"p{p}={letters}" for p, letters in m.collect])
    if k == "trade":
        return f"trade {res_str(m.res)} {res_str(m.get)}"
    if k == "plot":
        return f"plot {m.code} {res_str(m.res)}"
    if k == "build":
        s = f"build {m.code} p{m.num}"
        if m.extra == "settle":
            s += " settle " + _plots(m.plots)
        elif m.extra == "free":
            s += " free " + ",".join(m.cards)
        return s
    if k == "use":
        s = f"use {m.code} {m.num}"
        if m.extra == "res":
            s += " " + res_str(m.res)
        return s
    if k == "end":
        return "end"
    if k == "attack":
        return " ".join(["attack"] + [f"{s}={','.join(u)}" for s, u in m.attack])
    if k == "walls":
        s = "walls"
        if m.plots:
            s += " lose " + _plots(m.plots)
        if m.cards:
            s += " bounce " + ",".join(m.cards)
        return s
    if k == "defend":
        return " ".join(["defend"] + [f"{b}>{a}" for b, a in m.blocks])
    if k == "damage":
        s = "damage"
        if m.plots:
            s += " steal " + _plots(m.plots)
        if m.destroy:
            s += " destroy " + ",".join(f"p{p}:{c}" for p, c in m.destroy)
        return s
    raise NotationError(f"unknown move kind {k!r}")


# ---------------------------------------------------------------------------
# Reading

_CODE = re.compile(r"[A-Z]{3}")
_PLOT = re.compile(r"P([1-9][0-9]*)")
_RES_TERM = re.compile(r"([0-9]+)([FHC])")


def _code(tok: str, what: str = "card") -> str:
    if not _CODE.fullmatch(tok):
        raise NotationError(f"{tok!r} is not a {what} code (three letters)")
    if tok not in ALL_CODES:
        raise NotationError(f"{tok!r} is not a card code of cards.toml")
    return tok


def _codes(tok: str) -> tuple[str, ...]:
    return tuple(sorted(_code(t) for t in tok.split(",")))


def _plot(tok: str) -> int:
    m = _PLOT.fullmatch(tok)
    if not m:
        raise NotationError(f"{tok!r} is not a plot number such as p1")
    return int(m.group(1))


def _tagged(
    args: list[str], i: int, word: str, need: str, read: Callable[[str], _T]
) -> tuple[_T | None, int]:
    """The list that the optional keyword ``word`` at ``args[i]`` introduces, read by
    ``read`` (None without the keyword), and the index after it."""
    if i < len(args) and args[i] == word:
        if i + 1 >= len(args):
            raise NotationError(need)
        return read(args[i + 1]), i + 2
    return None, i


def _destroyed(tok: str) -> list[tuple[int, str]]:
    """``p2:WAL,p3:LIB``: the destroyed buildings (plot, code) of a damage move."""
    out = []
    for t in tok.split(","):
        p, sep, c = t.partition(":")
        if not sep:
            raise NotationError(f"{t!r} is not a destroyed building such as p2:WAL")
        out.append((_plot(p), _code(c)))
    return out


def _plot_list(tok: str) -> tuple[int, ...]:
    return tuple(sorted(_plot(t) for t in tok.split(",")))


def _seat(tok: str) -> int:
    if len(tok) != 1 or not tok.isdigit():
        raise NotationError(f"{tok!r} is not a seat (one digit)")
    return int(tok)


def parse_res(tok: str) -> Res:
    """Read a resource amount (``2F1C``, ``1c2f``, ``0``); terms in any order, no 0 count."""
    if tok == "0":
        return (0, 0, 0)
    out = [0, 0, 0]
    seen: set[str] = set()
    pos = 0
    for m in _RES_TERM.finditer(tok):
        if m.start() != pos:
            break
        pos = m.end()
        n, letter = int(m.group(1)), m.group(2)
        if n == 0 or m.group(1).startswith("0"):
            raise NotationError(f"{tok!r}: a resource term has a count of 0")
        if letter in seen:
            raise NotationError(f"{tok!r}: the resource {letter} is written twice")
        seen.add(letter)
        out[RES_INDEX[letter]] = n
    if pos != len(tok) or not seen:
        raise NotationError(f"{tok!r} is not a resource amount such as 2F1C")
    return (out[0], out[1], out[2])


def _need(toks: list[str], n: int, usage: str) -> None:
    if len(toks) != n:
        raise NotationError(f"expected {usage}")


@lru_cache(maxsize=65536)
def parse_move(text: str) -> Move:
    """Read one move; raises :class:`NotationError` with one sentence when it cannot."""
    if not isinstance(text, str):
        raise NotationError("a move must be a string")
    toks = text.upper().split()
    if not toks:
        raise NotationError("the move is empty")
    kind = toks[0].lower()
    args = toks[1:]
    if kind in ("pick", "cash", "tech"):
        _need(args, 1, f"'{kind} CODE'")
        return Move(kind, code=_code(args[0]))
    if kind in ("settle", "pop"):
        _need(args, 1, f"'{kind} pN'")
        return Move(kind, num=_plot(args[0]))
    if kind == "discard":
        _need(args, 1, "'discard LIST' (codes joined by commas, no spaces)")
        return Move(kind, cards=_codes(args[0]))
    if kind == "place":
        _need(args, 1, "'place LIST' (plots joined by commas, no spaces)")
        return Move(kind, plots=_plot_list(args[0]))
    if kind == "end":
        _need(args, 0, "'end' alone")
        return Move("end")
    if kind == "collect":
        terms: dict[int, str] = {}
        for a in args:
            p, sep, letters = a.partition("=")
            if not sep or not letters or any(ch not in "FHC" for ch in letters):
                raise NotationError(f"{a!r} is not a collect term such as p3=FFH")
            n = _plot(p)
            if n in terms:
                raise NotationError(f"collect: plot p{n} is written twice")
            terms[n] = "".join(sorted(letters, key="FHC".index))
        return Move("collect", collect=tuple(sorted(terms.items())))
    if kind == "trade":
        _need(args, 2, "'trade GIVE GET' such as 'trade 3H 1F'")
        return Move("trade", res=parse_res(args[0]), get=parse_res(args[1]))
    if kind == "plot":
        _need(args, 2, "'plot CODE PAY' such as 'plot PAS 10F5H'")
        return Move("plot", code=_code(args[0]), res=parse_res(args[1]))
    if kind == "build":
        if len(args) not in (2, 4):
            raise NotationError("expected 'build CODE pN', 'build CODE pN settle LIST' or 'build CODE pN free LIST'")
        code, num = _code(args[0]), _plot(args[1])
        if len(args) == 2:
            return Move("build", code=code, num=num)
        word = args[2].lower()
        if word == "settle":
            return Move("build", code=code, num=num, extra="settle", plots=_plot_list(args[3]))
        if word == "free":
            return Move(
                "build", code=code, num=num, extra="free", cards=tuple(_code(t) for t in args[3].split(","))
            )
        raise NotationError(f"'build': expected 'settle' or 'free', not {args[2].lower()!r}")
    if kind == "use":
        if len(args) not in (2, 3):
            raise NotationError("expected 'use CODE SEAT' or 'use CODE SEAT RES'")
        code, seat = _code(args[0]), _seat(args[1])
        if len(args) == 2:
            return Move("use", code=code, num=seat)
        return Move("use", code=code, num=seat, extra="res", res=parse_res(args[2]))
    if kind == "attack":
        if not args:
            raise NotationError("expected 'attack SEAT=LIST …' with at least one defender")
        assign: dict[int, tuple[str, ...]] = {}
        for a in args:
            s, sep, lst = a.partition("=")
            if not sep or not lst:
                raise NotationError(f"{a!r} is not an attack term such as 1=CHR,SWD")
            seat = _seat(s)
            if seat in assign:
                raise NotationError(f"attack: seat {seat} is written twice")
            assign[seat] = _codes(lst)
        return Move("attack", attack=tuple(sorted(assign.items())))
    if kind == "defend":
        blocks = []
        for a in args:
            b, sep, att = a.partition(">")
            if not sep:
                raise NotationError(f"{a!r} is not a block such as ARC>CHR")
            blocks.append((_code(b), _code(att)))
        return Move("defend", blocks=tuple(sorted(blocks, key=lambda t: (t[1], t[0]))))
    if kind == "walls":
        lose, i = _tagged(args, 0, "LOSE", "'walls lose' needs a list of plots", _plot_list)
        bounce, i = _tagged(args, i, "BOUNCE", "'walls bounce' needs a list of units", _codes)
        if i != len(args):
            raise NotationError("expected 'walls', 'walls lose LIST', 'walls bounce LIST' or 'walls lose LIST bounce LIST'")
        return Move("walls", plots=lose or (), cards=bounce or ())
    if kind == "damage":
        steal, i = _tagged(args, 0, "STEAL", "'damage steal' needs a list of plots", _plot_list)
        destroy, i = _tagged(
            args, i, "DESTROY", "'damage destroy' needs a list such as p2:WAL", _destroyed
        )
        if i != len(args):
            raise NotationError("expected 'damage', 'damage steal LIST', 'damage destroy LIST' or 'damage steal LIST destroy LIST'")
        return Move("damage", plots=steal or (), destroy=tuple(sorted(destroy or [])))
    raise NotationError(f"{toks[0].lower()!r} is not a move of the notation")
