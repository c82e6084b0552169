"""Rules R1-R8: components and set-up (deck, coin, player counts, deals)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from civcards.carta import ConfigError, new_game, observe, parse_record, replay
from civcards.carta.cards import ERA_COMPOSITION, LETTERS, THRESHOLDS, era_sizes
from civcards.carta.game import validate_deck
from civcards.carta.notation import position_json
from tests.carta.helpers import (
    BOX,
    areas,
    card_totals,
    forced,
    hands,
    make_deck,
    play,
    refused,
    scripted,
)
from tests.shared import EXAMPLES


def _eras(deck: str, players: int) -> list[Counter[str]]:
    out = []
    pos = 0
    for size in era_sizes(players):
        out.append(Counter(deck[pos : pos + size]))
        pos += size
    return out


# -- R1 the deck --------------------------------------------------------------


def test_r1_box_has_104_cards_by_domain_and_era() -> None:
    """R1: 104 cards; M 20, R 16, E 16, S 20, C 16, U 16; eras 28/32/44."""
    assert BOX == (20, 16, 16, 20, 16, 16)
    assert sum(BOX) == 104
    assert [sum(e) for e in ERA_COMPOSITION] == [28, 32, 44]
    g = new_game(4, seed=11)
    eras = _eras(g.deck_letters, 4)
    for era, want in zip(eras, ERA_COMPOSITION, strict=True):
        assert [era[ch] for ch in LETTERS] == list(want)


def test_r1_cards_are_conserved_through_a_scripted_game() -> None:
    """R1: every card stays in exactly one zone while effects move them around."""
    g = scripted(2, ["MMM", "EEC"], "MRSMRS", fill="MRESCU")
    assert card_totals(g) == list(BOX)
    play(g, "play M", "end", "play E", "embargo 0 M", "end")
    assert card_totals(g) == list(BOX)
    play(g, "end", "play E", "end", "play M", "attack M")
    assert card_totals(g) == list(BOX)
    assert areas(g) == ["", "E"]


# -- R2 the Culture coin --------------------------------------------------------


def test_r2_coin_marks_the_copied_effect_and_nothing_else() -> None:
    """R2/R19: Inspiration places the coin at (holder, seat, domain); no other effect."""
    g = forced(
        2,
        hands=["MR", "EE"],
        areas=["C", "MMM"],
        discard="S",
    )
    play(g, "play M")
    before = areas(g)
    play(g, "inspiration 1 assassination R")
    assert g.coin == (0, 1, 0)
    assert position_json(g)["coin"] == {"holder": 0, "seat": 1, "domain": "M"}
    # the coin itself moved no card of any play area
    assert areas(g) == before
    assert hands(g) == ["", "EE"]


# -- R3 player counts -----------------------------------------------------------


@pytest.mark.parametrize("players", [0, 1, 5, 6])
def test_r3_only_two_to_four_players(players: int) -> None:
    """R3: 2, 3 or 4 players; anything else is a configuration error citing R3."""
    with pytest.raises(ConfigError, match="R3"):
        new_game(players, seed=1)


@pytest.mark.parametrize("players", [2, 3])
def test_r3_team_game_needs_four(players: int) -> None:
    """R3/R24: the team game needs exactly 4 players."""
    with pytest.raises(ConfigError, match="R24"):
        new_game(players, seed=1, teams=True)
    assert new_game(4, seed=1, teams=True).teams


# -- R4 the era deck ------------------------------------------------------------


@pytest.mark.parametrize(("players", "size"), [(2, 95), (3, 95), (4, 104)])
def test_r4_deck_size_and_era_counts(players: int, size: int) -> None:
    """R4: with 2-3 players 3 cards leave each era (95 cards), with 4 none (104)."""
    for seed in range(20):
        g = new_game(players, seed=seed, deal="basic")
        deck = g.deck_letters
        assert len(deck) == size
        removed = 0 if players == 4 else 3
        for era, want in zip(_eras(deck, players), ERA_COMPOSITION, strict=True):
            assert all(era[ch] <= want[d] for d, ch in enumerate(LETTERS))
            assert sum(want) - sum(era.values()) == removed
        assert validate_deck(deck, players) is None
        # the deal took 3 cards per player from the top
        assert g.deck_size == size - 3 * players


def test_r4_eras_stacked_i_on_ii_on_iii() -> None:
    """R4: era I on top, era III (all the Utopia cards) at the bottom."""
    g = new_game(4, seed=5)
    deck = g.deck_letters
    assert "U" not in deck[:60]
    assert deck[60:].count("U") == 16
    assert deck[:28].count("R") == 8 and deck[28:60].count("R") == 8


def test_r4_seeded_shuffle_is_deterministic_and_varies() -> None:
    """R4/R5: the same seed gives the same deck and start; seeds differ."""
    a = new_game(3, seed="x1")
    b = new_game(3, seed="x1")
    assert (a.deck_letters, a.start) == (b.deck_letters, b.start)
    decks = {new_game(3, seed=s).deck_letters for s in range(10)}
    assert len(decks) == 10
    # the removed cards differ between seeds too (different per-era counts)
    profiles = {tuple(sorted(_eras(d, 3)[2].items())) for d in decks}
    assert len(profiles) > 1


@pytest.mark.parametrize(
    ("players", "deck", "words"),
    [
        (4, "M" * 104, "era I"),
        (2, make_deck(4), "95"),
        (4, make_deck(2), "104"),
        (2, "U" + make_deck(2)[1:], "era I"),
        (2, make_deck(2)[:-1] + "X", "letter"),
    ],
)
def test_r4_invalid_decks_are_refused_with_a_sentence(players: int, deck: str, words: str) -> None:
    """R4/NOTATION: a deck that breaks the era composition is a configuration error."""
    with pytest.raises(ConfigError) as info:
        new_game(players, deck=deck, start=0)
    assert words in str(info.value)


def test_r4_deck_size_and_era_are_public_order_is_not() -> None:
    """R4/R25: observations hold the deck size and the top card's era, not the order."""
    g = new_game(2, deck=make_deck(2), start=0)
    obs = observe(g, 1)
    assert obs.deck_size == 95 - 6
    assert obs.era == 0
    assert "deck_letters" not in json.dumps(obs.to_dict())
    assert g.deck_letters[6:40] not in json.dumps(obs.to_dict())


