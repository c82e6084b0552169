"""Rules R9-R14: the three phases of a turn, permanent and discard effects, the pile.

Positions come either from a scripted deck (``scripted``: exact hands and
draws) or, where scripting would take many turns, from ``forced``: a new game
put into a position with card conservation kept (every card of the box is in
exactly one zone, checked by the helper).
"""

from __future__ import annotations

import pytest

from civcards.carta import observe
from civcards.carta.notation import position_json
from tests.carta.helpers import areas, forced, hands, legal, pile, play, refused, scripted

# -- R9 phase 1 -------------------------------------------------------------------


def test_r9_phase1_is_mandatory_only_plays_are_legal() -> None:
    """R9: with a playable card, the only legal moves are plays; 'end' is refused."""
    g = scripted(2, ["MRS", "EEC"])
    assert g.phase == "play"
    assert g.legal_strings() == ["play M", "play R", "play S"]
    refused(g, "end", "R9")
    refused(g, "attack M", "R9")
    refused(g, "play C", "no Culture")
    play(g, "play R")
    assert g.phase == "effects" and hands(g)[0] == "MS" and areas(g)[0] == "R"
    refused(g, "play M", "R10")


def test_r9_embargo_leaving_no_legal_play_skips_phase1() -> None:
    """R9/R17: every card in hand under Embargo: phase 1 is skipped, straight to effects."""
    g = scripted(2, ["MMM", "EEC"], "MR")
    play(g, "play M", "end")  # seat 0 draws M: hand MMM
    play(g, "play E", "embargo 0 M", "end")
    assert g.to_move == 0
    assert hands(g)[0] == "MMM"
    assert g.phase == "effects"
    assert g.legal_strings() == ["end"]
    refused(g, "play M", "Embargo", "R17")
    assert observe(g, 1).phase == "effects"


def test_r9_empty_hand_skips_phase1() -> None:
    """R9: an empty hand skips phase 1 (position forced, cards conserved)."""
    g = forced(2, hands=["", "MM"], areas=["CC", "C"])
    assert g.phase == "effects" and g.to_move == 0
    assert g.legal_strings() == ["end"]
    play(g, "end")
    assert hands(g)[0] != "" and len(hands(g)[0]) == 3


def test_r9_skip_only_when_nothing_playable() -> None:
    """R9: one card outside the embargoed domain must be played ('and only then')."""
    g = scripted(2, ["MMR", "EEC"], "MR")
    play(g, "play M", "end")  # seat 0 draws M: hand MMR
    play(g, "play E", "embargo 0 M", "end")
    assert g.phase == "play"
    assert g.legal_strings() == ["play R"]
    refused(g, "end", "R9")
    refused(g, "play M", "R17")


# -- R17 embargo as it bears on turns (end of the embargo, several add up) -------


def test_r17_embargo_ends_at_end_of_embargoed_players_turn() -> None:
    """R17: the Economy card lies face down until the end of the target's next turn."""
    g = scripted(2, ["MMR", "EEC"], "MRSS")
    play(g, "play M", "end")
    play(g, "play E", "embargo 0 M")
    assert g.markers == [(0, 0, "embargo", 1)]
    assert pile(g) == ""
    assert areas(g) == ["M", ""]
    play(g, "end")  # the placer's turn ends: the embargo stays
    assert g.markers == [(0, 0, "embargo", 1)]
    assert position_json(g)["markers"] == [{"seat": 0, "domain": "M", "kind": "embargo", "by": 1}]
    play(g, "play R")
    assert g.markers == [(0, 0, "embargo", 1)]
    play(g, "end")  # the embargoed player's turn ends: the card goes to the pile
    assert g.markers == []
    assert pile(g) == "E"
    # and the next turn of seat 0 is free again
    play(g, "play C", "end")
    assert "play M" in g.legal_strings()


