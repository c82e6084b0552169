"""Record every move of fixed-seed games between search bots, to check that a speed change
of the search (civ4's engine and kit, the generic ``ismcts``) plays exactly as before.

    PYTHONPATH=/path/to/checkout python scripts/search_equiv.py OUT.json [--set quick]
    python scripts/search_equiv.py OUT.json --compare BEFORE.json

Each game is dealt from its seed with the platform's default options for its player count
(as ``civcards simulate`` deals it), the bot of seat ``s`` seeded ``seed + 1 + s`` (as
``simulate`` seeds it); every move is written as its notation with the seat that made it,
and the CPU time the bots took. Identical move lists mean identical play (a bot's choice
depends on its random draws, so the same moves also mean the same draws, as far as they
matter). A game's first ``skip`` moves are played by ``greedy`` bots (seeded as above),
so that the search bots are checked in the middle and the end of a game (where civ4's
search plays greedy rollouts) without paying for the whole game; ``cap`` stops a game
after that many moves in all (0: play it to its end).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import civcards
from civcards.bots import make_bot
from civcards.bots.base import bot_choice
from civcards.game_api import default_options, get_game

#: set name -> [(game, seats, seed, moves played by greedy first, moves cap (0: none))]
SETS: dict[str, list[tuple[str, list[str], int, int, int]]] = {
    # issue 40's games: civ4 2-player ismcts:200it mirrors (an opening, and two from the
    # middle game to the end), a 3-player game, greedy mirrors
    "civ4": [
        ("civ4", ["ismcts:200it", "ismcts:200it"], 40000, 0, 100),
        ("civ4", ["ismcts:200it", "ismcts:200it"], 40010, 150, 0),
        ("civ4", ["ismcts:200it", "ismcts:200it"], 40020, 170, 0),
        ("civ4", ["ismcts:100it", "greedy", "greedy"], 43000, 200, 0),
        ("civ4", ["greedy", "greedy"], 42000, 0, 0),
        ("civ4", ["greedy", "greedy", "greedy"], 43010, 0, 0),
    ],
    # 3- and 4-player ismcts mirrors from the middle game to the end (issue 40)
    "civ4-multi": [
        ("civ4", ["ismcts:100it"] * 3, 43000, 120, 0),
        ("civ4", ["ismcts:100it"] * 4, 44000, 200, 0),
        ("civ4", ["ismcts:200it"] * 3, 43020, 0, 60),
    ],
    # whole games (slow: minutes each)
    "civ4-full": [
        ("civ4", ["ismcts:200it", "ismcts:200it"], 40000, 0, 0),
        ("civ4", ["ismcts:100it", "greedy", "greedy"], 43000, 0, 0),
    ],
    # the generic search on CIV (carta)
    "carta": [
        ("carta", ["ismcts:300it", "greedy"], 11, 0, 0),
        ("carta", ["greedy", "ismcts:300it"], 12, 0, 0),
    ],
    "quick": [
        ("civ4", ["ismcts:50it", "ismcts:50it"], 40000, 0, 30),
        ("civ4", ["ismcts:50it", "ismcts:50it"], 40010, 170, 0),
        ("civ4", ["greedy", "greedy"], 42000, 0, 0),
    ],
}


def play(name: str, seats: list[str], seed: int, skip: int, cap: int) -> dict[str, Any]:
    game = get_game(name)
    players = len(seats)
    opts = game.check_options(players, default_options(game, players))
    state = game.new_state(players, opts, seed)
    bots = [make_bot(game, spec, seed=seed + 1 + s) for s, spec in enumerate(seats)]
    opening = [make_bot(game, "greedy", seed=seed + 1 + s) for s in range(players)]
    moves: list[list[Any]] = []
    cpu = 0.0
    while state.to_move is not None and (not cap or len(moves) < cap):
        seat = state.to_move
        t0 = time.process_time()
        choice = bot_choice((opening if len(moves) < skip else bots)[seat], game, state)
        cpu += time.process_time() - t0
        game.apply_choice(state, choice)
        moves.append([seat, choice.text])
    return {
        "game": name,
        "seats": seats,
        "seed": seed,
        "skip": skip,
        "moves": moves,
        "cpu": round(cpu, 2),
    }


def compare(new_path: str, old_path: str) -> int:
    with open(new_path) as f:
        a = json.load(f)
    with open(old_path) as f:
        b = json.load(f)
    same = True
    for ga, gb in zip(a["games"], b["games"], strict=True):
        label = f"{ga['game']} {ga['seats']} seed {ga['seed']}"
        if ga["moves"] != gb["moves"]:
            same = False
            pairs = list(zip(ga["moves"], gb["moves"], strict=False))
            first = next((i for i, (x, y) in enumerate(pairs) if x != y), len(pairs))
            print(f"{label}: DIFFERS at move {first}")
        ratio = ga["cpu"] / gb["cpu"] if gb["cpu"] else float("nan")
        print(f"{label}: {len(ga['moves'])} moves, cpu {gb['cpu']} -> {ga['cpu']} s (x{ratio:.2f})")
    print("same" if same else "DIFFERENT")
    return 0 if same else 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--set", default="civ4", choices=sorted(SETS), help="which games")
    ap.add_argument("--only", type=int, help="play only the set's game of this index")
    ap.add_argument("--compare", help="a file written before: say whether they are the same")
    args = ap.parse_args(argv)
    if args.compare:
        return compare(args.out, args.compare)
    print(f"civcards from {civcards.__file__}", file=sys.stderr)
    games = []
    chosen = SETS[args.set]
    if args.only is not None:
        chosen = [chosen[args.only]]
    for i, (name, seats, seed, skip, cap) in enumerate(chosen, 1):
        res = play(name, seats, seed, skip, cap)
        games.append(res)
        print(
            f"[{i}] {name} {seats} seed {seed}: {len(res['moves'])} moves, {res['cpu']} s",
            file=sys.stderr,
        )
    with open(args.out, "w") as f:
        json.dump({"games": games}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
