"""civ4's action encoding and observation tensor: what the research environments wrap.

``Game.encoding()`` of ``civ4`` returns :data:`ENCODING`; the generic shells
of :mod:`civcards.envs` (PettingZoo, Gymnasium, OpenSpiel) drive a game only
through it (:class:`civcards.envs.protocol.Encoding`).

The action vocabulary (tokens of the canonical move) is :mod:`.tokens` and the
observation vector :mod:`.observation_vector`; this module holds the action table
(:class:`Table`) and the rewards (C70), and names the other two's public names as well.

Legality is exact: the engine's factored choices (:func:`civcards.civ4.choices`,
:func:`civcards.civ4.expand`) are expanded only as far as the tokens chosen so
far require, and the legal actions are the next tokens of the legal moves that
begin with them. A token that is the only continuation is taken at once (so a
move ends as soon as it is determined: ``0C`` after ``10F``, ``5H`` is never
asked for). Every legal move is thus exactly one sequence of actions and every
sequence of legal actions ends in a legal move.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from ...civ4 import GameState
from ...civ4.choices import Choice, choices, expand
from ...civ4.moves import format_move, parse_move
from .observation_vector import (
    MAX_PLOTS,
    OBS_HIGH,
    OBS_LAYOUT,
    OBS_OFFSETS,
    OBS_SIZE,
    STEPS,
    UNIT_STATES,
    describe,
    encode,
    encode_observation,
)
from .tokens import (
    ACTION_INDEX,
    ACTIONS,
    BUILDABLE,
    MAX_AMOUNT,
    MAX_PLOT_NUMBER,
    MAX_SEATS,
    NUM_ACTIONS,
    REL_SEATS,
    STEAL_CODES,
    STOP,
    STOP_NAME,
    EncodingError,
    action_groups,
    res_str,
    tokenize,
)

Item = tuple[tuple[int, ...], Choice]

#: every move is spelled as tokens, and a :class:`Table`'s state lists the moves played:
#: ``net`` may spell whole moves (:mod:`civcards.bots.netsearch`)
SPELLS_MOVES = True


# ---------------------------------------------------------------------------
# The action table


class Table:
    """A :class:`GameState` driven by action indices (tokens of the move being spelled).

    ``prefix`` holds the tokens chosen so far in the current move; ``front`` the
    engine's choices (final moves and steps) that agree with it.
    """

    __slots__ = ("_legal", "front", "g", "prefix")

    def __init__(self, g: GameState) -> None:
        self.g = g
        self.prefix: list[int] = []
        self.front: list[Item] | None = None
        self._legal: list[int] | None = None

    @property
    def state(self) -> GameState:
        return self.g

    @property
    def to_move(self) -> int | None:
        return self.g.to_move

    @property
    def finished(self) -> bool:
        return bool(self.g.finished)

    def copy(self) -> Table:
        t = Table(self.g.copy())
        t.prefix = self.prefix[:]
        t.front = None if self.front is None else self.front[:]
        t._legal = self._legal
        return t

    # -- the frontier ---------------------------------------------------------------

    def _items(self, cs: Iterable[Choice]) -> list[Item]:
        g = self.g
        me, n = g.to_move, g.n
        assert me is not None
        return [(tokenize(c.text, me, n), c) for c in cs]

    def _options(self) -> list[int]:
        """The next tokens at the current prefix (STOP last), expanding steps as needed."""
        if self._legal is not None:
            return self._legal
        g = self.g
        if g.finished:
            self._legal = []
            return self._legal
        if self.front is None:
            self.front = self._items(choices(g))
        L = len(self.prefix)
        pre = tuple(self.prefix)
        front = self.front
        while any(not c.final and len(t) <= L for t, c in front):
            new: list[Item] = []
            for t, c in front:
                if c.final or len(t) > L:
                    new.append((t, c))
                    continue
                for tt, cc in self._items(expand(g, c.text)):
                    m = min(len(tt), L)
                    if tt[:m] == pre[:m] and (len(tt) >= L or not cc.final):
                        new.append((tt, cc))
            front = new
        self.front = front
        nxt = sorted({t[L] for t, _ in front if len(t) > L})
        if any(c.final and len(t) == L for t, c in front):
            nxt.append(STOP)
        self._legal = nxt
        return nxt

    def legal_actions(self) -> list[int]:
        """The legal actions of :attr:`to_move`, sorted."""
        return self._options()

    def mask(self) -> npt.NDArray[np.int8]:
        out = np.zeros(NUM_ACTIONS, dtype=np.int8)
        out[self._options()] = 1
        return out

    def is_legal(self, action: int) -> bool:
        return action in self._options()

    def apply(self, action: int) -> None:
        """Play one action of :attr:`to_move`; ``ValueError`` if it is not legal now."""
        if not (isinstance(action, (int, np.integer)) and self.is_legal(int(action))):
            name = (
                ACTIONS[action] if isinstance(action, int) and 0 <= action < NUM_ACTIONS else action
            )
            raise ValueError(f"action {action} ({name}) is not legal now")
        self.apply_unchecked(int(action))

    def apply_unchecked(self, action: int) -> None:
        self._options()
        self._take(action)
        # the only continuation is taken at once: a move ends as soon as it is determined
        while self.prefix:
            opts = self._options()
            if len(opts) != 1:
                break
            self._take(opts[0])

    def _take(self, action: int) -> None:
        front = self.front
        assert front is not None
        L = len(self.prefix)
        if action == STOP:
            for t, c in front:
                if c.final and len(t) == L:
                    self._play(c)
                    return
            raise AssertionError("stop without a move")
        self.prefix.append(action)
        self.front = [(t, c) for t, c in front if len(t) > L and t[L] == action]
        self._legal = None
        if len(self.front) == 1:
            t, c = self.front[0]
            if c.final and len(t) == L + 1:
                self._play(c)

    def _play(self, c: Choice) -> None:
        assert c.move is not None
        self.g.apply_unchecked(c.move, c.text)
        self.prefix = []
        self.front = None
        self._legal = None

    # -- whole moves ----------------------------------------------------------------

    def apply_move(self, move: str) -> None:
        """Play a whole move of the notation (checked), e.g. a bot's; no move may be half spelled."""
        if self.prefix:
            raise ValueError("a move is half spelled: finish it with actions first")
        self.g.apply(move)
        self.front = None
        self._legal = None

    def actions_for(self, move: str) -> list[int]:
        """The actions that play the whole move ``move`` now (``ValueError`` if it is not legal)."""
        g = self.g
        if g.to_move is None:
            raise ValueError("the game is over: there is no move to make")
        text = format_move(parse_move(move))
        toks = tokenize(text, g.to_move, g.n)
        t = self.copy()
        n0 = len(t.g.moves)
        out: list[int] = []
        while len(t.g.moves) == n0:
            i = len(t.prefix)
            if tuple(t.prefix) != toks[:i]:
                raise ValueError(f"{text!r} is not legal now")
            a = toks[i] if i < len(toks) else STOP
            if not t.is_legal(a):
                raise ValueError(f"{text!r} is not legal now")
            out.append(a)
            t.apply_unchecked(a)
        if t.g.moves[-1] != text:
            raise ValueError(f"{text!r} is not legal now")
        return out

    def move_of(self, action: int) -> str:
        """The whole move that ``action`` completes now (``ValueError`` if it completes none)."""
        t = self.copy()
        n0 = len(t.g.moves)
        t.apply(action)
        if len(t.g.moves) == n0:
            raise ValueError(f"action {action} ({ACTIONS[action]}) does not complete a move")
        return t.g.moves[n0]

    # -- views ------------------------------------------------------------------------

    def encode(self, seat: int | None) -> npt.NDArray[np.float32]:
        """The observation vector of ``seat`` (:func:`encode`)."""
        return encode(self, seat)

    def describe(self, seat: int | None) -> str:
        return describe(self, seat)

    def rewards(self) -> list[float]:
        return rewards(self.g)

    def action_name(self, action: int) -> str:
        return ACTIONS[action]


# ---------------------------------------------------------------------------
# Rewards


def rewards(g: GameState) -> list[float]:
    """+1 shared equally among the winners (C70); 0 otherwise and while the game is on."""
    out = [0.0] * g.n
    if not g.finished:
        return out
    winners = list(g.winners) or list(range(g.n))
    for w in winners:
        out[w] = 1.0 / len(winners)
    return out


__all__ = [
    "ACTIONS",
    "ACTION_INDEX",
    "BUILDABLE",
    "MAX_AMOUNT",
    "MAX_PLOTS",
    "MAX_PLOT_NUMBER",
    "MAX_SEATS",
    "NUM_ACTIONS",
    "OBS_HIGH",
    "OBS_LAYOUT",
    "OBS_OFFSETS",
    "OBS_SIZE",
    "REL_SEATS",
    "SPELLS_MOVES",
    "STEAL_CODES",
    "STEPS",
    "STOP",
    "STOP_NAME",
    "UNIT_STATES",
    "EncodingError",
    "Item",
    "Table",
    "action_groups",
    "describe",
    "encode",
    "encode_observation",
    "res_str",
    "rewards",
    "tokenize",
]
