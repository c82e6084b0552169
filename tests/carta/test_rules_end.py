"""Rules R21-R25: hegemony, majorities, the end of the deck, the team game, knowledge.

Final positions are forced with :func:`tests.carta.helpers.forced` (card
conservation kept and checked): an empty deck, the last round under way and
the last seat of the round to move, so that its ``end`` scores the game.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from civcards.carta import GameState, IllegalMoveError, new_game, observe, seat_options
from civcards.carta.cards import LETTERS, TIE_BREAK_ORDER
from tests.carta.helpers import areas, forced, hands, make_deck, pile, play, refused

# -- helpers --------------------------------------------------------------------------


def scored(players: int, seat_areas: list[str], *, teams: bool = False) -> GameState:
    """Play the last ``end`` of a game whose areas are ``seat_areas`` (forced, conserved)."""
    g = forced(
        players,
        teams=teams,
        hands=[""] * players,
        areas=seat_areas,
        deck="",
        discard=None,
        last_round=True,
        active=players - 1,
    )
    assert g.phase == "effects"
    play(g, "end")
    assert g.phase == "over"
    return g


# -- R21 hegemony ---------------------------------------------------------------------


def test_r21_hegemony_at_the_end_of_the_turn() -> None:
    """R21: 7 Military (3 players) wins at the end of the turn, after phase 3."""
    g = forced(3, hands=["M", "R", "R"], areas=["MMMMMM", "", ""])
    play(g, "play M")
    assert g.phase == "effects" and g.winners == []  # not during phase 2
    play(g, "end")
    assert g.phase == "over" and g.finished
    assert g.winners == [0] and g.victory == "hegemony"
    assert g.to_move is None and g.points is None
    assert g.legal_strings() == []
    refused(g, "play R", "over")


def test_r21_hegemony_lost_in_phase_2_does_not_count() -> None:
    """R21: the count at the end of the turn decides (own Attack lowers it)."""
    g = forced(3, hands=["M", "R", "R"], areas=["MMMMMMR", "R", ""])
    play(g, "play M", "attack R")
    assert areas(g)[0] == "MMMMMM"
    play(g, "end")
    assert g.phase != "over"


def test_r21_only_the_active_player_is_checked() -> None:
    """R21: seat 1 with 8 Military (2 players) wins at the end of its own turn only."""
    g = forced(2, hands=["RS", "RS"], areas=["", "MMMMMMMM"])
    play(g, "play R", "end")
    assert g.phase == "play" and g.to_move == 1 and g.winners == []
    play(g, "play R", "end")
    assert g.winners == [1] and g.victory == "hegemony"


def test_r21_hegemony_of_another_player_lost_before_their_turn_ends() -> None:
    """R21: a non-active player is not checked; attacked below the threshold, no win."""
    g = forced(3, hands=["S", "S", "S"], areas=["MMS", "MMMMMMM", ""])
    play(g, "play S", "attack M", "end")
    assert g.phase == "play"  # seat 1's 7 Military were never checked
    assert areas(g)[1] == "MMMMMM"
    play(g, "play S", "end")
    assert g.phase != "over"


def test_r21_hegemony_in_any_domain() -> None:
    """R21: hegemony counts in every domain, e.g. Culture with 2 players (8 cards)."""
    g = forced(2, hands=["C", "R"], areas=["CCCCCCC", "C"])
    play(g, "play C", "end")
    assert g.winners == [0] and g.victory == "hegemony"


# -- R22 majorities ---------------------------------------------------------------------


def test_r22_most_points_wins() -> None:
    """R22: one point per domain majority; most points wins, a domain without cards scores for nobody."""
    g = scored(2, ["MMRRE", "UUUS"])
    assert g.victory == "majority"
    assert g.points == [3, 2]  # M R E / U S; Culture: nobody
    assert g.winners == [0]  # more points beats more Utopia


def test_r22_domain_without_cards_scores_for_nobody() -> None:
    """R22 Ruling: a domain in which nobody has a card scores for nobody."""
    g = scored(3, ["M", "R", ""])
    assert g.points == [1, 1, 0]
    assert sum(g.points) == 2


def test_r22_tied_players_all_score() -> None:
    """R22: every player with the most cards of a domain scores."""
    g = scored(3, ["MMR", "MMS", "ME"])
    assert g.points == [2, 2, 1]


@pytest.mark.parametrize("domain", list("UCSERM"))
def test_r22_tie_break_each_domain(domain: str) -> None:
    """R22: tied on points, the tie-break domain (Utopia, Culture, Science, Economy,
    Religion, Military) decides; seat 2 holds that domain's majority."""
    others = [ch for ch in "MRESCU" if ch != domain][:2]
    base = "".join(others)
    g = scored(3, [base + domain * 2, base + domain, domain * 3])
    assert g.points == [2, 2, 1]
    assert g.winners == [0]


