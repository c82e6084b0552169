"""NOTATION.md: move reading and writing (clarification 10), records (clarifications 1-8), replay exit codes."""

from __future__ import annotations

import json

import pytest

from civcards.civ4 import (
    NotationError,
    RecordError,
    default_move,
    new_game,
    parse_move,
    parse_record,
    replay,
    replay_cli,
    write_record,
)
from civcards.civ4.choices import choices, expand
from tests.civ4.helpers import at_purchase, random_game


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("PICK fld", "pick FLD"),
        ("collect  p3=hff   p1=C", "collect p1=C p3=FFH"),
        ("trade 1h2f 1c", "trade 2F1H 1C"),
        ("plot pas 5h10f", "plot PAS 10F5H"),
        ("build ORC p2 free AST", "build ORC p2 free AST"),
        ("build hng p1 settle p4,p2", "build HNG p1 settle p2,p4"),
        ("use col 2 2h1f", "use COL 2 1F2H"),
        ("attack 3=axe 1=swd,chr,chr", "attack 1=CHR,CHR,SWD 3=AXE"),
        ("defend spr>chr arc>axe", "defend ARC>AXE SPR>CHR"),
        ("walls lose p2 bounce chr", "walls lose p2 bounce CHR"),
        ("damage steal p3,p1 destroy p4:grn,p2:wal", "damage steal p1,p3 destroy p2:WAL,p4:GRN"),
        ("place p2,p1", "place p1,p2"),
        ("discard MSY,GLB", "discard GLB,MSY"),
        ("end", "end"),
    ],
)
def test_canonical_form(text: str, canonical: str) -> None:
    """NOTATION.md canonical form and clarification 10: lenient reading, canonical writing."""
    assert str(parse_move(text)) == canonical


@pytest.mark.parametrize(
    "text",
    [
        "",
        "fly away",
        "trade 0F3H 1C",
        "trade 2F1F 1C",
        "collect p1=F p1=H",
        "attack 1=CHR 1=SWD",
        "walls bounce CHR lose p1",
        "damage destroy p1:GRN steal p2",
        "plot PAS 10F 5H",
        "pick XYZ",
        "pick FO",
        "settle 3",
        "use WRI 12",
        "build GRN",
        "collect p1=X",
    ],
)
def test_unreadable_moves(text: str) -> None:
    """Clarification 10: count 0, repeated letters/plots/seats, spaces in tokens, clause order, unknown codes."""
    with pytest.raises(NotationError) as e:
        parse_move(text)
    assert str(e.value) and "\n" not in str(e.value)


def test_record_round_trip_and_portability() -> None:
    """Clarification 1: a saved record holds every pile and chance outcome and replays identically."""
    g = random_game(3, 12)
    rec = json.loads(write_record(g))
    assert {"plots", "techs", "removed", "deck", "chance", "result"} <= set(rec)
    rec["seed"] = 999  # the seed is never used by a portable record
    assert replay(rec).state.record()["moves"] == g.record()["moves"]


def test_record_without_piles_uses_seed() -> None:
    """NOTATION.md seed: a record without the four lists is shuffled with its seed."""
    g = new_game(2, seed=77)
    rec = {"format": "civ4-notation/1", "players": 2, "seed": 77, "moves": ["pick " + g.draft_revealed[0]]}
    r = replay(rec)
    assert r.ok and r.state.init_deck == g.init_deck


@pytest.mark.parametrize(
    ("patch", "field"),
    [
        ({"format": "civ-notation/1"}, "format"),
        ({"players": True}, "players"),
        ({"players": 5}, "players"),
        ({"seed": "x"}, "seed"),
        ({"options": {"turbo": True}}, "options"),
        ({"options": {"hand_limit": -1}}, "hand_limit"),
        ({"options": {"finish_round": 1}}, "finish_round"),
        ({"deck": None}, "deck"),
        ({"chance": [{"kind": "dice"}]}, "chance"),
        ({"chance": [{"kind": "steal", "card": "ZZZ"}]}, "chance"),
        ({"names": ["a"]}, "names"),
        ({"moves": "end"}, "moves"),
        ({"game_id": 3}, "game_id"),
    ],
)
def test_invalid_records_exit_2(patch: dict[str, object], field: str) -> None:
    """Clarifications 2-8: an invalid record exits 2 with exactly {ok: false, error} naming the field."""
    rec = new_game(2, seed=1).record()
    rec.update(patch)
    if patch.get("deck", 0) is None:
        del rec["deck"]
    status, out = replay_cli(json.dumps(rec), json_out=True, legal=True, seat=None)
    assert status == 2
    obj = json.loads(out)
    assert set(obj) == {"ok", "error"} and obj["ok"] is False and field in obj["error"]
    with pytest.raises(RecordError):
        parse_record(json.dumps(rec))


