"""Every exception class of the package survives pickling with its attributes.

A worker pool (``simulate --workers``, ``multiprocessing``, ``concurrent.futures``) sends a
raised error back to its parent by pickling it; an error whose ``__init__`` takes other
parameters than the message it passes on could not be rebuilt there. The classes are
found by importing every module of the package, so a new error type is covered without
editing this file; a constructor parameter without a sample value below fails the test
until one is added.
"""

from __future__ import annotations

import inspect
import pickle
from typing import Any

import pytest

from perudo_rules.base.errors import IllegalAction, PerudoError, VariantError
from perudo_rules.base.messages import Refusal
from perudo_rules.records.recordformat import Violation
from tests.modules import package_modules

#: A sample value for each constructor parameter name an error type takes.
SAMPLES: dict[str, Any] = {
    "message": "something is wrong",
    "rule": "palifico.face_lock",
    "file": "house.yaml",
    "key_path": "calza.who",
    "line": 7,
    "signum": 15,
    "text": "Dudo is not legal for player_0 now: there is no bid to doubt yet",
    "violation": Violation(
        2, 3, "1:4x5", Refusal("play.turn", "not-your-turn", {"to_move": 0, "seat": 1})
    ),
    "refusal": Refusal(
        "bidding.wild_worth",
        "wild-bid-needs",
        {"standing_quantity": 3, "standing_face": 4, "need": 2},
    ),
}


def _package_exceptions() -> list[type[BaseException]]:
    """Every exception class defined in a module of the package (optional front ends whose
    dependencies are missing are left out; ``__main__`` defines none)."""
    found: dict[str, type[BaseException]] = {}
    for module in package_modules():
        for obj in vars(module).values():
            if (
                inspect.isclass(obj)
                and issubclass(obj, BaseException)
                and obj.__module__.startswith("perudo_rules")
            ):
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return [found[name] for name in sorted(found)]


EXCEPTIONS = _package_exceptions()


def _instance(cls: type[BaseException]) -> BaseException:
    """An instance of ``cls`` with every constructor parameter set from SAMPLES."""
    try:
        signature = inspect.signature(cls)
    except ValueError:  # the built-in constructor of Exception: a message
        return cls(SAMPLES["message"])
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for name, param in signature.parameters.items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        assert name in SAMPLES, f"{cls.__qualname__}({name}=...): add a sample to SAMPLES"
        if param.kind is param.KEYWORD_ONLY:
            kwargs[name] = SAMPLES[name]
        else:
            args.append(SAMPLES[name])
    return cls(*args, **kwargs)


def test_the_search_finds_the_error_types() -> None:
    """The introspection sees the package's errors, those of other modules included."""
    names = {cls.__qualname__ for cls in EXCEPTIONS}
    assert {"IllegalAction", "VariantError", "PositionError", "RecordError"} <= names
    assert {"RecordViolation", "ScenarioError", "ActionSyntaxError", "OutputError"} <= names


@pytest.mark.parametrize("cls", EXCEPTIONS, ids=lambda c: c.__qualname__)
def test_every_error_survives_pickling(cls: type[BaseException]) -> None:
    error = _instance(cls)
    for protocol in (2, pickle.HIGHEST_PROTOCOL):
        copy = pickle.loads(pickle.dumps(error, protocol=protocol))
        assert type(copy) is cls
        assert str(copy) == str(error)
        assert copy.args == error.args
        assert vars(copy) == vars(error)


def test_attributes_survive_pickling() -> None:
    """The attributes callers read, spelled out for the two errors most often raised."""
    refusal = Refusal("play.turn", "not-your-turn", {"to_move": 0, "seat": 2})
    illegal = pickle.loads(pickle.dumps(IllegalAction(refusal)))
    assert (illegal.rule, illegal.message, str(illegal)) == (
        "play.turn",
        "it is seat 0's turn, not seat 2's",
        "it is seat 0's turn, not seat 2's [play.turn]",
    )
    assert illegal.refusal == refusal and illegal.refusal.params == {"to_move": 0, "seat": 2}
    located = VariantError("bad value", file="h.yaml", key_path="calza.who", line=4)
    copy = pickle.loads(pickle.dumps(located))
    assert (copy.file, copy.key_path, copy.line, copy.message) == (
        "h.yaml",
        "calza.who",
        4,
        "bad value",
    )
    assert str(copy) == "h.yaml:4: calza.who: bad value"
    assert isinstance(copy, PerudoError)
