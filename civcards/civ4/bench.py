"""Random-play throughput: ``python -m civcards.civ4.bench [GAMES]``.

Plays games choosing uniformly level by level over :func:`choices` /
:func:`expand` on one core, set-up included, and prints decisions per second
(one decision = one pick among a list of choices, a step or a final move) and
moves per second (final moves applied). The figures are per second of wall
time, and in brackets per second of this process's CPU time (steadier on a
shared machine).
"""

from __future__ import annotations

import random
import sys
import time

from .choices import choices, expand
from .game import GameState, new_game


def random_playout(g: GameState, rng: random.Random) -> tuple[int, int]:
    """Play ``g`` to its end, each decision uniform over the factored choices
    (level by level, as the bots get them); returns (decisions, moves applied)."""
    decisions = moves = 0
    choice = rng.choice
    while not g.finished:
        c = choice(choices(g))
        decisions += 1
        while not c.final:
            c = choice(expand(g, c.text))
            decisions += 1
        assert c.move is not None
        g.apply_unchecked(c.move, c.text)
        moves += 1
    return decisions, moves


def play(seed: int, players: int) -> tuple[int, int]:
    """One random game; returns (decisions, moves)."""
    return random_playout(new_game(players, seed=seed), random.Random(seed))


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    games = int(args[0]) if args else 60
    for players in (2, 3, 4):
        t = time.perf_counter()
        cpu = time.process_time()
        d = m = 0
        for seed in range(games):
            dd, mm = play(seed, players)
            d += dd
            m += mm
        el = time.perf_counter() - t
        el_cpu = time.process_time() - cpu
        print(
            f"{players} players: {games} games in {el:.2f} s, {d / el:,.0f} decisions/s "
            f"({d / el_cpu:,.0f} per CPU-second), {m / el:,.0f} moves/s, {m / games:.0f} moves/game, "
            f"{games / el:.1f} games/s"
        )


if __name__ == "__main__":
    main()
