"""Differential test: our openspiel-liars-dice variant against OpenSpiel's own ``liars_dice``.

Both games are walked side by side through OpenSpiel's API: the same current
player, chance outcomes, legal action ids (ours through the engine's legal
actions and :class:`ActionMap`, and through the adapter), the same information
partition (information-state strings matched one to one) and returns, step by
step. Exhaustively over every history with one die each (4 and 5 faces, and 6 under
``HYPOTHESIS_PROFILE=thorough``, where the walk takes some 13 s per bidding rule; both
bidding rules), and over thousands of random games with 2 to 5 dice each.
The numbers compared are printed in the terminal summary (tests/conftest.py), even under
output capture and pytest-xdist.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import settings

pyspiel = pytest.importorskip(
    "pyspiel",
    reason="open_spiel (module pyspiel) cannot be imported: pip install 'perudo-rules[openspiel]'",
)

from perudo_rules import load_variant  # noqa: E402
from perudo_rules.engine.actionmap import ActionMap, action_map  # noqa: E402
from perudo_rules.openspiel import load_game  # noqa: E402

RULES = {"quantity_then_face": "reset-face", "face_then_quantity": "reset-quantity"}
#: The deep profile (thorough: 1000+ examples) also walks every history with one d6 each.
WALK_FACES = [4, 5, 6] if settings.default.max_examples >= 1000 else [4, 5]


def _pair(dice: int, faces: int, order: str) -> tuple[Any, Any, ActionMap]:
    v = load_variant(
        "openspiel-liars-dice",
        overrides={"dice.per_player": dice, "dice.faces": faces, "bidding.order": order},
    )
    theirs = pyspiel.load_game(
        "liars_dice", {"numdice": dice, "dice_sides": faces, "bidding_rule": RULES[order]}
    )
    return load_game(v, 2), theirs, action_map(v, 2)


@dataclass
class Tally:
    """Histories (every prefix of a game, chance included) and finished games compared."""

    histories: int = 0
    terminals: int = 0
    # Information states seen, both ways: the two games must partition histories alike.
    theirs_to_ours: dict[tuple[int, str], str] = field(default_factory=dict)
    ours_to_theirs: dict[tuple[int, str], str] = field(default_factory=dict)

    def same_information(self, player: int, theirs: str, ours: str) -> None:
        """Record that one history has these two information states for ``player``."""
        assert self.theirs_to_ours.setdefault((player, theirs), ours) == ours, (theirs, ours)
        assert self.ours_to_theirs.setdefault((player, ours), theirs) == theirs, (theirs, ours)


def _check_node(ours: Any, theirs: Any, amap: ActionMap, tally: Tally) -> list[int]:
    """Compare one node; return the actions to follow from it."""
    tally.histories += 1
    player = theirs.current_player()
    assert ours.current_player() == player, (str(theirs), str(ours))
    if theirs.is_terminal():
        assert ours.is_terminal()
        returns = theirs.returns()
        assert ours.returns() == returns, (str(theirs), str(ours))
        game = ours.perudo_game
        assert game.winner == returns.index(1.0)
        tally.terminals += 1
        return []
    assert not ours.is_terminal()
    if theirs.is_chance_node():
        outcomes = theirs.chance_outcomes()
        assert ours.chance_outcomes() == outcomes
        return [a for a, _ in outcomes]
    legal = theirs.legal_actions()
    assert ours.legal_actions() == legal, (str(theirs), str(ours))
    engine = ours.perudo_game
    assert engine.to_move == player
    assert [amap.to_id(a) for a in engine.legal_actions()] == legal, (str(theirs), str(ours))
    # The engine's own legality check agrees on every id, the illegal ones too.
    allowed = set(legal)
    for a, action in _every_action(amap, player):
        assert engine.is_legal(action) == (a in allowed), (str(ours), a)
    for p in (0, 1):
        tally.same_information(
            p, theirs.information_state_string(p), ours.information_state_string(p)
        )
    return legal


_ACTIONS: dict[tuple[int, int], tuple[ActionMap, list[tuple[int, Any]]]] = {}


def _every_action(amap: ActionMap, player: int) -> list[tuple[int, Any]]:
    """Every id but Pass with its engine action, for ``player`` (cached; the cache keeps
    ``amap`` alive, so its id is not reused)."""
    hit = _ACTIONS.get((id(amap), player))
    if hit is None or hit[0] is not amap:
        ids = [a for a in range(amap.num_actions) if a != amap.pass_]
        hit = (amap, [(a, amap.to_action(a, player)) for a in ids])
        _ACTIONS[(id(amap), player)] = hit
    return hit[1]


def _walk(ours: Any, theirs: Any, amap: ActionMap, tally: Tally) -> None:
    for a in _check_node(ours, theirs, amap, tally):
        _walk(ours.child(a), theirs.child(a), amap, tally)


def _say(record_property: Any, text: str) -> None:
    """Show ``text`` in the terminal summary (tests/conftest.py), under pytest-xdist too."""
    record_property("terminal_line", f"[openspiel differential] {text}")


@pytest.mark.parametrize("order", sorted(RULES))
@pytest.mark.parametrize("faces", WALK_FACES)
def test_every_history_with_one_die_each(faces: int, order: str, record_property: Any) -> None:
    ours, theirs, amap = _pair(1, faces, order)
    # the same ids: the bids, then Liar (Dudo); no Calza, and nobody is offered a call
    assert ours.num_distinct_actions() == theirs.num_distinct_actions()
    assert ours.max_chance_outcomes() == theirs.max_chance_outcomes()
    assert ours.max_game_length() == theirs.max_game_length()
    tally = Tally()
    start = time.perf_counter()
    _walk(ours.new_initial_state(), theirs.new_initial_state(), amap, tally)
    # Every increasing bid sequence ends in one Liar call, for each of faces**2 rolls.
    assert tally.terminals == faces**2 * (2 ** (2 * faces) - 1)
    # One information state per own die and bid sequence (any, or only the ones where it
    # is that player's turn): every one of them met, and matched one to one.
    assert len(tally.theirs_to_ours) == 2 * faces * (2 ** (2 * faces))
    record_property("histories", tally.histories)
    record_property("games", tally.terminals)
    _say(
        record_property,
        f"1 die each, d{faces}, {RULES[order]}: {tally.histories} histories "
        f"({tally.terminals} complete games, {len(tally.theirs_to_ours)} information states) "
        "identical in "
        f"{time.perf_counter() - start:.1f}s",
    )


def _policy(rng: random.Random, legal: list[int], liar: int) -> int:
    """Liar a fifth of the time (calls at every height), else a near-minimal raise or any."""
    bids = [a for a in legal if a != liar]
    r = rng.random()
    if not bids or (r < 0.2 and liar in legal):
        return liar
    if r < 0.6:
        return bids[min(int(rng.random() * 3), len(bids) - 1)]
    return bids[int(rng.random() * len(bids))]


@pytest.mark.parametrize("order", sorted(RULES))
@pytest.mark.parametrize("dice", [2, 3, 4, 5])
def test_random_games_with_several_dice(dice: int, order: str, record_property: Any) -> None:
    rng = random.Random(f"openspiel-{dice}-{order}")
    tally = Tally()
    games_per_face = {4: 250, 5: 250, 6: 500}
    start = time.perf_counter()
    for faces, count in games_per_face.items():
        ours_game, theirs_game, amap = _pair(dice, faces, order)
        assert ours_game.num_distinct_actions() == theirs_game.num_distinct_actions()
        assert ours_game.max_game_length() == theirs_game.max_game_length()
        for _ in range(count):
            ours, theirs = ours_game.new_initial_state(), theirs_game.new_initial_state()
            while True:
                actions = _check_node(ours, theirs, amap, tally)
                if not actions:
                    break
                if theirs.is_chance_node():
                    a = actions[int(rng.random() * len(actions))]
                else:
                    a = _policy(rng, actions, amap.dudo)
                ours.apply_action(a)
                theirs.apply_action(a)
    assert tally.terminals == sum(games_per_face.values())
    record_property("histories", tally.histories)
    record_property("games", tally.terminals)
    _say(
        record_property,
        f"{dice} dice each, d4/d5/d6, {RULES[order]}: {tally.terminals} random games, "
        f"{tally.histories} histories identical in {time.perf_counter() - start:.1f}s",
    )


def test_cfr_solves_both_games_alike(record_property: Any) -> None:
    """OpenSpiel's CFR on the smallest game (one d3 each): the same exploitability as it
    learns, so both games present the same tree and information sets to it."""
    v = load_variant("openspiel-liars-dice", overrides={"dice.faces": 3})
    ours, theirs = load_game(v), pyspiel.load_game("liars_dice", {"dice_sides": 3})
    solvers = [pyspiel.CFRSolver(ours), pyspiel.CFRSolver(theirs)]
    values = []
    for iterations in (1, 1, 2, 4):  # exploitability after 1, 2, 4 and 8 iterations
        for s in solvers:
            for _ in range(iterations):
                s.evaluate_and_update_policy()
        ours_x = pyspiel.exploitability(ours, solvers[0].average_policy())
        theirs_x = pyspiel.exploitability(theirs, solvers[1].average_policy())
        assert ours_x == pytest.approx(theirs_x, abs=1e-12)
        values.append(ours_x)
    assert values[-1] < values[0]  # CFR is learning something
    learnt = f"{values[0]:.4f} -> {values[-1]:.4f}"
    _say(record_property, f"CFR, one d3 each: exploitability {learnt}, equal")