# -- R5 start player ------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r5_start_player_random_and_turns_clockwise(players: int) -> None:
    """R5: the start player is drawn at random (seeded); turns go clockwise from them."""
    starts = {new_game(players, seed=s).start for s in range(60)}
    assert starts == set(range(players))
    g = new_game(players, seed=3)
    seen = [g.to_move]
    for _ in range(players * 2):
        g.apply(g.legal_moves()[0])  # play a card
        g.apply("end")
        seen.append(g.to_move)
    assert seen == [(g.start + i) % players for i in range(players * 2 + 1)]


def test_r5_explicit_start_is_validated() -> None:
    """R5: the start seat must exist."""
    with pytest.raises(ConfigError):
        new_game(3, deck=make_deck(3), start=3)
    assert new_game(3, deck=make_deck(3), start=2).to_move == 2


# -- R6 thresholds --------------------------------------------------------------


def test_r6_threshold_table() -> None:
    """R6: (level 1, level 2, hegemony) = 3/5/8 with 2, 3/5/7 with 3, 2/4/7 with 4."""
    assert THRESHOLDS == {2: (3, 5, 8), 3: (3, 5, 7), 4: (2, 4, 7)}
    for n, t in THRESHOLDS.items():
        assert new_game(n, seed=0).thresholds == t


def test_r6_two_military_cards_are_level_1_only_with_four_players() -> None:
    """R6: 2 cards reach level 1 with 4 players, not with 3; 4 cards reach level 2 with 4."""
    g4 = forced(4, hands=["RR", "", "", ""], areas=["MM", "", "", ""], active=0)
    g4.apply("play R")
    assert "assassination R" in g4.legal_strings()
    assert not any(m.startswith("purge") for m in g4.legal_strings())
    g3 = forced(3, hands=["RR", "", ""], areas=["MM", "", ""], active=0)
    g3.apply("play R")
    refused(g3, "assassination R", "R6", "R11")
    g4b = forced(4, hands=["RRR", "", "", ""], areas=["MMMM", "", "", ""], active=0)
    g4b.apply("play R")
    assert "purge RR" in g4b.legal_strings()
    g3b = forced(3, hands=["RRR", "", ""], areas=["MMMM", "", ""], active=0)
    g3b.apply("play R")
    assert "assassination R" in g3b.legal_strings()
    refused(g3b, "purge RR", "5")


def test_r6_hegemony_threshold_is_8_with_two_players() -> None:
    """R6/R21: 7 cards of a domain win with 3 players, not with 2."""
    g2 = forced(2, hands=["M", "R"], areas=["MMMMMM", ""])
    play(g2, "play M", "end")
    assert g2.phase != "over"
    g3 = forced(3, hands=["M", "R", "R"], areas=["MMMMMM", "", ""])
    play(g3, "play M", "end")
    assert g3.phase == "over" and g3.winners == [0] and g3.victory == "hegemony"


# -- R7 basic deal --------------------------------------------------------------


