"""The balance page's opening table (issue 40): the headline questions for the default
set-up, under greedy play and under search play, side by side.

The default set-up is what a new game plays when it names no option: the default card
set (``DEFAULT_CARD_SET``) with every option at its platform default for the player count
(``finish_round`` on at 2 players, :data:`~civcards.games.civ4.game.PLAYER_DEFAULTS`).
:func:`current_table` takes every row it is given, keeps the *mirrors of the default
set-up* (every seat the same bot), and answers Q1 (seats), Q2 (length), Q3 (VP mix), Q5
(war), Q7 (comebacks) and Q8 (buildings) for the ``greedy`` mirrors and for the
``ismcts`` mirrors of one budget, a player count at a time, with the question functions
of :mod:`.questions`. Those read greedy mirrors under the rules as written, so each row is
handed to them as one (:func:`as_rules_mirror`: its bots named ``greedy``, its options the
written defaults); nothing is played again.

Q8's verdict is the design notes' lines and issue 40's own target together: each of the
eight culture and happiness buildings (:data:`CULTURE_HAPPINESS`) built in at least 5 %
of the copies drawn.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ....civ4.cards import CARDS
from ....civ4.options import DEFAULT_CARD_SET
from ..game import PLAYER_DEFAULTS
from .questions import (
    q1_first_seat,
    q2_game_length,
    q3_points_by_source,
    q5_war,
    q7_early_leader,
    q8_card_use,
)
from .rows import DEFAULTS, Answer, Row, row_bots, row_card_set, row_options, row_players

#: issue 40's idle buildings: each built in at least this share of the copies drawn (Q8)
CULTURE_HAPPINESS = ("TMP", "MNM", "CLS", "THT", "LIB", "MSY", "AQD", "CRT")
CULTURE_HAPPINESS_MIN = 0.05
#: under this many games a player count, the search column's verdicts are called provisional
PROVISIONAL = 200

#: the table's questions: key, the question in a few words, the target in a few words
HEADLINE: tuple[tuple[str, str, str], ...] = (
    ("Q1", "seats", "every seat within ±4 points of fair (2p 46–54 %)"),
    (
        "Q2",
        "length",
        "median 13–16 / 12–15 / 11–14 rounds (2p / 3p / 4p); p95 ≤ 1.5 × median; the cap never",
    ),
    (
        "Q3",
        "VP mix",
        "winners' VP: population 45–60 %, technologies 30–45 %, wonders 5–15 %; winning score 15–25 VP",
    ),
    (
        "Q5",
        "war",
        "1–3 attacks a player a game; stolen ≤ 20 % of population gained; 30–60 % of units blocked or bounced",
    ),
    ("Q7", "comebacks", "the leader at ⅔ of the game wins ≤ 70 %"),
    (
        "Q8",
        "buildings",
        "each building ≥ 25 % of copies built, wonder ≥ 40 % built when drawn, unit ≥ 30 % in combat, "
        "tech ≤ 2 rounds in the market, plot ≥ half its share; issue 40: each culture and "
        "happiness building ≥ 5 %",
    ),
)


def default_options(players: int) -> dict[str, Any]:
    """The options of a new game of ``players`` players that names none (not the card set)."""
    out = dict(DEFAULTS)
    for name, by_count in PLAYER_DEFAULTS.items():
        for n, value in by_count:
            if n == players:
                out[name] = value
    return out


def is_default_setup(r: Row) -> bool:
    """A game of the default set-up: the default card set, every option at its default."""
    return row_card_set(r) == DEFAULT_CARD_SET and row_options(r) == default_options(row_players(r))


def mirror_bot(r: Row) -> str | None:
    """The bot of a mirror (every seat the same bot), else None."""
    bots = set(row_bots(r))
    return bots.pop() if len(bots) == 1 else None


def as_rules_mirror(r: Row) -> dict[str, Any]:
    """The row as a greedy mirror under the rules as written, for the question functions
    (which select those): every seat named ``greedy``, every option its written default."""
    out = dict(r)
    for s in range(row_players(r)):
        out[f"bot_{s}"] = "greedy"
    out.update(DEFAULTS)
    return out


def _headline(rows: Sequence[Row]) -> dict[str, Answer]:
    return {
        "Q1": q1_first_seat(rows),
        "Q2": q2_game_length(rows),
        "Q3": q3_points_by_source(rows),
        "Q5": q5_war(rows),
        "Q7": q7_early_leader(rows),
        "Q8": q8_card_use(rows, None),
    }


def _pct(x: float | None) -> str:
    return "—" if x is None or math.isnan(x) else f"{100 * x:.1f} %"


def _num(x: float | None, digits: int = 2) -> str:
    return "—" if x is None or math.isnan(x) else f"{x:.{digits}f}"


def _line(a: Answer, suffix: str) -> dict[str, Any]:
    for ln in a.lines:
        if str(ln["label"]).endswith(suffix) or suffix in str(ln["label"]):
            return ln
    return {"value": None, "ci95": None, "met": None}


def _val(ln: dict[str, Any]) -> float | None:
    v = ln.get("value")
    return None if v is None else float(v)


def _ci(ln: dict[str, Any]) -> str:
    ci = ln.get("ci95")
    return "" if not ci else f" (95 %: {100 * ci[0]:.1f}–{100 * ci[1]:.1f} %)"


def _eight(a: Answer) -> list[tuple[str, float | None]]:
    out = []
    for c in CULTURE_HAPPINESS:
        ln = _line(a, f"({c})")
        out.append((CARDS.names.get(c, c), _val(ln)))
    return out


def _cell(key: str, a: Answer, p: int) -> str:
    """One player count's figures of one question, in a few words."""
    if key == "Q1":
        seats = [_val(ln) for ln in a.lines]
        first = a.lines[0] if a.lines else {}
        return " / ".join(_pct(v) for v in seats) + (
            f", first seat{_ci(first)}" if first.get("ci95") else ""
        )
    if key == "Q2":
        med = _val(_line(a, "median rounds"))
        p95 = _val(_line(a, "95th percentile"))
        cap = _val(_line(a, "games at the cap"))
        return f"median {_num(med, 0)}, p95 {_num(p95, 0)}, at the cap {_pct(cap)}"
    if key == "Q3":
        parts = [
            _pct(_val(_line(a, f"{p}p {n}"))) for n in ("population", "technologies", "wonders")
        ]
        score = _val(_line(a, "winning score"))
        return " / ".join(parts) + f", {_num(score, 1)} VP"
    if key == "Q5":
        att = _val(_line(a, "attacks per player"))
        st = _val(_line(a, "stolen / population gained"))
        bb = _val(_line(a, "units blocked or bounced"))
        return f"{_num(att)} attacks, stolen {_pct(st)}, blocked {_pct(bb)}"
    if key == "Q7":
        ln = a.lines[0] if a.lines else {}
        return _pct(_val(ln)) + _ci(ln)
    # Q8
    known = [ln for ln in a.lines if ln["met"] is not None]
    met = sum(1 for ln in known if ln["met"])
    eight = _eight(a)
    vals = [v for _, v in eight if v is not None]
    reach = sum(1 for v in vals if v >= CULTURE_HAPPINESS_MIN)
    span = f"{100 * min(vals):.1f}–{100 * max(vals):.1f} %" if vals else "—"
    return (
        f"{met} of {len(known)} lines met; culture and happiness buildings {span} "
        f"({reach} of {len(CULTURE_HAPPINESS)} ≥ 5 %)"
    )


