"""What one seat may know (C72), as a frozen value.

``observe(state, seat)`` copies only public information and that seat's own
hand; a spectator (``seat=None``) sees no hand. Pile orders, removed
technologies and other hands never enter an :class:`Observation`; a card
taken by a ``steal_card`` ability appears only in the observations of thief
and victim (``known_steals``).

>>> from civcards.civ4.game import new_game
>>> g = new_game(2, seed=3)
>>> obs = observe(g, 1)
>>> obs.to_json()["players"][0]["hand"]
0
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import res_str
from .game import GameState
from .options import Options
from .state import listed

PlotView = tuple[str, int, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's empire and supply, its hand (a list for its owner, else its size)."""

    plots: tuple[PlotView, ...]
    supply: tuple[int, int, int]
    hand: tuple[str, ...] | int
    techs: tuple[str, ...]
    culture: int
    happiness: int
    score: tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class CombatView:
    """The public state of a combat (NOTATION.md, ``combat``), already in canonical order."""

    attacker: int
    defenders: tuple[int, ...]
    units: tuple[tuple[str, int, str], ...]
    blocks: tuple[tuple[int, str, str], ...]
    stolen: int


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything ``seat`` may know of a position (C72); ``seat`` None is a spectator."""

    seat: int | None
    players: int
    options: tuple[tuple[str, bool | int | str], ...]
    finished: bool
    winners: tuple[int, ...]
    reason: str | None
    round: int
    active: int | None
    to_move: int | None
    step: str
    draft: tuple[int, tuple[str, ...]] | None
    plot_pile: int
    plot_market: tuple[str, ...]
    tech_pile: int
    tech_top_era: int | None
    tech_market: tuple[str, ...]
    deck: int
    discard: tuple[str, ...]
    population_supply: int
    status: tuple[int | None, int | None]
    seats: tuple[PlayerView, ...]
    used: tuple[str, ...]
    combat: CombatView | None
    history: tuple[str, ...]
    known_steals: tuple[tuple[int, int, int, str], ...]

    @property
    def hand(self) -> tuple[str, ...] | None:
        """The observing seat's own hand (None for a spectator)."""
        if self.seat is None:
            return None
        h = self.seats[self.seat].hand
        assert isinstance(h, tuple)
        return h

    def to_json(self) -> dict[str, Any]:
        """The position JSON of NOTATION.md as this seat may see it (clarification 24),
        without ``ok``/``error``/``move_index``/``legal``; plus ``seat``, ``history`` and
        ``known_steals`` (``[move index, thief, victim, card]``)."""
        c = self.combat
        return {
            "finished": self.finished,
            "winners": list(self.winners),
            "reason": self.reason,
            "round": self.round,
            "active": self.active,
            "to_move": self.to_move,
            "step": self.step,
            "draft": None if self.draft is None else {"round": self.draft[0], "revealed": list(self.draft[1])},
            "plot_pile": self.plot_pile,
            "plot_market": list(self.plot_market),
            "tech_pile": self.tech_pile,
            "tech_top_era": self.tech_top_era,
            "tech_market": list(self.tech_market),
            "deck": self.deck,
            "discard": list(self.discard),
            "population_supply": self.population_supply,
            "status": {"culture": self.status[0], "happiness": self.status[1]},
            "players": [
                {
                    "plots": [{"code": code, "pop": pop, "cards": list(on)} for code, pop, on in pv.plots],
                    "supply": res_str(pv.supply),
                    "hand": pv.hand if isinstance(pv.hand, int) else list(pv.hand),
                    "techs": list(pv.techs),
                    "culture": pv.culture,
                    "happiness": pv.happiness,
                    "score": list(pv.score),
                }
                for pv in self.seats
            ],
            "used": list(self.used),
            "combat": None
            if c is None
            else {
                "attacker": c.attacker,
                "defenders": list(c.defenders),
                "units": [{"code": u, "defender": d, "state": s} for u, d, s in c.units],
                "blocks": [{"defender": d, "blocker": b, "attacker": a} for d, b, a in c.blocks],
                "stolen": c.stolen,
            },
            "seat": self.seat,
            "history": list(self.history),
            "known_steals": [list(s) for s in self.known_steals],
        }


