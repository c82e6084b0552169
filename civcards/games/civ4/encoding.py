"""civ4's action encoding and observation tensor: what the research environments wrap.

``Game.encoding()`` of ``civ4`` returns :data:`ENCODING`; the generic shells
of :mod:`civcards.envs` (PettingZoo, Gymnasium, OpenSpiel) drive a game only
through it (:class:`civcards.envs.protocol.Encoding`).

Actions: tokens of the canonical move
-------------------------------------
A civ4 move can be large (a plot payment, a collect over many plots, an attack
split over two defenders, a list of blocks), so an action is one *token* of
the move's canonical text (``docs/notation/civ4.md``), and a move is the
sequence of its tokens. :data:`ACTIONS` is the fixed vocabulary, built from
the card data (``cards.toml``), with seats relative to the acting seat:

* heads: ``pick CODE`` ``settle pN`` ``cash CODE`` ``tech CODE`` ``pop pN``
  ``plot CODE`` ``build CODE`` ``use CODE +r`` ``trade GIVE GET`` ``end``
  ``discard`` ``collect`` ``attack`` ``walls`` ``defend`` ``damage`` ``place``;
* elements: a card code (deck cards, technologies), a plot ``pN``, an amount
  ``xF``/``xH``/``xC`` (``plot FOR 10F5H`` is ``plot FOR``, ``10F``, ``5H``,
  ``0C``; a collect term ``p3=FFH`` is ``2F``, ``1H``, ``0C``, the plots in
  plot order), a block ``B>A``, an attacked seat ``+r=``, the words
  ``settle`` ``free`` ``lose`` ``bounce`` ``steal`` ``destroy``;
* ``stop``: the move ends here although a longer legal move goes on (``walls``
  against ``walls bounce CAT``, ``defend`` with no block).

Legality is exact: the engine's factored choices (:func:`civcards.civ4.choices`,
:func:`civcards.civ4.expand`) are expanded only as far as the tokens chosen so
far require, and the legal actions are the next tokens of the legal moves that
begin with them. A token that is the only continuation is taken at once (so a
move ends as soon as it is determined: ``0C`` after ``10F``, ``5H`` is never
asked for). Every legal move is thus exactly one sequence of actions and every
sequence of legal actions ends in a legal move.

Observation
-----------
:func:`encode_observation` writes a fixed-size float vector (:data:`OBS_SIZE`)
from :func:`civcards.civ4.observe` — what C72 lets the seat know, nothing
else — plus the tokens the seat itself has chosen in the move it is making.
Seats are relative to the observer, padded to four; :data:`OBS_LAYOUT` names
the blocks.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations_with_replacement
from typing import Final

import numpy as np
import numpy.typing as npt

from ...civ4 import CARDS, DECK_CODES, OPTIONS, GameState, observe
from ...civ4.cards import PLOT_CODES, TECH_CODES, UNIT_CODES
from ...civ4.choices import Choice, choices, expand
from ...civ4.game import TRADE_RATE
from ...civ4.moves import format_move, parse_move, parse_res
from ...civ4.observation import Observation

MAX_SEATS: Final = 4
REL_SEATS: Final = (1, 2, 3)
#: plot numbers the vocabulary names (every plot card of the box)
MAX_PLOT_NUMBER: Final = sum(p.count for p in CARDS.plots.values())
#: the largest resource amount a token names (a plot of the last plot number costs less)
MAX_AMOUNT: Final = (
    int(CARDS.rules["plot_cost_base"])
    + int(CARDS.rules["plot_cost_step"])
    * max(0, MAX_PLOT_NUMBER - int(CARDS.rules["plot_cost_pivot"]))
    + CARDS.population
)
STOP_NAME: Final = "stop"

_BUILDABLE: Final = tuple(c for c in DECK_CODES if CARDS.deck[c].kind != "unit")
_STEAL_CODES: Final = tuple(
    sorted(
        c
        for c, t in CARDS.techs.items()
        if any(e.kind in ("steal_card", "steal_resources") for e in t.effects)
    )
)
_RES = "FHC"


def _res_str(r: tuple[int, ...]) -> str:
    s = "".join(f"{r[i]}{_RES[i]}" for i in range(3) if r[i])
    return s or "0"


def _trades() -> list[str]:
    """Every bank trade text the rules allow (C28: give exactly the rate, get one other)."""
    out: list[str] = []
    for rate in range(1, TRADE_RATE + 1):
        for combo in combinations_with_replacement(range(3), rate):
            give = tuple(combo.count(i) for i in range(3))
            for g in range(3):
                if not give[g]:
                    get = tuple(1 if i == g else 0 for i in range(3))
                    out.append(f"trade {_res_str(give)} {_res_str(get)}")
    return out


def _vocabulary() -> list[str]:
    plots = [f"p{i}" for i in range(1, MAX_PLOT_NUMBER + 1)]
    out: list[str] = []
    out += [f"pick {c}" for c in PLOT_CODES]
    out += [f"settle {p}" for p in plots]
    out += ["discard", "collect", "end", "attack", "walls", "defend", "damage", "place"]
    out += [f"cash {c}" for c in DECK_CODES]
    out += _trades()
    out += [f"pop {p}" for p in plots]
    out += [f"plot {c}" for c in PLOT_CODES]
    out += [f"tech {c}" for c in TECH_CODES]
    out += [f"build {c}" for c in _BUILDABLE]
    out += [f"use {c} +{r}" for c in _STEAL_CODES for r in REL_SEATS]
    out += list(DECK_CODES) + list(TECH_CODES)
    out += plots
    out += [f"{x}{ch}" for ch in _RES for x in range(MAX_AMOUNT + 1)]
    out += [f"{b}>{a}" for b in UNIT_CODES for a in UNIT_CODES]
    out += [f"+{r}=" for r in REL_SEATS]
    out += ["settle", "free", "lose", "bounce", "steal", "destroy"]
    out.append(STOP_NAME)
    return out


#: the name of every action, by index (seats relative to the acting seat)
ACTIONS: Final[tuple[str, ...]] = tuple(_vocabulary())
NUM_ACTIONS: Final = len(ACTIONS)
ACTION_INDEX: Final = {name: i for i, name in enumerate(ACTIONS)}
STOP: Final = ACTION_INDEX[STOP_NAME]
assert len(ACTION_INDEX) == NUM_ACTIONS


def action_groups() -> list[tuple[str, int, int]]:
    """(kind, first index, count) of each run of actions: the table in docs/research.md."""

    def kind(name: str) -> str:
        w = name.split()
        if len(w) > 1:
            return w[0] + " …"
        if name in ("discard", "collect", "end", "attack", "walls", "defend", "damage", "place"):
            return "head word"
        if name in ("settle", "free", "lose", "bounce", "steal", "destroy"):
            return "word"
        if name.endswith("="):
            return "+r="
        if ">" in name:
            return "block"
        if name[0].isdigit():
            return "amount " + name[-1]
        if name[0] == "p" and name[1:].isdigit():
            return "plot"
        if name in CARDS.techs:
            return "tech code"
        if name in CARDS.deck:
            return "deck code"
        return name

    out: list[tuple[str, int, int]] = []
    for i, name in enumerate(ACTIONS):
        k = kind(name)
        if out and out[-1][0] == k:
            out[-1] = (k, out[-1][1], out[-1][2] + 1)
        else:
            out.append((k, i, 1))
    return out


class EncodingError(ValueError):
    """A move the fixed vocabulary cannot spell (a bound of the card set exceeded)."""


def _tok(name: str) -> int:
    i = ACTION_INDEX.get(name)
    if i is None:
        raise EncodingError(f"civ4's action encoding has no token {name!r}")
    return i


def _res_tokens(res: str) -> list[int]:
    r = parse_res(res)
    return [_tok(f"{r[i]}{_RES[i]}") for i in range(3)]


def _tokenize(text: str, me: int, n: int) -> tuple[int, ...]:
    """The tokens of a canonical move text (a final move), or of the part a step fixes
    (its text up to the first '?')."""
    w = text.split()
    k = w[0]
    out: list[int] = []

    def rel(s: str) -> int:
        return (int(s) - me) % n

    if k in ("pick", "cash", "tech", "settle", "pop"):
        return (_tok(f"{k} {w[1]}"),)
    if k in ("end",):
        return (_tok(k),)
    if k == "trade":
        return (_tok(text),)
    if k == "plot":
        out.append(_tok(f"plot {w[1]}"))
        if len(w) > 2 and w[2] != "?":
            if len(w) == 4:  # plot CODE xF ?: the food is fixed
                out.append(_tok(w[2]))
            else:
                out += _res_tokens(w[2])
        return tuple(out)
    if k == "build":
        out += [_tok(f"build {w[1]}"), _tok(w[2])]
        if len(w) == 5:
            out.append(_tok(w[3]))
            out += [_tok(x) for x in w[4].split(",")]
        return tuple(out)
    if k == "use":
        out.append(_tok(f"use {w[1]} +{rel(w[2])}"))
        if len(w) == 4 and w[3] != "?":
            out += _res_tokens(w[3])
        return tuple(out)
    out.append(_tok(k))
    if k in ("discard", "place"):
        if len(w) > 1 and w[1] != "?":
            out += [_tok(x) for x in w[1].split(",")]
        return tuple(out)
    if k == "collect":
        for term in w[1:]:
            if term == "?":
                break
            letters = term.partition("=")[2]
            out += [_tok(f"{letters.count(ch)}{ch}") for ch in _RES]
        return tuple(out)
    if k == "attack":
        for term in w[1:]:
            if term == "?":
                break
            s, _, lst = term.partition("=")
            out.append(_tok(f"+{rel(s)}="))
            if lst == "?":
                break
            out += [_tok(x) for x in lst.split(",")]
        return tuple(out)
    if k == "defend":
        for term in w[1:]:
            if term.startswith("?"):
                break
            out.append(_tok(term))
        return tuple(out)
    if k == "walls":
        for term in w[1:]:
            out += (
                [_tok(term)] if term in ("lose", "bounce") else [_tok(x) for x in term.split(",")]
            )
        return tuple(out)
    if k == "damage":
        i = 1
        while i < len(w) and w[i] != "?":
            word, lst = w[i], w[i + 1]
            i += 2
            if lst == "-":
                continue
            out.append(_tok(word))
            if word == "steal":
                out += [_tok(x) for x in lst.split(",")]
            else:
                for t in lst.split(","):
                    p, _, c = t.partition(":")
                    out += [_tok(p), _tok(c)]
        return tuple(out)
    raise EncodingError(f"civ4's action encoding cannot spell {text!r}")


_TOKENS: dict[tuple[str, int, int], tuple[int, ...]] = {}


def tokenize(text: str, me: int, n: int) -> tuple[int, ...]:
    """The action indices spelling ``text`` (canonical) for seat ``me`` of ``n`` (memoised)."""
    key = (text, me, n)
    t = _TOKENS.get(key)
    if t is None:
        if len(_TOKENS) > 200_000:
            _TOKENS.clear()
        t = _TOKENS[key] = _tokenize(text, me, n)
    return t


Item = tuple[tuple[int, ...], Choice]


# ---------------------------------------------------------------------------
# The action table


class Table:
    """A :class:`GameState` driven by action indices (tokens of the move being spelled).

    ``prefix`` holds the tokens chosen so far in the current move; ``front`` the
    engine's choices (final moves and steps) that agree with it.
    """

    __slots__ = ("_legal", "front", "g", "prefix")

    def __init__(self, g: GameState) -> None:
        self.g = g
        self.prefix: list[int] = []
        self.front: list[Item] | None = None
        self._legal: list[int] | None = None

    @property
    def state(self) -> GameState:
        return self.g

    @property
    def to_move(self) -> int | None:
        return self.g.to_move

    @property
    def finished(self) -> bool:
        return bool(self.g.finished)

    def copy(self) -> Table:
        t = Table(self.g.copy())
        t.prefix = self.prefix[:]
        t.front = None if self.front is None else self.front[:]
        t._legal = self._legal
        return t

    # -- the frontier ---------------------------------------------------------------

    def _items(self, cs: Iterable[Choice]) -> list[Item]:
        g = self.g
        me, n = g.to_move, g.n
        assert me is not None
        return [(tokenize(c.text, me, n), c) for c in cs]

    def _options(self) -> list[int]:
        """The next tokens at the current prefix (STOP last), expanding steps as needed."""
        if self._legal is not None:
            return self._legal
        g = self.g
        if g.finished:
            self._legal = []
            return self._legal
        if self.front is None:
            self.front = self._items(choices(g))
        L = len(self.prefix)
        pre = tuple(self.prefix)
        front = self.front
        while any(not c.final and len(t) <= L for t, c in front):
            new: list[Item] = []
            for t, c in front:
                if c.final or len(t) > L:
                    new.append((t, c))
                    continue
                for tt, cc in self._items(expand(g, c.text)):
                    m = min(len(tt), L)
                    if tt[:m] == pre[:m] and (len(tt) >= L or not cc.final):
                        new.append((tt, cc))
            front = new
        self.front = front
        nxt = sorted({t[L] for t, _ in front if len(t) > L})
        if any(c.final and len(t) == L for t, c in front):
            nxt.append(STOP)
        self._legal = nxt
        return nxt

    def legal_actions(self) -> list[int]:
        """The legal actions of :attr:`to_move`, sorted."""
        return self._options()

    def mask(self) -> npt.NDArray[np.int8]:
        out = np.zeros(NUM_ACTIONS, dtype=np.int8)
        out[self._options()] = 1
        return out

    def is_legal(self, action: int) -> bool:
        return action in self._options()

    def apply(self, action: int) -> None:
        """Play one action of :attr:`to_move`; ``ValueError`` if it is not legal now."""
        if not (isinstance(action, (int, np.integer)) and self.is_legal(int(action))):
            name = (
                ACTIONS[action] if isinstance(action, int) and 0 <= action < NUM_ACTIONS else action
            )
            raise ValueError(f"action {action} ({name}) is not legal now")
        self.apply_unchecked(int(action))

    def apply_unchecked(self, action: int) -> None:
        self._options()
        self._take(action)
        # the only continuation is taken at once: a move ends as soon as it is determined
        while self.prefix:
            opts = self._options()
            if len(opts) != 1:
                break
            self._take(opts[0])

    def _take(self, action: int) -> None:
        front = self.front
        assert front is not None
        L = len(self.prefix)
        if action == STOP:
            for t, c in front:
                if c.final and len(t) == L:
                    self._play(c)
                    return
            raise AssertionError("stop without a move")
        self.prefix.append(action)
        self.front = [(t, c) for t, c in front if len(t) > L and t[L] == action]
        self._legal = None
        if len(self.front) == 1:
            t, c = self.front[0]
            if c.final and len(t) == L + 1:
                self._play(c)

    def _play(self, c: Choice) -> None:
        assert c.move is not None
        self.g.apply_unchecked(c.move, c.text)
        self.prefix = []
        self.front = None
        self._legal = None

    # -- whole moves ----------------------------------------------------------------

    def apply_move(self, move: str) -> None:
        """Play a whole move of the notation (checked), e.g. a bot's; no move may be half spelled."""
        if self.prefix:
            raise ValueError("a move is half spelled: finish it with actions first")
        self.g.apply(move)
        self.front = None
        self._legal = None

    def actions_for(self, move: str) -> list[int]:
        """The actions that play the whole move ``move`` now (``ValueError`` if it is not legal)."""
        g = self.g
        if g.to_move is None:
            raise ValueError("the game is over: there is no move to make")
        text = format_move(parse_move(move))
        toks = tokenize(text, g.to_move, g.n)
        t = self.copy()
        n0 = len(t.g.moves)
        out: list[int] = []
        while len(t.g.moves) == n0:
            i = len(t.prefix)
            if tuple(t.prefix) != toks[:i]:
                raise ValueError(f"{text!r} is not legal now")
            a = toks[i] if i < len(toks) else STOP
            if not t.is_legal(a):
                raise ValueError(f"{text!r} is not legal now")
            out.append(a)
            t.apply_unchecked(a)
        if t.g.moves[-1] != text:
            raise ValueError(f"{text!r} is not legal now")
        return out

    def move_of(self, action: int) -> str:
        """The whole move that ``action`` completes now (``ValueError`` if it completes none)."""
        t = self.copy()
        n0 = len(t.g.moves)
        t.apply(action)
        if len(t.g.moves) == n0:
            raise ValueError(f"action {action} ({ACTIONS[action]}) does not complete a move")
        return t.g.moves[n0]

    # -- views ------------------------------------------------------------------------

    def encode(self, seat: int | None) -> npt.NDArray[np.float32]:
        """The observation vector of ``seat`` (:func:`encode`)."""
        return encode(self, seat)

    def describe(self, seat: int | None) -> str:
        return describe(self, seat)

    def rewards(self) -> list[float]:
        return rewards(self.g)

    def action_name(self, action: int) -> str:
        return ACTIONS[action]


