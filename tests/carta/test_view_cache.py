"""R25: the seats' reading of the history that observations share between states
(a state and its copies, the deals of one sampler) reads as a fresh one would
(issue 37: ``view_cache`` is shared, extended only on copies)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from civcards.carta import GameState
from civcards.carta.cards import str_to_counts
from civcards.carta.observation import known_counts, observe, shared_views
from civcards.game_api import default_options, get_game
from tests.carta.randgames import CONFIGS, start


def _fresh(g: GameState, seat: int | None) -> dict[str, Any]:
    c = g.copy()
    c.view_cache = None
    return observe(c, seat).to_dict()


def _seats(g: GameState) -> list[int | None]:
    return [None, *range(g.n)]


def _known_fresh(g: GameState, seat: int) -> list[list[int]]:
    return [str_to_counts(k) for k in _fresh(g, None if seat < 0 else seat)["known_in_hands"]]


def _check_known(g: GameState) -> None:
    """known_counts (one seat's reading, a short way on from a shared one) as a fresh
    state's observation says, for the spectator (-1) and every seat."""
    for s in range(-1, g.n):
        c = g.copy()
        assert known_counts(c, s) == _known_fresh(g, s)


@pytest.mark.parametrize("config", CONFIGS)
def test_r25_copies_sharing_views_observe_as_fresh_states(config: tuple[int, str, bool]) -> None:
    rng = random.Random(7)
    g = start(config, seed=5)
    kept: list[GameState] = []
    while not g.finished:
        _check_known(g)  # one move past the reading its last observation left
        for s in _seats(g):
            assert observe(g, s).to_dict() == _fresh(g, s)
        # a copy holds the same views, then goes its own way (another move)
        if rng.random() < 0.3:
            kept.append(g.copy())
        moves = g.legal_moves()
        g.apply(rng.choice(moves))
        if kept and rng.random() < 0.3:
            other = kept.pop(rng.randrange(len(kept)))
            if not other.finished:
                other.apply(rng.choice(other.legal_moves()))
            _check_known(other)
            for s in _seats(other):
                assert observe(other, s).to_dict() == _fresh(other, s)
    for s in _seats(g):
        assert observe(g, s).to_dict() == _fresh(g, s)


def test_r25_a_history_rewritten_in_place_is_read_again() -> None:
    g = start(CONFIGS[0], seed=3)
    while len(g.history) < 12:
        g.apply(g.legal_moves()[0])
    before = observe(g, 0).to_dict()
    c = g.copy()
    c.apply(c.legal_moves()[0])
    observe(c, 1)
    # the same length, another last move: the shared reading must not serve it
    c.history[-1] = g.legal_moves()[-1]
    c.movers[-1] = (c.movers[-1] + 1) % c.n
    assert observe(c, 1).to_dict() == _fresh(c, 1)
    assert observe(g, 0).to_dict() == before


@pytest.mark.parametrize("deal", [1, 2, 3])
def test_r25_every_deal_of_a_sampler_observes_as_a_fresh_state(deal: int) -> None:
    game = get_game("carta")
    opts = game.check_options(2, default_options(game))
    state = game.new_state(2, opts, deal)
    rng = random.Random(deal)
    for _ in range(40 + 20 * deal):
        if state.to_move is None:
            break
        state.apply(rng.choice(state.legal_moves()))
    if state.to_move is None:  # pragma: no cover - these deals last longer
        pytest.skip("the game ended")
    sampler = game.determinizer(game.observe(state, state.to_move))
    assert sampler is not None
    for _ in range(4):
        d = sampler.sample(rng)
        for _ in range(3):
            _check_known(d)
            for s in _seats(d):
                assert observe(d, s).to_dict() == _fresh(d, s)
            if d.finished:
                break
            d.apply(rng.choice(d.legal_moves()))


def _game_at(seed: int, length: int) -> GameState | None:
    g = start(CONFIGS[0], seed=seed)
    rng = random.Random(seed)
    while len(g.history) < length:
        if g.finished:
            return None
        g.apply(rng.choice(g.legal_moves()))
    return g


def test_r25_a_leaf_ignores_a_reading_of_other_moves() -> None:
    """known_counts reads a shared reading only for a history that starts with the moves
    it read: another game's reading (what a seat knew there differs) is not used."""
    checked = 0
    for seed in range(1, 40):
        a, b = _game_at(seed, 40), _game_at(seed + 100, 40)
        if a is None or b is None:
            continue
        for s in range(-1, 2):
            theirs = [str_to_counts(k) for k in _fresh(a, None if s < 0 else s)["known_in_hands"]]
            c = b.copy()
            c.apply(c.legal_moves()[0])
            mine = _known_fresh(c, s)
            # b's reading of a's moves would differ once the last move is read on top
            c.view_cache = shared_views(a)
            if theirs[1 - max(s, 0)] != _known_fresh(b, s)[1 - max(s, 0)]:
                assert known_counts(c, s) == mine
                checked += 1
    assert checked >= 3
