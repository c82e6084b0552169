"""Where the tests find the project's specification folder, when it lies beside the clone.

The rules and the notation the code cites are in the repository (``docs/rules/``,
``docs/notation/``); the tests' data (the notation examples of both games and CIV's
RULES.md, whose table of names ``tests/test_i18n.py`` reads) are verbatim copies of the
specification in ``tests/data/``, so the tests run wherever the repository is cloned.
``tests/test_shared_copies.py`` checks the copies against the specification folder when
it is there (the folder is named ``shared`` and sits beside the repository). This is the
one file that names that folder (``tests/test_rule_citations.py``).
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
EXAMPLES = DATA / "notation-examples"
CIV4_EXAMPLES = DATA / "civ4-notation-examples"
RULES_MD = DATA / "RULES.md"


def shared_dir() -> Path | None:
    """The project's specification folder beside the repository, if there is one."""
    for p in (ROOT.parent / "shared", ROOT.parent.parent / "shared", Path("/work/shared")):
        if (p / "RULES.md").is_file():
            return p
    return None
