"""The search kit's branches counted without listing them (issue 37): a Discovery's
(R12: the top cards of the deck) and an Inquisition's (R16: the target's hand) moves
are one hidden branch each, which ``distinct_edges`` lists once and ``edge_counts``
counts as ``edges`` lists them;
``step_choice`` is the greedy keep below one (``step_pick``) without listing them."""

from __future__ import annotations

import random
from typing import Any

import pytest

from civcards.bots.search import Edge
from civcards.carta.legal import multiset_count, multisets
from civcards.game_api import get_game
from civcards.games.carta.search import search_kit
from tests.carta.randgames import CONFIGS, start, walk


def _counted(edges: list[Any]) -> tuple[list[Any], list[int] | None]:
    """Each key of ``edges`` once, where it first comes, and how many times it comes."""
    first: dict[Any, int] = {}
    out: list[Any] = []
    counts: list[int] = []
    for e in edges:
        i = first.get(e[0])
        if i is None:
            first[e[0]] = len(out)
            out.append(e)
            counts.append(1)
        else:
            assert out[i] == e
            counts[i] += 1
    return out, (counts if any(c > 1 for c in counts) else None)


@pytest.mark.parametrize("config", CONFIGS)
def test_r12_r16_distinct_edges_count_the_hidden_moves(config: tuple[int, str, bool]) -> None:
    kit = search_kit(get_game("carta"))
    hidden = 0
    for seed in range(3):
        for g in walk(start(config, seed=seed), random.Random(seed)):
            if g.finished:
                break
            edges = kit.edges(g)
            distinct = kit.distinct_edges(g)
            assert (distinct, kit.edge_counts(g, distinct)) == _counted(edges)
            for key, act in distinct:
                if act is None:
                    hidden += 1
                    assert isinstance(key, tuple)  # a hidden branch's key: (kind, seat)
                    kind, seat = key
                    want: list[Edge] = [
                        (m, m)
                        for m in g.raw_moves()
                        if m.kind == kind and (kind == "discovery" or m.seat == seat)
                    ]
                    assert kit.step_edges(g, key) == want
                    # the greedy keep, known without listing the step's moves
                    pick = kit.step_pick(g, key, want)
                    assert kit.step_choice(g, key) == pick
                    assert pick is not None
    assert hidden > 0


def test_multiset_count_is_the_number_listed() -> None:
    rng = random.Random(5)
    for _ in range(3000):
        counts = tuple(rng.choice((0, 0, 1, 2, 3, 5)) for _ in range(6))
        k = rng.randrange(-1, sum(counts) + 3)
        assert multiset_count(counts, k) == len(multisets(counts, k))
