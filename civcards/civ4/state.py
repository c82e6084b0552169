"""The position of a game: its data, cheap to copy, and what can be read from it.

:class:`State` holds a game's data (the layout in :mod:`civcards.civ4.game`) with
its read-only views: hands, effects in play (C52-C66, through :mod:`.effects`),
the statuses (C49, C50), the scores (C70), the costs (C26) and the record. It
knows no move: :class:`~civcards.civ4.game.GameState` adds the legal moves
(:mod:`.legal`), their checks (:mod:`.checks`) and their execution (:mod:`.execute`).
"""

from __future__ import annotations

from typing import Any, Final, Self

from . import effects as fx_rules
from .cards import CARDS, DECK_CODES, CardSet, card_set
from .effects import Fx, compute_effects
from .options import CARD_SETS, Options
from .phases import Combat

__all__ = ["SETS", "State", "listed"]

#: every packaged card set, loaded once, by the name in ``Options.cards`` (None: the original)
SETS: Final[dict[str | None, CardSet]] = {None: CARDS, **{k: card_set(k) for k in CARD_SETS}}


def listed(counts: list[int]) -> list[str]:
    """A count vector indexed by :data:`DECK_CODES` as the canonical list of its cards."""
    out: list[str] = []
    for code, k in zip(DECK_CODES, counts, strict=True):
        if k:
            out += [code] * k
    return out


