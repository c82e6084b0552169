"""The rules engine: the state of a game, its legal moves and how they apply (C1-C72).

>>> g = new_game(2, seed=1)
>>> g.step, g.to_move, len(g.legal_moves()) > 0
('draft', 0, True)
>>> g.apply(g.legal_moves()[0])
>>> g.to_move
1

State layout (small, cheap to copy): hands and the discard pile are lists of
counts indexed like :data:`~civcards.civ4.cards.DECK_CODES`; an empire's plots
are tuples ``(code, population, cards)`` with ``cards`` a sorted tuple of the
buildings and wonders on it; piles are an immutable tuple (top card first)
plus the position of their top card, so a copy never copies them.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, product
from typing import Any, Final

from .cards import (
    CARDS,
    DECK_CODES,
    DECK_INDEX,
    N_DECK,
    RES_LETTERS,
    RULES,
    TECHS_BY_ERA,
    CardSet,
    DeckCard,
    Res,
    TechCard,
    card_set,
)
from .moves import Move, NotationError, format_move, parse_move
from .options import CARD_SETS, ConfigError, Options, parse_options

__all__ = ["ConfigError", "GameState", "IllegalMoveError", "new_game", "state_from_piles"]

DRAFT: Final = "draft"
SETTLE: Final = "settle"
START_DISCARD: Final = "start_discard"
COLLECT: Final = "collect"
PURCHASE: Final = "purchase"
WALLS: Final = "walls"
DEFEND: Final = "defend"
DAMAGE: Final = "damage"
PLACE: Final = "place"
DISCARD: Final = "discard"
OVER: Final = "over"

PLOT_COST_BASE: Final[int] = RULES["plot_cost_base"]
PLOT_COST_STEP: Final[int] = RULES["plot_cost_step"]
PLOT_COST_PIVOT: Final[int] = RULES["plot_cost_pivot"]
POP_COST_BASE: Final[int] = RULES["population_cost_base"]
POP_COST_STEP: Final[int] = RULES["population_cost_step"]
MIN_COST: Final[int] = RULES["min_cost"]
TRADE_RATE: Final[int] = RULES["trade_rate"]
DRAW: Final[int] = RULES["draw"]
DISCARD_N: Final[int] = RULES["discard"]
CULTURE_MIN: Final[int] = RULES["culture_minimum"]
HAPPY_MIN: Final[int] = RULES["happiness_minimum"]
HAPPY_DISCOUNT: Final[int] = RULES["happiness_discount"]
MAX_SLOTS: Final[int] = RULES["max_slots"]
POP_TWO_SLOTS: Final[int] = RULES["population_for_two_slots"]
STALEMATE: Final[int] = RULES["stalemate_rounds"]
START_PLOTS: Final[int] = RULES["start_plots_random"]
MARKET_PLOTS: Final[int] = RULES["market_plots"]
MARKET_TECHS: Final[int] = RULES["market_techs"]
START_HAND: Final[list[int]] = RULES["starting_hand"]
START_DISCARD_N: Final[int] = RULES["starting_discard"]
TECHS_PER_ERA: Final[dict[str, int]] = RULES["techs_per_era"]

_TECHS = CARDS.techs
_PLOTS = CARDS.plots
#: every packaged card set, loaded once, by the name in ``Options.cards`` (None: the original)
_SETS: Final[dict[str | None, CardSet]] = {None: CARDS, **{k: card_set(k) for k in CARD_SETS}}
_PRODUCED = {c: p.produced for c, p in _PLOTS.items()}
_YIELDS = {c: p.yields for c, p in _PLOTS.items()}
_KIND_TARGET = {"tech": "tech", "building": "building", "wonder": "wonder"}


class IllegalMoveError(ValueError):
    """A move that the rules do not allow now (one sentence naming the rule); the state is unchanged."""

    def __init__(self, move: Move | str, reason: str) -> None:
        self.move = move
        self.reason = reason
        super().__init__(reason)


@lru_cache(maxsize=65536)
def _format_cached(m: Move) -> str:
    return format_move(m)


class _ChanceMismatch(Exception):
    """A recorded chance outcome that does not fit its event (NOTATION.md clarification 6)."""


# ---------------------------------------------------------------------------
# Effects in play, aggregated per player


@dataclass(frozen=True, slots=True)
class Fx:
    """The sum of a player's effects in play (C52-C66), culture and happiness (C49, C50)."""

    culture: int
    happiness: int
    disc: Mapping[str, int]
    rate: int
    extra_draw: int
    slots: int
    income: Res
    boost: Res
    unit_bonus: Mapping[str, tuple[frozenset[str], int, int]]
    steal_card: Mapping[str, int]
    steal_res: Mapping[str, int]
    wonders: int


def _compute_fx(
    techs: tuple[str, ...], plots: list[tuple[str, int, tuple[str, ...]]], cs: CardSet = CARDS
) -> Fx:
    deck = cs.deck
    cards: list[TechCard | DeckCard] = [cs.techs[t] for t in techs]
    wonders = 0
    for _, _, on in plots:
        for c in on:
            cards.append(deck[c])
            if deck[c].kind == "wonder":
                wonders += 1
    return _fx_with(None, cards, wonders, cs)


def _fx_plus(fx: Fx, card: TechCard | DeckCard, cs: CardSet = CARDS) -> Fx:
    """``fx`` with one more card in play: every effect adds up in any order (sums,
    the lowest rate, the most slots, merged unit bonuses), so this equals recomputing."""
    return _fx_with(fx, [card], 1 if card.kind == "wonder" else 0, cs)


def _fx_with(
    start: Fx | None, cards: list[TechCard | DeckCard], wonders: int, cs: CardSet = CARDS
) -> Fx:
    """The effects of ``start`` (None: no card) plus those of ``cards`` (``wonders`` of them
    wonders), with the trade rate and slot limit of card set ``cs``."""
    if start is None:
        culture = happiness = 0
        disc = {"population": 0, "plot": 0, "tech": 0, "building": 0, "wonder": 0}
        rate = cs.trade_rate
        extra = 0
        slots = 1
        income = [0, 0, 0]
        boost = [0, 0, 0]
        ub: dict[str, tuple[frozenset[str], int, int]] = {}
        sc: dict[str, int] = {}
        sr: dict[str, int] = {}
    else:
        culture, happiness = start.culture, start.happiness
        disc = dict(start.disc)
        rate = start.rate
        extra = start.extra_draw
        slots = start.slots
        income = list(start.income)
        boost = list(start.boost)
        ub = dict(start.unit_bonus)
        sc = dict(start.steal_card)
        sr = dict(start.steal_res)
        wonders += start.wonders
    for card in cards:
        culture += card.culture
        happiness += card.happiness
        for e in card.effects:
            k = e.kind
            if k == "discount":
                disc[e.target] += e.amount
            elif k == "exchange_rate":
                rate = min(rate, e.rate)
            elif k == "extra_draw":
                extra += e.amount
            elif k == "building_slots":
                slots = max(slots, e.slots)
            elif k == "income":
                for i in range(3):
                    income[i] += e.resources[i]
            elif k == "boost_producing":
                boost[e.resource] += e.amount
            elif k == "unit_bonus":
                old = ub.get(e.unit, (frozenset(), 0, 0))
                ub[e.unit] = (old[0] | frozenset(e.blocks_add), old[1] + e.steal_add, old[2] + e.destroy_add)
            elif k == "steal_card":
                sc[card.code] = e.amount
            elif k == "steal_resources":
                sr[card.code] = e.amount
    return Fx(
        culture,
        happiness,
        disc,
        rate,
        extra,
        min(slots, cs.max_slots),
        (income[0], income[1], income[2]),
        (boost[0], boost[1], boost[2]),
        ub,
        sc,
        sr,
        wonders,
    )


# ---------------------------------------------------------------------------
# Combat


