"""Self-play games that make a network's training examples (NumPy only; no PyTorch).

A game gives one example per searched top-level decision: the seat's
observation vector, the target policy (each first action's share of the
search's root visits, or the imitated bot's move) and, once the game is over,
the seat's outcome (its share of the victory). Two kinds of games:

* **imitation** (``mode="imitate"``): every seat is the teacher bot; the
  target is the teacher's move or (``target="visits"``, a search teacher such
  as ``ismcts:1000it``, the expert of expert iteration) each first action's
  share of its root visits at the move's top-level decision (:class:`TopOptions`);
* **search** (``mode="search"``, expert iteration): every seat is
  ``ismcts+net`` with the current network; the first ``sample_moves``
  decisions of each seat are drawn in proportion to the visits (variety),
  the others are the most visited.

:func:`play_example_game` is a pure function of its config and index, so the
games may be spread over processes or Ray (:func:`civcards.sim.simulate.run_indexed`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..bots import make_bot
from ..bots.base import Bot, Decision, bot_choice
from ..bots.ismcts import OptionValue
from ..bots.netsearch import NetSearchBot, load_network
from ..bots.policy_net import action_for_text, action_names
from ..game_api import Choice, Game, default_options

#: the most actions a target keeps (the largest shares)
TARGET_WIDTH = 16


@dataclass(frozen=True)
class ExampleConfig:
    """The games of one generation: ``mode`` ``imitate`` or ``search``."""

    game: str
    mode: str
    seed: int
    generation: int
    players: int = 2
    weights: str = ""
    iterations: int = 100
    sample_moves: int = 10
    teacher: str = "greedy"
    #: an imitated search's target: ``move`` (its move) or ``visits`` (its root visits)
    target: str = "move"
    #: imitation of the teacher's whole moves (a network that spells them, one pass a
    #: token): ``all`` its every token, ``rest`` every token after the first; "" only
    #: the first action of each move (the default)
    spell: str = ""


def _col_type(width: int) -> type[np.unsignedinteger[Any]] | type[np.int32]:
    return np.uint16 if width <= 65535 else np.int32


@dataclass
class SparseObs:
    """Observation rows stored sparsely (compressed rows): ``indptr[r]:indptr[r + 1]`` are
    row ``r``'s non-zero entries, their columns ``cols`` and values ``vals`` (float16, as
    the dense rows were). A civ4 observation has about 90 non-zero numbers of 4064: about
    370 bytes an example instead of 8 kB, so 2,000 greedy games (about 450,000 examples)
    take about 170 MB."""

    indptr: npt.NDArray[np.int64]
    cols: npt.NDArray[Any]
    vals: npt.NDArray[np.float16]
    width: int

    @classmethod
    def empty(cls, width: int) -> SparseObs:
        return cls(
            np.zeros(1, np.int64), np.zeros(0, _col_type(width)), np.zeros(0, np.float16), width
        )

    @classmethod
    def from_dense(cls, dense: npt.NDArray[Any], chunk: int = 8192) -> SparseObs:
        """The rows of a dense (n, width) array (converted ``chunk`` rows at a time)."""
        n, width = int(dense.shape[0]), int(dense.shape[1])
        counts: list[npt.NDArray[np.int64]] = []
        cols: list[npt.NDArray[Any]] = []
        vals: list[npt.NDArray[np.float16]] = []
        for start in range(0, n, chunk):
            block = np.asarray(dense[start : start + chunk], np.float16)
            r, c = np.nonzero(block)
            counts.append(np.bincount(r, minlength=block.shape[0]).astype(np.int64))
            cols.append(c.astype(_col_type(width)))
            vals.append(block[r, c])
        indptr = np.zeros(n + 1, np.int64)
        if counts:
            np.cumsum(np.concatenate(counts), out=indptr[1:])
        return cls(
            indptr,
            np.concatenate(cols) if cols else np.zeros(0, _col_type(width)),
            np.concatenate(vals) if vals else np.zeros(0, np.float16),
            width,
        )

    def __len__(self) -> int:
        return int(self.indptr.shape[0]) - 1

    @property
    def shape(self) -> tuple[int, int]:
        return (len(self), self.width)

    @property
    def nbytes(self) -> int:
        return int(self.indptr.nbytes + self.cols.nbytes + self.vals.nbytes)

    def _positions(self, rows: npt.NDArray[Any]) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
        """The given rows' lengths and the positions of their entries in ``cols``/``vals``."""
        starts = self.indptr[rows]
        lengths = self.indptr[rows + 1] - starts
        total = int(lengths.sum())
        offsets = np.zeros(len(rows), np.int64)
        np.cumsum(lengths[:-1], out=offsets[1:])
        pos = np.arange(total, dtype=np.int64) + np.repeat(starts - offsets, lengths)
        return lengths, pos

    def take(self, rows: npt.NDArray[Any]) -> SparseObs:
        """The given rows (an array of row numbers), in that order."""
        rows = np.asarray(rows, np.int64)
        lengths, pos = self._positions(rows)
        indptr = np.zeros(len(rows) + 1, np.int64)
        np.cumsum(lengths, out=indptr[1:])
        return SparseObs(indptr, self.cols[pos], self.vals[pos], self.width)

    def tail(self, keep: int) -> SparseObs:
        if len(self) <= keep:
            return self
        first = int(self.indptr[len(self) - keep])
        return SparseObs(
            self.indptr[-keep - 1 :] - first, self.cols[first:], self.vals[first:], self.width
        )

    def dense(
        self, rows: npt.NDArray[Any] | None = None, dtype: Any = np.float32
    ) -> npt.NDArray[Any]:
        """The given rows (all without ``rows``) as a dense array."""
        if rows is None:
            rows = np.arange(len(self), dtype=np.int64)
        rows = np.asarray(rows, np.int64)
        lengths, pos = self._positions(rows)
        out = np.zeros((len(rows), self.width), dtype)
        out[np.repeat(np.arange(len(rows)), lengths), self.cols[pos].astype(np.int64)] = self.vals[
            pos
        ]
        return out

    def column_moments(self) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
        """Each column's sum and sum of squares over the rows."""
        v = self.vals.astype(np.float64)
        c = self.cols.astype(np.int64)
        return (
            np.bincount(c, weights=v, minlength=self.width),
            np.bincount(c, weights=v * v, minlength=self.width),
        )

    @classmethod
    def concat(cls, parts: list[SparseObs], width: int) -> SparseObs:
        if not parts:
            return cls.empty(width)
        if len(parts) == 1:
            return parts[0]
        ends = np.cumsum([int(p.indptr[-1]) for p in parts])
        indptr = np.concatenate(
            [np.zeros(1, np.int64)]
            + [p.indptr[1:] + (int(ends[k - 1]) if k else 0) for k, p in enumerate(parts)]
        )
        return cls(
            indptr,
            np.concatenate([p.cols for p in parts]).astype(_col_type(width)),
            np.concatenate([p.vals for p in parts]),
            width,
        )


