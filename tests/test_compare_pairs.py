"""``compare`` for every pair of bundled editions: each differing rule is confirmed by a
witness replayed here in both full editions, or shown to make no difference in play.

The witnesses are replayed with the engine alone (``Game``, no witness code): the
position is legal in both editions, the decisive action diverges, and the counterfactual
holds (each edition with the rule, and its partner, set to the other's values plays as
the other there). A rule proved to make no difference is checked by play: one of the two
editions with the rule set to the other's value plays the situations both share exactly
as before (or, for a rule deciding only bids, the proof says it tried every bid).
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from perudo_rules import Bid, Calza, Dudo, Game, Reroll, Variant, VariantError, load_variant
from perudo_rules.analysis.divergence import NewGame
from perudo_rules.analysis.witness import find_witnesses
from perudo_rules.analysis.witnessvalue import Witness
from perudo_rules.editions.knobs import KNOBS
from perudo_rules.editions.variant import differing_knobs, format_value
from perudo_rules.editions.variantfile import available_variants
from perudo_rules.records.position import Position, Roll

PAIRS = list(itertools.combinations(available_variants(), 2))


def test_the_bundled_editions_make_28_pairs() -> None:
    assert len(available_variants()) == 8 and len(PAIRS) == 28


def _set(v: Variant, other: Variant, rules: tuple[str, ...]) -> Variant | None:
    """``v`` with ``rules`` set to ``other``'s values (and, if the loader needs it, the
    knobs the engine never reads), or ``None``."""
    unread = [k.path for k in KNOBS if k.never_read]
    for extra in ((), unread):
        try:
            return load_variant(v.id, overrides={r: other[r] for r in (*rules, *extra)})
        except VariantError:
            continue
    return None


def _game(v: Variant, w: Witness) -> Game | str:
    if isinstance(w.start, NewGame):
        try:
            return Game.new(v, players=w.start.players, seed=w.start.seed)
        except ValueError as exc:
            return str(exc)
    s = w.start
    assert isinstance(s, Position)
    g = Game.start(
        v, s.dice, s.first_player, palifico=s.palifico, round=s.round, palifico_used=s.palifico_used
    )
    for step in w.actions:
        g = g.roll(dice=step.dice) if isinstance(step, Roll) else g.apply(step)
    return g


def _outcome(v: Variant, w: Witness) -> dict[str, Any]:
    """What ``v`` makes of the witness, by the engine alone, point by point."""
    g = _game(v, w)
    if w.kind == "setup":
        if isinstance(g, str):
            return {"refused": True}
        return {"refused": False, "first": g.first_player, "counts": g.dice_counts}
    assert isinstance(g, Game) and w.action is not None
    if w.kind == "legality" or not g.is_legal(w.action):
        return {"legal": g.is_legal(w.action)}
    assert isinstance(w.action, Dudo | Calza)
    after = g.apply(w.action)
    r = after.last_result
    assert r is not None
    return {
        "counts": after.dice_counts,
        "to_move": after.to_move,
        "palifico": after.palifico,
        "winner": after.winner,
        "revealed": r.revealed,
        "count": r.count,
        "shown_count": r.shown_count,
        "loser": r.loser,
        "gainer": r.gainer,
        "lost": r.lost,
        "next": r.next_player,
        "next_palifico": r.next_palifico,
    }


def _apart(x: dict[str, Any], y: dict[str, Any]) -> set[str]:
    out = {k for k in x.keys() | y.keys() if x.get(k) != y.get(k)}
    return {"refused"} if "refused" in out else out


def _check_confirmed(a: Variant, b: Variant, w: Witness) -> None:
    """The divergence replays, and each counterfactual edition turns into the other on the
    points it changes (one of them when the other cannot be built)."""
    oa, ob = _outcome(a, w), _outcome(b, w)
    points = _apart(oa, ob)
    assert points, w.describe()
    if w.kind == "legality":
        la, lb = w.variants
        assert (str(w.outcomes[la]) == "legal") == oa["legal"]
        assert (str(w.outcomes[lb]) == "legal") == ob["legal"]
    rules = (w.rule, *w.together)
    sa, sb = _set(a, b, rules), _set(b, a, rules)
    assert sa is not None or sb is not None
    turned = [(_outcome(x, w), own, target)
              for x, own, target in ((sa, oa, ob), (sb, ob, oa)) if x is not None]  # fmt: skip
    changed = set().union(*(_apart(x, own) for x, own, _ in turned)) & points
    if len(turned) == 1:
        changed = points
    assert changed, w.describe()
    for x, _, target in turned:
        assert all(x.get(k) == target.get(k) for k in changed), w.describe()


def _shared_positions(a: Variant, b: Variant, rng: random.Random) -> list[Position]:
    lo = max(a.rules.players_min, b.rules.players_min)
    hi = min(a.rules.players_max, b.rules.players_max, 6)
    most = min(a.rules.dice_max_per_player, b.rules.dice_max_per_player, 5)
    palifico = a.rules.palifico_enabled and b.rules.palifico_enabled
    out = []
    for _ in range(12):
        n = rng.randint(lo, hi)
        counts = [rng.randint(1, most) for _ in range(n)]
        pal = palifico and counts[0] == 1 and rng.random() < 0.5
        dice = [[rng.randint(1, a.rules.dice_faces) for _ in range(c)] for c in counts]
        out.append(Position(dice=tuple(map(tuple, dice)), first_player=0, palifico=pal,
                            round=rng.randint(1, 2)))  # fmt: skip
    return out


def _plays_alike_on_shared(e: Variant, changed: Variant, other: Variant, seed: int) -> bool:
    """``e`` and ``changed`` agree at every step of random play from positions ``e`` and
    ``other`` share, along actions both editions allow."""
    rng = random.Random(seed)
    for pos in _shared_positions(e, other, rng):
        try:
            g, h, o = pos.game(e), pos.game(changed), pos.game(other)
        except ValueError:
            continue
        for _ in range(12):
            if g.awaiting_roll or g.is_over:
                break
            if set(g.legal_actions()) != set(h.legal_actions()):
                return False
            both = [x for x in g.legal_actions() if o.is_legal(x)]
            if not both:
                break
            calls = [x for x in both if not isinstance(x, Bid)]
            low = both[rng.randrange(min(len(both), 8))]
            x = rng.choice(calls) if calls and rng.random() < 0.4 else low
            g, h, o = g.apply(x), h.apply(x), o.apply(x)
            state_g = (g.last_result, g.dice_counts, g.to_move, g.palifico)
            if state_g != (h.last_result, h.dice_counts, h.to_move, h.palifico):
                return False
    return True


def _check_proved(a: Variant, b: Variant, w: Witness) -> None:
    """The note names the rule; where one edition is said to ignore it, that edition with
    the rule set to the other's value plays the shared situations alike (when the loader
    can build it at all: Liar's Dice without a wild face cannot take another worth)."""
    assert w.kind == "none" and not w.confirmed and w.start is None
    note = str(w.note)
    assert note.startswith(f"{w.rule} differs, but "), note
    if "every bidding situation both editions share was tried" in note:
        return  # a proof over every bid, not a claim that one edition ignores the rule
    ways = [(e, _set(e, o, (w.rule,)), o) for e, o in ((a, b), (b, a))]
    named = [(e, c, o) for e, c, o in ways if f"{e.id} has " in note or f"{e.id} with " in note]
    if named and named[0][1] is None:
        e = named[0][0]
        cond = note.split(f"{e.id} has ", 1)[1].split(",", 1)[0].split(" and ")[0]
        path, value = cond.split(": ", 1)
        if path in e.values():
            assert format_value(e[path]) == value, note
        return
    assert any(
        c is not None and _plays_alike_on_shared(e, c, o, seed=7) for e, c, o in named or ways
    ), w.describe()


