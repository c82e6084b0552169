"""Training the search bot's value network (``civcards train-value``).

1. :func:`generate` plays games between greedy bots (each move, with a small
   probability, a random one instead, so that positions off the greedy line
   are seen too) and records positions along the way: the
   :func:`civcards.games.carta.value.features` of every seat, and whether that seat
   went on to win (a shared victory counts as a share).
2. :func:`fit` trains the one-hidden-layer network on them with NumPy (Adam,
   cross-entropy), holding one game in ten out to report the validation
   log-loss and accuracy beside those of the greedy evaluation squashed as
   the search bot used to (the baseline to beat).
3. :func:`write_weights` writes the JSON file that
   :func:`civcards.games.carta.value.value_net` reads.

Everything is seeded: the same arguments give the same file.
"""

from __future__ import annotations

import json
import math
import random
from array import array
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...bots import bot_choice, make_bot
from ...carta.game import GameState
from ...game_api import get_game
from .leaf import values
from .value import FEATURE_SETS, FORMAT, features_all, featurizer, num_features, weights_file

#: chance of a random move instead of the greedy one
EXPLORE = 0.05
#: chance that a position is recorded
SAMPLE = 0.35


@dataclass
class Samples:
    """Recorded positions: features (flat, NUM_FEATURES a row), outcome, game, greedy baseline."""

    x: array[float]
    y: array[float]
    game: array[int]
    baseline: array[float]

    @classmethod
    def empty(cls) -> Samples:
        return cls(array("f"), array("f"), array("l"), array("f"))

    def __len__(self) -> int:
        return len(self.y)

    def extend(self, other: Samples) -> None:
        self.x += other.x
        self.y += other.y
        self.game += other.game
        self.baseline += other.baseline


def _greedy_probability(g: GameState, seat: int) -> float:
    """The search bot's old leaf value: the greedy evaluation, squashed (the baseline)."""
    return values(g, seat)[seat]


def play_and_record(players: int, seed: int, index: int, features: str = "v1") -> Samples:
    """Play game ``index`` of a run seeded ``seed`` and record its positions.

    ``features`` names the feature set (:data:`civcards.games.carta.value.FEATURE_SETS`);
    it changes what is recorded, not how the game is played.
    """
    featurizer(features)  # an unknown feature set is refused at once
    rng = random.Random(f"value:{players}:{seed}:{index}")
    game: Any = get_game("carta")
    g = game.new_state(players, {}, rng.randrange(1 << 62))
    bots = [make_bot(game, "greedy", seed=rng.randrange(1 << 30)) for _ in range(players)]
    rows: list[tuple[list[float], int, float]] = []
    while not g.finished:
        seat = g.active
        if rng.random() < SAMPLE:
            for s, f in enumerate(features_all(g, features)):
                rows.append((f, s, _greedy_probability(g, s)))
        if rng.random() < EXPLORE:
            choice = rng.choice(game.choices(g))
            if not choice.final:
                choice = rng.choice(game.expand(g, choice).choices)
        else:
            choice = bot_choice(bots[seat], game, g)
        game.apply_choice(g, choice)
    w = g.winners
    out = Samples.empty()
    for f, s, b in rows:
        out.x.extend(f)
        out.y.append(1.0 / len(w) if s in w else 0.0)
        out.game.append(index)
        out.baseline.append(b)
    return out


def _chunk(args: tuple[int, int, int, int, str]) -> Samples:
    players, seed, start, stop, features = args
    out = Samples.empty()
    for i in range(start, stop):
        out.extend(play_and_record(players, seed, i, features))
    return out


