"""Rules C49-C67: culture, happiness, the 14 effect keywords and their timing."""

from __future__ import annotations

from civcards.civ4.cards import CARDS
from tests.civ4.helpers import (
    at_purchase,
    build_on,
    empty_hand,
    give,
    grant_tech,
    play,
    refused,
    set_pop,
    set_supply,
    started,
)


def test_c49_culture_and_highest_culture() -> None:
    """C49 (RU19): culture sums techs, wonders and buildings in play; Highest Culture needs >= 3 and strictly most."""
    g = started(3)
    assert g.highest_culture() is None
    grant_tech(g, 1, "MYS")  # 2: not greater than 2
    assert g.culture(1) == 2 and g.highest_culture() is None
    build_on(g, 1, 1, "MNM")
    assert g.culture(1) == 3 and g.highest_culture() == 1
    grant_tech(g, 2, "MUS")  # 3 too: shared, nobody
    assert g.highest_culture() is None
    give(g, 0, "STH")  # in hand: does not count
    assert g.culture(0) == 0


def test_c50_happiness_lowers_costs() -> None:
    """C50, C26 (RU19, RU20): Highest Happiness (>= 2, strictly most) lowers techs, buildings and wonders by 1."""
    g = at_purchase(2)
    grant_tech(g, 0, "POL")
    assert g.happiness(0) == 1 and g.highest_happiness() is None
    build_on(g, 0, 1, "TMP")
    assert g.highest_happiness() == 0
    assert g.card_cost(0, "PYR") == 15 and g.card_cost(0, "GRN") == 5
    build_on(g, 1, 1, "CLS")
    assert g.highest_happiness() is None  # 2 against 2


def test_c50_happiness_not_wonders_variant() -> None:
    """C50 (happiness_not_wonders, RU20): the status does not lower wonder costs."""
    g = at_purchase(2, options={"happiness_not_wonders": True})
    build_on(g, 0, 1, "CLS")
    assert g.highest_happiness() == 0
    assert g.card_cost(0, "PYR") == 16 and g.card_cost(0, "GRN") == 5


def test_c51_status_read_at_each_purchase() -> None:
    """C51, clarification 3: a card's own happiness never lowers its own price; later purchases see it."""
    g = at_purchase(2)
    empty_hand(g, 0)
    give(g, 0, "CLS", "GRN")
    set_supply(g, 0, 0, 8 + 5, 0)
    play(g, "build CLS p1")  # 8: its own happiness does not count
    assert g.supply[0][1] == 5
    play(g, "build GRN p2")  # 6 - 1 with Highest Happiness
    assert g.supply[0][1] == 0


def test_c52_closed_effect_keywords() -> None:
    """C52: every printed effect is one of the 14 keywords."""
    keywords = {
        "income", "double_base", "boost_producing", "discount", "exchange_rate", "extra_draw",
        "building_slots", "gain_once", "free_population", "free_tech", "steal_card",
        "steal_resources", "bounce", "unit_bonus",
    }
    cards = list(CARDS.techs.values()) + [c for c in CARDS.deck.values() if c.kind != "unit"]
    assert {e.kind for c in cards for e in c.effects} <= keywords


def test_c53_income_from_next_collect() -> None:
    """C53, C67 (RU16): income (Pyramids +2H) acts from the owner's next Collect step."""
    g = started(2)
    build_on(g, 0, 1, "PYR")
    h = g.supply[0][1]
    g.apply(g.legal_strings()[0])
    assert g.supply[0][1] >= h + 2
    g2 = started(2)
    g2.apply(g2.legal_strings()[0])
    assert g.supply[0][1] - g2.supply[0][1] == 2


def test_c54_double_base_only_its_plot_once() -> None:
    """C54 (clarification 8): a Granary doubles its plot's printed food once; population is not doubled."""
    g = started(2)
    g.plots[0] = [("GRS", 2, ()), ("HIL", 0, ()), ("HIL", 0, ()), ("HIL", 0, ())]
    g.fx[0] = None
    build_on(g, 0, 1, "GRN")
    set_supply(g, 0)
    play(g, "collect")
    assert g.supply[0] == [2 * 2 + 2, 6, 0]