@pytest.mark.parametrize(
    ("first", "second"),
    list(
        zip(
            "".join(LETTERS[d] for d in TIE_BREAK_ORDER)[:-1],
            "".join(LETTERS[d] for d in TIE_BREAK_ORDER)[1:],
            strict=True,
        )
    ),
)
def test_r22_tie_break_order(first: str, second: str) -> None:
    """R22: an earlier tie-break domain outweighs a later one (U > C > S > E > R > M)."""
    base = "".join(ch for ch in "MRESCU" if ch not in (first, second))[:3]
    g = scored(3, [base + first * 2 + second, base + first + second * 2, first * 3 + second * 3])
    assert g.points == [3, 3, 2]
    assert g.winners == [0]


def test_r22_tie_break_order_is_utopia_culture_science_economy_religion_military() -> None:
    """R22: the order itself."""
    assert "".join(LETTERS[d] for d in TIE_BREAK_ORDER) == "UCSERM"


def test_r22_still_tied_share_the_victory() -> None:
    """R22: players tied after every tie-break share the victory."""
    g = scored(3, ["MRS", "MRS", "C"])
    assert g.points == [3, 3, 1]
    assert g.winners == [0, 1]
    g2 = scored(2, ["MU", "MU"])
    assert g2.winners == [0, 1] and g2.points == [2, 2]


def test_r22_markers_are_not_cards_for_majorities() -> None:
    """R22/R11: Democracy markers on a domain do not count as cards there."""
    g = forced(
        2,
        hands=["", ""],
        areas=["S", "SS"],
        markers=[(0, "S", "democracy", 1), (0, "S", "democracy", 1)],
        deck="",
        discard=None,
        last_round=True,
        active=1,
    )
    play(g, "end")
    assert g.points == [0, 1] and g.winners == [1]


# -- R23 the deck runs out ----------------------------------------------------------------


def test_r23_round_finishes_after_the_last_card() -> None:
    """R23: seat 1 draws the last card; seat 2 plays one more turn; then majorities."""
    g = forced(3, hands=["SS", "SS", "SS"], areas=["", "", ""], deck="C", discard=None, active=1)
    play(g, "play S", "end")
    assert g.last_round and g.deck_size == 0
    assert hands(g)[1] == "SC"
    assert g.to_move == 2 and g.phase == "play"
    play(g, "play S", "end")
    assert hands(g)[2] == "S"  # no drawing in the last turns
    assert g.phase == "over" and g.victory == "majority"
    assert g.points == [0, 1, 1] and g.winners == [1, 2]


def test_r23_start_player_draws_last_card() -> None:
    """R23: when the start player empties the deck, every other player still plays."""
    g = forced(3, hands=["SS", "SS", "SS"], areas=["", "", ""], deck="CC", discard=None, active=0)
    play(g, "play S", "end")
    assert g.last_round
    seen = []
    while g.phase != "over":
        seen.append(g.to_move)
        play(g, "play S", "end")
    assert seen == [1, 2]


