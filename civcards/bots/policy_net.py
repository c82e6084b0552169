"""A policy-value network over a game's encoding (:mod:`civcards.envs.protocol`), in NumPy.

The network reads a seat's observation vector (``ActionTable.encode(seat)``)
and gives

* a *policy*: one logit per action of the game's fixed action space, of which
  only the legal ones are ever read (:meth:`PolicyValueNet.policy`);
* a *value*: the seat's chance of winning, in (0, 1).

Shape: the observation is standardised (``(x - mean) / scale``, both stored
with the weights), then two dense layers with ReLU (``hidden`` units each,
the second may be narrower: ``trunk``), then a policy layer and a value layer.
Playing needs NumPy only; :mod:`civcards.learn.torch_net` trains the same
network in PyTorch and writes the same file.

The weights are one ``.npz`` file (float16 on disk, float32 in memory) with a
JSON header (``meta``: the game, the shapes, how they were trained).

Moves and actions: the search's branches are whole moves (or a hidden step),
the encoding's actions may be parts of a move (CIV's Discovery picks, civ4's
tokens). A branch's *action* is the legal action whose name is the move's
text or the first words of it (:func:`action_for_text`); the branches that
share an action share its probability (civ4's payments below one purchase).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from itertools import chain, repeat
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]

#: the file format's version (``meta["format"]``)
FORMAT = 1
#: the arrays of a network, in order
LAYERS = ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv")


class PolicyValueNet:
    """The network's forward pass in NumPy (see the module's documentation)."""

    def __init__(self, arrays: dict[str, Any], meta: dict[str, Any] | None = None) -> None:
        self.meta: dict[str, Any] = dict(meta or {})
        a = {k: np.asarray(arrays[k], dtype=np.float32) for k in (*LAYERS, "mean", "scale")}
        self.arrays = a
        self.w1, self.b1 = a["w1"], a["b1"]
        self.w2, self.b2 = a["w2"], a["b2"]
        self.wp, self.bp = a["wp"], a["bp"]
        self.wv, self.bv = a["wv"], a["bv"]
        self.mean, self.scale = a["mean"], a["scale"]
        #: the policy layer's columns, one per action (contiguous: a legal subset is cheap)
        self.wp_t = np.ascontiguousarray(self.wp.T)
        #: the first layer with the input scaling folded in: an observation is mostly
        #: zeros, so one observation reads only the rows of its non-zero entries (small
        #: products, which BLAS does not spread over threads that a busy machine lacks)
        self.w1_in = np.ascontiguousarray(self.w1 / self.scale[:, None])
        self.b1_in = (self.b1 - (self.mean / self.scale) @ self.w1).astype(np.float32)
        #: the value layer's column and bias (views, read at every leaf)
        self.wv0 = self.wv[:, 0]
        self.bv0 = self.bv[0]
        self.obs_size = int(self.w1.shape[0])
        self.action_size = int(self.wp.shape[1])

    @classmethod
    def fresh(
        cls,
        obs_size: int,
        action_size: int,
        hidden: int = 256,
        trunk: int = 128,
        seed: int = 0,
        meta: dict[str, Any] | None = None,
    ) -> PolicyValueNet:
        """A network of random weights (He initialisation), inputs unscaled."""
        rng = np.random.default_rng(seed)

        def dense(i: int, o: int) -> F32:
            w: F32 = (rng.standard_normal((i, o)) * np.sqrt(2.0 / i)).astype(np.float32)
            return w

        arrays = {
            "w1": dense(obs_size, hidden),
            "b1": np.zeros(hidden, np.float32),
            "w2": dense(hidden, trunk),
            "b2": np.zeros(trunk, np.float32),
            "wp": dense(trunk, action_size) * np.float32(0.1),
            "bp": np.zeros(action_size, np.float32),
            "wv": dense(trunk, 1) * np.float32(0.1),
            "bv": np.zeros(1, np.float32),
            "mean": np.zeros(obs_size, np.float32),
            "scale": np.ones(obs_size, np.float32),
        }
        return cls(arrays, meta)

    # -- the forward pass ------------------------------------------------------------

    def trunk(self, x: npt.ArrayLike) -> F32:
        """The second hidden layer's activations of one observation (or a batch)."""
        x = np.asarray(x, dtype=np.float32)
        if x.ndim == 1:
            # the same sums as ``max(x[nz] @ w1_in[nz] + b1_in, 0)`` and so on, in place
            nz = x.nonzero()[0]
            h = x[nz] @ self.w1_in[nz]
            h += self.b1_in
            np.maximum(h, 0.0, out=h)
            out: F32 = h @ self.w2
            out += self.b2
            np.maximum(out, 0.0, out=out)
            return out
        h = np.maximum(((x - self.mean) / self.scale) @ self.w1 + self.b1, 0.0)
        out = np.asarray(np.maximum(h @ self.w2 + self.b2, 0.0), dtype=np.float32)
        return out

    def forward(self, x: npt.ArrayLike) -> tuple[F32, F32]:
        """(logits over every action, value logit) of an observation or a batch of them."""
        h = self.trunk(x)
        return h @ self.wp + self.bp, (h @ self.wv + self.bv)[..., 0]

    def evaluate(self, x: npt.ArrayLike, legal: Sequence[int]) -> tuple[F32, float]:
        """(probabilities over ``legal``, the seat's chance of winning) of one observation.

        Only the legal actions' logits are computed (the policy layer is the big one).
        """
        h = self.trunk(x)
        return self.policy_of(h, legal), self.value_of(h)

    def value(self, x: npt.ArrayLike) -> float:
        """The seat's chance of winning (the value head alone)."""
        return self.value_of(self.trunk(x))

    def value_of(self, h: F32) -> float:
        """The value head on one observation's :meth:`trunk` (what :meth:`value` gives)."""
        return float(1.0 / (1.0 + np.exp(-float(h @ self.wv0 + self.bv0))))

    def policy_of(self, h: F32, legal: Sequence[int]) -> F32:
        """The probabilities over ``legal`` from one observation's :meth:`trunk` (those of
        :meth:`evaluate`): the search asks for them only where it expands a node."""
        if not legal:
            return np.zeros(0, np.float32)
        idx = np.fromiter(legal, dtype=np.intp, count=len(legal))
        logits = self.wp_t[idx] @ h + self.bp[idx]
        # ``logits.max()`` and ``p.sum()`` without their Python wrappers (the same reductions)
        logits -= np.maximum.reduce(logits)
        p: F32 = np.exp(logits)
        p /= np.add.reduce(p)
        return p

    # -- files -----------------------------------------------------------------------

    def save(self, path: str | Path) -> None:
        """Write the network to ``path`` (``.npz``, float16 weights, the meta as JSON)."""
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        meta = {**self.meta, "format": FORMAT}
        out: dict[str, Any] = {k: v.astype(np.float16) for k, v in self.arrays.items()}
        # the input statistics keep full precision (a count's scale may be tiny)
        out["mean"] = self.mean
        out["scale"] = self.scale
        out["meta"] = np.frombuffer(json.dumps(meta, sort_keys=True).encode(), dtype=np.uint8)
        tmp = p.with_name(p.name + ".tmp.npz")
        with open(tmp, "wb") as f:
            np.savez_compressed(f, **out)
        tmp.replace(p)

    @classmethod
    def load(cls, path: str | Path) -> PolicyValueNet:
        """Read a network written by :meth:`save`; ValueError with a sentence if it is not one."""
        p = Path(path)
        try:
            with np.load(p, allow_pickle=False) as z:
                arrays = {k: z[k] for k in z.files}
        except (OSError, ValueError) as e:
            raise ValueError(f"{p} is not a network's weights file ({e})") from None
        missing = [k for k in (*LAYERS, "mean", "scale", "meta") if k not in arrays]
        if missing:
            raise ValueError(f"{p} is not a network's weights file: no {', '.join(missing)}")
        meta = json.loads(bytes(arrays.pop("meta")).decode())
        return cls(arrays, meta)

    def size_bytes(self) -> int:
        return sum(int(v.size) * 2 for v in self.arrays.values())


