"""The usage examples in the civ4 modules' docstrings run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "",
    ".cards",
    ".moves",
    ".options",
    ".game",
    ".effects",
    ".legal",
    ".checks",
    ".execute",
    ".notation",
    ".observation",
    ".choices",
    ".defaults",
    ".determinize",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    mod = importlib.import_module("civcards.civ4" + name)
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
