"""Listed iff legal: ``legal_actions()`` and ``is_legal`` are one rule set, in every position.

Random variants (every value of every knob, drawn from the knob table) and the bundled
editions are played by a random policy that also bids beyond the bid table (without a
quantity cap a bid above the dice in play is legal: pure bluff). In every position
reached:

* every listed action is legal, and the listing is the kernel's order: the bids of the
  player to move by ascending rank, then Dudo by seat, then Calza by seat;
* every legal bid of the table is listed: over candidate bids of every seat, quantities
  from 0 to well beyond the table (and around a standing bid beyond it) and every face
  (0 and faces + 1 included), the legal ones with a rank are exactly the listed bids;
  the legal ones without a rank are the unlisted bluffs beyond the table, only without a
  quantity cap and only above the dice in play plus one;
* every legal call of every seat (out seats included) is listed, then every legal
  re-roll of the player to move (``reroll.enabled``: each part of its concealed dice).
"""

from __future__ import annotations

import collections
import itertools
import random

from hypothesis import given
from hypothesis import strategies as st
from strategies import (
    MAX_PLAYERS,
    boosted,
    choose,
    load_values,
    new_games,
    random_variants,
    starts,
    variant_values,
    variants,
)

from perudo_rules import Bid, Calza, Dudo, Game, Reroll, load_variant
from perudo_rules.base.actions import Action
from perudo_rules.editions.knobs import knob_spec

#: Positions checked per drawn game (each check asks ``is_legal`` of a few thousand actions).
CHECKS = 4
#: Steps of random play per drawn game.
STEPS = 24


def _beyond(g: Game, rng: random.Random) -> Bid | None:
    """A bid above the table by the player to move, or ``None`` if there is no turn."""
    if g.to_move is None:
        return None
    top = g.space.cap
    standing = g.bids[-1].quantity if g.bids else 0
    # just above the table, among the wild bids' keys (worth x wilds), or far above
    q = max(top, standing) + rng.choice((1, 2, rng.randint(1, top * g.space.worth), 40))
    return Bid(g.to_move, q, rng.randint(1, g.rules.dice_faces))


def _step(g: Game, rng: random.Random) -> tuple[Game, bool]:
    """One step of random play: a roll, a bid beyond the table now and then, else a
    random legal action; and whether it was a bid beyond the table."""
    if g.awaiting_roll:
        return g.roll(rng=rng), False
    if rng.random() < (0.5 if g.rules.bidding_quantity_cap == "none" else 0.1):
        bid = _beyond(g, rng)
        if bid is not None and g.is_legal(bid):
            return g.apply(bid), True
    return g.apply(choose(g, rng)), False


def _candidate_quantities(g: Game) -> list[int]:
    """Quantities from 0 to well beyond the table, around a standing bid beyond it too."""
    top = g.space.cap + 4
    qs = set(range(top + 1))
    if g.bids:
        q = g.bids[-1].quantity
        qs |= {q - 1, q, q + 1, q + 2, q + 40}
    qs.add(10**6)
    return sorted(qs)


def check_listing(g: Game) -> None:
    """The listed actions of ``g`` are exactly its legal actions, in the kernel's order."""
    acts = g.legal_actions()
    listed = list(acts)
    assert len(listed) == len(acts)
    for i, a in enumerate(listed):
        assert acts[i] == a
        assert g.is_legal(a), (str(a), g.violation(a), g)
    bids = [a for a in listed if isinstance(a, Bid)]
    calls = [a for a in listed[len(bids) :] if not isinstance(a, Reroll)]
    rerolls = listed[len(bids) + len(calls) :]
    assert all(not isinstance(a, Bid) for a in calls)  # bids first
    ranks = [g.rank(b) for b in bids]
    assert None not in ranks and ranks == sorted(set(ranks), key=lambda r: r or 0)
    assert list(acts.bid_ranks) == ranks
    assert all(b.player == g.to_move for b in bids)

    faces = g.rules.dice_faces
    legal_in_table: set[Bid] = set()
    for p in range(g.players):
        for q in _candidate_quantities(g):
            for f in range(faces + 2):
                bid = Bid(p, q, f)
                if not g.is_legal(bid):
                    continue
                if g.rank(bid) is not None:
                    legal_in_table.add(bid)
                else:  # an unlisted bluff beyond the table: only without a cap
                    assert g.rules.bidding_quantity_cap == "none", (str(bid), g)
                    assert q > g.dice_in_play + 1, (str(bid), g)
    assert legal_in_table == set(bids)
    assert len(legal_in_table) == len(bids)

    seats = range(g.players)
    expected: list[Action] = [Dudo(p) for p in seats if g.is_legal(Dudo(p))]
    expected += [Calza(p) for p in seats if g.is_legal(Calza(p))]
    assert calls == expected
    if g.to_move is None:
        assert not rerolls
        return
    p = g.to_move
    hidden = sorted(g.dice[p][len(g.set_aside[p]) :])
    # every sub-multiset of the concealed dice (by how many of each face: 2**n combinations
    # of a seat's many dice would take minutes)
    held = collections.Counter(hidden)
    faces = sorted(held)
    parts = sorted(
        tuple(f for f, k in zip(faces, ks, strict=True) for _ in range(k))
        for ks in itertools.product(*(range(held[f] + 1) for f in faces))
    )
    assert rerolls == [r for r in (Reroll(p, c) for c in parts) if g.is_legal(r)]


