"""Engine throughput: random playouts on one core, and OpenSpiel's Python game beside it.

A game's figure is the rate of whole games from a fresh state (set-up and
deal included) played to the end with each move uniform over the legal moves:
by the game's own playout where it has one (:meth:`Game.random_playout`; CIV:
:func:`civcards.carta.game.random_playout`, the engine alone), else through
the interface (``legal`` and ``play``). The rate of the playouts alone
(set-up excluded) is reported too.

When ``pyspiel`` can be imported, the same measurement is made on OpenSpiel's
pure-Python game ``python_team_dominoes`` (chance nodes sampled by their
probabilities, players' actions uniform over the legal actions).

>>> from civcards.game_api import get_game
>>> r = bench_game(get_game("carta"), 2, seconds=0.05)
>>> r["games"] > 0 and r["moves_per_sec"] > 0
True
"""

from __future__ import annotations

import datetime
import os
import platform
import random
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..game_api import Game, default_options

OPENSPIEL_GAME = "python_team_dominoes"
BEGIN = "<!-- civcards-bench:begin -->"
END = "<!-- civcards-bench:end -->"


def playout_of(game: Game) -> Callable[[Any, random.Random], int]:
    """The game's random playout (state, rng) -> moves played: its own, else one through
    the interface (each move uniform over :meth:`Game.legal`)."""
    own = getattr(game, "random_playout", None)
    if own is not None:
        return own  # type: ignore[no-any-return]

    def playout(state: Any, rng: random.Random) -> int:
        count = 0
        while not state.finished:
            legal = game.legal(state)
            game.play(state, legal[int(rng.random() * len(legal))])
            count += 1
        return count

    return playout


def bench_game(
    game: Game, players: int, seconds: float = 5.0, warmup: float = 0.2
) -> dict[str, Any]:
    """Random playouts of ``players``-player games for about ``seconds`` on this core."""
    if not game.min_players <= players <= game.max_players:
        raise ValueError(
            f"{game.title} is played by {game.min_players} to {game.max_players} players, "
            f"not {players}"
        )
    opts = game.check_options(players, default_options(game, players))
    random_playout = playout_of(game)

    def new_game(players: int, seed: int) -> Any:
        return game.new_state(players, opts, seed)

    clock = time.perf_counter
    end = clock() + warmup
    i = 0
    while clock() < end:  # fill the engine's caches before timing
        random_playout(new_game(players, seed=-1 - i), random.Random(-1 - i))
        i += 1
    games = moves = 0
    playing = 0.0
    t0 = clock()
    stop = t0 + seconds
    now = t0
    while now < stop or games == 0:
        g = new_game(players, seed=games)
        t1 = clock()
        moves += random_playout(g, random.Random(games))
        now = clock()
        playing += now - t1
        games += 1
    total = now - t0
    return _rates(f"{game.name}-{players}p", games, moves, total) | {
        "players": players,
        "playout_seconds": round(playing, 4),
        "playout_games_per_sec": round(games / playing, 1) if playing else 0.0,
        "playout_moves_per_sec": round(moves / playing, 1) if playing else 0.0,
    }


def openspiel_available() -> bool:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return True


def bench_openspiel(seconds: float = 5.0, warmup: float = 0.2) -> dict[str, Any] | None:
    """The same measurement on OpenSpiel's Python ``python_team_dominoes``; None if absent."""
    try:
        import pyspiel
        from open_spiel.python import games as _python_games  # noqa: F401  (registers them)
    except ImportError:
        return None
    game = pyspiel.load_game(OPENSPIEL_GAME)
    clock = time.perf_counter

    def playout(rng: random.Random) -> int:
        state = game.new_initial_state()
        rnd = rng.random
        count = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                x = rnd()
                action = outcomes[-1][0]
                for a, p in outcomes:
                    x -= p
                    if x < 0:
                        action = a
                        break
            else:
                legal = state.legal_actions()
                action = legal[int(rnd() * len(legal))]
            state.apply_action(action)
            count += 1
        return count

    end = clock() + warmup
    i = 0
    while clock() < end:
        playout(random.Random(-1 - i))
        i += 1
    games = moves = 0
    t0 = clock()
    stop = t0 + seconds
    now = t0
    while now < stop or games == 0:
        moves += playout(random.Random(games))
        games += 1
        now = clock()
    version = getattr(pyspiel, "__version__", None)
    if version is None:
        try:
            from importlib.metadata import version as _v

            version = _v("open_spiel")
        except Exception:  # pragma: no cover - metadata missing
            version = "?"
    return _rates(OPENSPIEL_GAME, games, moves, now - t0) | {"open_spiel": version}


def _rates(name: str, games: int, moves: int, seconds: float) -> dict[str, Any]:
    return {
        "game": name,
        "games": games,
        "moves": moves,
        "seconds": round(seconds, 4),
        "games_per_sec": round(games / seconds, 1) if seconds else 0.0,
        "moves_per_sec": round(moves / seconds, 1) if seconds else 0.0,
        "mean_moves": round(moves / games, 2) if games else 0.0,
    }


