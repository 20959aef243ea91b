"""Hypothesis proofs of the engine's invariants, over every bundled variant and random ones.

Each invariant is its own test. Variants come from :mod:`tests.strategies`: the bundled
editions plus random documents drawn from the whole knob space and loaded by the loader.

The rank function (``perudo_rules.engine.ranks``): with ``quantity_then_face`` and wild worth k,
an ordinary bid (q, f) has the key (q, 0, f) and a bid of w wilds the key (k*w, 1), so a
raise is: more dice, or as many of a higher face; to wilds at least ceil(q/k); back from w
wilds at least k*w+1 (``bidding.wild_rank: below_multiple``: the key (k*w, -1), to wilds
floor(q/k)+1, back k*w). With ``face_then_quantity`` the key is (f, q); with
``neither_decreases`` a raise lowers neither quantity nor face. In a palifico round
without wilds every face is ordinary. The tests restate these rules without the table.

Termination bound (checked by ``test_game_ends_with_one_winner_within_bound``): every Dudo
round removes one die (or more, under ``challenge.loss: difference`` or
``challenge.exact: others_lose``), every Calza round changes the total by -1 (wrong), +1
(exact, caller below the cap) or 0 (exact at the cap). With D0 dice at the start, D_end at
the end, G gaining and Z neutral Calza rounds, the game lasts
R <= D0 - D_end + 2G + Z <= D0 - 1 + 2G + Z rounds (exactly D0 - D_end + 2G + Z when every
loss is one die); without Calza gains at most D0 - 1.
A round has at most size = faces * (dice in play) bids (each raises the rank strictly)
plus one call, so a game without gains takes at most sum_{D=2..D0} (faces*D + 1) actions.
A single-round game has exactly one round.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from strategies import (
    bid_expected_legal,
    boosted,
    call_expected_legal,
    candidates,
    face_free,
    load_values,
    new_game_expected,
    new_games,
    positions,
    raise_ok,
    random_play,
    shift,
    starts,
    true_count,
    variant_values,
    variants,
    wild_active,
    wild_banned,
)

from perudo_rules import Bid, Calza, Dudo, Game, IllegalAction, Reroll, Variant, load_variant
from perudo_rules.editions.knobs import KNOB_PATHS, KNOBS

SEEDS = st.integers(0, 2**32 - 1)

STATE_FIELDS = (
    "dice",
    "dice_counts",
    "to_move",
    "bids",
    "palifico",
    "palifico_player",
    "round",
    "palifico_used",
    "history",
    "last_result",
    "winner",
    "first_player",
)


def snapshot(g: Game) -> tuple[object, ...]:
    return tuple(getattr(g, f) for f in STATE_FIELDS)


def alive(g: Game) -> list[int]:
    return [s for s, c in enumerate(g.dice_counts) if c]


# --- the strategy itself ----------------------------------------------------------------


@boosted()
@given(variant_values())
def test_random_variant_documents_load(values: dict[str, object]) -> None:
    """Every drawn document is a valid variant whose knobs hold the drawn values."""
    v = load_values(values)
    assert v.values() == values


def test_variant_strategy_covers_the_knob_space() -> None:
    """The random documents set every knob and reach every choice of every enum knob."""
    seen: dict[str, set[str]] = {p: set() for p in KNOB_PATHS}

    @given(variant_values())
    def collect(values: dict[str, object]) -> None:
        for p, value in values.items():
            seen[p].add(repr(value))

    from hypothesis import settings

    settings(max_examples=400, derandomize=True)(collect)()
    for k in KNOBS:
        assert seen[k.path], k.path
        for value, _ in k.choices:
            assert repr(value) in seen[k.path], (k.path, value)


# --- bid monotonicity ---------------------------------------------------------------------


@boosted()
@given(new_games(), SEEDS)
def test_bid_monotonicity(game: Game, seed: int) -> None:
    """Every accepted bid in a round ranks strictly above the one before it, both by the
    engine's rank and by the rulebook statement of a raise."""
    for before, step, after in random_play(game, seed):
        if isinstance(step, Bid) and before.bids:
            prev = before.bids[-1]
            rank_prev, rank_new = before.rank(prev), before.rank(step)
            assert rank_prev is not None and rank_new is not None
            assert rank_new > rank_prev
            assert raise_ok(before, prev, step)
        if isinstance(step, Bid):
            assert after.bids == (*before.bids, step)


