"""The engines' rooms stay small and keep to each other's public names (issue 36): no
module of civcards/carta or civcards/civ4 is over 800 lines, and none imports or
reads another module's underscored name."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "civcards"
ENGINES = ["carta", "civ4"]
MAX_LINES = 800


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def underscored_uses(source: str) -> list[str]:
    """The other modules' underscored names that ``source`` imports or reads."""
    tree = ast.parse(source)
    modules: set[str] = set()  # names bound to a module of the package
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level >= 1:
            for a in node.names:
                if _private(a.name):
                    found.append(f"from {'.' * node.level}{node.module or ''} import {a.name}")
                elif not node.module:
                    modules.add(a.asname or a.name)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and _private(node.attr)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
        ):
            found.append(f"{node.value.id}.{node.attr}")
    return found


@pytest.mark.parametrize("engine", ENGINES)
def test_no_module_of_an_engine_is_over_800_lines(engine: str) -> None:
    long = {
        p.name: n
        for p in sorted((ROOT / engine).glob("*.py"))
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"civcards/{engine}: over {MAX_LINES} lines: {long}"


@pytest.mark.parametrize("engine", ENGINES)
def test_no_module_of_an_engine_uses_another_modules_underscored_names(engine: str) -> None:
    uses = {
        p.name: u
        for p in sorted((ROOT / engine).glob("*.py"))
        if (u := underscored_uses(p.read_text(encoding="utf-8")))
    }
    assert not uses, f"civcards/{engine}: {uses}"


def test_the_check_finds_underscored_names() -> None:
    src = "from .game import _generate, new_game\nfrom . import legal as lg\nx = lg._perm(1)\n"
    assert underscored_uses(src) == ["from .game import _generate", "lg._perm"]
    assert underscored_uses("from .game import new_game\nx = __name__\n") == []
