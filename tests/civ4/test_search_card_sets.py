"""civ4's search reads the game's own card set (issue 19): the search kit prices a position
with ``GameState.cs`` and the determinizer redeals with the set the observation's options
name; and the determinizer's faster shuffle deals what ``random.Random.shuffle`` deals."""

from __future__ import annotations

import random
import tomllib
from dataclasses import replace
from importlib import resources

import pytest

from civcards import civ4
from civcards.civ4 import cards, determinize
from civcards.civ4 import game as engine
from civcards.civ4.cards import CARD_FILES, CardSet, load_cards
from civcards.game_api import get_game
from civcards.games.civ4.search import HAND_VP, chances, economy, turns_left
from tests.civ4.helpers import at_purchase, card_zones_ok, empty_hand, give, random_move

GAME = get_game("civ4")
TUNED = "reconstructed-2"


def _richer_set() -> CardSet:
    """The tuned set with every building printed worth 3 more coins (C4: a card's printed
    resources are among the numbers a set may change; its counts are not)."""
    text = resources.files("civcards.civ4").joinpath(CARD_FILES[TUNED]).read_text(encoding="utf-8")
    data = tomllib.loads(text)
    assert data["building"]
    cs = load_cards(text, TUNED)
    deck = {
        c: replace(d, resource=(d.resource[0], d.resource[1], d.resource[2] + 3)) if d.kind == "building" else d
        for c, d in cs.deck.items()
    }
    richer = CardSet(cs.plots, cs.techs, deck, cs.rules, cs.population, cs.names, TUNED)
    assert cards._same_shape(cards.CARDS, richer) is None  # the engine would accept it
    return richer


@pytest.fixture
def richer(monkeypatch: pytest.MonkeyPatch) -> CardSet:
    """The richer set stands for the tuned one wherever a game or an observation names it."""
    cs = _richer_set()
    monkeypatch.setitem(engine._SETS, TUNED, cs)
    monkeypatch.setitem(cards._LOADED, TUNED, cs)
    return cs


def test_the_kit_prices_a_hand_with_the_games_set_c4(monkeypatch: pytest.MonkeyPatch) -> None:
    """A building in hand is worth its printed cash value (C4) of the game's set: 3 coins
    more each in the richer set, so the seat's economy grows by exactly that."""
    g = at_purchase(2, seed=3, options={"cards": TUNED})
    empty_hand(g, 0)
    give(g, 0, "GRN", "LIB")
    turns = turns_left(g)
    plain = economy(g, 0, turns)
    richer = _richer_set()
    monkeypatch.setitem(engine._SETS, TUNED, richer)
    assert g.cs is richer
    rich = economy(g, 0, turns)
    assert rich - plain == pytest.approx(2 * 3 * HAND_VP)
    assert abs(sum(chances(g)) - 1.0) < 1e-9


def test_the_determinizer_redeals_with_the_observations_set_c72(richer: CardSet) -> None:
    """C72: a sample of a tuned game gives the seat the same observation, and the sampler
    works with the set the observation's options name."""
    rng = random.Random(7)
    g = GAME.new_state(3, GAME.check_options(3, {"cards": TUNED}), 21)
    while len(g.moves) < 50 and not g.finished:
        g.apply(rng.choice(g.legal_strings()))
    seat = g.to_move
    assert seat is not None
    obs = civ4.observe(g, seat)
    d = determinize.Determinizer(obs)
    assert d.cs is richer
    for i in range(4):
        s = d.sample(random.Random(i))
        assert s.cs is richer
        assert civ4.observe(s, seat) == obs


def test_the_fast_shuffle_deals_as_random_shuffle() -> None:
    """The determinizer's shuffle is ``random.Random.shuffle``: the same permutation and the
    same random numbers used (the search's choices depend on both)."""
    assert determinize._FAST_SHUFFLE
    for seed in range(40):
        n = seed * 3 % 97
        a = [f"c{i}" for i in range(n)]
        b = a[:]
        ra, rb = random.Random(seed), random.Random(seed)
        ra.shuffle(a)
        determinize._shuffle(b, rb)
        assert a == b
        assert ra.random() == rb.random()


def _fewer_units_set() -> CardSet:
    """The tuned set with two fewer Axemen and two fewer Chariots in the box, and one more
    technology kept per era with 2 players: the "unit counts" and "removal per era" knobs of
    DESIGN-NOTES §6, which change how many cards the box holds."""
    cs = load_cards(
        resources.files("civcards.civ4").joinpath(CARD_FILES[TUNED]).read_text(encoding="utf-8"), TUNED
    )
    deck = {c: replace(d, count=d.count - 2) if c in ("AXE", "CHR") else d for c, d in cs.deck.items()}
    rules = dict(cs.rules)
    rules["techs_per_era"] = {**cs.techs_per_era, "2": cs.techs_per_era["2"] + 1}
    return CardSet(cs.plots, cs.techs, deck, rules, cs.population, cs.names, TUNED)


def test_a_set_may_change_the_boxs_counts_and_techs_kept_c1_c9(monkeypatch: pytest.MonkeyPatch) -> None:
    """C1, C9: a set with fewer units in the box and more technologies kept is accepted; its
    games deal from its own box, keep every card in one zone, replay from their records, and
    the determinizer deals from that box (C72: the same observation)."""
    fewer = _fewer_units_set()
    assert len(fewer.deck_box) == len(cards.DECK_BOX) - 4
    assert cards._same_shape(cards.CARDS, fewer) is None
    monkeypatch.setitem(engine._SETS, TUNED, fewer)
    monkeypatch.setitem(cards._LOADED, TUNED, fewer)
    for n, seed in ((2, 5), (3, 6), (4, 7)):
        g = civ4.new_game(n, options={"cards": TUNED}, seed=seed)
        assert g.cs is fewer
        assert len(g.init_techs) == 3 * fewer.techs_per_era[str(n)]
        rng = random.Random(seed)
        sampled = False
        while not g.finished:
            g.apply(random_move(g, rng))
            card_zones_ok(g)
            if not sampled and len(g.moves) > 40 and g.to_move is not None:
                obs = civ4.observe(g, g.to_move)
                s = determinize.Determinizer(obs).sample(random.Random(seed))
                assert civ4.observe(s, g.to_move) == obs
                sampled = True
        assert sampled
        again = civ4.replay(civ4.parse_record(civ4.write_record(g)))
        assert again.ok, again.error
        assert civ4.position_json(again.state) == civ4.position_json(g)


def test_a_set_that_changes_the_population_supply_is_refused() -> None:
    """The population supply stays the original's (the research encodings are sized by it)."""
    cs = _fewer_units_set()
    bigger = CardSet(cs.plots, cs.techs, cs.deck, cs.rules, cs.population + 5, cs.names, TUNED)
    why = cards._same_shape(cards.CARDS, bigger)
    assert why is not None and "population supply" in why
