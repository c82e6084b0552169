"""Shared fixtures and helpers for the test suite."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


#: the test modules that take longest (a whole-suite --durations=120 profile of Dec 2026,
#: longest first); their tests run first, so that pytest-xdist's workers do not end the run
#: with one of them alone on a long test. Each module's own order is kept (its fixtures
#: shared as before); a module left off the list only runs later, its checks the same.
LONGEST_FIRST = (
    "tests/web/test_scaleout.py",
    "tests/web/test_browser.py",
    "tests/web/test_layout_guard.py",
    "tests/web/test_review.py",
    "tests/web/test_loadtest.py",
    "tests/web/test_help_browser.py",
    "tests/web/test_accounts.py",
    "tests/web/test_botpool.py",
    "tests/web/test_schema_client.py",
    "tests/web/test_clocks.py",
    "tests/web/test_api.py",
    "tests/web/test_postgres.py",
    "tests/web/test_schemathesis.py",
    "tests/web/test_screenshots.py",
    "tests/web/test_civ4_browser.py",
    "tests/web/test_carta_faces.py",
    "tests/web/test_accessibility.py",
    "tests/test_analysis.py",
    "tests/civ4/test_terminal.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests of :data:`LONGEST_FIRST`'s modules first, in its order; the rest after, in
    the order collected (a stable sort: no test is added or dropped)."""
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))
