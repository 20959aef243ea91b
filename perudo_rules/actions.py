"""Actions: value objects whose ``repr`` pastes back as code."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Action", "Bid", "Calza", "Dudo", "parse_bid"]


@dataclass(frozen=True, slots=True)
class Bid:
    """``player`` claims that at least ``quantity`` dice on the table count as ``face``."""

    player: int
    quantity: int
    face: int

    def __str__(self) -> str:
        return f"{self.quantity}x{self.face}"


@dataclass(frozen=True, slots=True)
class Dudo:
    """``player`` doubts the standing bid: the cups are lifted and someone loses a die."""

    player: int

    def __str__(self) -> str:
        return "dudo"


@dataclass(frozen=True, slots=True)
class Calza:
    """``player`` claims the standing bid is exact: right gains a die, wrong loses one."""

    player: int

    def __str__(self) -> str:
        return "calza"


Action = Bid | Dudo | Calza


def parse_bid(text: str, player: int = 0) -> Bid:
    """Parse ``"5x4"``, ``"5 4"`` or ``"5*4"`` into a :class:`Bid` (``ValueError`` if not a bid).

    >>> parse_bid("5x4", player=2)
    Bid(player=2, quantity=5, face=4)
    """
    cleaned = text.strip().lower().replace("*", "x").replace(" ", "x")
    parts = [p for p in cleaned.split("x") if p]
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise ValueError(f"not a bid: {text!r} (write quantity x face, e.g. 5x4)")
    return Bid(player=player, quantity=int(parts[0]), face=int(parts[1]))