def test_r23_last_seat_of_the_round_draws_last_card() -> None:
    """R23: the player before the start player empties the deck: the game ends at once."""
    g = forced(3, hands=["SS", "SS", "SS"], areas=["", "", ""], deck="C", discard=None, active=2)
    play(g, "play S", "end")
    assert g.phase == "over" and g.victory == "majority"


def test_r23_discovery_empties_the_deck_mid_turn() -> None:
    """R23/R18: Discovery draws the last cards; the turn goes on, the round finishes."""
    g = forced(
        3,
        hands=["SS", "RMM", "SS"],
        areas=["", "SMMM", ""],
        deck="EEC",
        discard=None,
        active=1,
    )
    play(g, "play R", "discovery discard EEC")
    assert g.deck_size == 0 and g.last_round
    assert g.phase == "effects" and g.to_move == 1
    play(g, "assassination M", "end")  # the turn is completed, nothing drawn
    assert hands(g)[1] == "M"
    assert g.to_move == 2
    play(g, "play S", "end")
    assert g.phase == "over" and g.victory == "majority"
    assert areas(g) == ["", "MMMR", "S"]
    assert g.points == [0, 2, 1]


def test_r23_hegemony_in_the_last_round_still_wins() -> None:
    """R23/R21: a hegemony in a last-round turn wins before majorities are counted."""
    g = forced(
        3,
        hands=["SS", "SS", "M"],
        areas=["RRRR", "", "MMMMMM"],
        deck="C",
        discard=None,
        active=1,
    )
    play(g, "play S", "end")
    assert g.last_round
    play(g, "play M", "end")
    assert g.victory == "hegemony" and g.winners == [2] and g.points is None


@pytest.mark.parametrize(
    ("players", "deal"), [(2, "basic"), (3, "basic"), (4, "draft"), (3, "draft")]
)
def test_r23_everyone_has_the_same_number_of_turns(players: int, deal: str) -> None:
    """R23: in games ended by majorities every player had the same number of turns."""
    checked = 0
    for seed in range(25):
        g = new_game(players, deal=deal, seed=seed)
        rng = random.Random(seed)
        while not g.finished:
            g.apply(rng.choice(g.legal_moves()))
        if g.victory != "majority":
            continue
        ends = Counter(g.movers[i] for i, m in enumerate(g.history) if m.kind == "end")
        assert len(set(ends[s] for s in range(players))) == 1, ends
        assert g.deck_size == 0
        checked += 1
    assert checked > 0


# -- R24 team game ------------------------------------------------------------------------


def test_r24_hegemony_wins_for_the_team() -> None:
    """R24: a player's hegemony wins for their team (seats 1 and 3)."""
    g = forced(4, teams=True, hands=["R", "M", "R", "R"], areas=["", "MMMMMM", "", ""], active=1)
    play(g, "play M", "end")
    assert g.victory == "hegemony" and g.winners == [1, 3]


def test_r24_hegemony_seat_two_wins_with_seat_zero() -> None:
    """R24: seats 0 and 2 form one team."""
    g = forced(4, teams=True, hands=["R", "R", "U", "R"], areas=["", "", "UUUUUU", ""], active=2)
    play(g, "play U", "end")
    assert g.winners == [0, 2]


def test_r24_team_majorities_one_point_per_domain() -> None:
    """R24: a team scores at most 1 point per domain; ties score for both teams."""
    g = scored(4, ["MME", "RRE", "MM", "RRS"], teams=True)
    assert g.points == [2, 3]  # team 0: M, E; team 1: R, E, S
    assert g.winners == [1, 3]


def test_r24_team_tie_break_by_summed_cards() -> None:
    """R24 Ruling: tied teams compare the sums of their cards in R22's order."""
    # U: seats 0 and 1 tie with 2 (both teams score); team 0 sums 3 Utopia, team 1 sums 2.
    g = scored(4, ["UU", "UUC", "UM", ""], teams=True)
    assert g.points == [2, 2]
    assert g.winners == [0, 2]


