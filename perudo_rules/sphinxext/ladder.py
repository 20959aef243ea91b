"""The bid ladder: ``perudo-ladder``, bids in the order the engine ranks them."""

from __future__ import annotations

from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives

from perudo_rules.base.actions import Bid
from perudo_rules.base.i18n import ntr, ptr, tr
from perudo_rules.editions.variant import Variant
from perudo_rules.engine.ranks import BidSpace, bid_space
from perudo_rules.sphinxext.base import OneVariantDirective
from perudo_rules.sphinxext.shared import Cell, table

__all__ = ["LadderDirective", "bid_words"]

def _face_words(face: int, n: int) -> str:
    """``n`` dice of the ordinary ``face``: ``3 fours``, ``1 six``."""
    words = {
        1: lambda: ntr("{n} one", "{n} ones", n),
        2: lambda: ntr("{n} two", "{n} twos", n),
        3: lambda: ntr("{n} three", "{n} threes", n),
        4: lambda: ntr("{n} four", "{n} fours", n),
        5: lambda: ntr("{n} five", "{n} fives", n),
        6: lambda: ntr("{n} six", "{n} sixes", n),
    }
    said = words.get(face)
    if said:
        return said()
    return ntr("{n} die of face {face}", "{n} dice of face {face}", n, face=face)


def _wild_words(name: str, n: int) -> str:
    """``n`` wilds called ``name`` (an edition's ``wild.name``): ``2 Aztecs``, ``1 Paco``."""
    words = {
        "Aztec": lambda: ntr("{n} Aztec", "{n} Aztecs", n),
        "Paco": lambda: ntr("{n} Paco", "{n} Pacos", n),
        "star": lambda: ntr("{n} star", "{n} stars", n),
        "ace": lambda: ntr("{n} ace", "{n} aces", n),
        "wild": lambda: ntr("{n} wild", "{n} wilds", n),
    }
    said = words.get(name)
    if said:
        return said()
    return ntr("{n} {wild}", "{n} {wild}s", n, wild=ptr("wild", name))


def bid_words(bid: Bid, wild: int | None, wild_name: str) -> str:
    """``3 fours``, ``1 six``, ``2 Aztecs``: a bid in words (in the language of the
    context)."""
    if bid.face == wild:
        return _wild_words(wild_name, bid.quantity)
    return _face_words(bid.face, bid.quantity)


def _rank(space: BidSpace, bid: Bid) -> int:
    """The engine rank of ``bid`` (one the round holds)."""
    return space.rank(bid.quantity, bid.face) or 0


def _ladder(space: BidSpace, bids: list[Bid], wild_name: str) -> nodes.paragraph:
    """``2 Pacos < 3 fours < 1 five``: the bids sorted by rank, in words."""
    out = nodes.paragraph(classes=["perudo-ladder"])
    for i, bid in enumerate(sorted(bids, key=lambda b: _rank(space, b))):
        if i:
            out += nodes.inline(text=" < ", classes=["perudo-lt"])
        out += nodes.literal(text=bid_words(bid, space.wild, wild_name))
    return out


def _window_table(space: BidSpace, first: Bid, last: Bid, wild_name: str) -> nodes.table:
    """Every bid ranked from ``first`` to ``last`` (either order), wild rows marked."""
    lo, hi = sorted((_rank(space, first), _rank(space, last)))
    rows: list[list[Cell]] = []
    row_classes = []
    for r in range(lo, hi + 1):
        bid = Bid(0, *space.bid(r))
        rows.append([str(r), nodes.literal(text=str(bid)), bid_words(bid, space.wild, wild_name)])
        row_classes.append(["perudo-wild-row"] if bid.face == space.wild else [])
    return table(
        [tr("Rank"), tr("Bid"), tr("Reads")],
        rows,
        classes=["perudo-ladder-table"],
        widths=[1, 1, 3],
        row_classes=row_classes,
    )


class LadderDirective(OneVariantDirective):
    """``.. perudo-ladder:: ID``: bids in the order the engine ranks them.

    ``:bids: 5x4 3x4 2x1`` lists bids sorted by rank as a ladder sentence;
    ``:window: 3x5 5x2`` tabulates every bid from the first to the second by rank;
    ``:dice:`` is the number of dice in play (default 10); ``:palifico:`` ranks a
    palifico round.
    """

    option_spec: ClassVar[dict[str, Any]] = {
        "bids": directives.unchanged,
        "window": directives.unchanged,
        "dice": directives.positive_int,
        "palifico": directives.flag,
    }

    def run_variant(self, vid: str, variant: Variant) -> list[nodes.Node]:
        dice = self.options.get("dice", 10)
        palifico = "palifico" in self.options
        space = bid_space(variant.rules, dice, palifico)
        wild_name: str = variant["wild.name"]
        bids = self.bid_option("bids", space, dice)
        window = self.bid_option("window", space, dice)
        out: list[nodes.Node] = []
        if bids:
            out.append(_ladder(space, bids, wild_name))
        if window:
            if len(window) != 2:
                raise self.error(":window: takes two bids, the first and the last")
            name, last = tr(variant.name), space.size - 1
            if palifico:
                text = tr(
                    "{edition}, a palifico round with {dice} dice in play ({n} bids, ranks 0 "
                    "to {last}):", edition=name, dice=dice, n=space.size, last=last,
                )  # fmt: skip
            else:
                text = tr(
                    "{edition}, an ordinary round with {dice} dice in play ({n} bids, ranks 0 "
                    "to {last}):", edition=name, dice=dice, n=space.size, last=last,
                )  # fmt: skip
            out.append(nodes.paragraph(text=text))
            out.append(_window_table(space, window[0], window[1], wild_name))
        return out

    def bid_option(self, option: str, space: BidSpace, dice: int) -> list[Bid]:
        """The bids of ``option`` (``5x4 3x4``); an error for one the round cannot hold."""
        try:
            bids = [Bid.parse(text) for text in self.options.get(option, "").split()]
        except ValueError as err:
            raise self.error(str(err)) from None
        for bid in bids:
            if space.rank(bid.quantity, bid.face) is None:
                raise self.error(f"{bid} is not a bid of a round with {dice} dice")
        return bids
