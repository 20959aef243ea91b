"""OpenSpiel games and states pickle (a ``multiprocessing`` pool maps over them), and every
bundled edition is loadable by name in a fresh process once :mod:`perudo_rules.openspiel`
is imported, its seat count a game parameter."""

from __future__ import annotations

import multiprocessing
import pickle
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip(
    "pyspiel",
    reason="open_spiel (module pyspiel) cannot be imported: pip install 'perudo-rules[openspiel]'",
)

from perudo_rules import load_variant  # noqa: E402
from perudo_rules.editions.variantfile import available_variants  # noqa: E402
from perudo_rules.openspiel import load_game  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _played(game: Any, seed: int, decisions: int) -> Any:
    """A state some ``decisions`` into a random game (or its end)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal() and decisions:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        decisions -= 1
    return state


def _same_state(a: Any, b: Any) -> None:
    assert a == b and hash(a) == hash(b)
    assert a.history() == b.history() and str(a) == str(b)
    assert a.get_game() == b.get_game()
    if not a.is_chance_node():
        for p in range(a.num_players()):
            assert a.information_state_string(p) == b.information_state_string(p)
            assert a.information_state_tensor(p) == b.information_state_tensor(p)
        assert a.legal_actions() == b.legal_actions()


def test_games_and_states_pickle_to_equal_objects() -> None:
    house = load_variant("italian", overrides={"dice.per_player": 3})  # not bundled
    for game in (load_game("italian", 3), load_game("openspiel-liars-dice"), load_game(house)):
        again = pickle.loads(pickle.dumps(game))
        assert again == game and str(again) == str(game)
        assert again.max_game_length() == game.max_game_length()
        for seed in range(3):
            state = _played(game, seed, 6)
            _same_state(pickle.loads(pickle.dumps(state)), state)
        assert game.new_initial_state() != _played(game, 0, 2)


def _legal_after_a_move(state: Any) -> tuple[str, list[int]]:
    """What a worker computes: the state's legal ids after its lowest legal move."""
    child = state.child(state.legal_actions()[0])
    return str(child), child.legal_actions() if not child.is_chance_node() else []


def test_a_process_pool_maps_over_states() -> None:
    game = load_game("spanish", 3)
    states = [s for s in (_played(game, seed, 5) for seed in range(8)) if not s.is_terminal()]
    states = [s for s in states if not s.is_chance_node()]
    expected = [_legal_after_a_move(s) for s in states]
    # spawn: a fresh interpreter that imports this module's adapter, nothing inherited
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        assert pool.map(_legal_after_a_move, states) == expected


def test_a_fresh_process_loads_every_edition_by_name() -> None:
    code = (
        "import pyspiel, perudo_rules.openspiel\n"
        "g = pyspiel.load_game('perudo_italian_3p')\n"
        "print(g, g.num_players())\n"
        "g = pyspiel.load_game('perudo_italian', {'players': 3})\n"
        "print(g, g.num_players())\n"
        "g = pyspiel.load_game('perudo_spanish(players=4)')\n"
        "print(g, g.num_players())\n"
        "g = pyspiel.load_game('perudo_openspiel_liars_dice')\n"
        "print(g.num_distinct_actions(), g.max_game_length())\n"
        "names = set(pyspiel.registered_names())\n"
        "print(sorted(n for n in names if n.startswith('perudo_') and not n.endswith('p')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout.splitlines()
    assert out[0] == "perudo_italian_3p(max_rounds=150) 3"
    assert out[1] == "perudo_italian(max_rounds=150,players=3) 3"
    assert out[2] == "perudo_spanish(max_rounds=200,players=4) 4"
    assert out[3] == "13 13"  # as pyspiel's liars_dice: 12 bids, then Liar
    families = [f"perudo_{vid.replace('-', '_')}" for vid in available_variants()]
    assert out[4] == str(sorted(families))


def test_players_is_a_parameter_checked_like_load_game() -> None:
    game = pyspiel.load_game("perudo_italian", {"players": 4})
    assert game == load_game("italian", 4) and game.num_players() == 4
    assert game.get_type().min_num_players == 2 and game.get_type().max_num_players == 6
    assert pyspiel.load_game("perudo_italian").num_players() == 2
    with pytest.raises(Exception, match="plays with 2 to 6"):
        pyspiel.load_game("perudo_italian", {"players": 7})
    with pytest.raises(Exception, match="max_rounds must be 1 to"):
        pyspiel.load_game("perudo_italian", {"max_rounds": -2})