def test_r24_teams_still_tied_share() -> None:
    """R24 Ruling: teams still tied share the victory."""
    g = scored(4, ["M", "M", "", ""], teams=True)
    assert g.points == [1, 1]
    assert g.winners == [0, 1, 2, 3]


# -- R25 knowledge --------------------------------------------------------------------------


def _twins(active: int = 0, discard: str = "") -> tuple[GameState, GameState]:
    """Two 3-player positions that differ only in seat 1's hand (and so the deck)."""
    a = forced(
        3,
        hands=["MR", "SSC", "UU"],
        areas=["RS", "E", ""],
        deck_top="MMMMM",
        discard=discard,
        active=active,
    )
    b = forced(
        3,
        hands=["MR", "MEU", "UU"],
        areas=["RS", "E", ""],
        deck_top="MMMMM",
        discard=discard,
        active=active,
    )
    return a, b


def test_r25_observation_holds_own_hand_only() -> None:
    """R25: a seat's observation holds its own hand; others only as counts."""
    a, b = _twins()
    for seat in (0, 2):
        oa, ob = observe(a, seat), observe(b, seat)
        assert oa.hand == hands(a)[seat]
        assert oa == ob  # seat 1's hand leaves no trace
        assert oa.hand_sizes == [2, 3, 2]
        assert oa.known_in_hands[1] == ""
    assert observe(a, 1).hand == "SSC" and observe(b, 1).hand == "MEU"
    spectator = observe(a, None)
    assert spectator.hand == "" and spectator.learned == []
    assert spectator == observe(b, None)


def test_r25_seat_options_hide_discovery_and_inquisition() -> None:
    """R25: the legal choices shown to a seat fold Discovery and Inquisition into '… ?'."""
    a, b = _twins()
    play(a, "play M")
    play(b, "play M")
    assert a.legal_strings() != b.legal_strings()  # the full moves depend on seat 1's hand
    oa, ob = seat_options(a), seat_options(b)
    assert oa == ob
    assert "discovery discard ?" in oa
    assert "inquisition 1 give ?" in oa and "inquisition 2 give ?" in oa
    assert not any(
        o.startswith(("discovery discard", "inquisition")) and not o.endswith("?") for o in oa
    )


def test_r25_error_messages_reveal_no_hidden_card() -> None:
    """R25: an error message is the same whatever the hidden cards are."""
    a, b = _twins()
    play(a, "play M")
    play(b, "play M")
    for move in ("inquisition 1 give UUU", "inquisition 1 give UU", "discovery discard UUUUU"):
        with pytest.raises(IllegalMoveError) as ea:
            a.apply(move)
        with pytest.raises(IllegalMoveError) as eb:
            b.apply(move)
        assert str(ea.value) == str(eb.value)
        for secret in ("SSC", "MEU"):
            assert secret not in str(ea.value)


def test_r25_inquisition_is_learned_by_the_two_players_only() -> None:
    """R25/R16: a third player sees the exchange happen, not the cards."""
    a, b = _twins()
    play(a, "play M", "inquisition 1 give RSS")
    play(b, "play M", "inquisition 1 give REU")
    assert hands(a)[1] == "RSS" and hands(b)[1] == "REU"
    assert observe(a, 2) == observe(b, 2)
    assert observe(a, 2).history[-1] == "inquisition 1 give ?"
    assert observe(a, 0).history[-1] == "inquisition 1 give RSS"
    assert observe(a, 1).history[-1] == "inquisition 1 give RSS"
    assert observe(a, 0).known_in_hands[1] == "RSS"
    assert observe(a, 0).hand == "C" and observe(b, 0).hand == "M"
    assert observe(a, None).history[-1] == "inquisition 1 give ?"


