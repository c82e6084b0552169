"""civ4's search kit: what the generic ``ismcts`` (:mod:`civcards.bots.ismcts`) uses of civ4.

The generic kit walks every factored choice to its full moves (a plot's
payments, a collect's assignments, an attack's splits) and values a leaf by a
uniform random playout to the end of the game: 28-68 s a move, and weak. This
kit keeps the search on the decisions that matter and borrows the ``greedy``
bot (:mod:`civcards.games.civ4.greedy`) for the rest:

* **The seat's own moves.** At the decision being searched (the root) every
  first-level choice is a branch; a step (``plot FOR ?``, ``attack ?``, a
  special build, a long discard or collect offered in steps) is one branch,
  completed by greedy's policy (its payment, its split). Below the root the
  seat's Purchase steps are searched the same way; its other decisions
  (collect, discard, combat answers) are greedy's.
* **Rivals** are modelled by greedy: a rival's node has one branch, the move
  greedy makes from that rival's observation in the deal at hand.
* **Values.** A finished game is worth 1 to its winners (shared), 0 to the
  others (C70). With the end in view (at most :data:`ENDGAME_TURNS` turns
  guessed left), any other leaf is first played on by greedy for every seat,
  through the seat's own Draw and its rivals' turns until its next turn begins
  (at most :data:`ROLLOUT_STEPS` moves; can a rival end the game, C68? the
  ``static`` evaluation skips this). A leaf is then valued by :func:`evaluate`: each
  seat's victory points now (C70) plus its economy over the turns left
  (production, supply, hand, effects and statuses, priced in VP as greedy
  prices them), turned into chances by a softmax whose temperature shrinks as
  the technologies run out (the game ends when the last one is bought, C68).
  Each seat is valued by its own chance (*max-n*). Every card's figures are those of
  the game's own card set (``GameState.cs``).
* **Determinization**: :class:`civcards.civ4.determinize.Determinizer` (the
  other hands, the deck, the plot and tech piles and the removed technologies
  dealt anew; the discards, the draft and the cards a Writing steal showed kept).

:func:`root_value` reads the searching seat's estimated chance of winning from
a bot's last search (for ``civcards analyse``).
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from functools import cache
from operator import mul
from typing import Any

from ...bots.base import Decision
from ...bots.search import Edge, SearchKit
from ...civ4.cards import DECK_CODES, RULES, CardSet
from ...civ4.choices import Choice as EngineChoice
from ...civ4.choices import choices as engine_choices
from ...civ4.choices import expand as engine_expand
from ...civ4.game import GameState, IllegalMoveError
from ...civ4.moves import NotationError, parse_move
from ...civ4.observation import Observation, observe
from ...game_api import Choice
from .bots import GreedyBot
from .greedy import UNIT_HOLD, VPR, GreedyPolicy, View, match

#: the leaf evaluations (``ismcts:1000it:static``): greedy plays to the end of the turn, or none
EVALUATIONS = ("rollout", "static")
#: the most moves a leaf's rollout plays (only with the end of the game in view)
ROLLOUT_STEPS = 40
#: a leaf is played on by greedy when this few turns are guessed left (C68)
ENDGAME_TURNS = 1.0
#: the most moves one target's funding and purchase takes
MACRO_STEPS = 12
#: techs bought per player and turn, to guess the turns left (greedy's figure)
TECH_PACE = 0.5
#: the softmax temperature in VP: ``TEMP_BASE + TEMP_PER_TURN`` x the turns left
TEMP_BASE = 0.6
TEMP_PER_TURN = 0.25
#: VP of a resource in the supply and of a card's cash value in hand (below :data:`VPR`:
#: they are not yet spent)
SUPPLY_VP = 0.8 * VPR
HAND_VP = 0.7 * VPR
#: VP a turn of holding Highest Culture (one more card drawn) and Highest Happiness (a discount)
CULTURE_VP = 0.12
HAPPY_VP = 0.06

_STALEMATE: int = RULES["stalemate_rounds"]


class _SetTables:
    """What :func:`economy` reads of one card set, by code (built once per set: a set is
    loaded once and compared by identity, :class:`~civcards.civ4.cards.CardSet`)."""

    __slots__ = ("doubled", "hold", "plots", "trade_rate")

    def __init__(self, cs: CardSet) -> None:
        deck = cs.deck
        #: VP of each deck card held in hand (by deck index): its cash value, a unit at
        #: least what greedy holds it worth (it attacks and blocks)
        self.hold = [
            max(
                sum(deck[c].resource) * HAND_VP,
                UNIT_HOLD.get(c, 0.0) if deck[c].kind == "unit" else 0.0,
            )
            for c in DECK_CODES
        ]
        #: plot code -> (its yields, the sum of its yields, the resources it yields)
        self.plots = {
            code: (p.yields, sum(p.yields), tuple(r for r in range(3) if p.yields[r]))
            for code, p in cs.plots.items()
        }
        #: deck code -> the resources whose base yield it doubles on its plot (C52)
        self.doubled = {
            code: tuple(e.resource for e in d.effects if e.kind == "double_base")
            for code, d in deck.items()
        }
        self.trade_rate = cs.trade_rate


@cache
def _tables(cs: CardSet) -> _SetTables:
    return _SetTables(cs)


def turns_left(g: GameState) -> float:
    """Each seat's turns left, guessed from the technologies left (C68) and the cap (C69)."""
    techs = len(g.init_techs) - g.tech_pos + len(g.tech_market)
    rounds = _STALEMATE - g.round + 1
    return max(0.5, min(float(rounds), techs / (TECH_PACE * g.n)))


