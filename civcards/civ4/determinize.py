"""Determinization: full states consistent with what one seat knows (C72).

For the information-set search. :class:`Determinizer` reads a seat's
:class:`~civcards.civ4.observation.Observation` once; :meth:`Determinizer.sample`
then deals a :class:`~civcards.civ4.game.GameState` that gives that seat the same
observation, the same choices and the same refusals, with everything the seat
cannot see dealt anew at random:

- the other hands (their sizes are public) and the order of the deck, from the
  game-deck cards the seat has not seen: the box minus its own hand, the discard
  pile, the cards in play on every plot and the units in a combat;
- the cards the seat knows to be in another hand stay there: a card a Writing
  steal took from the seat (``known_steals``) while the thief has made no move
  that names that card and has not been stolen from since, and the units
  bounced back to the attacker in the combat on the table;
- the order of the plot pile (the plots not in an empire, the market or the
  draft);
- the tech pile and the removed technologies: per era, the technologies not yet
  seen are split into the rest of that era's pile (C9, C71: ``keep`` per era
  minus those seen) and the removed ones; the pile stays ordered by era, so the
  top card's era is the public one.

The boxes, the eras and the technologies that steal a card are those of the
card set the observation's options name (:func:`~civcards.civ4.cards.card_set_of`;
today every set has the same boxes and eras).

>>> import random
>>> from civcards.civ4.game import new_game
>>> from civcards.civ4.observation import observe
>>> g = new_game(2, seed=4)
>>> obs = observe(g, g.to_move)
>>> s = Determinizer(obs).sample(random.Random(1))
>>> observe(s, 0) == obs
True
"""

from __future__ import annotations

import random
import re
from collections import Counter
from functools import cache
from typing import Any

from .cards import DECK_INDEX, N_DECK, CardSet, card_set_of
from .game import (
    DAMAGE,
    DEFEND,
    DISCARD,
    DISCARD_N,
    DRAFT,
    PLACE,
    SETTLE,
    START_DISCARD,
    START_DISCARD_N,
    WALLS,
    Combat,
    GameState,
)
from .observation import Observation
from .options import parse_options

__all__ = ["DeterminizeError", "Determinizer"]

_TOKEN = re.compile(r"[A-Z]{3}")
_COMBAT_STEPS = (WALLS, DEFEND, DAMAGE, PLACE)


class _Tables:
    """What the determinizer reads of one card set (built once per set)."""

    __slots__ = ("deck_box", "plot_box", "steal_card", "techs_by_era", "techs_per_era")

    def __init__(self, cs: CardSet) -> None:
        #: every game-deck card and every plot card with its multiplicity (C2, C4)
        self.deck_box = cs.deck_box
        self.plot_box = cs.plot_box
        #: each era's technologies, sorted (C9)
        self.techs_by_era = {
            era: tuple(sorted(t.code for t in cs.techs.values() if t.era == era)) for era in (1, 2, 3)
        }
        self.techs_per_era = cs.techs_per_era
        #: the technologies whose ability steals a card (Writing)
        self.steal_card = frozenset(
            c for c, t in cs.techs.items() if any(e.kind == "steal_card" for e in t.effects)
        )


#: card set -> its tables (a set is loaded once and compared by identity)
@cache
def _tables(cs: CardSet) -> _Tables:
    return _Tables(cs)


#: the most cards :func:`_shuffle` shuffles itself (every pile of the game is smaller)
_SHUFFLE_MAX = 256
#: bit lengths of 0.._SHUFFLE_MAX
_BITS = [n.bit_length() for n in range(_SHUFFLE_MAX + 1)]


def _shuffle(x: list[Any], rng: random.Random) -> None:
    """``rng.shuffle(x)``: the same permutation from the same random numbers, without a
    Python call per card. ``random.Random.shuffle`` swaps ``x[i]`` with
    ``x[randbelow(i + 1)]`` for i from the top down, and ``randbelow(n)`` draws
    ``getrandbits(n.bit_length())`` until it is below n; this does just that, inline.
    :data:`_FAST_SHUFFLE` checks it on import (else ``rng.shuffle`` is used)."""
    top = len(x) - 1
    if not _FAST_SHUFFLE or type(rng) is not random.Random or top >= _SHUFFLE_MAX:
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    bits = _BITS
    for i in range(top, 0, -1):
        n = i + 1
        k = bits[n]
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _shuffle_agrees() -> bool:
    """Whether :func:`_shuffle` draws what ``random.Random.shuffle`` draws here: the same
    permutations and the generator left in the same state."""
    for seed in range(12):
        a = list(range(seed * 23 % 200))
        b = a[:]
        ra, rb = random.Random(seed), random.Random(seed)
        random.Random.shuffle(ra, a)
        _shuffle(b, rb)
        if a != b or ra.getrandbits(32) != rb.getrandbits(32):
            return False
    return True


_FAST_SHUFFLE = True
_FAST_SHUFFLE = _shuffle_agrees()


class DeterminizeError(ValueError):
    """A position the determinizer cannot deal (a finished game, a spectator)."""


