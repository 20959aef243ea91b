"""The OpenSpiel adapter: registration, chance nodes, action ids, out-of-turn calls,
returns, observations, OpenSpiel's own random-simulation checks, and the example."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


pyspiel = pytest.importorskip(
    "pyspiel",
    reason="open_spiel (module pyspiel) cannot be imported: pip install 'perudo-rules[openspiel]'",
)

import numpy as np  # noqa: E402
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from strategies import random_variants  # noqa: E402

from perudo_rules import Bid, Calza, Dudo, Game, IllegalAction, load_variant  # noqa: E402
from perudo_rules.engine.actionmap import action_map, most_offers  # noqa: E402
from perudo_rules.engine.settlement import most_dice_per_seat  # noqa: E402
from perudo_rules.openspiel import game_name, load_game  # noqa: E402
from perudo_rules.openspiel.spec import family_name  # noqa: E402

EDITIONS = [(v, n) for v in ("italian", "spanish") for n in (2, 3, 6)]


@pytest.mark.parametrize(("variant", "players"), [("openspiel-liars-dice", 2), *EDITIONS], ids=str)
def test_openspiel_random_simulation_checks_pass(variant: str, players: int) -> None:
    game = load_game(variant, players)
    sims = {2: 10, 3: 5, 6: 2}[players]
    # Raises on any failed check: legal actions sorted and masked, clone and serialisation
    # round trips, observation sizes, returns zero-sum and in range, length bound...
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def test_names_are_unique_per_variant_seats_and_knob_values() -> None:
    assert game_name("italian", 3) == "perudo_italian_3p"
    assert game_name("openspiel-liars-dice") == "perudo_openspiel_liars_dice_2p"
    five = load_variant("openspiel-liars-dice", overrides={"dice.per_player": 5})
    four = load_variant("openspiel-liars-dice", overrides={"dice.per_player": 4})
    assert game_name(five).startswith("perudo_openspiel_liars_dice_2p_")
    assert len({game_name(five), game_name(four), game_name("openspiel-liars-dice")}) == 3
    again = load_variant("openspiel-liars-dice", overrides={"dice.per_player": 5})
    assert game_name(again) == game_name(five)
    g1, g2 = load_game(five), load_game(again)
    assert str(g1) == str(g2)
    # OpenSpiel's liars_dice has bids then Liar: no Calza, no Pass (nobody is ever offered)
    assert pyspiel.load_game(game_name(five)).num_distinct_actions() == 10 * 6 + 1
    assert family_name("italian") == "perudo_italian"
    assert family_name(five).startswith("perudo_openspiel_liars_dice_")
    assert family_name(five) != family_name(four)
    assert str(g1) == f"{family_name(five)}(max_rounds=1,players=2)"


def test_bad_seat_counts_and_round_caps_are_refused() -> None:
    with pytest.raises(ValueError, match="plays with exactly 2"):
        load_game("openspiel-liars-dice", 3)
    with pytest.raises(ValueError, match="plays with 2 to 6"):
        load_game("italian", 7)
    for bad in (0, 2**31, -3):
        with pytest.raises(
            ValueError, match=r"max_rounds must be 1 to [\d,]+ for perudo_italian_2p"
        ):
            load_game("italian", 2, max_rounds=bad)
    for bad in (1.5, True, "3", [3]):
        with pytest.raises(ValueError, match="max_rounds must be a whole number"):
            load_game("italian", 2, max_rounds=bad)
    with pytest.raises(ValueError, match="is not a whole number of seats"):
        load_game("italian", 2.0)  # type: ignore[arg-type]
    # within OpenSpiel's 32-bit game length: the largest cap loads, NumPy's integers too
    spec = load_game("italian", 2).spec
    assert load_game("italian", 2, max_rounds=spec.most_rounds).max_game_length() <= 2**31 - 1
    assert load_game("italian", 2, max_rounds=np.int64(7)).max_game_length() == 7 * 61


def test_a_table_of_120_seats_loads_and_plays(tmp_path: Path) -> None:
    # 120 seats x 5 dice: 3600 bid ids, 119 offers a bid; 10 x 600 rounds would not fit
    # OpenSpiel's int, so the default cap is lowered to what does
    house = tmp_path / "crowd.yaml"
    house.write_text("extends: italian\nplayers:\n  max: 120\n", encoding="utf-8")
    game = load_game(house, 120)
    spec = game.spec
    assert spec.default_max_rounds == spec.most_rounds == (2**31 - 1) // spec.moves_per_round
    assert 600 < spec.most_rounds < 6000
    assert game.max_game_length() <= 2**31 - 1
    state = game.new_initial_state()
    rng = random.Random(3)
    decisions = 0
    while decisions < 60:  # a roll-off, 600 dice, then decisions
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    while state.is_chance_node():
        state.apply_action(0)
    assert not state.is_terminal() and state.perudo_game is not None
    assert len(state.observation_tensor(state.current_player())) > 0


def test_action_ids_follow_the_bid_rank_at_every_table_size() -> None:
    for vid in ("italian", "spanish"):
        v = load_variant(vid)
        amap = action_map(v, 3)
        assert amap.max_dice == 15
        assert amap.num_actions == 15 * 6 + 3
        assert (amap.dudo, amap.calza, amap.pass_) == (90, 91, 92)
        for cap in range(2, 16):
            counts = [len(range(seat, cap, 3)) for seat in range(3)]  # cap dice over 3 seats
            game = Game.start(v, [[2] * c for c in counts], 0)
            assert game.space.cap == cap
            ids = [amap.bid_id(*game.space.bid(r)) for r in range(game.space.size)]
            assert ids == sorted(ids), (vid, cap)
            assert [amap.to_action(i, 0) for i in ids] == [
                Bid(0, *game.space.bid(r)) for r in range(game.space.size)
            ]
    amap = action_map("spanish", 3)
    assert amap.name(amap.bid_id(3, 1)) == "3x1"
    assert amap.to_action(amap.calza, 1) == Calza(1)
    assert amap.to_action(amap.pass_, 1) is None
    with pytest.raises(ValueError):
        amap.to_action(amap.num_actions, 0)
    # heads-up only the player to move may call: nobody is offered a call, no PASS id
    duel = action_map("spanish", 2)
    assert (duel.dudo, duel.calza, duel.pass_, duel.num_actions) == (60, 61, -1, 62)
    with pytest.raises(ValueError, match="no PASS"):
        duel.to_id(None)
    with pytest.raises(ValueError, match="no action id -1"):
        duel.to_action(duel.pass_, 0)
    # without Calza (OpenSpiel's liars_dice) the ids are the bids, then Dudo (Liar)
    liar = action_map("openspiel-liars-dice", 2)
    assert (liar.dudo, liar.calza, liar.pass_, liar.num_actions) == (12, -1, -1, 13)
    with pytest.raises(ValueError, match="no Calza"):
        liar.to_id(Calza(0))


def _to_play(state: Any, rng: random.Random) -> None:
    """Resolve chance nodes at random until a seat must act (or the game ends)."""
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0])


def _offer_order(game: Game) -> list[int]:
    """Seats that may call out of turn after the bid just made, in the direction of play."""
    assert game.to_move is not None
    out = []
    s = game.next_seat(game.to_move)
    while s != game.to_move:
        if s != game.bids[-1].player and (game.is_legal(Calza(s)) or game.is_legal(Dudo(s))):
            out.append(s)
        s = game.next_seat(s)
    return out


@pytest.mark.parametrize(("variant", "players"), EDITIONS, ids=str)
def test_adapter_agrees_with_the_engine_move_by_move(variant: str, players: int) -> None:
    game = load_game(variant, players)
    amap = game.action_map
    rng = random.Random(f"{variant}{players}")
    offers_seen = calls_out_of_turn = 0
    for _ in range({2: 30, 3: 15, 6: 5}[players]):
        state = game.new_initial_state()
        offered: list[int] = []
        while not state.is_terminal():
            if state.is_chance_node():
                _to_play(state, rng)
                continue
            engine = state.perudo_game
            seat = state.current_player()
            mine = [a for a in engine.legal_actions() if a.player == seat]
            if state.offered():
                offered.append(seat)
                mine = [a for a in mine if not isinstance(a, Bid)]
                expected = [*sorted(amap.to_id(a) for a in mine), amap.pass_]
                assert seat not in (engine.to_move, engine.bids[-1].player)
            else:
                assert seat == engine.to_move
                # Every seat offered a call since the bid came in order, exactly once.
                if engine.bids:
                    assert offered == _offer_order(engine)
                expected = sorted(amap.to_id(a) for a in mine)
            legal = state.legal_actions()
            assert legal == expected
            action = legal[rng.randrange(len(legal))]
            if state.offered() and action != amap.pass_:
                calls_out_of_turn += 1
            chosen = amap.to_action(action, seat)
            state.apply_action(action)
            if chosen is None:  # a pass: same engine position, next offer
                assert state.perudo_game is engine
                continue
            offers_seen += len(offered)
            offered = []
            after = engine.apply(chosen)
            now = state.perudo_game
            assert (now.dice_counts, now.bids, now.winner, now.round) == (
                after.dice_counts,
                after.bids,
                after.winner,
                after.round,
            )
        returns = state.returns()
        winner = state.perudo_game.winner
        assert returns[winner] == 1.0
        assert all(
            r == pytest.approx(-1 / (players - 1)) for s, r in enumerate(returns) if s != winner
        )
        assert sum(returns) == pytest.approx(0.0)
    if players > 2:
        assert offers_seen > 0 and calls_out_of_turn > 0
    else:  # heads-up the only seat but the bidder is the player to move: never offered
        assert offers_seen == 0


def _apply_all(state: Any, actions: list[int]) -> Any:
    for a in actions:
        state.apply_action(a)
    return state


def test_italian_calza_is_offered_to_the_seat_after_the_next_player() -> None:
    game = load_game("italian", 3)
    amap = game.action_map
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]  # the roll-off
    state.apply_action(0)  # seat 0 opens
    for seat in range(3):
        for _ in range(5):
            assert state.rolling_seat() == seat
            assert state.chance_outcomes() == [(k, 1 / 6) for k in range(6)]
            state.apply_action(1)  # every die shows 2
    assert state.perudo_game.dice == ((2,) * 5,) * 3
    assert state.current_player() == 0
    assert amap.calza not in state.legal_actions()  # nobody to match yet
    state.apply_action(amap.bid_id(15, 2))
    # Seat 1 is next, so only seat 2 may call Calza: it is asked first, call or pass.
    assert state.current_player() == 2 and state.offered()
    assert state.legal_actions() == [amap.calza, amap.pass_]
    assert state.action_to_string(2, amap.calza) == "Calza"
    state.apply_action(amap.calza)
    result = state.perudo_game.last_result
    assert (result.kind, result.caller, result.count, result.gainer, result.loser) == (
        "calza",
        2,
        15,
        None,  # already at five dice
        None,
    )
    assert state.is_chance_node() and state.rolling_seat() == 0


def test_spanish_calza_for_the_player_to_move_and_the_others_in_turn() -> None:
    game = load_game("spanish", 3)
    amap = game.action_map
    state = _apply_all(game.new_initial_state(), [1] + [0] * 15)  # seat 1 opens; all Pacos
    assert state.current_player() == 1
    state.apply_action(amap.bid_id(4, 3))
    assert state.current_player() == 0 and state.offered()  # seat 2 is to move; 0 asked
    assert state.legal_actions() == [amap.calza, amap.pass_]
    state.apply_action(amap.pass_)
    assert state.current_player() == 2 and not state.offered()
    legal = state.legal_actions()
    assert legal[-2:] == [amap.dudo, amap.calza]
    assert amap.pass_ not in legal
    assert state.action_to_string(2, legal[0]) == "4x4"
    state.apply_action(amap.dudo)
    result = state.perudo_game.last_result
    assert (result.kind, result.loser, result.count) == ("dudo", 2, 15)


def test_a_move_that_does_not_fit_the_offer_is_an_illegal_action_of_play_turn() -> None:
    """A seat offered a call that bids, and the player to move that passes, are refused
    as the kernel refuses an illegal action: ``IllegalAction`` with rule ``play.turn``
    and its message id, and the state does not move."""
    game = load_game("spanish", 3)
    amap = game.action_map
    state = _apply_all(game.new_initial_state(), [1] + [0] * 15)  # seat 1 opens; all Pacos
    with pytest.raises(IllegalAction, match=r"\[play\.turn\]$") as passed:
        state.apply_action(amap.pass_)  # seat 1 is the player to move: nothing to pass on
    assert passed.value.refusal.message_id == "no-call-to-pass"
    assert passed.value.refusal.params == {"seat": 1}
    state.apply_action(amap.bid_id(4, 3))
    assert state.current_player() == 0 and state.offered()
    before = state.history()
    with pytest.raises(IllegalAction) as bid:
        state.apply_action(amap.bid_id(5, 3))
    assert (bid.value.rule, bid.value.refusal.message_id) == ("play.turn", "offered-call-only")
    assert bid.value.refusal.params == {"seat": 0, "action": "5x3"}
    assert "seat 0 is offered an out-of-turn call" in str(bid.value)
    assert "al posto 0 è offerta una chiamata fuori turno" in bid.value.message_in("it")
    assert state.history() == before and state.current_player() == 0
    state.apply_action(amap.pass_)  # what the offer allows still goes
    assert state.current_player() == 2


def test_single_round_game_ends_with_plus_and_minus_one() -> None:
    game = load_game("openspiel-liars-dice")
    state = _apply_all(game.new_initial_state(), [2, 5])  # 3 and a wild 6
    assert state.legal_actions() == list(range(12))  # no Liar before a bid
    state.apply_action(game.action_map.bid_id(2, 3))
    assert state.legal_actions() == list(range(9, 13))
    state.apply_action(12)
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


def test_max_rounds_stops_a_game_as_a_draw() -> None:
    game = load_game("italian", 2, max_rounds=1)
    assert "max_rounds=1" in str(game)
    state = _apply_all(game.new_initial_state(), [0] + [2] * 10)
    state.apply_action(game.action_map.bid_id(1, 3))
    state.apply_action(game.action_map.dudo)
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    assert state.perudo_game.winner is None
    full = load_game("italian", 2)
    assert full.max_game_length() > game.max_game_length()


def _reroll_others(state: Any, player: int, rng: random.Random) -> Any:
    """The same history with every other seat's dice of the current round re-rolled."""
    game = state.get_game()
    replay = game.new_initial_state()
    seats = []
    for a in state.history():
        seats.append(replay.rolling_seat())
        replay.apply_action(a)
    last = max(i for i, s in enumerate(seats) if s is not None)
    first = last
    while first > 0 and seats[first - 1] is not None:
        first -= 1
    actions = list(state.history())
    for i in range(first, last + 1):
        if seats[i] != player:
            actions[i] = rng.randrange(6)
    return _apply_all(game.new_initial_state(), actions)


