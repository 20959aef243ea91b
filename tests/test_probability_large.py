"""The float odds over many unseen dice: accurate, fast, or refused with a ValueError.

Issue 19: ``bid_probability_float`` over 10**13 unseen dice answered 0.510 for a true 0.5
after 9 s (``lgamma`` of a huge n loses the digits that tell the terms apart, and some
sqrt(n) terms were summed), and raised ``OverflowError`` at 10**20. Above a million dice
the odds now come from the Edgeworth expansion; this file checks it against the exact
(fraction) odds at moderate sizes, against the summed odds at the switch, against values
known exactly at huge sizes (a fair count at its mean is 0.5), and the time taken.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction

import pytest

from perudo_rules.analysis import probability
from perudo_rules.analysis.probability import (
    bid_probability,
    bid_probability_float,
    exact_probability_float,
)
from perudo_rules.base.limits import MAX_FACES, MAX_FLOAT_DICE

HUGE = [10**6 + 1, 10**9 + 7, 10**13 + 1, 10**17 + 1, MAX_FLOAT_DICE - 1]


def _exact_tail(n: int, need: int, num: int, faces: int) -> float:
    """P(B(n, num/faces) >= need) in fractions, summed from the upper end."""
    other = faces - num
    total = sum(math.comb(n, j) * num**j * other ** (n - j) for j in range(need, n + 1))
    return float(Fraction(total, faces**n))


@pytest.mark.parametrize(("n", "faces"), [(300, 2), (300, 6), (800, 6), (800, 10)])
def test_the_expansion_matches_the_exact_odds(n: int, faces: int) -> None:
    """Around the mean (where the expansion is worst) the absolute error is within a
    small multiple of (npq) ** -1.5, the order of the first term it leaves out."""
    for num in (1, 2) if faces > 2 else (1,):
        p = num / faces
        npq = n * p * (1 - p)
        bound = 0.01 * npq**-1.5
        sd = int(math.sqrt(npq)) + 1
        mean = n * num // faces
        for need in range(max(1, mean - 4 * sd), min(n, mean + 4 * sd) + 1, max(1, sd // 4)):
            got = probability._edgeworth_tail(n, need, num, faces)
            assert abs(got - _exact_tail(n, need, num, faces)) <= bound, (n, need, num, faces)


def test_the_switch_to_the_expansion_is_seamless() -> None:
    """Just above a million dice the public function (the expansion) agrees with the
    summed odds to 1e-8, on the faces of every die the variants may have."""
    n = probability._SUM_TERMS + 1
    summed = probability._tail_float.__wrapped__  # the cache-free function
    saved = probability._SUM_TERMS
    for faces, num in ((2, 1), (6, 1), (6, 2), (MAX_FACES, 1)):
        sd = math.sqrt(n * num / faces * (1 - num / faces))
        for shift in (-4, -1.5, 0, 0.7, 3):
            need = int(n * num / faces + shift * sd)
            got = bid_probability_float(0, n, need, 2, faces, 1 if num == 2 else None)
            probability._SUM_TERMS = 10**9
            try:
                want = summed(n, need, num, faces)
            finally:
                probability._SUM_TERMS = saved
            assert abs(got - want) < 1e-8, (faces, num, shift, got, want)


@pytest.mark.parametrize("n", HUGE)
def test_huge_counts_give_the_known_values(n: int) -> None:
    """A fair count (p = 1/2: a d2, or a d4 with a wild) over an odd n is at least
    (n + 1)/2 with probability exactly 1/2; over n - 1 (even) at least (n - 1)/2 with
    1/2 + P(mean)/2, P(mean) = sqrt(2 / (pi m)) (1 - 1/(4m)); and the tails are symmetric."""
    start = time.process_time()  # CPU time: other jobs on the cores must not count
    assert bid_probability_float(0, n, (n + 1) // 2, 1, 2, None) == 0.5
    assert bid_probability_float(0, n, (n + 1) // 2, 3, 4, 1) == 0.5
    m = n - 1
    point = math.sqrt(2 / (math.pi * m)) * (1 - 1 / (4 * m))
    assert bid_probability_float(0, m, m // 2, 1, 2, None) == pytest.approx(0.5 + point / 2)
    assert exact_probability_float(0, m, m // 2, 1, 2, None) == pytest.approx(point, rel=1e-6)
    sd = math.isqrt(n) // 2
    for k in (sd // 3, sd, 3 * sd):
        up = bid_probability_float(0, n, (n + 1) // 2 + k, 1, 2, None)
        down = bid_probability_float(0, n, (n + 1) // 2 - k, 1, 2, None)
        assert up + down == pytest.approx(1.0, abs=1e-12)
        assert 0.0 <= up < 0.5 < down <= 1.0
    # one unseen die in six: the tails at +-1 and +-2 standard deviations
    mean, sd6 = n / 6, math.sqrt(n * 5 / 36)
    for z, tail in ((1, 0.158655), (2, 0.0227501), (-1, 0.841345)):
        got = bid_probability_float(0, n, math.ceil(mean + z * sd6), 2, 6, None)
        assert got == pytest.approx(tail, abs=1e-3 if n < 10**7 else 1e-5)
    assert time.process_time() - start < 0.1


def test_beyond_the_bound_is_a_value_error() -> None:
    for n in (MAX_FLOAT_DICE + 1, 10**20, 10**400):
        with pytest.raises(ValueError, match="float odds take 0 to"):
            bid_probability_float(0, n, n // 2, 1, 6, None)
        with pytest.raises(ValueError, match="float odds take 0 to"):
            exact_probability_float(0, n, n // 2, 1, 6, None)
    with pytest.raises(ValueError, match="dice of 2 to 100 faces"):
        bid_probability_float(0, 10**7, 5, 1, 10**6, None)
    with pytest.raises(ValueError, match="float odds take"):
        bid_probability_float(0, -1, 1, 1, 6, None)


def test_moderate_sizes_still_match_the_fractions() -> None:
    """Up to a million dice nothing changed: the float odds are the fraction odds."""
    for n, q in ((250, 50), (1000, 170), (2000, 660)):
        exact = bid_probability([1, 2], n, q, 2, 6, 1)
        assert bid_probability_float(2, n, q, 2, 6, 1) == pytest.approx(float(exact), abs=1e-12)


def test_the_float_bound_is_documented() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    for doc in ("README.md", "docs/format.rst"):
        text = " ".join((root / doc).read_text(encoding="utf-8").split())
        assert f"up to {MAX_FLOAT_DICE:,} dice" in text, doc
