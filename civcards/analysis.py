"""Post-game analysis: every decision of a game record judged by the search bot, from the
information set of the seat that made it (``civcards analyse``, the web table's review).

For each move of a record, the position before it is rebuilt from the record, and the
search bot (``ismcts``, :mod:`civcards.bots.ismcts`) is asked for the move *as the seat
to move saw it*: it reads only that seat's observation and deals the hidden cards
afresh from it (the game's determinizer), never the hidden cards of the record. The
search values every option (:meth:`~civcards.bots.ismcts.ISMCTSBot.option_values`):

* ``best`` is the bot's preferred move (its choice) and ``before`` its value: the seat's
  estimated chance of winning before the move, played well;
* ``after`` is the value of the move played: the seat's chance after it. A move the
  first search visited too rarely to value is searched again on its own;
* ``drop`` = ``before - after`` (at least 0) gives the ``label`` (:data:`THRESHOLDS`,
  docs/analysis.md).

A decision with a single choice is ``forced`` (labelled ``best``, not searched, not in
the accuracy). The moves after a hidden step (a card chosen once the seat saw it) are
judged at the step: the seat's decision is the step, the rest follows what it saw.

Each decision gets its own seed (from the analysis seed and the move's index), so an
analysis is the same for a given seed and budget, whatever ``jobs`` and the order the
decisions are worked in. Nothing here knows a game: the record's ``format`` finds it.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .bots import TABLE_SEARCHES, Decision, make_bot
from .game_api import (
    Choice,
    Game,
    GameError,
    MoveError,
    RecordError,
    choice_path,
    game_for_record,
)

#: the bot of a default analysis
DEFAULT_BOT = "ismcts:2000it"
#: the key of an annotated record that holds its analysis (``civcards replay`` ignores it)
ANNOTATIONS = "annotations"
#: the labels, best first
LABELS = ("best", "good", "inaccuracy", "mistake", "blunder")
#: the least drop in the chance of winning (0..1) of each label after ``best``: a move whose
#: chance is within 1 point of the preferred move's is as good as it (the search's noise at
#: a few thousand iterations is about that); lichess-like bands beyond (docs/analysis.md)
THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("blunder", 0.20),
    ("mistake", 0.10),
    ("inaccuracy", 0.05),
    ("good", 0.01),
)
#: options whose values are this close to the preferred move's are as good as it; of
#: those, one that wins at once (in :data:`AT_ONCE_DEALS` deals of the seat's information
#: set) is preferred: a win now rather than a win later
TIE = 0.005
AT_ONCE_DEALS = 4
#: a played move searched fewer times than :data:`MIN_VISITS` (or 2 % of the budget) is
#: searched again on its own, with this share of the budget
RESEARCH_SHARE = 0.25
MIN_VISITS = 30
#: the time a review of one game may take at the web table (issue 38: 60 s a game on one
#: core), less a margin for what is not search (replays, deals, the moves forced)
GAME_SECONDS = 50.0
#: the least time budget a decision of a review fitted to :data:`GAME_SECONDS` gets
MIN_DECISION_SECONDS = 0.01


class AnalysisError(ValueError):
    """A record that cannot be analysed, or a bad setting: one sentence."""


def label_of(drop: float) -> str:
    """The label of a move whose chance is ``drop`` below the preferred move's.

    >>> [label_of(d) for d in (0.0, 0.02, 0.07, 0.15, 0.5)]
    ['best', 'good', 'inaccuracy', 'mistake', 'blunder']
    """
    for name, least in THRESHOLDS:
        if drop >= least:
            return name
    return "best"


def move_accuracy(drop: float) -> float:
    """Lichess's accuracy of one move (0..100) from the drop in win chance (0..1).

    >>> round(move_accuracy(0.0), 1), round(move_accuracy(0.3), 1)
    (100.0, 24.8)
    """
    acc = 103.1668 * math.exp(-0.04354 * 100.0 * max(0.0, drop)) - 3.1669
    return max(0.0, min(100.0, acc))


@dataclass
class MoveAnalysis:
    """The analysis of one move of a record (one decision of one seat)."""

    index: int
    seat: int
    move: str
    #: the decision had one choice: not searched
    forced: bool
    #: the bot's preferred move (a hidden step's text where it prefers the step)
    best: str | None
    #: the seat's chance of winning with the preferred move (before the move)
    before: float | None
    #: the seat's chance of winning after the move played
    after: float | None
    drop: float
    label: str
    #: how many choices the seat had
    choices: int

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        for k in ("before", "after", "drop"):
            if d[k] is not None:
                d[k] = round(float(d[k]), 4)
        return d


# --------------------------------------------------------------------------- records


def parse_record(text: str | bytes | Mapping[str, Any]) -> tuple[Game, dict[str, Any]]:
    """The game and the record (its annotations left out) of ``text``; AnalysisError if it
    is not a finished record of a registered game that replays to its end."""
    if isinstance(text, Mapping):
        obj: Any = dict(text)
    else:
        try:
            obj = json.loads(text)
        except (ValueError, UnicodeDecodeError):
            raise AnalysisError("the record is not JSON") from None
    if not isinstance(obj, dict):
        raise AnalysisError("a record is a JSON object")
    obj = without_annotations(obj)
    try:
        game = game_for_record(obj)
    except GameError as e:
        raise AnalysisError(str(e)) from None
    if not isinstance(obj.get("moves"), list) or not all(isinstance(m, str) for m in obj["moves"]):
        raise AnalysisError("the record's 'moves' must be a list of moves in notation")
    try:
        state = game.from_record(obj)
    except (RecordError, MoveError) as e:
        raise AnalysisError(f"the record cannot be replayed: {e}") from None
    except Exception:
        raise AnalysisError("the record cannot be replayed: it is not a valid record") from None
    if not state.finished:
        raise AnalysisError("the game of this record is not over: only a finished game is analysed")
    return game, obj


def without_annotations(record: Mapping[str, Any]) -> dict[str, Any]:
    """The record without the analysis an annotated record carries."""
    return {k: v for k, v in record.items() if k != ANNOTATIONS}


def positions(game: Game, record: Mapping[str, Any]) -> Iterator[tuple[int, Any, str]]:
    """(index, the state before the move, the move) for each move of ``record``; the state
    is the live replay's (copy it to keep it)."""
    moves = list(record.get("moves") or [])
    state = game.from_record({**without_annotations(record), "moves": []})
    for i, move in enumerate(moves):
        yield i, state, move
        game.play(state, move)