@pytest.mark.parametrize(("variant", "players"), [("italian", 3), ("spanish", 2)], ids=str)
def test_observations_hide_other_seats_dice(variant: str, players: int) -> None:
    game = load_game(variant, players)
    rng = random.Random(5)
    checked = 0
    for _ in range(10):
        state = game.new_initial_state()
        while not state.is_terminal():
            _to_play(state, rng)
            if state.is_terminal():
                break
            seat = state.current_player()
            other = _reroll_others(state, seat, rng)
            if other.perudo_game.dice != state.perudo_game.dice:
                checked += 1
                assert other.information_state_string(seat) == state.information_state_string(seat)
                assert other.observation_string(seat) == state.observation_string(seat)
                assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
                assert other.observation_tensor(seat) == state.observation_tensor(seat)
                spy = next(
                    s
                    for s in range(players)
                    if other.perudo_game.dice[s] != state.perudo_game.dice[s]
                )
                assert other.information_state_string(spy) != state.information_state_string(spy)
                assert other.information_state_tensor(spy) != state.information_state_tensor(spy)
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    assert checked > 20


def test_information_state_string_remembers_earlier_rounds() -> None:
    game = load_game("italian", 2)
    amap = game.action_map
    # Seat 0 opens and holds 1 2 3 4 5 (one Aztec), seat 1 holds five sixes.
    state = _apply_all(game.new_initial_state(), [0, 0, 1, 2, 3, 4, 5, 5, 5, 5, 5])
    first = state.information_state_string(1)
    assert first == "p1 | counts 5 5 | r1 opener s0 dice 66666 | s0 to act"
    state.apply_action(amap.bid_id(1, 6))
    state.apply_action(amap.dudo)  # seat 0's Aztec alone proves one six: seat 1 loses
    assert state.perudo_game.dice_counts == (5, 4)
    _apply_all(state, [1] * 9)  # round 2: every die shows 2
    later = state.information_state_string(1)
    # Cups are lifted from the challenger's left until the bid is proven: seat 0's only.
    assert later == (
        "p1 | counts 5 4 | r1 opener s0 dice 66666 s0:1x6 s1:dudo ; shown s0:12345 ; lost s1"
        " | r2 opener s1 dice 2222 | s1 to act"
    )
    mine = state.information_state_string(0)
    assert mine.startswith("p0 | counts 5 4 | r1 opener s0 dice 12345 s0:1x6 s1:dudo")
    assert "66666" not in mine  # seat 1's cup stayed closed
    assert state.observation_string(1) == "p1 | counts 5 4 | r2 opener s1 dice 2222 | s1 to act"


