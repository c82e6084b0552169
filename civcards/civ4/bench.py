"""Random-play throughput: ``python -m civcards.civ4.bench [GAMES]``.

Plays games choosing uniformly level by level over :func:`choices` /
:func:`expand` on one core, set-up included, and prints decisions per second
(one decision = one pick among a list of choices, a step or a final move) and
moves per second (final moves applied).
"""

from __future__ import annotations

import random
import sys
import time

from .choices import choices, expand
from .game import new_game


def play(seed: int, players: int) -> tuple[int, int]:
    """One random game; returns (decisions, moves)."""
    g = new_game(players, seed=seed)
    rng = random.Random(seed)
    decisions = 0
    while not g.finished:
        c = rng.choice(choices(g))
        decisions += 1
        while not c.final:
            c = rng.choice(expand(g, c.text))
            decisions += 1
        assert c.move is not None
        g.apply_unchecked(c.move, c.text)
    return decisions, len(g.moves)


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    games = int(args[0]) if args else 60
    for players in (2, 3, 4):
        t = time.perf_counter()
        d = m = 0
        for seed in range(games):
            dd, mm = play(seed, players)
            d += dd
            m += mm
        el = time.perf_counter() - t
        print(
            f"{players} players: {games} games in {el:.2f} s, {d / el:,.0f} decisions/s, "
            f"{m / el:,.0f} moves/s, {m / games:.0f} moves/game, {games / el:.1f} games/s"
        )


if __name__ == "__main__":
    main()
