"""Rules R19 (Culture: Inspiration and the coin) and R20 (Utopia), with R16's ruling.

Positions are forced with :func:`tests.carta.helpers.forced` (card conservation
kept and checked); thresholds with 2 players are 3/5/8, with 3 players 3/5/7.
"""

from __future__ import annotations

from civcards.carta.notation import position_json
from tests.carta.helpers import areas, forced, hands, legal, pile, play, refused

# -- R19 Inspiration --------------------------------------------------------------------


def test_r19_one_culture_against_none_is_enough() -> None:
    """R19: no minimum: 1 Culture card against 0 allows Inspiration."""
    g = forced(2, hands=["CR", "S"], areas=["", "MMM"])
    play(g, "play C")
    legal(g, "inspiration 1 assassination R")
    play(g, "inspiration 1 assassination R")
    assert hands(g)[0] == "" and pile(g) == "R"
    assert g.coin == (0, 1, 0)


def test_r19_tie_on_culture_forbids_inspiration() -> None:
    """R19: another player with as many Culture cards: no Inspiration."""
    g = forced(2, hands=["MR", "S"], areas=["C", "CMMM"])
    play(g, "play M")
    assert not any(m.startswith("inspiration") for m in g.legal_strings())
    refused(g, "inspiration 1 assassination R", "strictly more", "R19")


def test_r19_tie_with_a_third_player_forbids_inspiration() -> None:
    """R19: strictly more than *every* other player."""
    g = forced(3, hands=["CR", "S", "S"], areas=["C", "MMM", "CC"])
    play(g, "play C")
    assert not any(m.startswith("inspiration") for m in g.legal_strings())


def test_r19_coin_returns_when_another_player_ties_later() -> None:
    """R19: the coin returns as soon as another player has as many Culture cards."""
    g = forced(2, hands=["CR", "CS"], areas=["", "MMM"])
    play(g, "play C", "inspiration 1 assassination R")
    assert position_json(g)["coin"] == {"holder": 0, "seat": 1, "domain": "M"}
    play(g, "end")
    assert g.coin == (0, 1, 0)  # still there during the other player's turn
    play(g, "play C")  # seat 1 ties on Culture
    assert g.coin is None
    assert position_json(g)["coin"] is None


def test_r19_coin_returns_at_the_holders_next_turn() -> None:
    """R19: without a tie, the coin stays until the holder's next turn."""
    g = forced(2, hands=["CR", "SS"], areas=["", "MMM"])
    play(g, "play C", "inspiration 1 assassination R", "end")
    play(g, "play S")
    assert g.coin == (0, 1, 0)
    play(g, "end")  # seat 0's next turn begins
    assert g.to_move == 0
    assert g.coin is None


def test_r19_copy_level_two_while_owning_level_one() -> None:
    """R19: level 2 of another player may be copied by one who has only level 1."""
    g = forced(2, hands=["CRSS", "U"], areas=["MMM", "MMMMM"])
    play(g, "play C")
    legal(g, "inspiration 1 purge RS", "assassination R")
    refused(g, "inspiration 1 assassination R", "already", "R19")
    play(g, "inspiration 1 purge RS")
    assert hands(g)[0] == "S" and pile(g) == "RS"
    assert g.coin == (0, 1, 0)


def test_r19_copying_a_level_you_already_have_is_refused() -> None:
    """R19: no copy of a domain and level the player can already use (level 2 covers 1)."""
    g = forced(2, hands=["CRS", "U"], areas=["MMMMM", "MMMMM"])
    play(g, "play C")
    assert not any(m.startswith("inspiration") for m in g.legal_strings())
    refused(g, "inspiration 1 purge RS", "already", "R19")
    refused(g, "inspiration 1 assassination R", "already", "R19")


def test_r19_copy_needs_the_other_player_to_meet_the_threshold() -> None:
    """R19/R11: only an effect the other player could use now by their own area."""
    g = forced(2, hands=["CRS", "U"], areas=["", "MM"])
    play(g, "play C")
    refused(g, "inspiration 1 assassination R", "3", "R19")


def test_r19_copy_counts_as_the_domains_permanent_effect() -> None:
    """R19/R10: after copying Purge, the player's own Assassination is used up."""
    g = forced(2, hands=["CRSS", "U"], areas=["MMM", "MMMMM"])
    play(g, "play C", "inspiration 1 purge RS")
    assert hands(g)[0] == "S"
    refused(g, "assassination S", "R10")