def test_r17_several_embargoes_add_up() -> None:
    """R17: two embargoes on one player block both domains; both cards go to the pile.

    Forced 3-player position (cards conserved): seat 0 holds M and R only.
    """
    g = forced(
        3,
        hands=["MRR", "SS", "SS"],
        areas=["MR", "E", "E"],
        active=1,
        start=0,
    )
    play(g, "play S", "embargo 0 M", "end")
    play(g, "play S", "embargo 0 R", "end")
    assert g.to_move == 0
    assert g.phase == "effects"  # R9: nothing may be played
    assert not any(m.startswith("play") for m in g.legal_strings())
    refused(g, "play R", "R17")
    assert len(g.markers) == 2
    play(g, "end")
    assert g.markers == []
    assert pile(g) == "EE"


def test_r17_two_embargoes_on_one_domain_both_end() -> None:
    """R17: embargoes stacked on the same domain both go to the pile at the turn's end."""
    g = forced(3, hands=["MRR", "SS", "SS"], areas=["MR", "E", "E"], active=1, start=0)
    play(g, "play S", "embargo 0 M", "end")
    play(g, "play S", "embargo 0 M", "end")
    assert g.legal_strings() == ["play R"]
    play(g, "play R", "end")
    assert g.markers == [] and pile(g) == "EE"


# -- R10 phase 2 --------------------------------------------------------------------


def test_r10_one_permanent_effect_per_domain() -> None:
    """R10: level 1 or level 2 of a domain, never both in one turn."""
    g = forced(2, hands=["RSSCC", "M"], areas=["MMMMM", "E"])
    play(g, "play R")
    legal(g, "assassination C", "purge CC")
    play(g, "assassination C")
    assert hands(g)[0] == "SSC"
    refused(g, "purge SS", "R10")
    refused(g, "assassination S", "R10")
    g2 = forced(2, hands=["RSSCC", "M"], areas=["MMMMM", "E"])
    play(g2, "play R", "purge CS")
    refused(g2, "assassination S", "R10")


def test_r10_one_discard_effect_per_domain() -> None:
    """R10: at most one discard effect per domain, even with several cards of it."""
    g = forced(2, hands=["R", "M"], areas=["MMSS", "SC"])
    play(g, "play R", "attack S")
    assert areas(g) == ["MRS", "C"]
    assert pile(g) == "MSS"
    refused(g, "attack S", "R10")
    assert not any(m.startswith("attack") for m in g.legal_strings())


def test_r10_permanent_and_discard_of_one_domain_both_allowed() -> None:
    """R10: a permanent and a discard effect of the same domain in one turn."""
    g = forced(2, hands=["RS", "M"], areas=["MMMMC", "C"])
    play(g, "play R", "assassination S", "attack C")
    assert areas(g) == ["MMMR", ""]
    assert hands(g)[0] == ""
    assert pile(g) == "MSCC"


def test_r10_effects_any_order_and_end_is_the_players_choice() -> None:
    """R10: effects in any order; phase 2 ends only with 'end'."""
    g = forced(2, hands=["CS", "M"], areas=["MMMC", "C"])
    play(g, "play C", "attack C")
    assert areas(g) == ["MMC", ""]
    # after the Attack, 2 Military cards remain: Assassination is gone (R11: "at that moment")
    assert not any(m.startswith("assassination") for m in g.legal_strings())
    assert g.phase == "effects" and g.to_move == 0
    g2 = forced(2, hands=["CS", "M"], areas=["MMMC", "C"])
    play(g2, "play C", "assassination S", "attack C")
    assert g2.phase == "effects" and g2.to_move == 0
    assert g2.legal_strings() == ["end"]
    play(g2, "end")
    assert g2.to_move == 1


# -- R11 permanent effects -----------------------------------------------------------


def test_r11_threshold_checked_at_that_moment() -> None:
    """R11: a level is usable when the play area holds the threshold at that moment."""
    g = forced(2, hands=["MS", "R"], areas=["MM", "C"])
    assert not any(m.startswith("assassination") for m in g.legal_strings())
    play(g, "play M")  # third Military card
    legal(g, "assassination S")
    refused(g, "purge S", "5", "R11")


def test_r11_level_two_allows_level_one() -> None:
    """R11: with the level-2 threshold a player may use level 1 instead."""
    g = forced(2, hands=["MSC", "R"], areas=["MMMM", "C"])
    play(g, "play M")
    legal(g, "assassination S", "purge SC")


