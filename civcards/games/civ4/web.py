"""Civilization: The Card Game at the web table: what its front-end module
(``static/civ4.js``) shows beyond a seat's observation, in the reader's language.

Everything shown comes from ``observe(state, seat)`` (C72): the empires, supplies,
markets, pile sizes, the era on top of the tech pile, the discard pile, hand sizes,
statuses, the combat and the seat's own hand; a card Writing took only in the
thief's and the victim's view (``known_steals``). No pile order, no removed
technology and no other hand ever enters a view. Two things look further, and
give only public facts or the viewer's own:

* who made each move of the log (whose turn it was is public) is found by
  replaying the moves on a private copy, kept per game;
* the viewer's own decision (only when the viewer is to move): the numbers the
  table needs to compose a move by pointing (a plot's payment, the blocks its
  hand allows against the public attackers, the damage it must take) and the
  engine's proposed move (:func:`civcards.civ4.default_move`, which reads the
  mover's own hand and public facts only).

The card set is RECONSTRUCTED: the view carries the label. Nothing here imports
Rich or the terminal.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from functools import lru_cache
from typing import Any

from ... import civ4
from ...civ4 import CARDS, GameState, Observation, observe
from ...civ4.cards import RULES, DeckCard, TechCard, card_set
from ...i18n import normalize_lang, t
from .public import Costs, movers
from .standing import standing
from .text import (
    card_help,
    card_name,
    cards_text,
    describe_move,
    reconstructed,
    res_short,
    step_name,
    winners_text,
)

ERAS = {1: "I", 2: "II", 3: "III"}
_CULTURE_MIN: int = RULES["culture_minimum"]
_HAPPY_MIN: int = RULES["happiness_minimum"]


# -- words, memoised (every frame repeats the whole log) -------------------------------------


@lru_cache(maxsize=65536)
def _words(lang: str, text: str, names: tuple[str, ...]) -> str:
    return describe_move(text, list(names), lang, past=True)


def _set(obs: Observation) -> str | None:
    """The name of the game's card set (None: not named, the original set)."""
    name = dict(obs.options).get("cards")
    return name if isinstance(name, str) else None


@lru_cache(maxsize=4096)
def card_view(code: str, lang: str, cards: str | None = None) -> dict[str, Any]:
    """What the table shows of a card: name, kind, what it does, its printed numbers (those
    of the game's card set ``cards``)."""
    cs = card_set(cards)
    out: dict[str, Any] = {
        "code": code,
        "name": card_name(code, lang),
        "help": card_help(code, lang, cs),
    }
    if code in cs.plots:
        out["kind"] = "plot"
        out["yields"] = list(cs.plots[code].yields)
        return out
    card: TechCard | DeckCard = cs.techs[code] if code in cs.techs else cs.deck[code]
    out["kind"] = card.kind
    out["kind_name"] = t(lang, f"ccg.kind.{card.kind}")
    if isinstance(card, TechCard):
        out["era"] = ERAS[card.era]
    else:
        out["res"] = list(card.resource)
    if card.kind != "unit":
        out["cost"] = card.cost
        out["culture"] = card.culture
        out["happiness"] = card.happiness
    out["fx"] = effect_symbols(card)
    return out


def effect_symbols(card: TechCard | DeckCard) -> list[list[str | int]]:
    """What a card does as the face's icons (static/symbols.js names them, ccg.sym.*):
    ``[symbol, value]`` pairs, a value a number, a resource token (``2F``) or a letter, or
    "" (the words are its ``help``). Culture, happiness and the victory point first (C49,
    C50, C68), then its effects (C52) or a unit's profile (C47)."""
    out: list[list[str | int]] = []
    if card.kind != "unit":
        if card.culture:
            out.append(["culture", card.culture])
        if card.happiness:
            out.append(["happiness", card.happiness])
    if card.kind in ("tech", "wonder"):
        out.append(["vp", 1])
    if isinstance(card, DeckCard) and card.kind == "unit":
        if card.attack:
            out.append(["attack", ""])
        if card.defend:
            out.append(["defence", len(card.blocks)])
        if card.breaks_walls:
            out.append(["breach", ""])
        if card.steal:
            out.append(["steal", card.steal])
        if card.destroy:
            out.append(["destroy", card.destroy])
        return out
    for e in card.effects:
        k = e.kind
        if k == "income":
            out.append(["income", res_short(e.resources)])
        elif k in ("gain_once",):
            out.append(["gain_plot" if e.per_plot else "gain", res_short(e.resources)])
        elif k == "double_base":
            out.append(["double", "FHC"[e.resource]])
        elif k == "boost_producing":
            out.append(["boost", f"{e.amount}{'FHC'[e.resource]}"])
        elif k == "exchange_rate":
            out.append(["trade", e.rate])
        elif k == "bounce":
            out.append(["defence", e.amount])
        elif k == "unit_bonus":
            out.append(["upgrade", e.steal_add + e.destroy_add + len(e.blocks_add)])
        else:  # discount, extra_draw, building_slots, free_population, free_tech, steals
            out.append([_FX.get(k, k), e.amount or e.slots])
    return out


