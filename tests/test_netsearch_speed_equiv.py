"""``ismcts+net``'s cheaper iteration (issue 37): the network's one-observation pass
(sparse rows, in place) and the lazily worked-out leaf policies give what the plain
formulas give, and a search is a function of its seed.

That the bot chooses exactly as before the speed change (the same moves, values and
random draws over whole games) is checked by ``scripts/netsearch_equiv.py`` against a
file recorded with the old code.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from civcards.bots import make_bot
from civcards.bots.base import bot_choice
from civcards.bots.netsearch import NetSearchBot, load_network
from civcards.game_api import default_options, get_game


def _positions(name: str, count: int) -> list[Any]:
    """States of 2-player games played by ``greedy``, each at a decision with a choice."""
    game = get_game(name)
    out = []
    for deal in range(1, count + 1):
        state = game.new_state(2, game.check_options(2, default_options(game)), deal)
        bots = [make_bot(game, "greedy", seed=s) for s in range(2)]
        for _ in range(12 + 7 * deal):
            if state.to_move is None:
                break
            game.apply_choice(state, bot_choice(bots[state.to_move], game, state))
        while state.to_move is not None and (
            len(game.choices(state)) < 2 or getattr(state, "phase", "") == "draft"
        ):
            game.apply_choice(state, bot_choice(bots[state.to_move], game, state))
        if state.to_move is not None:
            out.append(state)
    return out


@pytest.mark.parametrize("name", ["carta", "civ4"])
def test_one_observation_pass_is_the_batched_pass(name: str) -> None:
    """On real observations of both games: the one-observation trunk (rows of the
    non-zero entries, scaling folded in, in place) agrees with the batched formula,
    and ``evaluate`` is ``policy_of`` and ``value_of`` of it."""
    game = get_game(name)
    net = load_network(game)
    enc = game.encoding()
    assert enc is not None
    for state in _positions(name, 3):
        table = enc.table(state)
        x = table.encode(state.to_move)
        legal = table.legal_actions()
        h = net.trunk(x)
        batch = net.trunk(x[None, :])[0]
        assert h.dtype == np.float32 and np.allclose(h, batch, rtol=1e-4, atol=1e-4)
        probs, value = net.evaluate(x, legal)
        logits = net.forward(x[None, :])[0][0][legal]
        z = np.exp(logits - logits.max())
        assert np.allclose(probs, z / z.sum(), atol=1e-5)
        assert probs.dtype == np.float32 and abs(float(probs.sum()) - 1.0) < 1e-5
        assert value == net.value(x) == net.value_of(h)
        assert np.array_equal(probs, net.policy_of(h, legal))


@pytest.mark.parametrize("name", ["carta", "civ4"])
def test_search_is_a_function_of_its_seed_and_expanded_nodes_have_priors(name: str) -> None:
    """Two bots of one seed search a position alike (choice, values, visits, training
    target); every node the search expanded has priors summing to 1, worked out from
    its leaf policy (which is dropped once used), ``C_PUCT`` times them kept beside."""
    game = get_game(name)
    for i, state in enumerate(_positions(name, 2)):
        runs = []
        bots: list[NetSearchBot] = []
        for _ in range(2):
            bot = make_bot(game, "ismcts+net:60it", seed=40 + i)
            assert isinstance(bot, NetSearchBot)
            pick = bot_choice(bot, game, state.copy())
            runs.append((pick.text, bot.option_values(), sorted(bot.last_target.items())))
            bots.append(bot)
        assert runs[0] == runs[1]
        root = bots[-1].last_root
        if root is None:
            continue
        todo = [root]
        expanded = 0
        while todo:
            node = todo.pop()
            todo.extend(node.children.values())
            if node.prior is not None:
                expanded += 1
                assert node.leaf is None
                # (at most 1: branches of one key, CIV's Inquisitions, share one entry)
                assert 0.0 < sum(node.prior.values()) <= 1.0 + 1e-9
                assert node.cprior.keys() == node.prior.keys()
        assert expanded >= 1


def test_counted_branches_search_as_the_listed_ones() -> None:
    """CIV's kit counts a Discovery's and an Inquisition's moves (``distinct_edges``)
    instead of listing them as ``edges`` does: the search weighs each branch as if listed
    (its prior, the fill of unseen branches), so it chooses, values and visits alike."""
    from civcards.games.carta.search import CartaSearchKit

    class ListingKit(CartaSearchKit):
        distinct_edges = None  # type: ignore[assignment]

    game = get_game("carta")
    counted = 0
    for i, state in enumerate(_positions("carta", 4)):
        runs = []
        for kit in (None, ListingKit(game)):
            bot = NetSearchBot(game, 7 + i, iterations=150, kit=kit)
            pick = bot_choice(bot, game, state.copy())
            runs.append((pick.text, bot.option_values(), sorted(bot.last_target.items())))
            root = bot.last_root
            todo = [] if root is None or kit is not None else [root]
            while todo:
                node = todo.pop()
                todo.extend(node.children.values())
                counted += any(isinstance(k, tuple) for k in node.children)
        assert runs[0] == runs[1]
    assert counted > 0  # the trees held hidden branches


def test_shared_priors_of_counted_branches_are_those_of_the_listed_ones() -> None:
    """A branch that comes ``c`` times (``copies``) gets exactly the prior its copies get
    when listed ``c`` times in a row (the same floats), missing actions included."""
    import random

    from civcards.bots.policy_net import shared_priors

    rng = random.Random(3)
    for _ in range(500):
        k = rng.randrange(1, 8)
        acts = [rng.choice([None, 1, 2, 3, 4, 5]) for _ in range(k)]
        copies = [rng.choice([1, 1, 2, 5, 40]) for _ in range(k)]
        probs = {a: rng.random() for a in range(1, 5)}  # (5: an action with no probability)
        listed = [a for a, c in zip(acts, copies, strict=True) for _ in range(c)]
        whole = shared_priors(probs, listed)
        firsts = [sum(copies[:i]) for i in range(k)]
        assert shared_priors(probs, acts, copies) == [whole[i] for i in firsts]
        assert shared_priors(probs, acts, [1] * k) == shared_priors(probs, acts)