# ---------------------------------------------------------------------------
# Rewards


def rewards(g: GameState) -> list[float]:
    """+1 shared equally among the winners (C70); 0 otherwise and while the game is on."""
    out = [0.0] * g.n
    if not g.finished:
        return out
    winners = list(g.winners) or list(range(g.n))
    for w in winners:
        out[w] = 1.0 / len(winners)
    return out


# ---------------------------------------------------------------------------
# The observation vector

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
_PLOT_SLOT: Final = len(PLOT_CODES) + 1 + len(_BUILDABLE)
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
        len(_STEAL_CODES),
        "abilities used this turn, by code (" + ", ".join(_STEAL_CODES) + ")",
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
_BI: Final = {c: i for i, c in enumerate(_BUILDABLE)}
_UI: Final = {c: i for i, c in enumerate(UNIT_CODES)}
_AI: Final = {c: i for i, c in enumerate(_ATTACKERS)}
_SI: Final = {c: i for i, c in enumerate(STEPS)}


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
        if c in _STEAL_CODES:
            v[at["used"] + _STEAL_CODES.index(c)] += 1
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
        b3 = b2 + 7
        for j, (code, pop, on) in enumerate(pv.plots[:MAX_PLOTS]):
            ps = b3 + j * _PLOT_SLOT
            v[ps + _PI[code]] = 1
            v[ps + len(PLOT_CODES)] = pop
            for c in on:
                v[ps + len(PLOT_CODES) + 1 + _BI[c]] += 1
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
            if c in _STEAL_CODES:
                v[at["used"] + _STEAL_CODES.index(c)] += 1
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
        b3 = b2 + 7
        for j, (code, pop, on) in enumerate(plots[:MAX_PLOTS]):
            ps = b3 + j * _PLOT_SLOT
            v[ps + _PI[code]] = 1
            v[ps + len(PLOT_CODES)] = pop
            for c in on:
                v[ps + len(PLOT_CODES) + 1 + _BI[c]] += 1
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
            f"{mark} seat {s}: VP {pv.score[0]} supply {_res_str(pv.supply)} "
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
