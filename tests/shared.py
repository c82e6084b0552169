"""Where the tests find the project's shared material (``../shared/``).

The notation examples and RULES.md are copied into ``tests/data/`` so that the
tests run wherever the repository is cloned; ``test_shared_copies_are_current``
checks the copies against ``../shared/`` when it is there.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
EXAMPLES = DATA / "notation-examples"
RULES_MD = DATA / "RULES.md"


def shared_dir() -> Path | None:
    """The project's ``shared/`` folder beside the repository, if there is one."""
    for p in (ROOT.parent / "shared", ROOT.parent.parent / "shared", Path("/work/shared")):
        if (p / "RULES.md").is_file():
            return p
    return None
