"""The versioned card sets (issue 19, item 4): ``reconstructed-1`` (the original reconstruction,
``cards.toml``), ``reconstructed-2`` (the balance study's tuning) and ``reconstructed-3``
(reconstructed-2 with fewer attacking units, the third round), picked by the ``cards`` option
and named in a record's ``options``; a record naming none is read with the original."""

from __future__ import annotations

import json
import random
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from civcards import civ4
from civcards.civ4.cards import CARD_FILES, CARDS, card_set
from civcards.civ4.options import CARD_SETS, DEFAULT_CARD_SET, RECORD_CARD_SET, parse_options
from civcards.game_api import OptionsError, get_game
from tests.civ4.helpers import card_zones_ok, random_move

EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "civ4-notation-examples"
GAME = get_game("civ4")


def _toml(name: str) -> dict:  # type: ignore[type-arg]
    text = resources.files("civcards.civ4").joinpath(CARD_FILES[name]).read_text(encoding="utf-8")
    return tomllib.loads(text)


def _records() -> list[Path]:
    return sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".expected.json"))


def test_the_original_set_is_the_original_file() -> None:
    """The history stays: reconstructed-1 is cards.toml, the original reconstruction
    (tests/test_shared_copies.py checks it against the specification byte for byte)."""
    assert CARD_FILES[RECORD_CARD_SET] == "cards.toml"


@pytest.mark.parametrize("path", _records(), ids=lambda p: p.stem)
def test_a_record_naming_no_card_set_replays_with_the_original(path: Path) -> None:
    """NOTATION.md's examples name no card set: they are read with reconstructed-1 (and
    test_notation_examples checks they still give their expected positions)."""
    obj = json.loads(path.read_text(encoding="utf-8"))
    assert "cards" not in (obj.get("options") or {})
    rep = civ4.replay(obj)
    assert rep.state.options.cards is None
    assert rep.state.cs is CARDS and rep.state.cs.set_name == RECORD_CARD_SET
    # written back, the record still names none (so it reads the same everywhere)
    assert "cards" not in rep.state.record()["options"]


def test_every_packaged_set_loads_once_with_the_same_cards() -> None:
    for name in CARD_SETS:
        cs = card_set(name)
        assert cs is card_set(name) and cs.set_name == name
        assert cs.names == CARDS.names and set(cs.deck_box) == set(CARDS.deck_box)
    # the first two sets hold the same number of copies of each card; the third changes them
    assert card_set("reconstructed-2").deck_box == CARDS.deck_box
    assert sorted(card_set("reconstructed-3").deck_box) != sorted(CARDS.deck_box)
    assert DEFAULT_CARD_SET in CARD_SETS


def test_reconstructed_3_is_round_3s_candidate_u5_c1() -> None:
    """reconstructed-3 is reconstructed-2 with the copies of round 3's candidate U5 (C1: the
    box's counts; ``studies/civ4-tuning/r3/U5.changes.json``) and nothing else changed,
    so the figures measured for U5 are the figures of the packaged set."""
    changes_file = Path(__file__).resolve().parents[2] / "studies/civ4-tuning/r3/U5.changes.json"
    changes = json.loads(changes_file.read_text(encoding="utf-8"))
    two, three = _toml("reconstructed-2"), _toml("reconstructed-3")
    assert changes and all(set(c) == {"count"} for c in changes.values())
    for kind in ("building", "unit", "wonder"):
        for a, b in zip(two[kind], three[kind], strict=True):
            want = dict(a, count=changes[a["code"]]["count"]) if a["code"] in changes else a
            assert b == want, a["code"]
    rest = {k: v for k, v in two.items() if k not in ("building", "unit", "wonder")}
    assert {k: v for k, v in three.items() if k not in ("building", "unit", "wonder")} == rest
    # fewer attacking units (C45: a unit that can attack), more defenders and buildings
    before = {u["code"]: u["count"] for u in two["unit"]}
    after = {u["code"]: u["count"] for u in three["unit"]}
    attackers = {u["code"] for u in two["unit"] if u["attack"]}
    assert len(attackers) == 5 and all(after[c] < before[c] for c in attackers)
    assert all(after[c] > before[c] for c in before if c not in attackers)
    assert len(card_set("reconstructed-3").deck_box) == len(CARDS.deck_box) - 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_whole_game_of_reconstructed_3_keeps_every_card_and_replays_c1(players: int) -> None:
    """C1, C9: a game of reconstructed-3 deals from its own box, keeps every card in one zone
    at every move, and replay(record) gives the live game's position."""
    rng = random.Random(30 + players)
    g = GAME.new_state(players, GAME.check_options(players, {"cards": "reconstructed-3"}), 300 + players)
    assert g.cs is card_set("reconstructed-3")
    while not g.finished:
        g.apply(random_move(g, rng))
        card_zones_ok(g)
    rec = g.record()
    assert rec["options"]["cards"] == "reconstructed-3"
    rep = civ4.replay(json.loads(json.dumps(rec)))
    assert rep.ok, rep.error
    assert civ4.position_json(rep.state) == civ4.position_json(g)


