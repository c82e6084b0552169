"""Rules C16-C38: the empire, the four steps of a turn, costs, payments, trade, draw."""

from __future__ import annotations

from civcards.civ4 import state_from_piles
from civcards.civ4.cards import CARDS
from tests.civ4.helpers import (
    at_purchase,
    build_on,
    empty_hand,
    give,
    grant_tech,
    play,
    refused,
    set_plot,
    set_pop,
    set_supply,
    started,
)


def _plain(n: int = 2, seed: int = 0) -> object:
    return at_purchase(n, seed)


def test_c16_plot_numbers_and_purchase_order() -> None:
    """C16/C33: a bought plot enters as the next plot number; numbers never change."""
    g = at_purchase()
    before = [p[0] for p in g.plots[0]]
    set_supply(g, 0, 15, 0, 0)
    code = g.plot_market[0]
    play(g, f"plot {code} 15F")
    assert [p[0] for p in g.plots[0]] == [*before, code]
    assert len(g.plot_market) == 3 and g.plot_pile_size == 30 - 4 - 4 - 3 - 1


def test_c17_any_number_of_population_on_one_plot() -> None:
    """C17/C34: population may pile up on one plot; each costs 6 + 2P food."""
    g = at_purchase()
    set_pop(g, 0, 1, 0)
    set_supply(g, 0, 6 + 8 + 10, 0, 0)
    play(g, "pop p1", "pop p1", "pop p1")
    assert g.plots[0][0][1] == 3 and g.supply[0] == [0, 0, 0]


def test_c18_one_slot_then_two_with_three_population() -> None:
    """C18 (RU7): one building per plot; two with 3 population; never the same code twice."""
    g = at_purchase()
    set_pop(g, 0, 1, 0)
    give(g, 0, "MNM", "TMP", "GRN")
    set_supply(g, 0, 0, 30, 0)
    play(g, "build MNM p1")
    refused(g, "build TMP p1", "C18")
    set_pop(g, 0, 1, 3)
    give(g, 0, "MNM")
    refused(g, "build MNM p1", "C18", "already")
    play(g, "build TMP p1")
    refused(g, "build GRN p1", "C18")  # never more than 2
    set_pop(g, 0, 1, 0)  # losing population keeps the cards (RU7)
    assert g.plots[0][0][2] == ("MNM", "TMP")


def test_c18_c59_engineering_gives_two_slots() -> None:
    """C18, C59: Engineering lets every plot hold 2, whatever its population."""
    g = at_purchase()
    set_pop(g, 0, 2, 0)
    grant_tech(g, 0, "ENG")
    give(g, 0, "MNM", "TMP")
    set_supply(g, 0, 0, 30, 0)
    play(g, "build MNM p2", "build TMP p2")
    assert g.plots[0][1][2] == ("MNM", "TMP")


def test_c19_supply_persists_between_turns() -> None:
    """C19 (RU8): resources stay in the supply from turn to turn."""
    g = at_purchase()
    empty_hand(g, 0)
    set_supply(g, 0, 5, 5, 5)
    play(g, "end")
    assert g.supply[0] == [5, 5, 5]


def test_c20_no_hand_limit_by_default() -> None:
    """C20 (RU9): a hand of 20 cards is kept; the Draw step discards only K."""
    g = at_purchase()
    empty_hand(g, 0)
    give(g, 0, *["ARC"] * 7, *["AXE"] * 6, *["SPR"] * 5)
    play(g, "end")
    assert g.discard_n == 2 and sum(g.hands[0]) == 22


def test_c21_discard_pile_is_public() -> None:
    """C21: discards go face up to the public discard pile (its exact contents)."""
    from civcards.civ4 import observe

    g = at_purchase()
    empty_hand(g, 1)
    give(g, 0, "GRN")
    play(g, "cash GRN")
    assert "GRN" in observe(g, 1).discard