@boosted()
@given(positions())
def test_raise_legal_exactly_when_rank_higher(g: Game) -> None:
    """Outside palifico face locks and the wild-opening rule, a bid in range is legal exactly
    when its rank is higher than the standing bid's, and the rank order is the raise rule.
    Under ``bidding.order: neither_decreases`` (a partial order) a bid is legal exactly when
    the raise rule says so, and every legal raise still ranks higher; a bid above
    ``bidding.quantity_limit`` has no rank and is illegal."""
    assume(g.to_move is not None and g.bids)
    assert g.to_move is not None
    cur = g.bids[-1]
    cur_rank = g.rank(cur)
    assert cur_rank is not None
    partial = g.rules.bidding_order == "neither_decreases"
    for q in range(1, g.dice_in_play + 1):
        for f in range(1, g.rules.dice_faces + 1):
            bid = Bid(g.to_move, q, f)
            if f == g.rules.wild and wild_banned(g):  # the wild face, counting or not
                continue
            if g.palifico and f != cur.face and not face_free(g, g.to_move):
                continue
            rank = g.rank(bid)
            if rank is None:  # above the fixed limit
                bad = g.violation(bid)
                assert bad is not None and bad.rule == "bidding.quantity_limit", bid
                continue
            if partial:
                assert g.is_legal(bid) == raise_ok(g, cur, bid), (cur, bid, g.violation(bid))
                assert not g.is_legal(bid) or rank > cur_rank, (cur, bid)
                continue
            assert (rank > cur_rank) == raise_ok(g, cur, bid), (cur, bid)
            assert g.is_legal(bid) == (rank > cur_rank), (cur, bid, g.violation(bid))


@boosted()
@given(positions())
def test_bid_legality_follows_the_rules(g: Game) -> None:
    """Every candidate bid is legal exactly when the rules, restated independently, allow it
    (turn, range, quantity cap, wild opening, palifico face lock, raise)."""
    for a in candidates(g):
        if isinstance(a, Bid):
            assert g.is_legal(a) == bid_expected_legal(g, a), (a, g.violation(a))


@boosted()
@given(positions())
def test_calls_follow_the_rules(g: Game) -> None:
    """Dudo and Calza are legal exactly for the seats the variant names, against a standing
    bid, never for the bidder or an out seat (the oracle: ``call_expected_legal``)."""
    for p in range(g.players):
        for call in (Dudo(p), Calza(p)):
            assert g.is_legal(call) == call_expected_legal(g, call), (call, g.violation(call))


# --- legal_actions and is_legal -----------------------------------------------------------


@boosted()
@given(st.one_of(positions(), starts()), st.data())
def test_legal_actions_agree_with_is_legal(g: Game, data: st.DataObject) -> None:
    """legal_actions() is exactly the legal part of the whole candidate space (bids of every
    seat with quantities 0..dice+2 and faces 0..faces+1, Dudo and Calza for every seat, out
    seats included), in order: bids by rank, then Dudo, then Calza; also after a call.
    Without a quantity cap, bids above the listed table (dice in play + 1) are legal by
    the raise rule but not listed. apply() accepts exactly the legal actions."""
    for state in (g, _after_call(g, data)):
        acts = state.legal_actions()
        listed = list(acts)
        assert len(listed) == len(acts) == len(set(listed))
        top = state.space.cap
        legal = [
            a
            for a in candidates(state)
            if state.is_legal(a) and not (isinstance(a, Bid) and a.quantity > top)
        ]
        assert set(listed) == set(legal)
        for a in candidates(state):
            legal_a = state.is_legal(a)
            assert (a in acts) == legal_a == (state.violation(a) is None)
            try:
                state.apply(a)
                applied = True
            except IllegalAction:
                applied = False
            assert applied == legal_a, (a, state.violation(a))
        bids = [a for a in listed if isinstance(a, Bid)]
        assert listed[: len(bids)] == bids
        ranks = [state.rank(b) for b in bids]
        assert ranks == sorted(ranks) and list(acts.bid_ranks) == ranks
        kinds = [type(a).__name__ for a in listed[len(bids) :]]
        assert kinds == sorted(kinds, key=lambda k: k != "Dudo")
        for i, a in enumerate(listed):
            assert acts[i] == a


