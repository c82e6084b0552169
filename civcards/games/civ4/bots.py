"""civ4's own bots (``game.bots()``): ``greedy``, the archetypes of the balance study
(``population``, ``techrush``, ``wonders``, ``military``, ``culture``: ``greedy`` with one
goal weighted up, :data:`civcards.games.civ4.greedy.ARCHETYPES`), and a small match harness.

``BOTS`` maps a name to ``factory(arg, seed)``. The generic bots (``random``,
``ismcts``) come from :mod:`civcards.bots` for every game.

``python -m civcards.games.civ4.bots --games 1000 -p 2`` plays ``greedy``
against uniform random play (each step uniform over the choices as the
interface offers them) over the game interface, one greedy seat per game,
rotated, and prints the win rate with the game lengths and endings.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from ...bots.base import Bot, Decision
from ...civ4.cards import TECH_CODES
from ...civ4.observation import Observation
from ...game_api import Choice, Game, get_game
from .greedy import ARCHETYPES, GREEDY, GreedyPolicy, Weights


class GreedyBot(Bot):
    """``greedy``: a one-turn economic evaluation (:mod:`civcards.games.civ4.greedy`)."""

    name = "greedy"

    def __init__(
        self, seed: int | None = None, weights: Weights = GREEDY, name: str = "greedy"
    ) -> None:
        super().__init__(seed)
        self.name = name
        self.policy = GreedyPolicy(weights)

    def choose(self, decision: Decision) -> Choice:
        return self.pick(decision.observation, decision.choices)

    def pick(self, obs: Observation, choices: Sequence[Choice]) -> Choice:
        """The choice this bot takes among ``choices`` (no Decision needed): the seat's
        whole list of choices at this step, as the game gives it. Greedy reads the step
        from the list, so it is no ranking of a subset of it."""
        return choices[self.policy.pick(obs, [(c.text, c.final) for c in choices])]


def _greedy(arg: str | None, seed: int | None) -> Bot:
    """``greedy``; ``greedy:not=WRI+COL`` never buys the technologies named
    (:attr:`Weights.shun`); any other part after the name only names a copy
    (``greedy:b``, for an arena of several greedy bots)."""
    if arg is None or not arg.startswith("not="):
        return GreedyBot(seed)
    return GreedyBot(seed, Weights(shun=parse_shun(arg[4:])), f"greedy:{arg}")


def parse_shun(text: str) -> frozenset[str]:
    """``"WRI+COL"`` -> the technology codes; ValueError with a sentence for others.

    >>> sorted(parse_shun("wri+COL"))
    ['COL', 'WRI']
    """
    codes = [c.strip().upper() for c in text.split("+")]
    if not codes or not all(codes):
        raise ValueError(
            f"greedy:not= takes technology codes joined by '+' (such as WRI+COL), not {text!r}"
        )
    bad = [c for c in codes if c not in TECH_CODES]
    if bad:
        raise ValueError(
            f"greedy:not=: {', '.join(bad)} is not a technology code; they are "
            f"{', '.join(TECH_CODES)}"
        )
    return frozenset(codes)


def _archetype(name: str) -> Callable[[str | None, int | None], Bot]:
    weights = ARCHETYPES[name]

    def factory(arg: str | None, seed: int | None) -> Bot:
        return GreedyBot(seed, weights, name)

    return factory


BOTS: Mapping[str, Callable[[str | None, int | None], Bot]] = {
    "greedy": _greedy,
    **{name: _archetype(name) for name in ARCHETYPES},
}


# ------------------------------------------------------------------------------------------------
# A match harness over the game interface (until ``civcards arena --game civ4``)

Chooser = Callable[[Any, int, list[Choice]], Choice]


def greedy_chooser() -> Chooser:
    bot = GreedyBot()
    game = get_game("civ4")

    def choose(state: Any, seat: int, choices: list[Choice]) -> Choice:
        return bot.pick(cast(Observation, game.observe(state, seat)), choices)

    return choose


def random_chooser(seed: int) -> Chooser:
    rng = random.Random(seed)

    def choose(state: Any, seat: int, choices: list[Choice]) -> Choice:
        return rng.choice(choices)

    return choose


def play_game(game: Game, choosers: Sequence[Chooser], seed: int) -> tuple[Any, int]:
    """Play one game (each step through ``game.choices``/``game.expand``); the end state and moves."""
    state = game.new_state(len(choosers), {}, seed)
    moves = 0
    while game.result(state) is None:
        seat = state.to_move
        choices = game.choices(state)
        pick = choosers[seat](state, seat, choices)
        while not pick.final:
            pick = choosers[seat](state, seat, list(game.expand(state, pick).choices))
        game.apply_choice(state, pick)
        moves += 1
    return state, moves


@dataclass
class MatchStats:
    """Greedy's results in one series."""

    players: int
    games: int = 0
    greedy_wins: float = 0.0
    wins_by_seat: list[float] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)
    moves: list[int] = field(default_factory=list)
    reasons: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        g = max(1, self.games)
        return {
            "players": self.players,
            "games": self.games,
            "greedy_win_rate": round(self.greedy_wins / g, 4),
            "fair_share": round(1 / self.players, 4),
            "wins_by_seat": [round(w, 2) for w in self.wins_by_seat],
            "rounds_mean": round(sum(self.rounds) / g, 2),
            "rounds_min": min(self.rounds, default=0),
            "rounds_max": max(self.rounds, default=0),
            "moves_mean": round(sum(self.moves) / g, 1),
            "reasons": dict(sorted(self.reasons.items())),
            "seconds_per_game": round(self.seconds / g, 4),
        }


def match(games: int, players: int, seed: int = 0, opponent: str = "random") -> MatchStats:
    """``games`` games of one greedy seat (seat ``i % players`` in game ``i``) against
    ``opponent`` (``random`` or ``greedy``); a shared victory counts as a fraction."""
    game = get_game("civ4")
    st = MatchStats(players, wins_by_seat=[0.0] * players)
    t0 = time.perf_counter()
    for i in range(games):
        g_seat = i % players
        choosers = [
            greedy_chooser()
            if s == g_seat or opponent == "greedy"
            else random_chooser(seed * 7919 + i * 31 + s)
            for s in range(players)
        ]
        state, moves = play_game(game, choosers, seed * 1_000_003 + i // players)
        res = game.result(state)
        assert res is not None
        share = 1.0 / len(res.winners)
        for w in res.winners:
            st.wins_by_seat[w] += share
            if w == g_seat:
                st.greedy_wins += share
        st.games += 1
        st.rounds.append(int(state.round))
        st.moves.append(moves)
        st.reasons[str(res.reason)] = st.reasons.get(str(res.reason), 0) + 1
    st.seconds = time.perf_counter() - t0
    return st


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m civcards.games.civ4.bots", description=__doc__)
    ap.add_argument("--games", "-n", type=int, default=100)
    ap.add_argument("--players", "-p", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--opponent", choices=("random", "greedy"), default="random")
    a = ap.parse_args(argv)
    if not 2 <= a.players <= 4 or a.games < 1:
        print("the players must be 2, 3 or 4 and the games at least 1", file=sys.stderr)
        return 2
    print(json.dumps(match(a.games, a.players, a.seed, a.opponent).to_json()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