def test_c55_boost_producing_on_producing_plots() -> None:
    """C55: Colossus adds 1C to each own plot printing coins."""
    g = started(2)
    g.plots[0] = [("CST", 0, ()), ("GEM", 0, ()), ("HIL", 0, ()), ("GRS", 0, ())]
    g.fx[0] = None
    build_on(g, 0, 3, "COS")
    set_supply(g, 0)
    play(g, "collect")
    assert g.supply[0] == [1 + 2, 2, 2 + 3 + 2]


def test_c56_discounts_add_up() -> None:
    """C56 (RU12): Pottery -1 building; Library + Great Library on techs add up."""
    g = at_purchase(2)
    grant_tech(g, 0, "POT")
    assert g.card_cost(0, "LIB") == 7
    build_on(g, 0, 1, "LIB")
    build_on(g, 0, 2, "GLB")
    assert g.card_cost(0, "COL") == 10


def test_c57_exchange_rate_lowest_applies() -> None:
    """C57: several exchange_rate effects do not add up; the lowest rate applies."""
    g = at_purchase(2)
    grant_tech(g, 0, "CUR")
    build_on(g, 0, 1, "GLH")
    assert g.effects(0).rate == 2


def test_c58_extra_draw() -> None:
    """C58: Astronomy draws one more card in the owner's Draw step."""
    g = at_purchase(2)
    empty_hand(g, 0)
    grant_tech(g, 0, "AST")
    play(g, "end")
    assert sum(g.hands[0]) == 5


def test_c59_building_slots() -> None:
    """C59: Engineering gives every plot two slots."""
    g = at_purchase(2)
    grant_tech(g, 0, "ENG")
    assert all(g.slots(0, i + 1) == 2 for i in range(4))


def test_c60_mining_once_per_plot() -> None:
    """C60 (RU18): Mining gives 1H per plot owned when it enters play, once."""
    g = at_purchase(2)
    g.tech_market[0] = "MIN"
    g.tech_market.sort()
    set_supply(g, 0, 0, 0, 8)
    play(g, "tech MIN")
    assert g.supply[0] == [0, 4, 0]


def test_c61_free_population() -> None:
    """C61: Hanging Gardens places 2 free population on own plots of the owner's choice."""
    g = at_purchase(2)
    give(g, 0, "HNG")
    set_supply(g, 0, 0, 18, 0)
    legal = [m for m in g.legal_strings() if m.startswith("build HNG p1")]
    assert "build HNG p1 settle p2,p2" in legal and "build HNG p1 settle p1,p4" in legal
    refused(g, "build HNG p1", "C61")
    refused(g, "build HNG p1 settle p1", "C61")
    supply = g.pop_supply
    play(g, "build HNG p1 settle p3,p4")
    assert g.pop_supply == supply - 2


def test_c61_free_population_limited_by_supply() -> None:
    """C61: with 1 population left only 1 is placed; with none, 'build HNG pN' alone."""
    g = at_purchase(2)
    give(g, 0, "HNG")
    set_supply(g, 0, 0, 18, 0)
    g.pop_supply = 0
    assert "build HNG p1" in g.legal_strings()


def test_c62_free_tech_and_refill() -> None:
    """C62: the Oracle takes one market technology free; the market is refilled."""
    g = at_purchase(2)
    give(g, 0, "ORC")
    set_supply(g, 0, 0, 18, 0)
    t = g.tech_market[1]
    refused(g, "build ORC p1", "C62")
    play(g, f"build ORC p1 free {t}")
    assert t in g.techs[0] and len(g.tech_market) == 3 and g.supply[0] == [0, 0, 0]


def test_c63_steal_card_random_and_recorded() -> None:
    """C63: Writing takes a random card from the victim's hand, recorded as a chance entry."""
    g = at_purchase(2)
    grant_tech(g, 0, "WRI")
    empty_hand(g, 1)
    give(g, 1, "PYR")
    play(g, "use WRI 1")
    assert "PYR" in g.hand(0) and g.hand(1) == []
    assert g.chance_out[-1] == {"kind": "steal", "card": "PYR"}
    assert g.steals[-1][1:] == (0, 1, "PYR")


