"""What is fixed for one registered OpenSpiel game: its name, action ids, chance outcomes,
length bounds; the games' OpenSpiel names; and the specs built in this process."""

from __future__ import annotations

import hashlib
import json
import operator
import re
from dataclasses import dataclass
from pathlib import Path

from perudo_rules.base.i18n import tr
from perudo_rules.base.messages import given
from perudo_rules.editions.ruleset import Ruleset
from perudo_rules.editions.variant import Variant
from perudo_rules.editions.variantfile import available_variants, load_variant
from perudo_rules.engine.actionmap import ActionMap, action_map, check_players, most_offers
from perudo_rules.engine.ranks import bid_space
from perudo_rules.engine.settlement import most_dice_per_seat, rounds_may_keep_dice

__all__ = [
    "MAX_GAME_LENGTH",
    "REGISTERED",
    "GameSpec",
    "build_spec",
    "check_max_rounds",
    "family_name",
    "game_length",
    "game_name",
    "round_cap",
    "spec_for",
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
    them) at the largest table, ``round_moves`` the same by the dice in play at a round's
    start (index: the dice; exact up to :data:`EXACT_DICE`, the largest table's figure
    above), ``most_rounds`` the largest ``max_rounds``
    (:data:`MAX_GAME_LENGTH` // ``moves_per_round``), ``single_round`` whether the first
    call ends the game (``end.condition: single_round``).
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
    round_moves: tuple[int, ...]
    single_round: bool
    most_rounds: int
    die_outcomes: tuple[tuple[int, float], ...]
    seat_outcomes: tuple[tuple[int, float], ...]


REGISTERED: dict[str, GameSpec] = {}
"""The specs built in this process, by :func:`game_name` (a game's positions pickle by that
name, :func:`~perudo_rules.openspiel.nodes.node_after`)."""


def _digest(v: Variant) -> str | None:
    """``None`` for a bundled variant as shipped, else a hash of its knob values."""
    if v.id in available_variants() and load_variant(v.id).values() == v.values():
        return None
    return hashlib.sha1(
        json.dumps(v.values(), sort_keys=True).encode(), usedforsecurity=False
    ).hexdigest()[:10]


def family_name(variant: str | Path | Variant) -> str:
    """The OpenSpiel short name of ``variant``, its seat count a game parameter
    (``pyspiel.load_game("perudo_italian", {"players": 3})``).

    ``perudo_<id>`` for a bundled variant as shipped (registered when
    :mod:`perudo_rules.openspiel` is imported), with an ``_<hash>`` of the knob values
    appended for any other (overrides, files: registered by ``load_game``).
    """
    v = variant if isinstance(variant, Variant) else load_variant(variant)
    base = f"perudo_{re.sub(r'[^0-9A-Za-z]+', '_', v.id)}"
    digest = _digest(v)
    return base if digest is None else f"{base}_{digest}"


def game_name(variant: str | Path | Variant, players: int = 2) -> str:
    """The OpenSpiel short name of ``variant`` with ``players`` seats fixed (the name of
    earlier releases, still registered beside :func:`family_name`).

    ``perudo_<id>_<players>p`` for a bundled variant as shipped, with an
    ``_<hash>`` of the knob values appended for any other (overrides, files).
    """
    v = variant if isinstance(variant, Variant) else load_variant(variant)
    check_players(v, players)
    base = f"perudo_{re.sub(r'[^0-9A-Za-z]+', '_', v.id)}_{players}p"
    digest = _digest(v)
    return base if digest is None else f"{base}_{digest}"


EXACT_DICE = 120
"""Up to this many dice in play, a round's most moves are counted on its own bid table;
above it, on the largest table (a bound still, cheaper to build on huge tables)."""


def _round_moves(rules: Ruleset, bids: int, offers: int) -> int:
    """The most decisions of a round whose table holds ``bids`` bids: the bids (strictly
    rising), each followed by its out-of-turn offers, then the call; with
    ``reroll.enabled`` a re-roll may open each turn too."""
    moves = bids * (1 + offers) + 1
    if rules.reroll_enabled:
        moves += bids + 1
    return moves


def _table_size(rules: Ruleset, dice: int) -> int:
    """The most bids of a round with ``dice`` in play: its table, ordinary or palifico."""
    return max(bid_space(rules, dice, False).size, bid_space(rules, dice, True).size)


def round_cap(spec: GameSpec, max_rounds: int) -> int:
    """The most rounds a game of ``spec`` capped at ``max_rounds`` can play: one for a
    single-round game, at most :attr:`GameSpec.natural_rounds` where every round costs a
    die, else ``max_rounds``."""
    if spec.single_round:
        return 1
    if not rounds_may_keep_dice(spec.variant.rules):
        return min(max_rounds, spec.natural_rounds)
    return max_rounds


def game_length(spec: GameSpec, max_rounds: int) -> int:
    """The most decisions of a game of ``spec`` capped at ``max_rounds`` rounds (OpenSpiel's
    ``max_game_length``; chance outcomes are not counted). Round ``k`` (from 0) starts with
    at most ``start - k`` dice where every round costs one (``k`` more where an exact Calza
    may give one back, up to the most the seats can hold); a single-round game plays one."""
    start = sum(spec.start_counts)
    most = spec.amap.max_dice
    moves = spec.round_moves
    rounds = round_cap(spec, max_rounds)
    if spec.single_round or not rounds_may_keep_dice(spec.variant.rules):
        return sum(moves[start - k] for k in range(rounds))
    growing = min(max_rounds, most - start)
    return sum(moves[start + k] for k in range(growing)) + (max_rounds - growing) * moves[most]


def build_spec(v: Variant, players: int) -> GameSpec:
    """The :class:`GameSpec` of ``v`` played by ``players`` seats (not registered yet)."""
    name = game_name(v, players)
    rules = v.rules
    start_counts = (rules.dice_per_player,) * players
    amap = action_map(v, players)
    offers = most_offers(rules, start_counts)
    moves_per_round = _round_moves(rules, amap.num_bids, offers)
    round_moves = tuple(
        _round_moves(rules, _table_size(rules, d), offers) if d <= EXACT_DICE else moves_per_round
        for d in range(amap.max_dice + 1)
    )
    most_rounds = MAX_GAME_LENGTH // moves_per_round
    single = rules.end_condition == "single_round"
    # A round that cannot keep every die costs one, and the last seat keeps at least one.
    natural = 1 if single else sum(start_counts) - 1
    default_rounds = 10 * sum(start_counts) if rounds_may_keep_dice(rules) else natural
    default_rounds = min(1 if single else default_rounds, most_rounds)
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
        round_moves=round_moves,
        single_round=single,
        most_rounds=most_rounds,
        die_outcomes=tuple((k, 1.0 / rules.dice_faces) for k in range(rules.dice_faces)),
        seat_outcomes=tuple((k, 1.0 / players) for k in range(players)),
    )


