"""Every front end that offers actions offers each seat exactly what the kernel allows it,
in the kernel's order (issue 18), on every bundled edition.

The kernel's protocol at a position with a bid standing: the seats of
:meth:`Game.call_offers` are asked one at a time, in that order, each offered its own
calls of :meth:`Game.legal_actions` (and to decline); the first call ends the round; when
all decline, the player to move chooses among its own legal actions. The front ends:

* the step API (``Game.legal_actions``): listed iff legal, bids by rank, then Dudo calls,
  then Calza calls, each by seat, then the player to move's re-rolls;
* fastplay: the random policy draws from the same whole list (checked with draws at the
  ends of ``[0, 1)``, where a list one action too long or short picks another action);
* the bots of ``play`` (``TerminalGame``) and of ``simulate`` (``bots.play_game``): who is
  asked, in what order, with which position, and that every answer is offered;
* PettingZoo: the agent selected and every agent's action mask at every step;
* OpenSpiel: ``current_player()`` and ``legal_actions()`` at every decision node.

Then what both RL adapters pay (the kernel's zero-sum returns) and what the players of
either adapter are told after a partial reveal (never the closed cups' count).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perudo_rules import Bid, Calza, Dudo, Game, Reroll, available_variants, load_variant
from perudo_rules.analysis.bots import BaselineBot, Bot, RandomBot, play_game
from perudo_rules.base.actions import Action
from perudo_rules.editions.variant import Variant
from perudo_rules.engine.actionmap import ActionMap
from perudo_rules.engine.fastplay import play, step_play
from perudo_rules.engine.settlement import returns
from perudo_rules.engine.start import opening

EDITIONS = available_variants()
DECISIONS = 300  # decisions checked per edition and front end (whole games, reset as needed)


def _players(v: Variant) -> int:
    return int(min(4, v["players.max"]))


# --- the kernel's offer, independently of any front end -------------------------------------


def kernel_actions(game: Game, seat: int, offered: bool) -> list[Action | None]:
    """What the kernel lets ``seat`` do at this decision, in the kernel's order: its own
    legal actions (``None`` last: declining, when it is offered an out-of-turn call)."""
    own: list[Action | None] = [a for a in game.legal_actions() if a.player == seat]
    if offered:
        assert seat != game.to_move and not any(isinstance(a, Bid) for a in own)
        assert own, f"seat {seat} is offered a call it may not make"
        return [*own, None]
    assert seat == game.to_move
    return own


def kernel_ids(amap: ActionMap, game: Game, seat: int, offered: bool) -> list[int]:
    """:func:`kernel_actions` as action ids, ascending (how both adapters list them); bids
    through ``bid_id`` (the largest table's rank), not the adapters' round maps."""
    out = []
    for a in kernel_actions(game, seat, offered):
        if isinstance(a, Bid):
            out.append(amap.bid_id(a.quantity, a.face))
        elif isinstance(a, Reroll):
            out.append(amap.to_id(a))
        else:
            out.append({Dudo: amap.dudo, Calza: amap.calza, type(None): amap.pass_}[type(a)])
    assert len(set(out)) == len(out)
    return sorted(out)


def check_step_api(game: Game) -> None:
    """``legal_actions`` lists exactly the legal actions (of every seat), in its order."""
    legal = list(game.legal_actions())
    assert len(set(legal)) == len(legal)
    bids = [a for a in legal if isinstance(a, Bid)]
    calls = [a for a in legal[len(bids) :] if not isinstance(a, Reroll)]
    rerolls = legal[len(bids) + len(calls) :]
    assert legal[: len(bids)] == bids, "bids come first"
    assert all(isinstance(r, Reroll) and r.player == game.to_move for r in rerolls), "then calls"
    assert [r.set_aside for r in rerolls] == sorted(r.set_aside for r in rerolls)
    ranks = [game.rank(b) for b in bids]
    assert all(r is not None for r in ranks) and ranks == sorted(set(ranks))  # type: ignore[type-var]
    assert all(b.player == game.to_move for b in bids)
    dudos = [c for c in calls if isinstance(c, Dudo)]
    assert calls == dudos + [c for c in calls if isinstance(c, Calza)]
    for group in (dudos, calls[len(dudos) :]):
        seats = [c.player for c in group]
        assert seats == sorted(set(seats))
    seats = [s for s, c in enumerate(game.dice_counts) if c]
    to_move = game.to_move if game.to_move is not None else 0
    candidates: list[Action] = [Bid(to_move, q, f) for q, f in game.space.bids]
    candidates += [Dudo(s) for s in seats] + [Calza(s) for s in seats]
    candidates += [Bid(s, q, f) for s in seats if s != to_move for q, f in game.space.bids[:3]]
    hidden = sorted(game.dice[to_move][len(game.set_aside[to_move]) :])
    parts = {c for k in range(len(hidden) + 1) for c in itertools.combinations(hidden, k)}
    candidates += [Reroll(to_move, c) for c in parts] + [Reroll(s, (1,)) for s in seats]
    assert set(legal) == {a for a in candidates if game.is_legal(a)}


def pick(rng: random.Random, options: Sequence[Any], offered: bool, decline: Any) -> Any:
    """An offered seat declines three times in four (so offers are walked); else uniform."""
    if offered and rng.random() < 0.75:
        return decline
    return options[int(rng.random() * len(options))]


# --- the step API and fastplay --------------------------------------------------------------


class EdgeRandom(random.Random):
    """A stream whose ``random()`` is sometimes exactly ``0.0`` or just below ``1.0``: the
    first or the last option of whatever list is drawn from."""

    def random(self) -> float:
        r = super().random()
        if r < 0.15:
            return 0.0
        if r > 0.85:
            return 1.0 - 2.0**-53
        return r


@pytest.mark.parametrize("variant", EDITIONS)
def test_step_api_and_fastplay_offer_the_kernels_list(variant: str) -> None:
    v = load_variant(variant)
    for players in sorted({v["players.min"], _players(v)}):
        for seed in range(3):
            fast = play(v, players, EdgeRandom(seed), record=True)
            slow = step_play(v, players, EdgeRandom(seed))
            assert fast.trace is not None and fast.winner == slow.winner
            assert [(t.round, t.first_player, t.dice, t.actions) for t in fast.trace] == [
                (h.round, h.first_player, h.dice, h.actions) for h in slow.history
            ]
    # step_play with a check at every position: listed iff legal, in the kernel's order
    rng = EdgeRandom(1)
    first, dice = opening(v.rules, _players(v), rng)
    game = Game.start(v, dice, first)
    while game.winner is None:
        if game.awaiting_roll:
            game = game.roll(rng=rng)
            continue
        check_step_api(game)
        actions = game.legal_actions()
        game = game.apply(actions[int(rng.random() * len(actions))])
    assert game.history == step_play(v, _players(v), EdgeRandom(1)).history


# --- the bots of play and simulate ----------------------------------------------------------


class Recorder:
    """A bot that logs every question it is asked: (seat, position, answer)."""

    def __init__(self, inner: Bot, log: list[tuple[int, Game, Action | None]]) -> None:
        self.inner = inner
        self.log = log

    def choose(self, game: Game, player: int) -> Action | None:
        """The inner bot's answer, logged."""
        answer = self.inner.choose(game, player)
        self.log.append((player, game, answer))
        return answer


def check_asked(log: list[tuple[int, Game, Action | None]]) -> int:
    """Every position's questions are the kernel's: its offers in order until one calls,
    then (when all declined) the player to move; every answer one the kernel offered."""
    i = 0
    positions = 0
    while i < len(log):
        game = log[i][1]
        group = []
        while i < len(log) and log[i][1] is game:
            group.append(log[i])
            i += 1
        expected = list(game.call_offers())
        answers = [a for _, _, a in group]
        called = next((k for k, a in enumerate(answers) if a is not None), None)
        if called is not None and called < len(expected):
            expected = expected[: called + 1]
        else:
            expected.append(game.to_move)  # type: ignore[arg-type]
        assert [s for s, _, _ in group] == expected
        for k, (seat, _, answer) in enumerate(group):
            offered = k < len(game.call_offers())
            assert answer in kernel_actions(game, seat, offered)
        positions += 1
    return positions


def _bots(players: int, seed: int, log: list[tuple[int, Game, Action | None]]) -> list[Bot]:
    kinds: list[Callable[[int], Bot]] = [BaselineBot, RandomBot]
    return [Recorder(kinds[s % 2](seed * 10 + s), log) for s in range(players)]


@pytest.mark.parametrize("variant", EDITIONS)
def test_the_bots_of_simulate_are_asked_what_the_kernel_offers(variant: str) -> None:
    v = load_variant(variant)
    players = _players(v)
    log: list[tuple[int, Game, Action | None]] = []
    seed = 0
    while len(log) < DECISIONS:
        play_game(v, players, _bots(players, seed, log), seed)
        seed += 1
    assert check_asked(log) > 10


@pytest.mark.parametrize("variant", EDITIONS)
def test_the_bots_of_play_are_asked_what_the_kernel_offers(variant: str) -> None:
    from perudo_rules.cli.play import TerminalGame

    v = load_variant(variant)
    players = _players(v)
    log: list[tuple[int, Game, Action | None]] = []
    out: list[str] = []
    seed = 0
    while len(log) < DECISIONS // 3:  # every seat a bot: nobody reads the terminal
        bots: list[Bot | None] = list(_bots(players, seed, log))
        game = Game.new(v, players, seed=seed)
        tg = TerminalGame(game, 0, bots, seed, lambda _p: None, out.append)
        assert tg.run().is_over
        seed += 1
    assert check_asked(log) > 10


# --- PettingZoo ----------------------------------------------------------------------------


def walk_pettingzoo(variant: str | Variant, players: int, seed: int, decisions: int) -> int:
    """Play ``decisions`` decisions through the raw environment, checking the agent selected
    and every agent's mask against the kernel at each one; the number of offers walked."""
    pz = pytest.importorskip("perudo_rules.pettingzoo", exc_type=ImportError)
    import numpy as np

    e = pz.raw_env(variant, players)
    e.reset(seed=seed)
    rng = random.Random(seed)
    queue: list[int] = []  # the kernel's offers not yet answered
    offers = done = 0
    while done < decisions:
        if not e.agents:
            e.reset()
            queue = []
            continue
        agent = e.agent_selection
        if e.terminations[agent] or e.truncations[agent]:
            e.step(None)
            continue
        game = e.game
        seat = queue[0] if queue else game.to_move
        assert agent == f"player_{seat}"
        expected = kernel_ids(e.ids, game, seat, bool(queue))
        for other in e.possible_agents:
            mask = e.observe(other)["action_mask"]
            assert np.flatnonzero(mask).tolist() == (expected if other == agent else [])
        aid = pick(rng, expected, bool(queue), e.ids.pass_)
        e.step(aid)
        done += 1
        if aid == e.ids.pass_:
            queue.pop(0)
            offers += 1
        elif aid < e.ids.num_bids:
            queue = list(e.game.call_offers())
        else:
            queue = []
    return offers


@pytest.mark.parametrize("variant", EDITIONS)
def test_pettingzoo_selects_and_masks_what_the_kernel_offers(variant: str) -> None:
    v = load_variant(variant)
    offers = walk_pettingzoo(v, _players(v), 7, DECISIONS)
    rules = v.rules
    if rules.challenge_who != "player_to_move" or rules.calza_who != "player_to_move":
        assert offers > 0  # editions with out-of-turn calls had some offers walked


# --- OpenSpiel -----------------------------------------------------------------------------


def walk_openspiel(variant: str | Variant, players: int, seed: int, decisions: int) -> int:
    """As :func:`walk_pettingzoo`, through the OpenSpiel adapter's states."""
    openspiel = pytest.importorskip("perudo_rules.openspiel", exc_type=ImportError)
    game = openspiel.load_game(variant, players)
    amap = game.action_map
    rng = random.Random(seed)
    state = game.new_initial_state()
    queue: list[int] = []
    offers = done = 0
    while done < decisions:
        if state.is_terminal():
            state = game.new_initial_state()
            queue = []
            continue
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            state.apply_action(outcomes[int(rng.random() * len(outcomes))])
            continue
        g = state.perudo_game
        seat = queue[0] if queue else g.to_move
        assert state.current_player() == seat
        assert state.offered() == bool(queue)
        expected = kernel_ids(amap, g, seat, bool(queue))
        assert state.legal_actions() == expected
        aid = pick(rng, expected, bool(queue), amap.pass_)
        state.apply_action(aid)
        done += 1
        if aid == amap.pass_:
            queue.pop(0)
            offers += 1
        elif aid < amap.num_bids:
            queue = list(state.perudo_game.call_offers())
        else:
            queue = []
    return offers


@pytest.mark.parametrize("variant", EDITIONS)
def test_openspiel_asks_and_lists_what_the_kernel_offers(variant: str) -> None:
    v = load_variant(variant)
    offers = walk_openspiel(v, _players(v), 11, DECISIONS)
    rules = v.rules
    if rules.challenge_who != "player_to_move" or rules.calza_who != "player_to_move":
        assert offers > 0


# --- the bidder's own Calza (italian-literal: calza.who any_except_next) ---------------------

LITERAL_DICE = [[2, 2, 3, 3, 4], [4, 5, 5, 6, 6], [6, 6, 5, 3, 2]]


def test_pettingzoo_offers_the_bidder_its_calza_on_italian_literal() -> None:
    pz = pytest.importorskip("perudo_rules.pettingzoo", exc_type=ImportError)
    e = pz.raw_env("italian-literal", 3)
    e.reset_to(Game.start(e.variant, dice=LITERAL_DICE, first_player=0))
    e.step(e.ids.bid_id(2, 2))  # seat 0 bids; seat 1 is to move and may not call Calza
    assert e.game.call_offers() == (2, 0)
    assert e.agent_selection == "player_2" and e.legal_ids(2) == [e.ids.calza, e.ids.pass_]
    e.step(e.ids.pass_)
    assert e.agent_selection == "player_0"  # the bidder, on its own bid
    assert e.legal_ids(0) == [e.ids.calza, e.ids.pass_]
    e.step(e.ids.calza)
    r = e.game.last_result
    assert r is not None and (r.kind, r.caller) == ("calza", 0)


def test_openspiel_offers_the_bidder_its_calza_on_italian_literal() -> None:
    openspiel = pytest.importorskip("perudo_rules.openspiel", exc_type=ImportError)
    game = openspiel.load_game("italian-literal", 3)
    amap = game.action_map
    state = game.new_initial_state()
    state.apply_action(0)  # the roll-off: seat 0 opens
    for cup in LITERAL_DICE:
        for die in sorted(cup):
            state.apply_action(die - 1)
    state.apply_action(amap.bid_id(2, 2))
    assert state.current_player() == 2 and state.legal_actions() == [amap.calza, amap.pass_]
    state.apply_action(amap.pass_)
    assert state.current_player() == 0 and state.legal_actions() == [amap.calza, amap.pass_]
    state.apply_action(amap.calza)
    r = state.perudo_game.last_result
    assert r is not None and (r.kind, r.caller) == ("calza", 0)


# --- rewards: one zero-sum definition, both adapters ----------------------------------------


def replay_in_openspiel(finished: Game) -> list[float]:
    """The returns OpenSpiel's adapter gives the same game (same opener, dice and actions;
    every offer declined until the seat that called)."""
    openspiel = pytest.importorskip("perudo_rules.openspiel", exc_type=ImportError)
    game = openspiel.load_game(finished.variant, finished.players)
    amap = game.action_map
    state = game.new_initial_state()
    for k, r in enumerate(finished.history):
        if k == 0 and finished.rules.setup_first_player == "roll_off":
            state.apply_action(r.first_player)
        for cup in r.dice:
            for die in sorted(cup):
                state.apply_action(die - 1)
        rolled = iter(r.rerolls)
        for action in r.actions:
            while state.current_player() != action.player:
                assert state.offered()
                state.apply_action(amap.pass_)
            state.apply_action(amap.to_id(action))
            if isinstance(action, Reroll):  # its dice: chance nodes, die by die
                for die in next(rolled):
                    state.apply_action(die - 1)
    assert state.is_terminal()
    return list(state.returns())


@settings(max_examples=10, deadline=None)
@given(
    st.sampled_from(["italian", "spanish", "bluff", "mso-perudo"]),
    st.integers(2, 6),
    st.integers(0, 2**32 - 1),
)
def test_rewards_are_the_kernels_zero_sum_returns_in_both_adapters(
    variant: str, players: int, seed: int
) -> None:
    pz = pytest.importorskip("perudo_rules.pettingzoo", exc_type=ImportError)
    import numpy as np

    players = min(players, load_variant(variant)["players.max"])
    e = pz.raw_env(variant, players)
    e.reset(seed=seed)
    rng = random.Random(seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for _agent in e.agent_iter(max_iter=100_000):
        obs, _, terminated, truncated, _ = e.last()
        legal = np.flatnonzero(obs["action_mask"])
        e.step(None if terminated or truncated else int(legal[int(rng.random() * len(legal))]))
        for a, r in e.rewards.items():
            totals[a] += r
    finished = e.game
    assert finished.winner is not None and e.agents == []
    assert abs(sum(totals.values())) < 1e-9
    kernel = returns(finished.winner, players)
    assert [totals[a] for a in e.possible_agents] == pytest.approx(kernel)
    assert finished.returns() == kernel
    assert replay_in_openspiel(finished) == pytest.approx(kernel)


# --- what players are told after a partial reveal --------------------------------------------


def _after_partial_reveal(
    closed: Sequence[int], lifted: Sequence[int], caller: Sequence[int]
) -> dict[str, Any]:
    """Italian, 3 seats (challenge.early_stop): seat 0 bids 3x4, seat 1 doubts, seat 2's cup
    (holding at least three 4s or 1s) is lifted and the reveal stops; seat 0's cup
    ``closed`` stays down. Everything seats 1 and 2 are told then, by both adapters."""
    dice = [list(closed), list(caller), list(lifted)]
    seen: dict[str, Any] = {}
    pz = pytest.importorskip("perudo_rules.pettingzoo", exc_type=ImportError)
    e = pz.raw_env("italian", 3, render_mode="ansi", past_rounds=2)
    e.reset(seed=5)  # the same stream for every deal: the next round's roll too
    e.reset_to(Game.start(e.variant, dice=dice, first_player=0))
    e.step(e.ids.bid_id(3, 4))
    e.step(e.ids.pass_)  # seat 2 is offered Calza, declines
    e.step(e.ids.dudo)
    r = e.game.history[-1].result
    assert r.revealed == (2,) and r.loser == 1  # the bid holds in the lifted cup alone
    for seat in (1, 2):
        seen[f"pz{seat}"] = e.observe(f"player_{seat}")["observation"].tolist()
        seen[f"past{seat}"] = e.game.observation(seat).past_rounds
    seen["render"] = e.render()
    openspiel = pytest.importorskip("perudo_rules.openspiel", exc_type=ImportError)
    game = openspiel.load_game("italian", 3)
    amap = game.action_map
    state = game.new_initial_state()
    state.apply_action(0)
    for cup in dice:
        for die in sorted(cup):
            state.apply_action(die - 1)
    for aid in (amap.bid_id(3, 4), amap.pass_, amap.dudo):
        state.apply_action(aid)
    for _ in range(7):  # part of the next round's roll
        state.apply_action(2)
    for seat in (1, 2):
        seen[f"os{seat}"] = (
            state.observation_string(seat),
            state.information_state_string(seat),
            list(state.observation_tensor(seat)),
            list(state.information_state_tensor(seat)),
        )
    return seen


CUP = st.lists(st.integers(1, 6), min_size=5, max_size=5)


@settings(max_examples=25, deadline=None)
@given(
    CUP,
    CUP,
    CUP,
    st.lists(st.sampled_from([1, 4]), min_size=3, max_size=3),
    st.lists(st.integers(1, 6), min_size=2, max_size=2),
)
def test_after_a_partial_reveal_players_learn_nothing_of_the_closed_cup(
    closed_a: list[int], closed_b: list[int], caller: list[int], fours: list[int], rest: list[int]
) -> None:
    lifted = fours + rest
    a = _after_partial_reveal(closed_a, lifted, caller)
    b = _after_partial_reveal(closed_b, lifted, caller)
    assert a == b