def test_r11_face_down_markers_never_count() -> None:
    """R11/R20: Democracy cards lying on a domain are markers, not cards of it."""
    g = forced(
        2,
        hands=["RS", "M"],
        areas=["MM", "U"],
        markers=[(0, "M", "democracy", 1), (0, "M", "democracy", 1)],
    )
    play(g, "play R")
    assert position_json(g)["areas"][0] == "MMR"
    assert g.level(0, 0) == 0
    refused(g, "assassination S", "R11")


# -- R12 discard effects --------------------------------------------------------------


def test_r12_one_card_is_enough_and_goes_to_the_pile() -> None:
    """R12: no threshold; the domain's card moves from the play area to the pile."""
    g = forced(2, hands=["M", "R"], areas=["S", "S"], deck_top="RRECU")
    play(g, "play M")
    legal(g, "attack S")
    play(g, "attack S")
    assert areas(g) == ["", ""]
    assert pile(g) == "MSS"


def test_r12_discard_effect_needs_a_card_of_the_domain() -> None:
    """R12: no card of the domain in the play area, no discard effect."""
    g = forced(2, hands=["C", "R"], areas=["S", "M"])
    play(g, "play C")
    refused(g, "attack C", "Military", "R12")
    refused(g, "inquisition 1", "Religion", "R12")
    refused(g, "embargo 1 M", "Economy", "R12")
    refused(g, "democracy 1 M", "Utopia", "R12")


# -- R13 phase 3 -----------------------------------------------------------------------


def test_r13_draw_up_to_three() -> None:
    """R13: the base hand size is 3: draw the difference from the top of the deck."""
    g = scripted(2, ["MRS", "EEC"], "CS")
    play(g, "play M", "end")
    assert hands(g)[0] == "RSC"
    g2 = forced(2, hands=["R", "M"], areas=["MMM", ""], deck_top="ESC")
    play(g2, "play R", "end")
    assert hands(g2)[0] == "ESC"


def test_r13_no_discard_when_over_hand_size() -> None:
    """R13: a hand already at or over the hand size draws nothing and discards nothing."""
    g = forced(2, hands=["MMRRS", "C"], areas=["", "C"])
    size = g.deck_size
    play(g, "play M", "end")
    assert hands(g)[0] == "MRRS"
    assert g.deck_size == size
    assert pile(g) == ""


def test_r13_deck_short_draws_what_is_left() -> None:
    """R13/R23: the deck cannot supply all: draw what is left, the last round begins."""
    g = forced(2, hands=["R", "M"], areas=["", ""], deck="S", discard=None)
    play(g, "play R", "end")
    assert hands(g)[0] == "S"
    assert g.deck_size == 0
    assert g.last_round


# -- R14 discard pile ------------------------------------------------------------------


def test_r14_discard_pile_is_public_to_every_seat() -> None:
    """R14: every player (and a spectator) sees the pile's exact contents."""
    g = forced(3, hands=["RS", "M", "C"], areas=["MMMS", "S", "S"])
    play(g, "play R", "assassination S", "attack S")
    assert pile(g) == "MSSSS"
    for seat in (0, 1, 2, None):
        assert observe(g, seat).discard == "MSSSS"


@pytest.mark.parametrize("seat", [0, 1])
def test_r14_pile_contents_in_position_json(seat: int) -> None:
    """R14: the pile appears in the position (canonical card list)."""
    g = forced(2, hands=["SR", "R"], areas=["MMM", "C"], discard="UC", active=seat)
    assert position_json(g)["discard"] == "CU"
    assert observe(g, 1 - seat).discard == "CU"


def test_r10_culture_has_no_discard_effect() -> None:
    """R10/R19: Culture cards give Inspiration only; no effect discards them from play."""
    g = forced(2, hands=["C", "R"], areas=["CC", ""])
    play(g, "play C")
    assert g.legal_strings() == ["end"]  # nothing to copy, nothing to discard
    assert areas(g)[0] == "CCC" and pile(g) == ""