def economy(g: GameState, seat: int, turns: float) -> float:
    """VP ``seat`` may still make of its empire over ``turns`` turns, beside its VP now
    (priced with the game's card set, ``g.cs``)."""
    return _economy(g, seat, turns, _tables(g.cs))


def _economy(g: GameState, seat: int, turns: float, tab: _SetTables) -> float:
    fx = g.effects(seat)
    prod = sum(fx.income)
    boost = fx.boost
    plots = tab.plots
    doubled = tab.doubled
    boosted = boost[0] or boost[1] or boost[2]
    for code, pop, on in g.plots[seat]:
        y, total, yielded = plots[code]
        prod += pop + total
        if boosted:
            for r in yielded:
                prod += boost[r]
        for c in on:
            for r in doubled[c]:
                prod += y[r]
    later = max(0.0, turns - 1.0)
    v = prod * later * VPR
    v += sum(g.supply[seat]) * SUPPLY_VP
    held: float = sum(map(mul, g.hands[seat], tab.hold))  # (a card not held adds 0.0)
    v += held
    disc = fx.disc
    v += (disc["population"] * 0.8 + disc["tech"] * 0.5 + disc["building"] * 0.2) * turns * VPR
    v += (disc["wonder"] + disc["plot"]) * 0.1 * turns * VPR
    v += 0.03 * turns * max(0, tab.trade_rate - fx.rate)
    v += 0.1 * fx.extra_draw * later
    v += 0.06 * sum(fx.steal_card.values()) * later
    v += 0.5 * sum(fx.steal_res.values()) * later * VPR
    return v


def evaluate(g: GameState) -> list[float]:
    """Each seat's expected final VP, roughly (see the module's documentation)."""
    return _evaluate(g, turns_left(g))


def _evaluate(g: GameState, turns: float) -> list[float]:
    tab = _tables(g.cs)
    out = []
    culture = g.highest_culture()
    happy = g.highest_happiness()
    for s in range(g.n):
        sc = g.score(s)
        v = sc[0] + 0.01 * sc[1] + 0.001 * sc[2] + _economy(g, s, turns, tab)
        if culture == s:
            v += CULTURE_VP * turns
        if happy == s:
            v += HAPPY_VP * turns
        out.append(v)
    return out


def chances(g: GameState) -> list[float]:
    """Each seat's chance of winning, in [0, 1], adding up to 1 (see :func:`evaluate`)."""
    if g.finished:
        w = g.winners
        share = 1.0 / len(w) if w else 1.0 / g.n
        return [share if (s in w or not w) else 0.0 for s in range(g.n)]
    return _chances(g, turns_left(g))