def _dudo_losses(before: Game, dudo: Dudo, count: int) -> tuple[int, ...]:
    """Dice each seat loses to a Dudo, restated: the wrong side loses one die, or under
    ``challenge.loss: difference`` as many as bid and count differ (at least one, at most
    what it holds); an exact count under ``challenge.exact: others_lose`` also costs every
    other seat with dice but the bidder one die."""
    rules = before.rules
    bid = before.bids[-1]
    loser = dudo.player if count >= bid.quantity else bid.player
    n = max(1, abs(count - bid.quantity)) if rules.challenge_loss == "difference" else 1
    lost = [0] * before.players
    lost[loser] = min(n, before.dice_counts[loser])
    if count == bid.quantity and rules.challenge_exact == "others_lose":
        for s, c in enumerate(before.dice_counts):
            if c and s not in (loser, bid.player):
                lost[s] = 1
    return tuple(lost)


def _after_call(g: Game, data: st.DataObject) -> Game:
    calls = [a for a in g.legal_actions() if isinstance(a, (Dudo, Calza))]
    if not calls:
        return g
    return g.apply(data.draw(st.sampled_from(calls)))


# --- dice conservation --------------------------------------------------------------------


@boosted()
@given(new_games(), SEEDS)
def test_dice_conservation(game: Game, seed: int) -> None:
    """Dice in cups plus dice out stay seats x starting dice at every step; each round
    changes the total by -1 (Dudo, wrong Calza), +1 (exact Calza below the cap) or 0
    (exact Calza at the cap); nobody holds fewer than 0 or more than the maximum."""
    rules = game.rules
    d0 = game.players * rules.dice_per_player
    out = 0
    assert sum(game.dice_counts) == d0
    for before, step, after in random_play(game, seed):
        if isinstance(step, (Dudo, Calza)):
            r = after.last_result
            assert r is not None
            bid = before.bids[-1]
            delta = sum(after.dice_counts) - sum(before.dice_counts)
            if isinstance(step, Dudo):
                expected = -sum(_dudo_losses(before, step, r.count))
            elif r.count != bid.quantity:
                expected = -1
            elif before.dice_counts[step.player] < min(
                rules.calza_gain_cap, rules.dice_max_per_player
            ):
                expected = 1
            else:
                expected = 0
            assert delta == expected, (step, r)
            out -= delta
        assert sum(after.dice_counts) + out == d0
        assert all(0 <= c <= rules.dice_max_per_player for c in after.dice_counts)
        if after.to_move is not None:  # a re-roll's dice in the air are still held
            held = [len(c) + k for c, k in zip(after.dice, after.roll_counts, strict=True)]
            assert held == list(after.dice_counts)


