"""Fast constructors of frozen, slotted dataclasses, generated from their fields.

The game's transitions build one :class:`~perudo_rules.game.Game` per action; setting the
slots directly (each field's descriptor) costs half the dataclass ``__init__``. A builder
is generated from the fields, as :mod:`dataclasses` generates ``__init__``: every field it
takes is a required keyword-only parameter, so a call names each field it sets, and a new
field is taken (or copied) without editing the caller. The result is the same frozen
value; ``tests/test_engine.py`` checks that.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, fields
from typing import Any, TypeVar

__all__ = ["keyword_builder"]

_T = TypeVar("_T")


def keyword_builder(cls: type[_T], changes: str | None = None) -> Callable[..., _T]:
    """A constructor of the slotted dataclass ``cls`` without its ``__init__``.

    Without ``changes``: each field with ``init`` is a required keyword-only parameter
    (named without a leading ``_``). With ``changes`` (field names): the first argument is
    an instance to copy, and only those fields are keyword-only parameters (the bid
    transition changes two fields; naming 14 costs a tenth of the step). Fields without
    ``init`` get their defaults.
    """
    changed = None if changes is None else set(changes.split())
    env: dict[str, Any] = {"new": object.__new__, "cls": cls}
    params = [] if changed is None else ["src"]
    params.append("*")
    lines = ["    obj = new(cls)"]
    for f in fields(cls):  # type: ignore[arg-type]  # cls is a dataclass
        env[f"set_{f.name}"] = cls.__dict__[f.name].__set__
        if not f.init:
            assert f.default is not MISSING, f"{cls.__name__}.{f.name} needs a default"
            value = f"default_{f.name}"
            env[value] = f.default
        elif changed is None or f.name in changed:
            value = f.name.lstrip("_")
            params.append(value)
        else:
            value = f"src.{f.name}"
        lines.append(f"    set_{f.name}(obj, {value})")
    assert changed is None or changed <= {f.name for f in fields(cls)}  # type: ignore[arg-type]
    source = "\n".join([f"def build({', '.join(params)}):", *lines, "    return obj", ""])
    exec(source, env)  # generated from the field names above, as dataclasses does
    build: Callable[..., _T] = env["build"]
    build.__qualname__ = build.__name__ = f"_make_{cls.__name__}"
    build.__doc__ = f"``{cls.__name__}(...)`` from named fields, fast (``{changes or 'all'}``)."
    return build
