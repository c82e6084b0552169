"""Rules C68-C70 (RU28-RU30) and the variants finish_round and hand_limit."""

from __future__ import annotations

from civcards.civ4 import position_json
from civcards.civ4.execute import finish
from civcards.civ4.game import GameState
from tests.civ4.helpers import (
    at_purchase,
    empty_hand,
    give,
    grant_tech,
    play,
    refused,
    set_pop,
    set_supply,
)


def _last_tech(options: dict[str, object] | None = None, n: int = 2) -> GameState:
    g = at_purchase(n, options=options)
    g.tech_pos = len(g.init_techs)
    g.tech_market = g.tech_market[:1]
    set_supply(g, 0, 20, 20, 40)
    return g


def test_c68_last_tech_ends_at_once() -> None:
    """C68 (RU28): buying the last technology ends the game at once; no move follows."""
    g = _last_tech()
    t = g.tech_market[0]
    play(g, f"tech {t}")
    assert g.finished and g.reason == "last_tech" and g.step == "over"
    assert g.to_move is None and g.active is None and g.legal_strings() == []
    refused(g, "end", "C68")
    pj = position_json(g, legal=True)
    assert pj["used"] == [] and pj["legal"] == [] and pj["combat"] is None
    assert g.record()["result"]["reason"] == "last_tech"


def test_c68_c62_oracle_taking_last_tech_ends() -> None:
    """C68, C62: the Oracle taking the last technology ends the game after resolving."""
    g = _last_tech()
    empty_hand(g, 0)
    give(g, 0, "ORC")
    t = g.tech_market[0]
    play(g, f"build ORC p1 free {t}")
    assert g.finished and t in g.techs[0]


def test_c68_finish_round_variant() -> None:
    """C68 (finish_round, clarification 1): the buyer finishes the turn and later seats play; ends after seat n-1."""
    g = _last_tech({"finish_round": True}, n=3)
    play(g, f"tech {g.tech_market[0]}")
    assert not g.finished and g.step == "purchase"
    play(g, "end")
    while not g.finished:
        assert g.round == 1
        g.apply("end" if g.step == "purchase" else g.legal_strings()[0])
    assert g.reason == "last_tech" and g.round == 1


def test_c69_stalemate_after_round_50() -> None:
    """C69 (RU29, clarification 22): the game ends at the end of round 50 with reason stalemate."""
    g = at_purchase(2)
    g.round = 50
    play(g, "end")
    while not g.finished:
        g.apply("end" if g.step == "purchase" else g.legal_strings()[0])
    assert g.reason == "stalemate" and g.round == 50
    assert position_json(g)["round"] == 50


def test_c70_scoring_and_tiebreaks() -> None:
    """C70 (RU30): VP = population + wonders + technologies; ties by techs, then population, else shared."""
    g = at_purchase(2)
    for s in (0, 1):
        for pl in range(1, 5):
            set_pop(g, s, pl, 0)
    set_pop(g, 0, 1, 2)
    grant_tech(g, 1, "MYS")
    set_pop(g, 1, 1, 1)
    assert g.score(0) == [2, 0, 2, 0] and g.score(1) == [2, 1, 1, 0]
    finish(g, "last_tech")
    assert g.winners == [1]
    g2 = at_purchase(2)
    for s in (0, 1):
        for pl in range(1, 5):
            set_pop(g2, s, pl, 1)
    finish(g2, "last_tech")
    assert g2.winners == [0, 1]


def test_c70_wonders_count_one_vp() -> None:
    """C70, C4: a wonder in play is worth 1 VP; a building 0."""
    from tests.civ4.helpers import build_on

    g = at_purchase(2)
    base = g.score(0)[0]
    build_on(g, 0, 1, "GRN")
    build_on(g, 0, 2, "PYR")
    assert g.score(0) == [base + 1, 0, base, 1]


def test_c37_hand_limit_variant() -> None:
    """C37 (hand_limit, clarification 12): one discard of max(K, h - N) cards."""
    g = at_purchase(2, options={"hand_limit": 3})
    empty_hand(g, 0)
    give(g, 0, "ARC", "ARC", "AXE", "AXE")
    play(g, "end")
    assert sum(g.hands[0]) == 8 and g.discard_n == 5
    g = at_purchase(2, options={"hand_limit": 0})
    empty_hand(g, 0)
    play(g, "end")
    assert g.discard_n == 4


def test_c38_reshuffle_mismatch_makes_move_illegal() -> None:
    """C38 (clarification 6): a recorded reshuffle that is not an ordering of the discard pile is illegal."""
    from civcards.civ4 import replay

    g = at_purchase(2)
    rec = g.record()
    moves = rec["moves"]
    # play a game until the first reshuffle, then corrupt it
    from tests.civ4.helpers import random_game

    full = random_game(2, 3)
    r = full.record()
    idx = next(i for i, c in enumerate(r["chance"]) if c["kind"] == "reshuffle")
    r["chance"][idx]["deck"] = r["chance"][idx]["deck"][:-1]
    res = replay(r)
    assert not res.ok and res.error is not None and "C38" in res.error
    assert moves is not None