# -- moves to actions ------------------------------------------------------------------


def action_names(table: Any, legal: Iterable[int]) -> dict[str, int]:
    """Each legal action of ``table``'s seat to move, by its name as the seat writes it."""
    name = table.action_name
    return {name(a): a for a in legal}


def action_for_text(names: dict[str, int], text: str) -> int | None:
    """The action of a move (or a step's) text: the action named by the text, or by its
    longest run of first words (civ4: ``plot FOR`` of ``plot FOR 7F5H3C``); None if none."""
    a = names.get(text)
    if a is not None:
        return a
    words = text.split(" ")
    if words and words[-1] == "?":
        words = words[:-1]
        a = names.get(" ".join(words))
        if a is not None:
            return a
    for k in range(len(words) - 1, 0, -1):
        a = names.get(" ".join(words[:k]))
        if a is not None:
            return a
    return None


def shared_priors(
    probs: dict[int, float], actions: Sequence[int | None], copies: Sequence[int] | None = None
) -> list[float]:
    """The prior of each branch from its action's probability, shared among the branches
    of the same action; a branch with no action gets the mean prior. Sums to 1.

    ``copies``: how many times each branch comes (a search's branches counted, not
    listed): each branch's prior is then the one it has with ``actions`` listing it
    that many times in a row (the same floats), and those add up to 1.
    """
    if copies is None:
        counts: dict[int | None, int] = {}
        for a in actions:
            counts[a] = counts.get(a, 0) + 1
        n = len(actions)
    else:
        counts = {}
        for a, c in zip(actions, copies, strict=True):
            counts[a] = counts.get(a, 0) + c
        n = sum(copies)
    if not n:
        return []
    out = [(probs.get(a, 0.0) / counts[a]) if a is not None else -1.0 for a in actions]

    def listed(values: list[float]) -> Iterable[float]:
        # the values as the branches' listing has them (each as often as it comes)
        return values if copies is None else chain.from_iterable(map(repeat, values, copies))

    if None in counts:
        known = [p for p in listed(out) if p >= 0.0]
        fill = (sum(known) / len(known)) if known else 1.0 / n
        out = [p if p >= 0.0 else fill for p in out]
    total = sum(listed(out))
    if total <= 0.0:
        return [1.0 / n] * len(actions)
    return [p / total for p in out]


__all__ = [
    "FORMAT",
    "LAYERS",
    "PolicyValueNet",
    "action_for_text",
    "action_names",
    "shared_priors",
]