@pytest.mark.parametrize(("a_id", "b_id"), PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_every_differing_rule_is_confirmed_or_proved_alike(a_id: str, b_id: str) -> None:
    a, b = load_variant(a_id), load_variant(b_id)
    ws = find_witnesses(a, b)
    assert [w.rule for w in ws] == differing_knobs(a, b)
    for w in ws:
        assert w.confirmed != w.proved, w.describe()  # no "not confirmed" and no guess
        if w.confirmed:
            _check_confirmed(a, b, w)
        else:
            _check_proved(a, b, w)


def test_italian_and_bluff_differ_in_eleven_rules_and_nine_make_no_difference() -> None:
    """The issue's case: Calza and the bidding board's limit are confirmed now (and, since
    Bluff's winner opens and its start is rolled with five dice, who opens and how; and
    Bluff's set-aside re-roll, issue 22)."""
    ws = {w.rule: w for w in find_witnesses(load_variant("italian"), load_variant("bluff"))}
    assert (sum(w.confirmed for w in ws.values()), sum(w.proved for w in ws.values())) == (11, 9)
    reroll = ws["reroll.enabled"]
    assert reroll.confirmed and reroll.kind == "legality" and not reroll.together
    assert isinstance(reroll.action, Reroll) and str(reroll.outcomes["italian"]) != "legal"
    assert ws["round.starter"].confirmed and ws["setup.rolloff_dice"].confirmed
    assert ws["calza.enabled"].confirmed and ws["calza.enabled"].together == ("calza.who",)
    limit = ws["bidding.quantity_limit"]
    assert limit.confirmed and not limit.together and isinstance(limit.start, Position)
    assert limit.start.players >= 5  # more dice than the board's 20: more than 4 seats
    who = ws["calza.who"]
    assert who.proved and "bluff has calza.enabled: false" in str(who.note)
