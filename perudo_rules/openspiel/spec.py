"""What is fixed for one registered OpenSpiel game: its name, action ids, chance outcomes,
length bounds and ``pyspiel.GameType``; and the games registered in this process."""

from __future__ import annotations

import hashlib
import json
import operator
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyspiel  # type: ignore[import-not-found]

from perudo_rules.editions.ruleset import Ruleset
from perudo_rules.editions.variant import Variant
from perudo_rules.editions.variantfile import available_variants, load_variant
from perudo_rules.engine.actionmap import ActionMap, action_map, check_players
from perudo_rules.engine.kernel import round_rules
from perudo_rules.engine.settlement import most_dice_per_seat, rounds_may_keep_dice

__all__ = [
    "MAX_GAME_LENGTH",
    "REGISTERED",
    "GameSpec",
    "build_spec",
    "check_max_rounds",
    "game_name",
    "most_offers",
]

MAX_GAME_LENGTH = 2**31 - 1
"""The longest game OpenSpiel can describe (``GameInfo.max_game_length`` is a 32-bit C++
``int``): ``max_rounds`` x the most moves of one round (:attr:`GameSpec.moves_per_round`)
must not exceed it, so a game's ``max_rounds`` runs from 1 to
:attr:`GameSpec.most_rounds`."""


@dataclass(frozen=True, slots=True, eq=False)
class GameSpec:
    """Everything fixed for one registered game: one variant played by ``players`` seats.

    ``start_counts`` are the seats' dice in the first round, ``seat_dice`` the most one
    seat can ever hold, ``roll_off`` whether a chance node settles who opens,
    ``natural_rounds`` the most rounds a game can last when every round costs a die,
    ``default_max_rounds`` the default of the ``max_rounds`` parameter, ``offers_per_bid``
    the most seats offered an out-of-turn call after one bid (:func:`most_offers`),
    ``moves_per_round`` the most decisions of one round (every bid, each followed by its
    out-of-turn offers, then the call; with ``reroll.enabled`` a re-roll before each of
    them), ``most_rounds`` the largest ``max_rounds``
    (:data:`MAX_GAME_LENGTH` // ``moves_per_round``).
    """

    name: str
    variant: Variant
    players: int
    amap: ActionMap
    start_counts: tuple[int, ...]
    seat_dice: int
    roll_off: bool
    natural_rounds: int
    default_max_rounds: int
    offers_per_bid: int
    moves_per_round: int
    most_rounds: int
    die_outcomes: tuple[tuple[int, float], ...]
    seat_outcomes: tuple[tuple[int, float], ...]
    game_type: Any


REGISTERED: dict[str, GameSpec] = {}
"""The games registered with OpenSpiel in this process, by name (OpenSpiel keeps every
registration for the life of the process, so this table does too)."""


def game_name(variant: str | Path | Variant, players: int = 2) -> str:
    """The OpenSpiel short name ``load_game`` registers for ``variant`` and ``players``.

    ``perudo_<id>_<players>p`` for a bundled variant as shipped, with an
    ``_<hash>`` of the knob values appended for any other (overrides, files).
    """
    v = variant if isinstance(variant, Variant) else load_variant(variant)
    check_players(v, players)
    base = f"perudo_{re.sub(r'[^0-9A-Za-z]+', '_', v.id)}_{players}p"
    if v.id in available_variants() and load_variant(v.id).values() == v.values():
        return base
    digest = hashlib.sha1(
        json.dumps(v.values(), sort_keys=True).encode(), usedforsecurity=False
    ).hexdigest()[:10]
    return f"{base}_{digest}"


def most_offers(rules: Ruleset, start_counts: tuple[int, ...]) -> int:
    """The most seats offered an out-of-turn call after one bid: the seats other than the
    player to move that the kernel lets call (:meth:`RoundRules.calls
    <perudo_rules.engine.kernel.RoundRules.calls>`) at the full starting table. Who may call
    depends only on being the bidder or the player to move, so a table with fewer seats
    offers no more."""
    rr = round_rules(rules, start_counts, False, 1, None, frozenset())
    bidder = 0
    to_move = rr.next_seat(bidder)
    return len({call.player for call in rr.calls(to_move, bidder)} - {to_move})


def build_spec(v: Variant, players: int) -> GameSpec:
    """The :class:`GameSpec` of ``v`` played by ``players`` seats (not registered yet)."""
    name = game_name(v, players)
    rules = v.rules
    start_counts = (rules.dice_per_player,) * players
    amap = action_map(v, players)
    offers = most_offers(rules, start_counts)
    moves_per_round = amap.num_bids * (1 + offers) + 1
    if rules.reroll_enabled:  # a re-roll may open each turn: every bid's and the call's
        moves_per_round += amap.num_bids + 1
    most_rounds = MAX_GAME_LENGTH // moves_per_round
    # A round that cannot keep every die costs one, and the last seat keeps at least one.
    natural = sum(start_counts) - 1
    default_rounds = 10 * sum(start_counts) if rounds_may_keep_dice(rules) else natural
    default_rounds = min(default_rounds, most_rounds)
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"{v.name}, {players} players (perudo-rules)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"max_rounds": default_rounds},
    )
    return GameSpec(
        name=name,
        variant=v,
        players=players,
        amap=amap,
        start_counts=start_counts,
        seat_dice=most_dice_per_seat(rules),
        roll_off=rules.setup_first_player == "roll_off",
        natural_rounds=natural,
        default_max_rounds=default_rounds,
        offers_per_bid=offers,
        moves_per_round=moves_per_round,
        most_rounds=most_rounds,
        die_outcomes=tuple((k, 1.0 / rules.dice_faces) for k in range(rules.dice_faces)),
        seat_outcomes=tuple((k, 1.0 / players) for k in range(players)),
        game_type=game_type,
    )


def check_max_rounds(spec: GameSpec, value: object) -> int:
    """``value`` as the ``max_rounds`` of ``spec``'s game: a whole number (Python's or
    NumPy's) from 1 to :attr:`GameSpec.most_rounds`; else ``ValueError`` saying so."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise ValueError(f"max_rounds must be a whole number, not {value!r}")
    rounds = operator.index(value)
    if not 1 <= rounds <= spec.most_rounds:
        raise ValueError(
            f"max_rounds must be 1 to {spec.most_rounds:,} for {spec.name}, not {rounds:,}: "
            f"OpenSpiel's max_game_length (at most {MAX_GAME_LENGTH:,}) must hold "
            f"max_rounds x {spec.moves_per_round:,} moves a round"
        )
    return rounds
