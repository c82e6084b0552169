"""Bots that learn (issue 37): the policy-value network, ``net`` and ``ismcts+net``,
and ``civcards train``'s checkpoints.

The network's forward pass is checked in NumPy alone (CI installs no PyTorch)
and against PyTorch's where PyTorch is installed (the ``train`` extra).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from civcards.bots import make_bot
from civcards.bots.netsearch import NetSearchBot
from civcards.bots.policy_net import (
    PolicyValueNet,
    action_for_text,
    action_names,
    shared_priors,
)
from civcards.bots.search import searchable
from civcards.game_api import all_games, default_options, get_game
from civcards.sim.simulate import play_seated

LEARNABLE = sorted(
    g.name
    for g in all_games()
    # a game registered by another test (the toy game) may have no encoding member at all
    if getattr(g, "encoding", None) is not None and g.encoding() is not None and searchable(g)
)


def small_net(game_name: str, path: Path, seed: int = 3) -> Path:
    """A small network of random weights for the game, written to ``path``."""
    enc = get_game(game_name).encoding()
    assert enc is not None
    net = PolicyValueNet.fresh(
        enc.observation_shape[0], enc.action_size, hidden=24, trunk=16, seed=seed
    )
    net.arrays["mean"][:] = 0.5
    net.arrays["scale"][:] = 2.0
    net = PolicyValueNet(net.arrays, {"game": game_name})
    net.save(path)
    return path


def test_both_games_are_learnable() -> None:
    assert {"carta", "civ4"} <= set(LEARNABLE)


def test_numpy_forward_is_the_layers(tmp_path: Path) -> None:
    """The NumPy pass, written out by hand from the stored arrays (after a float16 save)."""
    net = PolicyValueNet.load(small_net("carta", tmp_path / "n.npz"))
    a = net.arrays
    rng = np.random.default_rng(0)
    x = rng.random(net.obs_size).astype(np.float32) * 3
    v = (x - a["mean"]) / a["scale"]
    h = np.maximum(np.maximum(v @ a["w1"] + a["b1"], 0) @ a["w2"] + a["b2"], 0)
    logits, value = net.forward(x)
    assert np.allclose(logits, h @ a["wp"] + a["bp"], atol=1e-5)
    assert np.isclose(value, (h @ a["wv"] + a["bv"])[0], atol=1e-5)
    legal = [3, 17, 200, 5000]
    probs, chance = net.evaluate(x, legal)
    z = np.exp(logits[legal] - logits[legal].max())
    assert np.allclose(probs, z / z.sum(), atol=1e-5)
    assert np.isclose(chance, 1 / (1 + np.exp(-value)), atol=1e-6)


def test_weights_round_trip_and_refuse_other_files(tmp_path: Path) -> None:
    path = small_net("carta", tmp_path / "n.npz")
    net = PolicyValueNet.load(path)
    assert net.meta["game"] == "carta" and net.meta["format"] == 1
    again = tmp_path / "again.npz"
    net.save(again)
    back = PolicyValueNet.load(again)
    for k, arr in net.arrays.items():
        assert np.array_equal(arr, back.arrays[k]), k
    bad = tmp_path / "bad.npz"
    bad.write_text("not weights")
    with pytest.raises(ValueError, match="not a network's weights file"):
        PolicyValueNet.load(bad)
    game = get_game("civ4")
    with pytest.raises(ValueError, match="another game's encoding"):
        make_bot(game, f"net:{path}")
    with pytest.raises(ValueError, match="no network for"):
        make_bot(game, f"net:{tmp_path / 'missing.npz'}")


def test_numpy_forward_equals_pytorch(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch", reason="PyTorch is the train extra, not installed")
    from civcards.learn.torch_net import TorchPolicyValue

    net = PolicyValueNet.load(small_net("civ4", tmp_path / "n.npz"))
    model = TorchPolicyValue(net)
    rng = np.random.default_rng(1)
    x = (rng.random((5, net.obs_size)) * 4).astype(np.float32)
    logits, value = net.forward(x)
    with torch.no_grad():
        tl, tv = model(torch.tensor(x))
    assert np.allclose(logits, tl.numpy(), atol=1e-4)
    assert np.allclose(value, tv.numpy(), atol=1e-4)
    # and back: the module's weights make the same NumPy network
    assert np.allclose(model.to_numpy().forward(x)[0], logits, atol=1e-5)


def test_every_carta_move_has_its_action() -> None:
    """Every final choice's text (and a hidden step's) names a legal action of the encoding."""
    game = get_game("carta")
    enc = game.encoding()
    assert enc is not None
    bot = make_bot(game, "greedy", seed=2)
    state = game.new_state(3, game.check_options(3, default_options(game)), 5)
    from civcards.bots import bot_choice

    checked = 0
    while state.to_move is not None and checked < 400:
        table = enc.table(state)
        names = action_names(table, table.legal_actions())
        for c in game.choices(state):
            a = action_for_text(names, c.text)
            assert a is not None, c.text
            assert enc.action_of(table, c.text)[0] == a if c.final else True
            checked += 1
        game.apply_choice(state, bot_choice(bot, game, state))
    assert checked > 50


def test_shared_priors() -> None:
    # two branches of action 7 share its probability; an unknown branch gets the mean
    out = shared_priors({7: 0.6, 9: 0.4}, [7, 7, 9, None])
    assert np.isclose(sum(out), 1.0)
    assert np.isclose(out[0], out[1]) and out[2] > out[0]
    assert shared_priors({}, []) == []


def _play_conformant_game(name: str, spec: str) -> None:
    """``spec`` plays a whole 2-player game against ``greedy`` under the conformance
    suite's checks (tests/test_conformance.py) on its moves: each is one of the legal
    moves and its text round-trips; the game ends with a result whose winners are seats;
    the record replays to the live game."""
    import json

    from civcards.bots.base import bot_choice
    from civcards.game_api import game_for_record

    game = get_game(name)
    state = game.new_state(2, game.check_options(2, default_options(game, 2)), 11)
    bots = [make_bot(game, spec, seed=1), make_bot(game, "greedy", seed=2)]
    mine = 0
    while state.to_move is not None:
        seat = state.to_move
        pick = bot_choice(bots[seat], game, state)
        if seat == 0:
            if mine % 3 == 0:  # a civ4 position's legal moves take a while to list
                assert pick.text in game.legal(state)
                assert game.canonical(pick.text) == pick.text
            mine += 1
        game.apply_choice(state, pick)
    result = game.result(state)
    assert mine > 5 and result is not None
    assert result.winners and all(0 <= w < 2 for w in result.winners)
    record = json.loads(json.dumps(game.record(state)))
    assert game_for_record(record) is game
    again = game.from_record(record)
    assert game.position_json(again, legal=True) == game.position_json(state, legal=True)


@pytest.mark.parametrize("name", LEARNABLE)
@pytest.mark.parametrize("spec", ["net", "ismcts+net:4it"])
def test_net_bots_play_conformant_whole_games(name: str, spec: str, tmp_path: Path) -> None:
    """The bots, with a small network of random weights, play whole games of every
    learnable game under the conformance checks (:func:`_play_conformant_game`)."""
    _play_conformant_game(name, f"{spec}:{small_net(name, tmp_path / 'n.npz')}")


@pytest.mark.parametrize("name", ["carta", "civ4"])
@pytest.mark.parametrize("spec", ["net", "ismcts+net:4it"])
def test_shipped_networks_are_listed_and_play_conformant_whole_games(name: str, spec: str) -> None:
    """Both games ship a network (issue 37: ``net`` and ``ismcts+net`` for both games):
    the bots are listed and play whole games with it under the conformance checks."""
    from civcards.bots import bot_names
    from civcards.bots.netsearch import has_network

    game = get_game(name)
    assert has_network(game)
    assert {"net", "ismcts+net"} <= set(bot_names(game))
    _play_conformant_game(name, spec)


def test_examples_keep_observations_sparse_and_read_the_first_files(tmp_path: Path) -> None:
    """The buffers keep observations as sparse rows (a fraction of the dense size), rows
    taken, cut and joined as the dense ones would be; a file of the first format (dense
    float16 ``obs``) reads the same."""
    from civcards.learn.loop import load_examples, save_examples
    from civcards.learn.selfplay import TARGET_WIDTH, Examples, SparseObs

    rng = np.random.default_rng(4)
    dense = ((rng.random((500, 300)) < 0.05) * rng.integers(1, 40, (500, 300))).astype(np.float16)
    obs = SparseObs.from_dense(dense, chunk=64)
    assert obs.shape == dense.shape and obs.nbytes < dense.nbytes / 5
    assert (obs.dense(dtype=np.float16) == dense).all()
    rows = rng.integers(0, 500, 77)
    assert (obs.take(rows).dense() == dense[rows]).all()
    assert (obs.dense(rows) == dense[rows]).all()
    assert (obs.tail(30).dense() == dense[-30:]).all()
    joined = SparseObs.concat([obs.take(np.arange(5)), SparseObs.empty(300), obs.tail(4)], 300)
    assert (joined.dense() == np.concatenate([dense[:5], dense[-4:]])).all()
    acts = rng.integers(0, 50, (500, TARGET_WIDTH)).astype(np.int32)
    shares = rng.random((500, TARGET_WIDTH)).astype(np.float32)
    outs = rng.random(500).astype(np.float32)
    save_examples(tmp_path / "new.npz", Examples(obs, acts, shares, outs))
    with open(tmp_path / "old.npz", "wb") as f:
        np.savez(f, obs=dense, actions=acts, shares=shares, outcomes=outs)
    assert (tmp_path / "new.npz").stat().st_size < (tmp_path / "old.npz").stat().st_size / 3
    for name in ("new.npz", "old.npz"):
        back = load_examples(tmp_path / name, 300)
        assert (back.obs.dense(dtype=np.float16) == dense).all()
        assert (back.actions == acts).all() and (back.shares == shares).all()
        assert (back.outcomes == outs).all()
    assert len(load_examples(tmp_path / "missing.npz", 300)) == 0


def test_warm_start_holds_out_games_and_stops_early(tmp_path: Path) -> None:
    """``validation`` holds out a share of the warm start's games (whole games, spread
    evenly): the curve gives their loss after every epoch and the network is the best
    epoch's; once generation 0 is done the setting no longer blocks a resume."""
    pytest.importorskip("torch", reason="PyTorch is the train extra, not installed")
    from civcards.learn.loop import TrainConfig, held_out, run_training

    assert [i for i in range(30) if held_out(i, 0.1)] == [9, 19, 29]
    assert not any(held_out(i, 0.0) for i in range(30))
    game = get_game("carta")
    small: dict[str, Any] = dict(
        seed=3, warm_games=4, games=1, iterations=2, epochs=1, hidden=8, trunk=8, expert=""
    )
    lines: list[str] = []
    cfg = TrainConfig(
        "carta", **small, warm_epochs=6, validation=0.5, gauntlet=0, gauntlet_search=0, lr=0.05
    )
    state = run_training(game, cfg, tmp_path / "r", 1, log=lines.append)
    g0 = state["curve"][0]
    assert g0["validation_examples"] > 0 and g0["examples"] > 0
    losses = g0["losses"]
    history = losses["epochs"]
    assert 1 <= len(history) <= 6 and [h["epoch"] for h in history] == list(
        range(1, len(history) + 1)
    )
    best = min(history, key=lambda h: h["valid_policy"] + h["valid_value"])
    assert losses["epoch"] == best["epoch"]
    assert any("validation" in line for line in lines)
    # a finished generation 0 resumes whatever --validation says now
    again = TrainConfig(
        "carta", **small, warm_epochs=6, validation=0.0, gauntlet=0, gauntlet_search=0, lr=0.05
    )
    assert run_training(game, again, tmp_path / "r", 1)["generation"] == 0


