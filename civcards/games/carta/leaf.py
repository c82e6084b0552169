"""CIV's leaf values for the search (:func:`values`): who wins a finished game, else the
learned value network or the greedy evaluation squashed into (0, 1).

:mod:`.search` (the kit) and :mod:`.value_fit` (its trainer) both read them, so
neither imports the other for them.
"""

from __future__ import annotations

import math

from ...carta.game import OVER, GameState
from .greedy import Local, evaluate
from .value import ValueNet

__all__ = ["TEMPERATURE", "local_view", "values"]

#: the scale of the greedy evaluation before the logistic squash
TEMPERATURE = 20.0


def local_view(g: GameState, seat: int, known: list[list[int]] | None = None) -> Local:
    """The greedy bot's picture (:class:`~civcards.games.carta.greedy.Local`) of a whole state."""
    n = g.n
    dem = [[0] * 6 for _ in range(n)]
    emb = [[0] * 6 for _ in range(n)]
    for s, d, k, _ in g.markers:
        (dem if k == "democracy" else emb)[s][d] += 1
    st = Local.__new__(Local)
    st.me = seat
    st.n = n
    st.teams = g.teams
    st.thr = (g.l1, g.l2, g.heg)
    st.hand = g.hands[seat][:]
    st.areas = [a[:] for a in g.areas]
    st.discard = g.discard[:]
    st.dem = dem
    st.emb = emb
    st.known = known if known is not None else [[0] * 6 for _ in range(n)]
    st.hand_sizes = [sum(h) for h in g.hands]
    st.deck = len(g.deck)
    st.era = g.era
    st.last_round = g.last_round
    st.copied_hand = g.copied_hand if seat == g.active else 0
    return st


def values(
    g: GameState,
    seat: int,
    known: list[list[int]] | None = None,
    net: ValueNet | None = None,
) -> list[float]:
    """The value of ``g`` to each seat, in ``[0, 1]``, as ``seat`` searches it (see the
    module's documentation: max-n with three players and a network, else paranoid)."""
    n = g.n
    if g.phase == OVER:
        w = g.winners
        mine = 1.0 / len(w) if seat in w else 0.0
    elif net is not None:
        if n == 3:
            chances = net.probabilities(g)
            total = sum(chances)
            return [p / total for p in chances]
        mine = net.probability(g, seat)
    else:
        v = evaluate(local_view(g, seat, known)) / TEMPERATURE
        mine = 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, v))))
    if g.teams:
        return [mine if s % 2 == seat % 2 else 1.0 - mine for s in range(n)]
    return [mine if s == seat else 1.0 - mine for s in range(n)]