def _chances(g: GameState, turns: float) -> list[float]:
    """:func:`chances` of a game not over, its :func:`turns_left` known."""
    vals = _evaluate(g, turns)
    temp = TEMP_BASE + TEMP_PER_TURN * turns
    top = max(vals)
    ex = [math.exp((v - top) / temp) for v in vals]
    total = sum(ex)
    return [e / total for e in ex]


class Civ4SearchKit(SearchKit):
    """civ4's kit; see the module's documentation."""

    evaluations = EVALUATIONS

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.maxn = True
        self.model_rivals = False
        self.policy = GreedyPolicy()
        self._greedy: GreedyBot | None = None
        self._root_moves = -1
        self._root_active: int | None = None
        #: the branches of the seat's own Purchase nodes, by what they depend on
        self._edge_cache: dict[Hashable, list[Edge]] = {}
        #: the first decision of the seat's turn searched so far: its history's length, the
        #: history, and its round and active seat (the tables below are kept while the
        #: decisions searched are of that turn, each one's history extending it)
        self._anchor = 0
        self._anchor_at: tuple[tuple[str, ...], int, int | None] | None = None
        #: a target's moves from a position, by (the position's signature since the
        #: anchor, the target)
        self._macros: dict[Hashable, list[tuple[Any, str]]] = {}
        #: greedy's pick, by (the observation of the seat choosing, the choices offered)
        self._picks: dict[tuple[Observation, tuple[tuple[str, bool], ...]], int] = {}

    # -- per decision ---------------------------------------------------------------------

    def begin(self, decision: Decision, sampler: Any, rng: Any) -> None:
        super().begin(decision, sampler, rng)
        obs = decision.observation
        self._root_moves = len(obs.history)
        self._root_active = obs.active
        self._edge_cache = {}
        # a macro's moves and greedy's picks are functions of the position (what the seat
        # sees of it): a later decision of the same turn, whose history extends the
        # anchor's, reaches the positions of the earlier ones by the same moves
        hist = obs.history
        at = self._anchor_at
        if at is None or (obs.round, obs.active) != at[1:] or hist[: self._anchor] != at[0]:
            self._anchor = len(hist)
            self._anchor_at = (hist, obs.round, obs.active)
            self._macros = {}
            self._picks = {}

    def step_key(self, step: Choice) -> Hashable:
        return step.text

    def fallback(self, decision: Decision, seed: int | None) -> Choice:
        if self._greedy is None:
            self._greedy = GreedyBot(seed)
        return self._greedy.choose(decision)

    # -- the tree ---------------------------------------------------------------------------

    def finished(self, g: GameState) -> bool:
        # the tree ends with the turn: the game's end, the next turn, or this turn's Draw
        if g.finished or g.active != self._root_active:
            return True
        return g.step == "discard" and len(g.moves) > self._root_moves

    def mover(self, g: GameState) -> int:
        seat = g.to_move
        assert seat is not None
        return seat

    def _greedy_from(self, g: GameState, seat: int, chs: list[EngineChoice]) -> list[EngineChoice]:
        """Greedy's path from ``chs`` (the choices at ``g``) down to a full move."""
        obs = observe(g, seat)
        pick = self._pick
        path = []
        while True:
            c = chs[pick(obs, chs)] if len(chs) > 1 else chs[0]
            path.append(c)
            if c.final:
                return path
            chs = engine_expand(g, c.text)

    def _pick(self, obs: Observation, chs: list[EngineChoice]) -> int:
        """Greedy's pick among ``chs`` (more than one) seen as ``obs``: a function of the
        observation and the choices, so deals that show the seat choosing the same
        position get the same answer (kept)."""
        offered = tuple([(x.text, x.final) for x in chs])
        key = (obs, offered)
        i = self._picks.get(key)
        if i is None:
            i = self._picks[key] = self.policy.pick(obs, offered)
        return i

    def _branches(self, g: GameState, chs: list[EngineChoice], prefix: tuple[str, ...]) -> list[Edge]:
        """Every choice of ``chs`` a branch, a step completed by greedy."""
        out: list[Edge] = []
        paths = self._paths
        seat = self.seat
        for c in chs:
            if c.final:
                key: Hashable = c.text
                full = c
                path = (*prefix, c.text)
            else:
                below = self._greedy_from(g, seat, engine_expand(g, c.text))
                full = below[-1]
                key = full.text
                path = (*prefix, c.text, *(b.text for b in below))
            out.append((key, full))
            if key not in paths:
                paths[key] = path
        return out

    def _signature(self, g: GameState) -> Hashable:
        """What the seat's own Purchase options depend on in a deal."""
        seat = self.seat
        return (
            tuple(g.moves[self._root_moves :]),
            tuple(g.hands[seat]),
            tuple(g.tech_market),
            tuple(g.plot_market),
        )

    def _purchase_edges(self, g: GameState, chs: list[EngineChoice]) -> list[Edge]:
        """The seat's Purchase: one branch per target greedy could fund (cash, trade and
        buy as greedy funds it), the abilities, greedy's attack, and ``end``."""
        seat = self.seat
        obs = observe(g, seat)
        view = View(obs, seat, self.policy.weights)
        banned = view.given_this_turn()
        out: list[Edge] = []
        paths = self._paths
        at_root = len(g.moves) == self._root_moves
        texts = {c.text: c for c in chs}
        for t in view.targets():
            if t.value <= 0 or view.fund(t, banned) is None:
                continue
            key: Hashable = ("target", t.text)
            if at_root:
                moves = self._macro(g.copy(), key)
                if not moves:
                    continue
                paths[key] = self._path_to(g, moves[0][1])
            out.append((key, key))
        for c in chs:
            word = c.text.split(" ", 1)[0]
            if word in ("use", "attack"):
                out.extend(self._branches(g, [c], ()))
        if "end" in texts:
            out.append(("end", texts["end"]))
            paths.setdefault("end", ("end",))
        if not out:
            out = self._branches(g, chs, ())
        return out

    def _path_to(self, g: GameState, text: str) -> tuple[str, ...]:
        """The choices' texts from the first level at ``g`` down to the move ``text``."""
        chs = engine_choices(g)
        path: list[str] = []
        while True:
            i = match([(c.text, c.final) for c in chs], text)
            if i is None:
                return (*path, text)
            c = chs[i]
            path.append(c.text)
            if c.final:
                return tuple(path)
            chs = engine_expand(g, c.text)

    def _macro(self, g: GameState, key: Hashable) -> list[tuple[Any, str]]:
        """Play the target ``key`` at ``g`` as greedy funds it; the moves played (cached by
        the moves since the anchor (the turn's first decision searched) and the hand: a
        target is a branch only where its card or plot is in the market; a build's by the
        markets too, as a wonder's free technologies come from the market, C62)."""
        target = key[1]  # type: ignore[index]
        seat = self.seat
        sig: Hashable
        if target.startswith("build "):
            sig = (
                tuple(g.moves[self._anchor :]),
                tuple(g.hands[seat]),
                tuple(g.tech_market),
                tuple(g.plot_market),
            )
        else:
            sig = (tuple(g.moves[self._anchor :]), tuple(g.hands[seat]))
        cached = self._macros.get((sig, key))
        if cached is not None:
            for m, text in cached:
                g.apply_unchecked(m, text)
            return cached
        pol = self.policy
        done: list[tuple[Any, str]] = []
        for _ in range(MACRO_STEPS):
            if g.finished or g.to_move != seat or g.step != "purchase":
                break
            obs = observe(g, seat)
            view = View(obs, seat, pol.weights)
            t = next(iter(view.targets(target)), None)
            if t is None:
                break
            f = view.fund(t, view.given_this_turn())
            if f is None:
                break
            step = f[1]
            want: str | None
            # (the choices offered are listed only where greedy reads them)
            if step == "BUY":
                want = target
                if target.startswith("plot "):
                    below = engine_expand(g, target)
                    while below and not below[0].final and len(below) == 1:
                        below = engine_expand(g, below[0].text)
                    want = pol.plot_payment(view, [c.text for c in below])
                elif target.startswith("build ") and all(c.text != target for c in engine_choices(g)):
                    below = engine_expand(g, target + " ?")
                    want = pol.special_build(view, [c.text for c in below])
            elif step == "TRADE":
                want = pol.trade(view, [c.text for c in engine_choices(g)], t.rtype)
            else:
                want = step
            if want is None:
                break
            try:
                m = parse_move(want)
                g.apply(m)
            except (NotationError, IllegalMoveError, ValueError):
                break
            done.append((m, g.moves[-1]))
            if step == "BUY":
                break
        self._macros[(sig, key)] = done
        return done

    def edges(self, g: GameState) -> list[Edge]:
        mover = g.to_move
        assert mover is not None
        own = mover == self.seat
        if own and (g.step == "purchase" or len(g.moves) == self._root_moves):
            sig = self._signature(g)
            got = self._edge_cache.get(sig)
            if got is None:
                chs = engine_choices(g)
                if g.step == "purchase":
                    got = self._purchase_edges(g, chs)
                else:
                    got = self._branches(g, chs, ())
                self._edge_cache[sig] = got
            return got
        chs = engine_choices(g)
        if len(chs) == 1 and chs[0].final:
            return [(chs[0].text, chs[0])]
        full = self._greedy_from(g, mover, chs)[-1]
        return [(full.text, full)]

    def step_edges(self, g: GameState, key: Hashable) -> list[Edge]:
        assert isinstance(key, str)
        return self._branches(g, engine_expand(g, key), (key,))

    def apply(self, g: GameState, act: Any) -> None:
        if isinstance(act, tuple):
            self._macro(g, act)
        else:
            g.apply_unchecked(act.move, act.text)

    # -- values -------------------------------------------------------------------------------

    def values(self, g: GameState, seat: int) -> list[float]:
        if g.finished:
            return chances(g)
        turns = turns_left(g)
        if self.evaluation == "rollout" and turns <= ENDGAME_TURNS:
            self._rollout(g)
            return chances(g)
        return _chances(g, turns)

    def _rollout(self, g: GameState) -> None:
        """Greedy for every seat until the searching seat's next turn begins (at most
        ROLLOUT_STEPS moves): with the end of the game in view, can a rival end it (C68)?
        A leaf at the seat's own Draw (where the tree ends its turn, C37) plays that
        discard first, then the rivals' turns."""
        # (greedy's picks are not kept here: a rollout's positions come from many deals
        # and rarely repeat, and keeping their observations cost more than it saved)
        pol = self.policy.pick
        me = self.seat
        left = g.active != me
        for _ in range(ROLLOUT_STEPS):
            if g.finished:
                return
            if g.active != me:
                left = True
            elif left:
                return  # the seat's next turn has begun
            seat = g.to_move
            assert seat is not None
            chs = engine_choices(g)
            if len(chs) > 1:
                obs = observe(g, seat)
                c = chs[pol(obs, [(x.text, x.final) for x in chs])]
                while not c.final:
                    chs = engine_expand(g, c.text)
                    c = chs[pol(obs, [(x.text, x.final) for x in chs])] if len(chs) > 1 else chs[0]
            else:
                c = chs[0]
                while not c.final:
                    c = engine_expand(g, c.text)[0]
            assert c.move is not None
            g.apply_unchecked(c.move, c.text)


def search_kit(game: Any) -> Civ4SearchKit:
    """A fresh kit (one per bot: it keeps the bot's greedy policy)."""
    return Civ4SearchKit(game)


def root_value(bot: Any) -> float | None:
    """The searching seat's chance of winning after ``bot``'s last search (an ``ismcts``
    bot): the value of its most searched option; None where the last decision was not
    searched (a single choice, a step it had planned)."""
    options = bot.option_values() if hasattr(bot, "option_values") else []
    if not options:
        return None
    return float(options[0].value)


__all__ = [
    "EVALUATIONS",
    "Civ4SearchKit",
    "chances",
    "economy",
    "evaluate",
    "root_value",
    "search_kit",
    "turns_left",
]
