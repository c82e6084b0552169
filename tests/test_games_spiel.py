"""The shared half of the OpenSpiel cores (:class:`civcards.games.spiel.TableCore`), through
both games: a game cut at ``max_game_length`` is a shared victory, never cut while the deck
still owes a player action its cards, and a copy is independent of the original."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable

import numpy as np
import pyspiel
import pytest

from civcards.envs import openspiel_game as og  # registers the games
from civcards.games.carta.spiel import CartaCore
from civcards.games.civ4.spiel import Civ4Core
from civcards.games.spiel import CHANCE, TERMINAL, TableCore

assert og.SHORT_NAME


def play_out(
    state: pyspiel.State,
    rng: random.Random,
    each: Callable[[pyspiel.State], None] | None = None,
) -> None:
    """Play ``state`` to its end at random (``each`` sees it before every action)."""
    while not state.is_terminal():
        if each is not None:
            each(state)
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)


@pytest.mark.parametrize(
    ("spec", "players", "share"),
    [
        ("python_civ_carta(players=3,max_game_length=30)", 3, 1 / 3),
        ("python_civ_carta(players=4,teams=True,max_game_length=30)", 4, 0.5),
        ("python_civ4(players=2,max_game_length=30)", 2, 0.5),
    ],
)
def test_a_cut_game_is_a_shared_victory(spec: str, players: int, share: float) -> None:
    state = pyspiel.load_game(spec).new_initial_state()
    play_out(state, random.Random(5))
    core = state.core
    assert isinstance(core, TableCore)
    assert core.truncated
    assert core.current_player() == TERMINAL
    assert not core.chance_pending()
    # cut at the limit, or at the next player action once the deck has supplied its cards
    assert 30 <= core.moves <= 31
    assert state.returns() == [share] * players


def test_the_deck_owes_its_cards_before_a_cut() -> None:
    """CIV: a player action that draws waits for its chance nodes; a cut waits for them too."""

    def owed_cards_wait(state: pyspiel.State) -> None:
        core = state.core
        assert isinstance(core, CartaCore)
        if core.todo:
            assert core.chance_pending() and core.current_player() == CHANCE
            assert not core.truncated

    rng = random.Random(2)
    for _ in range(20):
        state = pyspiel.load_game(
            "python_civ_carta(players=2,max_game_length=25)"
        ).new_initial_state()
        play_out(state, rng, owed_cards_wait)
        assert state.core.todo == 0


@pytest.mark.parametrize("spec", ["python_civ_carta(players=3)", "python_civ4(players=3)"])
def test_before_the_deal_chance_moves_and_the_tensor_is_zero(spec: str) -> None:
    state = pyspiel.load_game(spec).new_initial_state()
    core = state.core
    assert isinstance(core, (CartaCore, Civ4Core))
    assert core.table is None and core.chance_pending()
    assert core.current_player() == CHANCE
    assert core.returns() == [0.0] * 3
    assert not core.encode(0).any()
    assert core.encode(0).shape == (core.observation_size,)


@pytest.mark.parametrize("spec", ["python_civ_carta(players=2)", "python_civ4(players=2)"])
def test_a_copy_is_independent(spec: str) -> None:
    state = pyspiel.load_game(spec).new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node() or state.core.moves < 4:
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    core = state.core
    c = copy.deepcopy(core)
    assert type(c) is type(core)
    assert (c.n, c.max_length, c.moves, c.truncated) == (
        core.n,
        core.max_length,
        core.moves,
        core.truncated,
    )
    assert c.info == core.info and c.info is not core.info
    assert c.table is not core.table
    seat = core.current_player()
    assert np.array_equal(c.encode(seat), core.encode(seat))
    assert c.legal_actions(seat) == core.legal_actions(seat)
    c.apply(c.legal_actions(seat)[0])
    c.info[0].append("only in the copy")
    assert core.moves == c.moves - 1
    assert "only in the copy" not in core.info[0]
