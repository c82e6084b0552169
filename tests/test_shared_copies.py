"""The verbatim copies of the specification in ``tests/data/`` are the current ones, and
so is the original civ4 card set (``reconstructed-1``) when the specification folder lies
beside the clone (tests/shared.py); elsewhere those checks skip."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from tests.shared import CIV4_EXAMPLES, EXAMPLES, RULES_MD, shared_dir


def _spec() -> Path:
    spec = shared_dir()
    if spec is None:
        pytest.skip("the specification folder is not beside this clone")
    return spec


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def test_shared_copies_are_current() -> None:
    """tests/data/ holds exactly CIV's notation examples and RULES.md of the specification."""
    spec = _spec()
    assert RULES_MD.read_bytes() == (spec / "RULES.md").read_bytes()
    assert _files(EXAMPLES) == _files(spec / "notation-examples")


def test_civ4_copies_are_current() -> None:
    """tests/data/civ4-notation-examples/ holds exactly civ4's notation examples, and
    reconstructed-1 (civcards/civ4/cards.toml) is the specification's card file unchanged."""
    spec = _spec() / "civ4"
    if not spec.is_dir():
        pytest.skip("the specification folder has no civ4/")
    assert _files(CIV4_EXAMPLES) == _files(spec / "notation-examples")
    packaged = resources.files("civcards.civ4").joinpath("cards.toml").read_bytes()
    assert packaged == (spec / "cards.toml").read_bytes()


@pytest.mark.parametrize("folder", [EXAMPLES, CIV4_EXAMPLES], ids=lambda p: p.name)
def test_every_example_has_its_expected_output(folder: Path) -> None:
    records = sorted(
        p.name[: -len(".json")] for p in folder.glob("*.json") if ".expected" not in p.name
    )
    assert len(records) >= 5
    for name in records:
        assert (folder / f"{name}.expected.json").is_file(), name