def bench_bot(
    spec: str,
    *,
    games: int = 4,
    players: int = 2,
    opponent: str = "greedy",
    seed: int = 0,
    game: Game | None = None,
) -> dict[str, Any]:
    """How long bot ``spec`` thinks a move, in ``games`` games against ``opponent`` bots.

    Its seat rotates from game to game. Every decision of the bot is timed
    (building its observation and options included, as :func:`bot_move` does);
    ``choice`` figures count only the decisions with two options or more (a
    single option costs a bot nothing).
    """
    from ..bots import bot_choice, make_bot
    from .simulate import default_game

    game = game or default_game()
    make_bot(game, spec)  # a bad name fails here, before any game
    make_bot(game, opponent)
    opts = game.check_options(players, default_options(game, players))
    every: list[float] = []
    choices: list[float] = []
    for i in range(games):
        g = game.new_state(players, opts, seed + i)
        mine = i % players
        bots = [
            make_bot(game, spec if s == mine else opponent, seed=seed + i * 10 + s)
            for s in range(players)
        ]
        while not g.finished:
            s = g.to_move
            assert s is not None
            several = s == mine and len(game.choices(g)) > 1
            t0 = time.perf_counter()
            choice = bot_choice(bots[s], game, g)
            dt = time.perf_counter() - t0
            if s == mine:
                every.append(dt)
                if several:
                    choices.append(dt)
            game.apply_choice(g, choice)
    choices.sort()

    def pct(q: float) -> float:
        return choices[min(len(choices) - 1, int(q * len(choices)))] if choices else 0.0

    return {
        "game": game.name,
        "bot": spec,
        "opponent": opponent,
        "players": players,
        "games": games,
        "moves": len(every),
        "seconds_per_move": round(sum(every) / max(1, len(every)), 4),
        "choices": len(choices),
        "seconds_per_choice": round(sum(choices) / max(1, len(choices)), 4),
        "choice_p50": round(pct(0.5), 4),
        "choice_p95": round(pct(0.95), 4),
        "choice_max": round(choices[-1] if choices else 0.0, 4),
        "machine": machine_info(),
    }


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo (Linux), else what platform says."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def machine_info() -> dict[str, Any]:
    return {
        "platform": platform.platform(),
        "cpu": cpu_model(),
        "cpus": os.cpu_count(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
    }


def run_bench(
    players: list[int], seconds: float, openspiel: bool = True, game: Game | None = None
) -> dict[str, Any]:
    """Every measurement of ``civcards bench``, as one JSON-ready object (the game's
    figures under ``"civ"``, one per player count)."""
    from .simulate import default_game

    game = game or default_game()
    figures = [bench_game(game, p, seconds) for p in players]
    os_result = bench_openspiel(seconds) if openspiel else None
    return {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine_info(),
        "seconds_per_run": seconds,
        "game": game.name,
        "title": game.title,
        "civ": figures,
        "openspiel": os_result,
        "openspiel_note": None
        if os_result is not None
        else ("skipped" if not openspiel else "OpenSpiel not installed"),
    }


def markdown(result: dict[str, Any], command: str) -> str:
    """The marked section of BENCHMARKS.md for ``result``."""
    m = result["machine"]
    lines = [
        BEGIN,
        f"Measured {result['date']} with `{command}`",
        "",
        f"- machine: {m['platform']}, {m['cpu']} ({m['cpus']} logical CPUs, one used)",
        f"- Python: {m['python']}",
        "",
        "| game | games | games/s | moves/s | moves/game | games/s (playout only) |",
        "|------|------:|--------:|--------:|-----------:|-----------------------:|",
    ]
    for r in result["civ"]:
        lines.append(
            f"| {result.get('title', 'CIV')}, {r['players']} players | {r['games']:,} | "
            f"{r['games_per_sec']:,.0f} | "
            f"{r['moves_per_sec']:,.0f} | {r['mean_moves']:.1f} | "
            f"{r['playout_games_per_sec']:,.0f} |"
        )
    os_r = result["openspiel"]
    if os_r is not None:
        lines.append(
            f"| OpenSpiel `{os_r['game']}` (Python, open_spiel {os_r['open_spiel']}) | "
            f"{os_r['games']:,} | {os_r['games_per_sec']:,.0f} | {os_r['moves_per_sec']:,.0f} | "
            f"{os_r['mean_moves']:.1f} | – |"
        )
    else:
        lines.append(f"| OpenSpiel `{OPENSPIEL_GAME}` | {result['openspiel_note']} | | | | |")
    lines.append(END)
    return "\n".join(lines)


def write_section(path: str | Path, section: str) -> None:
    """Put ``section`` between the markers of ``path`` (appended when it has none)."""
    p = Path(path)
    text = p.read_text(encoding="utf-8") if p.exists() else "# Benchmarks\n"
    pattern = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END), re.S)
    if pattern.search(text):
        text = pattern.sub(lambda _m: section, text, count=1)
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    p.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
