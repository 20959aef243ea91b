"""Bots: only legal actions, no peeking at hidden dice, deterministic whole games."""

from __future__ import annotations

import copy
import dataclasses
import random
from collections import Counter

import pytest

from perudo_rules import Bid, Calza, Dudo, Game, IllegalAction, Variant, load_variant
from perudo_rules.analysis.bots import (
    BaselineBot,
    Bot,
    RandomBot,
    derive_seed,
    make_bot,
    out_of_turn_calls,
    play_game,
)
from perudo_rules.base.actions import Action

ITALIAN = load_variant("italian")
SPANISH = load_variant("spanish")

# editions plus house rules that open other code paths (out-of-turn Dudo, Calza for the
# player to move only, face-then-quantity order, no palifico, a highest-face wild)
VARIANTS: list[tuple[Variant, int]] = [
    (ITALIAN, 6),
    (SPANISH, 4),
    (load_variant("openspiel-liars-dice", overrides={"dice.per_player": 3}), 2),
    (
        load_variant(
            "spanish",
            overrides={"challenge.who": "any_except_bidder", "calza.who": "player_to_move"},
        ),
        5,
    ),
    (
        load_variant(
            "italian",
            overrides={
                "bidding.order": "face_then_quantity",
                "bidding.wild_worth": 1,
                "palifico.enabled": False,
                "wild.face": "highest",
                "dice.per_player": 3,
            },
        ),
        3,
    ),
]


def reroll_others(game: Game, player: int, rng: random.Random) -> Game:
    """The same position with every other seat's hidden dice rolled afresh."""
    faces = game.rules.dice_faces
    dice = tuple(
        cup if s == player else tuple(rng.randint(1, faces) for _ in cup)
        for s, cup in enumerate(game.dice)
    )
    return dataclasses.replace(game, dice=dice)


class Checked:
    """Wraps a bot: every answer must be legal, for its own seat, and blind to hidden dice."""

    def __init__(self, bot: Bot, rng: random.Random) -> None:
        self.bot = bot
        self.rng = rng
        self.decisions = 0

    def choose(self, game: Game, player: int) -> Action | None:
        twin = copy.deepcopy(self.bot)
        action = self.bot.choose(game, player)
        assert twin.choose(reroll_others(game, player, self.rng), player) == action
        self.decisions += 1
        if action is None:
            assert player != game.to_move
        else:
            assert action.player == player
            assert game.is_legal(action)
            if player != game.to_move:
                assert action in out_of_turn_calls(game, player)
        return action


@pytest.mark.parametrize("bot_name", ["random", "baseline"])
@pytest.mark.parametrize(("variant", "players"), VARIANTS, ids=lambda x: getattr(x, "id", x))
def test_bots_are_legal_and_blind(bot_name: str, variant: Variant, players: int) -> None:
    rng = random.Random(5)
    for game_no in range(2):
        bots = [Checked(make_bot(bot_name, derive_seed(game_no, s)), rng) for s in range(players)]
        game = play_game(variant, players, bots, seed=game_no)
        assert game.is_over
        assert sum(b.decisions for b in bots) > 0


class Peeker:
    """Doubts whenever the standing bid is false, by reading everyone's dice."""

    def choose(self, game: Game, player: int) -> Action | None:
        if player != game.to_move:
            return None
        bid = game.current_bid
        if bid is not None and game.count(bid.face) < bid.quantity:
            return Dudo(player)
        return game.legal_actions()[0]


def test_the_blindness_check_catches_a_peeking_bot() -> None:
    bots = [Checked(Peeker(), random.Random(1)) for _ in range(4)]
    with pytest.raises(AssertionError):
        play_game(ITALIAN, 4, bots, seed=3)


@pytest.mark.parametrize("bot_name", ["random", "baseline"])
def test_play_game_is_deterministic(bot_name: str) -> None:
    def run(seed: int) -> Game:
        return play_game(SPANISH, 5, [make_bot(bot_name, seed * 10 + s) for s in range(5)], seed)

    a, b, c = run(11), run(11), run(12)
    assert a.history == b.history and a.winner == b.winner
    assert a.history != c.history


