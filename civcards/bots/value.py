"""A learned value: the chance that a seat wins from a position, by a small neural network.

The search bot (:mod:`civcards.bots.ismcts`) values the positions at the leaves
of its tree with this network where one was trained for the player count (see
:func:`value_net`); the hand-written greedy evaluation is its fallback.

* :func:`features` describes a complete position (as the searcher dealt it)
  from one seat's side in :data:`NUM_FEATURES` numbers: for each domain the
  seat's play area and hand against the hegemony threshold (R6, R20), the
  strongest opponent's, Embargo markers (R17), the discard pile (R14) and the
  cards left in the deck; then the deck's size and era, whose turn it is, the
  majority race (R22), the Culture majority (R19), hand sizes (R16) and the
  Democracy markers.
* :class:`ValueNet` is a one-hidden-layer perceptron (tanh) whose output is
  the logit of the probability that the seat wins. It runs on the standard
  library only.
* The weights ship as JSON files in ``civcards/bots/weights/`` (``value-2p.json``
  …). ``civcards train-value`` makes them again: it plays greedy games, records
  positions with their outcome, fits the network with NumPy and writes the
  file (:mod:`civcards.sim.value_fit`).

>>> from civcards.carta import new_game
>>> g = new_game(2, seed=1)
>>> len(features(g, 0)) == NUM_FEATURES
True
>>> net = value_net(2)
>>> net is not None and 0.0 < net.probability(g, 0) < 1.0
True
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from importlib import resources
from operator import mul
from typing import Any

from ..carta.cards import ERA_COMPOSITION
from ..carta.game import PLAY, GameState, majority_points

#: cards of each domain in the whole game (R1)
TOTALS = tuple(sum(era[d] for era in ERA_COMPOSITION) for d in range(6))
#: numbers per domain, then numbers for the whole position
PER_DOMAIN = 12
GLOBAL = 25
NUM_FEATURES = PER_DOMAIN * 6 + GLOBAL
#: the format written by :mod:`civcards.sim.value_fit` and read here
FORMAT = "civcards-value-mlp/1"

CULTURE = 4


def features(g: GameState, me: int) -> list[float]:
    """The position ``g`` seen from seat ``me``, as the network's input.

    ``g`` is a complete state: in a search, one deal of the hidden cards
    consistent with what the searching seat knows.
    """
    n = g.n
    heg = g.heg
    dem = [[0] * 6 for _ in range(n)]
    emb = [[0] * 6 for _ in range(n)]
    for s, d, k, _ in g.markers:
        (dem if k == "democracy" else emb)[s][d] += 1
    areas = g.areas
    hands = g.hands
    a = areas[me]
    h = hands[me]
    opps = [s for s in range(n) if s != me and not (g.teams and s % 2 == me % 2)]
    deck = g.deck
    dk = [0] * 6
    for d in deck:
        dk[d] += 1
    out: list[float] = []
    best_me = best_me_h = best_o = best_o_h = 0.0
    for d in range(6):
        t = heg + dem[me][d]
        x = a[d] / t
        xh = (a[d] + h[d]) / t
        if x > best_me:
            best_me = x
        if xh > best_me_h:
            best_me_h = xh
        ox = oxh = 0.0
        oh = oe = 0
        for s in opps:
            to = heg + dem[s][d]
            ad = areas[s][d]
            hd = hands[s][d]
            v = ad / to
            if v > ox:
                ox = v
            vh = (ad + hd) / to
            if vh > oxh:
                oxh = vh
            if hd > oh:
                oh = hd
            oe += emb[s][d]
        if ox > best_o:
            best_o = ox
        if oxh > best_o_h:
            best_o_h = oxh
        out += (
            x,
            x * x * x,
            h[d] / 3.0,
            xh * xh * xh,
            ox,
            ox * ox * ox,
            oh / 3.0,
            oxh * oxh * oxh,
            float(emb[me][d]),
            float(oe),
            g.discard[d] / TOTALS[d],
            dk[d] / TOTALS[d],
        )
    nd = len(deck)
    era = g.era
    pts = majority_points(areas, g.teams)
    own = pts[me % 2] if g.teams else pts[me]
    rival = pts[1 - me % 2] if g.teams else max(pts[s] for s in opps)
    margin = own - rival
    late = max(0.0, 1.0 - nd / 30.0)
    mine_turn = g.active == me
    cm = a[CULTURE]
    culture = 1.0 if cm and all(areas[s][CULTURE] < cm for s in range(n) if s != me) else 0.0
    other_culture = 0.0
    for s in opps:
        c = areas[s][CULTURE]
        if c and all(areas[r][CULTURE] < c for r in range(n) if r != s):
            other_culture = 1.0
    out += (
        nd / 104.0,
        1.0 if era == 0 else 0.0,
        1.0 if era == 1 else 0.0,
        1.0 if era == 2 else 0.0,
        1.0 if g.last_round else 0.0,
        1.0 if mine_turn else 0.0,
        1.0 if mine_turn and g.phase == PLAY else 0.0,
        margin / 6.0,
        late * margin / 6.0,
        (2.0 if g.last_round else late) * margin / 6.0,
        culture,
        other_culture,
        g.hand_size(me) / 7.0,
        max(g.hand_size(s) for s in opps) / 7.0,
        sum(h) / 7.0,
        max(sum(hands[s]) for s in opps) / 7.0,
        best_me,
        best_me_h,
        best_o,
        best_o_h,
        best_me**4,
        best_o**4,
        sum(sum(dem[s]) for s in opps) / 3.0,
        sum(dem[me]) / 3.0,
        1.0,
    )
    return out


class ValueNet:
    """A one-hidden-layer perceptron: :data:`NUM_FEATURES` inputs, tanh, one logit."""

    __slots__ = ("b1", "b2", "hidden", "meta", "players", "w1", "w2")

    def __init__(self, data: dict[str, Any]) -> None:
        if data.get("format") != FORMAT:
            raise ValueError(f"not a value network file (format {data.get('format')!r})")
        w1 = data["w1"]
        if any(len(row) != NUM_FEATURES for row in w1):
            raise ValueError(f"the network expects {NUM_FEATURES} features")
        self.players = int(data["players"])
        self.w1 = [tuple(float(x) for x in row) for row in w1]
        self.b1 = [float(x) for x in data["b1"]]
        self.w2 = [float(x) for x in data["w2"]]
        self.b2 = float(data["b2"])
        if not (len(self.b1) == len(self.w2) == len(self.w1)):
            raise ValueError("the network's layers do not match")
        self.hidden = len(self.w1)
        self.meta: dict[str, Any] = dict(data.get("meta") or {})

    def logit(self, x: list[float]) -> float:
        tanh = math.tanh
        hid = [tanh(sum(map(mul, row, x)) + b) for row, b in zip(self.w1, self.b1, strict=True)]
        out: float = sum(map(mul, self.w2, hid)) + self.b2
        return out

    def probability(self, g: GameState, seat: int) -> float:
        """The network's chance that ``seat`` (its team, R24) wins from ``g``."""
        z = self.logit(features(g, seat))
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))


def weights_file(players: int) -> str:
    return f"value-{players}p.json"


@lru_cache(maxsize=8)
def value_net(players: int, teams: bool = False) -> ValueNet | None:
    """The shipped network for ``players`` players, or None where none was trained.

    The team game (R24) has none: its positions differ from the free-for-all
    ones the networks learnt from.
    """
    if teams:
        return None
    try:
        text = resources.files("civcards.bots").joinpath("weights", weights_file(players))
        data = json.loads(text.read_text(encoding="utf-8"))
    except (FileNotFoundError, OSError):
        return None
    net = ValueNet(data)
    return net if net.players == players else None


__all__ = ["FORMAT", "NUM_FEATURES", "ValueNet", "features", "value_net", "weights_file"]
