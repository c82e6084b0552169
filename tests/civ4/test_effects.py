"""civcards.civ4.effects: the costs read backwards agree with the costs (C26, C50), and
the bot's copy of the rules is gone (it calls the engine's functions)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from civcards.civ4.cards import CardSet, DeckCard, TechCard, card_set
from civcards.civ4.effects import (
    card_budget,
    card_cost,
    compute_effects,
    effects_with,
    pop_budget,
    pop_cost,
)
from civcards.civ4.options import CARD_SETS as CARD_SET_NAMES

ROOT = Path(__file__).resolve().parents[2]


def _sets() -> list[CardSet]:
    return [card_set(name) for name in CARD_SET_NAMES]


@pytest.mark.parametrize("cs", _sets(), ids=CARD_SET_NAMES)
def test_c26_pop_budget_is_pop_cost_read_backwards(cs: CardSet) -> None:
    discounts = [c for c in cs.techs.values() if any(e.kind == "discount" for e in c.effects)]
    for fx in [compute_effects((), [], cs), effects_with(None, list(discounts), 0, cs)]:
        for food in range(0, 40):
            top = pop_budget(cs, fx, food)
            for pop in range(0, 12):
                assert (pop_cost(cs, pop, fx) <= food) == (pop <= top), (food, pop)


@pytest.mark.parametrize("cs", _sets(), ids=CARD_SET_NAMES)
def test_c26_c50_card_budget_is_card_cost_read_backwards(cs: CardSet) -> None:
    discounts = [c for c in cs.techs.values() if any(e.kind == "discount" for e in c.effects)]
    cards: list[TechCard | DeckCard] = [
        *cs.techs.values(),
        *(d for d in cs.deck.values() if d.kind != "unit"),
    ]
    for fx in [compute_effects((), [], cs), effects_with(None, list(discounts), 0, cs)]:
        for happiest in (False, True):
            for hnw in (False, True):
                for budget in range(0, 30):
                    for card in cards:
                        top = card_budget(cs, fx, card.kind, budget, happiest, hnw)
                        affordable = card_cost(cs, card.code, fx, happiest, hnw) <= budget
                        assert affordable == (card.cost <= top), (card.code, budget, happiest, hnw)


def test_the_greedy_bot_has_no_copy_of_the_effects_c52_c66() -> None:
    """The bot reads its rules from civcards.civ4.effects: it defines no effects class
    and no cost of its own."""
    for name in ("greedy.py", "greedy_view.py"):
        tree = ast.parse((ROOT / "civcards/games/civ4" / name).read_text(encoding="utf-8"))
        classes = {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
        assert "Fx" not in classes, name
        text = (ROOT / "civcards/games/civ4" / name).read_text(encoding="utf-8")
        assert "pop_cost_base" not in text and "plot_cost_base" not in text, name
