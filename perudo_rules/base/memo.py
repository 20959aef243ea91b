"""Memos of what is computed from files: each value kept under a key that names the
content it was computed from, so a changed file is computed again.

Reading and checking a variant or scenario file (the YAML parse, the JSON Schema) costs far
more than reading its bytes: the loaders (:func:`perudo_rules.editions.variantfile.load_variant`,
:func:`perudo_rules.conform.scenarios.load_scenarios`) read the bytes at every call and look
the result up under the file's path and :func:`content_digest` of those bytes; a document
in memory (a game record's variant) is looked up under its :func:`frozen_key`. A :class:`Memo`
keeps a bounded number of values (the least recently used goes first) and may be used from
several threads. What it holds is shared: a loader returns fresh copies of anything mutable.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any, Generic, TypeVar

__all__ = ["Memo", "content_digest", "frozen_key"]

_K = TypeVar("_K", bound=Hashable)
_V = TypeVar("_V")


def content_digest(raw: bytes) -> str:
    """A digest of ``raw`` that names the content (BLAKE2b, 128 bits, in hex)."""
    return hashlib.blake2b(raw, digest_size=16).hexdigest()


class Memo(Generic[_K, _V]):
    """A bounded map from keys to values: :meth:`get` and :meth:`put`. Beyond ``size``
    values, or beyond ``budget`` in total weight (each value weighs what :meth:`put` says,
    such as the bytes of the file it was computed from), the least recently used values
    are dropped."""

    def __init__(self, size: int = 256, budget: int | None = None) -> None:
        self._size = size
        self._budget = budget
        self._values: OrderedDict[_K, tuple[_V, int]] = OrderedDict()
        self._weight = 0
        self._lock = threading.Lock()

    def get(self, key: _K) -> _V | None:
        """The value kept under ``key``, or ``None``."""
        with self._lock:
            found = self._values.get(key)
            if found is None:
                return None
            self._values.move_to_end(key)
            return found[0]

    def put(self, key: _K, value: _V, weight: int = 1) -> _V:
        """Keep ``value`` under ``key``, weighing ``weight``; returns ``value``."""
        with self._lock:
            old = self._values.pop(key, None)
            if old is not None:
                self._weight -= old[1]
            self._values[key] = (value, weight)
            self._weight += weight
            while len(self._values) > 1 and (
                len(self._values) > self._size
                or (self._budget is not None and self._weight > self._budget)
            ):
                self._weight -= self._values.popitem(last=False)[1][1]
        return value

    def clear(self) -> None:
        """Forget every value."""
        with self._lock:
            self._values.clear()
            self._weight = 0

    def __len__(self) -> int:
        return len(self._values)


_SCALARS = (str, int, float, bool, type(None))


def frozen_key(value: Any) -> Hashable | None:
    """A hashable key, equal for two JSON-like values exactly when they are equal *and*
    of the same types all through (``1``, ``1.0`` and ``True`` differ, a tuple is not a
    list), keys in order; ``None`` for a value with anything else in it (do not memoize
    it)."""
    if isinstance(value, _SCALARS):
        return (type(value).__name__, value)
    if isinstance(value, (list, tuple)):
        parts = tuple(frozen_key(v) for v in value)
        return None if None in parts else (type(value).__name__, parts)
    if isinstance(value, dict):
        items = tuple((k, frozen_key(v)) for k, v in value.items())
        if any(not isinstance(k, str) or v is None for k, v in items):
            return None
        return ("dict", items)
    return None