def test_c63_empty_hand_cannot_be_robbed() -> None:
    """C63: the victim's hand must hold a card."""
    g = at_purchase(2)
    grant_tech(g, 0, "WRI")
    empty_hand(g, 1)
    refused(g, "use WRI 1", "C63", "empty")


def test_c64_steal_resources_owner_chooses() -> None:
    """C64 (RU17): Code of Laws takes min(3, total) resources of the owner's choice."""
    g = at_purchase(2)
    grant_tech(g, 0, "COL")
    set_supply(g, 1, 1, 0, 5)
    set_supply(g, 0)
    uses = [m for m in g.legal_strings() if m.startswith("use")]
    assert uses == ["use COL 1 1F2C", "use COL 1 3C"]
    refused(g, "use COL 1 2F1C", "C64")
    refused(g, "use COL 1", "C64")
    play(g, "use COL 1 1F2C")
    assert g.supply[0] == [1, 0, 2] and g.supply[1] == [0, 0, 3]
    set_supply(g, 1, 0, 1, 0)
    refused(g, "use COL 1 1H", "C35")


def test_c63_c64_one_shot_steals_variant() -> None:
    """C63, C64 (one_shot_steals, clarification 2): usable only in the Purchase step the tech enters play."""
    g = at_purchase(2, options={"one_shot_steals": True})
    grant_tech(g, 0, "WRI")
    refused(g, "use WRI 1", "one_shot_steals")
    g.tech_market[0] = "COL"
    g.tech_market.sort()
    set_supply(g, 0, 0, 0, 13)
    set_supply(g, 1, 2, 0, 0)
    play(g, "tech COL", "use COL 1 2F")


def test_c65_bounce_only_when_defending() -> None:
    """C65: City Walls bounce attacking units only when their owner defends."""
    g = at_purchase(2)
    build_on(g, 0, 1, "WAL")
    empty_hand(g, 0)
    give(g, 0, "CHR")
    play(g, "attack 1=CHR")
    assert g.step in ("defend", "damage")


def test_c66_unit_bonus_feudalism() -> None:
    """C66: Feudalism lets the owner's Spearmen block Axemen and Swordsmen."""
    g = at_purchase(2)
    grant_tech(g, 1, "FEU")
    assert g.blockable(1, "SPR", "AXE") and g.blockable(1, "SPR", "SWD")
    assert not g.blockable(0, "SPR", "AXE")


def test_c67_effects_begin_at_once_and_end_when_destroyed() -> None:
    """C67 (RU16): a Courthouse built lowers a plot bought later in the step; a destroyed one stops."""
    g = at_purchase(2)
    give(g, 0, "CRT")
    set_supply(g, 0, 12, 8, 0)
    play(g, "build CRT p1")
    assert g.plot_cost(0) == 12
    code = g.plot_market[0]
    play(g, f"plot {code} 12F")
    pc, pop, _on = g.plots[0][0]
    g.plots[0][0] = (pc, pop, ())
    g.fx[0] = None
    assert g.plot_cost(0) == 20


def test_c67_one_time_effects_only_on_cards_that_stay() -> None:
    """C67: gain_once, free_population and free_tech appear only on technologies and wonders."""
    one_time = {"gain_once", "free_population", "free_tech"}
    for c in CARDS.deck.values():
        if c.kind == "building":
            assert not one_time & {e.kind for e in c.effects}


def test_c18_c61_hanging_gardens_slots_by_population() -> None:
    """C18, C61: population placed by Hanging Gardens counts for later placements."""
    g = at_purchase(2)
    give(g, 0, "HNG", "MNM")
    set_pop(g, 0, 2, 1)
    set_supply(g, 0, 0, 22, 0)
    play(g, "build HNG p1 settle p2,p2", "build MNM p2")
    assert g.plots[0][1] == (g.plots[0][1][0], 3, ("MNM",))