def test_r25_removed_cards_are_known_to_nobody() -> None:
    """R25/R4: two games differing only in the removed cards look the same to every seat."""
    top = "MMMRRRESSCCC"  # 2-player deal and the first draws
    d1 = make_deck(2, top, fill="MRESCU")
    d2 = make_deck(2, top, fill="UCSERM")
    assert d1 != d2 and d1[:12] == d2[:12]
    g1 = new_game(2, deck=d1, start=0)
    g2 = new_game(2, deck=d2, start=0)
    for seat in (0, 1, None):
        assert observe(g1, seat) == observe(g2, seat)


def test_r25_discard_pile_markers_and_coin_are_public() -> None:
    """R25: play areas with markers, the pile and the coin are in every observation."""
    g = forced(2, hands=["CE", "R"], areas=["E", "MMMR"])
    play(g, "play C", "embargo 1 R", "inspiration 1 assassination E")
    for seat in (0, 1, None):
        o = observe(g, seat)
        assert o.discard == "E"
        assert o.markers == [{"seat": 1, "domain": "R", "kind": "embargo", "by": 0}]
        assert o.coin == {"holder": 0, "seat": 1, "domain": "M"}
        assert o.areas == ["C", "MMMR"]
        assert o.used_effects == ["embargo", "inspiration", "assassination"]
    assert pile(g) == "E"


# -- error messages ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "rule"),
    [
        ("end", "R9"),
        ("assassination M", "R9"),
        ("keep M", "draft"),
        ("play U", ""),
    ],
)
def test_errors_in_phase_1_are_sentences(move: str, rule: str) -> None:
    """R9/R25: refused moves raise IllegalMoveError with a plain sentence, state unchanged."""
    g = forced(2, hands=["MR", "S"], areas=["MMM", ""])
    msg = refused(g, move, rule)
    assert msg.startswith(move.split()[0])


@pytest.mark.parametrize(
    ("move", "rule"),
    [
        ("purge R", "R11"),
        ("holybook", "R16"),
        ("inspiration 1 assassination R", "R19"),
        ("republic take M", "R11"),
        ("democracy 1 M", "R12"),
        ("attack U", "R15"),
        ("play R", "R10"),
    ],
)
def test_errors_in_phase_2_cite_the_rule(move: str, rule: str) -> None:
    """R10-R20: the reason for a refused effect names the rule it breaks."""
    g = forced(2, hands=["MRS", "S"], areas=["MM", "M"])
    play(g, "play M")
    refused(g, move, rule)


def test_unreadable_move_is_a_notation_error_sentence() -> None:
    """NOTATION: a move that cannot be read raises a sentence, the state is unchanged."""
    from civcards.carta import NotationError

    g = forced(2, hands=["MR", "S"], areas=["", ""])
    with pytest.raises(NotationError) as info:
        g.apply("fly M")
    assert "not a move word" in str(info.value)
    assert g.legal_strings() == ["play M", "play R"]


def test_r25_options_without_hidden_cards_are_shown_in_full() -> None:
    """R25: 'inquisition N' on an empty hand and 'discovery' on an empty deck hide nothing."""
    g = forced(2, hands=["MR", ""], areas=["RS", "C"], deck="", discard=None, last_round=True)
    play(g, "play M")
    opts = seat_options(g)
    assert "inquisition 1" in opts and "discovery" in opts
    assert not any(o.endswith("?") for o in opts)


def test_r25_draft_packets_are_private() -> None:
    """R25/R8: in the draft a seat sees its own packet, never another seat's."""
    da = make_deck(3, "MMRR" + "SSCC" + "EEMR")
    db = make_deck(3, "MMRR" + "MRES" + "EEMR")
    a = new_game(3, deal="draft", deck=da, start=0)
    b = new_game(3, deal="draft", deck=db, start=0)
    for seat in (0, 2, None):
        assert observe(a, seat) == observe(b, seat)
    assert observe(a, 1).draft_packet == "SSCC" and observe(b, 1).draft_packet == "MRES"
    play(a, "keep M")
    play(b, "keep M")
    assert observe(a, 0) == observe(b, 0) and observe(a, 2) == observe(b, 2)