def _new_techs(history: tuple[str, ...]) -> tuple[str, ...]:
    """The technologies that entered play since the current turn's Collect step."""
    out: list[str] = []
    for text in reversed(history):
        words = text.split()
        if words[0] == "collect":
            break
        if words[0] == "tech":
            out.append(words[1])
        elif words[0] == "build" and len(words) == 5 and words[3] == "free":
            out.extend(reversed(words[4].split(",")))
    return tuple(reversed(out))


def _pinned(obs: Observation, steal_card: frozenset[str]) -> dict[int, Counter[str]]:
    """Cards the observing seat knows to be in another seat's hand (``steal_card``: the
    technologies whose ability steals a card, in the game's card set)."""
    seat = obs.seat
    out: dict[int, Counter[str]] = {}
    history = obs.history
    for idx, thief, victim, card in obs.known_steals:
        if victim != seat or thief == seat:
            continue
        later = history[idx + 1 :]
        gone = False
        for text in later:
            words = text.split()
            if card in _TOKEN.findall(text):
                gone = True  # the thief may have cashed, built, discarded or played it
                break
            if words[0] == "use" and words[1] in steal_card and int(words[2]) == thief:
                gone = True  # it may have been stolen in turn
                break
        if not gone:
            out.setdefault(thief, Counter())[card] += 1
    c = obs.combat
    if c is not None and c.attacker != seat:
        for code, _, state in c.units:
            if state == "bounced":
                out.setdefault(c.attacker, Counter())[code] += 1
    return out


