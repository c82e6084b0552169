"""Why CIV's self-play made `net` worse: how often each bot's move is the expert's.

Positions: the top-level decisions (more than one choice) of 2-player `greedy`
games, every ``--every``-th one. For each position every bot named chooses a
move (a fresh bot per position); the table gives, per bot, the share of
positions where its move is the expert's (``ismcts:1000it``'s), and where it is
greedy's. docs/learning.md ("Why self-play made it worse") has the figures.

    nice -n 19 .venv/bin/python studies/learning/diagnose.py --games 12 --every 4 \\
        --bots greedy,net:studies/learning/carta/net-g000.npz,...
"""

from __future__ import annotations

import argparse
import json
import time
from functools import partial
from itertools import count

from civcards.bots import make_bot
from civcards.bots.base import Decision, bot_choice
from civcards.game_api import default_options, get_game


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="carta")
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--every", type=int, default=4)
    ap.add_argument("--expert", default="ismcts:1000it")
    ap.add_argument("--bots", required=True, help="comma-separated bot names")
    ap.add_argument("--seed", type=int, default=11)
    a = ap.parse_args()
    game = get_game(a.game)
    names = [a.expert, "greedy", *a.bots.split(",")]
    agree = {n: [0, 0] for n in names}  # [same as expert, same as greedy]
    seconds = {n: 0.0 for n in names}
    total = 0
    serial = count()
    for g in range(a.games):
        seed = a.seed * 1000 + g
        state = game.new_state(2, game.check_options(2, default_options(game, 2)), seed)
        players = [make_bot(game, "greedy", seed=seed + s) for s in range(2)]
        k = 0
        while state.to_move is not None:
            seat = state.to_move
            choices = game.choices(state)
            if len(choices) > 1:
                k += 1
                if k % a.every == 0:
                    total += 1
                    moves = {}
                    for n in names:
                        bot = make_bot(game, n, seed=next(serial))
                        dec = Decision(
                            seat, choices, observe=partial(game.observe, state, seat), game=game
                        )
                        t = time.perf_counter()
                        moves[n] = bot.choose(dec).text
                        seconds[n] += time.perf_counter() - t
                    for n in names:
                        agree[n][0] += moves[n] == moves[a.expert]
                        agree[n][1] += moves[n] == moves["greedy"]
            game.apply_choice(state, bot_choice(players[seat], game, state))
    print(
        json.dumps(
            {
                "positions": total,
                "expert": a.expert,
                "bots": {
                    n: {
                        "same_as_expert": agree[n][0] / total,
                        "same_as_greedy": agree[n][1] / total,
                        "seconds_per_move": seconds[n] / total,
                    }
                    for n in names
                },
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