def test_c22_steps_in_order_and_nothing_out_of_step() -> None:
    """C22, RU31: collect first; purchases only in the Purchase step."""
    g = started()
    refused(g, "end", "C23")
    refused(g, "cash ARC", "C23")
    g.apply(g.legal_strings()[0])
    assert g.step == "purchase"
    refused(g, g.legal_strings()[0].replace("cash", "collect") if False else "collect", "C25")


def test_c23_collect_base_yields_and_population() -> None:
    """C23, C24: every plot yields its printed amounts; population adds one resource each."""
    g = started()
    g.plots[0] = [("FOR", 1, ()), ("GRS", 2, ()), ("GEM", 0, ()), ("PLN", 0, ())]
    g.fx[0] = None
    set_supply(g, 0)
    play(g, "collect p1=H")
    # FOR 1F2H + 1H; GRS 2F + 2F; GEM 3C; PLN 1F1H
    assert g.supply[0] == [1 + 4 + 1, 3 + 1, 3]


def test_c24_population_mixes_types_and_clarification_11() -> None:
    """C24 (clarification 11): letters are produced types; single-type and empty plots are not written."""
    g = started()
    g.plots[0] = [("PLN", 3, ()), ("GRS", 1, ()), ("RVP", 0, ()), ("HIL", 0, ())]
    g.fx[0] = None
    legal = g.legal_strings()
    assert legal == ["collect p1=FFF", "collect p1=FFH", "collect p1=FHH", "collect p1=HHH"]
    refused(g, "collect", "C24", "p1")
    refused(g, "collect p1=FFC", "C24")
    refused(g, "collect p1=FFH p2=F", "C24", "clarification 11")
    refused(g, "collect p1=FFH p3=C", "C24", "clarification 11")
    set_supply(g, 0)
    play(g, "collect p1=FHH")
    assert g.supply[0] == [2 + 3 + 1, 3 + 1 + 2, 1]


def test_c25_purchase_actions_in_any_order() -> None:
    """C25: any number of actions in any order, then the step ends by C36."""
    g = at_purchase()
    set_supply(g, 0, 20, 0, 20)
    give(g, 0, "TMP")
    t = g.tech_market[0]
    play(g, "cash TMP", f"tech {t}", "pop p1", "trade 3F 1H")
    assert g.step == "purchase"


def test_c26_population_and_plot_costs() -> None:
    """C26: population 6 + 2P - d; plot 15 + 5(N - 4) - d; discounts from Agriculture, Aqueduct, Courthouse."""
    g = at_purchase()
    set_pop(g, 0, 1, 2)
    assert g.pop_cost(0, 1) == 10
    grant_tech(g, 0, "AGR")
    build_on(g, 0, 2, "AQD")
    assert g.pop_cost(0, 1) == 8
    assert g.plot_cost(0) == 15
    g.plots[0].append(("OCN", 0, ()))
    assert g.plot_cost(0) == 20
    build_on(g, 0, 3, "CRT")
    assert g.plot_cost(0) == 17


def test_c26_card_costs_discounts_and_minimum() -> None:
    """C26 (RU12): printed cost minus discounts (they add up), never below 1."""
    g = at_purchase()
    assert g.card_cost(0, "PYR") == 16
    grant_tech(g, 0, "MAS")
    assert g.card_cost(0, "PYR") == 14
    build_on(g, 0, 1, "LIB")
    assert g.card_cost(0, "AGR") == 6
    build_on(g, 0, 2, "GLB")
    assert g.card_cost(0, "AGR") == 4
    build_on(g, 0, 3, "LIB")
    build_on(g, 0, 4, "LIB")
    assert g.card_cost(0, "MYS") == 1  # 6 - 1 - 1 - 1 - 2 -> at least 1


