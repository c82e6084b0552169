"""A network that spells whole moves (issue 37): ``net`` chooses each token of a civ4 move
(its payments and card sets too) with one forward pass a token, imitation teaches every
token, and policy gradient keeps a row per spelled token."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from civcards.bots import make_bot
from civcards.bots.base import bot_choice
from civcards.bots.netsearch import NetSearchBot
from civcards.bots.policy_net import PolicyValueNet
from civcards.game_api import choice_path, default_options, get_game
from civcards.learn.pg import PGGames, iteration_seeds, play_pg_game
from civcards.learn.selfplay import ExampleConfig, play_example_game, spelled_rows
from tests.test_learning import _play_conformant_game


def spelling_net(path: Path, spell: bool = True, seed: int = 3) -> Path:
    """A small civ4 network of random weights whose file says it spells (or not)."""
    enc = get_game("civ4").encoding()
    assert enc is not None
    net = PolicyValueNet.fresh(
        enc.observation_shape[0], enc.action_size, hidden=24, trunk=16, seed=seed
    )
    net.arrays["mean"][:] = 0.5
    net.arrays["scale"][:] = 2.0
    meta = {"game": "civ4", **({"spell": True} if spell else {})}
    PolicyValueNet(net.arrays, meta).save(path)
    return path


def test_net_spells_each_token_and_follows_the_move_through_its_steps(tmp_path: Path) -> None:
    """Each pass picks the most probable legal token; the passes are the move's actions in
    the encoding (forced tokens taken by the table); a move through factored steps (a
    payment below a purchase) is answered step by step along its path."""
    game = get_game("civ4")
    enc = game.encoding()
    assert enc is not None
    path = spelling_net(tmp_path / "s.npz")
    bot = make_bot(game, f"net:{path}", seed=1)
    assert isinstance(bot, NetSearchBot) and bot.spell
    net = PolicyValueNet.load(path)
    greedy = make_bot(game, "greedy", seed=2)
    state = game.new_state(2, game.check_options(2, default_options(game, 2)), 5)
    spelled = 0
    while state.to_move is not None and spelled < 40:
        if state.to_move == 1:
            game.apply_choice(state, bot_choice(greedy, game, state))
            continue
        many = len(game.choices(state)) > 1
        pick = bot_choice(bot, game, state)
        if many:
            steps = bot.last_steps
            assert [s.action for s in steps] == enc.action_of(enc.table(state), pick.text)
            for s in steps:
                probs, _ = net.evaluate(s.x, s.legal)
                assert s.action == s.legal[int(np.argmax(probs))]
                assert math.isclose(s.logp, math.log(float(probs.max())), abs_tol=1e-5)
            spelled += 1
        game.apply_choice(state, pick)
    assert spelled == 40
    # a move through steps: a network that prefers the tokens of greedy's move plays it
    state = game.new_state(2, game.check_options(2, default_options(game, 2)), 5)
    while state.to_move is not None:
        chosen = bot_choice(greedy, game, state)
        move = chosen.text
        # (a collect names one amount a plot: the same tokens again, so not one of those)
        if len(choice_path(game, state, move)) > 2 and not move.startswith("collect"):
            break
        game.apply_choice(state, chosen)
    assert state.to_move is not None
    biased = PolicyValueNet.load(path)
    biased.arrays["bp"][enc.action_of(enc.table(state), move)] += 50.0
    biased.save(tmp_path / "b.npz")
    follower = make_bot(game, f"net:{tmp_path / 'b.npz'}", seed=1)
    assert bot_choice(follower, game, state).text == move


def test_the_file_says_whether_net_spells_and_the_name_may_say_otherwise(tmp_path: Path) -> None:
    game = get_game("civ4")
    plain = spelling_net(tmp_path / "p.npz", spell=False)
    spells = spelling_net(tmp_path / "s.npz")
    assert not NetSearchBot(game, 1, weights=str(plain), iterations=0).spell
    assert NetSearchBot(game, 1, weights=str(spells), iterations=0).spell
    first = make_bot(game, f"net:first:{spells}", seed=1)
    forced = make_bot(game, f"net:spell:{plain}", seed=1)
    assert isinstance(first, NetSearchBot) and not first.spell
    assert isinstance(forced, NetSearchBot) and forced.spell
    state = game.new_state(2, game.check_options(2, default_options(game, 2)), 3)
    while len(game.choices(state)) < 2:
        game.apply_choice(state, game.choices(state)[0])
    bot_choice(first, game, state)
    bot_choice(forced, game, state)
    assert not first.last_steps and forced.last_steps
    with pytest.raises(ValueError, match="options of net"):
        make_bot(game, f"ismcts+net:10it:spell:{spells}", seed=1)
    with pytest.raises(ValueError, match="not spelled in tokens"):
        make_bot(get_game("carta"), "net:spell", seed=1)


@pytest.mark.parametrize("spec", ["net", "net:sample"])
def test_a_spelling_net_plays_conformant_whole_games(spec: str, tmp_path: Path) -> None:
    _play_conformant_game("civ4", f"{spec}:{spelling_net(tmp_path / 's.npz')}")


def test_spelled_imitation_teaches_every_token_of_the_teachers_moves() -> None:
    """``spell="all"``: a row for each token that was a choice, its target the teacher's
    token, the observation with the tokens before it; ``rest``: the same without each
    move's first token."""
    game = get_game("civ4")
    enc = game.encoding()
    assert enc is not None
    state = game.new_state(2, game.check_options(2, default_options(game, 2)), 9)
    greedy = make_bot(game, "greedy", seed=1)
    longer = 0
    while state.to_move is not None and longer < 5:
        seat = state.to_move
        pick = bot_choice(greedy, game, state)
        acts = enc.action_of(enc.table(state), pick.text)
        table = enc.table(state.copy())
        counts = []
        for a in acts:
            counts.append(len(table.legal_actions()))
            table.apply(a)
        every = spelled_rows(enc, state, pick.text, seat, rest=False)
        rest = spelled_rows(enc, state, pick.text, seat, rest=True)
        assert [next(iter(t)) for _, t, _ in every] == [
            a for a, k in zip(acts, counts, strict=True) if k > 1
        ]
        assert [next(iter(t)) for _, t, _ in rest] == [
            a for i, (a, k) in enumerate(zip(acts, counts, strict=True)) if k > 1 and i > 0
        ]
        assert all(s == seat for _, _, s in every)
        if len(every) >= 2:
            # the observation changes with the tokens chosen before
            assert not np.array_equal(every[0][0], every[1][0])
            longer += 1
        game.apply_choice(state, pick)
    assert longer == 5
    first = play_example_game(ExampleConfig("civ4", "imitate", 1, 0), 0, game)
    spelled = play_example_game(ExampleConfig("civ4", "imitate", 1, 0, spell="all"), 0, game)
    assert len(spelled) > len(first)