#: an effect keyword (C52) -> its symbol, where they differ
_FX = {
    "discount": "discount",
    "extra_draw": "draw",
    "building_slots": "slot",
    "free_population": "population",
    "free_tech": "tech",
    "steal_card": "steal_card",
    "steal_resources": "steal",
}


# -- the view -----------------------------------------------------------------------------------


def _counts(codes: Sequence[str]) -> list[tuple[str, int]]:
    out: dict[str, int] = {}
    for c in codes:
        out[c] = out.get(c, 0) + 1
    return sorted(out.items())


def _status(obs: Observation, names: Sequence[str], lang: str) -> dict[str, Any]:
    """Who holds Highest Culture and Highest Happiness, and why (C49, C50, RU19)."""
    out: dict[str, Any] = {}
    for key, idx, minimum in (("culture", 0, _CULTURE_MIN), ("happiness", 1, _HAPPY_MIN)):
        vals = [pv.culture if key == "culture" else pv.happiness for pv in obs.seats]
        holder = obs.status[idx]
        best = max(vals)
        if holder is not None:
            second = max((v for s, v in enumerate(vals) if s != holder), default=0)
            why = t(
                lang,
                f"ccg.web.{key}_held",
                name=names[holder],
                n=vals[holder],
                m=second,
                min=minimum,
            )
        elif best < minimum:
            why = t(lang, f"ccg.web.{key}_low", n=best, min=minimum)
        else:
            tied = ", ".join(names[s] for s, v in enumerate(vals) if v == best)
            why = t(lang, f"ccg.web.{key}_tied", names=tied, n=best)
        out[key] = {"holder": holder, "why": why, "effect": t(lang, f"ccg.web.{key}_effect")}
    return out


def _empire(obs: Observation, s: int, lang: str) -> dict[str, Any]:
    pv = obs.seats[s]
    costs = Costs(obs, s)
    plots = []
    for i, (code, pop, on) in enumerate(pv.plots):
        plots.append(
            {
                "n": i + 1,
                **card_view(code, lang, _set(obs)),
                "pop": pop,
                "cards": [card_view(c, lang, _set(obs)) for c in on],
                "free": costs.free_slots(i),
                "pop_cost": costs.pop(i),
            }
        )
    vp, techs, pop, wonders = pv.score
    return {
        "seat": s,
        "plots": plots,
        "techs": [card_view(c, lang, _set(obs)) for c in pv.techs],
        "supply": list(pv.supply),
        "hand": len(pv.hand) if isinstance(pv.hand, tuple) else pv.hand,
        "culture": pv.culture,
        "happiness": pv.happiness,
        "vp": vp,
        "tiebreak": {"techs": techs, "pop": pop, "wonders": wonders},
    }


#: the most moves :func:`_ending` applies to copies (a decision's top-level choices, then the
#: choices one step below them)
ENDING_BUDGET = 256


def _ending(g: GameState, seat: int) -> dict[str, dict[str, int]]:
    """The seat's moves that end the game (C68) with the seat not among the winners, each
    found by the engine: the move applied to a copy. Of each: the seat's victory points
    after it, the leader's and who leads. Whether a move ends the game and the scores after
    it are public (the piles' sizes, the empires: C72), so the view tells nothing hidden."""
    out: dict[str, dict[str, int]] = {}
    budget = ENDING_BUDGET
    top = civ4.choices(g)
    levels = [c for c in top if c.final]
    for c in top:
        if not c.final:
            levels += civ4.expand(g, c.text)
            if len(levels) >= budget:
                break
    for c in levels[:budget]:
        if not c.final or c.move is None:
            continue
        cp = g.copy()
        cp.apply_unchecked(c.move, c.text)
        if not cp.finished or seat in cp.winners:
            continue
        scores = cp.scores
        leader = max((s for s in range(cp.n) if s != seat), key=lambda s: scores[s])
        out[c.text] = {"you": scores[seat][0], "best": scores[leader][0], "leader": leader}
    return out


