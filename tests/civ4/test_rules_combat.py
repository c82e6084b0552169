"""Rules C39-C48 (RU21-RU26): combat, walls, blocks, damage, unit profiles."""

from __future__ import annotations

from civcards.civ4 import position_json
from civcards.civ4.cards import CARDS, DECK_INDEX
from civcards.civ4.game import GameState
from tests.civ4.helpers import (
    at_purchase,
    build_on,
    card_zones_ok,
    empty_hand,
    give,
    grant_tech,
    play,
    refused,
    set_pop,
)


def _war(n: int = 2, attacker_units: tuple[str, ...] = (), seed: int = 0) -> GameState:
    """Seat 0 in its Purchase step with exactly ``attacker_units``; every other hand empty."""
    g = at_purchase(n, seed)
    for s in range(n):
        empty_hand(g, s)
    give(g, 0, *attacker_units)
    return g


def _disc(g: GameState, code: str) -> int:
    return g.discard[DECK_INDEX[code]]


def test_c39_one_combat_then_draw() -> None:
    """C39 (RU22): combat happens once, then the Draw step follows."""
    g = _war(2, ("CHR", "CHR"))
    set_pop(g, 1, 1, 1)
    play(g, "attack 1=CHR", "defend", "damage steal p1", "place p1")
    assert g.step == "discard" and g.active == 0
    assert not any(m.startswith("attack") for m in g.legal_strings())


def test_c40_four_players_cannot_attack_opposite() -> None:
    """C40 (RU21): with 4 players the seat opposite is not adjacent."""
    g = _war(4, ("CHR",))
    legal = [m for m in g.legal_strings() if m.startswith("attack")]
    assert legal == ["attack 1=CHR", "attack 3=CHR"]
    refused(g, "attack 2=CHR", "C40")


def test_c41_declaration_units_and_defender_order() -> None:
    """C41: only attack units, each defender at least one, defender order clockwise from the attacker."""
    g = _war(3, ("CHR", "SWD", "ARC"))
    refused(g, "attack 1=ARC", "C41")
    refused(g, "attack 1=CHR,CHR", "C41")
    assert "attack 1=CHR 2=SWD" in g.legal_strings()
    assert "attack 1=CHR,SWD" in g.legal_strings()
    play(g, "attack 1=CHR 2=SWD")
    assert g.combat is not None and g.combat.defenders == [1, 2]
    assert g.hand(0) == ["ARC"]
    pj = position_json(g)
    assert pj["combat"]["units"] == [
        {"code": "CHR", "defender": 1, "state": "assigned"},
        {"code": "SWD", "defender": 2, "state": "assigned"},
    ]


def test_c41_defender_order_wraps_clockwise() -> None:
    """C41: for seat 1 of 4 attacking seats 0 and 2, seat 2 defends first."""
    g = _war(4, ())
    play(g, "end")
    g.apply(g.legal_strings()[0])
    assert g.active == 1
    g.apply(g.legal_strings()[0])
    empty_hand(g, 1)
    give(g, 1, "CHR", "CHR")
    play(g, "attack 0=CHR 2=CHR")
    assert g.combat is not None and g.combat.defenders == [2, 0]


def test_c42_c65_catapult_breaks_walls_defender_chooses() -> None:
    """C42.1, C65 (RU23): a Catapult breaks one City Walls of the defender's choice; it is discarded."""
    g = _war(2, ("CAT", "CHR"))
    build_on(g, 1, 1, "WAL")
    build_on(g, 1, 2, "WAL")
    cat_before = _disc(g, "CAT")
    play(g, "attack 1=CAT,CHR")
    assert g.step == "walls" and g.to_move == 1
    assert g.legal_strings() == ["walls lose p1 bounce CHR", "walls lose p2 bounce CHR"]
    refused(g, "walls", "C42")
    refused(g, "walls bounce CHR", "C42")
    play(g, "walls lose p2 bounce CHR")
    assert g.plots[1][1][2] == () and "WAL" in g.hand(1)
    assert _disc(g, "CAT") == cat_before + 1
    assert "CHR" in g.hand(0)  # bounced back (C42.2)
    states = sorted((u[0], u[2]) for u in g.combat.units) if g.combat else []
    assert states == [] or ("CAT", "broke_walls") in states
    card_zones_ok(g)


