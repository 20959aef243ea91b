"""Exact odds of a bid, from one seat's point of view.

A seat sees its own dice and knows how many other dice are on the table
(``unknown``). Each unknown die independently counts as the bid's face with
probability ``p``:

* ``p = 1/faces`` when the round has no wild face (a palifico round where
  wilds do not count, or a variant without wilds) or when the bid is on the
  wild face itself;
* ``p = 2/faces`` otherwise (the face itself, or the wild face).

So the count of a face is the seat's own matching dice plus a binomial
``B(unknown, p)``. Every function here is exact (:class:`fractions.Fraction`), over at
most :data:`~perudo_rules.base.limits.MAX_EXACT_DICE` unseen dice; the ``*_float`` helpers
give the same numbers as floats, cached, for bots that ask thousands of times per
game, for up to :data:`~perudo_rules.base.limits.MAX_FLOAT_DICE` dice (from logarithms above
200 dice, from the Edgeworth expansion above a million: no overflow, no lost digits).

>>> bid_probability(own_dice=[1, 3], unknown=2, quantity=4, face=3, faces=6, wild=1)
Fraction(1, 9)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from perudo_rules.base.actions import Bid
from perudo_rules.base.i18n import tr
from perudo_rules.base.limits import MAX_EXACT_DICE, MAX_FACES, MAX_FLOAT_DICE, short_number
from perudo_rules.base.messages import given
from perudo_rules.editions.ruleset import Ruleset
from perudo_rules.engine.game import Game
from perudo_rules.engine.kernel import count_matching
from perudo_rules.engine.ranks import bid_space

__all__ = [
    "BidOdds",
    "bid_probability",
    "bid_probability_float",
    "count_distribution",
    "exact_probability",
    "exact_probability_float",
    "from_game",
    "matches",
    "round_wild",
    "success_probability",
]


def _check(face: int, faces: int, wild: int | None, unknown: int) -> None:
    if type(faces) is not int or faces < 2:
        raise ValueError(tr("a die needs at least two faces, not {value}", value=given(faces)))
    if type(face) is not int or not 1 <= face <= faces:
        raise ValueError(tr("{face} is not a face of a d{faces}", face=given(face), faces=faces))
    if wild is not None and (type(wild) is not int or not 1 <= wild <= faces):
        raise ValueError(
            tr("wild face {wild} is not a face of a d{faces}", wild=given(wild), faces=faces)
        )
    if type(unknown) is not int or unknown < 0:
        raise ValueError(
            tr("the number of unknown dice must be a non-negative int, not {value}",
               value=given(unknown))
        )  # fmt: skip


def success_probability(face: int, faces: int, wild: int | None) -> Fraction:
    """The chance that one unseen die counts as ``face``: ``1/faces`` or ``2/faces``."""
    _check(face, faces, wild, 0)
    if wild is None or face == wild:
        return Fraction(1, faces)
    return Fraction(2, faces)


def matches(dice: Sequence[int], face: int, wild: int | None) -> int:
    """How many of ``dice`` count as ``face``: the kernel's count rule
    (:func:`perudo_rules.engine.kernel.count_matching`) on one seat's dice."""
    return count_matching((tuple(dice),), face, wild)


def round_wild(rules: Ruleset, palifico: bool) -> int | None:
    """The wild face of a round: the variant's wild, or ``None`` in a palifico round
    where wilds do not count (``palifico.wilds_count``)."""
    return bid_space(rules, 1, palifico).wild


def count_distribution(
    own_dice: Sequence[int], unknown: int, face: int, faces: int, wild: int | None
) -> list[Fraction]:
    """``P(count == k)`` for ``k = 0 .. len(own_dice) + unknown``, exactly.

    ``count`` is the number of dice on the whole table that count as ``face``
    given that the caller holds ``own_dice`` and ``unknown`` other dice are hidden.
    Exact fractions cost time that grows fast with ``unknown``: more than
    :data:`~perudo_rules.base.limits.MAX_EXACT_DICE` is a ``ValueError`` (the ``*_float``
    helpers take any number).
    """
    _check(face, faces, wild, unknown)
    if unknown > MAX_EXACT_DICE:
        raise ValueError(
            tr("exact odds over {unknown} unseen dice are not computed (the limit is "
               "{limit}); use bid_probability_float", unknown=unknown, limit=MAX_EXACT_DICE)
        )  # fmt: skip
    for d in own_dice:
        if type(d) is not int or not 1 <= d <= faces:
            raise ValueError(
                tr("own die {die} is not a face of a d{faces}", die=given(d), faces=faces)
            )
    known = matches(own_dice, face, wild)
    p = success_probability(face, faces, wild)
    q = 1 - p
    dist = [Fraction(0)] * (len(own_dice) + unknown + 1)
    for j in range(unknown + 1):
        dist[known + j] = math.comb(unknown, j) * p**j * q ** (unknown - j)
    return dist


