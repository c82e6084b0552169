"""The path of factored choices that leads to one move (the inverse of :func:`choices`).

:func:`choices` offers a large decision in steps (``plot FOR ?``, ``collect p1=FF ?``,
``attack 1=? 3=?``, ``defend ARC>AXE ?CAT``); a move played whole (a record's, a
player's) is below exactly one step of each level. :func:`choice_path` names those
steps from the move itself (:func:`step_texts`: each step's text is a prefix of the
move, in the order :func:`expand` fills it in) and follows them through
:func:`choices` and :func:`expand`: one level each, never a search, whatever the size
of the decision (a collect of 1,440 assignments is as quick as a purchase).

>>> from civcards.civ4.game import new_game
>>> g = new_game(2, seed=5)
>>> move = g.legal_strings()[0]
>>> [c.text for c in choice_path(g, move)] == [move]
True
"""

from __future__ import annotations

from typing import Any, TypeVar, overload

from .choices import Choice, Maker, choices, expand
from .game import DEFEND, GameState
from .moves import Move, format_move, parse_move

C = TypeVar("C")


def step_texts(g: GameState, m: Move) -> list[str]:
    """The texts of the steps that may stand above ``m`` in the position ``g``, the
    coarsest first. A level that offers its moves whole shows none of its steps: a path
    holds those of its steps that its levels show."""
    k = m.kind
    if k == "discard":
        return [f"discard {','.join(m.cards[:i])} ?" for i in range(1, len(m.cards))]
    if k == "place":
        return [
            "place " + ",".join(f"p{x}" for x in m.plots[:i]) + " ?" for i in range(1, len(m.plots))
        ]
    if k == "collect":
        terms = [f"p{n}={letters}" for n, letters in m.collect]
        return [" ".join(["collect", *terms[:i]]) + " ?" for i in range(1, len(terms))]
    if k == "plot":
        return [f"plot {m.code} ?", f"plot {m.code} {m.res[0]}F ?"]
    if k == "build":
        return [f"build {m.code} p{m.num} ?"]
    if k == "use":
        return [f"use {m.code} {m.num} ?"]
    if k == "attack":
        out = ["attack ?", "attack " + " ".join(f"{s}=?" for s, _ in m.attack)]
        for i in range(1, len(m.attack)):
            done = [f"{s}={','.join(us)}" for s, us in m.attack[:i]]
            out.append("attack " + " ".join(sorted(done + [f"{s}=?" for s, _ in m.attack[i:]])))
        return out
    if k == "defend" and g.step == DEFEND and g.combat is not None:
        c = g.combat
        acodes = sorted(set(c.assigned(c.defenders[c.idx])))
        blocks = sorted(m.blocks, key=lambda b: (b[1], b[0]))
        out = []
        for j in range(len(acodes) - 1):
            body = ["defend"] + [f"{b}>{a}" for b, a in blocks if a in acodes[: j + 1]]
            out.append(" ".join(body) + f" ?{acodes[j + 1]}")
        return out
    if k == "damage":
        return ["damage steal " + (",".join(f"p{x}" for x in m.plots) or "-") + " ?"]
    return []


@overload
def choice_path(g: GameState, text: str) -> list[Choice]: ...
@overload
def choice_path(g: GameState, text: str, make: Maker[C]) -> list[C]: ...
def choice_path(g: GameState, text: str, make: Any = Choice) -> list[Any]:
    """The choices that lead to the move ``text`` in ``g``: one of :func:`choices`, then
    one of the :func:`expand` of each step before it; the last is the move's final
    choice (its canonical text). ValueError with a sentence if ``text`` cannot be read
    or is not among the choices of ``g``."""
    m = parse_move(text)
    canon = format_move(m)
    if g.to_move is None:
        raise ValueError(f"the game is over: {canon!r} is not a choice")
    wanted = step_texts(g, m)
    level = choices(g, make)
    path: list[Any] = []
    while True:
        by_text = {c.text: c for c in level}
        hit = by_text.get(canon)
        if hit is not None and hit.final:
            path.append(hit)
            return path
        at = next((i for i, s in enumerate(wanted) if s in by_text), None)
        if at is None:
            raise ValueError(f"{canon!r} is not among the choices of this position")
        step = by_text[wanted[at]]
        del wanted[: at + 1]
        path.append(step)
        level = expand(g, step.text, make)


__all__ = ["choice_path", "step_texts"]
