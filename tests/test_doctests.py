"""The usage examples in the docstrings of the interface, the generic layers and CIV's
engine run as written (civ4's engine has its own list: tests/civ4/test_doctests.py)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import civcards.bots
import civcards.carta
import civcards.games
import civcards.sim

#: the modules whose examples run: the interface, the statistics, the analysis, and every
#: module of the bots, the simulations, CIV's engine and the games' registrations
MODULES = sorted(
    {"civcards.game_api", "civcards.stats", "civcards.analysis"}
    | {
        m.name
        for pkg in (civcards.bots, civcards.carta, civcards.sim, civcards.games)
        for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + ".")
    }
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    try:
        mod = importlib.import_module(name)
    except ImportError as e:  # an optional extra (PyTorch for training) is not installed
        pytest.skip(f"{name}: {e}")
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
