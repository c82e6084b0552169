"""A tournament among bots of any registered game: every seating rotated, ratings,
head-to-head.

``civcards arena --bots a,b,c --games N --players P`` plays N games among the
named bots (any spec :func:`civcards.bots.make_bot` accepts for the game,
such as ``random``, ``ismcts:1000it`` or CIV's ``greedy``).

**Seatings.** The games cycle through a fixed list of seatings (the bot of
each seat), so that every bot sits at every seat equally often:

* ``B >= P`` bots: every ordered choice of P different bots (``B!/(B-P)!``
  seatings: 2 for 2 bots in 2-player games, 6 for 3 bots in 3-player games);
* ``B < P`` (``--bots ismcts,greedy --players 3``): every assignment of the
  bots to the seats that uses each bot at least once, so a bot may hold
  several seats (``AAB, ABA, BAA, ABB, BAB, BBA``);
* team seating (``--teams``; CIV's team game, 4 players, seats 0+2 against
  1+3): each team is one bot in all its seats, every ordered pair of different
  bots (``ABAB``, ``BABA``).

Both lists are symmetric in the bots, so each bot gets each seat equally
often in every complete cycle; the seating is balanced when N is a multiple
of the number of seatings (the summary says whether it is).

**Deals.** Game ``i`` is in cycle ``i // S`` (S seatings); all the games of a
cycle are dealt from the same seed (a function of ``--seed`` and the cycle),
so every deal, start player included, is played once under each seating
(duplicate format). The bots' own seeds differ in every game.

**Results.** A game's one victory is shared equally among its winning seats
(a team's victory: half for each member; every member of a winning side is a
winner), and a seat's share goes to its bot: ``wins`` are fractions and add
up to the number of games. A bot *won* a game
when one of its seats is among the winners. ``win_rate`` is a bot's wins per
game it took part in. ``head_to_head[a][b]``, over the games both played, is
a's score against b: 1 for a game a won and b did not, 1/2 when both or
neither won, 0 when b won and a did not (so ``score[a][b] + score[b][a] = 1``).

**Ratings.** openskill's Plackett-Luce model, one rating per bot, updated
game by game in the order of the games: the bots of a game are ranked
first (won) or second (did not win). ``low``/``high`` are ``mu ∓ 2 sigma``;
``ordinal`` is openskill's conservative ``mu - 3 sigma``.

**Time.** ``seconds_per_move`` is each bot's thinking time (the call that
asks it for a move, a Discovery's or Inquisition's second question included)
divided by the moves it chose.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..bots import make_bot
from ..game_api import Game, GameError
from ..stats import clip_share, normal_bounds
from .simulate import GameResult, default_game, game_seed, play_seated, run_indexed


@dataclass(frozen=True)
class ArenaConfig:
    """An arena: the bots (different specs), games and players, the game's set-up
    ``options``, and ``teams``: one bot per team (seats of the same parity)."""

    bots: tuple[str, ...]
    games: int
    players: int
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    teams: bool = False


def parse_bot_list(text: str) -> tuple[str, ...]:
    """The bots of ``--bots a,b,c``; ValueError for an empty or repeated name."""
    names = [t.strip() for t in text.split(",")]
    if any(not t for t in names):
        raise ValueError(f"--bots {text!r} has an empty name; write names separated by commas")
    seen: set[str] = set()
    for name in names:
        key = name.lower()
        if key in seen:
            raise ValueError(
                f"{name!r} is listed twice in --bots; list each bot once "
                "(a bot takes several seats by itself when there are fewer bots than players)"
            )
        seen.add(key)
    return tuple(names)


def seatings(bots: tuple[str, ...], players: int, teams: bool = False) -> list[tuple[str, ...]]:
    """The seatings an arena cycles through (see the module's documentation)."""
    if teams:
        if players < 2 or players % 2:
            raise ValueError(f"team seating needs an even number of players, not {players}")
        return [(a, b) * (players // 2) for a, b in itertools.permutations(bots, 2)]
    if len(bots) >= players:
        return list(itertools.permutations(bots, players))
    every = set(bots)
    return [t for t in itertools.product(bots, repeat=players) if set(t) == every]


def check_arena(cfg: ArenaConfig, game: Game | None = None, jobs: int = 1) -> None:
    """Raise ValueError with a sentence when ``cfg`` cannot be played."""
    game = game or default_game()
    if len(cfg.bots) < 2:
        raise ValueError(f"an arena needs at least 2 different bots, not {len(cfg.bots)}")
    for spec in cfg.bots:
        make_bot(game, spec, seed=0)  # ValueError for an unknown name
    if cfg.games < 1:
        raise ValueError(f"the number of games must be at least 1, not {cfg.games}")
    if not game.min_players <= cfg.players <= game.max_players:
        raise ValueError(
            f"the number of players must be from {game.min_players} to {game.max_players}, "
            f"not {cfg.players}"
        )
    try:
        game.check_options(cfg.players, dict(cfg.options))
    except GameError as e:
        raise ValueError(str(e)) from None
    seatings(cfg.bots, cfg.players, cfg.teams)  # ValueError for a team seating that cannot be
    if jobs < 1:
        raise ValueError(f"the number of jobs must be at least 1, not {jobs}")


def arena_seats(cfg: ArenaConfig, i: int) -> tuple[str, ...]:
    """The bot of each seat in game ``i``."""
    table = seatings(cfg.bots, cfg.players, cfg.teams)
    return table[i % len(table)]


def deal_seed(cfg: ArenaConfig, i: int) -> int:
    """The deal of game ``i``: one per cycle of seatings."""
    cycle = i // len(seatings(cfg.bots, cfg.players, cfg.teams))
    return game_seed(cfg.seed, cycle)


def bots_seed(seed: int, i: int) -> int:
    return random.Random(f"civcards-arena-bots:{seed}:{i}").getrandbits(62)


def play_arena_game(cfg: ArenaConfig, i: int, game: Game) -> GameResult:
    """Play game ``i`` of the arena (a pure function of ``cfg`` and ``i``)."""
    return play_seated(
        game,
        arena_seats(cfg, i),
        deal_seed(cfg, i),
        index=i,
        options=cfg.options,
        bot_seed=bots_seed(cfg.seed, i),
    )


def win_shares(r: GameResult) -> dict[str, float]:
    """Each bot's share of the game's one victory (0 for a bot that did not win)."""
    shares = dict.fromkeys(r.seats, 0.0)
    for w in r.winners:
        shares[r.seats[w]] += 1.0 / len(r.winners)
    return shares


@dataclass
class Pair:
    """Head-to-head of a against b, over the games both played."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    ties: int = 0

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.ties) / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "ties": self.ties,
            "score": round(self.score, 4),
        }


@dataclass
class ArenaSummary:
    """The results of an arena (see the module's documentation for the definitions)."""

    cfg: ArenaConfig
    seatings: int
    total_games: int = 0
    games: dict[str, int] = field(default_factory=dict)
    wins: dict[str, float] = field(default_factory=dict)
    #: sum of squared per-game shares, for the win rate's interval
    wins_sq: dict[str, float] = field(default_factory=dict)
    ratings: dict[str, tuple[float, float]] = field(default_factory=dict)
    pairs: dict[str, dict[str, Pair]] = field(default_factory=dict)
    think: dict[str, float] = field(default_factory=dict)
    moves_by_bot: dict[str, int] = field(default_factory=dict)
    seat_wins: dict[str, list[float]] = field(default_factory=dict)
    seat_games: dict[str, list[int]] = field(default_factory=dict)
    #: games by how they ended (the game's words)
    victories: dict[str, int] = field(default_factory=dict)
    shared: int = 0
    total_turns: int = 0
    seconds: float = 0.0

    @property
    def balanced(self) -> bool:
        return self.total_games % self.seatings == 0

    def win_rate(self, bot: str) -> float:
        g = self.games.get(bot, 0)
        return self.wins.get(bot, 0.0) / g if g else 0.0

    def win_rate_interval(self, bot: str) -> tuple[float, float]:
        """About 95 % (mean ± 1.96 standard errors of the per-game shares), clipped to [0, 1]."""
        g = self.games.get(bot, 0)
        if g == 0:
            return (0.0, 1.0)
        mean = self.win_rate(bot)
        if g < 2:
            return clip_share(mean - 1.0, mean + 1.0)
        var = max(0.0, self.wins_sq.get(bot, 0.0) / g - mean * mean)
        return clip_share(*normal_bounds(mean, math.sqrt(var / g)))

    def seconds_per_move(self, bot: str) -> float:
        m = self.moves_by_bot.get(bot, 0)
        return self.think.get(bot, 0.0) / m if m else 0.0

    def ordered(self) -> list[str]:
        """The bots by rating, best first (then by name)."""
        return sorted(self.cfg.bots, key=lambda b: (-self.ratings[b][0], b))

    def to_json(self) -> dict[str, Any]:
        bots = list(self.cfg.bots)
        ratings = {}
        for b in bots:
            mu, sigma = self.ratings[b]
            ratings[b] = {
                "mu": round(mu, 4),
                "sigma": round(sigma, 4),
                "low": round(mu - 2 * sigma, 4),
                "high": round(mu + 2 * sigma, 4),
                "ordinal": round(mu - 3 * sigma, 4),
            }
        g = self.total_games
        return {
            "games": g,
            "total_games": g,
            "players": self.cfg.players,
            "bots": bots,
            "seed": self.cfg.seed,
            "options": dict(self.cfg.options),
            **{k: v for k, v in self.cfg.options.items() if k not in ("teams",)},
            "teams": self.cfg.teams,
            "seatings": self.seatings,
            "balanced": self.balanced,
            "games_by_bot": {b: self.games.get(b, 0) for b in bots},
            "wins": {b: round(self.wins.get(b, 0.0), 4) for b in bots},
            "win_rate": {b: round(self.win_rate(b), 4) for b in bots},
            "win_rate_ci95": {b: [round(x, 4) for x in self.win_rate_interval(b)] for b in bots},
            "ratings": ratings,
            "ranking": self.ordered(),
            "head_to_head": {
                a: {b: self.pairs[a][b].to_json() for b in bots if b != a} for a in bots
            },
            "wins_by_seat": {b: [round(x, 4) for x in self.seat_wins.get(b, [])] for b in bots},
            "games_by_seat": {b: self.seat_games.get(b, []) for b in bots},
            "seconds_per_move": {b: round(self.seconds_per_move(b), 6) for b in bots},
            "moves_by_bot": {b: self.moves_by_bot.get(b, 0) for b in bots},
            "victories": dict(sorted(self.victories.items())),
            **dict(sorted(self.victories.items())),
            "shared": self.shared,
            "mean_turns": round(self.total_turns / g, 3) if g else 0.0,
            "seconds": round(self.seconds, 3),
            "games_per_sec": round(g / self.seconds, 3) if self.seconds > 0 else 0.0,
        }


def summarize(cfg: ArenaConfig, results: list[GameResult], seconds: float = 0.0) -> ArenaSummary:
    """Sum up the games (in the order of their index)."""
    from openskill.models import PlackettLuce

    bots = cfg.bots
    n = cfg.players
    s = ArenaSummary(cfg, len(seatings(bots, n, cfg.teams)), seconds=seconds)
    model = PlackettLuce()
    rating = {b: model.rating(name=b) for b in bots}
    s.pairs = {a: {b: Pair() for b in bots if b != a} for a in bots}
    s.seat_wins = {b: [0.0] * n for b in bots}
    s.seat_games = {b: [0] * n for b in bots}
    for r in sorted(results, key=lambda r: r.index):
        s.total_games += 1
        shares = win_shares(r)
        present = list(dict.fromkeys(r.seats))
        won = {b: any(r.seats[w] == b for w in r.winners) for b in present}
        for b in present:
            s.games[b] = s.games.get(b, 0) + 1
            s.wins[b] = s.wins.get(b, 0.0) + shares[b]
            s.wins_sq[b] = s.wins_sq.get(b, 0.0) + shares[b] ** 2
        for seat, b in enumerate(r.seats):
            s.seat_games[b][seat] += 1
            s.think[b] = s.think.get(b, 0.0) + (r.think[seat] if r.think else 0.0)
            s.moves_by_bot[b] = s.moves_by_bot.get(b, 0) + (r.decisions[seat] if r.decisions else 0)
        for w in r.winners:
            s.seat_wins[r.seats[w]][w] += 1.0 / len(r.winners)
        for a, b in itertools.permutations(present, 2):
            p = s.pairs[a][b]
            p.games += 1
            if won[a] and not won[b]:
                p.wins += 1
            elif won[b] and not won[a]:
                p.losses += 1
            else:
                p.ties += 1
        if len(present) >= 2:
            teams = [[rating[b]] for b in present]
            ranks: list[float] = [1.0 if won[b] else 2.0 for b in present]
            for b, new in zip(present, model.rate(teams, ranks=ranks), strict=True):
                rating[b] = new[0]
        if r.victory is not None:
            s.victories[r.victory] = s.victories.get(r.victory, 0) + 1
        if r.shared:
            s.shared += 1
        s.total_turns += r.turns
    s.ratings = {b: (float(rating[b].mu), float(rating[b].sigma)) for b in bots}
    return s


def run_arena(
    cfg: ArenaConfig,
    jobs: int = 1,
    on_result: Callable[[GameResult], None] | None = None,
    game: Game | None = None,
    ray: str | None = None,
) -> ArenaSummary:
    """Play the arena's games (in ``jobs`` processes, or on Ray) and sum them up.

    Everything but the timings is the same for any ``jobs``.
    """
    game = game or default_game()
    check_arena(cfg, game, jobs)
    t0 = time.perf_counter()
    results = run_indexed(
        play_arena_game, cfg, cfg.games, jobs=jobs, game=game, on_result=on_result, ray=ray
    )
    return summarize(cfg, results, time.perf_counter() - t0)
