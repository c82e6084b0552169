"""A learned value: the chance that a seat wins from a position, by a small neural network.

The search bot (:mod:`civcards.bots.ismcts`, with CIV's search kit :mod:`civcards.games.carta.search`) values the positions at the leaves
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
* The weights ship as JSON files in ``civcards/games/carta/weights/`` (``value-2p.json``
  …). ``civcards train-value`` makes them again: it plays greedy games, records
  positions with their outcome, fits the network with NumPy and writes the
  file (:mod:`civcards.games.carta.value_fit`).

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
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources
from operator import mul
from typing import Any

from ...carta.cards import ERA_COMPOSITION
from ...carta.game import PLAY, GameState, majority_points

#: cards of each domain in the whole game (R1)
TOTALS = tuple(sum(era[d] for era in ERA_COMPOSITION) for d in range(6))
#: numbers per domain, then numbers for the whole position
PER_DOMAIN = 12
GLOBAL = 25
NUM_FEATURES = PER_DOMAIN * 6 + GLOBAL
#: the format written by :mod:`civcards.games.carta.value_fit` and read here
FORMAT = "civcards-value-mlp/1"
#: the feature sets a network may be trained on (its file says which; no word means v1)
FEATURE_SETS = ("v1", "v2")
#: numbers per other seat in the v2 features
PER_SEAT = 16

CULTURE = 4


def features(g: GameState, me: int) -> list[float]:
    """The position ``g`` seen from seat ``me``, as the network's input (feature set v1).

    ``g`` is a complete state: in a search, one deal of the hidden cards
    consistent with what the searching seat knows.
    """
    return features_all(g, "v1", (me,))[0]


def num_features(version: str, players: int) -> int:
    """How many numbers feature set ``version`` gives for ``players`` players.

    >>> num_features("v1", 3), num_features("v2", 3)
    (97, 129)
    """
    if version == "v1":
        return NUM_FEATURES
    if version == "v2":
        return NUM_FEATURES + PER_SEAT * (players - 1)
    raise ValueError(f"unknown feature set {version!r} (known: {', '.join(FEATURE_SETS)})")


def features_v2(g: GameState, me: int) -> list[float]:
    """The v1 :func:`features`, then every other seat in turn order from ``me``'s left.

    For each of them: its play area against its hegemony threshold (R6, R20)
    and its hand, per domain; whether it is the seat to move; its hand size
    (R16), its majority points (R22) and the Embargo markers on it (R17). The
    v1 numbers only see "the strongest opponent"; with three or more players
    who plays next matters (only the active seat wins by hegemony, R21).
    """
    return features_all(g, "v2", (me,))[0]


def features_all(
    g: GameState, version: str = "v1", seats: Iterable[int] | None = None
) -> list[list[float]]:
    """The features of ``seats`` (default: every seat, in order) in feature set ``version``.

    What the seats' numbers share (markers, ratios to the thresholds, the
    deck, majority points, Culture) is worked out once: the search values all
    seats of a leaf (max-n), and this is most of a leaf's cost.
    """
    n = g.n
    heg = g.heg
    teams = g.teams
    dem = [[0] * 6 for _ in range(n)]
    emb = [[0] * 6 for _ in range(n)]
    for s, d, k, _ in g.markers:
        (dem if k == "democracy" else emb)[s][d] += 1
    areas = g.areas
    hands = g.hands
    ratio: list[list[float]] = []
    ratio_h: list[list[float]] = []
    for s in range(n):
        a = areas[s]
        h = hands[s]
        ds = dem[s]
        ratio.append([a[d] / (heg + ds[d]) for d in range(6)])
        ratio_h.append([(a[d] + h[d]) / (heg + ds[d]) for d in range(6)])
    deck = g.deck
    dk = [0] * 6
    for d in deck:
        dk[d] += 1
    tail = [g.discard[d] / TOTALS[d] for d in range(6)]
    tail2 = [dk[d] / TOTALS[d] for d in range(6)]
    nd = len(deck)
    era = g.era
    pts = majority_points(areas, teams)
    late = max(0.0, 1.0 - nd / 30.0)
    cult = [a[CULTURE] for a in areas]
    leader = [
        1.0 if cult[s] and all(cult[r] < cult[s] for r in range(n) if r != s) else 0.0
        for s in range(n)
    ]
    sizes = [g.hand_size(s) for s in range(n)]
    held = [sum(h) for h in hands]
    dem_total = [sum(x) for x in dem]
    head = (
        nd / 104.0,
        1.0 if era == 0 else 0.0,
        1.0 if era == 1 else 0.0,
        1.0 if era == 2 else 0.0,
        1.0 if g.last_round else 0.0,
    )
    active = g.active
    play = g.phase == PLAY
    v2 = version == "v2"
    if v2:
        pts_ffa = majority_points(areas, False) if teams else pts
        emb_total = [sum(x) for x in emb]
        blocks = [
            [
                *ratio[s],
                *(hands[s][d] / 3.0 for d in range(6)),
                1.0 if active == s else 0.0,
                sizes[s] / 7.0,
                pts_ffa[s] / 6.0,
                emb_total[s] / 2.0,
            ]
            for s in range(n)
        ]
    elif version != "v1":
        featurizer(version)  # raises: an unknown feature set
    out_all: list[list[float]] = []
    for me in range(n) if seats is None else seats:
        opps = [s for s in range(n) if s != me and not (teams and s % 2 == me % 2)]
        rm = ratio[me]
        rhm = ratio_h[me]
        h = hands[me]
        em = emb[me]
        out: list[float] = []
        best_me = best_me_h = best_o = best_o_h = 0.0
        for d in range(6):
            x = rm[d]
            xh = rhm[d]
            if x > best_me:
                best_me = x
            if xh > best_me_h:
                best_me_h = xh
            ox = oxh = 0.0
            oh = oe = 0
            for s in opps:
                v = ratio[s][d]
                if v > ox:
                    ox = v
                vh = ratio_h[s][d]
                if vh > oxh:
                    oxh = vh
                hd = hands[s][d]
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
                float(em[d]),
                float(oe),
                tail[d],
                tail2[d],
            )
        own = pts[me % 2] if teams else pts[me]
        rival = pts[1 - me % 2] if teams else max(pts[s] for s in opps)
        margin = own - rival
        mine_turn = active == me
        out += head
        out += (
            1.0 if mine_turn else 0.0,
            1.0 if mine_turn and play else 0.0,
            margin / 6.0,
            late * margin / 6.0,
            (2.0 if g.last_round else late) * margin / 6.0,
            leader[me],
            1.0 if any(leader[s] for s in opps) else 0.0,
            sizes[me] / 7.0,
            max(sizes[s] for s in opps) / 7.0,
            held[me] / 7.0,
            max(held[s] for s in opps) / 7.0,
            best_me,
            best_me_h,
            best_o,
            best_o_h,
            best_me**4,
            best_o**4,
            sum(dem_total[s] for s in opps) / 3.0,
            dem_total[me] / 3.0,
            1.0,
        )
        if v2:
            for i in range(1, n):
                out += blocks[(me + i) % n]
        out_all.append(out)
    return out_all


_FEATURIZERS = {"v1": features, "v2": features_v2}


def featurizer(version: str) -> Any:
    """The feature function of ``version`` (see :data:`FEATURE_SETS`)."""
    try:
        return _FEATURIZERS[version]
    except KeyError:
        raise ValueError(
            f"unknown feature set {version!r} (known: {', '.join(FEATURE_SETS)})"
        ) from None


class ValueNet:
    """A one-hidden-layer perceptron: the features of its set, tanh, one logit.

    Inference runs on NumPy where it is installed (all seats of a position in
    one product, :meth:`probabilities`) and on the standard library otherwise;
    both give the same numbers up to rounding.
    """

    __slots__ = (
        "_b1",
        "_np",
        "_w1t",
        "_w2",
        "b1",
        "b2",
        "features",
        "featurize",
        "hidden",
        "meta",
        "players",
        "w1",
        "w2",
        "width",
    )

    def __init__(self, data: dict[str, Any], *, use_numpy: bool = True) -> None:
        if data.get("format") != FORMAT:
            raise ValueError(f"not a value network file (format {data.get('format')!r})")
        self.players = int(data["players"])
        self.features = str(data.get("features") or "v1")
        self.width = num_features(self.features, self.players)
        self.featurize = featurizer(self.features)
        w1 = data["w1"]
        if any(len(row) != self.width for row in w1):
            raise ValueError(
                f"the network expects {self.width} features ({self.features}, "
                f"{self.players} players)"
            )
        self.w1 = [tuple(float(x) for x in row) for row in w1]
        self.b1 = [float(x) for x in data["b1"]]
        self.w2 = [float(x) for x in data["w2"]]
        self.b2 = float(data["b2"])
        if not (len(self.b1) == len(self.w2) == len(self.w1)):
            raise ValueError("the network's layers do not match")
        self.hidden = len(self.w1)
        self.meta: dict[str, Any] = dict(data.get("meta") or {})
        self._np: Any = None
        if use_numpy:
            np: Any
            try:
                import numpy as np
            except ImportError:  # pragma: no cover - without NumPy the standard library runs it
                np = None
            if np is not None:
                self._np = np
                self._w1t = np.array(self.w1, dtype=np.float64).T.copy()
                self._b1 = np.array(self.b1, dtype=np.float64)
                self._w2 = np.array(self.w2, dtype=np.float64)

    def logit(self, x: list[float]) -> float:
        """The output for one feature vector, on the standard library."""
        tanh = math.tanh
        hid = [tanh(sum(map(mul, row, x)) + b) for row, b in zip(self.w1, self.b1, strict=True)]
        out: float = sum(map(mul, self.w2, hid)) + self.b2
        return out

    def probability(self, g: GameState, seat: int) -> float:
        """The network's chance that ``seat`` (its team, R24) wins from ``g``."""
        np = self._np
        if np is not None:
            x = np.array(self.featurize(g, seat), dtype=np.float64)
            z = float(np.tanh(x @ self._w1t + self._b1) @ self._w2) + self.b2
        else:
            z = self.logit(self.featurize(g, seat))
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))

    def probabilities(self, g: GameState) -> list[float]:
        """The network's chance of every seat, in seat order (one product on NumPy)."""
        np = self._np
        if np is None:
            return [self.probability(g, s) for s in range(g.n)]
        x = np.array(features_all(g, self.features), dtype=np.float64)
        z = np.tanh(x @ self._w1t + self._b1) @ self._w2 + self.b2
        p: list[float] = (1.0 / (1.0 + np.exp(-np.clip(z, -50.0, 50.0)))).tolist()
        return p


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
        text = resources.files(__package__ or "civcards.games.carta").joinpath(
            "weights", weights_file(players)
        )
        data = json.loads(text.read_text(encoding="utf-8"))
    except (FileNotFoundError, OSError):
        return None
    net = ValueNet(data)
    return net if net.players == players else None


__all__ = [
    "FEATURE_SETS",
    "FORMAT",
    "NUM_FEATURES",
    "ValueNet",
    "features",
    "features_all",
    "features_v2",
    "featurizer",
    "num_features",
    "value_net",
    "weights_file",
]