def test_serialisation_round_trips_a_multi_round_game() -> None:
    game = load_game("spanish", 3)
    rng = random.Random(3)
    state = game.new_initial_state()
    while state.perudo_game is None or state.perudo_game.round < 3:
        _to_play(state, rng)
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert state2.history() == state.history()
    assert str(state2) == str(state)
    assert state2.information_state_string(1) == state.information_state_string(1)


def _example() -> Any:
    spec = importlib.util.spec_from_file_location(
        "openspiel_mcts", ROOT / "examples" / "openspiel_mcts.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_example_mcts_runs_and_determinizes_fairly(capsys: pytest.CaptureFixture[str]) -> None:
    example = _example()
    assert example.main(["--games", "2", "--simulations", "8", "--determinizations", "1"]) == 0
    out = capsys.readouterr().out
    assert "game 1: MCTS in seat 0" in out and "game 2: MCTS in seat 1" in out
    assert "won" in out.splitlines()[-1] and "of 2 games of italian" in out
    # A determinized state looks the same to the searching seat, not to the others.
    game = load_game("italian", 2)
    rng = random.Random(1)
    state = game.new_initial_state()
    _to_play(state, rng)
    seen = 0
    for _ in range(20):
        other = example.determinize(state, 0, rng)
        assert other.information_state_string(0) == state.information_state_string(0)
        seen += other.information_state_string(1) != state.information_state_string(1)
    assert seen > 0


@given(variant=random_variants(), data=st.data())
def test_openspiel_checks_pass_on_house_rules_nobody_wrote(variant: Any, data: Any) -> None:
    """Any variant the format can express is a valid OpenSpiel game: out-of-turn Dudo,
    right-hand play, Calza for the player to move only, odd dice and faces..."""
    rules = variant.rules
    players = data.draw(st.integers(rules.players_min, rules.players_max), label="players")
    game = load_game(variant, players, max_rounds=6)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    amap = game.action_map
    rerolls = len(amap.set_asides)
    # Calza where the variant has it, PASS where some seat can be offered a call: an id
    # no position can take is left out (random_sim_test met every legal id it drew)
    assert amap.has_calza == rules.calza_enabled
    assert amap.has_pass == (most_offers(rules, (rules.dice_per_player,) * players) > 0)
    calls = 1 + amap.has_calza + amap.has_pass
    assert game.num_distinct_actions() == amap.num_bids + calls + rerolls
    held = most_dice_per_seat(rules)
    assert (rerolls > 0) == (rules.reroll_enabled and held > rules.reroll_min_hidden)
    assert game.max_chance_outcomes() == max(
        rules.dice_faces, players if rules.setup_first_player == "roll_off" else 0
    )
