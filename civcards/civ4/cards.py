"""The card set of Civilization: The Card Game (C1-C7, C47, C52), read from ``cards.toml``.

RECONSTRUCTED: the original card list is not public. The package ships three
versions of the reconstruction, each a *card set* with a name (:data:`CARD_SETS`);
``docs/rules/civ4.md`` shows every card of each (``scripts/rules_tables.py``):

* ``reconstructed-1``: ``cards.toml``, the original reconstruction (kept
  byte for byte as the specification wrote it). A record whose
  ``options`` name no card set is read with it (so every example of
  NOTATION.md replays as written), and so is a game the engine's
  ``new_game`` makes without the ``cards`` option.
* ``reconstructed-2``: ``cards-reconstructed-2.toml``, the same cards tuned by
  the balance study (``studies/civ4-balance/README.md``, changelog) through the
  tuning knobs of ``docs/rules/civ4.md`` (design notes) only; offered by name
  (the platform's default until issue 40).
* ``reconstructed-3``: ``cards-reconstructed-3.toml``, reconstructed-2 with
  fewer attacking units and more buildings (the unit-count knob; the third
  round of tuning). New games of the platform (``civcards play``, the web lobby,
  ``civcards simulate``) use it unless told otherwise (:data:`DEFAULT_CARD_SET`,
  the owner's decision of issue 40).

The versions share their card codes, kinds, eras, plots, unit profiles
(attack, defend, breaks walls), population supply and the ``[rules]`` fixed by
the rules' text: :func:`card_set` refuses a set that differs there, so the
tables indexed by code below (:data:`DECK_CODES`, ...) hold for every set.
Other numbers may differ (costs, printed resources, culture/happiness, effects,
blocking lists, steal/destroy, the costs and status numbers of ``[rules]``, how
many copies of each deck card the box holds, how many technologies are kept per
era); the engine, its piles' check and the determinizer read them from the
game's own set (``GameState.cs``, ``CardSet.deck_box``). :data:`DECK_BOX` and
:data:`PLOT_BOX` are the original set's.

Deck cards (buildings, wonders, units) are identified by an index into
:data:`DECK_CODES`, which is sorted by code, so a vector of counts indexed that
way lists its cards in canonical order (NOTATION.md: ascending by code).

>>> CARDS.plots["FOR"].yields
(1, 2, 0)
>>> CARDS.deck["GRN"].kind, CARDS.deck["GRN"].cost
('building', 6)
>>> DECK_CODES.index("AQD")
0
>>> card_set("reconstructed-1") is CARDS, card_set("reconstructed-2").set_name
(True, 'reconstructed-2')
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Final

from .options import CARD_SETS, RECORD_CARD_SET, ConfigError

RES_LETTERS: Final = "FHC"
RES_INDEX: Final = {"F": 0, "H": 1, "C": 2}

Res = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Effect:
    """One printed effect (C52): ``kind`` is one of the 14 keywords; unused fields stay empty."""

    kind: str
    resources: Res = (0, 0, 0)
    resource: int = -1
    amount: int = 0
    target: str = ""
    rate: int = 0
    slots: int = 0
    per_plot: bool = False
    breakable: bool = False
    unit: str = ""
    blocks_add: tuple[str, ...] = ()
    steal_add: int = 0
    destroy_add: int = 0


@dataclass(frozen=True, slots=True)
class PlotCard:
    """A plot (C2): its printed yield of F, H and C."""

    code: str
    name: str
    yields: Res
    count: int

    @property
    def produced(self) -> tuple[int, ...]:
        """Indices of the produced types (C2), in the order F, H, C."""
        return tuple(i for i in range(3) if self.yields[i] > 0)


@dataclass(frozen=True, slots=True)
class TechCard:
    """A technology (C3)."""

    code: str
    name: str
    era: int
    cost: int
    culture: int
    happiness: int
    effects: tuple[Effect, ...]
    kind: str = "tech"


@dataclass(frozen=True, slots=True)
class DeckCard:
    """A game-deck card (C4): ``kind`` is ``building``, ``wonder`` or ``unit``."""

    code: str
    name: str
    kind: str
    count: int
    resource: Res
    cost: int = 0
    culture: int = 0
    happiness: int = 0
    effects: tuple[Effect, ...] = ()
    attack: bool = False
    defend: bool = False
    blocks: tuple[str, ...] = ()
    steal: int = 0
    destroy: int = 0
    breaks_walls: bool = False


@dataclass(frozen=True, eq=False)
class CardSet:
    """The whole card set and the rule numbers of ``[rules]``.

    ``name`` is the card set's name (``reconstructed-1``, ...; empty for a set
    read from other text). Compared and hashed by identity: each named set is
    loaded once (:func:`card_set`), so it can key a cache.
    """

    plots: dict[str, PlotCard]
    techs: dict[str, TechCard]
    deck: dict[str, DeckCard]
    rules: dict[str, Any]
    population: int
    names: dict[str, str] = field(default_factory=dict)
    set_name: str = ""

    def name(self, code: str) -> str:
        """The English name of a card code."""
        return self.names[code]

    # the numbers of [rules] that the engine reads often, as attributes (set once)
    pop_cost_base: int = field(init=False)
    pop_cost_step: int = field(init=False)
    plot_cost_base: int = field(init=False)
    plot_cost_step: int = field(init=False)
    plot_cost_pivot: int = field(init=False)
    min_cost: int = field(init=False)
    trade_rate: int = field(init=False)
    max_slots: int = field(init=False)
    pop_two_slots: int = field(init=False)
    happiness_discount: int = field(init=False)
    happiness_minimum: int = field(init=False)
    culture_minimum: int = field(init=False)
    techs_per_era: dict[str, int] = field(init=False)
    #: every game-deck card with its multiplicity, sorted (C4); every plot card (C2)
    deck_box: tuple[str, ...] = field(init=False)
    plot_box: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        r = self.rules
        put = object.__setattr__
        put(self, "pop_cost_base", int(r["population_cost_base"]))
        put(self, "pop_cost_step", int(r["population_cost_step"]))
        put(self, "plot_cost_base", int(r["plot_cost_base"]))
        put(self, "plot_cost_step", int(r["plot_cost_step"]))
        put(self, "plot_cost_pivot", int(r["plot_cost_pivot"]))
        put(self, "min_cost", int(r["min_cost"]))
        put(self, "trade_rate", int(r["trade_rate"]))
        put(self, "max_slots", int(r["max_slots"]))
        put(self, "pop_two_slots", int(r["population_for_two_slots"]))
        put(self, "happiness_discount", int(r["happiness_discount"]))
        put(self, "happiness_minimum", int(r["happiness_minimum"]))
        put(self, "culture_minimum", int(r["culture_minimum"]))
        put(self, "techs_per_era", dict(r["techs_per_era"]))
        put(self, "deck_box", tuple(sorted(c for d in self.deck.values() for c in [d.code] * d.count)))
        put(self, "plot_box", tuple(sorted(c for p in self.plots.values() for c in [p.code] * p.count)))


def _res(table: dict[str, int] | None) -> Res:
    t = table or {}
    return (int(t.get("F", 0)), int(t.get("H", 0)), int(t.get("C", 0)))


def _effect(e: dict[str, Any]) -> Effect:
    res = e.get("resource")
    return Effect(
        kind=str(e["kind"]),
        resources=_res(e.get("resources")),
        resource=RES_INDEX[res] if isinstance(res, str) else -1,
        amount=int(e.get("amount", 0)),
        target=str(e.get("target", "")),
        rate=int(e.get("rate", 0)),
        slots=int(e.get("slots", 0)),
        per_plot=bool(e.get("per_plot", False)),
        breakable=bool(e.get("breakable", False)),
        unit=str(e.get("unit", "")),
        blocks_add=tuple(sorted(e.get("blocks_add", ()))),
        steal_add=int(e.get("steal_add", 0)),
        destroy_add=int(e.get("destroy_add", 0)),
    )


#: card set name -> its file in this package
CARD_FILES: Final = {
    "reconstructed-1": "cards.toml",
    "reconstructed-2": "cards-reconstructed-2.toml",
    "reconstructed-3": "cards-reconstructed-3.toml",
}


def load_cards(text: str | None = None, name: str = "") -> CardSet:
    """Read a card set from TOML text (default: the packaged ``cards.toml``)."""
    if text is None:
        text = resources.files(__package__).joinpath("cards.toml").read_text(encoding="utf-8")
        name = name or RECORD_CARD_SET
    data = tomllib.loads(text)
    plots = {
        p["code"]: PlotCard(p["code"], p["name"], _res(p["yield"]), int(p["count"]))
        for p in data["plot"]
    }
    techs = {
        t["code"]: TechCard(
            t["code"],
            t["name"],
            int(t["era"]),
            int(t["cost"]),
            int(t["culture"]),
            int(t["happiness"]),
            tuple(_effect(e) for e in t.get("effects", ())),
        )
        for t in data["tech"]
    }
    deck: dict[str, DeckCard] = {}
    for kind in ("building", "wonder"):
        for b in data[kind]:
            deck[b["code"]] = DeckCard(
                b["code"],
                b["name"],
                kind,
                int(b["count"]),
                _res(b["resource"]),
                cost=int(b["cost"]),
                culture=int(b["culture"]),
                happiness=int(b["happiness"]),
                effects=tuple(_effect(e) for e in b.get("effects", ())),
            )
    for u in data["unit"]:
        deck[u["code"]] = DeckCard(
            u["code"],
            u["name"],
            "unit",
            int(u["count"]),
            _res(u["resource"]),
            attack=bool(u["attack"]),
            defend=bool(u["defend"]),
            blocks=tuple(sorted(u["blocks"])),
            steal=int(u["steal"]),
            destroy=int(u["destroy"]),
            breaks_walls=bool(u["breaks_walls"]),
        )
    names = {c: p.name for c, p in plots.items()}
    names.update({c: t.name for c, t in techs.items()})
    names.update({c: d.name for c, d in deck.items()})
    return CardSet(
        plots, techs, deck, dict(data["rules"]), int(data["supply"]["population"]), names, name
    )


def _same_shape(a: CardSet, b: CardSet) -> str | None:
    """Why ``b`` cannot share the code-indexed tables of ``a`` (None when it can)."""
    if a.plots != b.plots:
        return "its plots differ"
    if set(a.techs) != set(b.techs) or any(a.techs[c].era != b.techs[c].era for c in a.techs):
        return "its technologies or their eras differ"
    if set(a.deck) != set(b.deck):
        return "its deck card codes differ"
    for c, d in a.deck.items():
        e = b.deck[c]
        if (d.kind, d.attack, d.defend, d.breaks_walls) != (e.kind, e.attack, e.defend, e.breaks_walls):
            return f"card {c} changes its kind or combat profile"
    if a.rules.keys() != b.rules.keys():
        return "its [rules] table has other keys"
    fixed = [k for k in _FIXED_RULES if a.rules[k] != b.rules[k]]
    if fixed:
        return f"it changes {', '.join(fixed)}, which the engine reads from the original set"
    # The deck cards' counts (the "unit counts" knob) and the technologies kept per era may
    # differ: the set-up, the piles' check and the determinizer read them from the game's set.
    # The population supply may not: the research encodings size their amounts from it.
    if sorted(b.techs_per_era) != sorted(a.techs_per_era) or any(
        not 1 <= int(k) <= 8 for k in b.techs_per_era.values()
    ):
        return "its technologies kept per era must name the same player counts, each 1 to 8"
    if a.population != b.population:
        return "it changes the population supply, which the research encodings are sized by"
    return None


#: [rules] numbers fixed by the rules' text or read by the engine as constants
_FIXED_RULES: Final = (
    "start_plots_random",
    "draft_rounds",
    "market_plots",
    "market_techs",
    "starting_population",
    "starting_hand",
    "starting_discard",
    "draw",
    "discard",
    "stalemate_rounds",
)


#: The original packaged card set, ``reconstructed-1`` (RECONSTRUCTED).
CARDS: Final = load_cards()
_LOADED: dict[str, CardSet] = {RECORD_CARD_SET: CARDS}


def card_set_of(options: Any) -> CardSet:
    """The card set named by the ``cards`` entry of an options mapping (an observation's
    ``dict(obs.options)``, a record's ``options``); the original set when it names none."""
    name = options.get("cards") if hasattr(options, "get") else None
    return card_set(name if isinstance(name, str) else None)


def card_set(name: str | None) -> CardSet:
    """The packaged card set of that name, loaded once (None: the original set,
    as for a record that names none); :class:`ConfigError` for an unknown name.

    >>> card_set(None).set_name
    'reconstructed-1'
    >>> card_set("reconstructed-9")
    Traceback (most recent call last):
    ...
    civcards.civ4.options.ConfigError: 'reconstructed-9' is not a card set (known: reconstructed-1, reconstructed-2, reconstructed-3).
    """
    key = RECORD_CARD_SET if name is None else name
    if not isinstance(key, str):
        raise ConfigError(f"{key!r} is not a card set (known: {', '.join(CARD_SETS)}).")
    cs = _LOADED.get(key)
    if cs is not None:
        return cs
    if key not in CARD_FILES:
        raise ConfigError(f"{key!r} is not a card set (known: {', '.join(CARD_SETS)}).")
    text = resources.files(__package__).joinpath(CARD_FILES[key]).read_text(encoding="utf-8")
    cs = load_cards(text, key)
    why = _same_shape(CARDS, cs)
    if why is not None:  # pragma: no cover - a packaging error, caught by the tests
        raise ConfigError(f"card set {key!r} cannot be used: {why}.")
    _LOADED[key] = cs
    return cs

RULES: Final = CARDS.rules

#: Deck codes sorted: index i of a hand/discard count vector is DECK_CODES[i].
DECK_CODES: Final = tuple(sorted(CARDS.deck))
DECK_INDEX: Final = {c: i for i, c in enumerate(DECK_CODES)}
N_DECK: Final = len(DECK_CODES)
PLOT_CODES: Final = tuple(sorted(CARDS.plots))
TECH_CODES: Final = tuple(sorted(CARDS.techs))
ALL_CODES: Final = frozenset(CARDS.names)

#: The box: every plot card, tech card and deck card with its multiplicity.
PLOT_BOX: Final = tuple(sorted(c for p in CARDS.plots.values() for c in [p.code] * p.count))
DECK_BOX: Final = tuple(sorted(c for d in CARDS.deck.values() for c in [d.code] * d.count))
TECHS_BY_ERA: Final = {
    era: tuple(sorted(t.code for t in CARDS.techs.values() if t.era == era)) for era in (1, 2, 3)
}
UNIT_CODES: Final = tuple(c for c in DECK_CODES if CARDS.deck[c].kind == "unit")
ATTACK_CODES: Final = tuple(c for c in UNIT_CODES if CARDS.deck[c].attack)
DEFEND_CODES: Final = tuple(c for c in UNIT_CODES if CARDS.deck[c].defend)


def res_str(r: tuple[int, ...] | list[int]) -> str:
    """The notation of a resource amount (``2F1C``; ``0`` for none).

    >>> res_str((2, 0, 1)), res_str([0, 0, 0])
    ('2F1C', '0')
    """
    s = "".join(f"{r[i]}{RES_LETTERS[i]}" for i in range(3) if r[i])
    return s or "0"