class Recorder:
    """Bids the lowest legal bid up to a quantity of 3, then doubts; logs who is asked."""

    def __init__(self, log: list[tuple[int, int]]) -> None:
        self.log = log

    def choose(self, game: Game, player: int) -> Action | None:
        assert game.to_move is not None
        if player != game.to_move:
            self.log.append((game.to_move, player))
            return None
        bid = game.current_bid
        if bid is not None and bid.quantity >= 3:
            return Dudo(player)
        return game.legal_actions()[0]


def test_out_of_turn_calls_are_offered_in_play_order_after_the_player_to_move() -> None:
    log: list[tuple[int, int]] = []
    play_game(SPANISH, 5, [Recorder(log) for _ in range(5)], seed=2)
    assert log
    # group consecutive asks with the same player to move
    groups: list[tuple[int, list[int]]] = []
    for to_move, seat in log:
        if groups and groups[-1][0] == to_move and seat not in groups[-1][1]:
            groups[-1][1].append(seat)
        else:
            groups.append((to_move, [seat]))
    for to_move, seats in groups:
        n = 5
        order = [(to_move + i) % n for i in range(1, n)]
        # every asked seat is another seat, asked in the direction of play from to_move
        assert to_move not in seats
        assert seats == [s for s in order if s in seats]
    # with five seats in play the bidder (the seat before to_move) is never asked
    first_to_move, first_seats = groups[0]
    assert first_seats == [(first_to_move + i) % 5 for i in range(1, 4)]


def test_italian_offers_only_calza_out_of_turn() -> None:
    g = Game.start(ITALIAN, [[1, 2], [3, 4], [5, 6], [2, 2]], first_player=0).apply(Bid(0, 2, 2))
    assert out_of_turn_calls(g, 1) == []  # the player to move acts in turn
    assert out_of_turn_calls(g, 0) == []  # the bidder
    assert out_of_turn_calls(g, 2) == [Calza(2)]
    s = Game.start(SPANISH, [[1, 2], [3, 4], [5, 6], [2, 2]], first_player=0).apply(Bid(0, 2, 2))
    assert out_of_turn_calls(s, 3) == [Calza(3)]
    assert out_of_turn_calls(Game.start(SPANISH, [[1], [2]], first_player=0), 1) == []


def test_random_bot_draws_uniformly_among_its_own_actions() -> None:
    g = Game.start(SPANISH, [[1, 2], [3, 4], [5, 6]], first_player=0).apply(Bid(0, 4, 5))
    own = [a for a in g.legal_actions() if a.player == 1]
    assert Calza(1) in own and Dudo(1) in own
    bot = RandomBot(7)
    draws = Counter(bot.choose(g, 1) for _ in range(200 * len(own)))
    assert set(draws) == set(own)
    expected = 200
    chi2 = sum((c - expected) ** 2 / expected for c in draws.values())
    assert chi2 < 3 * len(own)  # far below what a skewed draw gives
    out = Counter(bot.choose(g, 2) for _ in range(600))
    assert set(out) == {None, Calza(2)}
    assert 200 < out[None] < 400


def test_baseline_doubts_an_impossible_bid_and_raises_a_certain_one() -> None:
    g = Game.start(SPANISH, [[2, 3], [4, 4], [5, 6]], first_player=0).apply(Bid(0, 6, 5))
    assert BaselineBot(1).choose(g, 1) == Dudo(1)  # seat 1 sees no 5 and no wild
    g = Game.start(SPANISH, [[2, 3], [3, 3], [5, 6]], first_player=0).apply(Bid(0, 1, 3))
    action = BaselineBot(1).choose(g, 1)
    assert isinstance(action, Bid)
    assert g.is_legal(action)


def test_baseline_weighs_a_raise_by_the_chance_it_is_doubted() -> None:
    # seat 1 sees one 5 of 3x5 and four hidden dice: P(holds) = 33/81; the best raise,
    # 3x6, holds with the same 33/81, so it loses 48/81 if doubted
    g = Game.start(SPANISH, [[2, 2, 2, 2], [5, 6]], first_player=0).apply(Bid(0, 3, 5))
    assert BaselineBot(1, raise_risk=1.0).choose(g, 1) == Dudo(1)  # 48/81 > 33/81
    assert BaselineBot(1, raise_risk=0.6).choose(g, 1) == Bid(1, 3, 6)  # 0.6 * 48/81 < 33/81