@dataclass
class Examples:
    """Training examples: observations (sparse rows), sparse targets (actions, shares) and
    outcomes."""

    obs: SparseObs
    actions: npt.NDArray[np.int32]
    shares: npt.NDArray[np.float32]
    outcomes: npt.NDArray[np.float32]
    #: the game's index in its generation (results are put back in this order)
    index: int = 0

    @classmethod
    def empty(cls, obs_size: int) -> Examples:
        return cls(
            SparseObs.empty(obs_size),
            np.zeros((0, TARGET_WIDTH), np.int32),
            np.zeros((0, TARGET_WIDTH), np.float32),
            np.zeros(0, np.float32),
        )

    def __len__(self) -> int:
        return int(self.outcomes.shape[0])

    @classmethod
    def join(cls, parts: list[Examples], obs_size: int) -> Examples:
        if not parts:
            return cls.empty(obs_size)
        return cls(
            SparseObs.concat([p.obs for p in parts], obs_size),
            np.concatenate([p.actions for p in parts]),
            np.concatenate([p.shares for p in parts]),
            np.concatenate([p.outcomes for p in parts]),
        )

    def tail(self, keep: int) -> Examples:
        """The last ``keep`` examples (the replay buffer's window)."""
        if len(self) <= keep:
            return self
        return Examples(
            self.obs.tail(keep), self.actions[-keep:], self.shares[-keep:], self.outcomes[-keep:]
        )

    def take(self, rows: npt.NDArray[Any]) -> Examples:
        """The given examples (an array of their numbers), in that order."""
        return Examples(
            self.obs.take(rows), self.actions[rows], self.shares[rows], self.outcomes[rows]
        )


class TopOptions(Bot):
    """A bot that plays as ``inner`` and keeps the options its search valued at the last
    top-level decision (``inner.option_values()``; empty for a bot without a search)."""

    def __init__(self, inner: Bot) -> None:
        super().__init__(0)
        self.inner = inner
        self.name = inner.name
        self.top: list[OptionValue] = []

    def choose(self, decision: Decision) -> Choice:
        pick = self.inner.choose(decision)
        if decision.chosen is None:
            values = getattr(self.inner, "option_values", None)
            self.top = list(values()) if values is not None else []
        return pick