def test_r19_own_permanent_blocks_copying_that_domain() -> None:
    """R19/R10: after the player's own Assassination, Purge cannot be copied."""
    g = forced(2, hands=["CRSS", "U"], areas=["MMM", "MMMMM"])
    play(g, "play C", "assassination S")
    refused(g, "inspiration 1 purge RS", "R10")
    assert not any(m.startswith("inspiration 1 purge") for m in g.legal_strings())


def test_r19_at_most_one_copy_per_turn() -> None:
    """R19: one Inspiration per turn, even of another domain."""
    g = forced(2, hands=["CRS", "E"], areas=["", "MMMUUU"], discard="E")
    play(g, "play C", "inspiration 1 assassination R")
    refused(g, "inspiration 1 oligarchy take E", "already", "R19")


def test_r19_inspiration_copies_into_own_area() -> None:
    """R19: the copied effect acts on the copier's own cards (Experiment here)."""
    g = forced(2, hands=["CR", "U"], areas=["", "SSS"])
    play(g, "play C", "inspiration 1 experiment return C play R")
    assert areas(g) == ["R", "SSS"]
    assert hands(g)[0] == "C"
    # the Culture card went back to the hand: 0 against 0, the coin returns at once
    assert g.coin is None


def test_r19_holybook_copy_raises_phase3_hand_size() -> None:
    """R19/R16 Ruling: copied Holy Book gives hand size 5 at phase 3 while the coin is kept."""
    g = forced(2, hands=["CM", "S"], areas=["", "RRR"], deck_top="SSSSSSSS")
    play(g, "play C", "inspiration 1 holybook")
    assert g.coin == (0, 1, 1)
    assert hands(g)[0] == "M"  # Holy Book acts only at phase 3
    play(g, "end")
    assert hands(g)[0] == "MSSSS"


def test_r19_divineright_copy_with_own_holy_book() -> None:
    """R19/R16: a player with Holy Book may copy Divine Right: hand size 7."""
    g = forced(2, hands=["C", "S"], areas=["RRR", "RRRRR"], deck_top="SSSSSSSS")
    play(g, "play C")
    refused(g, "inspiration 1 holybook", "already", "R19")
    play(g, "inspiration 1 divineright")
    play(g, "end")
    assert hands(g)[0] == "SSSSSSS"


def test_r19_holybook_copy_lost_with_the_coin() -> None:
    """R16 Ruling: losing the coin before phase 3 loses the copied hand size."""
    g = forced(2, hands=["C", "S"], areas=["M", "RRR"], deck_top="SSSSSSSS")
    play(g, "play C", "inspiration 1 holybook")
    assert g.coin is not None
    play(g, "attack C")  # the copier's only Culture card goes: 0 against 0
    assert g.coin is None
    play(g, "end")
    assert hands(g)[0] == "SSS"


def test_r19_holybook_copy_lasts_one_turn() -> None:
    """R16 Ruling: the copied hand size counts this turn only (the coin returns next turn)."""
    g = forced(2, hands=["CM", "CC"], areas=["", "RRR"], deck_top="SSSSSSSSSS")
    play(g, "play C", "inspiration 1 holybook", "end")
    assert len(hands(g)[0]) == 5
    play(g, "play C", "end")  # seat 1 ties on Culture: the coin returns
    assert g.coin is None
    play(g, "play S", "end")
    assert len(hands(g)[0]) == 4  # 5 - 1 played, no Holy Book: nothing drawn


# -- R20 Utopia -------------------------------------------------------------------------


def test_r20_oligarchy_refused_on_empty_pile() -> None:
    """R20: Oligarchy cannot be used on an empty pile."""
    g = forced(2, hands=["M", "R"], areas=["UUU", ""])
    play(g, "play M")
    assert pile(g) == ""
    assert not any(m.startswith("oligarchy") for m in g.legal_strings())
    refused(g, "oligarchy take M", "empty", "R20")


def test_r20_oligarchy_takes_one_card_of_choice() -> None:
    """R20: Oligarchy takes 1 card of the player's choice from the pile."""
    g = forced(2, hands=["M", "R"], areas=["UUU", ""], discard="RSS")
    play(g, "play M")
    assert sorted(m for m in g.legal_strings() if m.startswith("oligarchy")) == [
        "oligarchy take R",
        "oligarchy take S",
    ]
    refused(g, "oligarchy take C", "no Culture")
    play(g, "oligarchy take S")
    assert hands(g)[0] == "S" and pile(g) == "RS"


