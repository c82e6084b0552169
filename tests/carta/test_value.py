"""The learned value network of the search bot: features, shipped weights, training."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from civcards.bots import make_bot
from civcards.bots.ismcts import ISMCTSBot
from civcards.carta import new_game
from civcards.carta.game import DRAFT
from civcards.game_api import get_game
from civcards.games.carta.search import values
from civcards.games.carta.value import (
    FORMAT,
    NUM_FEATURES,
    PER_SEAT,
    ValueNet,
    features,
    features_all,
    features_v2,
    num_features,
    value_net,
)

from .randgames import CONFIGS, start

pytest.importorskip("numpy")
CIV = get_game("carta")


def _random_position(config: tuple[int, str, bool], seed: int, steps: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    g = start(config, seed)
    for _ in range(steps):
        if g.finished:
            break
        g.apply(rng.choice(g.legal_moves()))
    return g


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CONFIGS), st.integers(0, 2**31 - 1), st.integers(0, 200))
def test_features_are_finite_and_sized_in_every_configuration(config, seed, steps) -> None:  # type: ignore[no-untyped-def]
    """R3, R6, R24: every seat's features of any position after the deal are finite numbers."""
    g = _random_position(config, seed, steps)
    if g.phase == DRAFT:
        return
    for s in range(g.n):
        f = features(g, s)
        assert len(f) == NUM_FEATURES
        assert all(math.isfinite(x) for x in f)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CONFIGS), st.integers(0, 2**31 - 1), st.integers(0, 200))
def test_v2_features_are_v1_then_every_other_seat(config, seed, steps) -> None:  # type: ignore[no-untyped-def]
    """R3, R25: the v2 features start with the v1 numbers and add a block per other seat."""
    g = _random_position(config, seed, steps)
    if g.phase == DRAFT:
        return
    together = features_all(g, "v2")
    assert features_all(g, "v1") == [features(g, s) for s in range(g.n)]
    for s in range(g.n):
        f = features_v2(g, s)
        assert len(f) == num_features("v2", g.n) == NUM_FEATURES + PER_SEAT * (g.n - 1)
        assert f[:NUM_FEATURES] == features(g, s)
        assert together[s] == f
        assert all(math.isfinite(x) for x in f)


def test_r21_v2_features_tell_which_rival_is_near_hegemony_and_to_move() -> None:
    """R21: only the active seat wins by hegemony, so the v2 features say, seat by seat in
    turn order, how near each rival is and which of them is to move."""
    g = new_game(3, seed=5)
    me = g.active
    nxt, last = (me + 1) % 3, (me + 2) % 3
    g.areas[last][2] = g.heg - 1
    f = features_v2(g, me)
    first, second = NUM_FEATURES, NUM_FEATURES + PER_SEAT
    assert f[second + 2] == pytest.approx((g.heg - 1) / g.heg)
    assert f[first + 2] == 0.0
    # the active flag: neither rival is to move now; from the next seat's side, 'me' is last
    assert f[first + 12] == 0.0 and f[second + 12] == 0.0
    g2 = features_v2(g, nxt)
    assert g2[second + 12] == 1.0 and g2[first + 2] == pytest.approx((g.heg - 1) / g.heg)
    with pytest.raises(ValueError, match="feature set"):
        num_features("v9", 3)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_numpy_and_standard_library_inference_agree(players: int) -> None:
    """The network gives the same chances on NumPy (all seats in one product) and on the
    standard library, seat by seat."""
    net = value_net(players)
    assert net is not None
    from importlib import resources

    data = json.loads(
        resources.files("civcards.games.carta")
        .joinpath("weights", f"value-{players}p.json")
        .read_text()
    )
    pure = ValueNet(data, use_numpy=False)
    checked = 0
    for seed in range(12):
        g = _random_position((players, "basic", False), seed, 7 * seed)
        if g.finished:
            continue
        checked += 1
        fast = net.probabilities(g)
        slow = [pure.probability(g, s) for s in range(players)]
        assert fast == pytest.approx(slow, abs=1e-12)
        assert pure.probabilities(g) == pytest.approx(slow, abs=1e-12)
        assert [net.probability(g, s) for s in range(players)] == pytest.approx(slow, abs=1e-12)
    assert checked >= 6


