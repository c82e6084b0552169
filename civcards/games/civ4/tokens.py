"""civ4's action vocabulary: a move is spelled as tokens of its canonical text.

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

:func:`tokenize` spells a move; :mod:`.encoding`'s :class:`~.encoding.Table` lists the
legal tokens.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Final

from ...civ4 import CARDS, DECK_CODES
from ...civ4.cards import PLOT_CODES, TECH_CODES, UNIT_CODES
from ...civ4.game import TRADE_RATE
from ...civ4.moves import parse_res

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

BUILDABLE: Final = tuple(c for c in DECK_CODES if CARDS.deck[c].kind != "unit")
STEAL_CODES: Final = tuple(
    sorted(
        c
        for c, t in CARDS.techs.items()
        if any(e.kind in ("steal_card", "steal_resources") for e in t.effects)
    )
)
_RES = "FHC"


def res_str(r: tuple[int, ...]) -> str:
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
                    out.append(f"trade {res_str(give)} {res_str(get)}")
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
    out += [f"build {c}" for c in BUILDABLE]
    out += [f"use {c} +{r}" for c in STEAL_CODES for r in REL_SEATS]
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
