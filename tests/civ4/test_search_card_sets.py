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
from tests.civ4.helpers import at_purchase, empty_hand, give

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
