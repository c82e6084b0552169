"""Rules C1-C15 and C71: components, set-up, first turn, numbers of players."""

from __future__ import annotations

import pytest

from civcards.civ4 import CARDS, ConfigError, new_game, position_json, state_from_piles
from civcards.civ4.cards import DECK_BOX, PLOT_BOX, TECHS_BY_ERA
from tests.civ4.helpers import card_zones_ok, refused, started


def test_c1_card_groups_and_counts() -> None:
    """C1: 30 plots of 14 kinds, 24 techs, 76 deck cards (36 buildings, 10 wonders, 30 units), 60 population."""
    assert len(PLOT_BOX) == 30 and len(CARDS.plots) == 14
    assert len(CARDS.techs) == 24
    assert len(DECK_BOX) == 76
    kinds = {k: [c for c in CARDS.deck.values() if c.kind == k] for k in ("building", "wonder", "unit")}
    assert sum(c.count for c in kinds["building"]) == 36 and len(kinds["building"]) == 13
    assert sum(c.count for c in kinds["wonder"]) == 10 and len(kinds["wonder"]) == 10
    assert sum(c.count for c in kinds["unit"]) == 30 and len(kinds["unit"]) == 6
    assert CARDS.population == 60


def test_c2_plots_print_a_positive_yield_and_no_vp() -> None:
    """C2: each plot prints 0-3 of F, H, C with at least one positive; plots are worth no VP."""
    for p in CARDS.plots.values():
        assert all(0 <= y <= 3 for y in p.yields) and any(p.yields)
    g = started(2)
    assert g.score(0)[0] == 1  # 4 plots and the free population: 1 VP


def test_c3_technologies_eras_and_vp() -> None:
    """C3: 8 technologies per era, each once; a technology is worth 1 VP."""
    assert [len(TECHS_BY_ERA[e]) for e in (1, 2, 3)] == [8, 8, 8]
    for code in ("ENG", "MIN", "AST", "WRI", "COL"):
        assert code in CARDS.techs


def test_c4_deck_cards_print_one_resource_value() -> None:
    """C4: every game-deck card prints one resource type, amount 1-3; wonders exist once."""
    for c in CARDS.deck.values():
        assert sum(1 for x in c.resource if x) == 1 and 1 <= sum(c.resource) <= 3
        if c.kind == "wonder":
            assert c.count == 1
    for name in ("LIB", "FRG", "GRN", "MSY", "WAL", "PYR", "GWL"):
        assert name in CARDS.deck


def test_c5_c6_population_supply_and_resources_start_empty() -> None:
    """C5, C6: 60 population in the supply before C13; supplies start at 0 (the bank never runs out)."""
    g = new_game(3, seed=1)
    assert g.pop_supply == 60
    assert all(s == [0, 0, 0] for s in g.supply)


def test_c7_icons_are_interface_only() -> None:
    """C7 (clarification 10): icons are display only; the position carries culture and happiness numbers."""
    pj = position_json(started(2))
    assert {"culture", "happiness", "score"} <= set(pj["players"][0])


@pytest.mark.parametrize("bad", [1, 5, 0, True, "2", None])
def test_c8_players_2_to_4(bad: object) -> None:
    """C8: 2, 3 or 4 players; anything else is a ConfigError naming the rule."""
    with pytest.raises(ConfigError, match="C8"):
        new_game(bad, seed=1)  # type: ignore[arg-type]


def test_c8_bad_options_are_config_errors() -> None:
    """C8/variants: unknown or mistyped options raise one sentence per bad option."""
    with pytest.raises(ConfigError) as e:
        new_game(2, options={"nope": True, "hand_limit": -2}, seed=1)
    assert "nope" in str(e.value) and "hand_limit" in str(e.value)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_c9_c71_piles_and_tech_removal(n: int) -> None:
    """C9, C71: 30 plots and 76 deck cards shuffled; techs by era I, II, III with 5/6/7 kept per era."""
    g = new_game(n, seed=11)
    keep = {2: 5, 3: 6, 4: 7}[n]
    assert sorted(g.init_plots) == list(PLOT_BOX)
    assert sorted(g.init_deck) == list(DECK_BOX)
    assert len(g.init_techs) == 3 * keep and len(g.init_removed) == 24 - 3 * keep
    eras = [CARDS.techs[t].era for t in g.init_techs]
    assert eras == sorted(eras) == [1] * keep + [2] * keep + [3] * keep


def test_c9_all_techs_variant_removes_nothing() -> None:
    """C9 (all_techs): no technology is removed; 24 in the pile."""
    g = new_game(2, options={"all_techs": True}, seed=3)
    assert len(g.init_techs) == 24 and g.init_removed == ()


