"""civ4's OpenSpiel model: the deal as chance nodes, per-seat information, resampling for ISMCTS.

The generic shell (:mod:`civcards.envs.openspiel_game`) registers it as
``python_civ4``; this module holds what is civ4's own:

* **Chance.** The game opens with four chance nodes of 256 outcomes each,
  the bytes of the 32-bit seed of :func:`civcards.civ4.new_game`: the seed
  decides every shuffle (C9, C10), the deck order, a Writing steal's card and
  a reshuffle (C38). Once dealt, the game has no further chance node; what a
  seat has not seen stays hidden from it through its information state and
  is dealt afresh by :meth:`Civ4Core.resample`.
* **Actions** are the tokens of :mod:`.encoding` (``num_distinct_actions`` is
  the vocabulary's size).
* **Information.** Each seat's information-state string is perfect-recall:
  the seat, every move made (all civ4 moves are public, C72), each change of
  its own hand, the cards it knows were taken from it, and the tokens it has
  spelled of its own move.
* **Determinization.** :meth:`Civ4Core.resample` deals a state the seat
  cannot tell from the real one with :class:`civcards.civ4.determinize.Determinizer`
  (other hands, deck, plot and tech piles, removed technologies).
* **Returns** are terminal: +1 shared equally among the winners, 0
  otherwise (constant-sum 1). A game longer than ``max_game_length`` actions
  is adjudicated a shared victory of everyone.

What every table-driven game shares (whose turn, the legal actions, the
tensor, the returns, the cut at ``max_game_length``) is
:class:`civcards.games.spiel.TableCore`'s. Nothing here imports OpenSpiel: the
shell does.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar, Final

import numpy as np
import numpy.typing as npt

from ...civ4 import DECK_CODES, GameState, observe
from ...civ4.determinize import DeterminizeError, Determinizer
from ...civ4.options import OPTIONS
from ...game_api import OptionsError, get_game
from ..spiel import CHANCE, TERMINAL, TableCore
from .encoding import ACTIONS, NUM_ACTIONS, OBS_SIZE, Table, describe, encode, rewards

__all__ = [
    "CHANCE",
    "GAME_NAME",
    "PARAMETERS",
    "SEED_BYTES",
    "SPIEL",
    "TERMINAL",
    "Civ4Core",
    "Civ4Spiel",
]

#: the registration this model plays (through :func:`civcards.game_api.get_game`)
GAME_NAME: Final = "civ4"
SEED_BYTES: Final = 4

#: the OpenSpiel parameters and their defaults (``hand_limit`` -1: none)
PARAMETERS: Final[dict[str, Any]] = {"players": 2}
for _o in OPTIONS:
    PARAMETERS[_o.name] = -1 if _o.type == "int" else str(_o.default) if _o.type == "choice" else bool(_o.default)


def _options(params: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for o in OPTIONS:
        value = params.get(o.name, PARAMETERS[o.name])
        if o.type == "int":
            out[o.name] = None if int(value) < 0 else int(value)
        elif o.type == "choice":
            out[o.name] = str(value)
        else:
            out[o.name] = bool(value)
    return out


def _hand(g: GameState, seat: int) -> str:
    return ",".join(c for i, c in enumerate(DECK_CODES) for _ in range(g.hands[seat][i]))


class Civ4Core(TableCore[Table]):
    """A position of ``python_civ4``: the seed bytes, then the action table, and each
    seat's information-state lines. Copied cheaply (``__deepcopy__``)."""

    __slots__ = ("options", "seed")

    observation_size: ClassVar[int] = OBS_SIZE

    def __init__(self, n: int, options: dict[str, Any], max_length: int) -> None:
        super().__init__(n, max_length, [[f"seat {s} of {n}"] for s in range(n)])
        self.options = options
        self.seed: list[int] = []

    def __deepcopy__(self, memo: dict[int, Any]) -> Civ4Core:
        c = Civ4Core.__new__(Civ4Core)
        self.copy_shared(c)
        c.options = self.options
        c.seed = self.seed[:]
        return c

    # -- what TableCore asks of the game -----------------------------------------------

    def encode_table(self, table: Table, player: int | None) -> npt.NDArray[np.float32]:
        return encode(table, player)

    def final_returns(self, table: Table) -> list[float]:
        return rewards(table.g)

    # -- the shell's protocol --------------------------------------------------

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(b, 1.0 / 256) for b in range(256)]

    def apply(self, action: int) -> None:
        if self.table is None:
            self.seed.append(action)
            if len(self.seed) == SEED_BYTES:
                seed = int.from_bytes(bytes(self.seed), "big")
                self.table = Table(get_game(GAME_NAME).new_state(self.n, self.options, seed))
                self._hands_seen([""] * self.n)
            return
        t = self.table
        g = t.g
        me = g.to_move
        assert me is not None
        n0 = len(g.moves)
        before = [_hand(g, s) for s in range(self.n)]
        steals = len(g.steals)
        t.apply_unchecked(action)
        if len(g.moves) == n0:
            self.info[me].append(f"{me} spells {ACTIONS[action]}")
        else:
            for i in range(n0, len(g.moves)):
                for lst in self.info:
                    lst.append(f"{me}: {g.moves[i]}")
            for st in g.steals[steals:]:
                for s in (st[1], st[2]):
                    self.info[s].append(f"steal {st[1]} from {st[2]}: {st[3]}")
            self._hands_seen(before)
        self.count_move()

    def _hands_seen(self, before: list[str]) -> None:
        """A private line for each seat whose own hand changed (what it drew, lost, took)."""
        t = self.table
        assert t is not None
        g = t.g
        for s in range(self.n):
            now = _hand(g, s)
            if now != before[s]:
                self.info[s].append(f"hand {now}")

    def action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return f"seed byte {action}"
        return ACTIONS[action]

    def __str__(self) -> str:
        t = self.table
        if t is None:
            return f"dealing: seed bytes {self.seed}"
        g = t.g
        hands = " ".join(_hand(g, s) or "-" for s in range(self.n))
        return f"hands {hands}\n{describe(t, None)}"

    def info_string(self, player: int) -> str:
        return "\n".join(self.info[player])

    def public_info_string(self, player: int) -> str:
        """The moves of the information string (what every seat saw), without private lines."""
        return "\n".join(
            line for line in self.info[player] if ": " in line and not line.startswith("steal")
        )

    def view_string(self, player: int | None) -> str:
        t = self.table
        if t is None:
            return f"dealing ({len(self.seed)} of {SEED_BYTES} seed bytes)"
        return describe(t, player)

    # -- determinization (ISMCTS) ----------------------------------------------------

    def resample(self, player_id: int, seed: Any) -> None:
        """Make this (copied) position one ``player_id`` cannot tell from the original, what
        it has not seen dealt afresh (:class:`~civcards.civ4.determinize.Determinizer`): the
        other hands, the deck, the plot and tech piles and the removed technologies.

        The tokens ``player_id`` has spelled of its own move are kept; another seat's half
        spelled move (which ``player_id`` does not see) starts again. The other seats'
        information strings become what ``player_id`` saw of the moves.
        """
        t = self.table
        if t is None or t.finished:
            return
        try:
            det = Determinizer(observe(t.g, player_id))
        except DeterminizeError:
            return
        g = det.sample(random.Random(seed))
        new = Table(g)
        if t.to_move == player_id:
            while len(new.prefix) < len(t.prefix):
                new.apply_unchecked(t.prefix[len(new.prefix)])
        self.table = new
        seen = [
            line for line in self.info[player_id] if ": " in line and not line.startswith("steal")
        ]
        for q in range(self.n):
            if q != player_id:
                self.info[q] = [f"seat {q} of {self.n}", *seen]

    # -- one of our bots through the game ------------------------------------------

    def bot_actions(self, bot: Any) -> list[int]:
        """The actions by which ``bot`` (of :mod:`civcards.bots`) plays the seat to move
        (its whole move, spelled; a move half spelled by others is finished by the bot's
        move only if it agrees)."""
        from ...bots import bot_choice

        t = self.table
        assert t is not None
        game: Any = get_game(GAME_NAME)
        pick = bot_choice(bot, game, t.g)
        return t.actions_for(pick.text)


class Civ4Spiel:
    """civ4's model for the OpenSpiel shell: its names, parameters and sizes."""

    short_name: Final = "python_civ4"
    long_name: Final = "Civilization: The Card Game (civcards, reconstructed card set)"
    explicit_chance: Final = True
    max_chance_outcomes: Final = 256
    default_max_length: Final = 20000
    parameters: Final[Mapping[str, Any]] = PARAMETERS
    observation_size: Final = OBS_SIZE
    num_actions: Final = NUM_ACTIONS

    def check(self, params: Mapping[str, Any]) -> tuple[int, float]:
        """(players, utility sum) of these parameters; ``ValueError`` if they are bad."""
        players = int(params["players"])
        try:
            get_game(GAME_NAME).check_options(players, _options(params))
        except OptionsError as e:
            raise ValueError(str(e)) from None
        return players, 1.0

    def new_core(self, params: Mapping[str, Any], max_length: int) -> Civ4Core:
        return Civ4Core(int(params["players"]), _options(params), max_length)


SPIEL: Final = Civ4Spiel()
