"""Divergence witnesses: found for every differing rule, replayed here independently."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from perudo_rules import Bid, Calza, Dudo, Game, Variant, VariantError, load_variant
from perudo_rules.analysis.divergence import NewGame
from perudo_rules.analysis.witness import find_witness, find_witnesses
from perudo_rules.analysis.witnessvalue import Witness
from perudo_rules.editions.knobs import KNOBS
from perudo_rules.editions.variant import differing_knobs
from perudo_rules.records.position import Position, Roll, parse_line, parse_step


@pytest.fixture(scope="module")
def italian() -> Variant:
    return load_variant("italian")


@pytest.fixture(scope="module")
def spanish() -> Variant:
    return load_variant("spanish")


@pytest.fixture(scope="module")
def it_es(italian: Variant, spanish: Variant) -> list[Witness]:
    return find_witnesses(italian, spanish)


def _replay(v: Variant, w: Witness) -> Game:
    """Rebuild the witness position under ``v`` from its start and steps (no witness code)."""
    s = w.start
    assert isinstance(s, Position)
    g = Game.start(
        v, s.dice, s.first_player, palifico=s.palifico, round=s.round, palifico_used=s.palifico_used
    )
    for step in w.actions:
        g = g.roll(dice=step.dice) if isinstance(step, Roll) else g.apply(step)
    return g


def _assert_diverges(a: Variant, b: Variant, w: Witness) -> None:
    """The witness really separates ``a`` and ``b``, checked with the engine alone."""
    if w.kind == "setup":
        assert isinstance(w.start, NewGame)
        ga = Game.new(a, players=w.start.players, seed=w.start.seed)
        gb = Game.new(b, players=w.start.players, seed=w.start.seed)
        assert (ga.first_player, ga.dice_counts) != (gb.first_player, gb.dice_counts)
        return
    ga, gb = _replay(a, w), _replay(b, w)
    assert w.action is not None
    if w.kind == "legality":
        assert ga.is_legal(w.action) != gb.is_legal(w.action)
        la, lb = w.variants
        assert (str(w.outcomes[la]) == "legal") == ga.is_legal(w.action)
        assert (str(w.outcomes[lb]) == "legal") == gb.is_legal(w.action)
    else:
        assert w.kind == "resolution"
        assert isinstance(w.action, Dudo | Calza)
        ra, rb = ga.apply(w.action), gb.apply(w.action)
        assert ra.last_result is not None and rb.last_result is not None
        assert (ra.last_result, ra.dice_counts, ra.palifico, ra.winner) != (
            rb.last_result,
            rb.dice_counts,
            rb.palifico,
            rb.winner,
        )


def _plays_identically(a: Variant, b: Variant, games: int = 40) -> bool:
    """Random legal play from the same seeds gives the same records under both variants."""
    for seed in range(games):
        rng = random.Random(seed)
        ga, gb = Game.new(a, players=2 + seed % 5, seed=seed), Game.new(b, 2 + seed % 5, seed)
        while not ga.is_over:
            if ga.awaiting_roll:
                roll = rng.random()
                ga, gb = ga.roll(seed=int(roll * 1e9)), gb.roll(seed=int(roll * 1e9))
                continue
            la, lb = list(ga.legal_actions()), list(gb.legal_actions())
            if la != lb:
                return False
            x = la[int(rng.random() ** 3 * len(la))]
            ga, gb = ga.apply(x), gb.apply(x)
            if ga.last_result != gb.last_result or ga.dice_counts != gb.dice_counts:
                return False
    return True


def test_one_witness_per_differing_knob_in_knob_order(
    italian: Variant, spanish: Variant, it_es: list[Witness]
) -> None:
    paths = differing_knobs(italian, spanish)
    assert paths == [k.path for k in italian.knobs if italian[k.path] != spanish[k.path]]
    assert len(paths) >= 7
    assert [w.rule for w in it_es] == paths
    for w in it_es:
        assert w.variants == ("italian", "spanish")
        assert w.values == {"italian": italian[w.rule], "spanish": spanish[w.rule]}


def test_every_behavioural_difference_has_a_confirmed_witness(
    italian: Variant, spanish: Variant, it_es: list[Witness]
) -> None:
    for w in it_es:
        if w.kind == "none":
            # Proved to make no difference in play: check that independently.
            hybrid = load_variant("italian", overrides={w.rule: spanish[w.rule]})
            assert _plays_identically(italian, hybrid), w.rule
            assert not w.confirmed and w.proved and "the engine never reads it" in str(w.note)
            continue
        assert w.confirmed and not w.together, w.describe()
        _assert_diverges(italian, spanish, w)
    # everything but presentation has a witness: the wild face's name is the only "none"
    assert [w.rule for w in it_es if w.kind == "none"] == ["wild.name"]


def test_legality_witnesses_name_the_differing_rule(it_es: list[Witness]) -> None:
    legality = [w for w in it_es if w.kind == "legality"]
    assert {w.rule for w in legality} >= {"bidding.wild_opening", "calza.who", "palifico.face_lock"}
    for w in legality:
        refused = [str(o) for o in w.outcomes.values() if str(o) != "legal"]
        assert len(refused) == 1 and refused[0].startswith(f"illegal [{w.rule}:"), w.outcomes


def test_witnesses_are_small(it_es: list[Witness]) -> None:
    for w in it_es:
        if isinstance(w.start, Position):
            assert w.start.players <= 3
            assert sum(len(c) for c in w.start.dice) <= 4
            assert len(w.actions) <= 2, w.describe()
    opening = next(w for w in it_es if w.rule == "bidding.wild_opening")
    assert opening.actions == () and opening.action == Bid(0, 1, 1)


def test_resolution_witnesses_show_the_difference(it_es: list[Witness]) -> None:
    early = next(w for w in it_es if w.rule == "challenge.early_stop")
    assert early.kind == "resolution" and isinstance(early.action, Dudo)
    a, b = str(early.outcomes["italian"]), str(early.outcomes["spanish"])
    assert a != b and "lifted cups" in a
    once = next(w for w in it_es if w.rule == "palifico.once_per_player")
    assert once.kind == "resolution"
    assert "opens an ordinary round" in str(once.outcomes["italian"])
    assert "opens a palifico round" in str(once.outcomes["spanish"])


def test_rolloff_witness_is_a_seed_where_the_opener_differs(
    italian: Variant, spanish: Variant, it_es: list[Witness]
) -> None:
    w = next(w for w in it_es if w.rule == "setup.rolloff_dice")
    assert w.kind == "setup" and w.confirmed and w.action is None
    assert isinstance(w.start, NewGame)
    ga = Game.new(italian, w.start.players, seed=w.start.seed)
    gb = Game.new(spanish, w.start.players, seed=w.start.seed)
    assert ga.first_player != gb.first_player
    assert f"seat {ga.first_player} opens" in str(w.outcomes["italian"])


def test_describe_and_json(it_es: list[Witness]) -> None:
    for w in it_es:
        text = w.describe()
        assert w.rule in text and "italian" in text and "spanish" in text
        assert "\n" not in text
        data = json.loads(json.dumps(w.to_dict()))
        assert data["rule"] == w.rule and data["confirmed"] == w.confirmed
        assert data["description"] == text
        if isinstance(w.start, Position):
            # the start is a position plus actions in the one JSON shape
            assert parse_line(data["start"]) == (w.start, w.actions)
            assert parse_step(data["action"]) == w.action


def test_search_is_deterministic_and_fast(
    italian: Variant, spanish: Variant, it_es: list[Witness]
) -> None:
    t = time.process_time()
    again = find_witnesses(italian, spanish)
    spent = time.process_time() - t
    assert [w.to_dict() for w in again] == [w.to_dict() for w in it_es]
    assert spent < 10, f"witness search took {spent:.1f}s of CPU"


def test_identical_variants_have_no_witnesses(italian: Variant) -> None:
    assert find_witnesses(italian, load_variant("italian")) == []


HOUSE = """\
id: house
name: Our table
extends: italian
calza:
  enabled: false
