"""civ4's greedy view shares its figures between views of one board, and of one board and
hand (issue 40's speed work, :mod:`civcards.games.civ4.greedy_figures`): a view built
where many others were built before sees exactly what a fresh one sees. The figures are the rules' numbers as the seat knows them: costs (C26, C50), room
(C18), effects (C52-C66), statuses (C49, C50) and the score (C70)."""

from __future__ import annotations

import random
from typing import Any

from civcards.civ4.observation import observe
from civcards.game_api import default_options, get_game
from civcards.games.civ4.greedy_view import View, clear_figures
from tests.civ4.helpers import random_move

GAME = get_game("civ4")


def _figures(v: View) -> list[Any]:
    banned = v.given_this_turn()
    plan = v.plan()
    return [
        [(t.text, t.rtype, t.cost, repr(t.value), v.fund(t, banned)) for t in v.targets()],
        [repr(v.hold(c)) for c in v.hand],
        v.reserve(),
        None if plan is None else (plan[0].text, plan[1]),
        [(t.text, repr(t.value)) for t in v.targets("pop p1")],
    ]


def _walk(fresh: bool) -> list[Any]:
    """Every seat's figures at every position of a few random games (C26, C49, C50,
    C52-C66, C70), the shared figures dropped before each view when ``fresh``."""
    out: list[Any] = []
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        state = GAME.new_state(players, default_options(GAME, players), seed)
        rng = random.Random(seed)
        while GAME.result(state) is None:
            if state.step not in ("draft", "settle"):
                for seat in range(players):
                    if fresh:
                        clear_figures()
                    out.append(_figures(View(observe(state, seat), seat)))
            state.apply(random_move(state, rng))
    return out


def test_shared_figures_are_a_fresh_views() -> None:
    """The figures of views built one after another (sharing what they can) are those of
    views built each from nothing."""
    clear_figures()
    shared = _walk(fresh=False)
    assert len(shared) > 1000
    assert shared == _walk(fresh=True)