def test_r6_r21_features_see_a_domain_near_hegemony() -> None:
    """R21: cards moved into a domain of the play area raise its share of the threshold."""
    g = new_game(2, seed=3)
    before = features(g, 0)
    g.areas[0][0] = g.heg - 1
    after = features(g, 0)
    assert after[0] == pytest.approx((g.heg - 1) / g.heg)
    assert after[0] > before[0]
    # from the other seat this is the strongest opponent's domain
    assert features(g, 1)[4] == pytest.approx((g.heg - 1) / g.heg)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_network_ships_for_every_player_count(players: int) -> None:
    net = value_net(players)
    assert net is not None and net.players == players
    assert net.meta.get("val_log_loss", 1.0) < net.meta.get("greedy_log_loss", 0.0)
    assert value_net(4, teams=True) is None


def test_r21_the_network_sees_who_is_winning() -> None:
    """R21: a seat one card short of hegemony with that card in hand, on its turn, is the
    favourite; its opponent in the same position is not."""
    g = new_game(2, seed=9)
    me = g.active
    g.areas[me][0] = g.heg - 1
    g.hands[me][0] += 1
    net = value_net(2)
    assert net is not None
    assert net.probability(g, me) > 0.7
    assert net.probability(g, 1 - me) < 0.3


def test_two_seats_chances_add_up_to_about_one() -> None:
    """The 2-player network is consistent: P(seat 0 wins) + P(seat 1 wins) is near 1, even
    in positions reached by random play, far from the greedy games it learnt from."""
    net = value_net(2)
    assert net is not None
    gaps = []
    for seed in range(60):
        g = _random_position((2, "basic", False), seed, 5 + seed * 2)
        if g.finished:
            continue
        gaps.append(abs(net.probability(g, 0) + net.probability(g, 1) - 1.0))
    assert sum(gaps) / len(gaps) < 0.15


def test_the_network_predicts_outcomes_better_than_the_greedy_evaluation() -> None:
    """On fresh games (a seed never trained on) the shipped 2p network's log-loss beats the
    squashed greedy evaluation the search bot used before."""
    from civcards.games.carta.value_fit import play_and_record

    net = value_net(2)
    assert net is not None
    loss_net = loss_greedy = 0.0
    count = 0
    for i in range(60):
        s = play_and_record(2, seed=987_654, index=i)
        for k in range(len(s)):
            x = list(s.x[k * NUM_FEATURES : (k + 1) * NUM_FEATURES])
            p = 1.0 / (1.0 + math.exp(-net.logit(x)))
            y = s.y[k]
            b = min(max(s.baseline[k], 1e-6), 1 - 1e-6)
            loss_net -= y * math.log(p) + (1 - y) * math.log(1 - p)
            loss_greedy -= y * math.log(b) + (1 - y) * math.log(1 - b)
            count += 1
    assert count > 1000
    assert loss_net / count < loss_greedy / count - 0.05


def test_values_use_the_network_and_fall_back_to_the_greedy_evaluation() -> None:
    g = _random_position((2, "basic", False), 4, 30)
    net = value_net(2)
    assert net is not None
    v = values(g, 0, None, net)
    assert v[0] == pytest.approx(net.probability(g, 0)) and v[1] == pytest.approx(1 - v[0])
    assert values(g, 0) != v  # without a network: the greedy evaluation
    assert make_bot(CIV, "ismcts:10it:greedy").name == "ismcts:10it:greedy"
    assert make_bot(CIV, "ismcts:10it").name == "ismcts:10it"
    with pytest.raises(ValueError, match="evaluation"):
        make_bot(CIV, "ismcts:10it:oracle")
    with pytest.raises(ValueError, match="evaluation"):
        ISMCTSBot(CIV, 1, evaluation="nope")