class Combat:
    """The state of one combat (C39-C46). ``units`` are ``[code, defender, state]``."""

    __slots__ = ("attacker", "blocks", "defenders", "idx", "stage", "stolen", "units")

    def __init__(self, attacker: int, defenders: list[int], units: list[list[Any]]) -> None:
        self.attacker = attacker
        self.defenders = defenders
        self.units = units
        self.blocks: list[tuple[int, str, str]] = []
        self.stolen = 0
        self.stage = WALLS
        self.idx = 0

    def copy(self) -> Combat:
        c = Combat(self.attacker, self.defenders, [list(u) for u in self.units])
        c.blocks = list(self.blocks)
        c.stolen = self.stolen
        c.stage = self.stage
        c.idx = self.idx
        return c

    def assigned(self, d: int) -> list[str]:
        """Codes of the units still assigned to defender ``d``, sorted."""
        return sorted(u[0] for u in self.units if u[1] == d and u[2] == "assigned")


# ---------------------------------------------------------------------------
# Small combinatorics


def multisets(items: list[tuple[Any, int]], k: int) -> list[tuple[Any, ...]]:
    """Every multiset of ``k`` elements taken from ``items`` (``(value, available)``, sorted).

    >>> multisets([("A", 2), ("B", 1)], 2)
    [('A', 'A'), ('A', 'B')]
    """
    if k == 1:
        return [(v,) for v, a in sorted(items) if a]
    if k == 2:
        srt = sorted(items)
        two: list[tuple[Any, ...]] = []
        for i, (v, a) in enumerate(srt):
            if not a:
                continue
            if a >= 2:
                two.append((v, v))
            two.extend((v, w) for w, b in srt[i + 1 :] if b)
        return two
    out: list[tuple[Any, ...]] = []
    n = len(items)

    def rec(i: int, left: int, acc: tuple[Any, ...]) -> None:
        if left == 0:
            out.append(acc)
            return
        if i == n:
            return
        v, avail = items[i]
        for take in range(min(left, avail), -1, -1):
            rec(i + 1, left - take, acc + (v,) * take)

    rec(0, k, ())
    out.sort()
    return out


def payments(cost: int, supply: list[int] | tuple[int, ...]) -> list[Res]:
    """Every exact payment ``(f, h, c)`` of ``cost`` from ``supply`` (C27 for plots)."""
    out: list[Res] = []
    f0, h0, c0 = supply
    for f in range(min(f0, cost), -1, -1):
        rest = cost - f
        for h in range(min(h0, rest), -1, -1):
            c = rest - h
            if c <= c0:
                out.append((f, h, c))
    return out


@lru_cache(maxsize=4096)
def _letter_options(code: str, pop: int) -> list[str]:
    letters = [RES_LETTERS[r] for r in _PRODUCED[code]]
    return ["".join(c) for c in combinations_with_replacement(letters, pop)]


@lru_cache(maxsize=4096)
def _plot_yield(code: str, on: tuple[str, ...], cs: CardSet = CARDS) -> Res:
    """C23, C53: a plot's printed yield, each type doubled by a ``double_base`` card on it."""
    y = _YIELDS[code]
    doubled = [False, False, False]
    deck = cs.deck
    for c in on:
        for e in deck[c].effects:
            if e.kind == "double_base":
                doubled[e.resource] = True
    return (y[0] * (2 if doubled[0] else 1), y[1] * (2 if doubled[1] else 1), y[2] * (2 if doubled[2] else 1))


@lru_cache(maxsize=1024)
def _letter_counts(letters: str) -> Res:
    """How many F, H and C a collect term's letters name."""
    return (letters.count("F"), letters.count("H"), letters.count("C"))


def _hand_items(hand: list[int], codes: Iterable[str] | None = None) -> list[tuple[str, int]]:
    if codes is None:
        return [(DECK_CODES[i], n) for i, n in enumerate(hand) if n]
    return [(c, hand[DECK_INDEX[c]]) for c in sorted(codes) if hand[DECK_INDEX[c]]]


def _rstr(r: Iterable[int]) -> str:
    s = "".join(f"{n}{RES_LETTERS[i]}" for i, n in enumerate(r) if n)
    return s or "0"


# ---------------------------------------------------------------------------
# The state


def _listed(counts: list[int]) -> list[str]:
    """A count vector indexed by :data:`DECK_CODES` as the canonical list of its cards."""
    out: list[str] = []
    for code, k in zip(DECK_CODES, counts, strict=True):
        if k:
            out += [code] * k
    return out