def state_at(game: Game, record: Mapping[str, Any], index: int) -> Any:
    """The state before move ``index`` of ``record`` (after all of its moves for ``len``)."""
    moves = list(record.get("moves") or [])
    state = game.from_record({**without_annotations(record), "moves": []})
    for move in moves[:index]:
        game.play(state, move)
    return state


# --------------------------------------------------------------------------- one decision


def decision_seed(seed: int, index: int) -> int:
    """The seed of the search of move ``index`` (the same whatever order moves are analysed)."""
    h = hashlib.sha256(f"civcards-analysis/{seed}/{index}".encode()).digest()
    return int.from_bytes(h[:8], "big") >> 1


def _wins_at_once(game: Game, state: Any, seat: int, move: str, seed: int) -> bool:
    """Whether ``move`` ends the game won by ``seat`` alone in every one of a few deals of
    the seat's information set (dealt from its observation, never from ``state``'s hidden
    cards)."""
    sampler = game.determinizer(game.observe(state, seat))
    if sampler is None:
        return False
    rng = random.Random(seed)
    for _ in range(AT_ONCE_DEALS):
        deal = sampler.sample(rng)
        try:
            game.play(deal, move)
        except GameError:
            return False
        res = game.result(deal) if deal.finished else None
        if res is None or tuple(res.winners) != (seat,):
            return False
    return True


def _values(bot: Any) -> list[Any]:
    hook = getattr(bot, "option_values", None)
    if hook is None:
        raise AnalysisError(
            f"the bot {getattr(bot, 'name', bot)!r} does not value its options: "
            "analyse with the search bot (ismcts)"
        )
    return list(hook())


