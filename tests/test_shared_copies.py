"""The copies of ``../shared/`` material in ``tests/data/`` are the current ones."""

from __future__ import annotations

import pytest

from tests.shared import EXAMPLES, RULES_MD, shared_dir


def test_shared_copies_are_current() -> None:
    """tests/data/ holds exactly ../shared/notation-examples and ../shared/RULES.md."""
    shared = shared_dir()
    if shared is None:
        pytest.skip("the project's shared/ folder is not beside this clone")
    assert RULES_MD.read_bytes() == (shared / "RULES.md").read_bytes()
    theirs = {p.name: p.read_bytes() for p in (shared / "notation-examples").iterdir()}
    ours = {p.name: p.read_bytes() for p in EXAMPLES.iterdir()}
    assert ours == theirs


def test_every_example_has_its_expected_output() -> None:
    records = sorted(
        p.name[: -len(".json")] for p in EXAMPLES.glob("*.json") if ".expected" not in p.name
    )
    assert len(records) >= 5
    for name in records:
        assert (EXAMPLES / f"{name}.expected.json").is_file(), name
