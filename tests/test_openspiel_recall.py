"""The OpenSpiel adapter's information states: the tensor is perfect recall (it tells apart
exactly the information states the string does, for every seat, earlier rounds included),
and ``max_game_length`` is true and tight (no game is longer; a single-round edition has
pyspiel's own figure, which a game reaches).

Every history of small games is walked (chance outcomes included), as a newcomer measuring
the adapter for Deep CFR or NFSP would; larger editions are sampled by random games.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest

pyspiel = pytest.importorskip(
    "pyspiel",
    reason="open_spiel (module pyspiel) cannot be imported: pip install 'perudo-rules[openspiel]'",
)

from perudo_rules import load_variant  # noqa: E402
from perudo_rules.openspiel import load_game  # noqa: E402


@dataclass
class Partition:
    """Information states met, by seat: each string's tensor and each tensor's string."""

    tensors: dict[tuple[int, str], tuple[float, ...]] = field(default_factory=dict)
    strings: dict[tuple[int, tuple[float, ...]], str] = field(default_factory=dict)
    longest: int = 0
    rounds: int = 0

    def add(self, state: Any) -> None:
        """Record what every seat sees of ``state`` (and check it against what was seen)."""
        for p in range(state.num_players()):
            text = state.information_state_string(p)
            tensor = tuple(state.information_state_tensor(p))
            # equal strings, equal tensors; different strings, different tensors
            assert self.tensors.setdefault((p, text), tensor) == tensor, text
            assert self.strings.setdefault((p, tensor), text) == text, (
                f"one tensor for two information states of seat {p}:\n"
                f"{self.strings[(p, tensor)]}\n{text}"
            )
        decisions = sum(1 for h in state.full_history() if h.player >= 0)
        self.longest = max(self.longest, decisions)
        game = state.perudo_game
        if game is not None:
            self.rounds = max(self.rounds, game.round)


def _walk(state: Any, seen: Partition) -> None:
    seen.add(state)
    if state.is_terminal():
        return
    if state.is_chance_node():
        actions = [a for a, _ in state.chance_outcomes()]
    else:
        actions = state.legal_actions()
    for a in actions:
        _walk(state.child(a), seen)


def _random_games(game: Any, games: int, seed: int) -> Partition:
    rng = random.Random(seed)
    seen = Partition()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            seen.add(state)
            legal = state.legal_actions()
            # Dudo (the lowest call id) a fifth of the time, so games run several rounds
            calls = [a for a in legal if a >= game.action_map.dudo]
            pick = calls if calls and rng.random() < 0.2 else legal
            state.apply_action(pick[rng.randrange(len(pick))])
        seen.add(state)
    return seen


def test_every_history_of_liars_dice_one_d4_each() -> None:
    v = load_variant("openspiel-liars-dice", overrides={"dice.faces": 4})
    game = load_game(v)
    seen = Partition()
    _walk(game.new_initial_state(), seen)
    theirs = pyspiel.load_game("liars_dice", {"dice_sides": 4})
    # every bid sequence and die, per seat (as test_openspiel_diff counts them), plus the
    # chance nodes' and terminal states' own
    assert len(seen.tensors) == len(seen.strings) > 2 * 4 * 2 ** (2 * 4)
    assert game.max_game_length() == theirs.max_game_length() == seen.longest == 8 + 1


def test_every_history_of_a_two_round_spanish_duel() -> None:
    """Spanish heads-up with one d2 each, at most two rounds: the second round's positions
    are told apart by the first round's dice, bids, call and lifted cups."""
    v = load_variant(
        "spanish",
        overrides={
            "dice.faces": 2,
            "dice.per_player": 1,
            "dice.max_per_player": 2,
            "calza.gain_cap": 2,
        },
    )
    game = load_game(v, 2, max_rounds=2)
    seen = Partition()
    _walk(game.new_initial_state(), seen)
    assert seen.rounds == 2
    assert len(seen.tensors) > 1_000
    assert seen.longest <= game.max_game_length()


@pytest.mark.parametrize(
    ("variant", "players", "games"),
    [("italian", 2, 150), ("italian", 3, 50), ("spanish", 3, 50), ("bluff", 2, 300)],
    ids=str,
)
def test_random_games_keep_information_states_apart(variant: str, players: int, games: int) -> None:
    v = load_variant(variant, overrides={"dice.per_player": 2})
    game = load_game(v, players)
    seen = _random_games(game, games, seed=players)
    assert seen.rounds >= 2  # Bluff's Dudo may cost several dice: two rounds, not three
    assert len(seen.strings) > 1000
    assert seen.longest <= game.max_game_length()


def _longest_game(game: Any, seed: int) -> tuple[int, Any]:
    """A game in which every round runs its whole bid ladder (the lowest raise each time,
    every offered call passed) before Dudo: its decisions and its last state."""
    rng = random.Random(seed)
    amap = game.action_map
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.randrange(len(state.chance_outcomes())))
            continue
        bids = [a for a in state.legal_actions() if a < amap.num_bids]
        if state.offered():
            state.apply_action(amap.pass_)
        else:
            state.apply_action(bids[0] if bids else amap.dudo)
        decisions += 1
    return decisions, state


def test_max_game_length_is_reached_where_every_round_costs_a_die() -> None:
    """A house rules game of three rounds and more (OpenSpiel's Liar's Dice to the last
    seat standing, three dice each): the longest game is exactly max_game_length, each
    round climbing its own, shrinking, bid table."""
    v = load_variant(
        "openspiel-liars-dice",
        overrides={"end.condition": "last_player_standing", "dice.per_player": 3},
    )
    game = load_game(v)
    decisions, state = _longest_game(game, 0)
    assert state.perudo_game.round == 5  # 6 dice, one lost a round
    # rounds of 6, 5, 4, 3 and 2 dice: every bid of a d6 table of that many dice, then Dudo
    assert decisions == game.max_game_length() == sum(6 * d + 1 for d in (6, 5, 4, 3, 2))
    for vid in ("textarena-liars-dice", "bluff"):  # a partial order, several dice a Dudo
        game = load_game(vid)
        assert _longest_game(game, 1)[0] <= game.max_game_length()


@pytest.mark.parametrize(
    ("variant", "players"),
    [("italian", 3), ("spanish", 3), ("openspiel-liars-dice", 2), ("bluff", 2)],
    ids=str,
)
def test_a_tensor_filled_from_the_last_one_is_the_tensor_filled_anew(
    variant: str, players: int
) -> None:
    """An observer fills a bid's or a pass's tensor from the position before it (the
    common step of an RL loop): the same tensor as a new observer fills, for every kind of
    view and every seat, step by step."""
    dice = {"openspiel-liars-dice": 5}.get(variant, 2)
    game = load_game(load_variant(variant, overrides={"dice.per_player": dice}), players)
    kinds = [
        pyspiel.IIGObservationType(perfect_recall=True),
        pyspiel.IIGObservationType(perfect_recall=False),
        pyspiel.IIGObservationType(
            perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
        ),
        pyspiel.IIGObservationType(perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE),
    ]
    kept = [game.make_py_observer(kind) for kind in kinds]
    rng = random.Random(players)
    compared = 0
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            for kind, observer in zip(kinds, kept, strict=True):
                for p in range(players):
                    observer.set_from(state, p)
                    fresh = game.make_py_observer(kind)
                    fresh.set_from(state, p)
                    assert observer.tensor.tolist() == fresh.tensor.tolist(), (str(state), p)
                    compared += 1
            legal = state.legal_actions()  # at a chance node its outcomes, all equally likely
            state.apply_action(legal[rng.randrange(len(legal))])
    assert compared > 200
