"""Differential test: our textarena-liars-dice edition against TextArena's ``LiarsDiceEnv``.

Random games are played through both side by side, TextArena's environment
(``textarena/envs/LiarsDice/env.py``, textarena 0.7.4) and the engine
(:class:`~perudo_rules.engine.game.Game`), with the same dice (the engine rolls them and the test
writes them into TextArena's state after every new round) and the same actions. At every
decision both agree on whose turn it is and on the standing bid; on the legality of a
sample of bids around the standing bid and across the whole range (TextArena's
``_is_valid_bid`` against ``Game.is_legal``) and of a call; an illegal action sent to
TextArena is refused there (one warning, the same player to move, nothing changed), as
the engine refuses it. After every call both agree on the loser, the dice counts, the
eliminations in order, who opens next, and at the end on the winner.

TextArena also accepts a bid of zero dice, which this edition refuses (an interpretation
recorded in the variant file); quantities are drawn from 1. The test skips when
``textarena`` cannot be imported (``pip install 'perudo-rules[textarena]'``, or see the
README for the environment module alone). The numbers compared are printed in the
terminal summary (tests/conftest.py).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import settings

ta_env = pytest.importorskip(
    "textarena.envs.LiarsDice.env",
    reason="textarena cannot be imported: pip install 'perudo-rules[textarena]'",
)

from perudo_rules import Bid, Dudo, Game, load_variant  # noqa: E402
from perudo_rules.base.actions import Action  # noqa: E402
from perudo_rules.editions.variant import Variant  # noqa: E402
from perudo_rules.engine.start import roll_cups  # noqa: E402

#: Random games per test case: more under the deep profiles.
GAMES = 60 if settings.default.max_examples < 1000 else 400


@dataclass
class Tally:
    """What was compared."""

    games: int = 0
    decisions: int = 0
    bids_checked: int = 0
    illegal_sent: int = 0
    calls: int = 0
    eliminations: int = 0


def _variant(dice: int) -> Variant:
    return load_variant("textarena-liars-dice", overrides={"dice.per_player": dice})


def _set_dice(env: Any, game: Game) -> None:
    """Give TextArena the engine's dice for the new round (its own roll is discarded)."""
    env.state.game_state["dice_rolls"] = {p: list(cup) for p, cup in enumerate(game.dice)}


def _standing(game: Game) -> dict[str, int]:
    bid = game.current_bid
    return {"quantity": 0, "face_value": 0} if bid is None else {
        "quantity": bid.quantity,
        "face_value": bid.face,
    }  # fmt: skip


def _candidates(game: Game, rng: random.Random) -> list[tuple[int, int]]:
    """Bids around the standing bid and a random sample of the whole range, faces 0..7."""
    top = game.dice_in_play + 3
    out = {(rng.randint(1, top), rng.randint(0, 7)) for _ in range(12)}
    out.add((rng.randint(top, 4 * top), rng.randint(1, 6)))  # far above the dice in play
    bid = game.current_bid
    if bid is not None:
        out |= {
            (bid.quantity + dq, bid.face + df)
            for dq in (-1, 0, 1)
            for df in (-1, 0, 1)
            if bid.quantity + dq >= 1
        }
    return sorted(out)


def _check_decision(env: Any, game: Game, rng: random.Random, tally: Tally) -> None:
    """Same player, same standing bid, same legality of the candidate bids and of a call."""
    assert game.to_move is not None
    player = game.to_move
    state = env.state
    assert state.current_player_id == player
    assert not state.done
    current = state.game_state["current_bid"]
    assert current == _standing(game)
    for q, f in _candidates(game, rng):
        theirs, reason = env._is_valid_bid(q, f, current)
        ours = game.is_legal(Bid(player, q, f))
        assert ours == theirs, (q, f, current, reason, game.violation(Bid(player, q, f)))
        tally.bids_checked += 1
    call_ok = state.game_state["last_bidder_id"] is not None and current["quantity"] != 0
    assert game.is_legal(Dudo(player)) == call_ok
    tally.decisions += 1


def _send_illegal(env: Any, game: Game, rng: random.Random, tally: Tally) -> None:
    """Send one illegal action to TextArena: it warns and changes nothing."""
    assert game.to_move is not None
    player = game.to_move
    if game.current_bid is None:
        text = "[Call]"
    else:
        illegal = [
            (q, f)
            for q, f in _candidates(game, rng)
            if 1 <= f <= 6 and not game.is_legal(Bid(player, q, f))
        ]
        if not illegal:
            return
        q, f = rng.choice(illegal)
        text = f"[Bid: {q}, {f}]"
    before = repr(env.state.game_state)
    done, _ = env.step(text)
    assert not done
    assert env.state.error_count == 1, text  # warned, not eliminated
    assert env.state.current_player_id == player
    assert repr(env.state.game_state) == before
    tally.illegal_sent += 1


