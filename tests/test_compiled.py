"""Which build runs, and what both builds must share: fast builders, pickling, the version line.

``make test-compiled`` runs the rules tests against the compiled build (``build/compiled``
first on the path) with ``PERUDO_EXPECT_COMPILED=1``: then every module of
:data:`~perudo_rules.base.version.COMPILED_MODULES` must be a mypyc extension, so that run cannot
silently test pure Python. In every other run the package must be the pure one.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.machinery
import os
import pickle
import random
from dataclasses import dataclass
from types import FunctionType
from typing import Any

import pytest

from perudo_rules import cli, load_variant
from perudo_rules.base import version
from perudo_rules.base.actions import Bid, Calza, Dudo, bid_unchecked
from perudo_rules.base.frozen import install_builder
from perudo_rules.engine.fastplay import step_play
from perudo_rules.engine.game import Game
from perudo_rules.engine.rounds import RoundRecord, RoundResult
from perudo_rules.engine.start import opening

EXPECT = os.environ.get("PERUDO_EXPECT_COMPILED", "") == "1"
BUILD = "compiled (mypyc)" if EXPECT else "pure Python"


@pytest.mark.parametrize("name", version.COMPILED_MODULE_NAMES)
def test_each_module_is_the_build_this_run_expects(name: str) -> None:
    module = importlib.import_module(f"perudo_rules.{name}")
    path = str(module.__file__)
    assert path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)) == EXPECT, path
    if not EXPECT:
        assert path.endswith(".py")


def test_the_version_says_which_build(capsys: pytest.CaptureFixture[str]) -> None:
    assert version.compiled is EXPECT
    assert version.build == BUILD
    assert version.compiled_modules() == (version.COMPILED_MODULE_NAMES if EXPECT else ())
    with pytest.raises(SystemExit) as done:
        cli.main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"perudo-rules {version.__version__} ({BUILD})\n"


def test_the_fast_builders_are_the_build_s_own() -> None:
    """Compiled: the hand-written builders, compiled; pure: the generated ones."""
    for build in (Game._build, Game._after_bid, RoundResult._build, RoundRecord._build):
        assert isinstance(build, FunctionType) is not EXPECT
        assert hasattr(build, "__wrapped__") is not EXPECT  # the generated one keeps it


def _every_slot(obj: Any) -> dict[str, Any]:
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}


def _positions() -> list[Game]:
    game = step_play(load_variant("italian"), 4, random.Random(3))
    mid = Game.new(load_variant("italian"), 3, seed=5)
    mid = mid.apply(mid.legal_actions()[4])
    return [game, mid, mid.apply(Dudo(mid.to_move or 0))]


def test_builders_make_the_constructor_s_value_field_by_field() -> None:
    """Each builder, in either build, sets every field (the ones equality ignores too) to
    what the dataclass ``__init__`` sets; in pure Python the hand-written builders (kept as
    ``__wrapped__``, the compiled build's code) are checked too."""
    for g in _positions():
        fields = {f.name.lstrip("_"): getattr(g, f.name) for f in dataclasses.fields(g)}
        builders = [Game._build, getattr(Game._build, "__wrapped__", Game._build)]
        for build in builders:
            assert _every_slot(build(**fields)) == _every_slot(g)
        after = [Game._after_bid, getattr(Game._after_bid, "__wrapped__", Game._after_bid)]
        for build in after:
            made = build(g, to_move=g.to_move, bids=(*g.bids, Bid(0, 9, 2)))
            want = dataclasses.replace(g, bids=(*g.bids, Bid(0, 9, 2)))
            assert _every_slot(made) == _every_slot(want)
        for record in g.history:
            init = {f.name: getattr(record, f.name) for f in dataclasses.fields(record) if f.init}
            want = _every_slot(RoundRecord(**init))
            for build in (RoundRecord._build, getattr(RoundRecord._build, "__wrapped__", None)):
                if build is not None:
                    assert _every_slot(build(**init)) == want
            result = _every_slot(record.result)
            assert _every_slot(RoundResult(**result)) == result
            for build in (RoundResult._build, getattr(RoundResult._build, "__wrapped__", None)):
                if build is not None:
                    assert _every_slot(build(**result)) == result
    assert _every_slot(bid_unchecked(2, 5, 4)) == _every_slot(Bid(2, 5, 4))


def test_a_builder_missing_a_field_fails_at_import() -> None:
    """A field added to a class and not to its hand-written builder is caught when the
    builder is installed (module import), in either build."""

    @dataclass(frozen=True, slots=True)
    class Pair:
        a: int
        b: int

        @staticmethod
        def _build(*, a: int) -> Pair:
            raise AssertionError("not called")

    with pytest.raises(TypeError, match=r"Pair._build takes \(\*a\); .* need \(\*a, \*b\)"):
        install_builder(Pair, "_build")


def test_games_actions_and_rules_pickle_by_value() -> None:
    """Both builds pickle the values a worker pool sends (variants, rules, games, actions):
    equal after the round trip, every field, and the copy plays on the same."""
    italian = load_variant("italian")
    values: list[Any] = [italian, italian.rules, Bid(1, 3, 4), Dudo(2), Calza(0)]
    for g in _positions():
        values += [g, *g.history]
        copy = pickle.loads(pickle.dumps(g))
        assert _every_slot(copy) == _every_slot(g)
        assert list(copy.legal_actions()) == list(g.legal_actions())
    for value in values:
        for protocol in (2, pickle.HIGHEST_PROTOCOL):
            assert pickle.loads(pickle.dumps(value, protocol=protocol)) == value


@pytest.mark.parametrize("seed", [0, 7, -5, 2**70, -(2**64) - 3, "abc", b"xy", 3.5])
def test_a_new_game_deals_what_random_random_deals(seed: Any) -> None:
    """``Game.new(seed=...)`` draws from ``random.Random(seed)`` (for an ``int``, from its C
    base class, which makes the same stream faster): the same opener and dice, any seed."""
    v = load_variant("italian")  # a roll-off first, then the dice
    first, cups = opening(v.rules, 4, random.Random(seed))
    g = Game.new(v, 4, seed=seed)
    assert (g.first_player, g.dice) == (first, cups)