def test_c9_same_seed_same_piles() -> None:
    """C9: shuffling is seeded: the same seed gives the same piles."""
    a, b = new_game(3, seed=99), new_game(3, seed=99)
    assert (a.init_plots, a.init_techs, a.init_deck) == (b.init_plots, b.init_techs, b.init_deck)


def _piles(n: int) -> tuple[list[str], list[str], list[str], list[str]]:
    g = new_game(n, seed=21)
    return list(g.init_plots), list(g.init_techs), list(g.init_removed), list(g.init_deck)


def test_c10_starting_plots_in_seat_order() -> None:
    """C10: seat 0 takes the first 2 plots, seat 1 the next 2, and so on."""
    plots, techs, removed, deck = _piles(3)
    g = state_from_piles(3, plots, techs, removed, deck)
    for s in range(3):
        assert [p[0] for p in g.plots[s]] == plots[2 * s : 2 * s + 2]


def test_c11_draft_order_and_reveal() -> None:
    """C11 (clarification 6): round 1 seats 0..n-1, round 2 revealed after, seats n-1..0."""
    plots, techs, removed, deck = _piles(3)
    g = state_from_piles(3, plots, techs, removed, deck)
    assert sorted(g.draft_revealed) == sorted(plots[6:9])
    order = []
    for _ in range(3):
        order.append(g.to_move)
        g.apply(g.legal_strings()[0])
    assert order == [0, 1, 2]
    assert g.draft_round == 2 and sorted(g.draft_revealed) == sorted(plots[9:12])
    order = []
    for _ in range(3):
        order.append(g.to_move)
        g.apply(g.legal_strings()[-1])
    assert order == [2, 1, 0]
    assert all(len(g.plots[s]) == 4 for s in range(3))


def test_c11_pick_must_be_revealed() -> None:
    """C11: only a revealed plot may be picked; other moves are refused."""
    g = new_game(2, seed=4)
    absent = next(c for c in CARDS.plots if c not in g.draft_revealed)
    refused(g, f"pick {absent}", "C11")
    refused(g, "end", "C11")


def test_c12_markets_after_draft() -> None:
    """C12 (clarification 16): markets are empty during the draft, then 3 plots and 3 techs."""
    plots, techs, removed, deck = _piles(2)
    g = state_from_piles(2, plots, techs, removed, deck)
    assert position_json(g)["plot_market"] == [] and position_json(g)["tech_market"] == []
    for _ in range(4):
        g.apply(g.legal_strings()[0])
    assert g.plot_market == sorted(plots[8:11]) and g.tech_market == sorted(techs[:3])
    assert g.step == "settle"


def test_c13_free_population_in_seat_order() -> None:
    """C13 (RU5): seats 0..n-1 each place one free population on an own plot."""
    g = new_game(3, seed=8)
    while g.step == "draft":
        g.apply(g.legal_strings()[0])
    for s in range(3):
        assert g.step == "settle" and g.to_move == s
        refused(g, "settle p5", "C13")
        g.apply(f"settle p{s + 1}")
        assert g.plots[s][s][1] == 1
    assert g.pop_supply == 57


def test_c14_starting_hands_and_discards() -> None:
    """C14, C71 (RU6): seats draw 6, 7, 8, 9 and each discards exactly 2, face up, in seat order."""
    g = new_game(4, seed=2)
    while g.step != "start_discard":
        g.apply(g.legal_strings()[0])
    assert [sum(h) for h in g.hands] == [6, 7, 8, 9]
    assert g.deck_size == 76 - 30
    one = g.hand(0)[0]
    refused(g, f"discard {one}", "C14", "exactly 2")
    for s in range(4):
        assert g.to_move == s
        g.apply(g.legal_strings()[0])
    assert [sum(h) for h in g.hands] == [4, 5, 6, 7]
    assert sum(g.discard) == 8


def test_c15_first_turn_and_rounds() -> None:
    """C15: seat 0 takes the first turn in round 1; turns go clockwise; seat 0 starts round 2."""
    g = started(3)
    assert (g.round, g.active, g.step) == (1, 0, "collect")
    seen = []
    while g.round == 1:
        if g.step == "collect":
            seen.append(g.active)
        g.apply("end" if g.step == "purchase" else g.legal_strings()[0])
    assert seen == [0, 1, 2] and g.active == 0 and g.round == 2


def test_c71_adjacency_and_counts() -> None:
    """C71/C40: adjacent opponents are 1, 2, 2 with 2, 3, 4 players."""
    assert started(2).adjacent(0) == [1]
    assert started(3).adjacent(1) == [0, 2]
    g = started(4)
    assert g.adjacent(0) == [1, 3] and g.adjacent(2) == [1, 3]


def test_c1_every_card_in_one_zone_after_setup() -> None:
    """C1, C5: after set-up every card and population is in exactly one zone."""
    for n in (2, 3, 4):
        card_zones_ok(started(n, seed=n))
