"""How much of its budget does ``ismcts`` spend growing its tree, and do more iterations
change its choice? Measured on the positions of real games.

For each game (``--players``, deal seeds ``--seeds``) two ``ismcts:1000it`` bots play
each other, as in the ``ismcts:4000it`` against ``ismcts:1000it`` arena. At every
decision with more than one choice, four fresh bots search the same decision:
two at 1000 iterations and two at 4000, each with a seed of its own. Each search
gives its choice, its tree's size (nodes, one per iteration while the tree can
grow; fewer once every line in it has reached the kit's horizon) and depth.

If 4000 iterations made a different player, the two budgets would agree less
often with each other than two runs at the same budget do. ``summary`` prints,
per kind of decision (the chosen move's first word), how often each pair agrees
and the mean tree sizes.

    python scripts/search_saturation.py play --seeds 1-8 --out saturation.jsonl
    python scripts/search_saturation.py summary saturation.jsonl
    python scripts/search_saturation.py lookahead-cost --players 2,4

``lookahead-cost`` times what a look past the turn would cost a leaf: civ4's kit's own
rollout (greedy for every seat) from a seat's Draw (where civ4's tree ends a turn) to
the start of its next turn, from positions of greedy games.

``play`` appends one JSON line per decision and skips games already in ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor, as_completed
from functools import partial
from pathlib import Path
from typing import Any

from arena_lines import seed_range  # scripts/, beside this file

from civcards.bots import make_bot
from civcards.bots.base import Decision, bot_choice
from civcards.bots.ismcts import ISMCTSBot
from civcards.game_api import default_options, get_game

#: the four searches of each decision: (label, bot spec)
SEARCHES = (
    ("a", "ismcts:1000it"),
    ("b", "ismcts:1000it"),
    ("c", "ismcts:4000it"),
    ("d", "ismcts:4000it"),
)
#: the pairs compared: two runs at 1000, two at 4000, and 1000 against 4000 (twice)
PAIRS = (
    ("a", "b", "1000 = 1000"),
    ("c", "d", "4000 = 4000"),
    ("a", "c", "1000 = 4000"),
    ("b", "d", "1000 = 4000'"),
)


def _tree(node: Any, depth: int = 0) -> tuple[int, int]:
    """(nodes, depth) of a search tree below ``node``."""
    count, deepest = 1, depth
    for child in node.children.values():
        c, d = _tree(child, depth + 1)
        count += c
        deepest = max(deepest, d)
    return count, deepest


def play(game_name: str, players: int, seed: int, every: int = 1) -> list[dict[str, Any]]:
    """Every ``every``-th searched decision of one game, with its four searches (the
    game itself is played by its two bots whether a decision is studied or not)."""
    game = get_game(game_name)
    opts = game.check_options(players, default_options(game))
    state = game.new_state(players, opts, seed)
    seats = [make_bot(game, "ismcts:1000it", seed=1_000 * seed + s) for s in range(players)]
    rows: list[dict[str, Any]] = []
    index = 0
    while state.to_move is not None:
        seat = state.to_move
        choices = game.choices(state)
        if len(choices) > 1 and index % every:
            index += 1
        elif len(choices) > 1:
            row: dict[str, Any] = {
                "game": game_name,
                "players": players,
                "seed": seed,
                "i": index,
                "every": every,
            }
            for k, (label, spec) in enumerate(SEARCHES):
                bot = make_bot(game, spec, seed=100_000 * seed + 10 * index + k)
                assert isinstance(bot, ISMCTSBot)
                decision = Decision(
                    seat, choices, observe=partial(game.observe, state, seat), game=game
                )
                t0 = time.process_time()
                picked = bot.choose(decision)
                cpu = time.process_time() - t0
                if not bot.last_iterations or bot.last_root is None:
                    row = {}
                    break  # not searched (the kit's fallback): not a search's decision
                nodes, depth = _tree(bot.last_root)
                best: dict[str, float] = {}
                for o in bot.option_values():
                    best[o.choice] = max(o.value, best.get(o.choice, 0.0))
                row[label] = {
                    "move": picked.text,
                    "nodes": nodes,
                    "depth": depth,
                    "cpu": round(cpu, 4),
                    # each choice's value to the seat (its best branch), as this search sees it
                    "values": {k: round(v, 4) for k, v in best.items()},
                }
            if row:
                row["kind"] = row["a"]["move"].split(" ", 1)[0]
                rows.append(row)
            index += 1
        game.apply_choice(state, bot_choice(seats[seat], game, state))
    return rows


def cmd_play(a: argparse.Namespace) -> int:
    out = Path(a.out)
    done: set[tuple[int, int]] = set()
    if out.exists():
        for line in out.read_text().splitlines():
            r = json.loads(line)
            done.add((r["players"], r["seed"]))
    todo = [s for s in a.seeds if (a.players, s) not in done]
    with ProcessPoolExecutor(max_workers=a.jobs) as pool, out.open("a") as f:
        futures = {pool.submit(play, a.game, a.players, s, a.every): s for s in todo}
        for n, fut in enumerate(as_completed(futures), 1):
            rows = fut.result()
            for r in rows:
                f.write(json.dumps(r) + "\n")
            f.flush()
            print(f"[{n}/{len(todo)}] seed {futures[fut]}: {len(rows)} decisions", file=sys.stderr)
    return 0


def cmd_summary(a: argparse.Namespace) -> int:
    rows = [json.loads(line) for p in a.files for line in Path(p).read_text().splitlines()]
    if not rows:
        print("no decisions in the files given", file=sys.stderr)
        return 1
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[r["kind"]].append(r)
    games = len({(r["players"], r["seed"]) for r in rows})
    print(f"{len(rows)} searched decisions of {games} games\n")
    head = " | ".join(label for _, _, label in PAIRS)
    print(
        f"| decision | n | {head} | nodes at 1000 | nodes at 4000 | CPU-s at 1000 | CPU-s at 4000 |"
    )
    print("|---|---:|" + "---:|" * (len(PAIRS) + 4))

    def line(name: str, rs: list[dict[str, Any]]) -> str:
        n = len(rs)
        agree = " | ".join(
            f"{100 * sum(r[x]['move'] == r[y]['move'] for r in rs) / n:.0f} %" for x, y, _ in PAIRS
        )

        def mean(label: str, key: str) -> float:
            twin = {"a": "b", "c": "d"}[label]
            return float(sum(r[label][key] + r[twin][key] for r in rs)) / (2 * n)

        return (
            f"| {name} | {n} | {agree} | {mean('a', 'nodes'):.0f} | {mean('c', 'nodes'):.0f} "
            f"| {mean('a', 'cpu'):.2f} | {mean('c', 'cpu'):.2f} |"
        )

    for kind in sorted(groups, key=lambda k: -len(groups[k])):
        print(line(kind, groups[kind]))
    print(line("**all**", rows))
    regrets = [
        max(r[big]["values"].values()) - r[big]["values"][r[small]["move"]]
        for r in rows
        for small, big in (("a", "c"), ("b", "d"))
        if "values" in r[big] and r[small]["move"] in r[big]["values"]
    ]
    if regrets:
        lost = sorted(regrets)
        print(
            f"\nWhat a 1000-iteration choice is worth less than the best choice of a 4000-iteration"
            f" search of the same decision (in the seat's chance of winning), over {len(lost)}"
            f" pairs: mean {100 * sum(lost) / len(lost):.2f} points; median"
            f" {100 * lost[len(lost) // 2]:.2f}; 90th percentile {100 * lost[9 * len(lost) // 10]:.2f};"
            f" worth as much (the same choice, or one the bigger search values equally)"
            f" in {100 * sum(x == 0 for x in lost) / len(lost):.0f} %"
        )
    full = sum(r["a"]["nodes"] > 900 for r in rows) + sum(r["b"]["nodes"] > 900 for r in rows)
    print(
        f"\n1000-iteration trees still growing at the end (over 900 nodes): {100 * full / (2 * len(rows)):.1f} %"
    )
    return 0


def lookahead_cost(players: int, seeds: range) -> tuple[list[float], list[int]]:
    """Seconds and moves of the civ4 kit's own rollout (greedy for every seat) from seat
    0's Draw to the start of its next turn, at every other round from round 4 of greedy
    games: what looking past the turn would cost each leaf (civ4 only)."""
    from civcards.civ4.game import GameState
    from civcards.games.civ4.search import Civ4SearchKit

    game = get_game("civ4")
    kit = Civ4SearchKit(game)
    kit.seat = 0
    times: list[float] = []
    moves: list[int] = []
    for seed in seeds:
        state = game.new_state(players, game.check_options(players, default_options(game)), seed)
        assert isinstance(state, GameState)
        bots = [make_bot(game, "greedy", seed=s) for s in range(players)]
        while state.to_move is not None:
            at_draw = state.active == 0 and state.step == "discard"
            if at_draw and state.round > 2 and state.round % 2 == 0:
                c = state.copy()
                t0 = time.perf_counter()
                kit._rollout(c)
                times.append(time.perf_counter() - t0)
                moves.append(len(c.moves) - len(state.moves))
            game.apply_choice(state, bot_choice(bots[state.to_move], game, state))
    return times, moves


def cmd_cost(a: argparse.Namespace) -> int:
    for players in (int(p) for p in a.players.split(",")):
        times, moves = lookahead_cost(players, range(a.first_seed, a.first_seed + a.games))
        times.sort()
        moves.sort()
        print(
            f"{players} players: the kit's rollout from the Draw to the next turn: median"
            f" {1000 * times[len(times) // 2]:.1f} ms, {moves[len(moves) // 2]} moves"
            f" ({len(times)} positions of {a.games} greedy games)"
        )
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("play", help="search the decisions of games; append JSON lines")
    p.add_argument("--game", default="civ4")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--seeds", default="1-8", type=seed_range, help="e.g. 1-8 or 1,3,5")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--every", type=int, default=1, help="study every K-th decision")
    p.add_argument("--out", required=True)
    s = sub.add_parser("summary", help="agreement and tree sizes per kind of decision")
    s.add_argument("files", nargs="+")
    c = sub.add_parser("lookahead-cost", help="time greedy play from a Draw to the next turn")
    c.add_argument("--players", default="2,4")
    c.add_argument("--games", type=int, default=3)
    c.add_argument("--first-seed", type=int, default=78)
    a = ap.parse_args()
    if a.cmd == "lookahead-cost":
        return cmd_cost(a)
    return cmd_play(a) if a.cmd == "play" else cmd_summary(a)


if __name__ == "__main__":
    raise SystemExit(main())
