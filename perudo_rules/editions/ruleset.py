"""The knob values of a variant in typed form: one field per knob of
:mod:`perudo_rules.editions.knobs`.

Not :mod:`perudo_rules.editions.corerules`, which holds the text of the fixed core rules.

A field is named after its knob's path with the dot replaced by an underscore
(``calza.next_starts`` is ``rules.calza_next_starts``); a choice knob is typed as a
``Literal`` of exactly its choices. The fields are written by ``tools/generate.py`` from the
knob table (``tests/test_kernel.py`` fails while they are stale), and
:meth:`Ruleset.from_values` builds them from :data:`~perudo_rules.editions.knobs.KNOB_PATHS`,
so the two cannot drift.

Two values are derived, not knobs: :attr:`Ruleset.wild` (the wild face as a number, with
``"highest"`` resolved) and :attr:`Ruleset.direction` (the direction of play as a seat
step: ``+1`` for ``setup.direction: left``, ``-1`` for ``right``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from perudo_rules.base.frozen import pickle_by_fields
from perudo_rules.editions.knobs import KNOB_PATHS

__all__ = ["Ruleset", "field_name"]


def field_name(path: str) -> str:
    """The :class:`Ruleset` field of a knob path: ``"calza.who"`` -> ``"calza_who"``."""
    return path.replace(".", "_")


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The knob values of a variant, typed, as the rules kernel reads them.

    Hashable by value; the hash is computed once (the kernel keys its per-round tables
    by the ruleset, so hashing must be cheap).
    """

    # [knob fields: generated from the knob table by tools/generate.py]
    players_min: int
    players_max: int
    dice_per_player: int
    dice_faces: int
    dice_max_per_player: int
    wild_face: int | Literal["highest"] | None
    wild_name: str
    setup_first_player: Literal["roll_off", "seat_zero"]
    setup_rolloff_dice: int
    setup_direction: Literal["left", "right"]
    setup_rolloff_score: Literal["total", "highest_die"]
    setup_rolloff_wild_best: bool
    bidding_order: Literal["quantity_then_face", "face_then_quantity", "neither_decreases"]
    bidding_wild_worth: int
    bidding_wild_rank: Literal["above_multiple", "below_multiple"]
    bidding_wild_opening: Literal["allowed", "not_as_opening_bid", "not_in_first_round"]
    bidding_quantity_cap: Literal["dice_in_play", "none"]
    bidding_quantity_limit: int | None
    reroll_enabled: bool
    reroll_min_hidden: int
    reroll_limit: Literal["once_per_turn", "once_per_round"]
    reroll_must_bid: bool
    challenge_who: Literal["player_to_move", "any_except_bidder", "any_except_bidder_in_palifico"]
    challenge_loss: Literal["one_die", "difference"]
    challenge_exact: Literal["challenger_loses", "others_lose"]
    challenge_early_stop: bool
    challenge_stop_when_unreachable: bool
    calza_enabled: bool
    calza_who: Literal[
        "any_except_bidder_and_next",
        "any_except_bidder",
        "player_to_move",
        "any_except_next",
        "anyone",
    ]
    calza_gain_cap: int
    calza_min_players: int
    calza_next_starts: Literal["caller", "player_to_move", "loser_else_bidder"]
    calza_in_palifico: bool
    palifico_enabled: bool
    palifico_trigger: Literal["reduced_to_one", "starts_with_one", "reduced_to_one_by_dudo"]
    palifico_once_per_player: bool
    palifico_wilds_count: bool
    palifico_face_lock: Literal[
        "locked",
        "locked_except_single_die",
        "free",
        "locked_except_former_palifico",
        "locked_except_single_die_or_former_palifico",
    ]
    palifico_heads_up: bool
    palifico_opener_may_change: bool
    palifico_wild_bids: Literal["allowed", "not_as_opening_bid", "forbidden"]
    round_starter: Literal["loser", "challenge_winner", "after_caller"]
    end_condition: Literal["last_player_standing", "single_round"]
    leave_round: Literal["void", "continues"]
    leave_next_starts: Literal["round_opener", "player_to_move", "after_leaver"]
    # [end of the knob fields]
    wild: int | None = field(init=False, compare=False, repr=False)
    direction: int = field(init=False, compare=False, repr=False)
    _hash: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        wild = self.dice_faces if self.wild_face == "highest" else self.wild_face
        object.__setattr__(self, "wild", wild)
        object.__setattr__(self, "direction", 1 if self.setup_direction == "left" else -1)
        object.__setattr__(
            self, "_hash", hash(tuple(getattr(self, field_name(p)) for p in KNOB_PATHS))
        )

    def __hash__(self) -> int:
        return self._hash

    @classmethod
    def from_values(cls, values: Mapping[str, Any]) -> Ruleset:
        """Build from a mapping of knob path to value (complete and consistent)."""
        return cls(**{field_name(p): values[p] for p in KNOB_PATHS})

    def value(self, path: str) -> Any:
        """The value of the knob at ``path`` (``KeyError`` if the path is not a knob)."""
        if path not in KNOB_PATHS:
            raise KeyError(path)
        return getattr(self, field_name(path))


pickle_by_fields(Ruleset)  # the compiled build's Ruleset has no dataclass slot state