def _missing(g: GameState, seat: int, options: set[str], lang: str) -> dict[str, str]:
    """Why a purchase the table offers by a card or a plot is missing now, in words: the
    engine's price against the seat's own supply (C27), an empty population supply (C34),
    no room on any plot (C18). Keys: ``pop-N``, ``tech-CODE``, ``plot-CODE``, ``build-CODE``."""
    sup = g.supply[seat]
    out: dict[str, str] = {}
    plots = g.plots[seat]
    for n in range(1, len(plots) + 1):
        if f"pop p{n}" in options:
            continue
        if g.pop_supply <= 0:
            out[f"pop-{n}"] = t(lang, "ccg.why.pop_supply")
        elif (cost := g.pop_cost(seat, n)) > sup[0]:
            out[f"pop-{n}"] = t(lang, "ccg.why.pop_cost", cost=cost, have=sup[0])
    for code in g.tech_market:
        cost = g.card_cost(seat, code)
        if f"tech {code}" not in options and cost > sup[2]:
            out[f"tech-{code}"] = t(lang, "ccg.why.tech_cost", cost=cost, have=sup[2])
    cost = g.plot_cost(seat)
    for code in g.plot_market:
        if not any(o.startswith(f"plot {code} ") for o in options) and cost > sum(sup):
            out[f"plot-{code}"] = t(lang, "ccg.why.plot_cost", cost=cost, have=sum(sup))
    for code in sorted(set(g.hand(seat))):
        if g.cs.deck[code].kind == "unit" or any(o.startswith(f"build {code} ") for o in options):
            continue
        cost = g.card_cost(seat, code)
        if cost > sup[1]:
            out[f"build-{code}"] = t(lang, "ccg.why.build_cost", cost=cost, have=sup[1])
        elif not any(
            code not in on and len(on) < g.slots(seat, n + 1) for n, (_, _, on) in enumerate(plots)
        ):
            out[f"build-{code}"] = t(lang, "ccg.why.build_room")
    return out


def _defence_damage(g: GameState, d: int) -> dict[str, list[int]]:
    """C45: what each defence of ``d`` lets the attack take (population, buildings), the
    engine's: every defence applied to a copy (a handful of moves; none past 512)."""
    moves = g.legal_strings()
    out: dict[str, list[int]] = {}
    if len(moves) > 512:
        return out
    for m in moves:
        cp = g.copy()
        cp.apply(m)
        steal, destroy = cp.damage_amounts(d) if cp.combat is not None else (0, 0)
        plots = cp.plots[d]
        built = sum(1 for _, _, on in plots for c in on if cp.cs.deck[c].kind == "building")
        out[m] = [min(steal, sum(p[1] for p in plots)), min(destroy, built)]
    return out


def _decision(
    g: GameState, obs: Observation, seat: int, options: set[str], lang: str = "en"
) -> dict[str, Any]:
    """What the table needs to compose the viewer's move by pointing (viewer to move only):
    also the moves that would end the game with the viewer behind (``ending``), why a
    purchase is missing (``why``) and the damage of each defence (``damage``)."""
    step = g.step
    out: dict[str, Any] = {"step": step, "ending": _ending(g, seat)}
    if step != "purchase":
        with suppress(ValueError):
            out["default"] = civ4.default_move(g)
    if step == "collect":
        out["plots"] = [{"n": n, "letters": letters} for n, letters in g.collect_options(seat)]
    elif step in ("start_discard", "discard"):
        out["k"] = g.discard_n
    elif step == "purchase":
        out["plot_cost"] = g.plot_cost(seat)
        pays = {}
        for code in g.plot_market:
            if f"plot {code} ?" in options:
                with suppress(ValueError):
                    pays[code] = civ4.default_move(g, f"plot {code} ?").split()[-1]
        out["plot_pay"] = pays
        out["why"] = _missing(g, seat, options, lang)
        if "attack ?" in options:
            out["attack"] = {
                "units": [list(u) for u in g.attack_units(seat)],
                "adjacent": g.adjacent(seat),
            }
    elif step in ("defend", "damage") and g.combat is not None:
        c = g.combat
        d = c.defenders[c.idx]
        attackers = c.assigned(d)
        if step == "defend":
            hand = g.hand(d)
            out["attackers"] = attackers
            out["units"] = [
                list(x) for x in _counts([u for u in hand if CARDS.deck[u].kind == "unit"])
            ]
            out["blockers"] = {
                a: sorted({b for b in hand if g.blockable(d, b, a)}) for a in sorted(set(attackers))
            }
            out["damage"] = _defence_damage(g, d)
        else:
            steal, destroy = g.damage_amounts(d)
            plots = g.plots[d]
            out["steal"] = min(steal, sum(p[1] for p in plots))
            buildings = [
                [i + 1, code]
                for i, (_, _, on) in enumerate(plots)
                for code in on
                if CARDS.deck[code].kind == "building"
            ]
            out["destroy"] = min(destroy, len(buildings))
            out["buildings"] = buildings
    elif step == "place" and g.combat is not None:
        out["k"] = g.combat.stolen
    return out


