"""civ4's columns in the rows of ``civcards simulate --out``: the figures of the balance study.

The sixteen balance questions of ``docs/rules/civ4.md`` (design notes, Q1–Q16)
need more than who won. :func:`sim_row` computes them after the game, from
the finished state and its move record: it replays the moves from the same
piles (:func:`civcards.civ4.state_from_piles`, the same seed, so the same
chance outcomes) and watches each move; the engine itself carries no
instrumentation.

Columns (:data:`COLUMNS`; ``_s`` is a seat 0–3, empty for a seat the game
does not have):

* **score** ``vp_s``, ``vp_tech_s``, ``vp_pop_s``, ``vp_wonder_s``: the C70
  score at the end and its three sources (technologies + population +
  wonders = VP);
* **war** ``attacks_s`` (attacks declared), ``attacked_s`` (attacks received:
  combats in which the seat was a defender), ``stole_s`` / ``lost_s``
  (population stolen / lost); per game ``units_sent``, ``units_bounced``
  (returned by walls, C42.2), ``units_broke`` (Catapults that broke City
  Walls, C42.1), ``units_blocked`` (C43), ``destroyed`` (buildings), and
  ``pop_gained``: every population card placed during the rounds (bought,
  free from Hanging Gardens, or placed after a theft; the set-up settle not
  counted);
* **statuses** ``draws`` (Draw steps) and ``draws_culture`` (those with a
  Highest Culture holder, C49), ``purchases`` (population, plot, technology,
  building and wonder purchases) and ``purchases_happy`` (those made while
  someone held Highest Happiness, C50), ``culture_changes`` /
  ``happiness_changes`` (times the holder changed, to or from nobody
  included), ``culture_holder`` / ``happiness_holder`` (the holder at the
  end, empty for none);
* **hands** ``hand_med_s`` / ``hand_max_s``: the seat's hand size at the start
  of each of its turns (after the previous discard), median and maximum;
  ``hand_hist``: every such sample of the game as ``size:count`` pairs;
* **economy** ``trades_s`` (bank trades), ``trade_got_s`` (resources received
  from them), ``spent_s`` (resources paid for purchases, C26), ``cashed_s``
  (cards cashed), ``plots_s`` (plots owned at the end);
* **cards** ``drawn_<code>`` (copies drawn from the deck, set-up deal
  included), ``cashed_<code>``, ``built_<code>`` (buildings and wonders;
  ``builds_s``: those the seat built, as ``code:count`` pairs),
  ``combat_<code>`` (units that attacked or blocked); ``market_<tech>``: the
  rounds the technology spent in the market (to its purchase, or to the end;
  empty if it never entered), ``plotbuy_<plot>``: plots of that kind bought;
  ``owner_<tech>``: the seat owning the technology at the end (empty when
  nobody bought it; every technology, so that Writing's and Code of Laws'
  owners can be compared with the owners of the others), ``uses_WRI`` /
  ``uses_COL``: the uses of Writing / Code of Laws;
* **decisions** ``turn_hist``: the moves of the active seat in each turn
  (collect to discard) as ``count:turns`` pairs; ``collect_hist``: the number
  of legal ``collect`` moves (C24) at each collect step of the last third of
  the game (the rounds after two thirds), as ``count:times`` pairs;
* **the leader** ``leader23``: the C70 leader at the start of round
  ⌊2R/3⌋ + 1 (R the rounds of the game), empty when tied at the top.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Iterable
from typing import Any

from ...civ4.cards import CARDS, DECK_CODES
from ...civ4.game import COLLECT, PURCHASE, GameState, state_from_piles
from ...civ4.moves import parse_move

MAX_SEATS = 4
_DECK = CARDS.deck
BUILD_CODES: tuple[str, ...] = tuple(
    c for c in DECK_CODES if _DECK[c].kind in ("building", "wonder")
)
UNIT_CODES: tuple[str, ...] = tuple(c for c in DECK_CODES if _DECK[c].kind == "unit")
TECH_CODES: tuple[str, ...] = tuple(sorted(CARDS.techs))
PLOT_CODES: tuple[str, ...] = tuple(sorted(CARDS.plots))
STEAL_TECHS = ("WRI", "COL")

_SEAT_COLS = (
    "vp",
    "vp_tech",
    "vp_pop",
    "vp_wonder",
    "attacks",
    "attacked",
    "stole",
    "lost",
    "trades",
    "trade_got",
    "spent",
    "cashed",
    "plots",
    "hand_med",
    "hand_max",
)
_GAME_COLS = (
    "units_sent",
    "units_bounced",
    "units_broke",
    "units_blocked",
    "destroyed",
    "pop_gained",
    "draws",
    "draws_culture",
    "purchases",
    "purchases_happy",
    "culture_changes",
    "happiness_changes",
    "culture_holder",
    "happiness_holder",
    "leader23",
)

#: column name -> type, in file order
COLUMNS: dict[str, str] = {
    **{f"{c}_{s}": "int" for c in _SEAT_COLS for s in range(MAX_SEATS)},
    **dict.fromkeys(_GAME_COLS, "int"),
    "hand_hist": "str",
    "turn_hist": "str",
    "collect_hist": "str",
    **{f"builds_{s}": "str" for s in range(MAX_SEATS)},
    **{f"drawn_{c}": "int" for c in DECK_CODES},
    **{f"cashed_{c}": "int" for c in DECK_CODES},
    **{f"built_{c}": "int" for c in BUILD_CODES},
    **{f"combat_{c}": "int" for c in UNIT_CODES},
    **{f"market_{t}": "int" for t in TECH_CODES},
    **{f"plotbuy_{p}": "int" for p in PLOT_CODES},
    **{f"owner_{t}": "int" for t in TECH_CODES},
    **{f"uses_{t}": "int" for t in STEAL_TECHS},
}

_PURCHASES = frozenset(("pop", "plot", "tech", "build"))


def hist_text(counts: Counter[int]) -> str:
    """``size:count`` pairs, by size (the ``*_hist`` columns)."""
    return " ".join(f"{k}:{v}" for k, v in sorted(counts.items()))


def parse_hist(text: str | None) -> Counter[int]:
    """The counts of a ``*_hist`` column (empty for None)."""
    out: Counter[int] = Counter()
    for part in (text or "").split():
        k, _, v = part.partition(":")
        out[int(k)] += int(v)
    return out


def _collect_choices(g: GameState, seat: int) -> int:
    """C24: the number of legal collect moves of ``seat`` now (mixed plots with population)."""
    total = 1
    for code, pop, _ in g.plots[seat]:
        t = len(CARDS.plots[code].produced)
        if pop and t > 1:
            total *= math.comb(pop + t - 1, t - 1)
    return total


def _leader(g: GameState) -> int | None:
    sc = [tuple(s) for s in g.scores]
    best = max(sc)
    return sc.index(best) if sc.count(best) == 1 else None


def _drawn(
    before: tuple[tuple[str, ...], int], after: tuple[tuple[str, ...], int]
) -> Iterable[str]:
    (d0, p0), (d1, p1) = before, after
    if d0 is d1:
        return d0[p0:p1]
    # a reshuffle (C38) happened: the rest of the old deck, then the new one's top
    return (*d0[p0:], *d1[:p1])


def sim_row(final: GameState) -> dict[str, Any]:
    """The balance figures of a finished game (the names of :data:`COLUMNS`)."""
    n = final.n
    g = state_from_piles(
        n,
        list(final.init_plots),
        list(final.init_techs),
        list(final.init_removed),
        list(final.init_deck),
        options=final.options,
        seed=final.seed,
        chance=final.chance_in,
    )
    rounds = final.round
    late_from = (2 * rounds) // 3 + 1
    seat_cols = {c: [0] * n for c in _SEAT_COLS}
    hands: list[list[int]] = [[] for _ in range(n)]
    game = dict.fromkeys(_GAME_COLS, 0)
    drawn: Counter[str] = Counter()
    cashed: Counter[str] = Counter()
    built: Counter[str] = Counter()
    seat_built: list[Counter[str]] = [Counter() for _ in range(n)]
    combat: Counter[str] = Counter()
    plotbuy: Counter[str] = Counter()
    uses: Counter[str] = Counter()
    turn_hist: Counter[int] = Counter()
    collect_hist: Counter[int] = Counter()
    entered: dict[str, int] = {}
    market_rounds: dict[str, int] = {}
    leader23: int | None = None
    leader_seen = False
    turn_moves = 0
    status: tuple[int | None, int | None] = (None, None)
    for text in final.moves:
        m = parse_move(text)
        p = g.to_move
        assert p is not None
        step = g.step
        k = m.kind
        if step == COLLECT:
            if turn_moves:
                turn_hist[turn_moves] += 1
            turn_moves = 0
            hands[p].append(sum(g.hands[p]))
            if g.round >= late_from:
                collect_hist[_collect_choices(g, p)] += 1
            if not leader_seen and g.round >= late_from:
                leader_seen = True
                leader23 = _leader(g)
        if g.round >= 1 and p == g.active:
            turn_moves += 1
        if step == PURCHASE:
            if k in _PURCHASES:
                game["purchases"] += 1
                if g.highest_happiness() is not None:
                    game["purchases_happy"] += 1
                if k == "pop":
                    cost = g.pop_cost(p, m.num)
                    game["pop_gained"] += 1
                elif k == "plot":
                    cost = sum(m.res)
                    plotbuy[m.code] += 1
                else:
                    cost = g.card_cost(p, m.code)
                    if k == "build":
                        built[m.code] += 1
                        seat_built[p][m.code] += 1
                        if m.extra == "settle":
                            game["pop_gained"] += len(m.plots)
                seat_cols["spent"][p] += cost
            elif k == "cash":
                cashed[m.code] += 1
                seat_cols["cashed"][p] += 1
            elif k == "trade":
                seat_cols["trades"][p] += 1
                seat_cols["trade_got"][p] += sum(m.get)
            elif k == "use":
                uses[m.code] += 1
            elif k in ("end", "attack"):
                game["draws"] += 1
                if g.highest_culture() is not None:
                    game["draws_culture"] += 1
                if k == "attack":
                    seat_cols["attacks"][p] += 1
                    for d, us in m.attack:
                        seat_cols["attacked"][d] += 1
                        game["units_sent"] += len(us)
                        for u in us:
                            combat[u] += 1
        elif k == "walls":
            game["units_bounced"] += len(m.cards)
            game["units_broke"] += len(m.plots)
        elif k == "defend":
            game["units_blocked"] += len(m.blocks)
            for b, _ in m.blocks:
                combat[b] += 1
        elif k == "damage":
            fight = g.combat
            assert fight is not None
            seat_cols["lost"][p] += len(m.plots)
            seat_cols["stole"][fight.attacker] += len(m.plots)
            game["destroyed"] += len(m.destroy)
        elif k == "place":
            game["pop_gained"] += len(m.plots)
        deck0 = (g.deck, g.deck_pos)
        market0 = set(g.tech_market)
        g.apply_unchecked(m, text)
        drawn.update(_drawn(deck0, (g.deck, g.deck_pos)))
        market1 = set(g.tech_market)
        if market1 != market0:
            r = max(1, g.round)
            for t in market1 - market0:
                entered[t] = r
            for t in market0 - market1:
                market_rounds[t] = r - entered.pop(t, r)
        if k not in ("collect", "cash", "trade", "discard", "pick", "settle", "end", "use"):
            now = (g.highest_culture(), g.highest_happiness())
            if g.round >= 1 and now != status:
                game["culture_changes"] += int(now[0] != status[0])
                game["happiness_changes"] += int(now[1] != status[1])
            status = now
    if turn_moves:
        turn_hist[turn_moves] += 1
    for t, r in entered.items():
        market_rounds[t] = max(1, final.round) - r
    game["culture_holder"] = final.highest_culture()  # type: ignore[assignment]
    game["happiness_holder"] = final.highest_happiness()  # type: ignore[assignment]
    game["leader23"] = leader23  # type: ignore[assignment]
    scores = final.scores
    for s in range(n):
        vp, techs, pop, wonders = scores[s]
        seat_cols["vp"][s] = vp
        seat_cols["vp_tech"][s] = techs
        seat_cols["vp_pop"][s] = pop
        seat_cols["vp_wonder"][s] = wonders
        seat_cols["plots"][s] = len(final.plots[s])
        hs = hands[s] or [0]
        seat_cols["hand_med"][s] = int(statistics.median_low(hs))
        seat_cols["hand_max"][s] = max(hs)
    row: dict[str, Any] = {}
    for c in _SEAT_COLS:
        for s in range(MAX_SEATS):
            row[f"{c}_{s}"] = seat_cols[c][s] if s < n else None
    row.update(game)
    row["hand_hist"] = hist_text(Counter(h for hs in hands for h in hs))
    row["turn_hist"] = hist_text(turn_hist)
    row["collect_hist"] = hist_text(collect_hist)
    for s in range(MAX_SEATS):
        row[f"builds_{s}"] = (
            " ".join(f"{c}:{k}" for c, k in sorted(seat_built[s].items())) if s < n else None
        )
    for c in DECK_CODES:
        row[f"drawn_{c}"] = drawn[c]
        row[f"cashed_{c}"] = cashed[c]
    for c in BUILD_CODES:
        row[f"built_{c}"] = built[c]
    for c in UNIT_CODES:
        row[f"combat_{c}"] = combat[c]
    for t in TECH_CODES:
        row[f"market_{t}"] = market_rounds.get(t)
    for pc in PLOT_CODES:
        row[f"plotbuy_{pc}"] = plotbuy[pc]
    for t in TECH_CODES:
        owner = [s for s in range(n) if t in final.techs[s]]
        row[f"owner_{t}"] = owner[0] if owner else None
    for t in STEAL_TECHS:
        row[f"uses_{t}"] = uses[t]
    return row


__all__ = ["COLUMNS", "hist_text", "parse_hist", "sim_row"]