@boosted()
@given(new_games(), SEEDS)
def test_dudo_and_calza_outcomes(game: Game, seed: int) -> None:
    """The round's count is the true count of its dice (wilds included only when they
    count); Dudo: count >= quantity costs the challenger, else the bidder; Calza: exact
    gains (up to the cap), else the caller loses; the right seat opens the next round."""
    rules = game.rules
    for before, step, after in random_play(game, seed):
        if not isinstance(step, (Dudo, Calza)):
            continue
        r = after.last_result
        assert r is not None
        bid = before.bids[-1]
        assert r.count == true_count(before.dice, bid.face, wild_active(before))
        if isinstance(step, Dudo):
            loser = step.player if r.count >= bid.quantity else bid.player
            assert (r.loser, r.gainer) == (loser, None)
            lost = _dudo_losses(before, step, r.count)
            assert after.dice_counts == tuple(
                c - d for c, d in zip(before.dice_counts, lost, strict=True)
            )
            assert r.lost == lost
            if rules.round_starter == "after_caller":
                starter = after.next_seat(step.player) if not after.is_over else None
            else:
                starter = (
                    loser
                    if rules.round_starter == "loser"
                    else (bid.player if loser == step.player else step.player)
                )
        else:
            if r.count == bid.quantity:
                assert r.loser is None
                gains = before.dice_counts[step.player] < min(
                    rules.calza_gain_cap, rules.dice_max_per_player
                )
                assert r.gainer == (step.player if gains else None)
            else:
                assert (r.loser, r.gainer) == (step.player, None)
            starter = {
                "caller": step.player,
                "player_to_move": before.to_move,
                "loser_else_bidder": step.player if r.loser == step.player else bid.player,
            }[rules.calza_next_starts]
        if after.is_over:
            assert r.next_player is None
            continue
        assert starter is not None
        if not after.dice_counts[starter]:
            starter = after.next_seat(starter)
        if r.next_palifico:
            assert r.next_player == after.palifico_player
            assert after.dice_counts[r.next_player] == 1
        else:
            assert r.next_player == starter


@boosted()
@given(new_games(), SEEDS)
def test_reveal_order(game: Game, seed: int) -> None:
    """Cups are lifted from the next seat after the challenger (Dudo; challenger last) or
    from the caller (Calza), in the direction of play, skipping out seats; with the early
    stop, lifting ends at the first cup where the running count reaches the bid."""
    rules = game.rules
    for before, step, after in random_play(game, seed):
        if not isinstance(step, (Dudo, Calza)):
            continue
        r = after.last_result
        assert r is not None
        n = before.players
        step_dir = 1 if game.variant["setup.direction"] == "left" else -1
        first = step.player if isinstance(step, Calza) else step.player + step_dir
        order = [(first + step_dir * i) % n for i in range(n)]
        order = [s for s in order if before.dice_counts[s]]
        reached, unreachable = rules.challenge_early_stop, rules.challenge_stop_when_unreachable
        # an early stop only where a Dudo costs one die of one seat (the outcome needs no count)
        one_die = rules.challenge_loss == "one_die" and rules.challenge_exact == "challenger_loses"
        if isinstance(step, Dudo) and one_die and (reached or unreachable):
            wild = wild_active(before)
            running = 0
            down = before.dice_in_play
            for i, s in enumerate(order):
                running += true_count([before.dice[s]], r.bid.face, wild)
                down -= before.dice_counts[s]
                if (reached and running >= r.bid.quantity) or (
                    unreachable and running + down < r.bid.quantity
                ):
                    order = order[: i + 1]
                    break
        assert list(r.revealed) == order
        assert list(r.shown) == [before.dice[s] for s in order]


@boosted()
@given(new_games(), SEEDS)
def test_turn_passes_in_the_direction_of_play(game: Game, seed: int) -> None:
    """After a bid the turn passes to the next seat with dice in the direction the variant
    names (left: next higher seat number; right: next lower), skipping out seats."""
    step_dir = 1 if game.variant["setup.direction"] == "left" else -1
    for before, step, after in random_play(game, seed):
        if isinstance(step, Bid):
            n = before.players
            nxt = next(
                s
                for i in range(1, n + 1)
                if before.dice_counts[s := (step.player + step_dir * i) % n]
            )
            assert after.to_move == nxt


# --- out players --------------------------------------------------------------------------


@boosted()
@given(new_games(), SEEDS)
def test_out_players_never_act(game: Game, seed: int) -> None:
    """A seat without dice never has a legal action, never gains a die, never opens a round,
    is never to move, and never comes back."""
    gone: set[int] = set()
    for before, step, after in random_play(game, seed):
        if before.to_move is not None:
            assert before.dice_counts[before.to_move] > 0
            for a in before.legal_actions():
                assert before.dice_counts[a.player] > 0
            for p in range(before.players):
                if not before.dice_counts[p]:
                    for a in (Bid(p, 1, 1), Dudo(p), Calza(p)):
                        assert before.violation(a) is not None
        if step != "roll":
            assert before.dice_counts[step.player] > 0
        r = after.last_result
        if isinstance(step, (Dudo, Calza)) and r is not None:
            if r.gainer is not None:
                assert before.dice_counts[r.gainer] > 0
            if r.next_player is not None:
                assert after.dice_counts[r.next_player] > 0
        gone |= {s for s, c in enumerate(after.dice_counts) if not c}
        assert all(not after.dice_counts[s] for s in gone)
        if after.to_move is not None:
            assert after.dice_counts[after.to_move] > 0
            assert after.first_player is not None and after.dice_counts[after.first_player] > 0


