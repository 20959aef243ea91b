"""The rules between knobs: which combinations of knob values a variant may not have.

:func:`knob_conflicts` is every such rule, checked on a complete mapping of knob path to
value; :mod:`perudo_rules.editions.variantfile` reports each conflict where the later of its
knobs was set (file, key path, line). Bounds that keep a round's tables finite
(:mod:`perudo_rules.base.limits`) are among them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from perudo_rules.base.i18n import tr
from perudo_rules.base.limits import MAX_BIDS, MAX_PLAYERS

__all__ = ["knob_conflicts", "set_aside_choices"]


def set_aside_choices(faces: int, dice: int) -> int:
    """The most different sets of dice a re-roll can offer to set aside from ``dice``
    concealed dice of a d``faces`` (``reroll.enabled``): a cup whose faces are spread as
    evenly as they can be, ``(c + 1)`` ways for each face it holds ``c`` times, less the
    empty set. The re-rolls :class:`~perudo_rules.engine.legal.LegalActions` lists are never
    more."""
    if dice <= 0:
        return 0
    q, r = divmod(dice, faces)
    ways: int = (q + 2) ** r * (q + 1) ** (faces - r)  # int ** int is Any to mypy
    return ways - 1


def knob_conflicts(v: Mapping[str, Any]) -> list[tuple[str, tuple[str, ...]]]:
    """Every rule between knobs that the knob values ``v`` (every path) break: one
    sentence each, with the knob paths it involves."""
    out: list[tuple[str, tuple[str, ...]]] = []

    def fail(message: str, *paths: str) -> None:
        out.append((message, paths))

    if v["players.min"] > v["players.max"]:
        fail(tr("players.min is larger than players.max"), "players.min", "players.max")
    if v["players.max"] > MAX_PLAYERS:
        fail(tr("players.max is above the limit of {most}", most=MAX_PLAYERS), "players.max")
    bids = v["dice.faces"] * v["players.max"] * v["dice.max_per_player"]
    if bids > MAX_BIDS:
        fail(
            tr(
                "{seats} seats x {dice} dice x {faces} faces makes {bids} bids a round; "
                "the limit is {most}",
                seats=v["players.max"],
                dice=v["dice.max_per_player"],
                faces=v["dice.faces"],
                bids=bids,
                most=MAX_BIDS,
            ),
            "dice.max_per_player",
            "players.max",
            "dice.faces",
        )
    if v["dice.per_player"] > v["dice.max_per_player"]:
        fail(
            tr(
                "more starting dice than dice.max_per_player ({start} > {most})",
                start=v["dice.per_player"],
                most=v["dice.max_per_player"],
            ),
            "dice.per_player",
            "dice.max_per_player",
        )
    wild = v["wild.face"]
    if isinstance(wild, int) and wild > v["dice.faces"]:
        fail(
            tr("wild face {wild} is not a face of a d{faces}", wild=wild, faces=v["dice.faces"]),
            "wild.face",
            "dice.faces",
        )
    if v["calza.gain_cap"] > v["dice.max_per_player"]:
        fail(
            tr("calza.gain_cap exceeds dice.max_per_player"),
            "calza.gain_cap",
            "dice.max_per_player",
        )
    order = v["bidding.order"]
    if order != "quantity_then_face" and v["bidding.wild_worth"] != 1:
        fail(tr("{order} needs bidding.wild_worth 1", order=order), "bidding.wild_worth",
             "bidding.order")  # fmt: skip
    if v["end.condition"] == "single_round":
        if v["players.max"] != 2:
            fail(tr("single_round games need players.max 2"), "end.condition", "players.max")
        if v["calza.enabled"]:
            fail(tr("single_round games cannot enable calza"), "end.condition", "calza.enabled")
    if v["reroll.enabled"]:
        most = v["dice.max_per_player"]
        choices = set_aside_choices(v["dice.faces"], most)
        if choices > MAX_BIDS:
            fail(
                tr(
                    "a re-roll may offer {choices} different sets of dice to set aside (a cup "
                    "of {dice} dice of {faces} faces); the limit is {most}",
                    choices=choices,
                    dice=most,
                    faces=v["dice.faces"],
                    most=MAX_BIDS,
                ),
                "reroll.enabled",
                "reroll.min_hidden",
                "dice.max_per_player",
                "dice.faces",
            )
    return out
