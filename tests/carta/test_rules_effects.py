"""Rules R15-R18: Military, Religion, Economy and Science effects.

Most positions are forced with :func:`tests.carta.helpers.forced` (a new game put
into an exact position, card conservation kept and checked); 2-player
thresholds are 3/5/8, 3-player 3/5/7, 4-player 2/4/7 (R6).
"""

from __future__ import annotations

from civcards.carta import expand, observe, seat_options
from tests.carta.helpers import areas, forced, hands, legal, pile, play, refused, scripted

# -- R15 Military ----------------------------------------------------------------------


def test_r15_assassination_discards_one_card_from_hand() -> None:
    """R15: Assassination moves one hand card to the pile."""
    g = forced(2, hands=["RSC", "M"], areas=["MMM", ""])
    play(g, "play R")
    assert {m for m in g.legal_strings() if m.startswith("assassination")} == {
        "assassination S",
        "assassination C",
    }
    play(g, "assassination C")
    assert hands(g)[0] == "S" and pile(g) == "C"


def test_r15_assassination_not_with_empty_hand() -> None:
    """R15: Assassination cannot be used with an empty hand."""
    g = forced(2, hands=["R", "M"], areas=["MMM", ""])
    play(g, "play R")
    assert hands(g)[0] == ""
    assert not any(m.startswith("assassination") for m in g.legal_strings())
    refused(g, "assassination M", "empty", "R15")


def test_r15_purge_two_cards() -> None:
    """R15: Purge discards 2 cards from the hand."""
    g = forced(2, hands=["RSCC", "M"], areas=["MMMMM", ""])
    play(g, "play R")
    legal(g, "purge SC", "purge CC")
    refused(g, "purge C", "2 cards", "R15")
    play(g, "purge CC")
    assert hands(g)[0] == "S" and pile(g) == "CC"


def test_r15_purge_with_one_card_in_hand() -> None:
    """R15: Purge discards only 1 card when the hand holds only 1."""
    g = forced(2, hands=["RS", "M"], areas=["MMMMM", ""])
    play(g, "play R")
    assert [m for m in g.legal_strings() if m.startswith("purge")] == ["purge S"]
    refused(g, "purge SS", "1 card")
    play(g, "purge S")
    assert hands(g)[0] == "" and pile(g) == "S"


def test_r15_attack_on_a_domain_the_others_lack() -> None:
    """R15: Attack on a domain only the attacker has costs the attacker alone."""
    g = forced(3, hands=["R", "M", "M"], areas=["MS", "RR", "C"])
    play(g, "play R", "attack S")
    assert areas(g) == ["R", "RR", "C"]
    assert pile(g) == "MS"


def test_r15_attack_hits_every_player_with_the_domain() -> None:
    """R15: every other player with a card of the domain discards one (only one)."""
    g = forced(3, hands=["S", "M", "M"], areas=["MR", "RRR", "CR"])
    play(g, "play S", "attack R")
    assert areas(g) == ["S", "RR", "C"]
    assert pile(g) == "MRRR"


def test_r15_attack_choosing_military_again() -> None:
    """R15: choosing Military again is allowed while a Military card is left."""
    g = forced(3, hands=["MS", "R", "R"], areas=["M", "M", "MMM"])
    play(g, "play M")
    legal(g, "attack M")
    play(g, "attack M")
    assert areas(g) == ["", "", "MM"]
    assert pile(g) == "MMMM"


def test_r15_attack_military_refused_with_a_single_military_card() -> None:
    """R15: after discarding the only Military card, Military cannot be chosen."""
    g = forced(2, hands=["S", "R"], areas=["M", "M"])
    play(g, "play S")
    assert [m for m in g.legal_strings() if m.startswith("attack")] == ["attack S"]
    refused(g, "attack M", "Military", "R15")
    refused(g, "attack C", "Culture", "R15")


# -- R16 Religion ----------------------------------------------------------------------