# --- termination ----------------------------------------------------------------------------


@boosted()
@given(new_games(), SEEDS)
def test_game_ends_with_one_winner_within_bound(game: Game, seed: int) -> None:
    """Every game ends with exactly one winner, within the bound stated in the module
    docstring: R = D0 - D_end + 2G + Z rounds, each of at most faces*D bids and one call."""
    rules = game.rules
    d0 = sum(game.dice_counts)
    steps = 0
    last = game
    for _before, step, after in random_play(game, seed):
        if step != "roll":
            steps += 1
        last = after
    assert last.is_over and last.winner is not None
    assert last.to_move is None and not last.awaiting_roll and not last.legal_actions()
    winners = [s for s, c in enumerate(last.dice_counts) if c]
    assert last.winner in winners
    rounds = len(last.history)
    if rules.end_condition == "single_round":
        assert rounds == 1 and last.winner != last.history[0].result.loser
    else:
        assert winners == [last.winner]
    gains = sum(1 for h in last.history if h.result.gainer is not None)
    neutral = sum(1 for h in last.history if h.result.gainer is None and h.result.loser is None)
    d_end = sum(last.dice_counts)
    if rules.end_condition != "single_round":
        # each round loses one die, gains one or neither; with challenge.loss difference or
        # challenge.exact others_lose a round may lose more, so there are fewer rounds
        one = rules.challenge_loss == "one_die" and rules.challenge_exact == "challenger_loses"
        lost = sum(sum(h.result.lost) for h in last.history)
        assert lost == d0 - d_end + gains
        assert rounds == d0 - d_end + 2 * gains + neutral or not one
        assert rounds <= d0 - 1 + 2 * gains + neutral
    # a round holds at most every bid of its table and a call; without a quantity cap the
    # table goes one step of bluff above the dice in play (perudo_rules.engine.ranks)
    bluff = rules.bidding_quantity_cap == "none"

    def most_actions(in_play: int) -> int:
        return rules.dice_faces * (in_play + bluff) + 1

    bound = 0
    for h in last.history:
        in_play = sum(len(c) for c in h.dice)
        assert len(h.actions) <= most_actions(in_play)
        bound += most_actions(in_play)
    assert steps <= bound
    if gains == 0 and neutral == 0:
        assert steps <= sum(most_actions(d) for d in range(2, d0 + 1))


# --- purity and determinism -----------------------------------------------------------------


@boosted()
@given(st.one_of(positions(), new_games()), st.data())
def test_apply_is_pure(g: Game, data: st.DataObject) -> None:
    """apply() and roll() never change the game they are called on, legal or not."""
    before = snapshot(g)
    acts = list(g.legal_actions())
    tried = data.draw(st.lists(st.sampled_from(acts), max_size=4)) if acts else []
    tried += data.draw(st.lists(st.sampled_from(candidates(g)), max_size=4))
    for a in tried:
        try:
            nxt = g.apply(a)
        except IllegalAction as exc:
            assert exc.refusal == g.violation(a)
            continue
        assert snapshot(g) == before
        if nxt.awaiting_roll:
            mid = snapshot(nxt)
            nxt.roll(seed=data.draw(SEEDS))
            assert snapshot(nxt) == mid
    assert snapshot(g) == before


