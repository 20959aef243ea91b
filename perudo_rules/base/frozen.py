"""Frozen dataclasses built fast and pickled by value, the same in both builds.

The transitions of :class:`~perudo_rules.engine.game.Game` build a new frozen value per action.
The ``__init__`` that :mod:`dataclasses` writes for a frozen class sets each field with
``object.__setattr__``, a large share of a step; :func:`keyword_builder` makes a faster
constructor, which each build gets in its own best form:

* pure Python: generated from the dataclass fields (as :mod:`dataclasses` generates
  ``__init__``). It stores the fields into an instance of a private *twin* class with the
  same slots, by plain attribute stores (the cheapest there are), then makes that object
  an instance of the frozen class (``obj.__class__ = cls``: CPython allows it between two
  classes of one slot layout). The value leaves the builder frozen; nothing sees the twin;
* the compiled build (mypyc, :data:`perudo_rules.base.version.COMPILED_MODULES`): the class's
  own *native* builder, a static method written out field by field as
  ``object.__setattr__(obj, "name", value)``, which mypyc compiles to a plain store into
  the object (as fast as a C struct; in pure Python it would be the slow form).

Both take the same keyword-only parameters, one per field they set (named without a
leading ``_``), so a call names every field and cannot swap two ``int | None`` values;
:func:`keyword_builder` checks the native builder's parameters against the fields, so a
field added to the class and not to its native builder fails at import, in either build.

The values are the dataclass's own: equal to the constructor's, immutable, hashed and
compared as before (``tests/test_engine.py`` checks it in both builds).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import MISSING, fields
from types import FunctionType
from typing import Any, TypeVar

__all__ = ["install_builder", "keyword_builder", "pickle_by_fields"]

_T = TypeVar("_T")


def keyword_builder(cls: type[_T], changes: str | None = None) -> Callable[..., _T]:
    """A constructor of the slotted frozen dataclass ``cls`` without its ``__init__``,
    generated from its fields (the pure-Python form).

    Without ``changes``: each field with ``init`` is a required keyword-only parameter
    (named without a leading ``_``). With ``changes`` (field names): the first argument,
    ``src``, is an instance to copy, and only those fields are keyword-only parameters (the
    bid transition changes two fields; naming 14 costs a tenth of the step). Fields without
    ``init`` get their defaults.
    """
    changed = None if changes is None else set(changes.split())
    twin = _twin(cls)
    # a compiled class has no slots to share and needs its own __new__
    env: dict[str, Any] = {"new": cls.__new__, "cls": cls, "twin": twin}
    params = _parameters(cls, changed)
    lines = ["    obj = new(cls)" if twin is None else "    obj = new(twin)"]
    for f in fields(cls):  # type: ignore[arg-type]  # cls is a dataclass
        if not f.init:
            assert f.default is not MISSING, f"{cls.__name__}.{f.name} needs a default"
            value = f"default_{f.name}"
            env[value] = f.default
        elif changed is None or f.name in changed:
            value = f.name.lstrip("_")
        else:
            value = f"src.{f.name}"
        if twin is None:
            env[f"set_{f.name}"] = vars(cls)[f.name].__set__
            lines.append(f"    set_{f.name}(obj, {value})")
        else:
            lines.append(f"    obj.{f.name} = {value}")
    if twin is not None:
        lines.append("    obj.__class__ = cls")
    assert changed is None or changed <= {f.name for f in fields(cls)}  # type: ignore[arg-type]
    source = "\n".join([f"def build({', '.join(params)}):", *lines, "    return obj", ""])
    exec(source, env)  # generated from the field names above, as dataclasses does
    build: Callable[..., _T] = env["build"]
    build.__qualname__ = build.__name__ = f"_make_{cls.__name__}"
    build.__doc__ = f"``{cls.__name__}(...)`` from named fields, fast (``{changes or 'all'}``)."
    return build


def _twin(cls: type[Any]) -> type[Any] | None:
    """A plain class with the slots of ``cls`` (same names, so the same layout), whose
    instances may become instances of ``cls`` (``__class__`` assignment); ``None`` where
    that does not hold (a compiled class, inherited slots, a name Python would mangle)."""
    slots = vars(cls).get("__slots__")
    names = {f.name for f in fields(cls)}
    if (
        cls.__bases__ != (object,)
        or not isinstance(slots, tuple)
        or set(slots) != names
        or any(s.startswith("__") for s in slots)
    ):
        return None
    twin = type(f"_{cls.__name__}Fields", (), {"__slots__": slots, "__module__": cls.__module__})
    try:
        probe: Any = object.__new__(twin)
        probe.__class__ = cls
    except TypeError:  # pragma: no cover - a layout CPython will not switch
        return None
    return twin


def install_builder(cls: type[Any], name: str, changes: str | None = None) -> None:
    """Give ``cls`` its fastest builder as the static method ``cls.<name>``.

    ``cls.<name>`` is the hand-written native builder (see the module docstring), with the
    parameters of :func:`keyword_builder` ``(cls, changes)``; that is checked here. When it
    is compiled (a built-in function, not a Python one) it stays; in pure Python it is
    replaced by the generated builder, which keeps it as ``__wrapped__``.
    """
    attr = vars(cls)[name]
    native = attr.__func__ if isinstance(attr, staticmethod) else attr
    want = _parameters(cls, None if changes is None else set(changes.split()))
    try:
        found = list(inspect.signature(native).parameters.values())
    except (TypeError, ValueError):  # no signature to read: the tests check the values
        found = None
    if found is not None:
        kinds: dict[Any, str] = {
            inspect.Parameter.POSITIONAL_OR_KEYWORD: "",
            inspect.Parameter.KEYWORD_ONLY: "*",
        }
        got = [f"{kinds.get(p.kind, '?')}{p.name}" for p in found]
        star = want.index("*")
        need = [*want[:star], *(f"*{p}" for p in want[star + 1 :])]
        if got != need:
            raise TypeError(
                f"{cls.__name__}.{name} takes ({', '.join(got)}); "
                f"the fields of {cls.__name__} need ({', '.join(need)})"
            )
    if isinstance(native, FunctionType):  # pure Python: the generated builder is faster
        build = keyword_builder(cls, changes)
        build.__wrapped__ = native  # type: ignore[attr-defined]
        build.__qualname__ = f"{cls.__qualname__}.{name}"
        setattr(cls, name, staticmethod(build))


def _parameters(cls: type[Any], changed: set[str] | None) -> list[str]:
    """The builder's parameters: ``src`` when it copies, ``*``, then one per field set."""
    params = [] if changed is None else ["src"]
    params.append("*")
    for f in fields(cls):
        if f.init and (changed is None or f.name in changed):
            params.append(f.name.lstrip("_"))
    return params


def pickle_by_fields(cls: type[Any]) -> None:
    """Make instances of the dataclass ``cls`` pickle (and copy) as a call of ``cls`` with
    their ``init`` fields in order, so ``__post_init__`` recomputes what it derives. The
    compiled build needs it: a mypyc class has no dataclass slot state to restore."""
    names = tuple(f.name for f in fields(cls) if f.init)

    def __reduce__(self: Any) -> tuple[type[Any], tuple[Any, ...]]:
        return cls, tuple([getattr(self, n) for n in names])

    __reduce__.__qualname__ = f"{cls.__qualname__}.__reduce__"
    setattr(cls, "__reduce__", __reduce__)  # noqa: B010  # a method set on the class