def web_view(
    state: GameState,
    seat: int | None,
    names: Sequence[str],
    lang: str = "en",
    obs: Observation | None = None,
) -> dict[str, Any]:
    """The civ4 table's board for ``seat`` (None: a spectator), in ``lang``. ``obs``:
    ``seat``'s observation, if the caller has it (else it is built here)."""
    lang = normalize_lang(lang)
    names = list(names) + [str(i + 1) for i in range(len(names), state.n)]
    key = tuple(names)
    if obs is None:
        obs = observe(state, seat)
    who = movers(state)
    out: dict[str, Any] = {
        "log": [
            {"seat": s, "text": text, "words": _words(lang, text, key)}
            for s, text in zip(who, obs.history, strict=False)
        ],
        "reconstructed": reconstructed(lang, state.cs.set_name),
        "round": obs.round,
        "step": obs.step,
        "step_name": step_name(obs.step, lang),
        "active": obs.active,
        "to_move": obs.to_move,
        "seats": [_empire(obs, s, lang) for s in range(obs.players)],
        "status": _status(obs, names, lang),
        "piles": {
            "plots": obs.plot_pile,
            "techs": obs.tech_pile,
            "era": ERAS.get(obs.tech_top_era or 0),
            "deck": obs.deck,
            "discard": len(obs.discard),
            "population": obs.population_supply,
        },
        "discard": [{**card_view(c, lang, _set(obs)), "count": k} for c, k in _counts(obs.discard)],
        "draft": None
        if obs.draft is None
        else [card_view(c, lang, _set(obs)) for c in obs.draft[1]],
        "used": [card_name(c, lang) for c in obs.used],
        "options": [{"name": k, "value": v} for k, v in obs.options if v],
        "steals": [
            {"thief": th, "victim": v, "card": card_name(c, lang)}
            for _, th, v, c in obs.known_steals
        ],
    }
    viewer = Costs(obs, seat) if seat is not None else None
    out["plot_market"] = [
        {**card_view(c, lang, _set(obs)), "cost": viewer.plot() if viewer else None}
        for c in obs.plot_market
    ]
    out["tech_market"] = [
        {**card_view(c, lang, _set(obs)), "now": viewer.card(c) if viewer else None}
        for c in obs.tech_market
    ]
    if seat is not None and viewer is not None:
        hand = obs.hand or ()
        out["hand"] = [
            {
                **card_view(c, lang, _set(obs)),
                "count": k,
                "now": viewer.card(c) if CARDS.deck[c].kind != "unit" else None,
            }
            for c, k in _counts(hand)
        ]
    c = obs.combat
    out["combat"] = (
        None
        if c is None
        else {
            "attacker": c.attacker,
            "defenders": list(c.defenders),
            "units": [
                {
                    **card_view(u, lang, _set(obs)),  # its face's data (code, name, help…)
                    "defender": d,
                    "state": st,
                    "state_name": t(lang, f"ccg.unit_state.{st}"),
                }
                for u, d, st in c.units
            ],
            "blocks": [
                {
                    "defender": d,
                    "blocker": card_name(b, lang),
                    "attacker": card_name(a, lang),
                    "blocker_help": card_view(b, lang, _set(obs))["help"],
                    "attacker_help": card_view(a, lang, _set(obs))["help"],
                }
                for d, b, a in c.blocks
            ],
            "stolen": c.stolen,
        }
    )
    if seat is not None and obs.to_move == seat and not obs.finished:
        opts = {ch.text for ch in civ4.choices(state)}
        out["decide"] = _decision(state, obs, seat, opts, lang)
    # who leads now, from this seat's own view (C72: the empires are public)
    out["standing"] = standing(obs, names, lang)
    if state.finished:
        out["result"] = {
            "why": winners_text(state, names, lang),
            "tiebreak": t(lang, "ccg.result.tiebreak"),
            # once the game is over every hand is public: the end screen shows them all
            "hands": [
                {"seat": s, "words": cards_text(state.hand(s), lang) or "—"} for s in range(state.n)
            ],
        }
    return out


__all__ = ["card_view", "effect_symbols", "movers", "web_view"]