@boosted()
@given(variants(), st.data(), SEEDS, SEEDS)
def test_same_seed_same_game(v: Variant, data: st.DataObject, seed: int, play: int) -> None:
    """Game.new with the same seed gives the same game; the same seeded play gives the same
    history; the same roll seed gives the same dice."""
    rules = v.rules
    players = data.draw(st.integers(rules.players_min, min(rules.players_max, 5)))
    a = Game.new(v, players, seed=seed)
    b = Game.new(v, players, seed=seed)
    assert snapshot(a) == snapshot(b)
    run_a = [(s, snapshot(x)) for _, s, x in random_play(a, play)]
    run_b = [(s, snapshot(x)) for _, s, x in random_play(b, play)]
    assert run_a == run_b


@boosted()
@given(variants(), st.integers(2, 6), SEEDS)
def test_first_player_roll_off(v: Variant, players: int, seed: int) -> None:
    """Game.new settles the opener by the variant's roll-off from random.Random(seed), then
    deals the dice seat by seat, as ``new_game_expected`` restates it."""
    n, first, dice = new_game_expected(v.rules, players, seed)
    g = Game.new(v, n, seed=seed)
    assert (g.to_move, g.first_player, g.dice) == (first, first, dice)


# --- observation ----------------------------------------------------------------------------


@boosted()
@given(positions(), st.data())
def test_observation_hides_other_dice(g: Game, data: st.DataObject) -> None:
    """observation(p) shows p's own dice and public facts only: re-rolling every other
    seat's cup leaves p's observation unchanged."""
    assume(g.to_move is not None)
    p = data.draw(st.sampled_from(range(g.players)))
    faces = g.rules.dice_faces
    other = [
        list(cup) if s == p else [data.draw(st.integers(1, faces)) for _ in cup]
        for s, cup in enumerate(g.dice)
    ]
    assert g.first_player is not None
    twin = Game.start(
        g.variant,
        other,
        g.first_player,
        palifico=g.palifico,
        round=g.round,
        palifico_used=g.palifico_used,
    )
    for b in g.bids:
        twin = twin.apply(b)
    assert twin.observation(p) == g.observation(p)
    assert g.observation(p).dice == g.dice[p]


@boosted()
@given(new_games(), SEEDS)
def test_observation_of_past_rounds(game: Game, seed: int) -> None:
    """After a round, a seat sees its own old dice and the lifted cups only; with the
    early stop, unlifted cups stay hidden."""
    obs_fields = {f.name for f in dataclasses.fields(game.observation(0))}
    assert obs_fields == {
        "player",
        "dice",
        "dice_counts",
        "round",
        "to_move",
        "palifico",
        "palifico_player",
        "bids",
        "past_rounds",
        "winner",
        "awaiting_roll",
        "palifico_used",
        "first_round",
        "actions",
        "set_aside",
        "legal_actions",
    }
    last = game
    called: list[tuple[tuple[int, ...], ...]] = []  # every seat's dice when each round ended
    for before, step, after in random_play(game, seed):
        if isinstance(step, (Dudo, Calza)):
            called.append(before.dice)
        last = after
    for p in range(last.players):
        obs = last.observation(p)
        assert obs.dice == last.dice[p]
        for past, rec, final in zip(obs.past_rounds, last.history, called, strict=True):
            assert past.own_dice == rec.dice[p]
            assert past.revealed == rec.result.revealed
            assert past.shown == tuple(final[s] for s in rec.result.revealed)
            mine = [a for a in rec.actions if isinstance(a, Reroll) and a.player == p]
            assert len(past.own_rerolls) == len(mine)


# --- palifico -------------------------------------------------------------------------------


def _palifico_variants() -> st.SearchStrategy[object]:
    return st.one_of(
        st.sampled_from(["italian", "spanish"]).map(load_variant),
        variant_values().map(lambda v: {**v, "palifico.enabled": True}).map(load_values),
    )