@pytest.mark.parametrize("start", [0, 1, 2, 3])
def test_r7_basic_deal_order(start: int) -> None:
    """R7/NOTATION: the start player takes the first 3 cards, then clockwise."""
    top = "MMM" + "RRR" + "EES" + "SSC"
    g = new_game(4, deck=make_deck(4, top), start=start)
    want = ["MMM", "RRR", "EES", "CSS"]
    got = hands(g)
    for i in range(4):
        seat = (start + i) % 4
        assert sorted(got[seat]) == sorted(want[i])
    assert g.deck_size == 104 - 12
    assert areas(g) == ["", "", "", ""]
    assert g.phase == "play" and g.to_move == start


# -- R8 draft -------------------------------------------------------------------


def _example(name: str) -> tuple[dict[str, object], dict[str, object]]:
    rec = json.loads((EXAMPLES / f"{name}.json").read_text())
    exp = json.loads((EXAMPLES / f"{name}.expected.json").read_text())
    return rec, exp


def test_r8_draft_example_from_notation_examples() -> None:
    """R8: the draft-3p example ends with 3 cards in hand and 1 in play each."""
    rec, exp = _example("draft-3p")
    r = replay(parse_record(json.dumps(rec)))
    assert r.ok
    pos = position_json(r.state, legal=True)
    for key in ("hands", "areas", "to_move", "phase", "deck", "legal", "discard"):
        assert pos[key] == exp[key], key
    assert all(len(h) == 3 for h in pos["hands"]) and all(len(a) == 1 for a in pos["areas"])


def test_r8_draft_deals_four_in_order_and_passes_left() -> None:
    """R8: each player draws 4 (start first); after keeping, the other 3 go to the left."""
    # start 2: seat 2 draws RMCR, seat 0 ECCR, seat 1 CRSM (the draft-3p example's deck)
    rec, _ = _example("draft-3p")
    g = new_game(3, deal="draft", deck=str(rec["deck"]), start=2)
    from civcards.carta.cards import counts_to_str

    assert [counts_to_str(h) for h in g.draft_hold] == ["RECC", "MRSC", "MRRC"]
    assert g.phase == "draft" and g.to_move == 2
    refused(g, "play R", "draft")
    refused(g, "take R", "R8")
    play(g, "keep R")  # seat 2
    assert g.to_move == 0
    play(g, "keep R", "keep S")
    # passed left: seat s now holds what seat s-1 kept from
    assert [counts_to_str(h) for h in g.draft_hold] == ["MRC", "ECC", "MRC"]
    assert g.learned[0][-1] == ("draft_received", 1, 2, "MRC")
    assert g.learned[1][-1] == ("draft_received", 1, 0, "ECC")
    play(g, "keep M", "keep R", "keep E")
    assert [counts_to_str(h) for h in g.draft_hold] == ["RC", "MC", "CC"]
    play(g, "keep C", "keep C", "keep M")
    # step 3: the other card of each pair goes to the centre, face up
    assert counts_to_str(g.draft_centre) == "RCC"
    assert observe(g, 1).draft_centre == "RCC"


@pytest.mark.parametrize("start", [0, 1, 2, 3])
def test_r8_step4_counter_clockwise_from_right_of_start(start: int) -> None:
    """R8.4 (Ruling): right of the start player first, counter-clockwise; start last."""
    g = new_game(4, deal="draft", seed=100 + start, start=start)
    for _ in range(12):
        g.apply(g.legal_moves()[0])
    order = []
    while g.phase == "draft":
        order.append(g.to_move)
        g.apply(g.legal_moves()[0])
    assert order == [(start - 1) % 4, (start - 2) % 4, (start - 3) % 4, start]
    assert g.phase == "play" and g.to_move == start
    assert [sum(h) for h in g.hands] == [3, 3, 3, 3]
    assert [sum(a) for a in g.areas] == [1, 1, 1, 1]
    assert g.deck_size == 104 - 16


def test_r8_draft_keeps_are_hidden_from_other_seats() -> None:
    """R8/R25: a kept card is known only to its owner; passed cards only to the receiver."""
    rec, _ = _example("draft-3p")
    g = new_game(3, deal="draft", deck=str(rec["deck"]), start=2)
    play(g, "keep R", "keep R", "keep S")
    o0 = observe(g, 0)
    assert o0.history == ["keep ?", "keep R", "keep ?"]
    assert o0.hand == "R"
    assert o0.draft_packet == "MRC"
    o1 = observe(g, 1)
    assert o1.history == ["keep ?", "keep ?", "keep S"]
    assert o1.hand == "S" and o1.draft_packet == "ECC"
    assert observe(g, None).history == ["keep ?", "keep ?", "keep ?"]
