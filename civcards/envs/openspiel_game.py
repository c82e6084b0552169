"""CIV as an OpenSpiel game: ``pyspiel.load_game("python_civ_carta")``.

Importing this module registers the game. Parameters: ``players`` (2-4),
``deal`` (``"basic"`` or ``"draft"``), ``teams`` (bool, 4 players) and
``max_game_length`` (player actions before a game is adjudicated a shared
victory of everyone; random games take about 150).

* **Chance.** Explicit chance nodes: first the start player (R5, uniform), then
  every card as it leaves the deck — the deal, each phase-3 draw and each
  Discovery — with the probabilities of a shuffled era (R4): card ``d`` of the
  era ``e`` of that deck position has probability ``(left of d in e) / (left
  in e)``, the removed cards of 2-3 player games being the era's never-drawn
  rest. The deck order is never decided before a card is drawn, so search
  algorithms (MCTS) sample unknown draws instead of reading them.
* **Actions** are :data:`civcards.envs.encoding.ACTIONS` (5,385 distinct,
  relative target seats, two-step Discovery and Inquisition with ``pick``
  actions); chance outcomes are a seat (start) or a domain index ``0..5``.
* **Observations.** The observation tensor is the seat's flat vector
  (:func:`civcards.envs.encoding.encode`); the information-state tensor is the
  same vector (a summary: known_in_hands stands for the history). The
  information-state string is perfect-recall: every action and chance outcome
  as that seat saw it. The observation string is the seat's current view.
* **Determinization.** :meth:`CivCartaState.resample_from_infostate` redeals
  the hidden cards for OpenSpiel's ISMCTS (an approximate posterior).
* **Returns** are terminal: +1 shared equally among the winning sides (in the
  team game each member of a winning team gets the team's share), 0
  otherwise, so the game is constant-sum (sum 1; 2 in the team game).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from ..bots import Bot, Decision
from ..carta.cards import ERA_COMPOSITION, LETTERS, era_sizes
from ..carta.game import new_game
from ..carta.observation import expand, observe, public_move_text, seat_options
from .encoding import (
    DISCOVERY_PREFIX_ACTION,
    END_ACTION,
    NUM_ACTIONS,
    OBS_SIZE,
    PICK0,
    Table,
    action_name,
    describe,
    encode,
    rewards,
)

SHORT_NAME = "python_civ_carta"
DEFAULT_MAX_LENGTH = 3000

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="CIV: Carta Impera Victoria (civcards)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={
        "players": 2,
        "deal": "basic",
        "teams": False,
        "max_game_length": DEFAULT_MAX_LENGTH,
    },
)


class CivCartaGame(pyspiel.Game):  # type: ignore[misc]
    """The game; ``pyspiel.load_game("python_civ_carta(players=3,deal=draft)")``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_GAME_TYPE.parameter_specification, **(params or {})}
        players = int(p["players"])
        deal = str(p["deal"])
        teams = bool(p["teams"])
        new_game(players, deal=deal, teams=teams, seed=0)  # checks the configuration
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=6,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=2.0 if teams else 1.0,
            max_game_length=int(p["max_game_length"]),
        )
        super().__init__(_GAME_TYPE, info, params or {})
        self.players = players
        self.deal = deal
        self.teams = teams
        self.max_length = int(p["max_game_length"])

    def new_initial_state(self) -> CivCartaState:
        return CivCartaState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> CivObserver:
        return CivObserver(iig_obs_type, params)


class _Core:
    """Everything a state holds, copied cheaply (OpenSpiel deep-copies it to clone)."""

    __slots__ = (
        "after",
        "batch",
        "dealt",
        "drawn",
        "info",
        "moves",
        "ndrawn",
        "start",
        "table",
        "todo",
        "truncated",
    )

    def __init__(self, n: int) -> None:
        self.start = -1
        self.dealt: list[int] = []
        self.table: Table | None = None
        #: cards drawn so far by era and domain, and in all
        self.drawn = [[0] * 6 for _ in range(3)]
        self.ndrawn = 0
        #: chance draws still to make before ``after`` (a player action) applies
        self.todo = 0
        self.after = -1
        self.batch: list[int] = []
        #: each seat's information-state lines
        self.info: list[list[str]] = [[] for _ in range(n)]
        self.moves = 0
        self.truncated = False

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        c = _Core.__new__(_Core)
        c.start = self.start
        c.dealt = self.dealt[:]
        c.table = None if self.table is None else self.table.copy()
        c.drawn = [row[:] for row in self.drawn]
        c.ndrawn = self.ndrawn
        c.todo = self.todo
        c.after = self.after
        c.batch = self.batch[:]
        c.info = [lst[:] for lst in self.info]
        c.moves = self.moves
        c.truncated = self.truncated
        return c


