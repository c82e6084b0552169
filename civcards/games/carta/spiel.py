"""CIV's OpenSpiel model: explicit chance nodes for every card drawn, resampling for ISMCTS.

The generic shell (:mod:`civcards.envs.openspiel_game`) registers it as
``python_civ_carta``; this module holds what is CIV's own:

* **Chance.** First the start player (R5, uniform), then every card as it
  leaves the deck — the deal, each phase-3 draw and each Discovery — with the
  probabilities of a shuffled era (R4): card ``d`` of the era ``e`` of that
  deck position has probability ``(left of d in e) / (left in e)``, the
  removed cards of 2-3 player games being the era's never-drawn rest. The deck
  order is never decided before a card is drawn, so search algorithms (MCTS)
  sample unknown draws instead of reading them.
* **Information.** Each seat's information-state string is perfect-recall:
  every action and chance outcome as that seat saw it (R25).
* **Determinization.** :meth:`CartaCore.resample` redeals the hidden cards for
  OpenSpiel's ISMCTS (an approximate posterior).
* **Returns** are terminal: +1 shared equally among the winning sides (in the
  team game each member of a winning team gets the team's share), 0 otherwise,
  so the game is constant-sum (sum 1; 2 in the team game).

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

from ...carta.cards import ERA_COMPOSITION, LETTERS, era_sizes, str_to_counts
from ...carta.game import new_game
from ...carta.observation import known_in_hands, public_move_text
from ...game_api import Choice, get_game
from ..spiel import CHANCE, TERMINAL, TableCore
from .encoding import (
    ACTION_INDEX,
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

__all__ = ["CHANCE", "GAME_NAME", "SPIEL", "TERMINAL", "CartaCore", "CartaSpiel"]

#: the registration this model plays (through :func:`civcards.game_api.get_game`)
GAME_NAME: Final = "carta"


def _era_of(position: int, players: int) -> int:
    a, b, _ = era_sizes(players)
    return 0 if position < a else 1 if position < a + b else 2


class CartaCore(TableCore[Table]):
    """A position of ``python_civ_carta``: the table once dealt, the chance bookkeeping,
    and each seat's information-state lines. Copied cheaply (``__deepcopy__``)."""

    __slots__ = ("after", "batch", "deal", "dealt", "drawn", "ndrawn", "start", "teams", "todo")

    observation_size: ClassVar[int] = OBS_SIZE

    def __init__(self, n: int, deal: str, teams: bool, max_length: int) -> None:
        super().__init__(n, max_length, [[] for _ in range(n)])
        self.deal = deal
        self.teams = teams
        self.start = -1
        self.dealt: list[int] = []
        #: cards drawn so far by era and domain, and in all
        self.drawn = [[0] * 6 for _ in range(3)]
        self.ndrawn = 0
        #: chance draws still to make before ``after`` (a player action) applies
        self.todo = 0
        self.after = -1
        self.batch: list[int] = []

    def __deepcopy__(self, memo: dict[int, Any]) -> CartaCore:
        c = CartaCore.__new__(CartaCore)
        self.copy_shared(c)
        c.deal, c.teams = self.deal, self.teams
        c.start = self.start
        c.dealt = self.dealt[:]
        c.drawn = [row[:] for row in self.drawn]
        c.ndrawn = self.ndrawn
        c.todo = self.todo
        c.after = self.after
        c.batch = self.batch[:]
        return c

    # -- helpers -------------------------------------------------------------

    def _per(self) -> int:
        return 3 if self.deal == "basic" else 4

    def _public(self, text: str) -> None:
        for lst in self.info:
            lst.append(text)

    def _setup(self) -> None:
        """Build the engine's game once the start player and the dealt cards are known."""
        n = self.n
        removed = 0 if n == 4 else 3
        parts = []
        for era in range(3):
            left = list(ERA_COMPOSITION[era])
            seg = ""
            if era == 0:
                for d in self.dealt:
                    left[d] -= 1
                seg = "".join(LETTERS[d] for d in self.dealt)
            rest = "".join(LETTERS[d] * left[d] for d in range(6))
            # the rest of the deck is a placeholder: each card is decided by a
            # chance node just before it is drawn
            parts.append(seg + rest[: len(rest) - removed])
        g = new_game(n, deal=self.deal, teams=self.teams, deck="".join(parts), start=self.start)
        self.table = Table(g)

    def _draws_before(self, action: int) -> int:
        """How many cards the deck must supply before ``action`` can apply."""
        t = self.table
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
        t = self.table
        assert t is not None
        g = t.g
        me = g.active
        before = len(g.history)
        learned = [len(lst) for lst in g.learned]
        pending = t.pending is not None
        t.apply_unchecked(action)
        if pending:
            self.info[me].append(f"{me}: {action_name(action)}")
        elif len(g.history) == before:  # a '?' prefix: public; the reveal is the player's
            self._public(f"{me}: {action_name(action, me, self.n)}")
            p = t.pending
            assert p is not None
            self.info[me].append(f"revealed {''.join(LETTERS[d] * p.reveal[d] for d in range(6))}")
        for i in range(before, len(g.history)):
            who = g.movers[i]
            for s in range(self.n):
                self.info[s].append(f"{who}: {public_move_text(g, i, s)}")
        for s in range(self.n):  # R25 "learned": Inquisition, draft packets
            for ev in g.learned[s][learned[s] :]:
                self.info[s].append("learned " + " ".join(str(x) for x in ev))

    # -- what TableCore asks of the game -----------------------------------------------

    def chance_pending(self) -> bool:
        """Before the deal, and while the deck supplies the cards a player action draws."""
        return self.table is None or bool(self.todo)

    def truncated_share(self) -> float:
        return (1.0 / 2) if self.teams else 1.0 / self.n

    def encode_table(self, table: Table, player: int | None) -> npt.NDArray[np.float32]:
        return encode(table, player)

    def final_returns(self, table: Table) -> list[float]:
        return rewards(table.g)

    # -- the shell's protocol --------------------------------------------------

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.start < 0:
            return [(s, 1.0 / self.n) for s in range(self.n)]
        era = _era_of(self.ndrawn, self.n)
        left = [ERA_COMPOSITION[era][d] - self.drawn[era][d] for d in range(6)]
        total = sum(left)
        return [(d, left[d] / total) for d in range(6) if left[d]]

    def apply(self, action: int) -> None:
        if self.current_player() == CHANCE:
            self._apply_chance(action)
            return
        k = self._draws_before(action)
        if k:
            self.todo = k
            self.after = action
            self.batch = []
        else:
            self._play(action)
        self.count_move()

    def _apply_chance(self, action: int) -> None:
        if self.start < 0:
            self.start = action
            self._public(f"start {action}")
            return
        era = _era_of(self.ndrawn, self.n)
        self.drawn[era][action] += 1
        self.ndrawn += 1
        if self.table is None:
            seat = (self.start + len(self.dealt) // self._per()) % self.n
            self.dealt.append(action)
            self.info[seat].append(f"dealt {LETTERS[action]}")
            if len(self.dealt) == self._per() * self.n:
                self._setup()
            return
        g = self.table.g
        g.deck[len(g.deck) - 1 - len(self.batch)] = action
        self.batch.append(action)
        self.todo -= 1
        if self.todo == 0:
            me = g.active
            drawn = "".join(LETTERS[d] for d in sorted(self.batch))
            if self.after == END_ACTION:
                self.info[me].append(f"drew {drawn}")
            self.batch = []
            self._play(self.after)
            self.after = -1

    def action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            if self.start < 0:
                return f"start {action}"
            return f"card {LETTERS[action]}"
        return action_name(action, player, self.n)

    def __str__(self) -> str:
        t = self.table
        if t is None:
            return f"dealing: start {self.start}, {len(self.dealt)} cards dealt"
        g = t.g
        hands = " ".join("".join(LETTERS[d] * h[d] for d in range(6)) or "-" for h in g.hands)
        return f"hands {hands}\n{describe(t, None)}"

    def info_string(self, player: int) -> str:
        return f"seat {player} of {self.n}\n" + "\n".join(self.info[player])

    def public_info_string(self, player: int) -> str:
        """The moves of the information string (what every seat saw), without private lines."""
        return "\n".join(line for line in self.info_string(player).splitlines() if ": " in line)

    def view_string(self, player: int | None) -> str:
        t = self.table
        if t is None:
            mine = ""
            if player is not None and self.start >= 0:
                mine = " ".join(line for line in self.info[player] if line.startswith("dealt"))
            return f"dealing (start {self.start}) {mine}".strip()
        return describe(t, player)

    # -- determinization (ISMCTS) ----------------------------------------------------

    def resample(self, player_id: int, seed: Any) -> None:
        """Make this (copied) position one ``player_id`` cannot tell from the original,
        its hidden cards dealt afresh.

        The cards of the other hands that the player does not know
        (``known_in_hands``; the revealed hand of its own pending Inquisition)
        are put back and redealt from the cards it has not seen, era by era
        (R4): a hidden card counts as drawn from the latest era that supplied
        cards of its domain, and the redeal draws, for each era, as many cards
        from what that era has left. The deck stays undecided (chance). The
        other seats' information strings are reduced to what ``player_id`` saw
        of the moves. Approximations: the posterior is not weighted by how
        likely each hand made the moves seen, and during the draft (R8) the
        position is left unchanged.
        """
        t = self.table
        if t is None or t.g.phase == "draft" or self.todo or t.finished:
            return
        rng = random.Random(seed)
        g = t.g
        p = player_id
        known = [str_to_counts(x) for x in known_in_hands(g, p)]
        pend = t.pending
        if pend is not None and pend.seat == p and pend.target >= 0:
            known[pend.target] = g.hands[pend.target][:]
        others = [q for q in range(self.n) if q != p]
        hidden = [0] * 6
        unknown: dict[int, int] = {}
        for q in others:
            known[q] = [min(known[q][d], g.hands[q][d]) for d in range(6)]
            for d in range(6):
                hidden[d] += g.hands[q][d] - known[q][d]
            unknown[q] = sum(g.hands[q]) - sum(known[q])
        new_cards: list[int] = []
        for era in (2, 1, 0):
            take = [min(hidden[d], self.drawn[era][d]) for d in range(6)]
            for d in range(6):
                hidden[d] -= take[d]
                self.drawn[era][d] -= take[d]  # now: the cards of this era still seen
            left = [ERA_COMPOSITION[era][d] - self.drawn[era][d] for d in range(6)]
            bag = [d for d in range(6) for _ in range(left[d])]
            got = rng.sample(bag, sum(take))
            for d in got:
                self.drawn[era][d] += 1
            new_cards.extend(got)
        assert not any(hidden)
        rng.shuffle(new_cards)
        for q in others:
            hand = known[q][:]
            for _ in range(unknown[q]):
                hand[new_cards.pop()] += 1
            g.hands[q] = hand
        g.view_cache = None
        t.forget_legal()
        seen = [line for line in self.info[p] if ": " in line or line.startswith("start")]
        for q in others:
            self.info[q] = seen[:]

    # -- one of our bots through the game ------------------------------------------

    def bot_actions(self, bot: Any) -> list[int]:
        """The actions by which ``bot`` (of :mod:`civcards.bots`) plays the seat to move:
        after a ``?`` prefix, it chooses the full move from what was revealed, then
        its picks follow."""
        from ...bots import Decision

        game: Any = get_game(GAME_NAME)
        t = self.table
        assert t is not None
        g = t.g
        seat = g.active

        def look() -> Any:
            return game.observe(g, seat)

        if t.pending is not None:
            p = t.pending
            text = (
                "discovery discard ?" if p.kind == "discovery" else f"inquisition {p.target} give ?"
            )
            step = Choice(text, final=False, hidden=True)
            # the deck's top cards are decided by now: the expansion shows the reveal
            exp = game.expand(g, step)
            d = Decision(seat, exp.choices, observe=look, reveal=exp.reveal, chosen=step, game=game)
            pick: Choice = bot.choose(d)
            return [PICK0 + LETTERS.index(ch) for ch in pick.text.split()[-1]]
        pick = bot.choose(Decision(seat, game.choices(g), observe=look, game=game))
        if pick.hidden:
            if pick.text.startswith("discovery"):
                return [DISCOVERY_PREFIX_ACTION]
            target = int(pick.text.split()[1])
            return [ACTION_INDEX[f"inquisition +{(target - g.active) % g.n} give ?"]]
        return t.actions_for(pick.text)[:1]


class CartaSpiel:
    """CIV's model for the OpenSpiel shell: its names, parameters and sizes."""

    short_name: Final = "python_civ_carta"
    long_name: Final = "CIV: Carta Impera Victoria (civcards)"
    explicit_chance: Final = True
    max_chance_outcomes: Final = 6
    default_max_length: Final = 3000
    #: the OpenSpiel parameters and their defaults (besides ``max_game_length``)
    parameters: Final[Mapping[str, Any]] = {"players": 2, "deal": "basic", "teams": False}
    observation_size: Final = OBS_SIZE
    num_actions: Final = NUM_ACTIONS

    def check(self, params: Mapping[str, Any]) -> tuple[int, float]:
        """(players, utility sum) of these parameters; ``ValueError`` if they are bad."""
        players = int(params["players"])
        new_game(players, deal=str(params["deal"]), teams=bool(params["teams"]), seed=0)
        return players, 2.0 if bool(params["teams"]) else 1.0

    def new_core(self, params: Mapping[str, Any], max_length: int) -> CartaCore:
        return CartaCore(
            int(params["players"]), str(params["deal"]), bool(params["teams"]), max_length
        )


SPIEL: Final = CartaSpiel()