def test_c27_payment_types() -> None:
    """C27: population in F only, buildings in H only, techs in C only; plots any exact mix."""
    g = at_purchase()
    give(g, 0, "MNM")
    set_supply(g, 0, 0, 3, 30)
    refused(g, "pop p1", "C27")
    refused(g, "build MNM p1", "C27")
    set_supply(g, 0, 30, 30, 0)
    refused(g, f"tech {g.tech_market[0]}", "C27")
    set_supply(g, 0, 5, 5, 5)
    code = g.plot_market[0]
    refused(g, f"plot {code} 5F5H4C", "C27", "15")
    refused(g, f"plot {code} 6F5H4C", "C27")
    play(g, f"plot {code} 5F5H5C")
    assert g.supply[0] == [0, 0, 0]


def test_c28_bank_trade() -> None:
    """C28 (RU11): give exactly R (3) of any mix, receive one of a type not given."""
    g = at_purchase()
    set_supply(g, 0, 2, 1, 0)
    legal = [m for m in g.legal_strings() if m.startswith("trade")]
    assert legal == ["trade 2F1H 1C"]
    refused(g, "trade 2F 1C", "C28", "exactly 3")
    refused(g, "trade 2F1H 1F", "C28")
    refused(g, "trade 2F1H 2C", "C28")
    play(g, "trade 2F1H 1C")
    assert g.supply[0] == [0, 0, 1]


def test_c28_c57_rate_two_with_currency() -> None:
    """C28, C57: Currency (or the Great Lighthouse) trades at 2; several do not add up."""
    g = at_purchase()
    grant_tech(g, 0, "CUR")
    build_on(g, 0, 1, "GLH")
    set_supply(g, 0, 2, 0, 0)
    assert sorted(m for m in g.legal_strings() if m.startswith("trade")) == ["trade 2F 1C", "trade 2F 1H"]


def test_c28_same_type_trade_variant() -> None:
    """C28 (same_type_trade, clarification 5): the resources given are all of one type."""
    g = at_purchase(options={"same_type_trade": True})
    set_supply(g, 0, 3, 3, 0)
    trades = [m for m in g.legal_strings() if m.startswith("trade")]
    assert trades == ["trade 3F 1C", "trade 3F 1H", "trade 3H 1C", "trade 3H 1F"]
    refused(g, "trade 2F1H 1C", "same_type_trade")


def test_c29_c30_cash_any_deck_card() -> None:
    """C29, C30 (RU13): any deck card cashes for its printed value; cards in hand are not resources."""
    g = at_purchase()
    empty_hand(g, 0)
    give(g, 0, "CHR", "PYR", "GRN")
    set_supply(g, 0)
    assert g.supply[0] == [0, 0, 0]
    play(g, "cash CHR", "cash PYR", "cash GRN")
    assert g.supply[0] == [2 + 2, 3, 0]
    assert g.discard[CARDS_INDEX("CHR")] >= 1
    refused(g, "cash GRN", "C29")


def CARDS_INDEX(code: str) -> int:
    from civcards.civ4.cards import DECK_INDEX

    return DECK_INDEX[code]


def test_c31_build_from_hand_on_own_plot() -> None:
    """C31: a building in hand is paid in H and placed on an own plot with room."""
    g = at_purchase()
    empty_hand(g, 0)
    give(g, 0, "GRN", "ARC")
    set_supply(g, 0, 0, 6, 0)
    refused(g, "build GRN p9", "C31")
    refused(g, "build ARC p1", "C31")
    refused(g, "build LIB p1", "C31")
    play(g, "build GRN p1")
    assert "GRN" in g.plots[0][0][2] and g.supply[0] == [0, 0, 0] and g.hand(0) == ["ARC"]


def test_c32_buy_tech_refills_market_and_rule_ru4() -> None:
    """C32 (RU4): a bought technology is replaced from the pile; an empty pile leaves the market short."""
    g = at_purchase()
    set_supply(g, 0, 0, 0, 99)
    top = g.init_techs[g.tech_pos]
    t = g.tech_market[0]
    play(g, f"tech {t}")
    assert t in g.techs[0] and top in g.tech_market and len(g.tech_market) == 3
    g.tech_pos = len(g.init_techs)
    play(g, f"tech {g.tech_market[0]}")
    assert len(g.tech_market) == 2
    refused(g, "tech ZZZ", "cannot be read")