class GameState:
    """A position of a game, with the moves that led to it (see the module docstring)."""

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

    def copy(self) -> GameState:
        """An independent copy (piles are shared immutable tuples). Every slot is
        assigned by name (checked against ``__slots__`` on import: :data:`_COPIED`)."""
        g = object.__new__(GameState)
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

    def _restore(self, other: GameState) -> None:
        for s in GameState.__slots__:
            setattr(self, s, getattr(other, s))

    # -- public read-only views -------------------------------------------------

    @property
    def cs(self) -> CardSet:
        """The game's card set: the one its ``cards`` option names (the original,
        ``reconstructed-1``, when none is named, as for a record that names none)."""
        return _SETS[self.options.cards]

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
        return _listed(self.hands[seat])

    def discard_list(self) -> list[str]:
        """The discard pile as a canonical list."""
        return _listed(self.discard)

    def effects(self, seat: int) -> Fx:
        """The aggregated effects of a seat's cards in play (cached)."""
        f = self.fx[seat]
        if f is None:
            f = _compute_fx(self.techs[seat], self.plots[seat], self.cs)
            self.fx[seat] = f
        return f

    def culture(self, seat: int) -> int:
        return self.effects(seat).culture

    def happiness(self, seat: int) -> int:
        return self.effects(seat).happiness

    def highest_culture(self) -> int | None:
        """C49: the holder of Highest Culture (>= 3, strictly highest), else None."""
        return self._highest([self.effects(s).culture for s in range(self.n)], self.cs.culture_minimum)

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
        fx = self.fx
        vals = []
        for s in range(self.n):
            f = fx[s]
            vals.append(f.happiness if f is not None else self.effects(s).happiness)
        return self._highest(vals, self.cs.happiness_minimum)

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
        if self.n == 2:
            return [1 - seat]
        return sorted({(seat + 1) % self.n, (seat - 1) % self.n})

    # -- costs (C26) --------------------------------------------------------------

    def pop_cost(self, seat: int, plot: int) -> int:
        pop = self.plots[seat][plot - 1][1]
        c = self.cs.pop_cost_base + self.cs.pop_cost_step * pop - self.effects(seat).disc["population"]
        return max(self.cs.min_cost, c)

    def plot_cost(self, seat: int) -> int:
        n = len(self.plots[seat])
        c = self.cs.plot_cost_base + self.cs.plot_cost_step * (n - self.cs.plot_cost_pivot) - self.effects(seat).disc["plot"]
        return max(self.cs.min_cost, c)

    def card_cost(self, seat: int, code: str) -> int:
        """The cost of a technology, building or wonder for ``seat`` now (C26, C50)."""
        card: TechCard | DeckCard = self.cs.techs[code] if code in self.cs.techs else self.cs.deck[code]
        c = card.cost - self.effects(seat).disc[_KIND_TARGET[card.kind]]
        exempt = card.kind == "wonder" and self.options.happiness_not_wonders
        if not exempt and self.highest_happiness() == seat:
            c -= self.cs.happiness_discount
        return max(self.cs.min_cost, c)

    def slots(self, seat: int, plot: int) -> int:
        """C18: how many buildings and wonders plot ``plot`` may hold now."""
        s = self.effects(seat).slots
        if self.plots[seat][plot - 1][1] >= self.cs.pop_two_slots:
            s = max(s, 2)
        return min(max(s, 1), self.cs.max_slots)

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

    # -- legal moves -----------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move, canonical text sorted by code point, without duplicates."""
        texts = self.legal_strings()
        return [parse_move(t) for t in texts]

    def legal_strings(self) -> list[str]:
        """The canonical texts of :meth:`legal_moves`."""
        return sorted(set(self._legal_texts()))

    def _legal_texts(self) -> Iterator[str]:
        step = self.step
        if step == OVER:
            return
        p = self.to_move
        assert p is not None
        if step == DRAFT:
            for c in sorted(set(self.draft_revealed)):
                yield f"pick {c}"
        elif step == SETTLE:
            for i in range(len(self.plots[p])):
                yield f"settle p{i + 1}"
        elif step in (START_DISCARD, DISCARD):
            k = self.discard_n
            for ms in multisets(_hand_items(self.hands[p]), k):
                yield "discard " + ",".join(ms)
        elif step == COLLECT:
            yield from self._legal_collect(p)
        elif step == PURCHASE:
            yield from self._legal_purchase(p)
        elif step == WALLS:
            yield from (format_move(m) for m in self._legal_walls())
        elif step == DEFEND:
            yield from (format_move(m) for m in self._legal_defend())
        elif step == DAMAGE:
            yield from (format_move(m) for m in self._legal_damage())
        elif step == PLACE:
            assert self.combat is not None
            for ms in multisets([(i + 1, 99) for i in range(len(self.plots[p]))], self.combat.stolen):
                yield "place " + ",".join(f"p{x}" for x in ms)

    def collect_options(self, seat: int) -> list[tuple[int, list[str]]]:
        """C24: for each plot needing a choice, its plot number and the possible letter strings."""
        out = []
        for i, (code, pop, _) in enumerate(self.plots[seat]):
            if pop and len(_PRODUCED[code]) >= 2:
                out.append((i + 1, _letter_options(code, pop)))
        return out

    def _legal_collect(self, p: int) -> Iterator[str]:
        terms = [[f"p{n}={s}" for s in letters] for n, letters in self.collect_options(p)]
        for combo in product(*terms):
            yield " ".join(("collect", *combo))

    def trade_options(self, p: int) -> list[tuple[Res, Res]]:
        """C28: every bank trade (give exactly R, get one resource of another type)."""
        fx = self.effects(p)
        rate = fx.rate
        sup = self.supply[p]
        out: list[tuple[Res, Res]] = []
        for give in payments(rate, sup):
            types = [i for i in range(3) if give[i]]
            if self.options.same_type_trade and len(types) != 1:
                continue
            for g in range(3):
                if g not in types:
                    get = [0, 0, 0]
                    get[g] = 1
                    out.append((give, (get[0], get[1], get[2])))
        return out

    def _legal_purchase(self, p: int) -> Iterator[str]:
        hand = self.hands[p]
        sup = self.supply[p]
        for i, k in enumerate(hand):
            if k:
                yield f"cash {DECK_CODES[i]}"
        for give, get in self.trade_options(p):
            yield f"trade {_rstr(give)} {_rstr(get)}"
        if self.pop_supply > 0:
            for i in range(len(self.plots[p])):
                if self.pop_cost(p, i + 1) <= sup[0]:
                    yield f"pop p{i + 1}"
        if self.plot_market:
            cost = self.plot_cost(p)
            if cost <= sum(sup):
                pays = payments(cost, sup)
                for code in sorted(set(self.plot_market)):
                    for pay in pays:
                        yield f"plot {code} {_rstr(pay)}"
        for code in sorted(set(self.tech_market)):
            if self.card_cost(p, code) <= sup[2]:
                yield f"tech {code}"
        for code in self.buildable_codes(p):
            for plot in self.build_plots(p, code):
                yield from self._build_texts(p, code, plot)
        yield from self._use_texts(p)
        yield "end"
        yield from self._attack_texts(p)

    def buildable_codes(self, p: int) -> list[str]:
        """Buildings and wonders in hand that ``p`` can pay for (C31)."""
        out = []
        hand = self.hands[p]
        h = self.supply[p][1]
        for i, k in enumerate(hand):
            if k:
                card = self.cs.deck[DECK_CODES[i]]
                if card.kind != "unit" and self.card_cost(p, card.code) <= h:
                    out.append(card.code)
        return out

    def build_plots(self, p: int, code: str) -> list[int]:
        """Own plots with room for ``code`` (C18)."""
        out = []
        for i, (_, _, on) in enumerate(self.plots[p]):
            if code not in on and len(on) < self.slots(p, i + 1):
                out.append(i + 1)
        return out

    def _free_pop_n(self, code: str) -> int:
        return sum(e.amount for e in self.cs.deck[code].effects if e.kind == "free_population")

    def _free_tech_n(self, code: str) -> int:
        return sum(e.amount for e in self.cs.deck[code].effects if e.kind == "free_tech")

    def free_tech_sequences(self, amount: int) -> list[tuple[str, ...]]:
        """C62: every sequence of technologies a ``free_tech`` of ``amount`` can take now."""
        out: list[tuple[str, ...]] = []

        def rec(market: list[str], pos: int, left: int, acc: tuple[str, ...]) -> None:
            if left == 0 or not market:
                out.append(acc)
                return
            for c in sorted(set(market)):
                m2 = list(market)
                m2.remove(c)
                pos2 = pos
                if pos2 < len(self.init_techs):
                    m2.append(self.init_techs[pos2])
                    pos2 += 1
                if not m2 and pos2 >= len(self.init_techs) and not self.options.finish_round:
                    out.append((*acc, c))  # C68: the game ends at once
                    continue
                rec(m2, pos2, left - 1, (*acc, c))

        rec(list(self.tech_market), self.tech_pos, amount, ())
        return out

    def _build_texts(self, p: int, code: str, plot: int) -> Iterator[str]:
        fp = self._free_pop_n(code)
        ft = self._free_tech_n(code)
        base = f"build {code} p{plot}"
        if fp:
            k = min(fp, self.pop_supply)
            if k == 0:
                yield base
            else:
                for ms in multisets([(i + 1, 99) for i in range(len(self.plots[p]))], k):
                    yield base + " settle " + ",".join(f"p{x}" for x in ms)
        elif ft:
            for seq in self.free_tech_sequences(ft):
                yield base + (" free " + ",".join(seq) if seq else "")
        else:
            yield base

    def usable_abilities(self, p: int) -> list[tuple[str, str, int]]:
        """C35: ``(code, kind, amount)`` of the activated abilities ``p`` may use now."""
        fx = self.effects(p)
        out = []
        for kind, table in (("steal_card", fx.steal_card), ("steal_resources", fx.steal_res)):
            for code, amount in table.items():
                if code in self.used:
                    continue
                if self.options.one_shot_steals and code not in self.new_techs:
                    continue
                out.append((code, kind, amount))
        return sorted(out)

    def steal_res_options(self, p: int, victim: int, amount: int) -> list[Res]:
        """C64: the resource choices of a ``steal_resources`` of ``amount`` from ``victim``."""
        sup = self.supply[victim]
        k = min(amount, sum(sup))
        return payments(k, sup)

    def _use_texts(self, p: int) -> Iterator[str]:
        for code, kind, amount in self.usable_abilities(p):
            for v in range(self.n):
                if v == p:
                    continue
                if kind == "steal_card":
                    if sum(self.hands[v]):
                        yield f"use {code} {v}"
                elif sum(self.supply[v]):
                    for r in self.steal_res_options(p, v, amount):
                        yield f"use {code} {v} {_rstr(r)}"

    def attack_units(self, p: int) -> list[tuple[str, int]]:
        """Units in ``p``'s hand whose profile has ``attack`` (C41), as ``(code, count)``."""
        hand = self.hands[p]
        return [(c, hand[DECK_INDEX[c]]) for c in DECK_CODES if self.cs.deck[c].attack and hand[DECK_INDEX[c]]]

    def attack_assignments(self, p: int) -> list[tuple[tuple[int, tuple[str, ...]], ...]]:
        """C41: every declaration (a non-empty unit multiset per chosen adjacent defender)."""
        units = self.attack_units(p)
        if not units:
            return []
        adj = self.adjacent(p)
        out: list[tuple[tuple[int, tuple[str, ...]], ...]] = []

        def rec(i: int, avail: list[tuple[str, int]], acc: tuple[tuple[int, tuple[str, ...]], ...]) -> None:
            if i == len(adj):
                if acc:
                    out.append(acc)
                return
            rec(i + 1, avail, acc)
            total = sum(k for _, k in avail)
            for size in range(1, total + 1):
                for ms in multisets(avail, size):
                    left = [(c, k - ms.count(c)) for c, k in avail]
                    rec(i + 1, left, (*acc, (adj[i], ms)))

        rec(0, units, ())
        return out

    def _attack_texts(self, p: int) -> Iterator[str]:
        for a in self.attack_assignments(p):
            yield " ".join(["attack"] + [f"{s}={','.join(u)}" for s, u in a])

    # -- combat decisions ------------------------------------------------------

    def _defender(self) -> int:
        c = self.combat
        assert c is not None
        return c.defenders[c.idx]

    def bounce_cards(self, d: int) -> list[tuple[int, str, int, bool]]:
        """The defender's cards in play with ``bounce``: ``(plot, code, amount, breakable)``."""
        out = []
        for i, (_, _, on) in enumerate(self.plots[d]):
            for c in on:
                for e in self.cs.deck[c].effects:
                    if e.kind == "bounce":
                        out.append((i + 1, c, e.amount, e.breakable))
        return out

    def _legal_walls(self) -> list[Move]:
        c = self.combat
        assert c is not None
        d = self._defender()
        units = c.assigned(d)
        bc = self.bounce_cards(d)
        breakable = sorted({pl for pl, _, _, br in bc if br})
        k = sum(1 for u in units if self.cs.deck[u].breaks_walls)
        lose_n = min(k, len(breakable))
        out = []
        for lose in combinations(breakable, lose_n):
            b = sum(a for pl, _, a, br in bc if not (br and pl in lose))
            left = list(units)
            removed = 0
            for u in sorted(units):
                if removed < lose_n and self.cs.deck[u].breaks_walls:
                    left.remove(u)
                    removed += 1
            items = sorted({u: left.count(u) for u in left}.items())
            for bounce in multisets(items, min(b, len(left))):
                out.append(Move("walls", plots=tuple(lose), cards=bounce))
        return out

    def blockable(self, d: int, blocker: str, attacker: str) -> bool:
        """C43, C66: whether ``d``'s unit ``blocker`` may block ``attacker``."""
        card = self.cs.deck[blocker]
        if not card.defend:
            return False
        if attacker in card.blocks:
            return True
        ub = self.effects(d).unit_bonus.get(blocker)
        return ub is not None and attacker in ub[0]

    def _legal_defend(self) -> list[Move]:
        c = self.combat
        assert c is not None
        d = self._defender()
        attackers = c.assigned(d)
        acodes = sorted(set(attackers))
        hand = self.hands[d]
        out: list[Move] = []

        def rec(i: int, avail: dict[str, int], acc: tuple[tuple[str, str], ...]) -> None:
            if i == len(acodes):
                out.append(Move("defend", blocks=acc))
                return
            a = acodes[i]
            m = attackers.count(a)
            items = [(b, k) for b, k in sorted(avail.items()) if k and self.blockable(d, b, a)]
            for size in range(0, m + 1):
                for ms in multisets(items, size):
                    av2 = dict(avail)
                    for b in ms:
                        av2[b] -= 1
                    rec(i + 1, av2, acc + tuple((b, a) for b in ms))

        avail = {u: hand[DECK_INDEX[u]] for u in DECK_CODES if self.cs.deck[u].defend and hand[DECK_INDEX[u]]}
        rec(0, avail, ())
        return out

    def damage_amounts(self, d: int) -> tuple[int, int]:
        """C45, C66: (S, X) of the units still assigned to defender ``d``."""
        c = self.combat
        assert c is not None
        ub = self.effects(c.attacker).unit_bonus
        s = x = 0
        for u in c.assigned(d):
            card = self.cs.deck[u]
            b = ub.get(u)
            s += card.steal + (b[1] if b else 0)
            x += card.destroy + (b[2] if b else 0)
        return s, x

    def _legal_damage(self) -> list[Move]:
        d = self._defender()
        s, x = self.damage_amounts(d)
        pops = [(i + 1, pl[1]) for i, pl in enumerate(self.plots[d]) if pl[1]]
        total_pop = sum(k for _, k in pops)
        buildings = [
            (i + 1, code) for i, pl in enumerate(self.plots[d]) for code in pl[2] if self.cs.deck[code].kind == "building"
        ]
        out = []
        for steal in multisets(pops, min(s, total_pop)):
            for destroy in combinations(buildings, min(x, len(buildings))):
                out.append(Move("damage", plots=steal, destroy=tuple(destroy)))
        return out

    # -- applying moves --------------------------------------------------------

    def apply(self, move: Move | str) -> None:
        """Apply a legal move; an illegal one raises :class:`IllegalMoveError` and changes nothing."""
        if isinstance(move, str):
            try:
                m = parse_move(move)
            except NotationError as e:
                raise IllegalMoveError(move, f"the move cannot be read: {e}") from None
        else:
            m = move
        if self.step == OVER:
            raise IllegalMoveError(m, "C68: the game is over; no move follows its end")
        err = self._check(m)
        if err is not None:
            raise IllegalMoveError(m, err)
        snapshot = self.copy() if self.chance_pos < len(self.chance_in) else None
        try:
            self._exec(m)
        except _ChanceMismatch as e:
            assert snapshot is not None
            self._restore(snapshot)
            raise IllegalMoveError(m, str(e)) from None
        self.moves.append(_format_cached(m))

    def apply_unchecked(self, m: Move, text: str | None = None) -> None:
        """Apply a move known to be legal now (one that :func:`~civcards.civ4.choices.choices`
        or :func:`~civcards.civ4.choices.expand` gave for this position) without checking it;
        ``text`` is its canonical text when the caller has it. Anything else may corrupt the
        state: use :meth:`apply` for moves from outside."""
        if self.chance_pos < len(self.chance_in):
            self.apply(m)
            return
        self._exec(m)
        self.moves.append(text if text is not None else _format_cached(m))

    def is_legal(self, move: Move | str) -> bool:
        """Whether ``move`` is legal now (without applying it)."""
        if isinstance(move, str):
            try:
                move = parse_move(move)
            except NotationError:
                return False
        return self.step != OVER and self._check(move) is None

    # ---- checks: return None or one sentence naming the rule

    def _check(self, m: Move) -> str | None:
        step = self.step
        k = m.kind
        p = self.to_move
        assert p is not None
        if step == DRAFT:
            if k != "pick":
                return f"C11: the draft is on; seat {p} must pick a revealed plot"
            if m.code not in self.draft_revealed:
                return f"C11: {m.code} is not among the revealed plots"
            return None
        if step == SETTLE:
            if k != "settle":
                return f"C13: seat {p} must place its free population ('settle pN')"
            return self._own_plot(p, m.num, "C13")
        if step in (START_DISCARD, DISCARD):
            rule = "C14" if step == START_DISCARD else "C37"
            if k != "discard":
                return f"{rule}: seat {p} must discard {self.discard_n} cards"
            if len(m.cards) != self.discard_n:
                return f"{rule}: exactly {self.discard_n} cards must be discarded, not {len(m.cards)}"
            return self._holds(p, m.cards, rule)
        if step == COLLECT:
            if k != "collect":
                return "C23: a turn begins with the Collect step ('collect')"
            return self._check_collect(p, m)
        if step == PURCHASE:
            return self._check_purchase(p, m)
        if step == WALLS:
            if k != "walls":
                return f"C42: seat {p} must resolve the walls ('walls …')"
            return self._check_walls(m)
        if step == DEFEND:
            if k != "defend":
                return f"C43: seat {p} must defend ('defend' or 'defend B>A …')"
            return self._check_defend(m)
        if step == DAMAGE:
            if k != "damage":
                return f"C45: seat {p} must choose the damage ('damage …')"
            return self._check_damage(m)
        if step == PLACE:
            if k != "place":
                return "C45: the attacker must place the stolen population ('place LIST')"
            assert self.combat is not None
            if len(m.plots) != self.combat.stolen:
                return f"C45: exactly {self.combat.stolen} stolen population must be placed"
            for x in set(m.plots):
                e = self._own_plot(p, x, "C45")
                if e:
                    return e
            return None
        return "the game is over"

    def _own_plot(self, p: int, num: int, rule: str) -> str | None:
        if not 1 <= num <= len(self.plots[p]):
            return f"{rule}: seat {p} has no plot p{num}"
        return None

    def _holds(self, p: int, cards: tuple[str, ...], rule: str) -> str | None:
        need: dict[str, int] = {}
        for c in cards:
            if c not in DECK_INDEX:
                return f"{rule}: {c} is not a game-deck card"
            need[c] = need.get(c, 0) + 1
        for c, n in need.items():
            if self.hands[p][DECK_INDEX[c]] < n:
                return f"{rule}: seat {p} does not hold {'that many ' if n > 1 else ''}{c} in hand"
        return None

    def _check_collect(self, p: int, m: Move) -> str | None:
        opts = dict(self.collect_options(p))
        given = dict(m.collect)
        for n, letters in given.items():
            e = self._own_plot(p, n, "C24")
            if e:
                return e
            if n not in opts:
                return f"C24: plot p{n} has no population choice to write (clarification 11)"
            if letters not in opts[n]:
                pop = self.plots[p][n - 1][1]
                return f"C24: plot p{n} needs {pop} letters among the types it produces, not {letters}"
        for n in opts:
            if n not in given:
                return f"C24: the population on plot p{n} must be assigned (write p{n}=…)"
        return None

    def _check_purchase(self, p: int, m: Move) -> str | None:
        k = m.kind
        sup = self.supply[p]
        if k == "cash":
            return self._holds(p, (m.code,), "C29")
        if k == "trade":
            rate = self.effects(p).rate
            give, get = m.res, m.get
            if sum(give) != rate:
                return f"C28: a trade gives exactly {rate} resources (the player's rate)"
            if any(give[i] > sup[i] for i in range(3)):
                return "C28: the supply does not hold the resources given"
            if sum(get) != 1:
                return "C28: a trade receives exactly one resource"
            if any(get[i] and give[i] for i in range(3)):
                return "C28: a trade cannot receive a type it gives"
            if self.options.same_type_trade and sum(1 for x in give if x) != 1:
                return "C28 (same_type_trade): the resources given must all be of one type"
            return None
        if k == "pop":
            e = self._own_plot(p, m.num, "C34")
            if e:
                return e
            if self.pop_supply <= 0:
                return "C34: the population supply is empty"
            cost = self.pop_cost(p, m.num)
            if sup[0] < cost:
                return f"C27: population on p{m.num} costs {cost}F and the supply holds {sup[0]}F"
            return None
        if k == "plot":
            if m.code not in self.plot_market:
                return f"C33: {m.code} is not in the plot market"
            cost = self.plot_cost(p)
            if sum(m.res) != cost:
                return f"C27: the plot costs {cost} and the payment totals {sum(m.res)}"
            if any(m.res[i] > sup[i] for i in range(3)):
                return "C27: the supply does not hold the payment"
            return None
        if k == "tech":
            if m.code not in self.tech_market:
                return f"C32: {m.code} is not in the tech market"
            cost = self.card_cost(p, m.code)
            if sup[2] < cost:
                return f"C27: {m.code} costs {cost}C and the supply holds {sup[2]}C"
            return None
        if k == "build":
            return self._check_build(p, m)
        if k == "use":
            return self._check_use(p, m)
        if k == "end":
            return None
        if k == "attack":
            return self._check_attack(p, m)
        return f"C25: '{k}' is not a Purchase-step action (C22, C36)"

    def _check_build(self, p: int, m: Move) -> str | None:
        code = m.code
        card = self.cs.deck.get(code)
        if card is None or card.kind == "unit":
            return f"C31: {code} is not a building or wonder"
        e = self._holds(p, (code,), "C31")
        if e:
            return e
        e = self._own_plot(p, m.num, "C31")
        if e:
            return e
        on = self.plots[p][m.num - 1][2]
        if code in on:
            return f"C18: plot p{m.num} already holds a {code}"
        if len(on) >= self.slots(p, m.num):
            return f"C18: plot p{m.num} has no room for another building or wonder"
        cost = self.card_cost(p, code)
        if self.supply[p][1] < cost:
            return f"C27: {code} costs {cost}H and the supply holds {self.supply[p][1]}H"
        fp = self._free_pop_n(code)
        ft = self._free_tech_n(code)
        if fp:
            want = min(fp, self.pop_supply)
            if m.extra == "free":
                return f"C61: {code} places free population ('settle LIST'), it takes no technology"
            if len(m.plots) != want:
                return f"C61: {code} places exactly {want} free population ('build {code} p{m.num} settle LIST')"
            for x in set(m.plots):
                e = self._own_plot(p, x, "C61")
                if e:
                    return e
            return None
        if ft:
            if m.extra == "settle":
                return f"C62: {code} takes technologies ('free LIST'), it places no population"
            if m.cards not in self.free_tech_sequences(ft):
                return "C62: the free technologies must be taken from the tech market, one at a time, as many as it allows"
            return None
        if m.extra:
            return f"C31: {code} has no free population or free technology to choose"
        return None

    def _check_use(self, p: int, m: Move) -> str | None:
        fx = self.effects(p)
        code = m.code
        if code not in fx.steal_card and code not in fx.steal_res:
            return f"C35: seat {p} has no activated ability on {code}"
        if code in self.used:
            return f"C35: {code} has already been used this turn"
        if self.options.one_shot_steals and code not in self.new_techs:
            return f"C63 (one_shot_steals): {code} acts only in the Purchase step in which it entered play"
        v = m.num
        if v == p or v >= self.n:
            return f"C63: seat {v} is not an opponent"
        if code in fx.steal_card:
            if m.extra:
                return f"C63: '{code}' takes a random card; write 'use {code} {v}'"
            if not sum(self.hands[v]):
                return f"C63: seat {v}'s hand is empty"
            return None
        if not sum(self.supply[v]):
            return f"C64: seat {v}'s supply is empty"
        if m.extra != "res":
            return f"C64: name the resources taken ('use {code} {v} RES')"
        want = min(fx.steal_res[code], sum(self.supply[v]))
        if sum(m.res) != want:
            return f"C64: exactly {want} resources are taken"
        if any(m.res[i] > self.supply[v][i] for i in range(3)):
            return f"C64: seat {v}'s supply does not hold those resources"
        return None

    def _check_attack(self, p: int, m: Move) -> str | None:
        adj = self.adjacent(p)
        need: dict[str, int] = {}
        for seat, units in m.attack:
            if seat not in adj:
                return f"C40: seat {seat} is not an adjacent opponent of seat {p}"
            if not units:
                return "C41: each defender needs at least one unit"
            for u in units:
                card = self.cs.deck.get(u)
                if card is None or not card.attack:
                    return f"C41: {u} cannot attack"
                need[u] = need.get(u, 0) + 1
        return self._holds(p, tuple(c for c, n in need.items() for _ in range(n)), "C41")

    def _check_walls(self, m: Move) -> str | None:
        if m in self._legal_walls():
            return None
        c = self.combat
        assert c is not None
        d = self._defender()
        units = c.assigned(d)
        bc = self.bounce_cards(d)
        breakable = sorted({pl for pl, _, _, br in bc if br})
        k = sum(1 for u in units if self.cs.deck[u].breaks_walls)
        lose_n = min(k, len(breakable))
        if len(m.plots) != lose_n or any(pl not in breakable for pl in m.plots) or len(set(m.plots)) != len(m.plots):
            return f"C42: exactly {lose_n} of the defender's City Walls (by plot) break"
        return "C42: the bounced units must be as many as the bounce allows, among the units still assigned to this defender"

    def _check_defend(self, m: Move) -> str | None:
        c = self.combat
        assert c is not None
        d = self._defender()
        attackers = c.assigned(d)
        need: dict[str, int] = {}
        acount: dict[str, int] = {}
        for b, a in m.blocks:
            need[b] = need.get(b, 0) + 1
            acount[a] = acount.get(a, 0) + 1
            if not self.blockable(d, b, a):
                card = self.cs.deck.get(b)
                if card is None or card.kind != "unit" or not card.defend:
                    return f"C43: {b} cannot defend"
                if a not in attackers:
                    return "C43: each blocker needs a distinct attacking unit assigned to this defender"
                return f"C43: {b} cannot block {a}"
        for a, n in acount.items():
            if attackers.count(a) < n:
                return "C43: each blocker needs a distinct attacking unit assigned to this defender"
        return self._holds(d, tuple(b for b, n in need.items() for _ in range(n)), "C43")

    def _check_damage(self, m: Move) -> str | None:
        d = self._defender()
        s, x = self.damage_amounts(d)
        total_pop = sum(pl[1] for pl in self.plots[d])
        if len(m.plots) != min(s, total_pop):
            return f"C45: exactly {min(s, total_pop)} population must be stolen"
        for pl in set(m.plots):
            if not 1 <= pl <= len(self.plots[d]) or self.plots[d][pl - 1][1] < m.plots.count(pl):
                return f"C45: plot p{pl} of seat {d} does not hold that much population"
        nb = sum(1 for pl in self.plots[d] for code in pl[2] if self.cs.deck[code].kind == "building")
        if len(m.destroy) != min(x, nb):
            return f"C45: exactly {min(x, nb)} buildings must be destroyed"
        if len(set(m.destroy)) != len(m.destroy):
            return "C45: a building is named twice (clarification 14)"
        for pl, code in m.destroy:
            if not 1 <= pl <= len(self.plots[d]) or code not in self.plots[d][pl - 1][2]:
                return f"C45: seat {d} has no {code} on p{pl}"
            if self.cs.deck[code].kind != "building":
                return f"C45: {code} is a wonder; wonders are never destroyed"
        return None

    # ---- execution

    def _exec(self, m: Move) -> None:
        step = self.step
        p = self.to_move
        assert p is not None
        if step == PURCHASE:  # the most frequent first
            self._exec_purchase(p, m)
        elif step == DRAFT:
            self.draft_revealed.remove(m.code)
            self.plots[p].append((m.code, 0, ()))
            self._advance_draft()
        elif step == SETTLE:
            self._add_pop(p, m.num, 1)
            self.pop_supply -= 1
            self.setup_i += 1
            if self.setup_i < self.n:
                self.to_move = self.setup_i
            else:
                self._deal_hands()
        elif step == START_DISCARD:
            self._discard(p, m.cards)
            self.setup_i += 1
            if self.setup_i < self.n:
                self.to_move = self.setup_i
                self.discard_n = START_DISCARD_N
            else:
                self.round = 1
                self._start_turn(0)
        elif step == DISCARD:
            self._discard(p, m.cards)
            self._end_turn()
        elif step == COLLECT:
            self._collect(p, m)
            self.step = PURCHASE
        elif step == WALLS:
            self._exec_walls(m)
        elif step == DEFEND:
            self._exec_defend(m)
        elif step == DAMAGE:
            self._exec_damage(m)
        elif step == PLACE:
            for x in m.plots:
                self._add_pop(p, x, 1)
            assert self.combat is not None
            self.combat.stolen = 0
            self._end_combat()

    def _add_pop(self, p: int, plot: int, k: int) -> None:
        code, pop, on = self.plots[p][plot - 1]
        self.plots[p][plot - 1] = (code, pop + k, on)

    def _discard(self, p: int, cards: Iterable[str]) -> None:
        hand = self.hands[p]
        for c in cards:
            i = DECK_INDEX[c]
            hand[i] -= 1
            self.discard[i] += 1

    def _advance_draft(self) -> None:
        n = self.n
        self.setup_i += 1
        if self.setup_i < n:
            self.to_move = self.setup_i if self.draft_round == 1 else n - 1 - self.setup_i
            return
        if self.draft_round == 1:
            self.draft_round = 2
            self.setup_i = 0
            self.draft_revealed = sorted(self._take_plots(n))
            self.to_move = n - 1
            return
        # C12: markets, then C13: settle
        self.draft_round = 0
        self.draft_revealed = []
        self.plot_market = sorted(self._take_plots(MARKET_PLOTS))
        self.tech_market = sorted(self._take_techs(MARKET_TECHS))
        self.step = SETTLE
        self.setup_i = 0
        self.to_move = 0

    def _take_plots(self, k: int) -> list[str]:
        out = list(self.init_plots[self.plot_pos : self.plot_pos + k])
        self.plot_pos += len(out)
        return out

    def _take_techs(self, k: int) -> list[str]:
        out = list(self.init_techs[self.tech_pos : self.tech_pos + k])
        self.tech_pos += len(out)
        return out

    def _deal_hands(self) -> None:
        for s in range(self.n):
            for _ in range(START_HAND[s]):
                self._draw_one(s)
        self.step = START_DISCARD
        self.setup_i = 0
        self.to_move = 0
        self.discard_n = START_DISCARD_N

    def _draw_one(self, p: int) -> bool:
        """C38: draw one card, reshuffling the discard pile when the deck is empty."""
        if self.deck_pos >= len(self.deck):
            if not any(self.discard):
                return False
            self._reshuffle()
        c = self.deck[self.deck_pos]
        self.deck_pos += 1
        self.hands[p][DECK_INDEX[c]] += 1
        return True

    def _next_chance(self) -> dict[str, Any] | None:
        if self.chance_pos < len(self.chance_in):
            e = self.chance_in[self.chance_pos]
            self.chance_pos += 1
            return e
        return None

    def _rng(self) -> random.Random:
        return random.Random(f"civ4:{self.seed}:{len(self.chance_out)}")

    def _reshuffle(self) -> None:
        pile = self.discard_list()
        e = self._next_chance()
        if e is not None:
            if e.get("kind") != "reshuffle":
                raise _ChanceMismatch(f"C38: the deck must be reshuffled but chance entry {self.chance_pos - 1} is a {e.get('kind')!r} (clarification 6)")
            order = list(e["deck"])
            if sorted(order) != pile:
                raise _ChanceMismatch(f"C38: chance entry {self.chance_pos - 1} is not an ordering of the discard pile (clarification 6)")
        else:
            order = pile
            self._rng().shuffle(order)
        self.chance_out.append({"kind": "reshuffle", "deck": tuple(order)})
        self.deck = tuple(order)
        self.deck_pos = 0
        self.discard = [0] * N_DECK

    def _start_turn(self, seat: int) -> None:
        self.active = seat
        self.to_move = seat
        self.step = COLLECT
        self.used = ()
        self.new_techs = ()

    def _collect(self, p: int, m: Move) -> None:
        """C23, C24, C53-C55."""
        fx = self.effects(p)
        b0, b1, b2 = fx.boost
        g0, g1, g2 = fx.income
        terms = dict(m.collect)
        for i, (code, pop, on) in enumerate(self.plots[p], 1):
            y = _plot_yield(code, on, self.cs)
            if y[0]:
                g0 += y[0] + b0
            if y[1]:
                g1 += y[1] + b1
            if y[2]:
                g2 += y[2] + b2
            if pop:
                letters = terms.get(i)
                if letters is None:
                    r = _PRODUCED[code][0]
                    if r == 0:
                        g0 += pop
                    elif r == 1:
                        g1 += pop
                    else:
                        g2 += pop
                else:
                    n0, n1, n2 = _letter_counts(letters)
                    g0 += n0
                    g1 += n1
                    g2 += n2
        sup = self.supply[p]
        sup[0] += g0
        sup[1] += g1
        sup[2] += g2

    def _pay(self, p: int, r: Iterable[int]) -> None:
        sup = self.supply[p]
        for i, x in enumerate(r):
            sup[i] -= x

    def _exec_purchase(self, p: int, m: Move) -> None:
        k = m.kind
        sup = self.supply[p]
        if k == "cash":
            i = DECK_INDEX[m.code]
            self.hands[p][i] -= 1
            self.discard[i] += 1
            r = self.cs.deck[m.code].resource
            for j in range(3):
                sup[j] += r[j]
        elif k == "trade":
            for j in range(3):
                sup[j] += m.get[j] - m.res[j]
        elif k == "pop":
            sup[0] -= self.pop_cost(p, m.num)
            self._add_pop(p, m.num, 1)
            self.pop_supply -= 1
        elif k == "plot":
            self._pay(p, m.res)
            self.plot_market.remove(m.code)
            self.plots[p].append((m.code, 0, ()))
            self.plot_market.extend(self._take_plots(1))
            self.plot_market.sort()
        elif k == "tech":
            sup[2] -= self.card_cost(p, m.code)
            self._take_tech(p, m.code)
            self._check_end()
        elif k == "build":
            code = m.code
            sup[1] -= self.card_cost(p, code)  # clarification 3: cost before entering play
            self.hands[p][DECK_INDEX[code]] -= 1
            pcode, pop, on = self.plots[p][m.num - 1]
            self.plots[p][m.num - 1] = (pcode, pop, tuple(sorted((*on, code))))
            fx = self.fx[p]
            self.fx[p] = None if fx is None else _fx_plus(fx, self.cs.deck[code], self.cs)
            if m.extra == "settle":
                for x in m.plots:
                    self._add_pop(p, x, 1)
                    self.pop_supply -= 1
            elif m.extra == "free":
                for t in m.cards:
                    self._take_tech(p, t)
                    if not self.tech_market and self.tech_pile_size == 0 and not self.options.finish_round:
                        break
            self._check_end()
        elif k == "use":
            self._exec_use(p, m)
        elif k == "end":
            self._begin_draw()
        elif k == "attack":
            self._exec_attack(p, m)

    def _take_tech(self, p: int, code: str) -> None:
        """C32, C62: a technology enters ``p``'s empire; refill; C60 one-time effects."""
        self.tech_market.remove(code)
        self.techs[p] = tuple(sorted((*self.techs[p], code)))
        fx = self.fx[p]
        self.fx[p] = None if fx is None else _fx_plus(fx, self.cs.techs[code], self.cs)
        self.tech_market.extend(self._take_techs(1))
        self.tech_market.sort()
        self.new_techs = (*self.new_techs, code)
        for e in self.cs.techs[code].effects:
            if e.kind == "gain_once":
                mult = len(self.plots[p]) if e.per_plot else 1
                for j in range(3):
                    self.supply[p][j] += e.resources[j] * mult
        if not self.tech_market and self.tech_pile_size == 0:
            self.last_tech = True

    def _check_end(self) -> None:
        """C68: the last technology ends the game at once (unless ``finish_round``)."""
        if self.last_tech and not self.options.finish_round:
            self._finish("last_tech")

    def _exec_use(self, p: int, m: Move) -> None:
        code, v = m.code, m.num
        fx = self.effects(p)
        self.used = tuple(sorted((*self.used, code)))
        if code in fx.steal_card:
            for _ in range(min(fx.steal_card[code], sum(self.hands[v]))):
                e = self._next_chance()
                held = [DECK_CODES[i] for i, k in enumerate(self.hands[v]) for _ in range(k)]
                if e is not None:
                    if e.get("kind") != "steal":
                        raise _ChanceMismatch(f"C63: the steal needs a 'steal' chance entry but entry {self.chance_pos - 1} is a {e.get('kind')!r} (clarification 6)")
                    card = e["card"]
                    if card not in held:
                        raise _ChanceMismatch(f"C63: chance entry {self.chance_pos - 1} takes a card that seat {v} does not hold (clarification 6)")
                else:
                    card = self._rng().choice(held)
                self.chance_out.append({"kind": "steal", "card": card})
                i = DECK_INDEX[card]
                self.hands[v][i] -= 1
                self.hands[p][i] += 1
                self.steals.append((len(self.moves), p, v, card))
        else:
            for j in range(3):
                self.supply[v][j] -= m.res[j]
                self.supply[p][j] += m.res[j]

    def _exec_attack(self, p: int, m: Move) -> None:
        units: list[list[Any]] = []
        for seat, us in m.attack:
            for u in us:
                self.hands[p][DECK_INDEX[u]] -= 1
                units.append([u, seat, "assigned"])
        seats = [s for s, _ in m.attack]
        order = sorted(seats, key=lambda s: (s - p) % self.n)
        self.combat = Combat(p, order, units)
        self._combat_next(WALLS, 0)

    def _combat_next(self, stage: str, idx: int) -> None:
        """Move to the next combat decision from ``(stage, idx)``, skipping as NOTATION.md says."""
        c = self.combat
        assert c is not None
        while True:
            if stage == WALLS:
                while idx < len(c.defenders) and not self.bounce_cards(c.defenders[idx]):
                    idx += 1
                if idx < len(c.defenders):
                    break
                stage, idx = DEFEND, 0
            if stage == DEFEND:
                while idx < len(c.defenders) and not c.assigned(c.defenders[idx]):
                    idx += 1
                if idx < len(c.defenders):
                    break
                # C44: blocked units and blockers to the discard pile together
                for u in c.units:
                    if u[2] == "blocked":
                        self.discard[DECK_INDEX[u[0]]] += 1
                for _, b, _ in c.blocks:
                    self.discard[DECK_INDEX[b]] += 1
                stage, idx = DAMAGE, 0
            if stage == DAMAGE:
                while idx < len(c.defenders) and not c.assigned(c.defenders[idx]):
                    idx += 1
                if idx < len(c.defenders):
                    break
                stage, idx = PLACE, 0
            if stage == PLACE:
                if c.stolen:
                    c.stage, c.idx = PLACE, 0
                    self.step = PLACE
                    self.to_move = c.attacker
                    return
                self._end_combat()
                return
        c.stage, c.idx = stage, idx
        self.step = stage
        self.to_move = c.defenders[idx]

    def _exec_walls(self, m: Move) -> None:
        c = self.combat
        assert c is not None
        d = self._defender()
        # C42.1: the chosen City Walls return to the hand, as many Catapults are discarded
        for pl in m.plots:
            code, pop, on = self.plots[d][pl - 1]
            broken = next(x for x in on if any(e.kind == "bounce" and e.breakable for e in self.cs.deck[x].effects))
            self.plots[d][pl - 1] = (code, pop, tuple(x for x in on if x != broken))
            self.hands[d][DECK_INDEX[broken]] += 1
            self.fx[d] = None
            for u in sorted(c.units, key=lambda u: u[0]):
                if u[1] == d and u[2] == "assigned" and self.cs.deck[u[0]].breaks_walls:
                    u[2] = "broke_walls"
                    self.discard[DECK_INDEX[u[0]]] += 1
                    break
        # C42.2: bounced units return to the attacker's hand
        for code in m.cards:
            for u in c.units:
                if u[1] == d and u[2] == "assigned" and u[0] == code:
                    u[2] = "bounced"
                    self.hands[c.attacker][DECK_INDEX[code]] += 1
                    break
        self._combat_next(WALLS, c.idx + 1)

    def _exec_defend(self, m: Move) -> None:
        c = self.combat
        assert c is not None
        d = self._defender()
        for b, a in m.blocks:
            self.hands[d][DECK_INDEX[b]] -= 1
            for u in c.units:
                if u[1] == d and u[2] == "assigned" and u[0] == a:
                    u[2] = "blocked"
                    break
            c.blocks.append((d, b, a))
        self._combat_next(DEFEND, c.idx + 1)

    def _exec_damage(self, m: Move) -> None:
        c = self.combat
        assert c is not None
        d = self._defender()
        for pl in m.plots:
            self._add_pop(d, pl, -1)
            c.stolen += 1
        for pl, code in m.destroy:
            pc, pop, on = self.plots[d][pl - 1]
            self.plots[d][pl - 1] = (pc, pop, tuple(x for x in on if x != code))
            self.hands[d][DECK_INDEX[code]] += 1
            self.fx[d] = None
        for u in c.units:
            if u[1] == d and u[2] == "assigned":
                u[2] = "done"
        self._combat_next(DAMAGE, c.idx + 1)

    def _end_combat(self) -> None:
        """C46: every attacking unit still in the combat goes to the discard pile."""
        c = self.combat
        assert c is not None
        for u in c.units:
            if u[2] in ("assigned", "done"):
                self.discard[DECK_INDEX[u[0]]] += 1
        self.combat = None
        self._begin_draw()

    def _begin_draw(self) -> None:
        """C37: fix D and K, draw D cards, then the discard decision (skipped on an empty hand)."""
        p = self.active
        assert p is not None
        self.step = DISCARD
        self.to_move = p
        hc = self.highest_culture() == p
        d = DRAW + self.effects(p).extra_draw + (1 if hc else 0)
        k = DISCARD_N + (1 if hc else 0)
        for _ in range(d):
            if not self._draw_one(p):
                break
        h = sum(self.hands[p])
        if h <= k:
            n = h
        else:
            n = k
            if self.options.hand_limit is not None:
                n = max(k, h - self.options.hand_limit)
        self.discard_n = n
        if n == 0:
            self._end_turn()

    def _end_turn(self) -> None:
        a = self.active
        assert a is not None
        if a == self.n - 1:
            if self.last_tech and self.options.finish_round:
                self._finish("last_tech")
                return
            if self.round >= STALEMATE:
                self._finish("stalemate")
                return
            self.round += 1
        self._start_turn((a + 1) % self.n)

    def _finish(self, reason: str) -> None:
        self.finished = True
        self.reason = reason
        self.step = OVER
        self.to_move = None
        self.active = None
        self.combat = None
        self.used = ()
        self.new_techs = ()
        sc = [tuple(x) for x in self.scores]
        best = max(sc)
        self.winners = [s for s in range(self.n) if sc[s] == best]