def spec_for(v: Variant, players: int) -> GameSpec:
    """The :class:`GameSpec` of ``v`` with ``players`` seats, built once per process and
    kept in :data:`REGISTERED` (``ValueError`` for a seat count ``v`` does not allow)."""
    name = game_name(v, players)
    spec = REGISTERED.get(name)
    if spec is None:
        spec = REGISTERED[name] = build_spec(v, players)
    return spec


def check_max_rounds(spec: GameSpec, value: object) -> int:
    """``value`` as the ``max_rounds`` of ``spec``'s game: a whole number (Python's or
    NumPy's) from 1 to :attr:`GameSpec.most_rounds`; else ``ValueError`` saying so."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise ValueError(tr("max_rounds must be a whole number, not {value}", value=given(value)))
    rounds = operator.index(value)
    if not 1 <= rounds <= spec.most_rounds:
        raise ValueError(
            tr("max_rounds must be 1 to {most:,} for {game}, not {rounds:,}: OpenSpiel's "
               "max_game_length (at most {length:,}) must hold max_rounds x {moves:,} moves "
               "a round", most=spec.most_rounds, game=spec.name, rounds=given(rounds),
               length=MAX_GAME_LENGTH, moves=spec.moves_per_round)
        )  # fmt: skip
    return rounds
