"""Issue 37: ``ismcts+net:…:kit``, the guided search whose leaves are valued as the plain
search values them (the game's search kit: civ4's evaluation and end-of-game rollout, CIV's
playout) while the network gives only PUCT's prior."""

from __future__ import annotations

from pathlib import Path

import pytest

from civcards.bots import make_bot
from civcards.bots.base import bot_choice
from civcards.bots.netsearch import NetSearchBot
from civcards.bots.policy_net import PolicyValueNet
from civcards.game_api import Game, default_options, get_game
from tests.test_learning import _play_conformant_game


def small_net(game: Game, path: Path, value_bias: float = 0.0) -> Path:
    """A small network of random weights for ``game``; ``value_bias`` moves its value head
    alone (the policy is the same)."""
    enc = game.encoding()
    assert enc is not None
    net = PolicyValueNet.fresh(
        enc.observation_shape[0], enc.action_size, hidden=24, trunk=16, seed=5
    )
    net.arrays["bv"][:] += value_bias
    PolicyValueNet(net.arrays, {"game": game.name}).save(path)
    return path


def a_position(game: Game, seed: int) -> object:
    """A 2-player position of ``game`` with a few choices, greedy having played to it."""
    state = game.new_state(2, game.check_options(2, default_options(game, 2)), seed)
    greedy = make_bot(game, "greedy", seed=2)
    for _ in range(6):
        game.apply_choice(state, bot_choice(greedy, game, state))
    while len(game.choices(state)) < 2:
        game.apply_choice(state, game.choices(state)[0])
    return state


def searched(game: Game, spec: str, state: object) -> list[tuple[str, float, int]]:
    bot = make_bot(game, spec, seed=7)
    assert isinstance(bot, NetSearchBot)
    bot_choice(bot, game, state)
    return [(o.move, o.value, o.visits) for o in bot.option_values()]


@pytest.mark.parametrize("name", ["civ4", "carta"])
def test_kit_leaves_do_not_read_the_networks_value(name: str, tmp_path: Path) -> None:
    """Two networks with one policy and different value heads: with ``kit`` the search
    (the same seed) visits and values every option alike; without it, the value head
    changes what the search finds."""
    game = get_game(name)
    low = small_net(game, tmp_path / "low.npz", value_bias=-3.0)
    high = small_net(game, tmp_path / "high.npz", value_bias=3.0)
    state = a_position(game, 4)
    kit_low = searched(game, f"ismcts+net:40it:kit:{low}", state)
    kit_high = searched(game, f"ismcts+net:40it:kit:{high}", state)
    assert kit_low == kit_high and len(kit_low) >= 2
    net_low = searched(game, f"ismcts+net:40it:{low}", state)
    net_high = searched(game, f"ismcts+net:40it:{high}", state)
    assert [v for _, v, _ in net_low] != [v for _, v, _ in net_high]


def test_the_name_says_kit_and_net_refuses_it(tmp_path: Path) -> None:
    game = get_game("civ4")
    path = small_net(game, tmp_path / "n.npz")
    bot = make_bot(game, f"ismcts+net:30it:kit:{path}", seed=1)
    assert bot.name == "ismcts+net:30it:kit"
    with pytest.raises(ValueError, match="no leaves: 'kit' is for ismcts\\+net"):
        make_bot(game, "net:kit", seed=1)


@pytest.mark.parametrize("name", ["civ4", "carta"])
def test_kit_leaves_play_conformant_whole_games(name: str, tmp_path: Path) -> None:
    path = small_net(get_game(name), tmp_path / "n.npz")
    _play_conformant_game(name, f"ismcts+net:8it:kit:{path}")