def analyse_decision(
    game: Game, state: Any, move: str, spec: str = DEFAULT_BOT, seed: int = 0, index: int = 0
) -> MoveAnalysis:
    """The analysis of ``move`` played in ``state``, from the information set of the seat to
    move (its observation and choices; never the state's hidden cards)."""
    seat = state.to_move
    if seat is None:
        raise AnalysisError(f"move {index + 1}: the game is over before it")
    choices = game.choices(state)
    if len(choices) == 1 and choices[0].final:
        return MoveAnalysis(index, seat, move, True, choices[0].text, None, None, 0.0, "best", 1)
    bot = make_bot(game, spec, decision_seed(seed, index))

    def decision(options: list[Choice]) -> Decision:
        return Decision(seat, options, observe=lambda: game.observe(state, seat), game=game)

    try:
        # the seat's decision is the first choice of the move's path (the game knows it)
        own = choice_path(game, state, move)[0]
    except GameError as e:
        raise AnalysisError(
            f"move {index + 1} ({move!r}) is not among the seat's choices: {e}"
        ) from None
    pick = bot.choose(decision(choices))
    opts = _values(bot)
    if not opts:  # the game offers no search here (the kit's fallback chose)
        return MoveAnalysis(
            index, seat, move, False, pick.text, None, None, 0.0, "best", len(choices)
        )
    # the preferred move: the bot's choice, the most visited option below it; of moves as
    # good, one that wins at once in every deal of the seat's information set
    mine = [o for o in opts if o.choice == pick.text]
    top = max(mine or opts, key=lambda o: (o.visits, o.value))
    tied = [o for o in opts if o.value >= top.value - TIE and o.move != top.move]
    if tied and not _wins_at_once(game, state, seat, top.move, seed):
        for o in sorted(tied, key=lambda o: (-o.value, -o.visits)):
            if _wins_at_once(game, state, seat, o.move, seed):
                top = o
                break
    best = top.move
    before = top.value

    def played(values: list[Any]) -> Any | None:
        exact = [o for o in values if o.move == move]
        if exact:
            return max(exact, key=lambda o: o.visits)
        under = [o for o in values if o.choice == own.text]
        return max(under, key=lambda o: (o.visits, o.value)) if under else None

    mine_opt = played(opts)
    if best == move or (mine_opt is not None and mine_opt.move == best):
        return MoveAnalysis(
            index, seat, move, False, best, before, before, 0.0, "best", len(choices)
        )
    budget = getattr(bot, "iterations", None) or 0
    floor = max(MIN_VISITS, budget // 50)
    if mine_opt is None or mine_opt.visits < floor:
        # valued from too few visits: the move played and the preferred move, each searched
        # on its own with the same budget and seed, are compared instead (like with like)
        def alone(option: Choice) -> list[Any]:
            again: Any = make_bot(game, spec, decision_seed(seed, index) ^ 0x5EED)
            if hasattr(again, "search_single"):
                again.search_single = True
            its = getattr(again, "iterations", None)
            if its:
                again.iterations = max(MIN_VISITS * 4, int(its * RESEARCH_SHARE))
            secs = getattr(again, "seconds", None)
            if secs:
                again.seconds = secs * RESEARCH_SHARE
            again.choose(decision([option]))
            return _values(again)

        found = played(alone(own))
        if found is not None:
            mine_opt = found
            preferred = next((c for c in choices if c.text == top.choice), None)
            if preferred is not None:
                theirs = alone(preferred)
                same = [o for o in theirs if o.move == best] or theirs
                if same:
                    before = max(same, key=lambda o: o.visits).value
    if mine_opt is None:  # pragma: no cover - the search always values the move played
        return MoveAnalysis(index, seat, move, False, best, before, None, 0.0, "best", len(choices))
    after = mine_opt.value
    drop = max(0.0, before - after)
    return MoveAnalysis(
        index, seat, move, False, best, before, after, drop, label_of(drop), len(choices)
    )


def analyse_indices(
    record: Mapping[str, Any] | str, indices: Sequence[int], spec: str, seed: int
) -> list[dict[str, Any]]:
    """The analyses (JSON) of the moves ``indices`` of ``record`` (a worker's task)."""
    game, rec = parse_record(record if isinstance(record, str) else dict(record))
    wanted = set(indices)
    out: list[dict[str, Any]] = []
    last = max(wanted) if wanted else -1
    for i, state, move in positions(game, rec):
        if i > last:
            break
        if i in wanted:
            out.append(analyse_decision(game, state.copy(), move, spec, seed, i).to_json())
    return out


def suggest(
    record: Mapping[str, Any] | str, seat: int, spec: str, seed: int, pending: str | None = None
) -> str:
    """The move the bot ``spec`` suggests to ``seat``, the seat to move after the moves of
    ``record`` (a game in progress: its set-up and moves), from that seat's information set
    only; ``pending``: the hidden step the seat committed to (its cards are shown to it).
    A hint at the table (a worker's task)."""
    obj = json.loads(record) if isinstance(record, str) else dict(record)
    game = game_for_record(obj)
    state = game.from_record(without_annotations(obj))
    if state.to_move != seat:
        raise AnalysisError("it is not this seat's turn")
    bot = make_bot(game, spec, seed)
    decision = Decision(seat, game.choices(state), observe=lambda: game.observe(state, seat))
    if pending is not None:
        step = Choice(pending, final=False, hidden=True)
        exp = game.expand(state, step)
        decision = decision.below(step, exp.choices, exp.reveal)
    pick = bot.choose(decision)
    while not pick.final:
        if pick.hidden:
            # its cards are not the seat's to see before it commits: the step is the hint
            return pick.text
        exp = game.expand(state, pick)
        decision = decision.below(pick, exp.choices, exp.reveal)
        pick = bot.choose(decision)
    return pick.text


# --------------------------------------------------------------------------- whole records


def fitted_bot(spec: str, decisions: int, seconds: float) -> str:
    """The bot ``spec`` with its time budget a decision lowered so that ``decisions``
    decisions fit in ``seconds`` (each may search again, up to twice
    :data:`RESEARCH_SHARE` more), never below :data:`MIN_DECISION_SECONDS`; a budget that
    fits, or one of iterations, is kept.

    >>> fitted_bot("ismcts:250ms", 100, 50.0), fitted_bot("ismcts:250ms", 400, 50.0)
    ('ismcts:250ms', 'ismcts:83ms')
    >>> fitted_bot("ismcts:250ms:greedy", 4000, 1.0), fitted_bot("ismcts:2000it", 400, 5.0)
    ('ismcts:10ms:greedy', 'ismcts:2000it')
    >>> fitted_bot("ismcts+net:250ms", 400, 50.0)
    'ismcts+net:83ms'
    """
    name, _, arg = spec.partition(":")
    budget, _, rest = arg.partition(":")
    if name not in TABLE_SEARCHES or decisions <= 0:
        return spec
    from .bots.ismcts import parse_budget

    _its, secs = parse_budget(budget or None)
    if secs is None:
        return spec
    per = max(MIN_DECISION_SECONDS, seconds / (decisions * (1 + 2 * RESEARCH_SHARE)))
    if per >= secs:
        return spec
    return f"{name}:{max(1, int(per * 1000))}ms" + (f":{rest}" if rest else "")


def check_bot(game: Game, spec: str) -> None:
    """AnalysisError with a sentence unless ``spec`` names a bot that values its options."""
    try:
        bot = make_bot(game, spec, 0)
    except ValueError as e:
        raise AnalysisError(str(e)) from None
    if not hasattr(bot, "option_values"):
        raise AnalysisError(
            f"the bot {spec!r} does not value its options: analyse with the search bot (ismcts)"
        )


def chunks(n: int, size: int) -> list[list[int]]:
    """The move indices 0..n-1 in tasks of ``size``."""
    return [list(range(i, min(n, i + size))) for i in range(0, n, size)]


def analyse_record(
    record: Mapping[str, Any] | str,
    spec: str = DEFAULT_BOT,
    seed: int = 0,
    *,
    jobs: int = 1,
    chunk: int = 4,
    on_progress: Callable[[int, int], None] | None = None,
    executor: Executor | None = None,
) -> dict[str, Any]:
    """The analysis of a whole record: ``{"game", "bot", "seed", "players", "names",
    "moves": [...], "summary": [...]}``. ``jobs`` worker processes (1: this process);
    ``on_progress(done, total)`` after each task."""
    game, rec = parse_record(record if isinstance(record, str) else dict(record))
    check_bot(game, spec)
    if jobs < 1:
        raise AnalysisError(f"--jobs must be at least 1, not {jobs}")
    n = len(rec["moves"])
    tasks = chunks(n, max(1, chunk))
    results: list[dict[str, Any]] = []
    if on_progress is not None:
        on_progress(0, n)
    text = json.dumps(rec)
    done = 0
    if jobs == 1 and executor is None:
        for t in tasks:
            results += analyse_indices(rec, t, spec, seed)
            done += len(t)
            if on_progress is not None:
                on_progress(done, n)
    else:
        pool = executor or ProcessPoolExecutor(max_workers=jobs)
        try:
            futures = [pool.submit(analyse_indices, text, t, spec, seed) for t in tasks]
            for fut, t in zip(futures, tasks, strict=True):
                results += fut.result()
                done += len(t)
                if on_progress is not None:
                    on_progress(done, n)
        finally:
            if executor is None:
                pool.shutdown(cancel_futures=True)
    return assemble(game, rec, spec, seed, results)


def assemble(
    game: Game, rec: Mapping[str, Any], spec: str, seed: int, moves: list[dict[str, Any]]
) -> dict[str, Any]:
    """The analysis object from the moves' analyses."""
    moves = sorted(moves, key=lambda m: int(m["index"]))
    state = game.from_record(without_annotations(rec))
    n = int(state.n)
    names = rec.get("names")
    if not (isinstance(names, list) and len(names) == n):
        names = [f"Seat {i + 1}" for i in range(n)]
    res = game.result(state)
    return {
        "game": game.name,
        "bot": spec,
        "seed": seed,
        "players": n,
        "names": [str(x) for x in names],
        "winners": list(res.winners) if res is not None else [],
        "thresholds": {name: least for name, least in THRESHOLDS},
        "moves": moves,
        "summary": summarize(moves, n),
    }


def summarize(moves: Sequence[Mapping[str, Any]], players: int) -> list[dict[str, Any]]:
    """Per seat: its decisions, the counts of each label and its accuracy (lichess's mean
    of the moves' accuracies, forced moves left out; None without a judged move)."""
    out = []
    for seat in range(players):
        mine = [m for m in moves if m["seat"] == seat]
        judged = [m for m in mine if not m["forced"] and m["after"] is not None]
        counts = {name: 0 for name in LABELS}
        for m in judged:
            counts[m["label"]] += 1
        acc = (
            round(sum(move_accuracy(float(m["drop"])) for m in judged) / len(judged), 1)
            if judged
            else None
        )
        out.append(
            {
                "seat": seat,
                "moves": len(mine),
                "judged": len(judged),
                "accuracy": acc,
                "counts": counts,
            }
        )
    return out


def annotate(record: Mapping[str, Any], analysis: Mapping[str, Any]) -> dict[str, Any]:
    """The record with ``analysis`` under :data:`ANNOTATIONS` (``civcards replay`` reads
    the record as if it were not there)."""
    return {**without_annotations(record), ANNOTATIONS: dict(analysis)}


def curves(analysis: Mapping[str, Any]) -> list[list[tuple[int, float]]]:
    """Each seat's chance of winning after its judged moves: [(move index, chance)]."""
    n = int(analysis["players"])
    out: list[list[tuple[int, float]]] = [[] for _ in range(n)]
    for m in analysis["moves"]:
        if m["after"] is not None:
            out[int(m["seat"])].append((int(m["index"]) + 1, float(m["after"])))
    return out


def plot_png(analysis: Mapping[str, Any], path: str | Path) -> None:
    """The win-chance curves as a PNG (matplotlib, extra ``sim``); marked moves shown."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise AnalysisError("the plot needs matplotlib: pip install 'civcards[sim]'") from None
    fig, ax = plt.subplots(figsize=(9, 4))
    names = analysis["names"]
    for seat, pts in enumerate(curves(analysis)):
        if not pts:
            continue
        xs, ys = zip(*pts, strict=True)
        (line,) = ax.plot(xs, [100 * y for y in ys], label=str(names[seat]), linewidth=1.5)
        bad = [
            (int(m["index"]) + 1, 100 * float(m["after"]))
            for m in analysis["moves"]
            if m["seat"] == seat and m["label"] in ("mistake", "blunder") and m["after"] is not None
        ]
        if bad:
            bx, by = zip(*bad, strict=True)
            ax.scatter(bx, by, color=line.get_color(), marker="v", s=40, zorder=3)
    ax.set_ylim(0, 100)
    ax.set_xlabel("move")
    ax.set_ylabel("chance of winning (%)")
    ax.set_title(f"{analysis['game']}: {analysis['bot']} (seed {analysis['seed']})")
    ax.axhline(100 / max(1, int(analysis["players"])), color="grey", linewidth=0.5)
    ax.legend(loc="best")
    fig.tight_layout()
    fig.savefig(str(path), dpi=100)
    plt.close(fig)


__all__ = [
    "ANNOTATIONS",
    "DEFAULT_BOT",
    "LABELS",
    "THRESHOLDS",
    "AnalysisError",
    "MoveAnalysis",
    "analyse_decision",
    "analyse_indices",
    "analyse_record",
    "annotate",
    "assemble",
    "check_bot",
    "curves",
    "fitted_bot",
    "label_of",
    "move_accuracy",
    "parse_record",
    "plot_png",
    "positions",
    "state_at",
    "suggest",
    "summarize",
    "without_annotations",
]