def generate(
    players: int,
    games: int,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    features: str = "v1",
) -> Samples:
    """Play ``games`` recorded games (over ``jobs`` processes); deterministic in ``seed``."""
    if players not in (2, 3, 4):
        raise ValueError("CIV is played by 2, 3 or 4 players")
    featurizer(features)  # an unknown feature set is refused before any game is played
    if games < 1:
        raise ValueError("--games must be at least 1")
    step = max(1, min(200, games // max(1, jobs * 4) or 1))
    chunks = [(players, seed, i, min(games, i + step), features) for i in range(0, games, step)]
    out = Samples.empty()
    if jobs <= 1:
        for c in chunks:
            out.extend(_chunk(c))
            if progress:
                progress(c[3] - c[2])
        return out
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for c, part in zip(chunks, pool.map(_chunk, chunks), strict=True):
            out.extend(part)
            if progress:
                progress(c[3] - c[2])
    return out


def _log_loss(p: Any, y: Any) -> float:
    import numpy as np

    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


def fit(
    samples: Samples,
    hidden: int = 32,
    epochs: int = 30,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> tuple[dict[str, Any], dict[str, float]]:
    """Fit the network; returns its weights (features unscaled) and validation figures."""
    import numpy as np

    y = np.asarray(samples.y, dtype=np.float32)
    if len(y) < 20 or len(samples.x) % len(y):
        raise ValueError("too few positions to fit a network: play more games")
    width = len(samples.x) // len(y)
    x = np.frombuffer(samples.x, dtype=np.float32).reshape(len(y), width)
    games = np.asarray(samples.game)
    base = np.asarray(samples.baseline, dtype=np.float32)
    return fit_arrays(x, y, games, base, hidden=hidden, epochs=epochs, seed=seed, progress=progress)


def fit_arrays(
    x: Any,
    y: Any,
    games: Any,
    base: Any,
    hidden: int = 32,
    epochs: int = 30,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
    batch: int = 2048,
) -> tuple[dict[str, Any], dict[str, float]]:
    """:func:`fit` on NumPy arrays: features (a row a position), outcomes, games, baseline.

    Training runs in single precision (millions of positions fit in memory);
    the weights are written in double.
    """
    import numpy as np

    if len(y) < 20:
        raise ValueError("too few positions to fit a network: play more games")
    width = x.shape[1]
    val = (games % 10) == 0
    if not val.any() or val.all():
        val = np.arange(len(y)) % 10 == 0
    tr = ~val
    mu = x[tr].mean(0, dtype=np.float64)
    sd = x[tr].std(0, dtype=np.float64)
    sd[sd < 1e-6] = 1.0
    xs = ((x - mu.astype(np.float32)) / sd.astype(np.float32)).astype(np.float32)
    rng = np.random.default_rng(seed)
    w1 = rng.normal(0.0, 1.0 / math.sqrt(width), (width, hidden)).astype(np.float32)
    b1 = np.zeros(hidden, dtype=np.float32)
    w2 = rng.normal(0.0, 1.0 / math.sqrt(hidden), hidden).astype(np.float32)
    b2 = np.zeros(1, dtype=np.float32)
    params = [w1, b1, w2, b2]
    m1 = [np.zeros_like(p) for p in params]
    m2 = [np.zeros_like(p) for p in params]
    lr, decay, step = 2e-3, 1e-5, 0
    xt, yt = xs[tr], y[tr].astype(np.float32)

    def forward(xb: Any) -> tuple[Any, Any]:
        act = np.tanh(xb @ params[0] + params[1])
        return act, act @ params[2] + params[3][0]

    for ep in range(epochs):
        order = rng.permutation(len(yt))
        for i in range(0, len(order), batch):
            j = order[i : i + batch]
            xb, yb = xt[j], yt[j]
            act, logit = forward(xb)
            p = 1.0 / (1.0 + np.exp(-logit))
            g = (p - yb) / len(j)
            ga = np.outer(g, params[2]) * (1.0 - act * act)
            grads = [xb.T @ ga + decay * params[0], ga.sum(0), act.T @ g + decay * params[2]]
            grads.append(np.array([g.sum()]))
            step += 1
            for k in range(4):
                m1[k] = 0.9 * m1[k] + 0.1 * grads[k]
                m2[k] = 0.999 * m2[k] + 0.001 * grads[k] ** 2
                mh = m1[k] / (1 - 0.9**step)
                vh = m2[k] / (1 - 0.999**step)
                params[k] -= lr * mh / (np.sqrt(vh) + 1e-8)
        if ep == int(epochs * 0.7):
            lr *= 0.3
        if progress:
            progress(1)
    _, logit = forward(xs[val])
    p = 1.0 / (1.0 + np.exp(-logit))
    yv = y[val]
    metrics = {
        "positions": float(len(y)),
        "validation_positions": float(val.sum()),
        "val_log_loss": _log_loss(p, yv),
        "val_accuracy": float(((p > 0.5) == (yv > 0.5)).mean()),
        "greedy_log_loss": _log_loss(base[val], yv),
        "greedy_accuracy": float(((base[val] > 0.5) == (yv > 0.5)).mean()),
    }
    # fold the scaling into the first layer: the file takes raw features
    w1f = params[0] / sd[:, None]
    b1f = params[1] - (mu / sd) @ params[0]
    weights = {
        "w1": [[round(float(v), 7) for v in row] for row in w1f.T],
        "b1": [round(float(v), 7) for v in b1f],
        "w2": [round(float(v), 7) for v in params[2]],
        "b2": round(float(params[3][0]), 7),
    }
    return weights, metrics


def write_weights(
    path: str | Path,
    players: int,
    weights: dict[str, Any],
    meta: dict[str, Any],
    features: str = "v1",
) -> None:
    if len(weights["w1"][0]) != num_features(features, players):
        raise ValueError(f"the weights do not take the {features} features of {players} players")
    data: dict[str, Any] = {"format": FORMAT, "players": players}
    if features != "v1":
        data["features"] = features
    data.update(weights)
    data["meta"] = meta
    Path(path).write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")


def default_path(players: int) -> Path:
    return Path(__file__).resolve().parent / "weights" / weights_file(players)


__all__ = [
    "FEATURE_SETS",
    "Samples",
    "default_path",
    "fit",
    "generate",
    "play_and_record",
    "write_weights",
]