class Determinizer:
    """Samples full states consistent with ``obs`` (see the module docstring).

    ``reveal`` and ``chosen`` are accepted for the platform's interface; no step of
    this game reveals cards, so they must be None/unused. Raises
    :class:`DeterminizeError` for a finished game or a spectator's observation.
    """

    def __init__(self, obs: Observation, reveal: Any = None, chosen: str | None = None) -> None:
        if reveal is not None:
            raise DeterminizeError("no step of this game reveals cards")
        if obs.finished:
            raise DeterminizeError("the game is over: there is nothing to determinize")
        if obs.seat is None:
            raise DeterminizeError("a spectator has no information set to sample (no seat)")
        self.obs = obs
        seat = obs.seat
        n = obs.players
        options = dict(obs.options)
        opts = parse_options(options)
        #: the game's card set (its boxes and eras; the same counts in every set today)
        self.cs = card_set_of(options)
        tables = _tables(self.cs)
        own = obs.hand
        assert own is not None
        self.sizes = [0 if s == seat else int(pv.hand) for s, pv in enumerate(obs.seats)]  # type: ignore[arg-type]
        # -- game-deck cards not seen by the seat
        seen: Counter[str] = Counter(own)
        seen.update(obs.discard)
        for pv in obs.seats:
            for _, _, on in pv.plots:
                seen.update(on)
        c = obs.combat
        if c is not None:
            for code, _, state in c.units:
                blocked_here = state == "blocked" and obs.step in (WALLS, DEFEND)
                if state in ("assigned", "done") or blocked_here:
                    seen[code] += 1
            if obs.step in (WALLS, DEFEND):
                for _, b, _ in c.blocks:
                    seen[b] += 1
        pool = Counter(tables.deck_box)
        pool.subtract(seen)
        if any(k < 0 for k in pool.values()):
            raise DeterminizeError("the observation shows more copies of a card than the box holds")
        self.pinned = _pinned(obs, tables.steal_card)
        for s, cards in self.pinned.items():
            pool.subtract(cards)
            if any(k < 0 for k in pool.values()) or sum(cards.values()) > self.sizes[s]:
                raise DeterminizeError("the cards known to be in a hand do not fit the unseen cards")
        self.pool = sorted(pool.elements())
        if len(self.pool) != sum(self.sizes) - sum(sum(p.values()) for p in self.pinned.values()) + obs.deck:
            raise DeterminizeError("the unseen cards do not match the hand sizes and the deck")
        # -- plots not seen
        plots = Counter(tables.plot_box)
        for pv in obs.seats:
            plots.subtract(code for code, _, _ in pv.plots)
        plots.subtract(obs.plot_market)
        if obs.draft is not None:
            plots.subtract(obs.draft[1])
        if any(k < 0 for k in plots.values()) or sum(plots.values()) != obs.plot_pile:
            raise DeterminizeError("the plot pile does not match the plots seen")
        self.plot_pool = sorted(plots.elements())
        # -- technologies not seen, per era (C9, C71)
        keep = 8 if opts.all_techs else tables.techs_per_era[str(n)]
        seen_t = set(obs.tech_market)
        for pv in obs.seats:
            seen_t.update(pv.techs)
        self.eras: list[tuple[list[str], int]] = []
        left = 0
        for era in (1, 2, 3):
            in_era = tables.techs_by_era[era]
            unseen = [t for t in in_era if t not in seen_t]
            in_pile = keep - (len(in_era) - len(unseen))
            if in_pile < 0 or in_pile > len(unseen):
                raise DeterminizeError(f"more era {era} technologies are in play than the pile held")
            self.eras.append((unseen, in_pile))
            left += in_pile
        if left != obs.tech_pile:
            raise DeterminizeError("the tech pile does not match the technologies seen")
        self.template = self._template(opts)
        #: each other seat's deal: (seat, cards dealt from the pool, its pinned cards by index)
        self._deal = [
            (
                s,
                size - sum(self.pinned.get(s, Counter()).values()),
                [(DECK_INDEX[code], m) for code, m in self.pinned.get(s, Counter()).items()],
            )
            for s, size in enumerate(self.sizes)
            if s != seat
        ]

    def _template(self, opts: Any) -> GameState:
        obs = self.obs
        n = obs.players
        g = object.__new__(GameState)
        g.n = n
        g.options = opts
        g.seed = 0
        g.game_id = None
        g.names = None
        g.plot_pos = 0
        g.tech_pos = 0
        g.deck_pos = 0
        g.init_plots = g.init_techs = g.init_removed = g.init_deck = g.deck = ()
        g.discard = [0] * N_DECK
        for code in obs.discard:
            g.discard[DECK_INDEX[code]] += 1
        g.plot_market = list(obs.plot_market)
        g.tech_market = list(obs.tech_market)
        g.pop_supply = obs.population_supply
        g.hands = [[0] * N_DECK for _ in range(n)]
        assert obs.seat is not None and obs.hand is not None
        for code in obs.hand:
            g.hands[obs.seat][DECK_INDEX[code]] += 1
        g.plots = [list(pv.plots) for pv in obs.seats]
        g.techs = [tuple(pv.techs) for pv in obs.seats]
        g.supply = [list(pv.supply) for pv in obs.seats]
        g.fx = [None] * n
        g.step = obs.step
        g.round = obs.round
        g.active = obs.active
        g.to_move = obs.to_move
        if obs.draft is not None:
            g.draft_round, revealed = obs.draft
            g.draft_revealed = list(revealed)
        else:
            g.draft_round = 0
            g.draft_revealed = []
        tm = obs.to_move if obs.to_move is not None else 0
        if obs.step == DRAFT:
            g.setup_i = tm if g.draft_round == 1 else n - 1 - tm
        elif obs.step in (SETTLE, START_DISCARD):
            g.setup_i = tm
        else:
            g.setup_i = 0
        g.used = tuple(obs.used)
        g.new_techs = _new_techs(obs.history)
        g.combat = None
        c = obs.combat
        if c is not None:
            cb = Combat(c.attacker, list(c.defenders), [[u, d, s] for u, d, s in c.units])
            cb.blocks = list(c.blocks)
            cb.stolen = c.stolen
            cb.stage = obs.step if obs.step in _COMBAT_STEPS else WALLS
            cb.idx = c.defenders.index(tm) if obs.step in (WALLS, DEFEND, DAMAGE) else 0
            g.combat = cb
        g.finished = False
        g.reason = None
        g.winners = []
        g.last_tech = not obs.tech_market and obs.tech_pile == 0
        g.moves = list(obs.history)
        g.chance_in = ()
        g.chance_pos = 0
        g.chance_out = []
        g.steals = [tuple(s) for s in obs.known_steals]  # type: ignore[misc]
        g.discard_n = 0
        if obs.step == START_DISCARD:
            g.discard_n = START_DISCARD_N
        elif obs.step == DISCARD:
            a = obs.active
            assert a is not None
            k = DISCARD_N + (1 if g.highest_culture() == a else 0)
            h = len(obs.hand) if a == obs.seat else self.sizes[a]
            if h <= k:
                g.discard_n = h
            else:
                g.discard_n = k if opts.hand_limit is None else max(k, h - opts.hand_limit)
        # every seat's effects (its technologies and the cards on its plots, all public and
        # the same in every deal), worked out once rather than in every sample
        for s in range(n):
            g.effects(s)
        return g

    def sample(self, rng: random.Random) -> GameState:
        """A full state consistent with the observation, hidden cards dealt by ``rng``."""
        g = self.template.copy()
        g.seed = rng.getrandbits(63)
        pool = self.pool[:]
        _shuffle(pool, rng)
        pos = 0
        index = DECK_INDEX
        hands = g.hands
        for s, k, pins in self._deal:
            hand = hands[s]
            for i, m in pins:
                hand[i] += m
            end = pos + k
            for code in pool[pos:end]:
                hand[index[code]] += 1
            pos = end
        g.deck = g.init_deck = tuple(pool[pos:])
        plots = self.plot_pool[:]
        _shuffle(plots, rng)
        g.init_plots = tuple(plots)
        techs: list[str] = []
        removed: list[str] = []
        for unseen, in_pile in self.eras:
            e = unseen[:]
            _shuffle(e, rng)
            techs.extend(e[:in_pile])
            removed.extend(e[in_pile:])
        g.init_techs = tuple(techs)
        g.init_removed = tuple(removed)
        return g