def combat_view(g: GameState) -> CombatView | None:
    """The combat in NOTATION.md's order (clarifications 17, 18)."""
    c = g.combat
    if c is None:
        return None
    order = {d: i for i, d in enumerate(c.defenders)}
    units = tuple(sorted(((u[0], u[1], u[2]) for u in c.units), key=lambda u: (order[u[1]], u[0], u[2])))
    blocks = tuple(sorted(c.blocks, key=lambda b: (order[b[0]], b[2], b[1])))
    return CombatView(c.attacker, tuple(c.defenders), units, blocks, c.stolen)


#: the options as an observation shows them (``Options.to_dict``'s items), by the id of
#: the (frozen) options object, kept beside it so that its id stays its own
_OPTION_ITEMS: dict[int, tuple[Options, tuple[tuple[str, bool | int | str], ...]]] = {}
#: a count vector's cards (:func:`~civcards.civ4.state.listed`) as a tuple, by the counts
_LISTED: dict[tuple[int, ...], tuple[str, ...]] = {}
#: the most entries either table keeps (all are dropped when it is reached)
_TABLE_MAX = 4096


def _option_items(options: Options) -> tuple[tuple[str, bool | int | str], ...]:
    got = _OPTION_ITEMS.get(id(options))
    if got is None or got[0] is not options:
        if len(_OPTION_ITEMS) >= _TABLE_MAX:
            _OPTION_ITEMS.clear()
        got = _OPTION_ITEMS[id(options)] = (options, tuple(options.to_dict().items()))
    return got[1]


def _listed(counts: list[int]) -> tuple[str, ...]:
    key = tuple(counts)
    got = _LISTED.get(key)
    if got is None:
        if len(_LISTED) >= _TABLE_MAX:
            _LISTED.clear()
        got = _LISTED[key] = tuple(listed(counts))
    return got


def observe(g: GameState, seat: int | None) -> Observation:
    """What ``seat`` may know now (C72); ``seat=None`` is a spectator."""
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < g.n):
        raise ValueError(f"seat must be 0…{g.n - 1} or None, not {seat!r}")
    seats = []
    hands = g.hands
    plots = g.plots
    supply = g.supply
    techs = g.techs
    fxs = g.every_fx()  # each seat's culture and happiness (C49, C50)
    for s in range(g.n):
        hand: tuple[str, ...] | int = _listed(hands[s]) if s == seat else sum(hands[s])
        fx = fxs[s]
        sc = g.score(s)
        sup = supply[s]
        seats.append(
            PlayerView(
                tuple(plots[s]),
                (sup[0], sup[1], sup[2]),
                hand,
                tuple(techs[s]),
                fx.culture,
                fx.happiness,
                (sc[0], sc[1], sc[2], sc[3]),
            )
        )
    over = g.finished
    draft = (g.draft_round, tuple(g.draft_revealed)) if g.step == "draft" else None
    steals = tuple(st for st in g.steals if seat is not None and seat in (st[1], st[2]))
    return Observation(
        seat=seat,
        players=g.n,
        options=_option_items(g.options),
        finished=over,
        winners=tuple(g.winners),
        reason=g.reason,
        round=g.round,
        active=g.active,
        to_move=g.to_move,
        step=g.step,
        draft=draft,
        plot_pile=g.plot_pile_size,
        plot_market=tuple(g.plot_market),
        tech_pile=g.tech_pile_size,
        tech_top_era=g.tech_top_era,
        tech_market=tuple(g.tech_market),
        deck=g.deck_size,
        discard=_listed(g.discard),
        population_supply=g.pop_supply,
        status=(g.highest_culture(), g.highest_happiness()),
        seats=tuple(seats),
        used=() if over else tuple(g.used),
        combat=combat_view(g),
        history=tuple(g.moves),
        known_steals=steals,
    )
