"""Steps per second of the research interfaces next to the raw engine (BENCHMARKS.md).

    .venv/bin/python scripts/bench_envs.py --seconds 5 --players 2
    .venv/bin/python scripts/bench_envs.py --seconds 5 --players 2,4 --game civ4

Each row plays random games for about ``--seconds`` on one core and counts
decisions ("steps"): for the engine a move (``random_playout``: uniform over
the distinct legal moves); for the interfaces an action of the fixed action
space (a Discovery or Inquisition is a '?' prefix then one ``pick`` per card,
so a game has a few more steps), chosen uniformly among the legal actions.

* engine: ``civcards.carta.game.random_playout`` (set-up included);
* action layer: :class:`civcards.games.carta.encoding.Table` (legal action list and
  apply, no observation);
* PettingZoo: ``carta_v0.raw_env`` and the wrapped ``carta_v0.env``, the agent
  loop of the PettingZoo docs: ``last()`` (observation vector and mask of the
  agent to move) then ``step``;
* Gymnasium: ``single_agent(opponents=["random"])``, counting the agent's steps
  only (the bot's moves run inside ``step``);
* OpenSpiel: ``python_civ_carta`` states, chance outcomes sampled by their
  probabilities (not counted as steps), with and without the observation
  tensor of the player to move at each step.
"""

from __future__ import annotations

import argparse
import importlib
import platform
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np


def _loop(seconds: float, one_game: Callable[[int], int]) -> tuple[int, int, float]:
    one_game(10_000)  # warm-up
    t0 = time.perf_counter()
    games = steps = 0
    while time.perf_counter() - t0 < seconds:
        steps += one_game(games)
        games += 1
    return games, steps, time.perf_counter() - t0


def bench_engine(players: int, seconds: float) -> tuple[int, int, float]:
    from civcards.carta.game import new_game, random_playout

    def game(i: int) -> int:
        return random_playout(new_game(players, seed=i), random.Random(i))

    return _loop(seconds, game)


def bench_table(players: int, seconds: float, game: str = "carta") -> tuple[int, int, float]:
    """The action layer of ``game``: its engine's ``new_game`` in its encoding's ``Table``."""
    engine = importlib.import_module(f"civcards.{game}")
    table = importlib.import_module(f"civcards.games.{game}.encoding").Table

    def one(i: int) -> int:
        rng = random.Random(i)
        t = table(engine.new_game(players, seed=i))
        n = 0
        while not t.finished:
            legal = t.legal_actions()
            t.apply_unchecked(legal[int(rng.random() * len(legal))])
            n += 1
        return n

    return _loop(seconds, one)


def bench_pettingzoo(
    players: int, seconds: float, wrapped: bool, game: str = "carta"
) -> tuple[int, int, float]:
    """The PettingZoo environment of ``game`` (``civcards.envs.{game}_v0``)."""
    module = importlib.import_module(f"civcards.envs.{game}_v0")
    env = module.env(players=players) if wrapped else module.raw_env(players=players)

    def one(i: int) -> int:
        rng = random.Random(i)
        env.reset(seed=i)
        n = 0
        for _agent in env.agent_iter():
            obs, _r, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))
            n += 1
        return n

    return _loop(seconds, one)


def bench_gym(players: int, seconds: float, game: str = "carta") -> tuple[int, int, float]:
    """The Gymnasium environment of ``game`` against random bots (the agent's steps)."""
    from civcards.envs import single_agent

    env = single_agent(opponents=["random"] * (players - 1), game=game)

    def one(i: int) -> int:
        rng = random.Random(i)
        obs, _ = env.reset(seed=i)
        n = 0
        while True:
            legal = np.flatnonzero(obs["action_mask"])
            obs, _r, term, trunc, _ = env.step(int(legal[int(rng.random() * len(legal))]))
            n += 1
            if term or trunc:
                return n

    return _loop(seconds, one)


def weighted_outcome(state: Any, rng: random.Random) -> int:
    """A chance outcome of an OpenSpiel ``state`` drawn by its probability."""
    outcomes = state.chance_outcomes()
    r = rng.random()
    for a, p in outcomes:
        r -= p
        if r < 0:
            return int(a)
    return int(outcomes[-1][0])