def test_r21_r22_values_with_three_players_are_max_n() -> None:
    """R21/R22 with 3 players: each seat is valued by its own chance (max-n), the chances
    scaled to add up to 1, whichever seat searches; the greedy fallback stays paranoid."""
    players = 3
    net = value_net(players)
    assert net is not None
    checked = 0
    for seed in range(3):
        g = _random_position((players, "basic", False), seed, 20 + 10 * seed)
        if g.finished:
            continue
        checked += 1
        chances = [net.probability(g, s) for s in range(players)]
        v = values(g, 0, None, net)
        assert sum(v) == pytest.approx(1.0)
        assert v == pytest.approx([c / sum(chances) for c in chances])
        assert values(g, players - 1, None, net) == pytest.approx(v)
        ranked = sorted(range(players), key=lambda s: chances[s])
        assert sorted(range(players), key=lambda s: v[s]) == ranked
        paranoid = values(g, 1)
        assert all(paranoid[s] == pytest.approx(1 - paranoid[1]) for s in range(players) if s != 1)
    assert checked


def test_four_players_values_stay_paranoid() -> None:
    """R21 with 4 players: the searching seat gets its network chance, every opponent the rest."""
    net = value_net(4)
    assert net is not None
    g = _random_position((4, "basic", False), 2, 25)
    v = values(g, 2, None, net)
    assert v[2] == pytest.approx(net.probability(g, 2))
    assert all(v[s] == pytest.approx(1 - v[2]) for s in (0, 1, 3))


def test_bad_weight_files_are_refused() -> None:
    with pytest.raises(ValueError, match="format"):
        ValueNet({"format": "something else"})
    ok = {"format": FORMAT, "players": 2, "w1": [[0.0] * NUM_FEATURES], "b1": [0.0]}
    with pytest.raises(ValueError, match="features"):
        ValueNet({**ok, "w1": [[0.0] * 3], "w2": [1.0], "b2": 0.0})
    with pytest.raises(ValueError, match="layers"):
        ValueNet({**ok, "w2": [1.0, 2.0], "b2": 0.0})
    net = ValueNet({**ok, "w2": [1.0], "b2": 0.5})
    assert net.logit([0.0] * NUM_FEATURES) == pytest.approx(0.5)


def test_train_value_command_writes_a_network_the_bot_can_read(tmp_path: Path) -> None:
    from civcards.cli import app

    out = tmp_path / "v.json"
    out2 = tmp_path / "v2.json"
    runner = CliRunner()
    small = ["train-value", "-p", "3", "-n", "60", "--epochs", "4", "--hidden", "8"]
    r = runner.invoke(app, [*small, "--no-progress", "--json", "-o", str(out)])
    assert r.exit_code == 0, r.output
    report = json.loads(r.stdout)
    assert report["players"] == 3 and report["positions"] > 500
    net = ValueNet(json.loads(out.read_text()))
    assert net.players == 3 and net.hidden == 8
    g = _random_position((3, "basic", False), 1, 20)
    assert 0.0 < net.probability(g, 0) < 1.0
    # the same arguments give the same file
    r = runner.invoke(app, [*small, "--no-progress", "-o", str(out2)])
    assert r.exit_code == 0
    assert json.loads(out2.read_text())["w1"] == json.loads(out.read_text())["w1"]
    # the v2 features: the file says so, and the network reads them
    r = runner.invoke(app, [*small, "--no-progress", "--features", "v2", "-o", str(out2)])
    assert r.exit_code == 0, r.output
    data = json.loads(out2.read_text())
    assert data["features"] == "v2" and "--features v2" in data["meta"]["command"]
    net2 = ValueNet(data)
    assert net2.width == num_features("v2", 3) and len(data["w1"][0]) == net2.width
    assert 0.0 < net2.probability(g, 0) < 1.0
    assert sum(net2.probabilities(g)) > 0.0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-p", "5"], "--players"),
        (["-n", "3"], "--games"),
        (["--hidden", "0"], "--hidden"),
        (["--epochs", "0"], "--epochs"),
        (["--features", "v7"], "--features"),
        (["-o", "/nonexistent-dir/x.json"], "does not exist"),
    ],
)
def test_train_value_refuses_bad_arguments(args: list[str], message: str, tmp_path: Path) -> None:
    from civcards.cli import app

    r = CliRunner().invoke(app, ["train-value", *args])
    assert r.exit_code == 2
    assert message in r.output
    assert "Traceback" not in r.output