def game_seed(cfg: ExampleConfig, i: int) -> int:
    return random.Random(f"civcards-learn:{cfg.seed}:{cfg.generation}:{cfg.mode}:{i}").getrandbits(
        62
    )


def _pack(rows: list[tuple[Any, dict[int, float], int]], outcome: list[float]) -> Examples:
    n = len(rows)
    obs_size = int(np.asarray(rows[0][0]).shape[0]) if rows else 0
    obs = np.zeros((n, obs_size), np.float16)
    acts = np.zeros((n, TARGET_WIDTH), np.int32)
    shares = np.zeros((n, TARGET_WIDTH), np.float32)
    outs = np.zeros(n, np.float32)
    for r, (x, target, seat) in enumerate(rows):
        obs[r] = x
        top = sorted(target.items(), key=lambda t: -t[1])[:TARGET_WIDTH]
        total = sum(w for _, w in top)
        for j, (a, w) in enumerate(top):
            acts[r, j] = a
            shares[r, j] = w / total
        outs[r] = outcome[seat]
    return Examples(SparseObs.from_dense(obs), acts, shares, outs)


def spelled_rows(
    enc: Any, state: Any, move: str, seat: int, rest: bool
) -> list[tuple[Any, dict[int, float], int]]:
    """An example for each token of ``move`` that was a choice (more than one legal
    action), in a copy of ``state``: the observation vector as the token is chosen (the
    tokens before it included) and the token; ``rest``: the first token's left out."""
    table = enc.table(state.copy())
    rows: list[tuple[Any, dict[int, float], int]] = []
    for i, a in enumerate(enc.action_of(enc.table(state), move)):
        if len(table.legal_actions()) > 1 and not (rest and i == 0):
            rows.append((np.array(table.encode(seat), np.float32), {a: 1.0}, seat))
        table.apply_unchecked(a)
    return rows


def play_example_game(cfg: ExampleConfig, i: int, game: Game) -> Examples:
    """Game ``i`` of the generation, played to the end; its examples."""
    gseed = game_seed(cfg, i)
    n = cfg.players
    state = game.new_state(n, game.check_options(n, default_options(game, n)), gseed)
    enc = game.encoding()
    if enc is None:
        raise ValueError(f"{game.title} has no action encoding, so no network can learn it")
    rows: list[tuple[Any, dict[int, float], int]] = []
    if cfg.mode == "imitate":
        bots = [TopOptions(make_bot(game, cfg.teacher, seed=gseed + 1 + s)) for s in range(n)]
        while state.to_move is not None:
            seat = state.to_move
            pick = bot_choice(bots[seat], game, state)
            many = len(game.choices(state)) > 1
            if many and cfg.spell:
                rows += spelled_rows(enc, state, pick.text, seat, cfg.spell == "rest")
            elif many:
                table = enc.table(state)
                target: dict[int, float] = {}
                # a search teacher's root visits (``visits``), else its move
                top = bots[seat].top if cfg.target == "visits" else []
                names = action_names(table, table.legal_actions()) if top else {}
                for ov in top:
                    a = action_for_text(names, ov.choice)
                    if a is not None and ov.visits > 0:
                        target[a] = target.get(a, 0.0) + ov.visits
                if not target:
                    target = {enc.action_of(table, pick.text)[0]: 1.0}
                rows.append((table.encode(seat), target, seat))
            game.apply_choice(state, pick)
    elif cfg.mode == "search":
        net = load_network(game, cfg.weights)
        searchers = [
            NetSearchBot(game, gseed + 1 + s, net=net, iterations=cfg.iterations) for s in range(n)
        ]
        made = [0] * n
        for b in searchers:
            b.records = []
        while state.to_move is not None:
            seat = state.to_move
            bot = searchers[seat]
            bot.sample = made[seat] < cfg.sample_moves
            records = bot.records
            assert records is not None
            before = len(records)
            pick = bot_choice(bot, game, state)
            for x, target in records[before:]:
                rows.append((x, target, seat))
                made[seat] += 1
            game.apply_choice(state, pick)
    else:
        raise ValueError(f"examples mode {cfg.mode!r} is not one of: imitate, search")
    res = game.result(state)
    outcome = [0.0] * n
    if res is not None and res.winners:
        for w in res.winners:
            outcome[w] = 1.0 / len(res.winners)
    else:
        outcome = [1.0 / n] * n
    out = _pack(rows, outcome)
    out.index = i
    return out


__all__ = [
    "TARGET_WIDTH",
    "ExampleConfig",
    "Examples",
    "SparseObs",
    "TopOptions",
    "game_seed",
    "play_example_game",
    "spelled_rows",
]