def test_r20_republic_takes_two() -> None:
    """R20: Republic takes 2 cards of choice; 1 is refused while the pile holds 2+."""
    g = forced(2, hands=["M", "R"], areas=["UUUUU", ""], discard="RSS")
    play(g, "play M")
    legal(g, "republic take RS", "republic take SS", "oligarchy take R")
    refused(g, "republic take S", "2 cards", "R20")
    play(g, "republic take SS")
    assert hands(g)[0] == "SS" and pile(g) == "R"


def test_r20_republic_take_one_when_pile_holds_one() -> None:
    """R20: 'republic take X' when the pile holds a single card."""
    g = forced(2, hands=["M", "R"], areas=["UUUUU", ""], discard="C")
    play(g, "play M")
    assert [m for m in g.legal_strings() if m.startswith("republic")] == ["republic take C"]
    refused(g, "republic take CC", "1 Culture card", "R20")
    play(g, "republic take C")
    assert hands(g)[0] == "C" and pile(g) == ""


def test_r20_republic_refused_on_empty_pile() -> None:
    """R20: Republic cannot be used on an empty pile either."""
    g = forced(2, hands=["M", "R"], areas=["UUUUU", ""])
    play(g, "play M")
    refused(g, "republic take MR", "empty", "R20")


def test_r20_democracy_lies_on_a_domain_the_target_has_and_stays() -> None:
    """R20: Democracy goes face down on another player's domain and stays to the end."""
    g = forced(2, hands=["M", "RR"], areas=["U", "S"])
    play(g, "play M")
    refused(g, "democracy 1 R", "no Religion", "R20")
    refused(g, "democracy 0 M", "another")
    play(g, "democracy 1 S", "end")
    assert g.markers == [(1, 3, "democracy", 0)]
    assert areas(g) == ["M", "S"] and pile(g) == ""
    for _ in range(3):  # several turns later it is still there
        play(g, g.legal_strings()[0], "end")
    assert g.markers == [(1, 3, "democracy", 0)]
    assert pile(g) == ""


def test_r20_democracy_raises_the_hegemony_threshold() -> None:
    """R20/R21: with one Democracy card on Military, seat 1 needs 8 Military (3 players)."""
    g = forced(3, hands=["S", "MM", "S"], areas=["U", "MMMMMM", ""], deck_top="SSSSSSSSS")
    play(g, "play S", "democracy 1 M", "end")
    play(g, "play M", "end")  # 7 Military: not enough with one Democracy
    assert g.phase != "over"
    assert areas(g)[1] == "MMMMMMM"
    play(g, "play S", "end")  # seat 2
    play(g, "play S", "end")  # seat 0
    play(g, "play M", "end")  # 8 Military
    assert g.phase == "over" and g.victory == "hegemony" and g.winners == [1]


def test_r20_democracy_stacks() -> None:
    """R20: two Democracy cards on one domain: two more cards needed (9 of 7)."""
    g = forced(
        3,
        hands=["S", "MMM", "S"],
        areas=["U", "MMMMMM", "U"],
        deck_top="SSSSSSSSSSSS",
    )
    play(g, "play S", "democracy 1 M", "end")
    play(g, "play M", "end")
    play(g, "play S", "democracy 1 M", "end")
    assert [m for m in g.markers if m[2] == "democracy"] == [
        (1, 0, "democracy", 0),
        (1, 0, "democracy", 2),
    ]
    play(g, "play S", "end")
    play(g, "play M", "end")  # 8: not enough
    assert g.phase != "over"
    play(g, "play S", "end", "play S", "end")
    play(g, "play M", "end")  # 9
    assert g.phase == "over" and g.winners == [1]


def test_r20_democracy_on_another_domain_does_not_matter() -> None:
    """R20/R21: the extra card is needed only in the domain the Democracy lies on."""
    g = forced(3, hands=["S", "M", "S"], areas=["U", "MMMMMMR", ""])
    play(g, "play S", "democracy 1 R", "end")
    play(g, "play M", "end")
    assert g.phase == "over" and g.winners == [1]