def test_r16_base_hand_size_three() -> None:
    """R16/R13: without Religion thresholds the hand size is 3."""
    g = forced(2, hands=["M", "M"], areas=["RR", ""], deck_top="SSSSSS")
    play(g, "play M", "end")
    assert hands(g)[0] == "SSS"


def test_r16_holy_book_hand_size_five() -> None:
    """R16/R13: Holy Book (level 1 Religion) makes the phase-3 hand size 5."""
    g = forced(2, hands=["M", "M"], areas=["RRR", ""], deck_top="SSSSSS")
    play(g, "play M", "end")
    assert hands(g)[0] == "SSSSS"
    assert g.deck_size + 5 + 1 == 95 - 3 - 1


def test_r16_divine_right_hand_size_seven() -> None:
    """R16/R13: Divine Right (level 2 Religion) makes the hand size 7."""
    g = forced(2, hands=["M", "M"], areas=["RRRRR", ""], deck_top="SSSSSSSS")
    play(g, "play M", "end")
    assert hands(g)[0] == "SSSSSSS"


def test_r16_hand_size_counted_at_phase_3() -> None:
    """R16 Ruling: the Religion count at phase 3 decides; an Attack on it lowers it."""
    g = forced(2, hands=["M", "R"], areas=["RRR", "R"], deck_top="SSSSSS")
    play(g, "play M", "attack R")
    assert areas(g) == ["RR", ""]
    play(g, "end")
    assert hands(g)[0] == "SSS"
    # and playing the third Religion card reaches Holy Book at phase 3 this very turn
    g2 = forced(2, hands=["R", "M"], areas=["RR", ""], deck_top="SSSSSS")
    play(g2, "play R", "end")
    assert hands(g2)[0] == "SSSSS"


def test_r16_over_the_hand_size_no_discard() -> None:
    """R16/R13: holding more than the hand size, nothing is drawn or discarded."""
    g = forced(2, hands=["MMSSSCC", "M"], areas=["RRR", ""])
    size = g.deck_size
    play(g, "play M", "end")
    assert hands(g)[0] == "MSSSCC"
    assert g.deck_size == size and pile(g) == ""


def test_r16_inquisition_exchanges_hands() -> None:
    """R16: take the target's hand, give back as many cards of your choice."""
    g = forced(3, hands=["MMR", "SSC", "UU"], areas=["R", "", ""])
    play(g, "play R")
    assert hands(g)[0] == "MM"
    legal(g, "inquisition 1 give MMC", "inquisition 1 give SSC", "inquisition 2 give MM")
    refused(g, "inquisition 1 give MC", "as many", "R16")
    refused(g, "inquisition 1 give UUU", "R16")
    play(g, "inquisition 1 give MMS")
    assert hands(g) == ["SC", "MMS", "UU"]
    assert areas(g)[0] == "R"  # one Religion card was spent
    assert pile(g) == "R"
    # the inquisitor learned the hand, the target learned what it got
    assert g.learned[0][-1][0] == "inquisition_saw" and g.learned[0][-1][3] == "SSC"
    assert g.learned[1][-1][0] == "inquisition_got" and g.learned[1][-1][4] == "MMS"
    assert g.learned[2] == []


def test_r16_inquisition_of_an_empty_hand() -> None:
    """R16: 'inquisition N' when seat N holds no card: the Religion card is spent."""
    g = forced(2, hands=["MR", ""], areas=["R", "C"])
    play(g, "play M")
    legal(g, "inquisition 1")
    refused(g, "inquisition 1 give M", "as many", "R16")
    play(g, "inquisition 1")
    assert hands(g) == ["R", ""]
    assert areas(g)[0] == "M"
    assert pile(g) == "R"


def test_r16_inquisition_targets_another_player() -> None:
    """R16: the target is another player, never oneself."""
    g = forced(2, hands=["MR", "SS"], areas=["R", ""])
    play(g, "play M")
    refused(g, "inquisition 0 give R", "another")