def test_net_leaves_the_moves_of_its_action_to_the_kit(tmp_path: Path) -> None:
    """Where several moves begin with the action ``net`` chose (civ4's discards and
    collections: one action ``discard``, many card sets), they share its prior and the
    kit's own choice (civ4: greedy's) is played, not the first of them."""
    from civcards.bots.base import bot_choice
    from civcards.bots.policy_net import action_for_text, action_names

    game = get_game("civ4")
    enc = game.encoding()
    assert enc is not None
    net = make_bot(game, f"net:{small_net('civ4', tmp_path / 'n.npz')}", seed=1)
    greedy = make_bot(game, "greedy", seed=1)
    state = game.new_state(2, game.check_options(2, default_options(game, 2)), 5)
    checked = 0
    while state.to_move is not None and checked < 6:
        pick = bot_choice(greedy, game, state)
        choices = game.choices(state)
        table = enc.table(state)
        names = action_names(table, table.legal_actions())
        acts = {action_for_text(names, c.text) for c in choices}
        if len(choices) > 2 and len(acts) == 1 and None not in acts:
            assert bot_choice(net, game, state).text == pick.text
            checked += 1
        game.apply_choice(state, pick)
    assert checked >= 3


def test_net_plays_three_players_and_samples(tmp_path: Path) -> None:
    path = small_net("carta", tmp_path / "n.npz")
    r = play_seated(get_game("carta"), [f"net:{path}", f"net:sample:{path}", "greedy"], 4)
    assert r.winners