def bid_probability(
    own_dice: Sequence[int],
    unknown: int,
    quantity: int,
    face: int,
    faces: int,
    wild: int | None,
) -> Fraction:
    """``P(count >= quantity)``: the chance that the bid ``quantity x face`` holds."""
    dist = count_distribution(own_dice, unknown, face, faces, wild)
    if quantity <= 0:
        return Fraction(1)
    return sum(dist[quantity:], Fraction(0))


def exact_probability(
    own_dice: Sequence[int],
    unknown: int,
    quantity: int,
    face: int,
    faces: int,
    wild: int | None,
) -> Fraction:
    """``P(count == quantity)``: the chance that a Calza on ``quantity x face`` is right."""
    dist = count_distribution(own_dice, unknown, face, faces, wild)
    if not 0 <= quantity < len(dist):
        return Fraction(0)
    return dist[quantity]


#: Up to this many unknown dice the float odds sum the exact terms (``comb(n, j)`` as a
#: float, as the bundled editions play); above, each term comes from logarithms and only those
#: that matter are summed: 50,000 dice cost a few hundred terms, and no term can overflow.
_EXACT_TERMS = 200
#: Above this many unknown dice the float odds come from the Edgeworth expansion
#: (:func:`_edgeworth_tail`): summing terms would take ever longer (some sqrt(n) of them)
#: and ``lgamma`` of a huge ``n`` loses the digits that tell the terms apart.
_SUM_TERMS = 10**6


def _log_point(n: int, k: int, p: float) -> float:
    """``log P(B(n, p) == k)`` for ``0 < p < 1``."""
    return (
        math.lgamma(n + 1)
        - math.lgamma(k + 1)
        - math.lgamma(n - k + 1)
        + k * math.log(p)
        + (n - k) * math.log1p(-p)
    )


def _side_sum(n: int, start: int, step: int, p: float) -> float:
    """``sum P(B(n, p) == j)`` from ``j = start`` away from the mean (``step`` is +1 above
    it, -1 below), stopping once the terms no longer change the sum."""
    total = 0.0
    j = start
    while 0 <= j <= n:
        term = math.exp(_log_point(n, j, p))
        total += term
        if term <= total * 1e-17:
            break
        j += step
    return total


def _edgeworth_tail(n: int, need: int, num: int, faces: int) -> float:
    """``P(B(n, num/faces) >= need)`` for a large ``n``, from the Edgeworth expansion to
    the terms in 1/n, evaluated at ``need - 1/2``: the count is the grouping of a smooth
    law with cumulants ``npq - 1/12``, ``npq(q-p)``, ``npq(1-6pq) + 1/120`` (Sheppard's
    corrections, reversed), and the error falls as ``(npq) ** -1.5``: below 1e-8 above
    :data:`_SUM_TERMS` dice of at most 100 faces (measured by ``tests/test_probability.py``).
    The distance to the mean is computed exactly in integers, so a huge ``n`` loses no
    digits; a symmetric bid (``p = 1/2``) at the mean is exactly 0.5."""
    p = num / faces
    q = 1.0 - p
    npq = n * p * q
    sd = math.sqrt(npq - 1 / 12)
    z = ((2 * need - 1) * faces - 2 * n * num) / (2 * faces) / sd
    if z > 38.0:  # beyond, both the tail and its corrections are below 1e-300
        return 0.0
    if z < -38.0:
        return 1.0
    g1 = npq * (q - p) / sd**3
    g2 = (npq * (1.0 - 6.0 * p * q) + 1 / 120) / sd**4
    z2 = z * z
    he2 = z2 - 1.0
    he3 = z * (z2 - 3.0)
    he5 = z * (z2 * (z2 - 10.0) + 15.0)
    phi = math.exp(-0.5 * z2) / math.sqrt(2.0 * math.pi)
    upper = 0.5 * math.erfc(z / math.sqrt(2.0))
    upper += phi * (g1 / 6.0 * he2 + g2 / 24.0 * he3 + g1 * g1 / 72.0 * he5)
    return min(1.0, max(0.0, upper))


@functools.lru_cache(maxsize=65536)
def _tail_float(n: int, need: int, num: int, faces: int) -> float:
    # P(B(n, num/faces) >= need), 0 < need <= n
    p = num / faces
    if p >= 1.0:
        return 1.0
    if n > _SUM_TERMS:
        return _edgeworth_tail(n, need, num, faces)
    if n <= _EXACT_TERMS:
        q = 1.0 - p
        return math.fsum(math.comb(n, j) * p**j * q ** (n - j) for j in range(need, n + 1))
    if need > n * p:  # the upper tail: terms fall from `need` upwards
        return min(1.0, _side_sum(n, need, 1, p))
    return max(0.0, 1.0 - _side_sum(n, need - 1, -1, p))  # one minus the lower tail