def test_the_option_picks_the_set_c26() -> None:
    """C26: a population costs base + 2P and a technology its printed cost; the tuned set
    changes both numbers, and a fresh game with ``cards`` shows the tuned ones."""
    old, new = _toml("reconstructed-1"), _toml("reconstructed-2")
    base_old = old["rules"]["population_cost_base"]
    base_new = new["rules"]["population_cost_base"]
    assert base_new != base_old
    wri_new = next(t["cost"] for t in new["tech"] if t["code"] == "WRI")
    wri_old = next(t["cost"] for t in old["tech"] if t["code"] == "WRI")
    assert wri_new != wri_old
    for name, base, wri in (("reconstructed-1", base_old, wri_old), ("reconstructed-2", base_new, wri_new)):
        g = civ4.new_game(2, {"cards": name}, seed=7)
        assert g.cs.set_name == name
        # population 0 on a start plot: the cost is the base (no discount in play yet)
        assert g.pop_cost(0, 1) == base
        assert g.card_cost(0, "WRI") == wri


def test_platform_games_default_to_the_tuned_set_and_name_it() -> None:
    opts = GAME.check_options(2, {})
    assert opts["cards"] == DEFAULT_CARD_SET
    g = GAME.new_state(2, opts, 3)
    assert g.cs.set_name == DEFAULT_CARD_SET
    assert GAME.record(g)["options"]["cards"] == DEFAULT_CARD_SET
    # asked for, the original set is named too
    g1 = GAME.new_state(2, GAME.check_options(2, {"cards": "reconstructed-1"}), 3)
    assert GAME.record(g1)["options"]["cards"] == "reconstructed-1" and g1.cs is CARDS


def test_the_option_is_listed() -> None:
    spec = next(o for o in GAME.options if o.name == "cards")
    assert spec.kind == "choice" and tuple(spec.choices) == CARD_SETS
    assert spec.default == DEFAULT_CARD_SET
    assert "reconstructed" in spec.help


@pytest.mark.parametrize("bad", ["reconstructed-9", "", 2, True, ["reconstructed-2"]])
def test_a_bad_card_set_is_refused_in_one_sentence(bad: object) -> None:
    with pytest.raises(OptionsError) as e:
        GAME.check_options(2, {"cards": bad})
    msg = str(e.value)
    assert "card set" in msg and ", ".join(CARD_SETS) in msg
    assert msg.count(". ") == 0 and "\n" not in msg
    with pytest.raises(civ4.ConfigError):
        parse_options({"cards": bad})
    with pytest.raises(civ4.ConfigError):
        card_set(bad)  # type: ignore[arg-type]


def test_a_record_naming_a_bad_card_set_is_refused() -> None:
    rec = civ4.new_game(2, {"cards": "reconstructed-2"}, seed=1).record()
    rec["options"]["cards"] = "reconstructed-0"
    with pytest.raises(civ4.RecordError) as e:
        civ4.parse_record(rec)
    assert "'options'" in str(e.value) and "card set" in str(e.value)
    status, out = civ4.replay_cli(json.dumps(rec), json_out=True, legal=False, seat=None)
    assert status == 2 and "card set" in json.loads(out)["error"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_record_round_trips_with_the_card_set(players: int) -> None:
    """A whole game on the tuned set: replay(record) equals the live game, move by move."""
    rng = random.Random(players)
    g = GAME.new_state(players, GAME.check_options(players, {}), 100 + players)
    live = [g.copy()]
    while not g.finished and len(g.moves) < 400:
        g.apply(rng.choice(g.legal_strings()) if g.step != "collect" else g.legal_strings()[0])
        live.append(g.copy())
    rec = g.record()
    assert rec["options"]["cards"] == DEFAULT_CARD_SET
    again = json.loads(civ4.write_record(civ4.replay(json.loads(json.dumps(rec))).state))
    assert again == rec
    rep = civ4.replay(rec).state
    assert rep.cs is g.cs and rep.scores == g.scores and rep.legal_strings() == g.legal_strings()
    # the same moves read with the original set are another game: at some point they part
    # (reconstructed-3's box holds other counts, C1: the original set refuses its deck)
    old = dict(rec, options={k: v for k, v in rec["options"].items() if k != "cards"})
    try:
        r1 = civ4.replay(old)
    except civ4.RecordError as e:
        assert "deck" in str(e)
        return
    assert not r1.ok or civ4.position_json(r1.state) != civ4.position_json(rep)


def test_the_search_bots_determinizer_deals_games_of_the_tuned_set() -> None:
    """The determinizer redeals from the boxes (C9): a tuned game's sampled states keep its
    card set and its prices (C26), and play on legally."""
    rng = random.Random(5)
    g = GAME.new_state(3, GAME.check_options(3, {}), 55)
    while len(g.moves) < 60 and not g.finished:
        g.apply(g.legal_strings()[0] if g.step == "collect" else rng.choice(g.legal_strings()))
    seat = g.to_move
    assert seat is not None
    sampler = GAME.determinizer(civ4.observe(g, seat))
    assert sampler is not None
    for i in range(5):
        s = sampler.sample(random.Random(i))
        assert s.cs is g.cs and s.cs.set_name == DEFAULT_CARD_SET
        assert s.hands[seat] == g.hands[seat]
        assert [s.pop_cost(seat, j + 1) for j in range(len(s.plots[seat]))] == [
            g.pop_cost(seat, j + 1) for j in range(len(g.plots[seat]))
        ]
        assert s.legal_strings()
