"""The conformance suite: every registered game, through the one game interface.

In the spirit of OpenSpiel's ``random_sim_test``: the same checks run on each
game of the registry (``civcards.game_api.all_games()``) and on a tiny game
that exists only in the tests (:mod:`tests.toygame`), so a new game needs no
change here. The server's share (a whole game through HTTP and WebSocket) is
in ``tests/web/test_any_game.py``.

Checked, over random games (hypothesis picks the seeds):
- random games end, with a result whose winners are seats;
- every legal move applies, and its canonical text round-trips;
- the factored choices reach only legal moves, and (where few) all of them;
- ``from_record(record(state))`` gives the live position;
- a seed determines the game;
- two states that differ only in what a seat cannot see (a determinized
  state) give that seat the same observation, choices and refusal messages.
"""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from civcards.game_api import (
    Choice,
    Game,
    MoveError,
    OptionsError,
    all_games,
    game_for_record,
    get_game,
    register,
    search_choice_path,
)

from . import toygame

register(toygame.GAME)

#: a random game longer than this many decisions is taken not to end
MAX_DECISIONS = 20_000


def game_names() -> list[str]:
    return [g.name for g in all_games()]


GAMES = sorted({*game_names(), "toy"})


def setups(game: Game) -> list[tuple[int, dict[str, Any]]]:
    """Every player count with the default options, plus each option flipped once."""
    out: list[tuple[int, dict[str, Any]]] = []
    for n in range(game.min_players, game.max_players + 1):
        out.append((n, game.check_options(n, {})))
        for spec in game.options:
            alt: Any
            if spec.kind == "bool":
                alt = not spec.default
            elif spec.kind == "choice":
                alt = next((c for c in spec.choices if c != spec.default), spec.default)
            else:
                alt = spec.maximum if spec.maximum is not None else spec.default
            # an option may be impossible with n players (e.g. teams need 4)
            with contextlib.suppress(OptionsError):
                out.append((n, game.check_options(n, {spec.name: alt})))
    return out


def pick(game: Game, state: Any, rng: random.Random) -> Choice:
    """A uniformly random final choice, step by step (as the random bot chooses)."""
    choice = rng.choice(game.choices(state))
    while not choice.final:
        choice = rng.choice(game.expand(state, choice).choices)
    return choice


def random_game(
    game: Game, seed: int, visit: Any = None
) -> tuple[Any, list[str], tuple[int, dict[str, Any]]]:
    """Play a random game; ``visit(state, step)`` is called before every move."""
    rng = random.Random(seed)
    all_setups = setups(game)
    n, opts = all_setups[seed % len(all_setups)]
    state = game.new_state(n, opts, seed)
    played: list[str] = []
    for step in range(MAX_DECISIONS):
        if state.finished:
            break
        if visit is not None:
            visit(state, step)
        choice = pick(game, state, rng)
        played.append(game.apply_choice(state, choice))
    return state, played, (n, opts)


def sampled(items: list[str], k: int, rng: random.Random) -> list[str]:
    return items if len(items) <= k else rng.sample(items, k)


SEEDS = st.integers(min_value=0, max_value=2**31)
FEW = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("name", GAMES)
@FEW
@given(seed=SEEDS)
def test_random_games_end_with_a_result(name: str, seed: int) -> None:
    game = get_game(name)
    state, played, (n, _) = random_game(game, seed)
    assert state.finished, f"{name}: no end after {MAX_DECISIONS} decisions"
    assert state.to_move is None
    result = game.result(state)
    assert result is not None
    assert result.winners and all(0 <= s < n for s in result.winners)
    assert len(result.scores) == n
    assert game.legal(state) == [] and game.choices(state) == []
    with pytest.raises(MoveError):
        game.play(state, played[-1])


@pytest.mark.parametrize("name", GAMES)
@FEW
@given(seed=SEEDS)
def test_legal_moves_apply_and_round_trip(name: str, seed: int) -> None:
    game = get_game(name)
    rng = random.Random(seed ^ 0x5EED)

    def visit(state: Any, step: int) -> None:
        if step % 7:
            return
        legal = game.legal(state)
        assert legal == sorted(set(legal)) or len(legal) == len(set(legal))
        assert legal, "a game that is on has a legal move"
        for text in sampled(legal, 12, rng):
            assert game.canonical(text) == text
            assert game.canonical(game.canonical(text)) == text
            copy = state.copy()
            before = json.dumps(game.position_json(state, legal=True), sort_keys=True)
            assert game.play(copy, text) == text
            # the original is untouched by playing on its copy
            assert json.dumps(game.position_json(state, legal=True), sort_keys=True) == before

    random_game(game, seed, visit)


@pytest.mark.parametrize("name", GAMES)
@FEW
@given(seed=SEEDS)
def test_choices_reach_exactly_the_legal_moves(name: str, seed: int) -> None:
    game = get_game(name)

    def finals(state: Any, choices: list[Choice], depth: int = 0) -> set[str]:
        out: set[str] = set()
        for c in choices:
            if c.final:
                out.add(c.text)
            else:
                assert depth < 8, "a step expands into further steps without end"
                out |= finals(state, game.expand(state, c).choices, depth + 1)
        return out

    def visit(state: Any, step: int) -> None:
        if step % 5:
            return
        legal = game.legal(state)
        if len(legal) > 400:
            return  # a large decision point: reachability is checked by random walks
        assert finals(state, game.choices(state)) == set(legal)

    random_game(game, seed, visit)


