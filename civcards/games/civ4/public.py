"""What any interface may show of a civ4 position beyond the observation, from public
facts only (C72): a seat's prices and building room, and who made each move.

Used by the terminal screen (:mod:`.screen`) and the web view (:mod:`.web`); it
imports neither Rich nor the web framework.
"""

from __future__ import annotations

from collections import OrderedDict

from ... import civ4
from ...civ4 import GameState, Observation
from ...civ4.cards import DeckCard, TechCard, card_set_of


class Costs:
    """A seat's prices and building room, worked out from an observation (C18, C26, C50)."""

    def __init__(self, obs: Observation, seat: int) -> None:
        pv = obs.seats[seat]
        self.pv = pv
        #: the game's card set (the ``cards`` option; the original when none is named)
        self.cs = cs = card_set_of(dict(obs.options))
        self.disc = {"population": 0, "plot": 0, "tech": 0, "building": 0, "wonder": 0}
        self.slots = 1
        cards: list[TechCard | DeckCard] = [cs.techs[c] for c in pv.techs]
        cards += [cs.deck[c] for _, _, on in pv.plots for c in on]
        for card in cards:
            for e in card.effects:
                if e.kind == "discount":
                    self.disc[e.target] += e.amount
                elif e.kind == "building_slots":
                    self.slots = max(self.slots, e.slots)
        self.happy = obs.status[1] == seat
        self.happy_not_wonders = bool(dict(obs.options).get("happiness_not_wonders", False))

    def plot(self) -> int:
        """The price of the seat's next plot (C26)."""
        n = len(self.pv.plots)
        cs = self.cs
        return max(cs.min_cost, cs.plot_cost_base + cs.plot_cost_step * (n - cs.plot_cost_pivot) - self.disc["plot"])

    def pop(self, plot: int) -> int:
        """The price of a population on the seat's plot at index ``plot`` (C26)."""
        pop = self.pv.plots[plot][1]
        cs = self.cs
        return max(cs.min_cost, cs.pop_cost_base + cs.pop_cost_step * pop - self.disc["population"])

    def card(self, code: str) -> int:
        """The price of a technology, building or wonder for the seat (C26, C50)."""
        cs = self.cs
        card: TechCard | DeckCard = cs.techs[code] if code in cs.techs else cs.deck[code]
        c = card.cost - self.disc[card.kind]
        if self.happy and not (card.kind == "wonder" and self.happy_not_wonders):
            c -= cs.happiness_discount
        return max(cs.min_cost, c)

    def free_slots(self, plot: int) -> int:
        """Room left for buildings and wonders on the plot at index ``plot`` (C18)."""
        _, pop, on = self.pv.plots[plot]
        room = min(max(self.slots, 2 if pop >= self.cs.pop_two_slots else 1), self.cs.max_slots)
        return max(0, room - len(on))


# -- who made each move (public), from a private replay kept per game ------------------------


class _Replica:
    __slots__ = ("movers", "plots", "state")

    def __init__(self, plots: tuple[str, ...], state: GameState) -> None:
        self.plots = plots
        self.state = state
        self.movers: list[int] = []


_REPLICAS: OrderedDict[int, _Replica] = OrderedDict()
_MAX_REPLICAS = 2048


def _fresh(g: GameState) -> _Replica:
    rec = g.record()  # its chance outcomes too, as lists (a deck may be a tuple in play)
    rec["moves"] = []
    rec.pop("result", None)
    return _Replica(g.init_plots, civ4.state_from_record(rec))


def movers(g: GameState) -> list[int]:
    """Who made each move of ``g`` so far (-1 where nobody was to move)."""
    key = id(g.init_plots)
    rep = _REPLICAS.get(key)
    done = len(rep.state.moves) if rep is not None else 0
    if rep is None or rep.plots is not g.init_plots or g.moves[:done] != rep.state.moves:
        rep = _fresh(g)
        _REPLICAS[key] = rep
    _REPLICAS.move_to_end(key)
    while len(_REPLICAS) > _MAX_REPLICAS:
        _REPLICAS.popitem(last=False)
    for text in g.moves[len(rep.state.moves) :]:
        mover = rep.state.to_move
        try:
            rep.state.apply(text)
        except (civ4.IllegalMoveError, civ4.NotationError):  # pragma: no cover - defensive
            _REPLICAS.pop(key, None)
            return [-1] * len(g.moves)
        rep.movers.append(-1 if mover is None else mover)
    return rep.movers[: len(g.moves)]