#: The face locks (every value of ``palifico.face_lock`` but ``free``).
LOCKS = [c for c, _ in knob_spec("palifico.face_lock").choices if c != "free"]


@st.composite
def palifico_bluff_starts(draw: st.DrawFn) -> Game:
    """A palifico round of a random variant without a quantity cap, where bids beyond the
    table meet the face lock (every lock and every exception drawn, seats that had their
    palifico round included), and where wild bids rank among the ordinary ones
    (``quantity_then_face``, wilds counting), so that the table bid just below a bid
    beyond the table can be a wild bid: the case of issue 19."""
    values = draw(variant_values())
    values.update({"palifico.enabled": True, "bidding.quantity_cap": "none"})
    values["palifico.face_lock"] = draw(st.sampled_from(LOCKS))
    wild_among = draw(st.booleans())
    if wild_among:  # worth 2 or 3: a wild bid sits between ordinary bids beyond the table
        values.update({"bidding.order": "quantity_then_face", "palifico.wilds_count": True})
        values["wild.face"] = values["wild.face"] or 1
        values["bidding.wild_worth"] = draw(st.integers(2, 3))
    r = load_values(values).rules
    n = draw(st.integers(max(2, r.players_min), min(r.players_max, MAX_PLAYERS)))
    # the palifico player holds one die; with wilds among the bids the others hold more
    # (a seat holding one die may be free of the lock)
    least = 2 if wild_among and r.dice_max_per_player > 1 else 0
    others = st.lists(st.integers(least, r.dice_max_per_player), min_size=n - 1, max_size=n - 1)
    counts = [1, *draw(others)]
    if not any(counts[1:]):
        counts[1] = 1
    dice = [draw(st.lists(st.integers(1, r.dice_faces), min_size=c, max_size=c)) for c in counts]
    used = draw(st.lists(st.integers(0, n - 1), unique=True, max_size=n))
    return Game.start(load_values(values), dice, 0, palifico=True, palifico_used=used)


@boosted()
@given(
    st.one_of(
        starts(random_variants()),
        new_games(random_variants()),
        starts(variants()),
        palifico_bluff_starts(),
        palifico_bluff_starts(),
    ),
    st.integers(0, 2**32 - 1),
)
def test_listed_iff_legal(game: Game, seed: int) -> None:
    """Listed iff legal, in positions of random play that bids beyond the table: the
    positions right after such a bid, and a few others."""
    rng = random.Random(seed)
    g = game
    check_at = set(rng.sample(range(STEPS), CHECKS))
    checks = 0
    for i in range(STEPS):
        if g.is_over:
            break
        g, beyond = _step(g, rng)
        if (beyond or i in check_at) and checks < 2 * CHECKS:
            check_listing(g)
            checks += 1


def test_face_lock_after_a_bid_beyond_the_table() -> None:
    """Issue 19: after 15x3 (beyond the table of 11 dice) in a face-locked palifico round,
    seat 1 may only raise the threes; the wild bids at the table's floor rank (8x1 ... 12x1)
    were listed and refused [palifico.face_lock]."""
    v = load_variant("italian-literal", overrides={"palifico.wilds_count": True})
    start = Game.start(
        v, dice=[[1], [2, 3, 4, 5, 6], [2, 2, 3, 4, 5]], first_player=0, palifico=True
    )
    g = start.apply(Bid(0, 15, 3))
    assert g.to_move == 1
    assert [a for a in g.legal_actions() if isinstance(a, Bid)] == []
    bad = g.violation(Bid(1, 8, 1))
    assert bad is not None and bad.rule == "palifico.face_lock" and bad.params == {"face": 3}
    assert g.is_legal(Bid(1, 16, 3))  # a larger bluff on the face is legal, not listed
    check_listing(g)
    # a standing bid inside the table: the same face, higher quantities, listed
    g = start.apply(Bid(0, 10, 3))
    assert [str(a) for a in g.legal_actions() if isinstance(a, Bid)] == ["11x3", "12x3"]
    check_listing(g)


def test_neither_decreases_and_wild_bans_beyond_the_table() -> None:
    """The other branches of the listed raises after a standing bid beyond the table
    (10x3 over 6 dice: the table stops at 7): the plain order lists the table's bids above
    its key (the wild bids 5x1 to 7x1, worth 2 each), the wild ban none of them, the
    partial order nothing (every raise names more dice than the table holds), and
    face_then_quantity every bid on a higher face."""
    base = {"bidding.quantity_cap": "none", "palifico.face_lock": "free"}
    ftq = {**base, "bidding.order": "face_then_quantity", "bidding.wild_worth": 1}
    expected = [
        (base, ["5x1", "6x1", "7x1"]),
        ({**base, "bidding.wild_opening": "not_in_first_round"}, []),
        ({**base, "bidding.order": "neither_decreases", "bidding.wild_worth": 1}, []),
        (ftq, [f"{q}x{f}" for f in (4, 5, 6) for q in range(1, 8)]),
    ]
    for overrides, listed in expected:
        v = load_variant("italian", overrides=overrides)
        g = Game.start(v, dice=[[2, 3], [4, 5], [6, 6]], first_player=0).apply(Bid(0, 10, 3))
        check_listing(g)
        bids = [str(a) for a in g.legal_actions() if isinstance(a, Bid)]
        assert bids == listed, (overrides, bids)