# ---------------------------------------------------------------------------
# Set-up


#: the slots :meth:`GameState.copy` assigns: every one (a slot added without its line in
#: ``copy`` stops the import here rather than leaving copies without it)
_COPIED: Final = frozenset(GameState.copy.__code__.co_names)
if not _COPIED.issuperset(GameState.__slots__):  # pragma: no cover - a programming error
    raise RuntimeError(f"GameState.copy misses {sorted(set(GameState.__slots__) - _COPIED)}")


def _check_players(players: object) -> int:
    if isinstance(players, bool) or not isinstance(players, int) or players not in (2, 3, 4):
        raise ConfigError(f"C8: the game is for 2, 3 or 4 players, not {players!r}.")
    return players


def shuffle_piles(
    players: int, options: Options, rng: random.Random
) -> tuple[list[str], list[str], list[str], list[str]]:
    """C9: the plot pile, the tech pile (by era, after removal), the removed techs and the deck."""
    cs = _SETS[options.cards]
    plots = list(cs.plot_box)
    rng.shuffle(plots)
    deck = list(cs.deck_box)
    rng.shuffle(deck)
    keep = 8 if options.all_techs else cs.techs_per_era[str(players)]
    techs: list[str] = []
    removed: list[str] = []
    for era in (1, 2, 3):
        e = list(TECHS_BY_ERA[era])
        rng.shuffle(e)
        techs.extend(e[:keep])
        removed.extend(e[keep:])
    return plots, techs, removed, deck