def test_bad_piles_and_unknown_codes_exit_2() -> None:
    """NOTATION.md validity: piles must be the card set; unknown codes are named."""
    rec = new_game(2, seed=1).record()
    rec["deck"][0] = "XYZ"
    status, out = replay_cli(json.dumps(rec), json_out=True, legal=False, seat=None)
    assert status == 2 and "XYZ" in json.loads(out)["error"]
    rec = new_game(2, seed=1).record()
    rec["techs"][0], rec["techs"][-1] = rec["techs"][-1], rec["techs"][0]
    assert replay_cli(json.dumps(rec), json_out=True, legal=False, seat=None)[0] == 2
    assert replay_cli("not json", json_out=True, legal=False, seat=None)[0] == 2
    assert replay_cli("[1]", json_out=False, legal=False, seat=None)[0] == 2


def test_illegal_or_unreadable_moves_exit_1() -> None:
    """Clarifications 7, 23: an illegal, unreadable or non-string move exits 1 with the position before it."""
    g = new_game(2, seed=1)
    for bad in ["end", "pick", 7, "pick XYZ"]:
        rec = g.record()
        first = g.legal_strings()[0]
        rec["moves"] = [first, bad, first]
        status, out = replay_cli(json.dumps(rec), json_out=True, legal=True, seat=None)
        obj = json.loads(out)
        assert status == 1 and obj["ok"] is False and obj["move_index"] == 1 and obj["error"]
        h = g.copy()
        h.apply(first)
        assert obj["legal"] == h.legal_strings()


def test_move_after_end_is_illegal() -> None:
    """Clarification 7, C68: a move after the end of the game is illegal (exit 1)."""
    g = random_game(2, 8)
    rec = g.record()
    rec["moves"].append("end")
    status, out = replay_cli(json.dumps(rec), json_out=True, legal=False, seat=None)
    assert status == 1 and "C68" in json.loads(out)["error"]


def test_steal_chance_mismatch_is_illegal_use() -> None:
    """Clarification 6, C63: a steal entry naming a card the victim lacks makes the 'use' move illegal."""
    for seed in range(40):
        g = random_game(2, seed)
        rec = g.record()
        idx = [i for i, c in enumerate(rec["chance"]) if c["kind"] == "steal"]
        if idx:
            break
    else:
        pytest.skip("no steal in these games")
    rec["chance"][idx[0]]["card"] = "ZZZ"
    with pytest.raises(RecordError):
        parse_record(rec)
    rec["chance"][idx[0]] = {"kind": "reshuffle", "deck": []}
    r = replay(rec)
    assert not r.ok and r.error is not None and "C63" in r.error
    assert rec["moves"][r.move_index or 0].startswith("use")


def test_replay_text_output_and_seat() -> None:
    """replay without --json prints a readable board; --seat S hides other hands (clarification 24)."""
    g = at_purchase(3)
    text = write_record(g)
    status, out = replay_cli(text, json_out=False, legal=True, seat=None)
    assert status == 0 and "Seat 0" in out and "Legal moves" in out
    status, out = replay_cli(text, json_out=True, legal=True, seat=1)
    obj = json.loads(out)
    assert obj["legal"] == [] and isinstance(obj["players"][0]["hand"], int)
    assert replay_cli(text, json_out=True, legal=True, seat=7)[0] == 2


def test_factored_choices_plot_payment_and_collect() -> None:
    """Factored choices: 'plot CODE ?' expands to the exact payments; default keeps what is needed."""
    g = at_purchase(2)
    g.supply[0] = [9, 3, 4]
    steps = [c for c in choices(g) if not c.final]
    assert any(c.text.startswith("plot ") for c in steps)
    code = g.plot_market[0]
    pays = [c.text for c in expand(g, f"plot {code} ?")]
    assert pays == sorted(m for m in g.legal_strings() if m.startswith(f"plot {code} "))
    d = default_move(g, f"plot {code} ?")
    assert d in g.legal_strings()
    assert default_move(g) == "end"


def test_factored_attack_and_discard_steps() -> None:
    """Factored choices: attacks split level by level; long discards card by card."""
    from tests.civ4.helpers import empty_hand, give

    g = at_purchase(3)
    empty_hand(g, 0)
    give(g, 0, "CHR", "CHR", "SWD", "AXE")
    top = expand(g, "attack ?")
    assert {c.text for c in top} == {"attack 1=?", "attack 2=?", "attack 1=? 2=?"}
    finals: set[str] = set()
    stack = [c.text for c in top]
    while stack:
        for c in expand(g, stack.pop()):
            (finals.add(c.text) if c.final else stack.append(c.text))
    assert finals == {m for m in g.legal_strings() if m.startswith("attack")}
    assert default_move(g, "attack ?") in g.legal_strings()
    g2 = at_purchase(2, options={"hand_limit": 0})
    give(g2, 0, *["ARC"] * 3, "AXE", "AXE", "SPR", "SPR", "CHR", "GRN", "LIB", "TMP")
    g2.apply("end")
    assert g2.discard_n > 3
    first = choices(g2)
    assert all(not c.final for c in first) or len(g2.legal_strings()) <= 64
    assert default_move(g2) in g2.legal_strings()
    with pytest.raises(ValueError):
        expand(g2, "plot FOR")
