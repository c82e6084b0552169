"""``civcards train --method pg`` (issue 37): policy-gradient fine-tuning's games, its
checkpoints and resume, and its options.

The games and the option checks need NumPy only (they run in CI); the runs need
PyTorch (the ``train`` extra) and are skipped without it.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from civcards.bots.policy_net import PolicyValueNet
from civcards.game_api import get_game
from civcards.learn.pg import PGConfig, PGGames, iteration_seeds, play_pg_game
from tests.test_learning import weights_digest


def small_net(game_name: str, path: Path, seed: int = 3) -> Path:
    """A small network of random weights for the game, written to ``path``."""
    enc = get_game(game_name).encoding()
    assert enc is not None
    net = PolicyValueNet.fresh(
        enc.observation_shape[0], enc.action_size, hidden=16, trunk=8, seed=seed
    )
    net = PolicyValueNet(net.arrays, {"game": game_name})
    net.save(path)
    return path


@pytest.mark.parametrize("name", ["carta", "civ4"])
def test_a_game_keeps_the_networks_decisions_and_their_probabilities(
    name: str, tmp_path: Path
) -> None:
    """Each kept decision: the seat's observation, the actions of its moves, the action
    drawn among them and its log-probability under the network (renormalised over those
    actions); the network's share of the victory. The same game twice is the same."""
    game = get_game(name)
    path = small_net(name, tmp_path / "n.npz")
    cfg = PGGames(name, str(path), "greedy", 2, iteration_seeds(1, 1, 2))
    got = play_pg_game(cfg, 1, game)
    assert got.index == 1 and len(got) > 5
    assert got.share in (0.0, 0.5, 1.0)
    net = PolicyValueNet.load(path)
    obs, legal = got.obs.dense(), got.legal.dense()
    for r in range(len(got)):
        among = [int(a) for a in np.flatnonzero(legal[r])]
        assert len(among) > 1 and int(got.actions[r]) in among
        probs, _ = net.evaluate(obs[r], among)
        p = probs[among.index(int(got.actions[r]))]
        assert math.isclose(float(got.logp[r]), math.log(p), abs_tol=1e-4)
    # the observations are copies: rows differ (encode() may reuse one buffer)
    assert len({obs[r].tobytes() for r in range(len(got))}) > len(got) // 2
    again = play_pg_game(cfg, 1, game)
    assert np.array_equal(again.actions, got.actions) and again.share == got.share


def test_bad_options_get_one_sentence_and_exit_2(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from civcards.cli import app

    runner = CliRunner()
    out = tmp_path / "r"
    cases = [
        (["--method", "pg", "--clip", "1.5"], "--clip must be more than 0 and less than 1"),
        (["--method", "pg", "--games", "0"], "--games must be at least 1"),
        (["--method", "pg", "--eval-every", "0"], "--eval-every must be at least 1"),
        (["--method", "pg", "--lr", "0"], "--lr must be more than 0"),
        (["--method", "pg", "--opponent", "nosuchbot"], "--opponent: unknown bot"),
        (["--method", "pg", "--init", str(tmp_path / "none.npz")], "--init: no network"),
        (["--method", "pg", "--generations", "3"], "--method pg counts --iterations"),
        (["--method", "nope"], "--method must be one of expert, pg"),
        (["--entropy", "0.01"], "--entropy is an option of --method pg only"),
        # the expert method's own options are refused, not ignored
        (["--method", "pg", "--warm-games", "10"], "--warm-games is an option of --method expert"),
        (["--method", "pg", "--spell", "all"], "--spell is an option of --method expert only"),
        (["--method", "pg", "--hidden", "64"], "--hidden is an option of --method expert only"),
    ]
    for args, sentence in cases:
        res = runner.invoke(app, ["train", "--game", "carta", "--out", str(out), *args])
        assert res.exit_code == 2, args
        assert sentence in res.output, (args, res.output)
        assert "Traceback" not in res.output
        assert not out.exists()


def _small(init: Path, **kw: Any) -> PGConfig:
    return PGConfig(
        "carta", str(init), seed=4, games=3, epochs=1, batch=32, eval=2, eval_every=2, **kw
    )


def test_a_run_writes_checkpoints_and_curve_and_resumes_the_same(tmp_path: Path) -> None:
    """A run stopped after iteration 1 (and a half-written iteration 2) resumes to the
    iteration 2 of an unbroken run, bit for bit; a folder refuses other settings."""
    pytest.importorskip("torch", reason="PyTorch is the train extra, not installed")
    from civcards.learn.pg import run_pg

    game = get_game("carta")
    init = small_net("carta", tmp_path / "init.npz")
    whole = tmp_path / "whole"
    state = run_pg(game, _small(init), whole, 2)
    assert state["iteration"] == 2 and state["latest"] == "net-i002.npz"
    for name in ("net-i000.npz", "net-i002.npz", "curve.json", "curve.png", "run.json"):
        assert (whole / name).is_file(), name
    assert not (whole / "net-i001.npz").exists()  # neither the first, last nor evaluated
    curve = json.loads((whole / "curve.json").read_text())
    assert [c["iteration"] for c in curve] == [0, 1, 2]
    m = curve[2]["gauntlet"]["net_vs_greedy"]
    assert m["games"] == 2 and m["low"] <= m["rate"] <= m["high"]
    assert curve[1]["examples"] > 0 and "gauntlet" not in curve[1]
    assert weights_digest(whole / "net-i000.npz") == weights_digest(init)
    assert weights_digest(whole / "net-i002.npz") != weights_digest(init)

    broken = tmp_path / "broken"
    run_pg(game, _small(init), broken, 1)
    (broken / "net-i002.npz").write_bytes(b"half written")  # killed mid-iteration
    again = run_pg(game, _small(init), broken, 2)
    assert again["iteration"] == 2
    assert weights_digest(broken / "net-i002.npz") == weights_digest(whole / "net-i002.npz")
    with pytest.raises(ValueError, match="other settings"):
        run_pg(game, _small(init, lr=1e-3), broken, 3)
    # a checkout with only the committed (evaluated) networks makes the missing ones again
    (broken / "net-i002.npz").unlink()
    assert run_pg(game, _small(init), broken, 2)["iteration"] == 2
    assert weights_digest(broken / "net-i002.npz") == weights_digest(whole / "net-i002.npz")
    # the evaluation's sizes may change
    run_pg(game, replace(_small(init), eval=0), broken, 2)
    # a folder of the study script's runs (networks, no run.json) is left alone
    study = tmp_path / "study"
    study.mkdir()
    (study / "net-i016.npz").write_bytes((whole / "net-i002.npz").read_bytes())
    with pytest.raises(ValueError, match=r"no run\.json"):
        run_pg(game, _small(init), study, 1)
    assert [p.name for p in study.iterdir()] == ["net-i016.npz"]


def test_the_command_runs_and_says_how_to_resume(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="PyTorch is the train extra, not installed")
    from typer.testing import CliRunner

    from civcards.cli import app

    init = small_net("civ4", tmp_path / "init.npz")
    out = tmp_path / "run"
    args = ["train", "--game", "civ4", "--method", "pg", "--init", str(init), "--out", str(out)]
    args += ["--games", "2", "--iterations", "1", "--epochs", "1", "--eval", "2"]
    args += ["--eval-every", "1", "--no-progress", "--json"]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    data = json.loads(res.output.strip().splitlines()[-1])
    assert data["iteration"] == 1 and (out / "net-i001.npz").is_file()
    assert data["curve"][1]["gauntlet"]["net_vs_greedy"]["games"] == 2
