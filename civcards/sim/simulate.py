"""Bot-against-bot games of any registered game, one or many processes, with a summary.

Generic over the :class:`~civcards.game_api.Game` protocol (CIV, ``carta``, by
default). Game ``i`` of a run uses a seed derived from the run's seed and ``i``
only, and so do its bots, so a run gives the same games whatever the number
of processes. A bot's pick is applied as it was chosen
(:meth:`~civcards.game_api.Game.apply_choice`: no text is parsed again).

>>> cfg = SimConfig(games=2, players=2, bots=("random", "random"), seed=1)
>>> s = simulate(cfg)
>>> s.games, sum(s.wins_by_seat) >= 2
(2, True)
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from ..bots import make_bot
from ..bots.base import bot_choice
from ..game_api import DEFAULT_GAME, Choice, Game, GameError, get_game


class Indexed(Protocol):
    """A result that knows the index of its game."""

    @property
    def index(self) -> int: ...


R = TypeVar("R", bound=Indexed)


def default_game() -> Game:
    """The game a run plays when none is named (``--game``'s default)."""
    return get_game(DEFAULT_GAME)


@dataclass(frozen=True)
class SimConfig:
    """What to simulate. ``bots`` names the bot of each seat, in seat order;
    ``options`` are the game's set-up options (checked by the game)."""

    games: int
    players: int
    bots: tuple[str, ...]
    seed: int = 0
    #: rotate the seating each game: in game i the bot listed j-th sits at seat (j + i) mod n
    rotate: bool = False
    options: Mapping[str, Any] = field(default_factory=dict)
    #: keep each game's record (JSON text) in its result
    records: bool = False
    #: fill each result's game-specific columns (:meth:`Game.sim_row`, for ``--out``)
    rows: bool = False


@dataclass
class GameResult:
    """One finished game."""

    index: int
    seed: int
    seats: list[str]
    winners: list[int]
    #: how the game ended, in the game's word (CIV: hegemony, majority)
    victory: str | None
    turns: int
    moves: int
    #: the victory is shared between rivals (not one side of a team game)
    shared: bool = False
    record: str | None = None
    players: int = 0
    #: the game's set-up options, as the game normalised them
    options: dict[str, Any] = field(default_factory=dict)
    #: the seat that moved first
    start: int = 0
    #: the game's own columns (:meth:`Game.sim_row`), when asked for
    extra: dict[str, Any] = field(default_factory=dict)
    #: seconds each seat's bot spent deciding, and how many moves it chose
    think: list[float] = field(default_factory=list)
    decisions: list[int] = field(default_factory=list)
    #: the process's CPU seconds each seat's bot spent deciding (``think`` is wall-clock
    #: time, which other work on the machine stretches; this is not stretched)
    cpu: list[float] = field(default_factory=list)


@dataclass
class Summary:
    """Results of a run. Shared victories count one win for every winner."""

    players: int
    bots: list[str]
    games: int = 0
    wins_by_seat: list[int] = field(default_factory=list)
    wins_by_bot: dict[str, int] = field(default_factory=dict)
    seats_by_bot: dict[str, int] = field(default_factory=dict)
    #: games by how they ended (the game's words)
    victories: dict[str, int] = field(default_factory=dict)
    shared: int = 0
    total_turns: int = 0
    total_moves: int = 0
    min_turns: int | None = None
    max_turns: int | None = None
    seconds: float = 0.0

    def add(self, r: GameResult) -> None:
        self.games += 1
        for name in r.seats:
            self.seats_by_bot[name] = self.seats_by_bot.get(name, 0) + 1
        for s in r.winners:
            self.wins_by_seat[s] += 1
            name = r.seats[s]
            self.wins_by_bot[name] = self.wins_by_bot.get(name, 0) + 1
        if r.victory is not None:
            self.victories[r.victory] = self.victories.get(r.victory, 0) + 1
        if r.shared:
            self.shared += 1
        self.total_turns += r.turns
        self.total_moves += r.moves
        self.min_turns = r.turns if self.min_turns is None else min(self.min_turns, r.turns)
        self.max_turns = r.turns if self.max_turns is None else max(self.max_turns, r.turns)

    @property
    def mean_turns(self) -> float:
        return self.total_turns / self.games if self.games else 0.0

    @property
    def mean_moves(self) -> float:
        return self.total_moves / self.games if self.games else 0.0

    @property
    def games_per_sec(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def win_rate(self, name: str) -> float:
        """Wins of ``name`` per game it took part in (a seat-game counts once)."""
        played = self.seats_by_bot.get(name, 0)
        return self.wins_by_bot.get(name, 0) / played if played else 0.0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "games": self.games,
            "players": self.players,
            "bots": self.bots,
            "wins_by_seat": self.wins_by_seat,
            "wins_by_bot": dict(sorted(self.wins_by_bot.items())),
            "seats_by_bot": dict(sorted(self.seats_by_bot.items())),
            "win_rate_by_bot": {k: round(self.win_rate(k), 4) for k in sorted(self.seats_by_bot)},
            "victories": dict(sorted(self.victories.items())),
        }
        # each way of ending is also a key of its own (CIV: "hegemony", "majority")
        for reason, count in sorted(self.victories.items()):
            out.setdefault(reason, count)
        out.update(
            {
                "shared": self.shared,
                "mean_turns": round(self.mean_turns, 3),
                "min_turns": self.min_turns,
                "max_turns": self.max_turns,
                "mean_moves": round(self.mean_moves, 3),
                "seconds": round(self.seconds, 3),
                "games_per_sec": round(self.games_per_sec, 3),
            }
        )
        return out


def check_config(cfg: SimConfig, game: Game | None = None, jobs: int = 1) -> dict[str, Any]:
    """The game's normalised options for ``cfg``; ValueError with a sentence when it cannot
    be simulated (the game checks its own set-up: :meth:`Game.check_options`)."""
    game = game or default_game()
    if cfg.games < 1:
        raise ValueError(f"the number of games must be at least 1, not {cfg.games}")
    if not game.min_players <= cfg.players <= game.max_players:
        raise ValueError(
            f"the number of players must be from {game.min_players} to {game.max_players}, "
            f"not {cfg.players}"
        )
    if len(cfg.bots) != cfg.players:
        raise ValueError(
            f"{len(cfg.bots)} bots for {cfg.players} players: give one bot per seat, "
            "or a single name for every seat"
        )
    for spec in cfg.bots:
        make_bot(game, spec, seed=0)  # raises ValueError for an unknown name
    try:
        options = game.check_options(cfg.players, dict(cfg.options))
    except GameError as e:
        raise ValueError(str(e)) from None
    if jobs < 1:
        raise ValueError(f"the number of jobs must be at least 1, not {jobs}")
    return options


def seating(cfg: SimConfig, i: int) -> list[str]:
    """The bot of each seat in game ``i``."""
    n = cfg.players
    if not cfg.rotate:
        return list(cfg.bots)
    return [cfg.bots[(s - i) % n] for s in range(n)]


def game_seed(seed: int, i: int) -> int:
    """The seed of game ``i`` of a run seeded ``seed`` (a pure function of both)."""
    return random.Random(f"civcards-sim:{seed}:{i}").getrandbits(62)


def play_game(cfg: SimConfig, i: int, game: Game | None = None) -> GameResult:
    """Play game ``i`` of the run to its end."""
    gseed = game_seed(cfg.seed, i)
    return play_seated(
        game or default_game(),
        seating(cfg, i),
        gseed,
        index=i,
        options=cfg.options,
        records=cfg.records,
        rows=cfg.rows,
        timing=False,
    )


def play_seated(
    game: Game,
    seats: Sequence[str],
    gseed: int,
    *,
    index: int = 0,
    options: Mapping[str, Any] | None = None,
    records: bool = False,
    rows: bool = False,
    bot_seed: int | None = None,
    timing: bool = True,
) -> GameResult:
    """Play one game dealt from ``gseed`` with the bot ``seats[s]`` at seat ``s``.

    The bot of seat ``s`` is seeded ``bot_seed + 1 + s`` (``bot_seed`` defaults
    to ``gseed``). With ``timing`` the time each bot takes to choose its moves
    is measured (``think``, wall-clock, and ``cpu``, the process's CPU time; else zeros).
    """
    seats = list(seats)
    players = len(seats)
    opts = game.check_options(players, dict(options or {}))
    state = game.new_state(players, opts, gseed)
    base = gseed if bot_seed is None else bot_seed
    bots = [make_bot(game, spec, seed=base + 1 + s) for s, spec in enumerate(seats)]
    think = [0.0] * players
    cpu = [0.0] * players
    decisions = [0] * players
    clock = time.perf_counter
    cpu_clock = time.process_time
    apply = game.apply_choice
    choices = game.choices
    expand = game.expand
    # a uniform bot's pick is drawn here (the same random numbers as its own choose)
    draw = [b.rng.choice if b.uniform else None for b in bots]
    start = state.to_move
    seat = start
    while seat is not None:
        t0 = clock() if timing else 0.0
        c0 = cpu_clock() if timing else 0.0
        pick = draw[seat]
        if pick is not None:
            choice: Choice = pick(choices(state))
            while not choice.final:
                choice = pick(expand(state, choice).choices)
        else:
            choice = bot_choice(bots[seat], game, state)
        if timing:
            cpu[seat] += cpu_clock() - c0
            think[seat] += clock() - t0
        decisions[seat] += 1
        apply(state, choice)
        seat = state.to_move
    moves = sum(decisions)
    result = game.result(state)
    winners = list(result.winners) if result is not None else []
    record = None
    if records:
        rec = game.record(state, seats)
        record = json.dumps(rec, ensure_ascii=False)
    return GameResult(
        index=index,
        seed=gseed,
        seats=seats,
        winners=winners,
        victory=result.reason if result is not None else None,
        turns=state.turn,
        moves=moves,
        shared=bool(result is not None and result.shared),
        record=record,
        players=players,
        options=opts,
        start=start if start is not None else 0,
        extra=game.sim_row(state) if rows else {},
        think=think,
        decisions=decisions,
        cpu=cpu,
    )


def run_chunk(
    fn: Callable[[Any, int, Game], R], cfg: Any, start: int, stop: int, game: Game
) -> list[R]:
    """``fn(cfg, i, game)`` for ``i`` in ``range(start, stop)`` (runs in a worker)."""
    return [fn(cfg, i, game) for i in range(start, stop)]


def _chunks(games: int, jobs: int) -> Iterator[tuple[int, int]]:
    size = max(1, min(16, games // (jobs * 8) or 1))
    for start in range(0, games, size):
        yield start, min(games, start + size)


def run_indexed(
    fn: Callable[[Any, int, Game], R],
    cfg: Any,
    count: int,
    *,
    jobs: int = 1,
    game: Game,
    on_result: Callable[[R], None] | None = None,
    ray: str | None = None,
) -> list[R]:
    """``[fn(cfg, i, game) for i in range(count)]``, spread over workers.

    ``fn`` must be a module-level function (so that it can be pickled) and
    depend on ``cfg``, ``i`` and ``game`` only; then the results do not depend
    on how they are spread. ``jobs > 1`` uses that many local processes;
    ``ray`` (``"local"`` or a cluster address) spreads the games over Ray's
    workers instead. ``on_result`` is called here, in the order games finish.
    The list returned is in the order of ``i``.
    """
    results: list[R] = []

    def take(r: R) -> None:
        results.append(r)
        if on_result is not None:
            on_result(r)

    if ray is not None:
        from .distributed import run_on_ray

        for chunk in run_on_ray(fn, cfg, list(_chunks(count, 8)), game, ray):
            for r in chunk:
                take(r)
        return _in_order(results, count)
    if jobs == 1:
        for i in range(count):
            take(fn(cfg, i, game))
        return results
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        pending: set[Future[list[R]]] = set()
        it = iter(list(_chunks(count, jobs)))
        # keep a bounded number of chunks in flight
        for start, stop in it:
            pending.add(pool.submit(run_chunk, fn, cfg, start, stop, game))
            if len(pending) >= jobs * 4:
                break
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                for r in fut.result():
                    take(r)
                nxt = next(it, None)
                if nxt is not None:
                    pending.add(pool.submit(run_chunk, fn, cfg, nxt[0], nxt[1], game))
    return _in_order(results, count)


def _in_order(results: list[R], count: int) -> list[R]:
    order = sorted(results, key=lambda r: r.index)
    if [r.index for r in order] != list(range(count)):  # pragma: no cover - a worker lost games
        raise RuntimeError(f"{len(order)} results for {count} games")
    return order


def simulate(
    cfg: SimConfig,
    jobs: int = 1,
    on_result: Callable[[GameResult], None] | None = None,
    game: Game | None = None,
    ray: str | None = None,
) -> Summary:
    """Play the run's games (in ``jobs`` processes, or on Ray) and sum them up.

    ``on_result`` is called in this process for every finished game, in the
    order they finish. The summary does not depend on ``jobs`` or ``ray``.
    """
    game = game or default_game()
    check_config(cfg, game, jobs)
    summary = Summary(cfg.players, list(cfg.bots), wins_by_seat=[0] * cfg.players)
    t0 = time.perf_counter()
    results = run_indexed(
        play_game, cfg, cfg.games, jobs=jobs, game=game, on_result=on_result, ray=ray
    )
    summary.seconds = time.perf_counter() - t0
    for r in results:
        summary.add(r)
    return summary


def record_path(folder: Path, index: int) -> Path:
    """Where game ``index`` (0-based) of a run is saved: ``game-00001.json`` for the first."""
    return folder / f"game-{index + 1:05d}.json"


def prepare_records(folder: str | Path) -> Path:
    """Create ``folder`` if needed and check it can be written; ValueError if not."""
    path = Path(folder)
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".civcards-write-test"
        probe.write_text("")
        probe.unlink()
    except FileExistsError:
        raise ValueError(f"{str(path)!r} exists and is not a folder") from None
    except OSError as e:
        raise ValueError(f"cannot write game records in {str(path)!r} ({e.strerror})") from None
    return path


def save_record(folder: Path, r: GameResult) -> None:
    if r.record is None:
        return
    record_path(folder, r.index).write_text(r.record + "\n", encoding="utf-8")
