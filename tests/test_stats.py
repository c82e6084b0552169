"""civcards.stats: the reports' intervals against values computed independently.

The Wilson intervals are those of Newcombe (1998), "Two-sided confidence intervals for the
single proportion", Statistics in Medicine 17, table II (method 3), and one worked by hand;
the mean's and the ratio's are worked by hand from their definitions (in the comments).
"""

from __future__ import annotations

import doctest
import math
from collections import Counter

import pytest

from civcards import stats


def test_docstring_examples() -> None:
    assert doctest.testmod(stats).failed == 0


@pytest.mark.parametrize(
    ("wins", "n", "low", "high"),
    [
        (81, 263, 0.2553, 0.3662),  # Newcombe's table II
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        # by hand: p = .595, z²/n = .019208, centre .604604 / 1.019208 = .59321,
        # half 1.96 · √(.00120488 + .00002401) / 1.019208 = .06741
        (119, 200, 0.5258, 0.6606),
    ],
)
def test_wilson_known_values(wins: int, n: int, low: float, high: float) -> None:
    lo, hi = stats.wilson(wins, n)
    assert lo == pytest.approx(low, abs=1e-4)
    assert hi == pytest.approx(high, abs=1e-4)


def test_wilson_of_per_game_shares_is_the_wilson_of_their_sum() -> None:
    shares = [1.0] * 119 + [0.0] * 81
    p, lo, hi = stats.wilson_interval(shares)
    assert p == pytest.approx(0.595)
    assert (lo, hi) == pytest.approx(stats.wilson(119, 200))


def test_wilson_without_games_says_nothing() -> None:
    assert stats.wilson(0, 0) == (0.0, 1.0)
    assert all(math.isnan(x) for x in stats.wilson_interval([]))


def test_mean_interval_known_value() -> None:
    # mean 5, sample variance 32 / 7, standard error √(32/7) / √8 = .755929,
    # half-width 1.96 · .755929 = 1.481621
    m, lo, hi = stats.mean_interval([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0])
    assert m == 5.0
    assert (lo, hi) == pytest.approx((3.518379, 6.481621), abs=1e-6)


def test_mean_interval_of_one_or_no_value() -> None:
    assert stats.mean_interval([0.25]) == (0.25, 0.25, 0.25)
    assert all(math.isnan(x) for x in stats.mean_interval([]))


def test_ratio_interval_known_value() -> None:
    # r = 4 / 12; residuals -1/3, -1/3, 2/3: Σ² = 2/3; variance 2/3 / 144 · 3/2 = 1/144,
    # half-width 1.96 / 12 = .163333
    r, lo, hi = stats.ratio_interval([(1.0, 4.0), (1.0, 4.0), (2.0, 4.0)])
    assert r == pytest.approx(1 / 3)
    assert (lo, hi) == pytest.approx((1 / 3 - 1.96 / 12, 1 / 3 + 1.96 / 12))


def test_quantile_interval_known_value() -> None:
    # 200 values: ranks 0–49 are 1, 50–99 are 2, 100–199 are 3; the median's rank is 100,
    # its interval's ranks 100 ± 1.96 · √50 = 86.1 and 113.9
    assert stats.quantile_interval(Counter({1: 50, 2: 50, 3: 100}), 0.5) == (3.0, 2.0, 3.0)
    assert all(math.isnan(x) for x in stats.quantile_interval(Counter(), 0.5))


def test_normal_bounds_and_clip() -> None:
    assert stats.normal_bounds(0.5, 0.1) == pytest.approx((0.304, 0.696))
    assert stats.clip_share(-0.2, 1.3) == (0.0, 1.0)