def _met(key: str, a: Answer) -> bool | None:
    m = a.met
    if key != "Q8" or m is None:
        return m
    vals = [v for _, v in _eight(a)]
    return m and all(v is not None and v >= CULTURE_HAPPINESS_MIN for v in vals)


def measure(rows: Sequence[Row]) -> dict[int, dict[str, dict[str, Any]]]:
    """For the mirrors of one bot: by player count, each headline question's cell (the
    figures in words), verdict (met: True/False/None), games and table lines."""
    by_p: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        by_p.setdefault(row_players(r), []).append(as_rules_mirror(r))
    out: dict[int, dict[str, dict[str, Any]]] = {}
    for p, g in sorted(by_p.items()):
        ans = _headline(g)
        out[p] = {
            k: {"cell": _cell(k, a, p), "met": _met(k, a), "games": len(g), "lines": a.lines}
            for k, a in ans.items()
        }
    return out


def _yes(m: bool | None) -> str:
    return {True: "yes", False: "**no**", None: "—"}[m]


def _column(fig: dict[int, dict[str, dict[str, Any]]], key: str) -> tuple[str, str]:
    if not fig:
        return "not measured", "—"
    cells = "; ".join(f"{p}p {f[key]['cell']}" for p, f in fig.items())
    met = ", ".join(f"{p}p {_yes(f[key]['met'])}" for p, f in fig.items())
    return cells, met