def test_c33_empty_plot_market_allows_no_purchase() -> None:
    """C33 (RU4): with the plot pile empty the market shrinks; an empty market sells nothing."""
    g = at_purchase()
    set_supply(g, 0, 99, 0, 0)
    g.plot_pos = len(g.init_plots)
    market = list(g.plot_market)
    for code in market:
        g.apply(f"plot {code} {g.plot_cost(0)}F")
    assert g.plot_market == []
    assert not any(m.startswith("plot") for m in g.legal_strings())


def test_c34_population_supply_can_run_out() -> None:
    """C34 (RU14): no population can be bought from an empty supply."""
    g = at_purchase()
    set_supply(g, 0, 50, 0, 0)
    g.pop_supply = 0
    refused(g, "pop p1", "C34")


def test_c35_c63_ability_once_per_turn() -> None:
    """C35, C63 (RU17): Writing is used at most once a turn, against any opponent holding cards."""
    g = at_purchase(3)
    grant_tech(g, 0, "WRI")
    refused(g, "use WRI 0", "C63", "not an opponent")
    play(g, "use WRI 2")
    assert g.used == ("WRI",)
    refused(g, "use WRI 1", "C35", "already")


def test_c36_end_or_attack() -> None:
    """C36: 'end' goes to the Draw step; an attack needs an attacking unit in hand."""
    g = at_purchase()
    empty_hand(g, 0)
    give(g, 0, "ARC")
    assert not any(m.startswith("attack") for m in g.legal_strings())
    refused(g, "attack 1=ARC", "C41")
    give(g, 0, "CHR")
    assert "attack 1=CHR" in g.legal_strings()
    play(g, "end")
    assert g.step == "discard"


def test_c37_draw_four_discard_two() -> None:
    """C37: the Draw step draws 4 and then discards exactly 2 from the whole hand."""
    g = at_purchase()
    empty_hand(g, 0)
    play(g, "end")
    assert sum(g.hands[0]) == 4 and g.discard_n == 2
    refused(g, "discard " + g.hand(0)[0], "C37")
    g.apply(g.legal_strings()[0])
    assert sum(g.hands[0]) == 2 and g.active == 1


def test_c37_c49_highest_culture_draws_and_discards_one_more() -> None:
    """C37, C49 (RU32): Highest Culture draws 5 and discards 3; with Astronomy 6 and 3."""
    g = at_purchase()
    empty_hand(g, 0)
    grant_tech(g, 0, "MUS")
    play(g, "end")
    assert sum(g.hands[0]) == 5 and g.discard_n == 3
    g = at_purchase()
    empty_hand(g, 0)
    grant_tech(g, 0, "MUS")
    grant_tech(g, 0, "AST")
    play(g, "end")
    assert sum(g.hands[0]) == 6 and g.discard_n == 3


def test_c37_c58_astronomy_draws_one_more_no_extra_discard() -> None:
    """C37, C58: Astronomy draws 5 and still discards 2."""
    g = at_purchase()
    empty_hand(g, 0)
    grant_tech(g, 0, "AST")
    play(g, "end")
    assert sum(g.hands[0]) == 5 and g.discard_n == 2


def test_c37_small_hand_discards_whole_hand_and_empty_hand_skips() -> None:
    """C37 (RU27, RU32): a hand smaller than K is discarded whole; an empty hand skips the discard."""
    g = at_purchase()
    empty_hand(g, 0)
    g.deck_pos = len(g.deck) - 1  # one card left in the deck
    g.discard = [0] * len(g.discard)
    play(g, "end")
    assert sum(g.hands[0]) == 1 and g.discard_n == 1
    g.apply(g.legal_strings()[0])
    assert g.active == 1
    g2 = at_purchase()
    empty_hand(g2, 0)
    g2.deck_pos = len(g2.deck)
    g2.discard = [0] * len(g2.discard)
    play(g2, "end")
    assert g2.active == 1 and g2.step == "collect"


