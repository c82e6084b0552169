"""The statistics of the reports, written once: 95 % intervals of a mean, a share, a ratio
of sums and a quantile.

Every report of the project (``civcards report`` for either game, ``civcards arena``,
``scripts/pool_arenas.py``) takes its intervals from here. Standard library only.

* :func:`mean_interval`: the mean ± 1.96 standard errors (the sample's standard deviation
  over √n), for many games;
* :func:`wilson` and :func:`wilson_share`: Wilson's score interval of a share, for few
  games, or all won or all lost, where ± 1.96 standard errors says nothing;
* :func:`ratio_interval`: Σnum / Σden over games with the delta method;
* :func:`quantile_interval`: a quantile of a histogram with an order-statistic interval.

>>> round(Z95 * 0.5, 2)
0.98
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence

#: the normal quantile of a two-sided 95 % interval
Z95 = 1.96

#: a figure and its interval: (value, low, high)
Interval = tuple[float, float, float]

_NAN: Interval = (math.nan, math.nan, math.nan)


def normal_bounds(mean: float, se: float, z: float = Z95) -> tuple[float, float]:
    """``mean ± z · se``.

    >>> [round(x, 3) for x in normal_bounds(0.5, 0.1)]
    [0.304, 0.696]
    """
    half = z * se
    return mean - half, mean + half


def clip_share(low: float, high: float) -> tuple[float, float]:
    """An interval of a share clipped to [0, 1].

    >>> clip_share(-0.1, 0.7)
    (0.0, 0.7)
    """
    return max(0.0, low), min(1.0, high)


def mean_interval(values: Sequence[float], z: float = Z95) -> Interval:
    """Mean and a 95 % interval (± 1.96 standard errors); NaN for no value, the mean itself
    (no width) for one.

    >>> [round(x, 4) for x in mean_interval([1.0, 2.0, 3.0, 4.0])]
    [2.5, 1.2348, 3.7652]
    >>> mean_interval([3.0])
    (3.0, 3.0, 3.0)
    """
    n = len(values)
    if n == 0:
        return _NAN
    m = statistics.fmean(values)
    if n < 2:
        return m, m, m
    half = z * statistics.stdev(values) / math.sqrt(n)
    return m, m - half, m + half


def wilson_share(p: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval of a share ``p`` measured over ``n`` trials, clipped to
    [0, 1]; (0, 1) for no trial.

    >>> [round(x, 3) for x in wilson_share(1.0, 10)]
    [0.722, 1.0]
    """
    if n == 0:
        return (0.0, 1.0)
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return clip_share(mid - half, mid + half)


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval of a share ``wins / n`` (a shared victory may count as its
    fraction).

    >>> [round(x, 3) for x in wilson(35, 40)]
    [0.739, 0.945]
    """
    if n == 0:
        return (0.0, 1.0)
    return wilson_share(wins / n, n, z)


def wilson_interval(values: Sequence[float], z: float = Z95) -> Interval:
    """The mean of per-game shares and its Wilson interval; NaN for no value.

    >>> [round(x, 3) for x in wilson_interval([1.0, 0.0, 0.5, 1.0])]
    [0.625, 0.219, 0.908]
    """
    n = len(values)
    if n == 0:
        return _NAN
    p = statistics.fmean(values)
    return (p, *wilson_share(p, n, z))


def ratio_interval(pairs: Sequence[tuple[float, float]], z: float = Z95) -> Interval:
    """Σnum / Σden over games (pairs ``(num, den)``) with a 95 % interval (delta method);
    NaN when there is no game or the denominators sum to 0.

    >>> [round(x, 4) for x in ratio_interval([(1.0, 4.0), (1.0, 4.0), (2.0, 4.0)])]
    [0.3333, 0.17, 0.4967]
    """
    n = len(pairs)
    den = sum(d for _, d in pairs)
    if n == 0 or den == 0:
        return _NAN
    r = sum(x for x, _ in pairs) / den
    if n < 2:
        return r, r, r
    var = sum((x - r * d) ** 2 for x, d in pairs) / den**2 * n / (n - 1)
    half = z * math.sqrt(var)
    return r, r - half, r + half


def quantile_interval(counts: Counter[int], q: float, z: float = Z95) -> Interval:
    """The ``q`` quantile of a histogram (value → count) and a 95 % order-statistic
    interval (ranks ``q·n ± z·√(n·q·(1−q))``); NaN for an empty histogram.

    >>> quantile_interval(Counter({1: 50, 2: 50, 3: 100}), 0.5)
    (3.0, 2.0, 3.0)
    """
    n = sum(counts.values())
    if n == 0:
        return _NAN
    values = sorted(counts)

    def at(rank: float) -> float:
        k = min(n - 1, max(0, math.floor(rank)))
        seen = 0
        for v in values:
            seen += counts[v]
            if seen > k:
                return float(v)
        return float(values[-1])

    half = z * math.sqrt(n * q * (1 - q))
    return at(q * n), at(q * n - half), at(q * n + half)


__all__ = [
    "Z95",
    "Interval",
    "clip_share",
    "mean_interval",
    "normal_bounds",
    "quantile_interval",
    "ratio_interval",
    "wilson",
    "wilson_interval",
    "wilson_share",
]
