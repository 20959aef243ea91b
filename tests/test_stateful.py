"""A Hypothesis state machine that plays whole games and checks the invariants after every step.

Hypothesis chooses the variant (bundled or random from the whole knob space), the seats,
the seed, and every move: bids, Dudo, Calza, out-of-turn attempts, illegal attempts,
rolls, and seats leaving the game at any point of a round (``play.leave``, either value of
``leave.round``). When a game ends, a new one starts.
"""

from __future__ import annotations

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)
from strategies import BOOST, candidates, true_count, variants, wild_active

from perudo_rules import (
    Bid,
    Calza,
    Dudo,
    Game,
    IllegalAction,
    Leave,
    Reroll,
    Variant,
    replay,
    to_record,
)
from perudo_rules.records.referee import referee

SEEDS = st.integers(0, 2**32 - 1)


class PerudoMachine(RuleBasedStateMachine):
    """Plays games move by move; the invariants run after every step."""

    finished = 0  # games played to the end, over all runs (for measuring the machine)
    game: Game
    d0: int
    out: int
    gone: set[int]

    def _new(self, variant: Variant, players: int, seed: int) -> None:
        players = max(variant.rules.players_min, min(players, variant.rules.players_max))
        self.game = Game.new(variant, players, seed=seed)
        self.d0 = players * variant.rules.dice_per_player
        self.out = 0
        self.gone = set()

    @initialize(variant=variants(), players=st.integers(2, 5), seed=SEEDS)
    def start(self, variant: Variant, players: int, seed: int) -> None:
        self._new(variant, players, seed)

    @precondition(lambda self: self.game.is_over)
    @rule(variant=variants(), players=st.integers(2, 5), seed=SEEDS)
    def restart(self, variant: Variant, players: int, seed: int) -> None:
        PerudoMachine.finished += 1
        self._new(variant, players, seed)

    @precondition(lambda self: self.game.awaiting_roll)
    @rule(seed=SEEDS)
    def roll(self, seed: int) -> None:
        before = self.game
        self.game = before.roll(seed=seed)
        if before.to_move is not None:  # a re-roll's dice: the same player acts next
            assert self.game.to_move == before.to_move and self.game.bids == before.bids
            assert self.game.set_aside == before.set_aside
            return
        assert self.game.round == before.round + 1
        assert self.game.to_move == before.last_result.next_player  # type: ignore[union-attr]
        assert self.game.bids == ()

    @precondition(lambda self: bool(self.game.to_move is not None and self.game.legal_actions()))
    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        g = self.game
        acts = g.legal_actions()
        nb = len(acts.bid_ranks)
        if nb and data.draw(st.booleans()):
            i = data.draw(st.integers(0, min(nb, 5) - 1))
        else:
            i = data.draw(st.integers(0, len(acts) - 1))
        action = acts[i]
        nxt = g.apply(action)
        if isinstance(action, Reroll):
            assert nxt.awaiting_roll and nxt.to_move == g.to_move
            p = action.player  # its dice join those set aside; the rest are in the air
            assert nxt.set_aside[p] == tuple(sorted(g.set_aside[p] + action.set_aside))
            assert nxt.dice[p] == nxt.set_aside[p] and nxt.roll_counts[p] > 0
            assert len(nxt.dice[p]) + nxt.roll_counts[p] == g.dice_counts[p]
        elif isinstance(action, Bid):
            assert nxt.bids == (*g.bids, action)
            if g.bids:
                cur = g.bids[-1]  # beyond the table under bidding.quantity_cap: none
                assert g.rank(action) > g.space.floor_rank(cur.quantity, cur.face)  # type: ignore[operator]
            assert nxt.to_move == g.next_seat(action.player)
        else:
            r = nxt.last_result
            assert r is not None and r.caller == action.player
            bid = g.bids[-1]
            assert r.count == true_count(g.dice, bid.face, wild_active(g))
            delta = sum(nxt.dice_counts) - sum(g.dice_counts)
            if isinstance(action, Dudo):
                assert r.loser is not None
                # a bidder that left the round (leave.round: continues) has no die to lose
                gone = r.loser == bid.player and not g.dice_counts[r.loser]
                assert r.lost[r.loser] >= 1 or gone
                assert delta == -sum(r.lost)  # one die, or more (challenge.loss, .exact)
                assert r.loser == (action.player if r.count >= bid.quantity else bid.player)
            else:
                assert isinstance(action, Calza)
                assert delta == (1 if r.gainer is not None else -1 if r.loser is not None else 0)
                assert (r.count == bid.quantity) == (r.loser is None)
            self.out -= delta
        self.game = nxt

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data())
    def attempt(self, data: st.DataObject) -> None:
        """Any candidate action: legal ones apply, illegal ones raise naming their rule and
        leave the game unchanged."""
        g = self.game
        action = data.draw(st.sampled_from(candidates(g)))
        bad = g.violation(action)
        try:
            nxt = g.apply(action)
        except IllegalAction as exc:
            assert bad is not None and exc.rule == bad.rule and exc.refusal == bad
            assert not g.is_legal(action) and action not in g.legal_actions()
            return
        assert bad is None and g.is_legal(action)
        if isinstance(action, (Dudo, Calza)):
            r = nxt.last_result
            assert r is not None
            self.out += sum(g.dice_counts) - sum(nxt.dice_counts)
        self.game = nxt

    @precondition(lambda self: self.game.to_move is not None)
    @rule(data=st.data())
    def leave(self, data: st.DataObject) -> None:
        """A seat with dice leaves, in turn or not: its dice (and only its) leave the game;
        the round is called off or goes on (``leave.round``); one seat left wins."""
        g = self.game
        seats = [s for s, c in enumerate(g.dice_counts) if c]
        out = [s for s, c in enumerate(g.dice_counts) if not c]
        if out:  # a seat without dice cannot leave again
            bad = g.violation(Leave(data.draw(st.sampled_from(out))))
            assert bad is not None and bad.rule == "play.seat"
        seat = data.draw(st.sampled_from(seats))
        assert g.is_legal(Leave(seat)) and Leave(seat) not in g.legal_actions()
        nxt = g.apply(Leave(seat))
        held = g.dice_counts[seat]
        assert nxt.dice_counts == tuple(0 if s == seat else c for s, c in enumerate(g.dice_counts))
        self.out += held
        alive = [s for s in seats if s != seat]
        rules = g.rules
        if len(alive) == 1:
            assert nxt.winner == alive[0] and nxt.last_result is not None
            assert nxt.last_result.kind == "leave" and nxt.last_result.next_player is None
        elif rules.leave_round == "continues":
            assert nxt.to_move == (g.next_seat(seat) if g.to_move == seat else g.to_move)
            assert nxt.bids == g.bids and nxt.actions == (*g.actions, Leave(seat))
            assert nxt.space == g.space  # the round's bid table (its quantity cap) stays
        else:
            r = nxt.last_result
            assert nxt.awaiting_roll and r is not None and r.kind == "leave"
            assert (r.caller, r.loser, r.revealed, r.lost[seat]) == (seat, seat, (), held)
            named = {"round_opener": g.first_player, "player_to_move": g.to_move}
            want = named.get(rules.leave_next_starts, seat)
            assert want is not None
            if not nxt.dice_counts[want]:
                want = nxt.next_seat(want)
            replayed = g.palifico and g.palifico_player in alive and (
                rules.palifico_heads_up or len(alive) > 2
            )
            if replayed:  # the palifico round called off is played again
                assert r.next_palifico and r.next_player == g.palifico_player
            else:
                assert r.next_player == want
        assert replay(to_record(nxt, full=True)) == nxt
        assert referee(to_record(nxt, viewer=seat)).valid
        self.game = nxt

    # --- invariants after every step ----------------------------------------------------

    @invariant()
    def dice_are_conserved(self) -> None:
        g = self.game
        assert sum(g.dice_counts) + self.out == self.d0
        assert all(0 <= c <= g.rules.dice_max_per_player for c in g.dice_counts)
        if g.to_move is not None:  # a re-roll's dice in the air are still held
            held = [len(c) + k for c, k in zip(g.dice, g.roll_counts, strict=True)]
            assert held == list(g.dice_counts)

    @invariant()
    def set_aside_dice_are_held_and_public(self) -> None:
        """reroll.*: a seat's set-aside dice lead its cup, every seat sees them in its
        observation, and none is set aside where the edition has no re-roll."""
        g = self.game
        if not g.rules.reroll_enabled or g.to_move is None:
            assert g.reroll is None and not any(g.set_aside)
            return
        for p in range(g.players):
            aside = g.set_aside[p]
            assert g.dice[p][: len(aside)] == aside
            assert g.observation(p).set_aside == g.set_aside

    @invariant()
    def out_seats_stay_out_and_never_act(self) -> None:
        g = self.game
        self.gone |= {s for s, c in enumerate(g.dice_counts) if not c}
        assert all(not g.dice_counts[s] for s in self.gone)
        for a in g.legal_actions():
            assert g.dice_counts[a.player] > 0
        if g.to_move is not None:
            assert g.dice_counts[g.to_move] > 0

    @invariant()
    def phase_is_consistent(self) -> None:
        g = self.game
        alive = [s for s, c in enumerate(g.dice_counts) if c]
        if g.is_over:
            assert g.winner in alive and g.to_move is None and not g.legal_actions()
            if g.rules.end_condition != "single_round":
                assert alive == [g.winner]
        else:
            assert len(alive) >= 2
            assert g.awaiting_roll == (g.to_move is None or bool(g.reroll and g.reroll.pending))
            if g.awaiting_roll:
                assert not g.legal_actions()
            if g.to_move is None:
                assert g.last_result is not None and g.last_result.next_player in alive
        if g.palifico and g.to_move is not None:
            assert g.palifico_player is not None and g.palifico_player in g.palifico_used

    @invariant()
    def legal_actions_are_consistent(self) -> None:
        g = self.game
        acts = g.legal_actions()
        listed = list(acts)
        assert len(listed) == len(acts)
        assert all(g.is_legal(a) for a in listed)

    @invariant()
    def observations_show_only_own_dice(self) -> None:
        g = self.game
        for p in range(g.players):
            obs = g.observation(p)
            assert obs.dice == g.dice[p] and obs.dice_counts == g.dice_counts
            for past, rec in zip(obs.past_rounds, g.history, strict=True):
                if not rec.rerolls:  # with re-rolls a lifted cup shows its last dice
                    assert past.shown == tuple(rec.dice[s] for s in rec.result.revealed)
                assert past.own_dice == rec.dice[p]


TestPerudoMachine = PerudoMachine.TestCase
# Long enough runs that many games end (and restart) within one run; the profile's
# max_examples still applies.
_n = settings.default.max_examples
TestPerudoMachine.settings = settings(
    stateful_step_count=150, max_examples=_n if _n >= 1000 else _n * BOOST
)