def test_net_search_records_targets(tmp_path: Path) -> None:
    """A searched decision's target is a distribution over legal actions of its seat."""
    game = get_game("carta")
    enc = game.encoding()
    assert enc is not None
    path = small_net("carta", tmp_path / "n.npz")
    bot = make_bot(game, f"ismcts+net:16it:{path}", seed=1)
    assert isinstance(bot, NetSearchBot)
    bot.records = []
    state = game.new_state(2, game.check_options(2, default_options(game)), 9)
    from civcards.bots import bot_choice

    while not bot.records:
        game.apply_choice(state, bot_choice(bot, game, state))
    x, target = bot.records[0]
    assert np.isclose(sum(target.values()), 1.0)
    assert x.shape == enc.observation_shape
    assert bot.last_iterations == 16


def weights_digest(path: Path) -> str:
    """The SHA-256 of a network file's arrays (two runs made the same weights)."""
    net = PolicyValueNet.load(path)
    h = hashlib.sha256()
    for k in sorted(net.arrays):
        h.update(net.arrays[k].tobytes())
    return h.hexdigest()


def test_resume_makes_the_same_next_generation(tmp_path: Path) -> None:
    """A run stopped after generation 0 and resumed makes the generation 1 of an unbroken
    run of the same seed (and a folder refuses other settings)."""
    pytest.importorskip("torch", reason="PyTorch is the train extra, not installed")
    from civcards.learn.loop import TrainConfig, run_training

    game = get_game("carta")
    cfg: dict[str, Any] = dict(
        seed=5,
        warm_games=3,
        games=2,
        iterations=3,
        epochs=1,
        warm_epochs=1,
        hidden=16,
        trunk=8,
        gauntlet=0,
        gauntlet_search=0,
    )
    whole = tmp_path / "whole"
    run_training(game, TrainConfig("carta", **cfg), whole, 2)
    broken = tmp_path / "broken"
    run_training(game, TrainConfig("carta", **cfg), broken, 1)
    # a crash mid-generation leaves files that run.json does not name yet
    (broken / "net-g001.npz").write_bytes(b"half written")
    state = run_training(game, TrainConfig("carta", **cfg), broken, 2)
    assert state["generation"] == 1
    assert weights_digest(whole / "net-g001.npz") == weights_digest(broken / "net-g001.npz")
    assert (broken / "curve.json").is_file()
    with pytest.raises(ValueError, match="other settings"):
        run_training(game, TrainConfig("carta", **{**cfg, "seed": 6}), broken, 3)


