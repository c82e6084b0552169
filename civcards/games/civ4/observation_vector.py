"""civ4's observation vector: the fixed-size float tensor a seat sees, and its text.

:func:`encode_observation` writes a fixed-size float vector (:data:`OBS_SIZE`)
from :func:`civcards.civ4.observe` — what C72 lets the seat know, nothing
else — plus the tokens the seat itself has chosen in the move it is making
(the action tokens of :mod:`.encoding`). :func:`encode` writes the same vector from the
state directly (faster; the tests check both agree). Seats are relative to the observer,
padded to four; :data:`OBS_LAYOUT` names the blocks. :func:`describe` is the text of what
a seat sees.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Protocol

import numpy as np
import numpy.typing as npt

from ...civ4 import CARDS, DECK_CODES, OPTIONS, GameState, observe
from ...civ4.cards import PLOT_CODES, TECH_CODES, UNIT_CODES
from ...civ4.observation import Observation
from .tokens import ACTIONS, BUILDABLE, MAX_SEATS, NUM_ACTIONS, STEAL_CODES, res_str


class Table(Protocol):
    """What the vector reads of an action table (:class:`.encoding.Table`): the game, and
    the tokens spelled so far of the move being made."""

    @property
    def g(self) -> GameState: ...

    @property
    def prefix(self) -> list[int]: ...


STEPS: Final = (
    "draft",
    "settle",
    "start_discard",
    "collect",
    "purchase",
    "walls",
    "defend",
    "damage",
    "place",
    "discard",
    "over",
)
UNIT_STATES: Final = ("assigned", "broke_walls", "bounced", "blocked", "done")
#: plots per empire the vector shows (later plots are left out)
MAX_PLOTS: Final = 16
_BOOL_OPTIONS: Final = tuple(o.name for o in OPTIONS if o.type == "bool")
_ATTACKERS: Final = tuple(c for c in UNIT_CODES if CARDS.deck[c].attack)
_PLOT_SLOT: Final = len(PLOT_CODES) + 1 + len(BUILDABLE)
_SEAT_BLOCK: Final = (
    1 + 3 + 1 + len(TECH_CODES) + 1 + 1 + 4 + 1 + MAX_PLOTS * _PLOT_SLOT + len(DECK_CODES)
)

#: (name, size, meaning) of each block of the observation vector, in order.
OBS_LAYOUT: Final[tuple[tuple[str, int, str], ...]] = (
    ("players", 3, "one-hot: 2, 3 or 4 players"),
    ("options", len(_BOOL_OPTIONS) + 2, "the yes/no variants, then hand_limit set and its value"),
    ("step", len(STEPS), "one-hot step: " + ", ".join(STEPS)),
    ("to_move", 4, "one-hot relative seat to move (all 0 when over)"),
    ("active", 4, "one-hot relative seat whose turn it is"),
    ("round", 1, "the round (C69)"),
    ("draft", 1 + len(PLOT_CODES), "draft round, then the revealed plots by code (C11)"),
    ("plot_pile", 1, "cards left in the plot pile"),
    ("plot_market", len(PLOT_CODES), "the plot market by code"),
    ("tech_pile", 1, "cards left in the technology pile"),
    ("tech_top_era", 4, "one-hot era of the tech pile's top card: 1, 2, 3, empty"),
    ("tech_market", len(TECH_CODES), "the technology market by code"),
    ("deck", 1, "cards left in the game deck"),
    ("discard", len(DECK_CODES), "the discard pile by deck code"),
    ("population_supply", 1, "population left in the supply"),
    ("status", 10, "Highest Culture, Highest Happiness: one-hot relative holder or none (5 each)"),
    (
        "used",
        len(STEAL_CODES),
        "abilities used this turn, by code (" + ", ".join(STEAL_CODES) + ")",
    ),
    ("combat", 1 + 4 + 4, "a combat is on; one-hot relative attacker; relative defenders"),
    (
        "combat_units",
        4 * len(_ATTACKERS) * len(UNIT_STATES),
        "units by relative defender x code ("
        + ", ".join(_ATTACKERS)
        + ") x state ("
        + ", ".join(UNIT_STATES)
        + ")",
    ),
    (
        "combat_blocks",
        4 * len(UNIT_CODES) * len(UNIT_CODES),
        "blocks by relative defender x blocker x attacker (unit codes)",
    ),
    ("combat_stolen", 1, "population stolen so far in the combat"),
    (
        "seats",
        MAX_SEATS * _SEAT_BLOCK,
        f"4 relative seats x {_SEAT_BLOCK}: present, supply F H C, hand size, technologies, "
        f"culture, happiness, score (VP, techs, population, wonders), plot count, "
        f"{MAX_PLOTS} plots x (code one-hot, population, buildings and wonders on it), "
        "cards that seat took from the observer (Writing, known_steals)",
    ),
    ("hand", len(DECK_CODES), "own hand by deck code"),
    ("spelled", NUM_ACTIONS, "the tokens the observer has chosen in the move it is making"),
    ("finished", 1, "1 when the game is over"),
    ("winners", 4, "1 for each winning relative seat"),
)
OBS_OFFSETS: Final[dict[str, int]] = {}
_o = 0
for _name, _size, _ in OBS_LAYOUT:
    OBS_OFFSETS[_name] = _o
    _o += _size
OBS_SIZE: Final = _o
#: an upper bound of every entry (larger counts are clipped to it)
OBS_HIGH: Final = 1000.0

_DI: Final = {c: i for i, c in enumerate(DECK_CODES)}
_TI: Final = {c: i for i, c in enumerate(TECH_CODES)}
_PI: Final = {c: i for i, c in enumerate(PLOT_CODES)}
_BI: Final = {c: i for i, c in enumerate(BUILDABLE)}
_UI: Final = {c: i for i, c in enumerate(UNIT_CODES)}
_AI: Final = {c: i for i, c in enumerate(_ATTACKERS)}
_SI: Final = {c: i for i, c in enumerate(STEPS)}


def _put_plots(
    v: npt.NDArray[np.float32], base: int, plots: Sequence[tuple[str, int, Sequence[str]]]
) -> None:
    """A seat's plots from ``v[base]`` on: each plot's code (one-hot), population, and the
    buildings and wonders on it (the first :data:`MAX_PLOTS`)."""
    for j, (code, pop, on) in enumerate(plots[:MAX_PLOTS]):
        ps = base + j * _PLOT_SLOT
        v[ps + _PI[code]] = 1
        v[ps + len(PLOT_CODES)] = pop
        for c in on:
            v[ps + len(PLOT_CODES) + 1 + _BI[c]] += 1


def encode_observation(
    table: Table, seat: int | None, obs: Observation | None = None
) -> npt.NDArray[np.float32]:
    """The observation vector of ``seat`` (None: a spectator), from ``observe(state, seat)``
    alone, and the tokens ``seat`` has spelled of its own move."""
    g = table.g
    o = obs if obs is not None else observe(g, seat)
    n = o.players
    me = 0 if seat is None else seat
    v = np.zeros(OBS_SIZE, dtype=np.float32)
    at = OBS_OFFSETS

    def rel(s: int) -> int:
        return (s - me) % n

    v[at["players"] + n - 2] = 1
    opts = dict(o.options)
    for i, name in enumerate(_BOOL_OPTIONS):
        v[at["options"] + i] = bool(opts.get(name))
    limit = opts.get("hand_limit")
    if limit is not None:
        v[at["options"] + len(_BOOL_OPTIONS)] = 1
        v[at["options"] + len(_BOOL_OPTIONS) + 1] = float(limit)
    v[at["step"] + _SI[o.step]] = 1
    if o.to_move is not None:
        v[at["to_move"] + rel(o.to_move)] = 1
    if o.active is not None:
        v[at["active"] + rel(o.active)] = 1
    v[at["round"]] = o.round
    if o.draft is not None:
        v[at["draft"]] = o.draft[0]
        for c in o.draft[1]:
            v[at["draft"] + 1 + _PI[c]] += 1
    v[at["plot_pile"]] = o.plot_pile
    for c in o.plot_market:
        v[at["plot_market"] + _PI[c]] += 1
    v[at["tech_pile"]] = o.tech_pile
    v[at["tech_top_era"] + (3 if o.tech_top_era is None else o.tech_top_era - 1)] = 1
    for c in o.tech_market:
        v[at["tech_market"] + _TI[c]] += 1
    v[at["deck"]] = o.deck
    for c in o.discard:
        v[at["discard"] + _DI[c]] += 1
    v[at["population_supply"]] = o.population_supply
    for k, holder in enumerate(o.status):
        v[at["status"] + 5 * k + (4 if holder is None else rel(holder))] = 1
    for c in o.used:
        if c in STEAL_CODES:
            v[at["used"] + STEAL_CODES.index(c)] += 1
    cv = o.combat
    if cv is not None:
        v[at["combat"]] = 1
        v[at["combat"] + 1 + rel(cv.attacker)] = 1
        for d in cv.defenders:
            v[at["combat"] + 5 + rel(d)] = 1
        nu, ns = len(_ATTACKERS), len(UNIT_STATES)
        for code, d, st in cv.units:
            if code in _AI:
                v[at["combat_units"] + (rel(d) * nu + _AI[code]) * ns + UNIT_STATES.index(st)] += 1
        nc = len(UNIT_CODES)
        for d, blocker, a in cv.blocks:
            v[at["combat_blocks"] + (rel(d) * nc + _UI[blocker]) * nc + _UI[a]] += 1
        v[at["combat_stolen"]] = cv.stolen
    for s, pv in enumerate(o.seats):
        b = at["seats"] + rel(s) * _SEAT_BLOCK
        v[b] = 1
        v[b + 1 : b + 4] = pv.supply
        v[b + 4] = pv.hand if isinstance(pv.hand, int) else len(pv.hand)
        for c in pv.techs:
            v[b + 5 + _TI[c]] = 1
        b2 = b + 5 + len(TECH_CODES)
        v[b2] = pv.culture
        v[b2 + 1] = pv.happiness
        v[b2 + 2 : b2 + 6] = pv.score
        v[b2 + 6] = len(pv.plots)
        _put_plots(v, b2 + 7, pv.plots)
    if seat is not None:
        for _i, thief, victim, card in o.known_steals:
            if victim == seat and thief != seat:
                b = at["seats"] + rel(thief) * _SEAT_BLOCK + _SEAT_BLOCK - len(DECK_CODES)
                v[b + _DI[card]] += 1
        for c in o.hand or ():
            v[at["hand"] + _DI[c]] += 1
        if g.to_move == seat:
            for tok in table.prefix:
                v[at["spelled"] + tok] += 1
    if o.finished:
        v[at["finished"]] = 1
        for w in o.winners:
            v[at["winners"] + rel(w)] = 1
    np.minimum(v, OBS_HIGH, out=v)
    return v


def encode(table: Table, seat: int | None) -> npt.NDArray[np.float32]:
    """:func:`encode_observation`, read from the state directly (no :class:`Observation` is
    built): exactly the fields ``observe(state, seat)`` copies (the tests check both agree)."""
    g = table.g
    n = g.n
    me = 0 if seat is None else seat
    v = np.zeros(OBS_SIZE, dtype=np.float32)
    at = OBS_OFFSETS
    v[at["players"] + n - 2] = 1
    opts = g.options
    o0 = at["options"]
    for i, name in enumerate(_BOOL_OPTIONS):
        v[o0 + i] = bool(getattr(opts, name))
    limit = opts.hand_limit
    if limit is not None:
        v[o0 + len(_BOOL_OPTIONS)] = 1
        v[o0 + len(_BOOL_OPTIONS) + 1] = float(limit)
    step = g.step
    v[at["step"] + _SI[step]] = 1
    if g.to_move is not None:
        v[at["to_move"] + (g.to_move - me) % n] = 1
    if g.active is not None:
        v[at["active"] + (g.active - me) % n] = 1
    v[at["round"]] = g.round
    if step == "draft":
        v[at["draft"]] = g.draft_round
        for c in g.draft_revealed:
            v[at["draft"] + 1 + _PI[c]] += 1
    v[at["plot_pile"]] = g.plot_pile_size
    for c in g.plot_market:
        v[at["plot_market"] + _PI[c]] += 1
    v[at["tech_pile"]] = g.tech_pile_size
    era = g.tech_top_era
    v[at["tech_top_era"] + (3 if era is None else era - 1)] = 1
    for c in g.tech_market:
        v[at["tech_market"] + _TI[c]] += 1
    v[at["deck"]] = g.deck_size
    v[at["discard"] : at["discard"] + len(DECK_CODES)] = g.discard
    v[at["population_supply"]] = g.pop_supply
    for k, holder in enumerate((g.highest_culture(), g.highest_happiness())):
        v[at["status"] + 5 * k + (4 if holder is None else (holder - me) % n)] = 1
    over = g.finished
    if not over:
        for c in g.used:
            if c in STEAL_CODES:
                v[at["used"] + STEAL_CODES.index(c)] += 1
    cb = g.combat
    if cb is not None:
        v[at["combat"]] = 1
        v[at["combat"] + 1 + (cb.attacker - me) % n] = 1
        for d in cb.defenders:
            v[at["combat"] + 5 + (d - me) % n] = 1
        nu, ns = len(_ATTACKERS), len(UNIT_STATES)
        for code, d, st in cb.units:
            if code in _AI:
                r = (d - me) % n
                v[at["combat_units"] + (r * nu + _AI[code]) * ns + UNIT_STATES.index(st)] += 1
        nc = len(UNIT_CODES)
        for d, blocker, a in cb.blocks:
            v[at["combat_blocks"] + (((d - me) % n) * nc + _UI[blocker]) * nc + _UI[a]] += 1
        v[at["combat_stolen"]] = cb.stolen
    nt = len(TECH_CODES)
    for s in range(n):
        b = at["seats"] + ((s - me) % n) * _SEAT_BLOCK
        v[b] = 1
        v[b + 1 : b + 4] = g.supply[s]
        v[b + 4] = sum(g.hands[s])
        for c in g.techs[s]:
            v[b + 5 + _TI[c]] = 1
        b2 = b + 5 + nt
        v[b2] = g.culture(s)
        v[b2 + 1] = g.happiness(s)
        v[b2 + 2 : b2 + 6] = g.score(s)
        plots = g.plots[s]
        v[b2 + 6] = len(plots)
        _put_plots(v, b2 + 7, plots)
    if seat is not None:
        for _i, thief, victim, card in g.steals:
            if victim == seat and thief != seat:
                b = at["seats"] + ((thief - me) % n) * _SEAT_BLOCK + _SEAT_BLOCK - len(DECK_CODES)
                v[b + _DI[card]] += 1
        v[at["hand"] : at["hand"] + len(DECK_CODES)] = g.hands[seat]
        if g.to_move == seat:
            for tok in table.prefix:
                v[at["spelled"] + tok] += 1
    if over:
        v[at["finished"]] = 1
        for w in g.winners:
            v[at["winners"] + (w - me) % n] = 1
    np.minimum(v, OBS_HIGH, out=v)
    return v


def describe(table: Table, seat: int | None) -> str:
    """A short text of what ``seat`` sees (None: a spectator): observation strings, ``render``."""
    o = observe(table.g, seat)
    lines = [
        f"{o.players} players; round {o.round}, step {o.step}, to move: {o.to_move}; "
        f"plots {o.plot_pile} market [{' '.join(o.plot_market)}]; techs {o.tech_pile} "
        f"market [{' '.join(o.tech_market)}]; deck {o.deck}; population {o.population_supply}",
    ]
    for s, pv in enumerate(o.seats):
        mark = "*" if s == o.to_move else " "
        hand = ",".join(pv.hand) if isinstance(pv.hand, tuple) else "?" * pv.hand
        plots = " ".join(
            f"{code}{pop}" + (f"[{','.join(on)}]" if on else "") for code, pop, on in pv.plots
        )
        lines.append(
            f"{mark} seat {s}: VP {pv.score[0]} supply {res_str(pv.supply)} "
            f"techs [{','.join(pv.techs)}] plots {plots} hand [{hand}]"
        )
    if o.discard:
        lines.append(f"discard [{','.join(o.discard)}]")
    if o.combat is not None:
        c = o.combat
        lines.append(f"combat: {c.attacker} attacks {list(c.defenders)}, stolen {c.stolen}")
    if seat is not None and seat == table.g.to_move and table.prefix:
        lines.append("spelling: " + " ".join(ACTIONS[a] for a in table.prefix))
    if o.finished:
        lines.append(f"over: winners {list(o.winners)} ({o.reason})")
    return "\n".join(lines)
