"""civ4's balance questions Q1–Q16 (``docs/rules/civ4.md``, design notes): one function
each, reading every row of the report and returning an :class:`~.rows.Answer`."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from ....civ4.cards import CARDS
from ....stats import (
    Z95,
    Interval,
    mean_interval,
    normal_bounds,
    quantile_interval,
    ratio_interval,
    wilson_interval,
)
from ..greedy import ARCHETYPES
from ..sim import BUILD_CODES, PLOT_CODES, TECH_CODES, UNIT_CODES, parse_hist
from .plots import bar_plot, hist_plot
from .rows import (
    FAIR_BAND,
    SHUNNER,
    Answer,
    Row,
    against_search,
    against_shunner,
    archetype_share,
    by_players,
    fmt_figure,
    row_archetype,
    row_bots,
    row_players,
    row_variant,
    seat_shares,
    select_mirrors,
    within_band,
    won_share,
)


def q1_first_seat(rows: Sequence[Row]) -> Answer:
    a = Answer(
        "Q1",
        "Is there a first-player (or last-player) advantage?",
        "win share by seat (position after the first player), greedy mirror games",
        "every seat within ±4 points of fair share",
    )
    for variant in ("rules", "finish_round"):
        for p, g in by_players(select_mirrors(rows, variant)).items():
            fair = 1 / p
            for pos, iv in enumerate(seat_shares(g, p)):
                a.add(
                    f"{p}p {variant}, seat {pos} ({len(g):,} games)",
                    iv,
                    f"{100 * (fair - FAIR_BAND):.0f}–{100 * (fair + FAIR_BAND):.0f} %",
                    within_band(iv, fair - FAIR_BAND, fair + FAIR_BAND),
                    pct=True,
                )
    a.notes.append(
        "Seat 0 plays first in every round (C15). `finish_round` (C68) plays the round "
        "of the last technology to its end. A larger last-seat hand is card data "
        "(`starting_hand = [6, 7, 8, 9]` in cards.toml, C14), not an option, so it "
        "needs a changed card set (see the tuning notes)."
    )
    return a


def q2_game_length(rows: Sequence[Row]) -> Answer:
    a = Answer(
        "Q2",
        "How long is a game?",
        "rounds to the end (greedy mirror, rules as written); the stalemate cap (C69)",
        "median 13–16 rounds (2p), 12–15 (3p), 11–14 (4p); 95th percentile ≤ 1.5 × median; "
        "about 60 minutes; the cap never reached",
    )
    band = {2: (13, 16), 3: (12, 15), 4: (11, 14)}
    for p, g in by_players(select_mirrors(rows)).items():
        hist = Counter(int(r["turns"]) for r in g)
        med = quantile_interval(hist, 0.5)
        lo, hi = band[p]
        a.add(f"{p}p median rounds", med, f"{lo}–{hi}", within_band(med, lo, hi))
        p95 = quantile_interval(hist, 0.95)
        a.add(f"{p}p 95th percentile", p95, f"≤ {1.5 * med[0]:g}", p95[0] <= 1.5 * med[0])
        stale = mean_interval([1.0 if r["victory"] == "stalemate" else 0.0 for r in g])
        a.add(f"{p}p games at the cap", stale, "0", stale[0] == 0, pct=True)
        moves = mean_interval([float(r["moves"]) for r in g])
        a.add(f"{p}p moves per game (all seats)", moves, "—", None, digits=1)
    a.add(
        "real time at a human pace",
        None,
        "about 60 minutes",
        None,
        text="not measured (needs human games)",
    )
    return a


def q3_points_by_source(rows: Sequence[Row]) -> Answer:
    a = Answer(
        "Q3",
        "Where do points come from?",
        "winners' VP by source (greedy mirror, rules as written)",
        "population 45–60 %, technologies 30–45 %, wonders 5–15 %; winning score 15–25 VP",
    )
    src = (
        ("pop", "population", 0.45, 0.60),
        ("tech", "technologies", 0.30, 0.45),
        ("wonder", "wonders", 0.05, 0.15),
    )
    for p, g in by_players(select_mirrors(rows)).items():
        for key, name, lo, hi in src:
            pairs = []
            for r in g:
                for w in str(r["winners"]).split():
                    pairs.append((float(r[f"vp_{key}_{w}"]), float(r[f"vp_{w}"])))
            iv = ratio_interval(pairs)
            a.add(
                f"{p}p {name}",
                iv,
                f"{100 * lo:.0f}–{100 * hi:.0f} %",
                within_band(iv, lo, hi),
                pct=True,
            )
        score = mean_interval([float(r[f"vp_{str(r['winners']).split()[0]}"]) for r in g])
        a.add(f"{p}p winning score (VP)", score, "15–25", within_band(score, 15, 25), digits=1)
    return a


def q4_archetypes(rows: Sequence[Row], variant: str = "rules", key: str = "Q4") -> Answer:
    a = Answer(
        key,
        "Does one strategy dominate?" + ("" if variant == "rules" else f" ({variant})"),
        "win share of each archetype in one seat against greedy bots, seats rotated; and "
        "against the search bot (`ismcts`) in the other seats",
        "every archetype between 0.5 × and 1.5 × fair share; no archetype beats the ISMCTS bot",
    )
    arch = [r for r in rows if row_archetype(r) is not None and row_variant(r) == variant]
    for p, g in by_players(arch).items():
        fair = 1 / p
        for name in ARCHETYPES:
            sub = [r for r in g if row_archetype(r) == name]
            if not sub:
                continue
            iv = archetype_share(sub, name)
            a.add(
                f"{p}p {name} ({len(sub):,} games)",
                iv,
                f"{100 * 0.5 * fair:.1f}–{100 * 1.5 * fair:.1f} %",
                within_band(iv, 0.5 * fair, 1.5 * fair),
                pct=True,
            )
    if variant == "rules":
        # the last target: an archetype in one seat against the search bot in the others
        searched: dict[tuple[int, str, str], list[float]] = {}
        for r in rows:
            got = against_search(r)
            if got is not None and row_variant(r) == variant:
                seat, name, search = got
                searched.setdefault((row_players(r), name, search), []).append(won_share(r, seat))
        for (p, name, search), vals in sorted(searched.items()):
            iv = wilson_interval(vals)  # few games: the search bot is slow
            a.add(
                f"{p}p {name} against {search} ({len(vals):,} games)",
                iv,
                f"< {100 / p:.1f} % (does not beat it)",
                iv[0] < 1 / p,
                pct=True,
            )
        if not searched:
            a.add(
                "archetypes against ismcts",
                None,
                "none beats it",
                None,
                text="not measured (ismcts: see Q6)",
            )
    return a


def q5_war(rows: Sequence[Row]) -> Answer:
    a = Answer(
        "Q5",
        "Is war too strong or too weak?",
        "attacks per player per game, stolen population as a share of population gained, "
        "the military archetype's win share, attacking units blocked or bounced",
        "1–3 attacks per player per game; stolen ≤ 20 %; military ≤ 1.5 × fair share; "
        "30–60 % blocked or bounced",
    )
    sets = [("greedy mirror", select_mirrors(rows))]
    sets.append(
        (
            "with a military seat",
            [r for r in rows if row_archetype(r) == "military" and row_variant(r) == "rules"],
        )
    )
    for label, rs in sets:
        for p, g in by_players(rs).items():
            if label == "greedy mirror":
                per = mean_interval(
                    [sum(float(r[f"attacks_{s}"]) for s in range(p)) / p for r in g]
                )
            else:
                per = mean_interval(
                    [float(r[f"attacks_{row_bots(r).index('military')}"]) for r in g]
                )
            who = (
                "attacks per player" if label == "greedy mirror" else "the military seat's attacks"
            )
            a.add(f"{p}p {label}: {who} per game", per, "1–3", within_band(per, 1, 3))
            st = ratio_interval(
                [
                    (float(sum(int(r[f"stole_{s}"]) for s in range(p))), float(r["pop_gained"]))
                    for r in g
                ]
            )
            a.add(
                f"{p}p {label}: stolen / population gained", st, "≤ 20 %", st[0] <= 0.20, pct=True
            )
            bb = ratio_interval(
                [
                    (float(r["units_blocked"]) + float(r["units_bounced"]), float(r["units_sent"]))
                    for r in g
                ]
            )
            a.add(
                f"{p}p {label}: units blocked or bounced",
                bb,
                "30–60 %",
                within_band(bb, 0.30, 0.60),
                pct=True,
            )
    for p, g in by_players(
        [r for r in rows if row_archetype(r) == "military" and row_variant(r) == "rules"]
    ).items():
        iv = archetype_share(g, "military")
        a.add(
            f"{p}p military win share", iv, f"≤ {100 * 1.5 / p:.1f} %", iv[0] <= 1.5 / p, pct=True
        )
    a.notes.append(
        "Population gained counts every population card placed during the rounds "
        "(bought, free from Hanging Gardens, placed after a theft), not the set-up settle. "
        "`greedy` attacks whenever nothing is left worth buying and an attack's expected "
        "damage exceeds the units it spends; the military rows are the archetype's seat "
        "(its attack gain weighted 2.5×, units held 1.6×) against greedy rivals."
    )
    return a


def _ismcts(bot: str) -> bool:
    return bot.split(":")[0] == "ismcts"


def _budget(bot: str) -> int:
    """The iterations of an ``ismcts:Nit`` spec (0 when it names none)."""
    for part in bot.split(":")[1:]:
        if part.endswith("it") and part[:-2].isdigit():
            return int(part[:-2])
    return 0


def q6_skill(rows: Sequence[Row]) -> Answer:
    a = Answer(
        "Q6",
        "Does skill beat luck?",
        "`ismcts` (civ4's search kit) in one seat against `greedy` in the others, seats "
        "rotated; two budgets of `ismcts` against each other",
        "≥ 65 % wins at 2 players, ≥ 2 × fair share at 4; strength grows with the budget",
    )
    # one ismcts seat, the others greedy: by player count and spec
    vs: dict[tuple[int, str], list[float]] = {}
    duel: dict[tuple[str, str], list[float]] = {}
    for r in rows:
        bots = row_bots(r)
        searchers = [b for b in bots if _ismcts(b)]
        if len(searchers) == 1 and all(b == "greedy" for b in bots if not _ismcts(b)):
            seat = bots.index(searchers[0])
            vs.setdefault((row_players(r), searchers[0]), []).append(won_share(r, seat))
        elif len(bots) == 2 and len(searchers) == 2 and _budget(bots[0]) != _budget(bots[1]):
            hi = max(bots, key=_budget)
            lo = min(bots, key=_budget)
            duel.setdefault((hi, lo), []).append(won_share(r, bots.index(hi)))
    for (p, spec), vals in sorted(vs.items()):
        fair = 1 / p
        want = 0.65 if p == 2 else 2 * fair
        iv = wilson_interval(vals)
        a.add(
            f"{p}p {spec} against greedy ({len(vals):,} games)",
            iv,
            f"≥ {100 * want:.0f} %",
            iv[0] >= want,
            pct=True,
        )
    for (hi, lo), vals in sorted(duel.items()):
        iv = wilson_interval(vals)
        a.add(
            f"2p {hi} against {lo} ({len(vals):,} games)",
            iv,
            "> 50 %",
            iv[0] > 0.5,
            pct=True,
        )
    if vs or duel:
        a.notes.append(
            "Intervals: Wilson score (few games). The search bot is `ismcts` with civ4's own "
            "kit (greedy completes its steps and models the rivals, short greedy rollouts, a VP "
            "evaluation); budgets are small because a search move costs about 0.8 ms of CPU an "
            "iteration on the study machine (see the notes above)."
        )
    if not vs and not duel:
        a.add("ismcts against greedy", None, "see target", None, text="not measured (no games)")
    return a


def q7_early_leader(rows: Sequence[Row]) -> Answer:
    a = Answer(
        "Q7",
        "Is the leader known too early?",
        "chance that the VP leader after two thirds of the game (start of round ⌊2R/3⌋+1) "
        "wins, greedy mirror",
        "≤ 70 %",
    )
    for p, g in by_players(select_mirrors(rows)).items():
        vals = [won_share(r, int(r["leader23"])) for r in g if r.get("leader23") is not None]
        iv = mean_interval(vals)
        a.add(f"{p}p ({len(vals):,} games with one leader)", iv, "≤ 70 %", iv[0] <= 0.70, pct=True)
    return a


def q8_card_use(rows: Sequence[Row], folder: Path | None) -> Answer:
    a = Answer(
        "Q8",
        "Is every card used?",
        "buildings: copies built per copy drawn; wonders: games in which a drawn wonder is "
        "built; units: copies that attack or block per copy drawn; techs: rounds in the "
        "market; plots: share of purchases against the share of the plot cards "
        "(greedy mirror, rules as written, every player count)",
        "every building kind ≥ 25 %; every wonder ≥ 40 %; every unit kind ≥ 30 %; every "
        "tech's median time in market ≤ 2 rounds and none > 4; no plot kind bought at "
        "less than half its share",
    )
    g = select_mirrors(rows)
    names = CARDS.names
    fig: dict[str, dict[str, float]] = {"build": {}, "unit": {}, "tech": {}, "plot": {}}
    for c in BUILD_CODES:
        card = CARDS.deck[c]
        if card.kind == "building":
            iv = ratio_interval([(float(r[f"built_{c}"]), float(r[f"drawn_{c}"])) for r in g])
            a.add(f"building {names.get(c, c)} ({c})", iv, "≥ 25 %", iv[0] >= 0.25, pct=True)
        else:
            vals = [1.0 if r[f"built_{c}"] else 0.0 for r in g if r[f"drawn_{c}"]]
            iv = mean_interval(vals)
            a.add(f"wonder {names.get(c, c)} ({c})", iv, "≥ 40 %", iv[0] >= 0.40, pct=True)
        fig["build"][c] = iv[0]
    for c in UNIT_CODES:
        iv = ratio_interval([(float(r[f"combat_{c}"]), float(r[f"drawn_{c}"])) for r in g])
        a.add(f"unit {names.get(c, c)} ({c})", iv, "≥ 30 %", iv[0] >= 0.30, pct=True)
        fig["unit"][c] = iv[0]
    for t in TECH_CODES:
        hist = Counter(int(r[f"market_{t}"]) for r in g if r.get(f"market_{t}") is not None)
        med = quantile_interval(hist, 0.5)
        p90 = quantile_interval(hist, 0.9)
        ok = None if math.isnan(med[0]) else (med[0] <= 2 and p90[0] <= 4)
        a.add(
            f"tech {names.get(t, t)} ({t}): median rounds in market (90th pct {fmt_figure(p90[0])})",
            med,
            "≤ 2 (90th ≤ 4)",
            ok,
        )
        fig["tech"][t] = med[0]
    total_plots = sum(p.count for p in CARDS.plots.values())
    bought_all = sum(int(r[f"plotbuy_{pc}"]) for r in g for pc in PLOT_CODES)
    for pc in PLOT_CODES:
        share = CARDS.plots[pc].count / total_plots
        iv = ratio_interval(
            [
                (
                    float(r[f"plotbuy_{pc}"]),
                    sum(float(r[f"plotbuy_{x}"]) for x in PLOT_CODES) or 0.0,
                )
                for r in g
            ]
        )
        a.add(
            f"plot {names.get(pc, pc)} ({pc}) share of purchases",
            iv,
            f"≥ {100 * share / 2:.1f} % (half of {100 * share:.1f} %)",
            None if bought_all == 0 else iv[0] >= share / 2,
            pct=True,
        )
        fig["plot"][pc] = iv[0] / share if share else math.nan
    a.notes.append(
        "A tech's time in the market runs from the round it entered to the round it was "
        'bought (0: the same round), or to the end of the game. "None > 4" is read as the '
        "90th percentile of each tech's time. Plots: a kind's share of all plot purchases "
        "against its share of the 30 plot cards (the set-up draft is not a purchase)."
    )
    if folder is not None:
        a.plots.append(bar_plot(folder, "q8_cards.png", "Q8: card use (greedy mirror)", fig))
    return a


def q9_culture_happiness(rows: Sequence[Row]) -> Answer:
    a = Answer(
        "Q9",
        "Do culture and happiness matter?",
        "Draw steps with a Highest Culture holder; purchases made while someone holds "
        "Highest Happiness; status changes per game; win share of the holder at the end "
        "(greedy mirror)",
        "each status held 30–70 % of the time; ≥ 2 changes per game; holding a status "
        "worth ≤ +10 points of win share",
    )
    for p, g in by_players(select_mirrors(rows)).items():
        cu = ratio_interval([(float(r["draws_culture"]), float(r["draws"])) for r in g])
        a.add(f"{p}p Highest Culture held", cu, "30–70 %", within_band(cu, 0.3, 0.7), pct=True)
        hp = ratio_interval([(float(r["purchases_happy"]), float(r["purchases"])) for r in g])
        a.add(f"{p}p Highest Happiness held", hp, "30–70 %", within_band(hp, 0.3, 0.7), pct=True)
        ch = mean_interval([float(r["culture_changes"]) + float(r["happiness_changes"]) for r in g])
        a.add(f"{p}p status changes per game", ch, "≥ 2", ch[0] >= 2)
        for st in ("culture", "happiness"):
            vals = [
                won_share(r, int(r[f"{st}_holder"])) for r in g if r.get(f"{st}_holder") is not None
            ]
            iv = mean_interval(vals)
            a.add(
                f"{p}p {st} holder at the end: win share ({len(vals):,} games)",
                iv,
                f"≤ {100 / p + 10:.1f} %",
                iv[0] - 1 / p <= 0.10,
                pct=True,
            )
    a.notes.append(
        "A status change is any change of its holder during the rounds, to or from nobody "
        "included. The win share of the holder at the end is partly the other way round: "
        "winners tend to have more cards in play."
    )
    return a


def q10_writing_code_of_laws(rows: Sequence[Row]) -> Answer:
    a = Answer(
        "Q10",
        "Are Writing and Code of Laws priced right?",
        "win share of the seat owning the technology at the end, greedy mirror, under the "
        "rules and under `one_shot_steals`; and greedy's against the same bot without it "
        "(`greedy:not=WRI`, `greedy:not=COL`)",
        "owner ≤ fair share + 10 points",
    )
    era2 = [c for c in TECH_CODES if CARDS.techs[c].era == 2 and c not in ("WRI", "COL")]
    for variant in ("rules", "one_shot_steals"):
        # DESIGN-NOTES' measure: greedy against the same bot without the technology
        against: dict[int, dict[str, list[tuple[Row, int]]]] = {}
        for r in rows:
            got = against_shunner(r)
            if got is not None and row_variant(r) == variant:
                against.setdefault(row_players(r), {}).setdefault(got[1], []).append((r, got[0]))
        for p, g in by_players(select_mirrors(rows, variant)).items():
            # the owners of the other era II technologies, for comparison (rows of older
            # runs name only Writing's and Code of Laws' owners)
            base = [
                won_share(r, int(r[f"owner_{t}"]))
                for r in g
                for t in era2
                if r.get(f"owner_{t}") is not None
            ]
            if base:
                a.add(
                    f"{p}p {variant}: owner of another era II technology (comparison)",
                    mean_interval(base),
                    "—",
                    None,
                    pct=True,
                )
            for t, name in (("WRI", "Writing"), ("COL", "Code of Laws")):
                vals = [
                    won_share(r, int(r[f"owner_{t}"])) for r in g if r.get(f"owner_{t}") is not None
                ]
                iv = mean_interval(vals)
                # where the measure against the bot without it was played, it is the target's
                if t in against.get(p, {}):
                    target, met = f"— (greedy against {SHUNNER}{t}, below)", None
                else:
                    target, met = f"≤ {100 / p + 10:.1f} %", iv[0] <= 1 / p + 0.10
                a.add(
                    f"{p}p {variant}: {name} owner ({len(vals):,} games)",
                    iv,
                    target,
                    met,
                    pct=True,
                )
                uses = mean_interval(
                    [float(r[f"uses_{t}"]) for r in g if r.get(f"owner_{t}") is not None]
                )
                a.add(f"{p}p {variant}: {name} uses per game (owned)", uses, "—", None)
        for p, by_code in sorted(against.items()):
            for t, games in sorted(by_code.items()):
                name = CARDS.techs[t].name
                inplay = [
                    won_share(r, seat) for r, seat in games if r.get(f"owner_{t}") is not None
                ]
                removed = [won_share(r, seat) for r, seat in games if r.get(f"owner_{t}") is None]
                iv = mean_interval(inplay)
                a.add(
                    f"{p}p {variant}: greedy against {SHUNNER}{t}, {name} in play "
                    f"({len(inplay):,} games)",
                    iv,
                    f"≤ {100 / p + 10:.1f} %",
                    iv[0] <= 1 / p + 0.10,
                    pct=True,
                )
                if removed:
                    a.add(
                        f"{p}p {variant}: greedy against {SHUNNER}{t}, {name} removed "
                        f"(the same bot; {len(removed):,} games)",
                        mean_interval(removed),
                        f"≈ {100 / p:.1f} %",
                        None,
                        pct=True,
                    )
    a.notes.append(
        "The owners' win share in greedy mirrors partly measures being ahead: owning a "
        "technology follows from affording it. The comparison line is the same share for "
        "the owners of the six other era II technologies (pooled samples of one game "
        "treated as independent): the part of Writing's and Code of Laws' figure above it "
        "is what the steal itself is worth."
    )
    a.notes.append(
        f"DESIGN-NOTES' own measure, the owners against the same bot without them: "
        f"`greedy` in one seat, `{SHUNNER}WRI` (or `COL`) in the others, seats rotated. "
        "That bot never buys the technology nor takes it free, unless it is the last one "
        "left (C68: the game must end). greedy's win share in the games where the "
        "technology is in play is what being able to own it is worth; where it was removed "
        "(C9) the two bots are the same, a control at the fair share. Where these games "
        "were played, the target is judged on them and the mirror lines are comparisons."
    )
    return a


def q11_hand_size(rows: Sequence[Row], folder: Path | None) -> Answer:
    a = Answer(
        "Q11",
        "Do hands grow too large (RU9)?",
        "hand size at the start of each turn (after the previous discard), greedy mirror; "
        "the largest per seat",
        "median ≤ 10, 99th percentile ≤ 20",
    )
    hists: dict[str, Counter[int]] = {}
    for p, g in by_players(select_mirrors(rows)).items():
        hist: Counter[int] = Counter()
        for r in g:
            hist.update(parse_hist(r["hand_hist"]))
        hists[f"{p}p"] = hist
        med = quantile_interval(hist, 0.5)
        a.add(f"{p}p median hand", med, "≤ 10", med[0] <= 10)
        p99 = quantile_interval(hist, 0.99)
        a.add(f"{p}p 99th percentile", p99, "≤ 20", p99[0] <= 20)
        mx = max(int(r[f"hand_max_{s}"]) for r in g for s in range(p))
        a.add(f"{p}p largest hand seen", (float(mx), math.nan, math.nan), "—", None)
    if folder is not None and hists:
        a.plots.append(
            hist_plot(
                folder, "q11_hands.png", "Q11: hand size at turn start", "cards in hand", hists
            )
        )
    return a


def q12_ties(rows: Sequence[Row]) -> Answer:
    a = Answer("Q12", "How often is the game tied?", "shared victories (greedy mirror)", "≤ 1 %")
    for p, g in by_players(select_mirrors(rows)).items():
        iv = mean_interval([1.0 if r.get("shared") else 0.0 for r in g])
        a.add(f"{p}p", iv, "≤ 1 %", iv[0] <= 0.01, pct=True)
    return a


def q13_bank_trades(rows: Sequence[Row]) -> Answer:
    a = Answer(
        "Q13",
        "Is the bank trade a crutch?",
        "resources received from bank trades as a share of the resources spent on purchases "
        "(greedy mirror), also under `same_type_trade`",
        "≤ 15 %",
    )
    for variant in ("rules", "same_type_trade"):
        for p, g in by_players(select_mirrors(rows, variant)).items():
            iv = ratio_interval(
                [
                    (
                        sum(float(r[f"trade_got_{s}"]) for s in range(p)),
                        sum(float(r[f"spent_{s}"]) for s in range(p)),
                    )
                    for r in g
                ]
            )
            a.add(f"{p}p {variant}", iv, "≤ 15 %", iv[0] <= 0.15, pct=True)
            tr = mean_interval([sum(float(r[f"trades_{s}"]) for s in range(p)) / p for r in g])
            a.add(f"{p}p {variant}: trades per player per game", tr, "—", None, digits=1)
    return a


def q14_fiddliness(rows: Sequence[Row], folder: Path | None) -> Answer:
    a = Answer(
        "Q14",
        "Is the game fiddly?",
        "legal `collect` moves at each collect step in the last third of the game; the "
        "active seat's decisions per turn (greedy mirror)",
        "median ≤ 20 collect choices late in the game; report the 95th percentile of "
        "decisions per turn",
    )
    hists: dict[str, Counter[int]] = {}
    for p, g in by_players(select_mirrors(rows)).items():
        col: Counter[int] = Counter()
        turn: Counter[int] = Counter()
        for r in g:
            col.update(parse_hist(r["collect_hist"]))
            turn.update(parse_hist(r["turn_hist"]))
        hists[f"{p}p"] = turn
        med = quantile_interval(col, 0.5)
        a.add(f"{p}p median collect choices (late)", med, "≤ 20", med[0] <= 20)
        a.add(
            f"{p}p 95th percentile collect choices (late)", quantile_interval(col, 0.95), "—", None
        )
        a.add(f"{p}p median decisions per turn", quantile_interval(turn, 0.5), "—", None)
        a.add(
            f"{p}p 95th percentile decisions per turn",
            quantile_interval(turn, 0.95),
            "report",
            None,
        )
    a.notes.append(
        "The platform offers a collect as steps (plot by plot, `collect ?`) and proposes "
        "one (`default_move`), so a player never reads the whole list; the count is the "
        "product over mixed plots of the ways to split their population (C24)."
    )
    if folder is not None and hists:
        a.plots.append(
            hist_plot(
                folder,
                "q14_decisions.png",
                "Q14: decisions of the active seat per turn",
                "moves in one turn",
                hists,
            )
        )
    return a


def q15_happiness_discount(rows: Sequence[Row]) -> Answer:
    a = Answer(
        "Q15",
        "Does the happiness wonder discount matter (RU20)?",
        "Q1 (seat 0's share, 2 players) and Q4 (each archetype, 2 players) under "
        "`happiness_not_wonders` against the rules as written",
        "keep the rules as written unless the variant moves a seat or an archetype by more "
        "than 3 points",
    )

    def diff(x: list[float], y: list[float]) -> Interval:
        mx, _, hx = mean_interval(x)
        my, _, hy = mean_interval(y)
        se = math.sqrt(((hx - mx) / Z95) ** 2 + ((hy - my) / Z95) ** 2)
        return (mx - my, *normal_bounds(mx - my, se))

    base = select_mirrors(rows, "rules", 2)
    var = select_mirrors(rows, "happiness_not_wonders", 2)
    if base and var:
        d = diff(
            [won_share(r, int(r["start"])) for r in var],
            [won_share(r, int(r["start"])) for r in base],
        )
        a.add(
            "2p seat 0 share: variant − rules", d, "within ±3 points", abs(d[0]) <= 0.03, pct=True
        )
    for name in ARCHETYPES:
        x = [
            won_share(r, row_bots(r).index(name))
            for r in rows
            if row_archetype(r) == name
            and row_variant(r) == "happiness_not_wonders"
            and row_players(r) == 2
        ]
        y = [
            won_share(r, row_bots(r).index(name))
            for r in rows
            if row_archetype(r) == name and row_variant(r) == "rules" and row_players(r) == 2
        ]
        if x and y:
            d = diff(x, y)
            a.add(f"2p {name}: variant − rules", d, "within ±3 points", abs(d[0]) <= 0.03, pct=True)
    a.notes.append(
        '"Met" here means the variant moves nothing by more than 3 points, so the rules '
        "as written stay."
    )
    return a


def q16_attack_spread(rows: Sequence[Row], folder: Path | None) -> Answer:
    a = Answer(
        "Q16",
        "Are attacks spread fairly over the seats?",
        "attacks received by seat at 4 players (greedy mirror, and games with a military "
        "seat, seats rotated)",
        "every seat within ±15 % of the mean",
    )
    sets = (
        ("greedy mirror", select_mirrors(rows, "rules", 4)),
        (
            "with a military seat",
            [
                r
                for r in rows
                if row_archetype(r) == "military"
                and row_variant(r) == "rules"
                and row_players(r) == 4
            ],
        ),
    )
    for label, g in sets:
        if not g:
            continue
        per = [mean_interval([float(r[f"attacked_{s}"]) for r in g]) for s in range(4)]
        mean = statistics.fmean(x[0] for x in per)
        for s, iv in enumerate(per):
            rel = (iv[0] / mean - 1) if mean else math.nan
            a.add(
                f"4p {label}: seat {s} attacks received ({rel:+.0%} of mean)",
                iv,
                f"{0.85 * mean:.3f}–{1.15 * mean:.3f}",
                None if not mean else within_band(iv, 0.85 * mean, 1.15 * mean),
                digits=3,
            )
    return a