@pytest.mark.parametrize("name", GAMES)
@FEW
@given(seed=SEEDS)
def test_replay_of_the_record_is_the_live_game(name: str, seed: int) -> None:
    game = get_game(name)
    cut = random.Random(seed).randrange(1, 400)
    rng = random.Random(seed)
    n, opts = setups(game)[seed % len(setups(game))]
    state = game.new_state(n, opts, seed)
    for _ in range(cut):
        if state.finished:
            break
        game.apply_choice(state, pick(game, state, rng))
    record = json.loads(json.dumps(game.record(state)))
    assert game_for_record(record) is game
    again = game.from_record(record)
    assert game.position_json(again, legal=True) == game.position_json(state, legal=True)
    for seat in [None, *range(n)]:
        assert game.observe(again, seat).to_json() == game.observe(state, seat).to_json()
    assert game.record(again) == game.record(state)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=3, deadline=None)
@given(seed=SEEDS)
def test_a_seed_determines_the_game(name: str, seed: int) -> None:
    game = get_game(name)
    a, moves_a, _ = random_game(game, seed)
    b, moves_b, _ = random_game(game, seed)
    assert moves_a == moves_b
    assert game.record(a) == game.record(b)


def _public(game: Game, obs: Any) -> dict[str, Any]:
    out: dict[str, Any] = obs.to_json()
    for key in game.observation_log_keys:
        out.pop(key, None)
    return out


@pytest.mark.parametrize("name", GAMES)
@FEW
@given(seed=SEEDS)
def test_hidden_information_changes_nothing_a_seat_sees(name: str, seed: int) -> None:
    """Observations reveal nothing private: a state dealt anew where the seat to
    move cannot see (the determinizer) gives it the same observation, the same
    choices and the same refusals."""
    game = get_game(name)
    rng = random.Random(seed)
    probes: list[str] = []
    checked = [0]

    def visit(state: Any, step: int) -> None:
        probes.extend(sampled(game.legal(state), 3, rng))
        if step % 3:
            return
        seat = state.to_move
        obs = game.observe(state, seat)
        sampler = game.determinizer(obs)
        if sampler is None:
            return
        other = sampler.sample(random.Random(rng.random()))
        assert _public(game, game.observe(other, seat)) == _public(game, obs)
        assert game.choices(other) == game.choices(state)
        mine = set(game.legal(state))
        for text in sampled(probes, 10, rng):
            if text in mine:
                continue
            assert game.why_not(other, text) == game.why_not(state, text)
            refusals = []
            for s in (state, other):
                try:
                    game.play(s.copy(), text)
                except MoveError as e:
                    refusals.append(str(e))
            if len(refusals) == 2:
                assert refusals[0] == refusals[1]
        checked[0] += 1

    random_game(game, seed, visit)


@pytest.mark.parametrize("name", GAMES)
@FEW
@given(seed=SEEDS)
def test_the_choice_path_of_a_move_runs_through_the_choices(name: str, seed: int) -> None:
    """:meth:`Game.choice_path`: for legal moves of every few decisions, the path starts
    among :meth:`Game.choices`, each next choice is among the expansion of the step
    before it, and the last is final with the move's text; on a small decision it is
    the path a search of the whole tree finds. A move that is not legal gets a
    MoveError."""
    game = get_game(name)
    rng = random.Random(seed ^ 0xC4A1)
    checked = [0]

    def visit(state: Any, step: int) -> None:
        if step % 3:
            return
        legal = game.legal(state)
        for text in sampled(legal, 4, rng):
            path = game.choice_path(state, text)
            assert path and path[-1].final and path[-1].text == text
            level = game.choices(state)
            for i, c in enumerate(path):
                assert c in level, f"{c.text!r} (toward {text!r}) is not among the choices"
                if i + 1 < len(path):
                    assert not c.final
                    level = game.expand(state, c).choices
            checked[0] += 1
        if step % 12 == 0 and len(legal) <= 400:
            text = rng.choice(legal)
            assert game.choice_path(state, text) == search_choice_path(game, state, text)

    state, played, _ = random_game(game, seed, visit)
    assert checked[0]
    with pytest.raises(MoveError):
        game.choice_path(state, played[-1])


@pytest.mark.parametrize("name", GAMES)
def test_bad_set_up_and_bad_records_get_one_sentence(name: str) -> None:
    game = get_game(name)
    for players in (game.min_players - 1, game.max_players + 1, "two", True):
        with pytest.raises(OptionsError) as e:
            game.check_options(players, {})  # type: ignore[arg-type]
        assert str(e.value) and "\n" not in str(e.value)
    with pytest.raises(OptionsError):
        game.check_options(game.min_players, {"no-such-option": 1})
    state = game.new_state(game.min_players, game.check_options(game.min_players, {}), 1)
    record = game.record(state)
    broken = {**record, "players": 99}
    with pytest.raises(Exception) as e2:
        game.from_record(broken)
    assert isinstance(e2.value, ValueError) and "\n" not in str(e2.value)
    for junk in ("", "   ", "no such move at all", "∞"):
        with pytest.raises(MoveError):
            game.play(state, junk)
    assert game.record(state) == record, "a refused move changed the game"


def test_the_registry_lists_every_game_with_its_formats() -> None:
    names = game_names()
    assert "carta" in names and "toy" in names
    formats = [f for g in all_games() for f in g.record_formats]
    assert len(formats) == len(set(formats)), "two games claim one record format"