class State:
    """A position of a game: its data and its read-only views (see the module docstring)."""

    __slots__ = (
        "active",
        "chance_in",
        "chance_out",
        "chance_pos",
        "combat",
        "deck",
        "deck_pos",
        "discard",
        "discard_n",
        "draft_revealed",
        "draft_round",
        "finished",
        "fx",
        "game_id",
        "hands",
        "init_deck",
        "init_plots",
        "init_removed",
        "init_techs",
        "last_tech",
        "moves",
        "n",
        "names",
        "new_techs",
        "options",
        "plot_market",
        "plot_pos",
        "plots",
        "pop_supply",
        "reason",
        "round",
        "seed",
        "setup_i",
        "steals",
        "step",
        "supply",
        "tech_market",
        "tech_pos",
        "techs",
        "to_move",
        "used",
        "winners",
    )

    n: int
    options: Options
    seed: int
    init_plots: tuple[str, ...]
    init_techs: tuple[str, ...]
    init_removed: tuple[str, ...]
    init_deck: tuple[str, ...]
    plot_pos: int
    tech_pos: int
    deck: tuple[str, ...]
    deck_pos: int
    discard: list[int]
    plot_market: list[str]
    tech_market: list[str]
    pop_supply: int
    hands: list[list[int]]
    plots: list[list[tuple[str, int, tuple[str, ...]]]]
    techs: list[tuple[str, ...]]
    supply: list[list[int]]
    fx: list[Fx | None]
    step: str
    round: int
    active: int | None
    to_move: int | None
    draft_round: int
    draft_revealed: list[str]
    setup_i: int
    used: tuple[str, ...]
    new_techs: tuple[str, ...]
    combat: Combat | None
    discard_n: int
    finished: bool
    reason: str | None
    winners: list[int]
    last_tech: bool
    moves: list[str]
    chance_in: tuple[dict[str, Any], ...]
    chance_pos: int
    chance_out: list[dict[str, Any]]
    steals: list[tuple[int, int, int, str]]
    game_id: str | None
    names: tuple[str, ...] | None

    # -- construction and copying ------------------------------------------------

    def copy(self) -> Self:
        """An independent copy (piles are shared immutable tuples). Every slot is
        assigned by name (checked against ``__slots__`` on import: :data:`_COPIED`)."""
        g = object.__new__(self.__class__)
        g.active = self.active
        g.chance_in = self.chance_in
        g.chance_out = self.chance_out[:]
        g.chance_pos = self.chance_pos
        g.combat = self.combat.copy() if self.combat is not None else None
        g.deck = self.deck
        g.deck_pos = self.deck_pos
        g.discard = self.discard[:]
        g.discard_n = self.discard_n
        g.draft_revealed = self.draft_revealed[:]
        g.draft_round = self.draft_round
        g.finished = self.finished
        g.fx = self.fx[:]
        g.game_id = self.game_id
        g.hands = [h[:] for h in self.hands]
        g.init_deck = self.init_deck
        g.init_plots = self.init_plots
        g.init_removed = self.init_removed
        g.init_techs = self.init_techs
        g.last_tech = self.last_tech
        g.moves = self.moves[:]
        g.n = self.n
        g.names = self.names
        g.new_techs = self.new_techs
        g.options = self.options
        g.plot_market = self.plot_market[:]
        g.plot_pos = self.plot_pos
        g.plots = [p[:] for p in self.plots]
        g.pop_supply = self.pop_supply
        g.reason = self.reason
        g.round = self.round
        g.seed = self.seed
        g.setup_i = self.setup_i
        g.steals = self.steals[:]
        g.step = self.step
        g.supply = [s[:] for s in self.supply]
        g.tech_market = self.tech_market[:]
        g.tech_pos = self.tech_pos
        g.techs = self.techs[:]
        g.to_move = self.to_move
        g.used = self.used
        g.winners = self.winners[:]
        return g

    def restore(self, other: State) -> None:
        """Make this state equal to ``other`` (a copy taken before a move that failed)."""
        for s in State.__slots__:
            setattr(self, s, getattr(other, s))

    # -- public read-only views -------------------------------------------------

    @property
    def cs(self) -> CardSet:
        """The game's card set: the one its ``cards`` option names (the original,
        ``reconstructed-1``, when none is named, as for a record that names none)."""
        return SETS[self.options.cards]

    @property
    def players(self) -> int:
        """The number of players."""
        return self.n

    @property
    def turn(self) -> int:
        """The round (C15): the platform's turn counter (``game_api.State.turn``)."""
        return self.round

    @property
    def plot_pile_size(self) -> int:
        return len(self.init_plots) - self.plot_pos

    @property
    def tech_pile_size(self) -> int:
        return len(self.init_techs) - self.tech_pos

    @property
    def deck_size(self) -> int:
        return len(self.deck) - self.deck_pos

    @property
    def tech_top_era(self) -> int | None:
        """The era of the top card of the tech pile (public, C72), None when empty."""
        if self.tech_pos >= len(self.init_techs):
            return None
        return self.cs.techs[self.init_techs[self.tech_pos]].era

    def hand(self, seat: int) -> list[str]:
        """The canonical list of a seat's hand."""
        return listed(self.hands[seat])

    def discard_list(self) -> list[str]:
        """The discard pile as a canonical list."""
        return listed(self.discard)

    def effects(self, seat: int) -> Fx:
        """The aggregated effects of a seat's cards in play (cached)."""
        f = self.fx[seat]
        if f is None:
            f = compute_effects(self.techs[seat], self.plots[seat], self.cs)
            self.fx[seat] = f
        return f

    def culture(self, seat: int) -> int:
        return self.effects(seat).culture

    def happiness(self, seat: int) -> int:
        return self.effects(seat).happiness

    def every_fx(self) -> list[Fx]:
        """Every seat's effects (:meth:`effects`, read from the cache where worked out)."""
        fx = self.fx
        return [f if f is not None else self.effects(s) for s, f in enumerate(fx)]

    def highest_culture(self) -> int | None:
        """C49: the holder of Highest Culture (>= 3, strictly highest), else None."""
        return self._highest([f.culture for f in self.every_fx()], self.cs.culture_minimum)

    def holds_highest_happiness(self, seat: int) -> bool:
        """C50: whether ``seat`` holds Highest Happiness (the same as ``highest_happiness() == seat``)."""
        fx = self.fx
        f = fx[seat]
        hp = f.happiness if f is not None else self.effects(seat).happiness
        if hp < self.cs.happiness_minimum:
            return False
        for s in range(self.n):
            if s != seat:
                f = fx[s]
                if (f.happiness if f is not None else self.effects(s).happiness) >= hp:
                    return False
        return True

    def highest_happiness(self) -> int | None:
        """C50: the holder of Highest Happiness (>= 2, strictly highest), else None."""
        return self._highest([f.happiness for f in self.every_fx()], self.cs.happiness_minimum)

    @staticmethod
    def _highest(values: list[int], minimum: int) -> int | None:
        best = max(values)
        if best < minimum or values.count(best) > 1:
            return None
        return values.index(best)

    def score(self, seat: int) -> list[int]:
        """C70: ``[VP, technologies, population, wonders]``."""
        techs = len(self.techs[seat])
        pop = 0
        for p in self.plots[seat]:
            pop += p[1]
        wonders = self.effects(seat).wonders
        return [techs + pop + wonders, techs, pop, wonders]

    @property
    def scores(self) -> list[list[int]]:
        """Every seat's C70 score array."""
        return [self.score(s) for s in range(self.n)]

    def adjacent(self, seat: int) -> list[int]:
        """C40: the adjacent opponents of ``seat``, ascending."""
        return fx_rules.adjacent(seat, self.n)

    # -- costs (C26) --------------------------------------------------------------

    def pop_cost(self, seat: int, plot: int) -> int:
        """C26: the cost of one more population on ``seat``'s plot ``plot``."""
        return fx_rules.pop_cost(self.cs, self.plots[seat][plot - 1][1], self.effects(seat))

    def plot_cost(self, seat: int) -> int:
        """C26: the cost of ``seat``'s next plot."""
        return fx_rules.plot_cost(self.cs, len(self.plots[seat]), self.effects(seat))

    def card_cost(self, seat: int, code: str) -> int:
        """The cost of a technology, building or wonder for ``seat`` now (C26, C50)."""
        return fx_rules.card_cost(
            self.cs, code, self.effects(seat), self.holds_highest_happiness(seat), self.options.happiness_not_wonders
        )

    def slots(self, seat: int, plot: int) -> int:
        """C18: how many buildings and wonders plot ``plot`` may hold now."""
        return fx_rules.slots(self.cs, self.plots[seat][plot - 1][1], self.effects(seat))

    # -- the record ----------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """The game record (NOTATION.md), portable: all piles and every chance outcome."""
        r: dict[str, Any] = {"format": "civ4-notation/1"}
        if self.game_id is not None:
            r["game_id"] = self.game_id
        r["players"] = self.n
        if self.names is not None:
            r["names"] = list(self.names)
        r["seed"] = self.seed
        r["options"] = self.options.to_dict()
        r["plots"] = list(self.init_plots)
        r["techs"] = list(self.init_techs)
        r["removed"] = list(self.init_removed)
        r["deck"] = list(self.init_deck)
        r["moves"] = list(self.moves)
        r["chance"] = [dict(c, deck=list(c["deck"])) if "deck" in c else dict(c) for c in self.chance_out]
        if self.finished:
            r["result"] = {"winners": list(self.winners), "reason": self.reason, "scores": self.scores}
        return r


#: the slots :meth:`State.copy` assigns: every one (a slot added without its line in
#: ``copy`` stops the import here rather than leaving copies without it)
_COPIED: Final = frozenset(State.copy.__code__.co_names)
if not _COPIED.issuperset(State.__slots__):  # pragma: no cover - a programming error
    raise RuntimeError(f"State.copy misses {sorted(set(State.__slots__) - _COPIED)}")