def test_r16_inquisition_choices_do_not_reveal_the_hand() -> None:
    """R16/R25: the options fold the give-back into 'inquisition N give ?'."""
    g = forced(2, hands=["MR", "SSC"], areas=["R", ""])
    play(g, "play M")
    opts = seat_options(g)
    assert "inquisition 1 give ?" in opts
    assert not any(o.startswith("inquisition 1 give ") and "?" not in o for o in opts)
    reveal, full = expand(g, "inquisition 1 give ?")
    assert reveal == "SSC"
    assert "inquisition 1 give RSC" in full
    assert all(len(f.split()[-1]) == 3 for f in full)


# -- R17 Economy ------------------------------------------------------------------------


def test_r17_development_discard_then_play() -> None:
    """R17: Development discards 1 area card (any domain), then plays 1 hand card."""
    g = forced(2, hands=["SMR", "C"], areas=["EEE", ""])
    play(g, "play S")
    legal(g, "development discard S play M", "development discard E play R")
    play(g, "development discard S play R")
    assert areas(g)[0] == "REEE"
    assert hands(g)[0] == "M" and pile(g) == "S"


def test_r17_development_play_mandatory_as_far_as_hand_allows() -> None:
    """R17 Ruling: with an empty hand the play part is left out ('development discard M')."""
    g = forced(2, hands=["M", "C"], areas=["EEE", ""])
    play(g, "play M")
    devs = [m for m in g.legal_strings() if m.startswith("development")]
    assert set(devs) == {"development discard M", "development discard E"}
    play(g, "development discard M")
    assert areas(g)[0] == "EEE" and pile(g) == "M"
    # with a card in hand the play is mandatory
    g2 = forced(2, hands=["MR", "C"], areas=["EEE", ""])
    play(g2, "play M")
    refused(g2, "development discard M", "R17")
    legal(g2, "development discard M play R")


def test_r17_development_play_skips_embargoed_domains() -> None:
    """R17: Embargo forbids Development's play in that domain; the play is then left out."""
    g = forced(
        2,
        hands=["RM", "C"],
        areas=["EEEM", "E"],
        markers=[(0, "M", "embargo", 1)],
    )
    assert g.legal_strings() == ["play R"]
    play(g, "play R")
    refused(g, "development discard E play M", "Embargo", "R17")
    legal(g, "development discard E")
    play(g, "development discard R")
    assert hands(g)[0] == "M"
    assert areas(g)[0] == "MEEE"


def test_r17_monopoly_discards_two_plays_two() -> None:
    """R17: Monopoly discards 2 area cards, then plays 2 hand cards."""
    g = forced(2, hands=["SRRC", "M"], areas=["EEEEE", ""])
    play(g, "play S")
    legal(g, "monopoly discard ES play RC", "monopoly discard EE play RR")
    refused(g, "monopoly discard EE play R", "as many", "R17")
    play(g, "monopoly discard ES play RC")
    assert areas(g)[0] == "REEEEC"
    assert hands(g)[0] == "R"
    assert pile(g) == "ES"


def test_r17_monopoly_plays_one_when_the_hand_allows_one() -> None:
    """R17 Ruling: Monopoly with one card in hand plays that one; with none, none."""
    g = forced(2, hands=["SR", "M"], areas=["EEEEE", ""])
    play(g, "play S")
    monos = [m for m in g.legal_strings() if m.startswith("monopoly")]
    assert "monopoly discard EE play R" in monos
    assert all(m.endswith("play R") for m in monos)
    g2 = forced(2, hands=["S", "M"], areas=["EEEEE", ""])
    play(g2, "play S")
    legal(g2, "monopoly discard EE", "monopoly discard ES")
    refused(g2, "monopoly discard E", "2 cards", "R17")


def test_r17_development_refused_when_the_area_lacks_the_card() -> None:
    """R17 Ruling: the discards are mandatory in full: a missing card is refused."""
    g = forced(2, hands=["MR", "C"], areas=["EEE", ""])
    play(g, "play M")
    refused(g, "development discard S play R", "Science")


