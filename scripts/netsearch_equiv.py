"""Record every choice of the network bots (``ismcts+net`` and ``net``) over fixed games,
to check that a speed change of :mod:`civcards.bots.netsearch` chooses exactly as before.

    PYTHONPATH=/path/to/checkout python scripts/netsearch_equiv.py OUT.json [--quick]
    python scripts/netsearch_equiv.py OUT.json --compare BEFORE.json

Games (2 players unless said, the platform's default options, deals 11, 12, 13...): CIV (``carta``)
``ismcts+net:200it`` against ``net`` (seats swapped each game), one game of the
sampling bots (``ismcts+net:40it:sample`` against ``net:sample``), ``ismcts+net:650it``
(the equal-time arena's budget) for 80 decisions, a 3-player game
(``ismcts+net:100it`` against two ``net``: Inquisition has two targets), and civ4
``ismcts+net:50it`` against ``net`` for at most ``--civ4-cap`` decisions a game.
Each bot's every answer is written: the seat, the choice, its iterations, the searched
options (move, choice, value, visits, floats as ``repr``) and its training target.
Identical files mean identical choices, values and random draws.
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

#: (game, seats, deal, decisions cap (0: the whole game))
FULL = [
    ("carta", ["ismcts+net:200it", "net"], 11, 0),
    ("carta", ["net", "ismcts+net:200it"], 12, 0),
    ("carta", ["ismcts+net:200it", "net"], 13, 0),
    ("carta", ["ismcts+net:40it:sample", "net:sample"], 14, 0),
    ("carta", ["net", "ismcts+net:650it"], 15, 80),
    ("carta", ["ismcts+net:100it", "net", "net"], 16, 0),
    ("civ4", ["ismcts+net:50it", "net"], 11, 150),
    ("civ4", ["net", "ismcts+net:50it"], 12, 150),
    ("civ4", ["ismcts+net:50it", "net"], 13, 150),
]
QUICK = [
    ("carta", ["ismcts+net:24it", "net"], 21, 60),
    ("carta", ["ismcts+net:12it:sample", "net:sample"], 22, 40),
    ("civ4", ["ismcts+net:10it", "net"], 21, 40),
]


def _recording(bot: Any, log: list[Any], seat: int) -> None:
    inner = bot.choose

    def choose(decision: Any) -> Any:
        pick = inner(decision)
        opts = [[o.move, o.choice, repr(o.value), o.visits] for o in bot.option_values()]
        target = sorted((int(a), repr(float(p))) for a, p in bot.last_target.items())
        log.append([seat, pick.text, bot.last_iterations, opts, target])
        return pick

    bot.choose = choose


def play(name: str, seats: list[str], deal: int, cap: int) -> dict[str, Any]:
    game = get_game(name)
    opts = game.check_options(len(seats), default_options(game))
    state = game.new_state(len(seats), opts, deal)
    log: list[Any] = []
    bots = [make_bot(game, spec, seed=100 + deal + s) for s, spec in enumerate(seats)]
    for s, b in enumerate(bots):
        _recording(b, log, s)
    cpu = 0.0
    decisions = 0
    while state.to_move is not None and (not cap or decisions < cap):
        t0 = time.process_time()
        choice = bot_choice(bots[state.to_move], game, state)
        cpu += time.process_time() - t0
        game.apply_choice(state, choice)
        decisions += 1
    return {"game": name, "seats": seats, "deal": deal, "log": log, "cpu": round(cpu, 2)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--quick", action="store_true", help="three short games (a smoke check)")
    ap.add_argument("--compare", help="a file written before: say whether they are the same")
    args = ap.parse_args(argv)
    if args.compare:
        with open(args.out) as f:
            a = json.load(f)
        with open(args.compare) as f:
            b = json.load(f)
        same = True
        for ga, gb in zip(a["games"], b["games"], strict=True):
            if ga["log"] != gb["log"]:
                same = False
                pairs = list(zip(ga["log"], gb["log"], strict=False))
                first = next((i for i, (x, y) in enumerate(pairs) if x != y), len(pairs))
                print(f"{ga['game']} deal {ga['deal']}: differs at answer {first}")
            print(f"{ga['game']} {ga['seats']} deal {ga['deal']}: cpu {gb['cpu']} -> {ga['cpu']}")
        print("same" if same else "DIFFERENT")
        return 0 if same else 1
    games = []
    for i, (name, seats, deal, cap) in enumerate(QUICK if args.quick else FULL, 1):
        res = play(name, seats, deal, cap)
        games.append(res)
        print(
            f"[{i}] {name} {seats} deal {deal}: {len(res['log'])} answers, {res['cpu']} s",
            file=sys.stderr,
        )
    with open(args.out, "w") as f:
        json.dump({"games": games}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