def test_policy_gradient_keeps_a_row_per_spelled_token(tmp_path: Path) -> None:
    game = get_game("civ4")
    path = spelling_net(tmp_path / "s.npz")
    cfg = PGGames("civ4", str(path), "greedy", 2, iteration_seeds(1, 1, 2))
    got = play_pg_game(cfg, 0, game)
    plain = play_pg_game(
        PGGames("civ4", str(spelling_net(tmp_path / "p.npz", spell=False)), "greedy", 2, cfg.seeds),
        0,
        game,
    )
    assert len(got) > len(plain) > 5
    net = PolicyValueNet.load(path)
    obs, legal = got.obs.dense(), got.legal.dense()
    for r in range(0, len(got), 7):
        among = [int(a) for a in np.flatnonzero(legal[r])]
        assert len(among) > 1 and int(got.actions[r]) in among
        probs, _ = net.evaluate(obs[r], among)
        p = probs[among.index(int(got.actions[r]))]
        assert math.isclose(float(got.logp[r]), math.log(p), abs_tol=1e-3)


def test_train_refuses_bad_spelling_options_in_sentences(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from civcards.cli import app

    runner = CliRunner()
    out = str(tmp_path / "r")
    bad = runner.invoke(app, ["train", "--game", "civ4", "--spell", "most", "--out", out])
    assert bad.exit_code == 2 and "--spell must be all or rest" in bad.output
    lone = runner.invoke(app, ["train", "--game", "civ4", "--init-epochs", "2", "--out", out])
    assert lone.exit_code == 2 and "--init-epochs trains an --init network" in lone.output
    carta = runner.invoke(app, ["train", "--game", "carta", "--spell", "all", "--out", out])
    assert carta.exit_code == 2 and "moves are not spelled in tokens" in carta.output
    assert "Traceback" not in bad.output + lone.output + carta.output
    assert not (tmp_path / "r").exists()


def test_a_spelled_warm_start_marks_its_network(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from civcards.learn.loop import TrainConfig, run_training

    game = get_game("civ4")
    init = spelling_net(tmp_path / "i.npz", spell=False)
    cfg = TrainConfig(
        game="civ4",
        warm_games=2,
        gauntlet=2,
        gauntlet_search=0,
        init=str(init),
        init_epochs=1,
        spell="rest",
        validation=0.0,
    )
    state = run_training(game, cfg, tmp_path / "run", 1)
    net = PolicyValueNet.load(tmp_path / "run" / state["latest"])
    assert net.meta["spell"] is True
    before = PolicyValueNet.load(init)
    assert not np.array_equal(net.arrays["w1"], before.arrays["w1"])  # it trained