def test_r17_copied_monopoly_refused_when_the_area_lacks_two_cards() -> None:
    """R17 Ruling/R19: Monopoly copied onto an area of one card cannot be used."""
    g2 = forced(2, hands=["CR", "M"], areas=["", "EEEEE"])
    play(g2, "play C")
    assert not any(m.startswith("inspiration 1 monopoly") for m in g2.legal_strings())
    legal(g2, "inspiration 1 development discard C play R")
    refused(g2, "inspiration 1 monopoly discard CE play R", "Economy")


def test_r17_embargo_only_on_a_domain_the_target_has() -> None:
    """R17: Embargo lies on a domain of another player in which they have a card."""
    g = forced(2, hands=["M", "C"], areas=["E", "RS"])
    play(g, "play M")
    assert sorted(m for m in g.legal_strings() if m.startswith("embargo")) == [
        "embargo 1 R",
        "embargo 1 S",
    ]
    refused(g, "embargo 1 C", "no Culture", "R17")
    refused(g, "embargo 0 M", "another")
    play(g, "embargo 1 S")
    assert areas(g) == ["M", "RS"]
    assert g.markers == [(1, 3, "embargo", 0)]
    assert pile(g) == ""  # not in the pile until the end of seat 1's turn


def test_r17_embargo_blocks_experiment_play() -> None:
    """R17: under Embargo, Experiment may not play a card of that domain."""
    g = forced(
        2,
        hands=["RC", "M"],
        areas=["SSSC", "E"],
        markers=[(0, "C", "embargo", 1)],
    )
    play(g, "play R")
    exps = [m for m in g.legal_strings() if m.startswith("experiment")]
    assert "experiment return C" in exps  # the returned card may not be played back
    assert "experiment return C play C" not in exps
    assert "experiment return S play S" in exps
    refused(g, "experiment return S play C", "Embargo")


# -- R18 Science ----------------------------------------------------------------------


def test_r18_experiment_return_then_play_same_card() -> None:
    """R18: Experiment returns 1 area card and plays 1 (it may be the same card)."""
    g = forced(2, hands=["R", "M"], areas=["SSSM", ""])
    play(g, "play R")
    assert hands(g)[0] == ""
    legal(g, "experiment return M play M", "experiment return R play R")
    refused(g, "experiment return M", "R18")
    play(g, "experiment return R play R")
    assert areas(g)[0] == "MRSSS" and hands(g)[0] == ""


def test_r18_experiment_changes_the_card_in_play() -> None:
    """R18: Experiment may return one card and play another from the hand."""
    g = forced(2, hands=["RC", "M"], areas=["SSSM", ""])
    play(g, "play R", "experiment return M play C")
    assert areas(g)[0] == "RSSSC" and hands(g)[0] == "M"


def test_r18_research_returns_two_plays_two() -> None:
    """R18: Research returns 2 and plays 2 (mandatory as far as the hand allows)."""
    g = forced(2, hands=["RC", "M"], areas=["SSSSSM", ""])
    play(g, "play R")
    legal(
        g, "research return MR play MR", "research return MS play SC", "research return SS play SS"
    )
    refused(g, "research return MR play M", "as many", "R18")
    play(g, "research return MS play SC")
    assert hands(g)[0] == "M"
    assert areas(g)[0] == "RSSSSSC"
    # with an empty hand the returned cards are played back (mandatory)
    g2 = forced(2, hands=["R", "M"], areas=["SSSSSM", ""])
    play(g2, "play R")
    assert [m for m in g2.legal_strings() if m.startswith("research return MR")] == [
        "research return MR play MR"
    ]


def test_r18_research_refused_when_the_area_lacks_cards() -> None:
    """R18/R17 Ruling: returns are mandatory in full; absent cards are refused."""
    g = forced(2, hands=["R", "M"], areas=["SSSSS", ""])
    play(g, "play R")
    refused(g, "research return MS play MS", "Military")