@functools.lru_cache(maxsize=65536)
def _point_float(n: int, k: int, num: int, faces: int) -> float:
    p = num / faces
    if p >= 1.0:
        return 1.0 if k == n else 0.0
    if n <= _EXACT_TERMS:
        return math.comb(n, k) * p**k * (1.0 - p) ** (n - k)
    if n > _SUM_TERMS:  # P(X >= k) - P(X >= k + 1): lgamma(n) is too coarse here
        above = _edgeworth_tail(n, k + 1, num, faces) if k < n else 0.0
        return max(0.0, (_edgeworth_tail(n, k, num, faces) if k else 1.0) - above)
    return math.exp(_log_point(n, k, p))


def _num(face: int, wild: int | None) -> int:
    return 1 if wild is None or face == wild else 2


def _check_float(unknown: int, faces: int) -> None:
    if type(unknown) is not int or not 0 <= unknown <= MAX_FLOAT_DICE:
        raise ValueError(
            tr("float odds take 0 to {most:,} unseen dice, not {value}",
               most=MAX_FLOAT_DICE, value=short_number(unknown))
        )  # fmt: skip
    if unknown > _SUM_TERMS and not (type(faces) is int and 2 <= faces <= MAX_FACES):
        raise ValueError(
            tr("float odds over more than {terms:,} unseen dice take dice of 2 to {most} "
               "faces, not {value}", terms=_SUM_TERMS, most=MAX_FACES, value=short_number(faces))
        )  # fmt: skip


def bid_probability_float(
    known: int, unknown: int, quantity: int, face: int, faces: int, wild: int | None
) -> float:
    """:func:`bid_probability` as a float, from the number of ``known`` matching own dice.

    Any number of ``unknown`` dice up to :data:`~perudo_rules.base.limits.MAX_FLOAT_DICE`
    (more is a ``ValueError``, as are more than a million dice of more than
    :data:`~perudo_rules.base.limits.MAX_FACES` faces), each answer in a few milliseconds at
    most: exact terms up to 200 dice, summed from logarithms up to a million, the
    Edgeworth expansion above (absolute error below 1e-8)."""
    _check_float(unknown, faces)
    need = quantity - known
    if need <= 0:
        return 1.0
    if need > unknown:
        return 0.0
    return _tail_float(unknown, need, _num(face, wild), faces)


def exact_probability_float(
    known: int, unknown: int, quantity: int, face: int, faces: int, wild: int | None
) -> float:
    """:func:`exact_probability` as a float, from the number of ``known`` matching own dice
    (as :func:`bid_probability_float`, up to :data:`~perudo_rules.base.limits.MAX_FLOAT_DICE`)."""
    _check_float(unknown, faces)
    k = quantity - known
    if not 0 <= k <= unknown:
        return 0.0
    return _point_float(unknown, k, _num(face, wild), faces)


@dataclass(frozen=True, slots=True)
class BidOdds:
    """The odds of one bid as seat ``player`` sees them.

    ``known`` is how many of the seat's own dice count for the bid, ``unknown``
    how many dice it cannot see; ``holds`` is ``P(count >= quantity)``,
    ``exact`` is ``P(count == quantity)``, ``distribution[k]`` is ``P(count == k)``.
    """

    player: int
    bid: Bid
    wild: int | None
    known: int
    unknown: int
    holds: Fraction
    exact: Fraction
    distribution: tuple[Fraction, ...]


def from_game(game: Game, player: int, bid: Bid | None = None) -> BidOdds:
    """The odds of ``bid`` (default: the standing bid) for seat ``player`` of ``game``.

    Uses only what the seat may see: :meth:`Game.observation` (own dice, the dice every
    seat set aside face up, dice counts) and the round's wild rule.
    """
    if bid is None:
        bid = game.current_bid
        if bid is None:
            raise ValueError(tr("there is no standing bid; pass the bid to evaluate"))
    obs = game.observation(player)
    if game.to_move is None:
        raise ValueError(tr("no round is being played; roll the dice first"))
    wild = game.space.wild
    own = list(obs.dice)  # and the dice the other seats set aside face up: seen too
    own += [d for s, cup in enumerate(obs.set_aside) if s != player for d in cup]
    unknown = sum(obs.dice_counts) - len(own)
    dist = count_distribution(own, unknown, bid.face, game.rules.dice_faces, wild)
    q = bid.quantity
    return BidOdds(
        player=player,
        bid=bid,
        wild=wild,
        known=matches(own, bid.face, wild),
        unknown=unknown,
        holds=sum(dist[max(q, 0) :], Fraction(0)),
        exact=dist[q] if 0 <= q < len(dist) else Fraction(0),
        distribution=tuple(dist),
    )