def test_c38_empty_deck_reshuffles_discard_pile() -> None:
    """C38: drawing from an empty deck shuffles the discard pile into a new deck, recorded as chance."""
    g = at_purchase()
    empty_hand(g, 0)
    g.deck_pos = len(g.deck) - 2
    before = sum(g.discard)
    play(g, "end")
    assert sum(g.hands[0]) == 4
    assert g.chance_out and g.chance_out[-1]["kind"] == "reshuffle"
    assert len(g.chance_out[-1]["deck"]) == before
    assert g.deck_size == before - 2


def test_c23_c53_c54_c55_collect_effects() -> None:
    """C23, C53-C55 (clarification 8): income, double_base once per plot, boost on producing plots."""
    g = started()
    g.plots[0] = [("FLD", 0, ()), ("CST", 0, ()), ("HIL", 0, ()), ("GRS", 0, ())]
    g.fx[0] = None
    build_on(g, 0, 1, "GRN")  # FLD 3F doubled -> 6F
    build_on(g, 0, 2, "MKT")  # CST 2C doubled -> 4C
    build_on(g, 0, 3, "HRB")  # income 1F 1C
    grant_tech(g, 0, "BNK")  # +1C on every coin plot (CST only)
    set_supply(g, 0)
    play(g, "collect")
    f = 6 + 1 + 0 + 2 + 1
    h = 2
    c = 4 + 1 + 1
    assert g.supply[0] == [f, h, c]


def test_c24_rule_ru15_granary_adds_no_type() -> None:
    """C24, C54 (RU15): a Granary on Hills yields nothing more and adds no produced type."""
    g = started()
    set_plot(g, 0, 1, "HIL")
    set_pop(g, 0, 1, 1)
    build_on(g, 0, 1, "GRN")
    assert 1 not in dict(g.collect_options(0))


def test_c22_rule_ru31_trade_only_in_own_purchase() -> None:
    """C22, RU31: a non-active player has no move; the Collect step allows no trade."""
    g = started()
    set_supply(g, 0, 3, 0, 0)
    refused(g, "trade 3F 1C", "C23")


def test_c38_both_empty_draws_fewer() -> None:
    """C38 (RU27): with deck and discard pile empty the draw stops short."""
    g = at_purchase()
    empty_hand(g, 0)
    g.discard = [0] * len(g.discard)
    g.deck_pos = len(g.deck) - 3
    play(g, "end")
    assert sum(g.hands[0]) == 3


def test_c34_c26_population_price_rises_per_plot() -> None:
    """C34, C26: the second population on a plot costs 8, the third 10."""
    g = at_purchase()
    set_pop(g, 0, 2, 0)
    set_supply(g, 0, 14, 0, 0)
    play(g, "pop p2", "pop p2")
    assert g.supply[0] == [0, 0, 0] and g.plots[0][1][1] == 2


def test_c32_cost_uses_library_bought_earlier_c67() -> None:
    """C32, C67 (RU16): a Library built earlier in the step already lowers a tech bought later."""
    g = at_purchase()
    t = g.tech_market[0]
    cost = CARDS.techs[t].cost
    give(g, 0, "LIB")
    set_supply(g, 0, 0, 8, cost - 1)
    refused(g, f"tech {t}", "C27")
    play(g, "build LIB p1", f"tech {t}")
    assert g.supply[0] == [0, 0, 0]


def test_c9_explicit_piles_validated() -> None:
    """C9: explicit piles that are not the card set are refused."""
    import pytest

    from civcards.civ4 import ConfigError

    with pytest.raises(ConfigError):
        state_from_piles(2, ["FOR"] * 30, [], [], [])