@st.composite
def palifico_positions(draw: st.DrawFn) -> Game:
    v = draw(_palifico_variants())
    r = v.rules  # type: ignore[attr-defined]
    n = draw(st.integers(max(2, r.players_min), min(r.players_max, 5)))
    counts = [draw(st.integers(1, r.dice_max_per_player)) for _ in range(n)]
    first = draw(st.integers(0, n - 1))
    counts[first] = 1
    dice = [[draw(st.integers(1, r.dice_faces)) for _ in range(c)] for c in counts]
    g = Game.start(v, dice, first, palifico=True)  # type: ignore[arg-type]
    for _ in range(draw(st.integers(0, 5))):
        acts = g.legal_actions()
        if not acts.bid_ranks:
            break
        g = g.apply(acts[draw(st.integers(0, min(len(acts.bid_ranks), 6) - 1))])
    return g


@boosted()
@given(palifico_positions())
def test_palifico_wilds_do_not_count(g: Game) -> None:
    """In a palifico round wilds count only where the variant says so (both editions: never);
    the Dudo count agrees."""
    wild = g.rules.wild if g.rules.palifico_wilds_count else None
    assert g.wilds_active == (wild is not None)
    for f in range(1, g.rules.dice_faces + 1):
        assert g.count(f) == true_count(g.dice, f, wild)
    if g.to_move is not None and g.bids:
        r = g.apply(Dudo(g.to_move)).last_result
        assert r is not None and r.count == true_count(g.dice, g.bids[-1].face, wild)


@boosted()
@given(palifico_positions())
def test_palifico_face_lock(g: Game) -> None:
    """In a palifico round every legal bid after the opening keeps the standing face, except
    where the variant frees it (face_lock free; another seat holding exactly one die under
    locked_except_single_die, or one that had its own palifico under
    locked_except_former_palifico; the palifico player itself only with
    opener_may_change), and a seat that may change it may make any higher-ranked bid but a
    banned wild one; a higher quantity on the standing face stays legal."""
    assume(g.to_move is not None and g.bids)
    assert g.to_move is not None
    cur = g.bids[-1]
    r = g.rules
    lock = r.palifico_face_lock
    if lock == "free":
        free = True
    elif g.to_move == g.palifico_player:
        free = r.palifico_opener_may_change
    else:
        single = g.dice_counts[g.to_move] == 1
        former = g.to_move in g.palifico_used
        free = (
            (lock == "locked_except_single_die" and single)
            or (lock == "locked_except_former_palifico" and former)
            or (lock == "locked_except_single_die_or_former_palifico" and (single or former))
        )
    for a in g.legal_actions():
        if isinstance(a, Bid) and a.face != cur.face:
            assert free, (lock, cur, a)
    up = Bid(g.to_move, cur.quantity + 1, cur.face)
    if cur.quantity < g.dice_in_play and g.rank(up) is not None:  # not above the limit
        assert g.is_legal(up)
    if free:
        cur_rank = g.rank(cur)
        assert cur_rank is not None
        banned = r.wild if r.palifico_wild_bids == "forbidden" else None
        for f in range(1, r.dice_faces + 1):
            for q in range(1, g.dice_in_play + 1):
                bid = Bid(g.to_move, q, f)
                rank = g.rank(bid)
                if rank is None:  # above bidding.quantity_limit
                    assert not g.is_legal(bid)
                    continue
                if r.bidding_order == "neither_decreases":
                    expected = raise_ok(g, cur, bid) and f != banned
                else:
                    expected = rank > cur_rank and f != banned
                assert g.is_legal(Bid(g.to_move, q, f)) == expected, (cur, q, f)