def test_c42_c65_great_wall_is_unbreakable() -> None:
    """C42, C65: the Great Wall never breaks; a Catapult without City Walls stays in the attack (RU26)."""
    g = _war(2, ("CAT", "CHR"))
    build_on(g, 1, 1, "GWL")
    play(g, "attack 1=CAT,CHR")
    assert g.legal_strings() == ["walls bounce CAT", "walls bounce CHR"]
    play(g, "walls bounce CHR")
    assert g.combat is not None and g.combat.assigned(1) == ["CAT"]
    assert g.step == "defend"


def test_c42_bounce_is_mandatory_min_b_u() -> None:
    """C42.2 (RU23): min(b, u) units bounce; walls stay in play after bouncing."""
    g = _war(2, ("CHR",))
    build_on(g, 1, 1, "WAL")
    build_on(g, 1, 2, "WAL")
    play(g, "attack 1=CHR")
    assert g.legal_strings() == ["walls bounce CHR"]
    play(g, "walls bounce CHR")
    assert g.plots[1][0][2] == ("WAL",) and g.plots[1][1][2] == ("WAL",)
    # no unit left: no defend, no damage; the Draw step follows (C46)
    assert (g.step == "discard" and g.hand(0)[:1] == ["CHR"]) or "CHR" in g.hand(0)


def test_c48_walls_bounce_only_units_of_their_defender() -> None:
    """C48: a defender's walls bounce only units assigned to that defender."""
    g = _war(3, ("CHR", "SWD"))
    build_on(g, 1, 1, "WAL")
    play(g, "attack 1=CHR 2=SWD")
    assert g.legal_strings() == ["walls bounce CHR"]
    refused(g, "walls bounce SWD", "C42")


def test_c43_block_lists() -> None:
    """C43, C47: Spearmen block only Chariots; Swordsmen never defend; Archers block Axemen."""
    g = _war(2, ("CHR", "AXE"))
    give(g, 1, "SPR", "SWD", "ARC")
    play(g, "attack 1=AXE,CHR")
    legal = g.legal_strings()
    assert "defend ARC>AXE SPR>CHR" in legal and "defend ARC>CHR" in legal
    assert not any("SWD>" in m for m in legal)
    assert not any("SPR>AXE" in m for m in legal)
    refused(g, "defend SWD>AXE", "C43", "cannot defend")
    refused(g, "defend SPR>AXE", "C43", "cannot block")
    refused(g, "defend ARC>AXE ARC>CHR", "C43")  # only one Archers in hand
    refused(g, "defend ARC>SWD", "C43")


def test_c43_c66_unit_bonus_extends_blocks() -> None:
    """C43, C66: with Archery the defender's Archers also block Swordsmen."""
    g = _war(2, ("SWD",))
    give(g, 1, "ARC")
    play(g, "attack 1=SWD")
    assert g.legal_strings() == ["defend"]
    g = _war(2, ("SWD",))
    give(g, 1, "ARC")
    grant_tech(g, 1, "ARY")
    play(g, "attack 1=SWD")
    assert g.legal_strings() == ["defend", "defend ARC>SWD"]


def test_c43_no_block_for_another_defender() -> None:
    """C43: a defender never blocks units assigned to another defender."""
    g = _war(3, ("CHR", "AXE"))
    give(g, 1, "ARC")
    play(g, "attack 1=AXE 2=CHR")
    refused(g, "defend ARC>CHR", "C43", "distinct attacking unit")


def test_c44_blocked_and_blockers_discarded_after_last_defend() -> None:
    """C44 (clarification 19): blockers leave the hand when played; both reach the discard pile after defending."""
    g = _war(3, ("AXE", "CHR"))
    give(g, 1, "ARC")
    give(g, 2, "SPR")
    arc, spr, axe, chr_ = (_disc(g, c) for c in ("ARC", "SPR", "AXE", "CHR"))
    play(g, "attack 1=AXE 2=CHR", "defend ARC>AXE")
    assert g.hand(1) == [] and _disc(g, "ARC") == arc  # in neither hand nor discard
    card_zones_ok(g)
    play(g, "defend SPR>CHR")
    assert (_disc(g, "ARC"), _disc(g, "SPR"), _disc(g, "AXE"), _disc(g, "CHR")) == (arc + 1, spr + 1, axe + 1, chr_ + 1)
    assert g.step == "discard"