def test_expert_iteration_learns_the_search_and_resumes_the_same(tmp_path: Path) -> None:
    """With an expert, generation 1 learns from the plain search's root visits, mixed
    with warm-start examples; a resume on a machine without the self-play data (no
    buffer, no warm.npz) plays the warm games again and makes the same generation 1."""
    pytest.importorskip("torch", reason="PyTorch is the train extra, not installed")
    from civcards.learn.loop import WARM_FILE, TrainConfig, run_training
    from civcards.learn.selfplay import ExampleConfig, play_example_game

    game = get_game("carta")
    visits = ExampleConfig("carta", "imitate", 1, 1, teacher="ismcts:10it", target="visits")
    ex = play_example_game(visits, 0, game)
    spread = (ex.shares > 0).sum(axis=1)
    assert len(ex) > 20 and spread.max() > 1  # visit shares, not one move
    assert np.allclose(ex.shares.sum(axis=1), 1.0)
    moves = play_example_game(
        ExampleConfig("carta", "imitate", 1, 1, teacher="ismcts:10it"), 0, game
    )
    assert len(moves) == len(ex) and ((moves.shares > 0).sum(axis=1) == 1).all()
    assert (moves.outcomes == ex.outcomes).all()  # the same games
    cfg = TrainConfig(
        "carta",
        seed=2,
        warm_games=3,
        games=1,
        epochs=1,
        warm_epochs=1,
        hidden=16,
        trunk=8,
        gauntlet=0,
        gauntlet_search=0,
        expert="ismcts:8it",
        warm_mix=0.5,
    )
    whole = tmp_path / "whole"
    run_training(game, cfg, whole, 2)
    moved = tmp_path / "moved"
    run_training(game, cfg, moved, 1)
    (moved / WARM_FILE).unlink()
    (moved / "buffer-g000.npz").unlink()
    run_training(game, cfg, moved, 2)
    assert weights_digest(whole / "net-g001.npz") == weights_digest(moved / "net-g001.npz")
    assert weights_digest(whole / "net-g001.npz") != weights_digest(whole / "net-g000.npz")