@boosted()
@given(
    st.one_of(
        new_games(_palifico_variants()),  # type: ignore[arg-type]
        starts(_palifico_variants()),  # type: ignore[arg-type]
    ),
    SEEDS,
)
def test_palifico_rounds_follow_the_trigger(game: Game, seed: int) -> None:
    """A palifico round follows exactly the losses that leave a seat with one die (or an
    opener holding one, per the trigger), once per seat where the variant says so (seats in
    palifico_used never again), never heads-up where it is switched off, and the palifico
    seat opens it."""
    rules = game.rules
    used: set[int] = set(game.palifico_used)
    for before, step, after in random_play(game, seed):
        if step == "roll":
            assert after.palifico == before.palifico
            if after.palifico and before.to_move is None:  # a round's roll, not a re-roll's
                assert after.to_move == after.palifico_player
            continue
        if not isinstance(step, (Dudo, Calza)):
            continue
        r = after.last_result
        assert r is not None
        if after.is_over:
            assert not r.next_palifico
            continue
        n_alive = len(alive(after))
        if rules.palifico_trigger in ("reduced_to_one", "reduced_to_one_by_dudo"):
            cand = r.loser if r.loser is not None and after.dice_counts[r.loser] == 1 else None
            if rules.palifico_trigger == "reduced_to_one_by_dudo" and r.kind != "dudo":
                cand = None
        else:
            cand = r.next_player if after.dice_counts[r.next_player] == 1 else None  # type: ignore[index]
            if r.next_palifico:
                cand = r.next_player
        expected = (
            cand is not None
            and (rules.palifico_heads_up or n_alive > 2)
            and not (rules.palifico_once_per_player and cand in used)
        )
        assert r.next_palifico == expected, (r, used)
        if expected:
            used.add(cand)  # type: ignore[arg-type]
            assert after.palifico_player == cand == r.next_player


# --- seat rotation --------------------------------------------------------------------------


def _mirror_variant(v: object) -> object:
    flipped = "right" if v["setup.direction"] == "left" else "left"  # type: ignore[index]
    values = v.values()  # type: ignore[attr-defined]
    if v.id in ("italian", "spanish") and v.overrides is None:  # type: ignore[attr-defined]
        return load_variant(v.id, overrides={"setup.direction": flipped})  # type: ignore[attr-defined]
    return load_values({**values, "setup.direction": flipped})


@boosted()
@pytest.mark.parametrize("mirror", [False, True], ids=["rotate", "mirror"])
@given(starts(), st.integers(0, 5), SEEDS)
def test_seat_rotation(mirror: bool, g: Game, r: int, seed: int) -> None:
    """Rotating seats and dice by r rotates every outcome by r (legality, to_move, results,
    dice counts, winner). Mirroring seats (p -> -p) while reversing the direction of play
    mirrors every outcome: 'next seat' follows the direction, and the first player moves
    with the seats."""
    n = g.players
    r %= n

    def m(p: int | None) -> int | None:
        if p is None:
            return None
        return (-p) % n if mirror else (p + r) % n

    def move(seq: list[object] | tuple[object, ...]) -> list[object]:
        out: list[object] = [None] * n
        for i, x in enumerate(seq):
            out[m(i)] = x  # type: ignore[index]
        return out

    variant = _mirror_variant(g.variant) if mirror else g.variant
    assert g.first_player is not None
    h = Game.start(
        variant,  # type: ignore[arg-type]
        move(list(g.dice)),  # type: ignore[arg-type]
        m(g.first_player),  # type: ignore[arg-type]
        palifico=g.palifico,
        round=g.round,
        palifico_used=[m(s) for s in g.palifico_used],
    )
    for before, step, after in random_play(g, seed, max_steps=40, strict=False):
        if step == "roll":  # a round's dice, or a re-roll's (the dice after those held)
            rolled = [a[len(b) :] for a, b in zip(after.dice, before.dice, strict=True)]
            h = h.roll(dice=move(rolled))  # type: ignore[arg-type]
        else:
            shifted = shift(step, r, n, mirror)
            assert h.is_legal(shifted), (step, shifted, h.violation(shifted))
            cands = candidates(before)
            for a in cands[:: max(1, len(cands) // 40)]:
                assert before.is_legal(a) == h.is_legal(shift(a, r, n, mirror))
            h = h.apply(shifted)
        assert list(h.dice_counts) == move(list(after.dice_counts))
        assert h.to_move == m(after.to_move) and h.winner == m(after.winner)
        assert h.palifico == after.palifico and h.palifico_player == m(after.palifico_player)
        ra, rb = after.last_result, h.last_result
        if ra is not None and rb is not None:
            assert (rb.count, rb.kind) == (ra.count, ra.kind)
            assert (rb.loser, rb.gainer, rb.next_player) == (
                m(ra.loser),
                m(ra.gainer),
                m(ra.next_player),
            )
            assert list(rb.revealed) == [m(s) for s in ra.revealed]