def seed_byte(_state: Any, rng: random.Random) -> int:
    """civ4's chance node: a seed byte, uniform."""
    return rng.randrange(256)


def bench_openspiel(
    players: int,
    seconds: float,
    tensors: bool,
    name: str = "python_civ_carta",
    chance: Callable[[Any, random.Random], int] = weighted_outcome,
) -> tuple[int, int, float]:
    """The OpenSpiel game ``name``: its chance nodes by ``chance``, the players' actions
    uniform among the legal ones (counted), with the observation tensor or not."""
    import pyspiel

    import civcards.envs.openspiel_game  # noqa: F401 - registers the games

    game = pyspiel.load_game(name, {"players": players})

    def one(i: int) -> int:
        rng = random.Random(i)
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(chance(state, rng))
                continue
            if tensors:
                state.observation_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
            n += 1
        return n

    return _loop(seconds, one)


def bench_civ4_engine(players: int, seconds: float) -> tuple[int, int, float]:
    from civcards.civ4.bench import play

    return _loop(seconds, lambda i: play(i, players)[1])


CIV4_ROWS: list[tuple[str, Callable[[int, float], tuple[int, int, float]]]] = [
    ("engine `civ4.bench.play` (moves)", bench_civ4_engine),
    ("action layer `games.civ4.encoding.Table`", lambda p, s: bench_table(p, s, "civ4")),
    (
        "PettingZoo `civ4_v0.raw_env` (last + step)",
        lambda p, s: bench_pettingzoo(p, s, False, "civ4"),
    ),
    ("PettingZoo `civ4_v0.env` (wrapped)", lambda p, s: bench_pettingzoo(p, s, True, "civ4")),
    ("Gymnasium `civcards/Civ4-v0` vs random (agent steps)", lambda p, s: bench_gym(p, s, "civ4")),
    (
        "OpenSpiel `python_civ4` (actions)",
        lambda p, s: bench_openspiel(p, s, False, "python_civ4", seed_byte),
    ),
    (
        "OpenSpiel `python_civ4` + observation tensor",
        lambda p, s: bench_openspiel(p, s, True, "python_civ4", seed_byte),
    ),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--players", default="2", help="comma-separated player counts")
    ap.add_argument("--game", default="carta", choices=["carta", "civ4"])
    args = ap.parse_args()
    rows: list[tuple[str, Callable[[int, float], tuple[int, int, float]]]] = [
        ("engine `random_playout` (moves)", bench_engine),
        ("action layer `envs.encoding.Table`", bench_table),
        ("PettingZoo `carta_v0.raw_env` (last + step)", lambda p, s: bench_pettingzoo(p, s, False)),
        ("PettingZoo `carta_v0.env` (wrapped)", lambda p, s: bench_pettingzoo(p, s, True)),
        ("Gymnasium `single_agent` vs random (agent steps)", bench_gym),
        ("OpenSpiel `python_civ_carta` (actions)", lambda p, s: bench_openspiel(p, s, False)),
        (
            "OpenSpiel `python_civ_carta` + observation tensor",
            lambda p, s: bench_openspiel(p, s, True),
        ),
    ]
    if args.game == "civ4":
        rows = CIV4_ROWS
    import sys

    print(f"- machine: {platform.platform()}, {platform.processor() or platform.machine()}")
    print(f"- Python: {platform.python_implementation()} {platform.python_version()}")
    print(f"- command: `{' '.join(['python', *sys.argv])}`")
    print()
    print("| players | interface | games | steps/s | steps/game | games/s |")
    print("|--------:|-----------|------:|--------:|-----------:|--------:|")
    for players in (int(x) for x in args.players.split(",")):
        for name, fn in rows:
            games, steps, secs = fn(players, args.seconds)
            print(
                f"| {players} | {name} | {games:,} | {steps / secs:,.0f} | "
                f"{steps / games:.1f} | {games / secs:,.0f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