def test_c45_damage_steal_and_destroy_defender_chooses() -> None:
    """C45 (RU25): the defender chooses stolen population and destroyed buildings; buildings return to hand."""
    g = _war(2, ("SWD",))
    set_pop(g, 1, 1, 1)
    set_pop(g, 1, 2, 2)
    build_on(g, 1, 3, "GRN")
    build_on(g, 1, 4, "PYR")
    supply = g.pop_supply
    play(g, "attack 1=SWD", "defend")
    assert g.legal_strings() == ["damage steal p1 destroy p3:GRN", "damage steal p2 destroy p3:GRN"]
    refused(g, "damage steal p1 destroy p4:PYR", "C45")
    refused(g, "damage steal p1,p2 destroy p3:GRN", "C45")
    play(g, "damage steal p2 destroy p3:GRN")
    assert g.plots[1][1][1] == 1 and "GRN" in g.hand(1)
    assert g.step == "place" and g.to_move == 0
    refused(g, "place p1,p2", "C45")
    play(g, "place p4")
    assert g.plots[0][3][1] >= 1 and g.pop_supply == supply  # C48: never back to the supply
    assert g.step == "discard"


def test_c45_wonders_never_destroyed_and_impossible_damage_ignored() -> None:
    """C45: wonders are never destroyed; damage that cannot be done is ignored ('damage' alone)."""
    g = _war(2, ("AXE",))
    for pl in range(1, 5):
        set_pop(g, 1, pl, 0)
    build_on(g, 1, 1, "PYR")
    play(g, "attack 1=AXE", "defend")
    assert g.legal_strings() == ["damage"]
    play(g, "damage")
    assert g.step == "discard"


def test_c45_c66_bronze_working_adds_steal() -> None:
    """C45, C66: the attacker's Bronze Working makes Axemen steal 1 population too."""
    g = _war(2, ("AXE",))
    grant_tech(g, 0, "BRZ")
    for pl in range(1, 5):
        set_pop(g, 1, pl, 0)
    set_pop(g, 1, 1, 1)
    play(g, "attack 1=AXE", "defend")
    assert g.legal_strings() == ["damage steal p1"]


def test_c46_units_discarded_bounced_stay_in_hand() -> None:
    """C46: attacking units still in the combat are discarded; bounced ones stay in hand."""
    g = _war(2, ("CHR", "SPR"))
    build_on(g, 1, 1, "WAL")
    for pl in range(1, 5):
        set_pop(g, 1, pl, 0)
    spr = _disc(g, "SPR")
    play(g, "attack 1=CHR,SPR", "walls bounce CHR", "defend", "damage")
    assert "CHR" in g.hand(0) and _disc(g, "SPR") == spr + 1
    assert g.combat is None and g.step == "discard"
    card_zones_ok(g)


def test_c47_unit_profiles() -> None:
    """C47 (RU24, RU26): the printed profiles of the six units."""
    d = CARDS.deck
    assert (d["ARC"].attack, d["ARC"].defend, d["ARC"].blocks) == (False, True, ("AXE", "CAT", "CHR", "SPR"))
    assert (d["SPR"].attack, d["SPR"].defend, d["SPR"].blocks, d["SPR"].steal) == (True, True, ("CHR",), 1)
    assert (d["AXE"].blocks, d["AXE"].destroy) == (("AXE", "CAT", "SPR", "SWD"), 1)
    assert (d["CHR"].defend, d["CHR"].steal) == (False, 1)
    assert (d["SWD"].defend, d["SWD"].steal, d["SWD"].destroy) == (False, 1, 1)
    assert (d["CAT"].breaks_walls, d["CAT"].steal) == (True, 1)
    assert [d[c].count for c in ("ARC", "SPR", "AXE", "CHR", "SWD", "CAT")] == [7, 5, 6, 5, 4, 3]


def test_c48_stolen_population_split_over_defenders() -> None:
    """C45, C48: population stolen from two defenders is placed together by the attacker."""
    g = _war(3, ("CHR", "CHR"))
    set_pop(g, 1, 1, 1)
    set_pop(g, 2, 1, 1)
    play(g, "attack 1=CHR 2=CHR", "defend", "defend", "damage steal p1")
    assert g.combat is not None and g.combat.stolen == 1
    assert position_json(g)["combat"]["units"][0]["state"] == "done"
    play(g, "damage steal p1")
    assert g.combat is not None and g.combat.stolen == 2
    play(g, "place p1,p3")
    card_zones_ok(g)