def _era_of(position: int, players: int) -> int:
    a, b, _ = era_sizes(players)
    return 0 if position < a else 1 if position < a + b else 2


class CivCartaState(pyspiel.State):  # type: ignore[misc]
    """A position of ``python_civ_carta``."""

    def __init__(self, game: CivCartaGame) -> None:
        super().__init__(game)
        self._n = game.players
        self._deal = game.deal
        self._teams = game.teams
        self._max_length = game.max_length
        self._c = _Core(game.players)

    # -- helpers -------------------------------------------------------------

    @property
    def table(self) -> Table | None:
        """The game being played (None until the deal is done)."""
        return self._c.table

    def _per(self) -> int:
        return 3 if self._deal == "basic" else 4

    def _public(self, text: str) -> None:
        for lst in self._c.info:
            lst.append(text)

    def _setup(self) -> None:
        """Build the engine's game once the start player and the dealt cards are known."""
        c = self._c
        n = self._n
        removed = 0 if n == 4 else 3
        parts = []
        for era in range(3):
            left = list(ERA_COMPOSITION[era])
            seg = ""
            if era == 0:
                for d in c.dealt:
                    left[d] -= 1
                seg = "".join(LETTERS[d] for d in c.dealt)
            rest = "".join(LETTERS[d] * left[d] for d in range(6))
            # the rest of the deck is a placeholder: each card is decided by a
            # chance node just before it is drawn
            parts.append(seg + rest[: len(rest) - removed])
        g = new_game(n, deal=self._deal, teams=self._teams, deck="".join(parts), start=c.start)
        c.table = Table(g)

    def _draws_before(self, action: int) -> int:
        """How many cards the deck must supply before ``action`` can apply."""
        t = self._c.table
        assert t is not None
        g = t.g
        if t.pending is not None:
            return 0
        if action == END_ACTION:
            need = g.hand_size(g.active) - sum(g.hands[g.active])
            return min(need, len(g.deck)) if need > 0 else 0
        if action == DISCOVERY_PREFIX_ACTION:
            return min(5, len(g.deck))
        return 0

    def _play(self, action: int) -> None:
        """Apply a player action to the table and write what each seat saw."""
        c = self._c
        t = c.table
        assert t is not None
        g = t.g
        me = g.active
        before = len(g.history)
        learned = [len(lst) for lst in g.learned]
        pending = t.pending is not None
        t.apply_unchecked(action)
        if pending:
            c.info[me].append(f"{me}: {action_name(action)}")
        elif len(g.history) == before:  # a '?' prefix: public; the reveal is the player's
            self._public(f"{me}: {action_name(action, me, self._n)}")
            p = t.pending
            assert p is not None
            c.info[me].append(f"revealed {''.join(LETTERS[d] * p.reveal[d] for d in range(6))}")
        for i in range(before, len(g.history)):
            who = g.movers[i]
            for s in range(self._n):
                c.info[s].append(f"{who}: {public_move_text(g, i, s)}")
        for s in range(self._n):  # R25 "learned": Inquisition, draft packets
            for ev in g.learned[s][learned[s] :]:
                c.info[s].append("learned " + " ".join(str(x) for x in ev))

    # -- pyspiel.State --------------------------------------------------------

    def current_player(self) -> int:
        c = self._c
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if c.table is None or c.todo:
            return int(pyspiel.PlayerId.CHANCE)
        seat = c.table.to_move
        assert seat is not None
        return seat

    def is_terminal(self) -> bool:
        c = self._c
        return c.truncated or (c.table is not None and c.table.finished)

    def _legal_actions(self, player: int) -> list[int]:
        t = self._c.table
        assert t is not None and player == t.to_move
        return list(t.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        c = self._c
        if c.start < 0:
            return [(s, 1.0 / self._n) for s in range(self._n)]
        era = _era_of(c.ndrawn, self._n)
        left = [ERA_COMPOSITION[era][d] - c.drawn[era][d] for d in range(6)]
        total = sum(left)
        return [(d, left[d] / total) for d in range(6) if left[d]]

    def _apply_action(self, action: int) -> None:
        c = self._c
        if self.is_chance_node():
            if c.start < 0:
                c.start = action
                self._public(f"start {action}")
                return
            era = _era_of(c.ndrawn, self._n)
            c.drawn[era][action] += 1
            c.ndrawn += 1
            if c.table is None:
                seat = (c.start + len(c.dealt) // self._per()) % self._n
                c.dealt.append(action)
                c.info[seat].append(f"dealt {LETTERS[action]}")
                if len(c.dealt) == self._per() * self._n:
                    self._setup()
                    # the draft's first packets are what the engine deals; R25: own only
                return
            g = c.table.g
            g.deck[len(g.deck) - 1 - len(c.batch)] = action
            c.batch.append(action)
            c.todo -= 1
            if c.todo == 0:
                me = g.active
                drawn = "".join(LETTERS[d] for d in sorted(c.batch))
                if c.after == END_ACTION:
                    c.info[me].append(f"drew {drawn}")
                c.batch = []
                self._play(c.after)
                c.after = -1
            return
        k = self._draws_before(action)
        if k:
            c.todo = k
            c.after = action
            c.batch = []
        else:
            self._play(action)
        c.moves += 1
        if c.moves >= self._max_length and not self.is_terminal() and not c.todo:
            c.truncated = True

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._c.start < 0:
                return f"start {action}"
            return f"card {LETTERS[action]}"
        return action_name(action, player, self._n)

    def returns(self) -> list[float]:
        c = self._c
        if c.truncated:
            share = (1.0 / 2) if self._teams else 1.0 / self._n
            return [share] * self._n
        if c.table is None or not c.table.finished:
            return [0.0] * self._n
        return rewards(c.table.g)

    def __str__(self) -> str:
        t = self._c.table
        if t is None:
            return f"dealing: start {self._c.start}, {len(self._c.dealt)} cards dealt"
        g = t.g
        hands = " ".join("".join(LETTERS[d] * h[d] for d in range(6)) or "-" for h in g.hands)
        return f"hands {hands}\n{describe(t, None)}"

    # -- determinization (ISMCTS) ----------------------------------------------------

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CivCartaState:
        """A state ``player_id`` cannot tell from this one, its hidden cards dealt afresh.

        The cards of the other hands that the player does not know
        (``known_in_hands``; the revealed hand of its own pending Inquisition)
        are put back and redealt from the cards it has not seen, era by era
        (R4): a hidden card counts as drawn from the latest era that supplied
        cards of its domain, and the redeal draws, for each era, as many cards
        from what that era has left. The deck stays undecided (chance). The
        other seats' information strings are reduced to what ``player_id`` saw
        of the moves. Approximations: the posterior is not weighted by how
        likely each hand made the moves seen, and during the draft (R8) the
        state is returned unchanged (a copy).
        """
        from ..carta.cards import str_to_counts
        from ..carta.observation import known_in_hands

        clone: CivCartaState = self.clone()
        c = clone._c
        t = c.table
        if t is None or t.g.phase == "draft" or c.todo or t.finished:
            return clone
        seed = probability_sampler() if callable(probability_sampler) else None
        rng = random.Random(seed)
        g = t.g
        p = player_id
        known = [str_to_counts(x) for x in known_in_hands(g, p)]
        pend = t.pending
        if pend is not None and pend.seat == p and pend.target >= 0:
            known[pend.target] = g.hands[pend.target][:]
        others = [q for q in range(self._n) if q != p]
        hidden = [0] * 6
        unknown: dict[int, int] = {}
        for q in others:
            known[q] = [min(known[q][d], g.hands[q][d]) for d in range(6)]
            for d in range(6):
                hidden[d] += g.hands[q][d] - known[q][d]
            unknown[q] = sum(g.hands[q]) - sum(known[q])
        new_cards: list[int] = []
        for era in (2, 1, 0):
            take = [min(hidden[d], c.drawn[era][d]) for d in range(6)]
            for d in range(6):
                hidden[d] -= take[d]
                c.drawn[era][d] -= take[d]  # now: the cards of this era still seen
            left = [ERA_COMPOSITION[era][d] - c.drawn[era][d] for d in range(6)]
            bag = [d for d in range(6) for _ in range(left[d])]
            got = rng.sample(bag, sum(take))
            for d in got:
                c.drawn[era][d] += 1
            new_cards.extend(got)
        assert not any(hidden)
        rng.shuffle(new_cards)
        for q in others:
            hand = known[q][:]
            for _ in range(unknown[q]):
                hand[new_cards.pop()] += 1
            g.hands[q] = hand
        g.view_cache = None
        t._legal = None
        seen = [line for line in c.info[p] if ": " in line or line.startswith("start")]
        for q in others:
            c.info[q] = seen[:]
        return clone

    # -- for the observer --------------------------------------------------------

    def info_string(self, player: int) -> str:
        c = self._c
        return f"seat {player} of {self._n}\n" + "\n".join(c.info[player])

    def encode(self, player: int | None) -> npt.NDArray[np.float32]:
        t = self._c.table
        if t is None:
            return np.zeros(OBS_SIZE, dtype=np.float32)
        return encode(t, player)

    def view_string(self, player: int | None) -> str:
        t = self._c.table
        if t is None:
            c = self._c
            mine = ""
            if player is not None and c.start >= 0:
                mine = " ".join(line for line in c.info[player] if line.startswith("dealt"))
            return f"dealing (start {c.start}) {mine}".strip()
        return describe(t, player)


class CivObserver:
    """OpenSpiel's observer protocol: ``tensor``, ``dict``, ``set_from``, ``string_from``."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        if iig_obs_type is None:
            self.perfect_recall = False
            self.private = True
        else:
            if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
                raise ValueError("an observer of every player's private cards is not offered")
            self.perfect_recall = bool(iig_obs_type.perfect_recall)
            self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.tensor = np.zeros(OBS_SIZE, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CivCartaState, player: int) -> None:
        self.tensor[:] = state.encode(player if self.private else None)

    def string_from(self, state: CivCartaState, player: int) -> str:
        if self.perfect_recall:
            if self.private:
                return state.info_string(player)
            return "\n".join(
                line for line in state.info_string(player).splitlines() if ": " in line
            )
        return state.view_string(player if self.private else None)


pyspiel.register_game(_GAME_TYPE, CivCartaGame)


class CivcardsBot(pyspiel.Bot):  # type: ignore[misc]
    """One of our bots (:mod:`civcards.bots`) playing through the OpenSpiel game.

    It sees only its seat's observation and options (R25), as in the engine;
    after a ``?`` prefix it chooses the full move, then plays its picks.
    """

    def __init__(self, bot: Bot) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = bot
        self._plan: list[int] = []

    def restart_at(self, state: Any) -> None:
        self._plan = []

    def step(self, state: CivCartaState) -> int:
        t = state.table
        assert t is not None and not state.is_chance_node()
        g = t.g
        seat = g.active
        if t.pending is not None:
            if not self._plan:
                p = t.pending
                option = (
                    "discovery discard ?"
                    if p.kind == "discovery"
                    else f"inquisition {p.target} give ?"
                )
                # the deck's top cards are decided by now: expand() shows the reveal
                reveal, full = expand(g, option)
                obs = observe(g, seat)
                pick = self.bot.choose(Decision(seat, obs, full, reveal, option))
                self._plan = [PICK0 + LETTERS.index(ch) for ch in pick.split()[-1]]
            return self._plan.pop(0)
        self._plan = []
        options = seat_options(g)
        pick = self.bot.choose(Decision(seat, observe(g, seat), options))
        a = t.actions_for(pick)[0] if not pick.endswith("?") else _prefix_action(t, pick)
        return a


def _prefix_action(t: Table, option: str) -> int:
    from .encoding import ACTION_INDEX

    if option.startswith("discovery"):
        return DISCOVERY_PREFIX_ACTION
    target = int(option.split()[1])
    return ACTION_INDEX[f"inquisition +{(target - t.g.active) % t.g.n} give ?"]


def load(players: int = 2, deal: str = "basic", teams: bool = False) -> Any:
    """``pyspiel.load_game`` of this game with these parameters."""
    return pyspiel.load_game(SHORT_NAME, {"players": players, "deal": deal, "teams": teams})


__all__ = ["SHORT_NAME", "CivCartaGame", "CivCartaState", "CivObserver", "CivcardsBot", "load"]