def check_piles(
    players: int, options: Options, plots: list[str], techs: list[str], removed: list[str], deck: list[str]
) -> str | None:
    """The field and reason when the four lists are not what C9 and C71 require, else None."""
    cs = _SETS[options.cards]
    if sorted(plots) != list(cs.plot_box):
        return f"'plots' must be an ordering of the {len(cs.plot_box)} plot cards of the card set"
    if sorted(deck) != list(cs.deck_box):
        return f"'deck' must be an ordering of the {len(cs.deck_box)} game-deck cards of the card set"
    keep = 8 if options.all_techs else cs.techs_per_era[str(players)]
    if len(techs) != 3 * keep:
        return f"'techs' must hold {3 * keep} technologies ({keep} per era) for {players} players"
    for era in (1, 2, 3):
        seg = techs[(era - 1) * keep : era * keep]
        if any(t not in _TECHS or _TECHS[t].era != era for t in seg):
            return f"'techs' must list {keep} era I technologies, then {keep} of era II, then {keep} of era III"
    if sorted(techs + removed) != sorted(_TECHS):
        return "'techs' and 'removed' together must be the 24 technologies, each once"
    return None


def state_from_piles(
    players: int,
    plots: list[str],
    techs: list[str],
    removed: list[str],
    deck: list[str],
    *,
    options: Mapping[str, Any] | Options | None = None,
    seed: int = 0,
    chance: Iterable[Mapping[str, Any]] = (),
    game_id: str | None = None,
    names: Iterable[str] | None = None,
) -> GameState:
    """A new game dealt from explicit piles (top card first); chance outcomes are consumed in order."""
    n = _check_players(players)
    opts = parse_options(options)
    err = check_piles(n, opts, list(plots), list(techs), list(removed), list(deck))
    if err:
        raise ConfigError(err + ".")
    g = object.__new__(GameState)
    g.n = n
    g.options = opts
    g.seed = seed
    g.init_plots = tuple(plots)
    g.init_techs = tuple(techs)
    g.init_removed = tuple(removed)
    g.init_deck = tuple(deck)
    g.plot_pos = 0
    g.tech_pos = 0
    g.deck = g.init_deck
    g.deck_pos = 0
    g.discard = [0] * N_DECK
    g.plot_market = []
    g.tech_market = []
    g.pop_supply = _SETS[opts.cards].population
    g.hands = [[0] * N_DECK for _ in range(n)]
    g.plots = [[] for _ in range(n)]
    g.techs = [() for _ in range(n)]
    g.supply = [[0, 0, 0] for _ in range(n)]
    g.fx = [None] * n
    g.round = 0
    g.active = None
    g.used = ()
    g.new_techs = ()
    g.combat = None
    g.discard_n = 0
    g.finished = False
    g.reason = None
    g.winners = []
    g.last_tech = False
    g.moves = []
    g.chance_in = tuple(dict(c) for c in chance)
    g.chance_pos = 0
    g.chance_out = []
    g.steals = []
    g.game_id = game_id
    g.names = tuple(names) if names is not None else None
    # C10: two plots each, face up, in seat order
    for s in range(n):
        for c in g._take_plots(START_PLOTS):
            g.plots[s].append((c, 0, ()))
    # C11.1: reveal n plots
    g.step = DRAFT
    g.draft_round = 1
    g.draft_revealed = sorted(g._take_plots(n))
    g.setup_i = 0
    g.to_move = 0
    return g


def new_game(
    players: int,
    options: Mapping[str, Any] | Options | None = None,
    seed: int | None = None,
    *,
    game_id: str | None = None,
    names: Iterable[str] | None = None,
) -> GameState:
    """A new game, shuffled with ``seed`` (C9; a random seed when None)."""
    n = _check_players(players)
    opts = parse_options(options)
    if seed is None:
        seed = random.randrange(2**63)
    elif isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigError(f"the seed must be an integer, not {seed!r}.")
    plots, techs, removed, deck = shuffle_piles(n, opts, random.Random(seed))
    return state_from_piles(n, plots, techs, removed, deck, options=opts, seed=seed, game_id=game_id, names=names)


def move_text(move: Move | str) -> str:
    """The canonical text of a move or move text (raises NotationError when unreadable)."""
    return format_move(parse_move(move) if isinstance(move, str) else move)
