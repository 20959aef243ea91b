"""The ``claim`` command: the claims an engine's ``hello`` sends for some editions.

``perudo-rules claim italian spanish`` prints a JSON list with one claim per edition, each
the exact knob values of the edition (:func:`perudo_rules.harness.claim_edition`), ready to
paste into an engine's reply to ``hello`` (:mod:`perudo_rules.conform.protocol`). ``--free
PATH`` claims any value (``"*"``) of a knob; ``--merge`` folds the editions into one claim,
a list of values where they differ, when that claim covers no other bundled edition (an
engine would be held to it) and the protocol takes it.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from perudo_rules.base.i18n import tr
from perudo_rules.conform.protocol import ANY, claim_covers, claims_problem
from perudo_rules.editions.knobs import KNOB_PATHS, same_value
from perudo_rules.editions.variant import Variant
from perudo_rules.editions.variantfile import available_variants, load_variant
from perudo_rules.harness import claim_edition

__all__ = ["edition_claims", "merge_claims", "register"]


def merge_claims(claims: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One claim of every value any of ``claims`` makes of each knob: ``"*"`` where one
    claims any, the value where all agree, else the list of their values (in order)."""
    merged: dict[str, Any] = {}
    for path in KNOB_PATHS:
        values: list[Any] = []
        for claim in claims:
            if path not in claim:
                continue
            got = claim[path]
            for value in got if isinstance(got, list) else [got]:
                if not any(same_value(value, v) for v in values):
                    values.append(value)
        if not values:
            continue
        if any(same_value(v, ANY) for v in values):
            merged[path] = ANY
        else:
            merged[path] = values[0] if len(values) == 1 else values
    return merged


def edition_claims(
    variants: Sequence[Variant], free: Sequence[str] = (), merge: bool = False
) -> list[dict[str, Any]]:
    """The claims of ``variants`` (one each, or one merged), any value for the knob paths
    ``free``; ``ValueError`` for a path that is no knob, or a merge the protocol refuses or
    that would also cover a bundled edition not given."""
    for path in free:
        if path not in KNOB_PATHS:
            raise ValueError(tr("--free {path}: there is no such knob path", path=path))
    claims = [claim_edition(v, free) for v in variants]
    if not merge:
        return claims
    merged = [merge_claims(claims)]
    problem = claims_problem(merged)
    if problem is not None:
        raise ValueError(tr("--merge: the merged claim is not valid: {problem}", problem=problem))
    given = {v.id for v in variants}
    for vid in available_variants():
        if vid not in given and claim_covers(merged, load_variant(vid).values()):
            raise ValueError(
                tr(
                    "--merge: the merged claim would also cover the edition {edition}, which "
                    "was not given: give it too, or claim the editions apart",
                    edition=vid,
                )
            )
    return merged


def _run(args: argparse.Namespace) -> int:
    variants = [load_variant(ref) for ref in args.editions]
    claims = edition_claims(variants, args.free, args.merge)
    print(json.dumps(claims, indent=2))
    return 0


def register(subparsers: Any) -> None:
    """Add the ``claim`` command."""
    p = subparsers.add_parser(
        "claim",
        help=tr("print the claims an engine's hello sends for some editions"),
        description=tr(
            "Print, as a JSON list ready to paste into an engine's reply to hello (the "
            "harness protocol), one claim per edition: every knob path with the edition's "
            "value."
        ),
    )
    p.add_argument(
        "editions", nargs="+", metavar="EDITION", help=tr("an edition id or file (repeatable)")
    )
    p.add_argument(
        "--free",
        action="append",
        default=[],
        metavar="PATH",
        help=tr("claim any value ('*') of this knob path (repeatable)"),
    )
    p.add_argument(
        "--merge",
        action="store_true",
        help=tr(
            "fold the editions into one claim, a list of values where they differ (refused "
            "where the claim would also cover a bundled edition not given)"
        ),
    )
    p.set_defaults(handler=_run)
