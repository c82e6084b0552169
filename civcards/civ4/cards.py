"""The card set of Civilization: The Card Game (C1-C7, C47, C52), read from ``cards.toml``.

RECONSTRUCTED: the original card list is not public. ``cards.toml`` (shipped in
this package, a copy of ``shared/civ4/cards.toml``) holds a reconstruction in
the spirit of Civilization IV; see ``docs/civ4.md``.

Deck cards (buildings, wonders, units) are identified by an index into
:data:`DECK_CODES`, which is sorted by code, so a vector of counts indexed that
way lists its cards in canonical order (NOTATION.md: ascending by code).

>>> CARDS.plots["FOR"].yields
(1, 2, 0)
>>> CARDS.deck["GRN"].kind, CARDS.deck["GRN"].cost
('building', 6)
>>> DECK_CODES.index("AQD")
0
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Final

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


@dataclass(frozen=True)
class CardSet:
    """The whole card set and the rule numbers of ``[rules]``."""

    plots: dict[str, PlotCard]
    techs: dict[str, TechCard]
    deck: dict[str, DeckCard]
    rules: dict[str, Any]
    population: int
    names: dict[str, str] = field(default_factory=dict)

    def name(self, code: str) -> str:
        """The English name of a card code."""
        return self.names[code]


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


def load_cards(text: str | None = None) -> CardSet:
    """Read a card set from TOML text (default: the packaged ``cards.toml``)."""
    if text is None:
        text = resources.files(__package__).joinpath("cards.toml").read_text(encoding="utf-8")
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
    return CardSet(plots, techs, deck, dict(data["rules"]), int(data["supply"]["population"]), names)


#: The packaged card set (RECONSTRUCTED).
CARDS: Final = load_cards()
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
