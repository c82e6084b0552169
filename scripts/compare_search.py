"""Play civ4 games of ``ismcts`` against ``greedy`` and list every move the search bot
chooses, with the CPU time it took: run it on two versions of the code and compare.

    PYTHONPATH=/path/to/checkout python scripts/compare_search.py OUT.json [--games 2] [--cap 40]

Each game (players 2, 3, 4; seeds 1..games) seats ``ismcts:1000it`` at seat ``seed % players``
and greedy elsewhere, with the platform's default options, and stops after ``cap`` searched
decisions of the ismcts seat (0: the whole game). OUT.json holds the moves of every game
(compare them byte for byte) and the CPU seconds (``time.process_time``) spent in the
ismcts bot's choices, and the number of its searched decisions.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from civcards.bots import make_bot
from civcards.bots.base import bot_choice
from civcards.game_api import default_options, get_game


def play(players: int, seed: int, cap: int, spec: str) -> dict[str, Any]:
    game = get_game("civ4")
    opts = game.check_options(players, default_options(game))
    state = game.new_state(players, opts, 1000 + seed)
    me = seed % players
    bots = [make_bot(game, spec if s == me else "greedy", seed=7 * seed + s) for s in range(players)]
    moves: list[str] = []
    cpu = 0.0
    searched = 0
    while state.to_move is not None:
        seat = state.to_move
        if seat == me:
            t0 = time.process_time()
            choice = bot_choice(bots[seat], game, state)
            cpu += time.process_time() - t0
            it = getattr(bots[seat], "last_iterations", 0)
            searched += 1 if it else 0
            moves.append(choice.text)
        else:
            choice = bot_choice(bots[seat], game, state)
        game.apply_choice(state, choice)
        if cap and searched >= cap:
            break
    return {"players": players, "seed": seed, "moves": moves, "cpu": cpu, "searched": searched,
            "finished": bool(state.finished)}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--cap", type=int, default=40)
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--bot", default="ismcts:1000it")
    a = ap.parse_args()
    rows = []
    for players in (int(p) for p in a.players.split(",")):
        for seed in range(1, a.games + 1):
            r = play(players, seed, a.cap, a.bot)
            rows.append(r)
            print(f"{players}p seed {seed}: {len(r['moves'])} moves, {r['searched']} searched, "
                  f"{r['cpu']:.2f} CPU-s", file=sys.stderr, flush=True)
    total = sum(r["cpu"] for r in rows)
    searched = sum(r["searched"] for r in rows)
    out = {"games": rows, "cpu": total, "searched": searched,
           "per_move": total / max(1, searched)}
    with open(a.out, "w") as f:
        json.dump(out, f, indent=0)
    print(f"total {total:.2f} CPU-s, {searched} searched decisions, "
          f"{out['per_move']:.4f} CPU-s per searched decision", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
