"""The fast paths play exactly the games of the public step API.

* :func:`perudo_rules.engine.fastplay.play` against :func:`perudo_rules.engine.fastplay.step_play`
(the
  random policy written with ``legal_actions``/``apply``/``roll``): same rounds, dice,
  actions, results, winner, and the same random draws consumed, on every bundled edition
  and on random house rules that turn every knob with choices.
* The engine's own shortcuts (``Game.new`` without ``start``'s checks, ``apply``'s quick
  raise) against the slow definitions they skip.
"""

from __future__ import annotations

import ast
import itertools
import random
from pathlib import Path
from typing import Any

import pytest

from perudo_rules import load_variant
from perudo_rules.base.actions import Bid, Calza, Dudo, Reroll
from perudo_rules.base.errors import IllegalAction, VariantError
from perudo_rules.editions.knobs import KNOBS
from perudo_rules.editions.variant import Variant
from perudo_rules.editions.variantfile import available_variants
from perudo_rules.engine.fastplay import RandomGame, play, random_games, step_play
from perudo_rules.engine.game import Game
from perudo_rules.engine.start import opening, roll_die


def _same_game(v: Variant, players: int, seed: int) -> tuple[RandomGame, Game]:
    r_fast, r_slow = random.Random(seed), random.Random(seed)
    fast = play(v, players, r_fast, record=True)
    slow = step_play(v, players, r_slow)
    assert fast.trace is not None
    assert fast.winner == slow.winner
    assert fast.rounds == len(slow.history) == slow.round
    decisions = sum(len(r.actions) for r in slow.history)
    assert fast.decisions == decisions
    assert fast.bids == sum(isinstance(a, Bid) for r in slow.history for a in r.actions)
    # the fast path's rounds are the step API's rounds: the same values, results included
    assert fast.trace == slow.history
    # both consumed exactly the same draws
    assert r_fast.random() == r_slow.random()
    return fast, slow


def _seat_counts(v: Variant) -> list[int]:
    lo, hi = v.rules.players_min, v.rules.players_max
    return sorted({lo, max(lo, min(hi, 3)), hi})


@pytest.mark.parametrize("variant_id", available_variants())
def test_fast_play_is_the_step_api_game(variant_id: str) -> None:
    v = load_variant(variant_id)
    if variant_id == "openspiel-liars-dice":
        v = load_variant(variant_id, overrides={"dice.per_player": 3})
    kinds: set[str] = set()
    palifico_rounds = 0
    for players in _seat_counts(v):
        for seed in range(40):
            fast, _ = _same_game(v, players, seed * 7919 + players)
            assert fast.trace is not None
            kinds.update(t.result.kind for t in fast.trace)
            palifico_rounds += sum(t.palifico for t in fast.trace)
    # the comparison covered both calls and, where the edition has them, palifico rounds
    assert "dudo" in kinds
    if v.rules.calza_enabled:
        assert "calza" in kinds
    if v.rules.palifico_enabled:
        assert palifico_rounds > 0


def _random_overrides(rng: random.Random) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for spec in KNOBS:
        if spec.choices and spec.path != "end.condition" and rng.random() < 0.7:
            out[spec.path] = rng.choice(spec.choices)[0]
    out["end.condition"] = "single_round" if rng.random() < 0.15 else "last_player_standing"
    per = rng.randint(1, 3)
    out.update({"dice.per_player": per, "dice.max_per_player": per + rng.randint(0, 2)})
    out["calza.gain_cap"] = rng.randint(1, out["dice.max_per_player"])
    out.update({"players.min": 2, "players.max": 5})
    if rng.random() < 0.3:
        out["dice.faces"] = rng.randint(2, 6)
        out["wild.face"] = rng.choice([None, 1, "highest"])
    return out


def test_fast_play_matches_under_random_house_rules() -> None:
    rng = random.Random(2024)
    tried = 0
    while tried < 60:
        try:
            v = load_variant(rng.choice(["italian", "spanish"]), overrides=_random_overrides(rng))
        except VariantError:
            continue
        tried += 1
        for players in (2, 3, 5):
            for seed in range(4):
                _same_game(v, players, rng.randrange(1 << 30) + seed)


def test_random_games_totals_the_games_of_one_stream() -> None:
    v = load_variant("italian")
    totals = random_games(v, 4, 30, seed=5)
    rng = random.Random(5)
    games = [play(v, 4, rng) for _ in range(30)]
    assert totals.games == 30
    assert totals.decisions == sum(g.decisions for g in games)
    assert totals.rounds == sum(g.rounds for g in games)
    assert totals.bids == sum(g.bids for g in games)
    assert totals.wins == tuple(sum(g.winner == s for g in games) for s in range(4))
    assert sum(totals.wins) == 30


def test_fast_play_refuses_a_seat_count_outside_the_variant() -> None:
    with pytest.raises(ValueError, match=r"^7 seats; italian plays with 2 to 6$"):
        play(load_variant("italian"), 7, random.Random(1))
    with pytest.raises(ValueError, match="games"):
        random_games(load_variant("italian"), 3, -1)


@pytest.mark.parametrize("variant_id", available_variants())
def test_game_new_is_start_on_the_opening_draws(variant_id: str) -> None:
    v = load_variant(variant_id)
    for players in _seat_counts(v):
        for seed in range(30):
            first, dice = opening(v.rules, players, random.Random(seed))
            fast = Game.new(v, players, seed=seed)
            slow = Game.start(v, [list(c) for c in dice], first)
            assert fast == slow
            assert hash(fast) == hash(slow)
            assert fast.space is slow.space
            assert repr(fast) == repr(slow)