def _choose(game: Game, rng: random.Random) -> Action:
    """A random legal action: often a low raise, sometimes any, a call, or a bid above the
    listed table (legal without a quantity cap)."""
    acts = game.legal_actions()
    nb = len(acts.bid_ranks)
    calls = len(acts) - nb
    r = rng.random()
    if nb == 0 or (calls and r < 0.25):
        return acts[nb + rng.randrange(calls)]
    if r < 0.3 and game.current_bid is not None and game.to_move is not None:
        bid = game.current_bid
        above = Bid(game.to_move, max(bid.quantity, game.space.cap) + rng.randint(1, 3), bid.face)
        if game.is_legal(above):
            return above
    if r < 0.75:
        return acts[rng.randrange(min(nb, 4))]
    return acts[rng.randrange(nb)]


def _play(players: int, dice: int, rng: random.Random, tally: Tally) -> None:
    variant = _variant(dice)
    env = ta_env.LiarsDiceEnv(num_dice=dice)
    env.reset(num_players=players)  # no seed: TextArena would reseed the global random
    game = Game.start(variant, roll_cups(6, (dice,) * players, rng), 0)
    _set_dice(env, game)
    eliminated: list[int] = []
    while True:
        _check_decision(env, game, rng, tally)
        if rng.random() < 0.3:
            _send_illegal(env, game, rng, tally)
        action = _choose(game, rng)
        if isinstance(action, Bid):
            done, _ = env.step(f"[Bid: {action.quantity}, {action.face}]")
            game = game.apply(action)
            assert not done and env.state.error_count == 0
            assert env.state.game_state["last_bidder_id"] == action.player
            continue
        before = dict(env.state.game_state["remaining_dice"])
        done, _ = env.step("[Call]")
        game = game.apply(action)
        tally.calls += 1
        result = game.last_result
        assert result is not None
        remaining = env.state.game_state["remaining_dice"]
        (their_loser,) = [p for p in before if remaining[p] < before[p]]
        assert result.loser == their_loser
        assert tuple(remaining[p] for p in range(players)) == game.dice_counts
        eliminated += [p for p in range(players) if not game.dice_counts[p] and before[p]]
        assert env.state.elimination_order == eliminated
        if game.is_over:
            assert done and env.state.done
            rewards = env.state.rewards
            assert game.winner == max(rewards, key=rewards.get)
            tally.eliminations += len(eliminated)
            tally.games += 1
            return
        assert not done
        assert env.state.current_player_id == result.next_player
        game = game.roll(rng=rng)
        _set_dice(env, game)


def _say(record_property: Any, text: str) -> None:
    """Show ``text`` in the terminal summary (tests/conftest.py), under pytest-xdist too."""
    record_property("terminal_line", f"[textarena differential] {text}")


@pytest.mark.parametrize(
    ("players", "dice"),
    [(2, 5), (3, 3), (4, 2), (6, 1), (2, 1), (5, 4), (15, 1)],
    ids=lambda v: str(v),
)
def test_random_games_agree_with_textarena(players: int, dice: int, record_property: Any) -> None:
    rng = random.Random(f"textarena-{players}-{dice}")
    tally = Tally()
    start = time.perf_counter()
    for _ in range(GAMES):
        _play(players, dice, rng, tally)
    assert tally.games == GAMES and tally.calls >= GAMES
    assert tally.eliminations == GAMES * (players - 1)
    assert tally.illegal_sent > 0
    record_property("games", tally.games)
    _say(
        record_property,
        f"{players} players x {dice} dice: {tally.games} games, {tally.decisions} decisions, "
        f"{tally.bids_checked} bid legalities, {tally.illegal_sent} illegal moves refused, "
        f"{tally.calls} calls (loser, dice, eliminations, next opener, winner) identical in "
        f"{time.perf_counter() - start:.1f}s",
    )


def test_the_edition_is_textarenas_default() -> None:
    """LiarsDice-v0 deals five dice; players 2 to 15, as the environment asserts."""
    v = load_variant("textarena-liars-dice")
    assert ta_env.LiarsDiceEnv().num_dice == v["dice.per_player"] == 5
    env = ta_env.LiarsDiceEnv()
    for players in (1, 16):
        with pytest.raises(AssertionError):
            env.reset(num_players=players)
    for players in (v["players.min"], v["players.max"]):
        env.reset(num_players=players)
        assert env.state.current_player_id == 0