def _games(fig: dict[int, dict[str, dict[str, Any]]]) -> str:
    if not fig:
        return "no games"
    return "games: " + ", ".join(
        f"{p}p {next(iter(f.values()))['games']:,}" for p, f in fig.items()
    )


def current_table(rows: Sequence[Row]) -> dict[str, Any]:
    """The opening table of the balance page, as Markdown and JSON (see the module)."""
    mirrors: dict[str, list[Row]] = {}
    for r in rows:
        bot = mirror_bot(r)
        if bot is not None and is_default_setup(r):
            mirrors.setdefault(bot, []).append(r)
    searchers = Counter({b: len(v) for b, v in mirrors.items() if b.split(":")[0] == "ismcts"})
    search = searchers.most_common(1)[0][0] if searchers else None
    greedy_fig = measure(mirrors.get("greedy", []))
    search_fig = measure(mirrors[search]) if search else {}
    md = [
        f"| # | question | target | greedy mirrors ({_games(greedy_fig)}) | met "
        f"| search: `{search or 'ismcts'}` mirrors ({_games(search_fig)}) | met |",
        "|---|---|---|---|---|---|---|",
    ]
    disagree: list[str] = []
    summary: list[dict[str, Any]] = []
    for key, title, target in HEADLINE:
        g_cell, g_met = _column(greedy_fig, key)
        s_cell, s_met = _column(search_fig, key)
        md.append(f"| {key} | {title} | {target} | {g_cell} | {g_met} | {s_cell} | {s_met} |")
        for p in sorted(set(greedy_fig) & set(search_fig)):
            gm, sm = greedy_fig[p][key]["met"], search_fig[p][key]["met"]
            if gm is not None and sm is not None and gm != sm:
                disagree.append(
                    f"{key} ({title}) at {p}p: met under {'greedy' if gm else 'search'} play, "
                    f"not under {'search' if gm else 'greedy'} play"
                )
        summary.append(
            {
                "question": key,
                "title": title,
                "target": target,
                "greedy": {str(p): f[key] for p, f in greedy_fig.items()},
                "search": {str(p): f[key] for p, f in search_fig.items()},
            }
        )
    md.append("")
    if not search_fig:
        md.append("Search play: no mirror of the default set-up yet.")
    elif disagree:
        md.append(
            "Where the verdicts of strong and greedy play disagree: " + "; ".join(disagree) + "."
        )
    else:
        md.append("The verdicts of strong and greedy play agree wherever both are measured.")
    fewest = min((next(iter(f.values()))["games"] for f in search_fig.values()), default=0)
    if search_fig and fewest < PROVISIONAL:
        md.append(
            f"The search column rests on as few as {fewest:,} games a player count: its "
            "verdicts are read on point estimates and are provisional (the figures' "
            "intervals: `--json`)."
        )
    left = {b: len(v) for b, v in mirrors.items() if b not in ("greedy", search)}
    if left:
        md.append(
            "Mirrors of other bots left out: "
            + ", ".join(f"`{b}` ({k:,} games)" for b, k in sorted(left.items()))
            + "."
        )
    return {
        "markdown": "\n".join(md),
        "card_set": DEFAULT_CARD_SET,
        "search_bot": search,
        "disagree": disagree,
        "summary": summary,
    }


__all__: list[str] = [
    "CULTURE_HAPPINESS",
    "HEADLINE",
    "as_rules_mirror",
    "current_table",
    "default_options",
    "is_default_setup",
    "measure",
    "mirror_bot",
]