def _reference_after_bid(g: Game, bid: Bid) -> Game:
    """What ``apply`` must return for a legal bid, built with the dataclass constructor."""
    return Game(
        variant=g.variant,
        dice=g.dice,
        dice_counts=g.dice_counts,
        to_move=g.next_seat(bid.player),
        bids=(*g.bids, bid),
        palifico=g.palifico,
        palifico_player=g.palifico_player,
        round=g.round,
        palifico_used=g.palifico_used,
        history=g.history,
        last_result=g.last_result,
        winner=None,
        first_player=g.first_player,
        reroll=g.reroll,
        _rules_in_play=g.round_rules,
    )


def _probes(g: Game, rng: random.Random) -> list[Any]:
    n = g.players
    cap = g.dice_in_play
    faces = g.rules.dice_faces
    to_move = g.to_move if g.to_move is not None else 0
    out: list[Any] = [
        Bid(to_move, rng.randint(-1, cap + 2), rng.randint(0, faces + 1)) for _ in range(12)
    ]
    out += [Bid(rng.randrange(n), rng.randint(1, cap), rng.randint(1, faces)) for _ in range(4)]
    out += [
        Bid(True if to_move == 1 else to_move, 1, 1),
        Bid(to_move, 1.0, 2),
        Bid(to_move, 2, True),
        Bid(None, 1, 1),  # type: ignore[arg-type]
        Dudo(rng.randrange(n)),
        Calza(rng.randrange(n)),
        "5x4",
        Reroll(to_move, tuple(rng.randint(0, faces + 1) for _ in range(rng.randint(0, 3)))),
        Reroll(rng.randrange(n), g.dice[rng.randrange(n)][:1]),
        Reroll(to_move, g.dice[to_move][1:]),
    ]
    la = g.legal_actions()
    if len(la):
        out += [la[rng.randrange(len(la))] for _ in range(4)]
    return out


@pytest.mark.parametrize("variant_id", available_variants())
def test_apply_agrees_with_violation(variant_id: str) -> None:
    """``apply`` takes a shortcut for plain raises; it must refuse and accept exactly as
    ``violation`` does, name the same rule, and build the same state."""
    v = load_variant(variant_id)
    rng = random.Random(11)
    checked = 0
    for seed in range(25):
        g = Game.new(v, rng.randint(v.rules.players_min, v.rules.players_max), seed=seed)
        while g.winner is None:
            if g.awaiting_roll:
                g = g.roll(rng=rng)
                continue
            for a in _probes(g, rng):
                bad = g.violation(a)
                checked += 1
                if bad is None:
                    after = g.apply(a)
                    if isinstance(a, Bid):
                        assert after == _reference_after_bid(g, a)
                        assert after.space is g.space
                    assert a in g.legal_actions()
                else:
                    with pytest.raises(IllegalAction) as err:
                        g.apply(a)
                    assert err.value.refusal == bad
            la = g.legal_actions()
            if rng.random() < 0.3:
                assert list(la) == _legal_by_violation(g)
                assert len(la) == len(list(la))
            g = g.apply(la[int(rng.random() * len(la))])
    assert checked > 2000


def _legal_by_violation(g: Game) -> list[Any]:
    """Every candidate action ``violation`` accepts, in the documented order: bids of the
    player to move by rank, then Dudo by seat, then Calza by seat, then the player to
    move's re-rolls, every part of its concealed dice (ascending, in lexicographic order)."""
    p = g.to_move
    assert p is not None
    cands: list[Any] = [Bid(p, q, f) for q, f in g.space.bids]
    cands += [Dudo(s) for s in range(g.players)] + [Calza(s) for s in range(g.players)]
    hidden = sorted(g.dice[p][len(g.set_aside[p]) :])
    parts = {c for k in range(len(hidden) + 1) for c in itertools.combinations(hidden, k)}
    cands += [Reroll(p, c) for c in sorted(parts)]
    return [a for a in cands if g.violation(a) is None]


def test_dice_are_roll_die_draws_seat_by_seat() -> None:
    """``Game.new`` and ``roll`` draw inline for speed; they must stay ``roll_die`` draws."""
    v = load_variant("italian", overrides={"setup.first_player": "seat_zero"})
    faces = v.rules.dice_faces
    for seed in range(20):
        r = random.Random(seed)
        want = tuple(tuple(roll_die(r, faces) for _ in range(5)) for _ in range(4))
        g = Game.new(v, 4, seed=seed)
        assert g.dice == want
        rng = random.Random(seed + 100)
        while g.to_move is not None:
            la = g.legal_actions()
            g = g.apply(la[int(rng.random() * len(la))])
        r1, r2 = random.Random(seed), random.Random(seed)
        rolled = g.roll(rng=r1)
        assert rolled.dice == tuple(
            tuple(roll_die(r2, faces) for _ in range(c)) for c in g.dice_counts
        )
        assert rolled == g.roll(seed=seed)


def test_module_example_runs() -> None:
    import doctest

    from perudo_rules.engine import fastplay

    if str(fastplay.__file__).endswith(".py"):
        failed, attempted = doctest.testmod(fastplay)
    else:  # a compiled module keeps no docstring: run the one of its source, on it
        source = Path(str(fastplay.__file__)).with_name("fastplay.py").read_text("utf-8")
        test = doctest.DocTestParser().get_doctest(
            str(ast.get_docstring(ast.parse(source))), vars(fastplay), "fastplay", None, 0
        )
        runner = doctest.DocTestRunner()
        runner.run(test)
        failed, attempted = runner.failures, runner.tries
    assert attempted > 0 and failed == 0