def test_r18_discovery_draws_five_discards_five() -> None:
    """R18: draw the top 5, then discard 5 of your choice from the hand."""
    g = forced(2, hands=["MR", "C"], areas=["S", ""], deck_top="RRECU")
    play(g, "play M")
    size = g.deck_size
    legal(g, "discovery discard RRRCU", "discovery discard RRECU")
    refused(g, "discovery discard RRRC", "5", "R18")
    refused(g, "discovery discard MRRCU", "R18")
    play(g, "discovery discard RRECU")
    assert hands(g)[0] == "R"
    assert g.deck_size == size - 5
    assert pile(g) == "RRESCU"
    assert areas(g)[0] == "M"


def test_r18_discovery_with_fewer_than_five_cards() -> None:
    """R18/R23: with 3 cards left, draw 3 and discard 3; the last round begins."""
    g = forced(2, hands=["MR", "C"], areas=["S", ""], deck="EEC", discard=None)
    play(g, "play M")
    assert not g.last_round
    legal(g, "discovery discard EEC", "discovery discard REE")
    refused(g, "discovery discard REEC", "3 cards", "R18")
    play(g, "discovery discard REE")
    assert hands(g)[0] == "C" and g.deck_size == 0
    assert g.last_round


def test_r18_discovery_with_an_empty_deck() -> None:
    """R18: with an empty deck Discovery is written 'discovery': only the Science card goes."""
    g = forced(2, hands=["MR", "C"], areas=["S", ""], deck="", discard=None, last_round=True)
    play(g, "play M")
    assert [m for m in g.legal_strings() if m.startswith("discovery")] == ["discovery"]
    before = pile(g)
    play(g, "discovery")
    assert hands(g)[0] == "R" and areas(g)[0] == "M"
    from civcards.carta.cards import str_to_counts

    assert str_to_counts(pile(g))[3] == str_to_counts(before)[3] + 1


def test_r18_discovery_options_do_not_reveal_the_deck() -> None:
    """R18/R25: Discovery is one option 'discovery discard ?' until chosen."""
    g = forced(2, hands=["MR", "C"], areas=["S", ""], deck_top="RRECU")
    play(g, "play M")
    opts = seat_options(g)
    assert "discovery discard ?" in opts
    assert not any(o.startswith("discovery discard ") and o != "discovery discard ?" for o in opts)
    reveal, full = expand(g, "discovery discard ?")
    assert reveal == "RRECU"
    assert "discovery discard RRECU" in full
    # the observation of the player shows the hand, not the top of the deck
    assert observe(g, 0).hand == "R"


def test_r18_discovery_without_drawing_the_last_card_keeps_the_game_going() -> None:
    """R18/R23: Discovery that leaves cards in the deck does not start the last round."""
    g = scripted(2, ["SMM", "CCR"], "EEEEM")
    play(g, "play S", "discovery discard MMMEE")
    assert not g.last_round
    assert hands(g)[0] == "EE"


def test_r18_experiment_refused_when_the_area_lacks_the_card() -> None:
    """R18/R17 Ruling: the return is mandatory in full: a card not in play is refused."""
    g = forced(2, hands=["R", "M"], areas=["SSS", ""])
    play(g, "play R")
    refused(g, "experiment return U play U", "Utopia")
    refused(g, "experiment return S", "R18")


def test_r18_copied_research_refused_on_a_one_card_area() -> None:
    """R18/R19: Research copied onto a play area of one card cannot return 2."""
    g = forced(2, hands=["CR", "M"], areas=["", "SSSSS"])
    play(g, "play C")
    assert not any(m.startswith("inspiration 1 research") for m in g.legal_strings())
    legal(g, "inspiration 1 experiment return C play C", "inspiration 1 experiment return C play R")
    refused(g, "inspiration 1 research return CR play CR", "Religion", "play area")