def test_baseline_calls_calza_when_exact_is_likely_and_it_can_gain() -> None:
    # seat 1 sees three 2s; seat 0's single die is a 2 or a wild with probability 1/3
    g = Game.start(SPANISH, [[4], [2, 2, 2, 3]], first_player=0).apply(Bid(0, 3, 2))
    assert BaselineBot(1).choose(g, 1) == Calza(1)
    # at five dice a right Calza gains nothing, so it is never worth the risk
    g = Game.start(SPANISH, [[4], [2, 2, 2, 3, 5]], first_player=0).apply(Bid(0, 3, 2))
    assert BaselineBot(1).choose(g, 1) != Calza(1)


def test_baseline_calls_calza_out_of_turn() -> None:
    # seat 2 is not to move and sees three Aztecs; the bid is exact unless an unseen die is one
    g = Game.start(ITALIAN, [[4], [6], [1, 1, 1, 3]], first_player=0).apply(Bid(0, 3, 1))
    assert BaselineBot(1).choose(g, 2) == Calza(2)  # P(exact) = (5/6)**2 > 1/2
    g = Game.start(ITALIAN, [[4], [6, 6, 6, 5], [1, 1, 1, 3]], first_player=0).apply(Bid(0, 3, 1))
    assert BaselineBot(1).choose(g, 2) is None  # P(exact) = (5/6)**5 < 1/2, and the bid holds


def test_play_game_rejects_misbehaving_bots() -> None:
    class Declines:
        def choose(self, game: Game, player: int) -> Action | None:
            return None

    class Impersonates:
        def choose(self, game: Game, player: int) -> Action | None:
            return Dudo((player + 1) % game.players) if game.bids else Bid(player, 1, 2)

    class Overbids:
        def choose(self, game: Game, player: int) -> Action | None:
            return Bid(player, 99, 2)

    with pytest.raises(ValueError, match="declined its own turn"):
        play_game(ITALIAN, 3, [Declines()] * 3, seed=1)
    with pytest.raises(ValueError, match="acted for seat"):
        play_game(ITALIAN, 3, [Impersonates()] * 3, seed=1)
    with pytest.raises(IllegalAction) as err:
        play_game(ITALIAN, 3, [Overbids()] * 3, seed=1)
    assert err.value.rule == "bidding.quantity_cap"
    with pytest.raises(ValueError, match="2 bots for 3 players"):
        play_game(ITALIAN, 3, [RandomBot(1)] * 2, seed=1)


def test_make_bot() -> None:
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot("baseline", 1), BaselineBot)
    assert isinstance(make_bot("baseline"), Bot)
    with pytest.raises(ValueError, match="unknown bot 'clever'"):
        make_bot("clever")
    with pytest.raises(ValueError, match="opening_confidence"):
        BaselineBot(1, opening_confidence=(0.9, 0.5))
    with pytest.raises(ValueError, match="raise_risk"):
        BaselineBot(1, raise_risk=1.5)


def test_derive_seed_is_stable() -> None:
    assert derive_seed(1, "game", 0) == derive_seed(1, "game", 0)
    assert derive_seed(1, "game", 0) != derive_seed(1, "game", 1)
    assert derive_seed(1, 2) != derive_seed(12)
    assert derive_seed(1, "2") != derive_seed(1, 2)
    assert 0 <= derive_seed(3) < 2**63


@pytest.mark.parametrize("variant", [ITALIAN, SPANISH], ids=lambda v: v.id)
def test_baseline_beats_random_play(variant: Variant) -> None:
    wins = 0
    for seed in range(12):
        bots: list[Bot] = [
            BaselineBot(seed * 10 + s) if s % 2 == 0 else RandomBot(seed * 10 + s) for s in range(4)
        ]
        wins += play_game(variant, 4, bots, seed).winner in (0, 2)
    assert wins >= 11  # half the seats, yet (nearly) every win