palifico:
  heads_up: false
round:
  starter: challenge_winner
setup:
  direction: right
bidding:
  wild_worth: 3
"""


def test_house_rules_file_gets_confirmed_witnesses(tmp_path: Path, italian: Variant) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(HOUSE, encoding="utf-8")
    house = load_variant(path)
    ws = find_witnesses(italian, house)
    assert [w.rule for w in ws] == [
        "setup.direction",
        "bidding.wild_worth",
        "calza.enabled",
        "palifico.heads_up",
        "round.starter",
    ]
    for w in ws:
        assert w.confirmed, w.describe()
        assert w.variants == ("italian", "house")
        _assert_diverges(italian, house, w)
    calza = next(w for w in ws if w.rule == "calza.enabled")
    assert str(calza.outcomes["house"]).startswith("illegal [calza.enabled:")
    heads_up = next(w for w in ws if w.rule == "palifico.heads_up")
    assert heads_up.start is not None and heads_up.start.players == 2
    assert "palifico round" in str(heads_up.outcomes["italian"])
    assert "palifico round" not in str(heads_up.outcomes["house"])


def test_a_masked_rule_is_not_claimed_confirmed(italian: Variant) -> None:
    # With Calza switched off, who may call it changes nothing: no witness, and the knob
    # table says why (calza.who is read only where calza.enabled is true).
    house = load_variant(
        "italian", overrides={"calza.enabled": False, "calza.who": "any_except_bidder"}
    )
    ws = {w.rule: w for w in find_witnesses(italian, house)}
    assert ws["calza.enabled"].confirmed
    masked = ws["calza.who"]
    assert not masked.confirmed and masked.proved and masked.kind == "none"
    assert str(masked.note) == (
        "calza.who differs, but italian#2 has calza.enabled: false, so in italian#2 nobody "
        "can call Calza: the engine never reads calza.who there"
    )


def test_a_divergence_the_rule_alone_does_not_cause_is_not_confirmed(
    italian: Variant, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Without its proof, calza.who is searched: its hybrid diverges, but the full editions
    # never disagree because of it, so nothing is claimed confirmed.
    import perudo_rules.analysis.witness as witness_module

    monkeypatch.setattr(witness_module, "no_difference_reason", lambda *args: None)
    house = load_variant(
        "italian", overrides={"calza.enabled": False, "calza.who": "any_except_bidder"}
    )
    w = find_witness(italian, house, "calza.who")
    assert not w.confirmed and w.kind == "legality"
    assert "other differing rules change or mask this divergence" in str(w.note)
    assert "Not confirmed in the full variants" in w.describe()
    # the outcomes shown are those of the hybrid pair, and say so
    assert "with only calza.who set to" in str(w.note)


def test_a_setup_only_rule_gets_a_setup_witness(italian: Variant) -> None:
    fewer = load_variant("italian", overrides={"dice.per_player": 3})
    (w,) = find_witnesses(italian, fewer)
    assert w.rule == "dice.per_player" and w.kind == "setup" and w.confirmed
    assert isinstance(w.start, NewGame)
    assert Game.new(fewer, w.start.players, seed=w.start.seed).dice_counts[0] == 3


# Every single-rule change of the Italian edition that the loader accepts: the search is
# generic, so each gets a confirmed witness, or an honest "none" that random play agrees with.
INT_ALTERNATIVES = {
    "bidding.quantity_limit": [3],
    "calza.min_players": [4],
    "players.min": [3],
    "players.max": [4, 8],
    "dice.per_player": [3],
    "dice.faces": [5, 8],
    "dice.max_per_player": [6],
    "calza.gain_cap": [3],
    "bidding.wild_worth": [1, 3],
    "setup.rolloff_dice": [3],
    "wild.name": ["Aztec head"],
}


def _single_changes(base: Variant) -> list[tuple[str, object]]:
    out = []
    for spec in KNOBS:
        values = [c[0] for c in spec.choices] or INT_ALTERNATIVES.get(spec.path, [])
        out += [(spec.path, v) for v in values if v != base[spec.path]]
    return out


def test_every_single_rule_change_gets_a_witness(italian: Variant) -> None:
    changes = _single_changes(italian)
    assert len(changes) >= 30
    nothing = []
    for path, value in changes:
        try:
            changed = load_variant("italian", overrides={path: value})
        except VariantError:
            continue  # e.g. face_then_quantity needs wild_worth 1: not a single change
        (w,) = find_witnesses(italian, changed)
        assert w.rule == path
        if w.kind == "none":
            assert _plays_identically(italian, changed, games=10), (path, value)
            nothing.append(path)
            continue
        assert w.confirmed, w.describe()
        _assert_diverges_any(italian, changed, w)
    # the name of the wild face, a dice cap above what Calza can ever reach (gain_cap 5),
    # the roll-off score of one die (its total is its highest die); the leave knobs, which
    # matter only when a seat leaves: no move the search tries (play.leave); and how
    # re-rolls go in an edition without them (reroll.enabled false)
    assert list(dict.fromkeys(nothing)) == [
        "dice.max_per_player", "wild.name", "setup.rolloff_score", "reroll.limit",
        "reroll.must_bid", "leave.round", "leave.next_starts",
    ]  # fmt: skip


def _assert_diverges_any(a: Variant, b: Variant, w: Witness) -> None:
    if w.kind == "setup":
        assert isinstance(w.start, NewGame)
        outs = []
        for v in (a, b):
            try:
                g = Game.new(v, players=w.start.players, seed=w.start.seed)
                outs.append((g.first_player, g.dice_counts))
            except ValueError:
                outs.append(None)
        assert outs[0] != outs[1]
        return
    _assert_diverges(a, b, w)


def test_confirmation_is_causal_not_coincidental(italian: Variant) -> None:
    # The roll-off dice mean nothing when seat 0 always opens: no witness may claim them.
    seat_zero = load_variant(
        "italian", overrides={"setup.first_player": "seat_zero", "setup.rolloff_dice": 2}
    )
    first, rolloff = find_witnesses(italian, seat_zero)
    assert first.rule == "setup.first_player" and first.confirmed
    assert rolloff.rule == "setup.rolloff_dice" and not rolloff.confirmed and rolloff.proved
    # With the wild moved to the 6, no bid is wild under both variants, so the wild's
    # worth cannot be seen on its own, while moving the wild itself can: the worth is
    # confirmed only together with the wild face.
    sixes = load_variant("italian", overrides={"wild.face": "highest", "bidding.wild_worth": 1})
    ws = {w.rule: w for w in find_witnesses(italian, sixes)}
    assert ws["wild.face"].confirmed and not ws["wild.face"].together
    _assert_diverges(italian, sixes, ws["wild.face"])
    worth = ws["bidding.wild_worth"]
    assert worth.confirmed and worth.together == ("wild.face",)
    assert "confirmed together with wild.face" in str(worth.note)