def test_a_run_of_the_first_method_resumes_with_its_settings(tmp_path: Path) -> None:
    """run.json written before --expert existed resumes as self-play (the LEGACY settings)."""
    pytest.importorskip("torch", reason="PyTorch is the train extra, not installed")
    import json

    from civcards.learn.loop import TrainConfig, run_training

    game = get_game("carta")
    small: dict[str, Any] = dict(
        seed=1, warm_games=2, games=1, iterations=2, epochs=1, warm_epochs=1, hidden=8, trunk=8
    )
    out = tmp_path / "old"
    run_training(game, TrainConfig("carta", **small, gauntlet=0, gauntlet_search=0), out, 1)
    state = json.loads((out / "run.json").read_text())
    for key in ("expert", "expert_target", "warm_mix", "lr", "init"):
        del state["config"][key]
    (out / "run.json").write_text(json.dumps(state))
    again = run_training(game, TrainConfig("carta", **small, gauntlet=0, gauntlet_search=0), out, 2)
    assert again["generation"] == 1
    with pytest.raises(ValueError, match="other settings"):
        cfg = TrainConfig("carta", **small, gauntlet=0, gauntlet_search=0, expert="ismcts:8it")
        run_training(game, cfg, out, 3)


def test_train_command_refuses_bad_input_in_sentences(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from civcards.cli import app

    runner = CliRunner()
    bad = runner.invoke(
        app, ["train", "--game", "carta", "--games", "0", "--out", str(tmp_path / "r")]
    )
    assert bad.exit_code == 2
    assert "--games must be at least 1" in bad.output
    assert "Traceback" not in bad.output
    assert not (tmp_path / "r").exists()
    expert = runner.invoke(
        app, ["train", "--game", "carta", "--expert", "nosuchbot", "--out", str(tmp_path / "r")]
    )
    assert expert.exit_code == 2 and "--expert:" in expert.output
    assert "Traceback" not in expert.output and not (tmp_path / "r").exists()
    unknown = runner.invoke(app, ["train", "--game", "nosuchgame"])
    assert unknown.exit_code == 2 and "Traceback" not in unknown.output
    (tmp_path / "file").write_text("x")
    clash = runner.invoke(app, ["train", "--game", "carta", "--out", str(tmp_path / "file")])
    assert clash.exit_code == 2 and "is a file" in clash.output


def test_playing_and_the_cli_never_import_torch(tmp_path: Path) -> None:
    """Playing needs NumPy only: the CLI and both bots leave PyTorch unimported."""
    import subprocess
    import sys

    path = small_net("carta", tmp_path / "n.npz")
    code = (
        "import sys\n"
        "from civcards.cli import build_app\n"
        "from civcards.game_api import get_game\n"
        "from civcards.sim.simulate import play_seated\n"
        "build_app()\n"
        f"play_seated(get_game('carta'), ['net:{path}', 'ismcts+net:3it:{path}'], 1)\n"
        "print('torch' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
