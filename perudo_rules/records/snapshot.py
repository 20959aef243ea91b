"""Snapshots: a game server's own copy of a game, restored without replaying it.

:meth:`Game.from_json <perudo_rules.engine.game.Game.from_json>` trusts nothing: it replays
the whole record through the engine, which is right for a document from elsewhere and costs
time linear in the game's length. A server that stored the game itself needs none of that
checking, only its game back, fast. :func:`snapshot` writes a game as bytes sealed with the
server's secret ``key`` (HMAC-SHA256); :func:`restore` checks the seal and rebuilds the game
as it was (its history, its round in play), without replaying a step: well under a
millisecond at the end of a six-seat game (``make bench``, benchmark P).

A snapshot is for the server's own storage (a cache, a database row, a session store; not
for a client to hold): it is bound to the package's version, and another version's snapshot
is refused (:class:`SnapshotError`), as is any byte changed or a snapshot sealed with
another key. Bundled editions are written by their id and read back from this copy of the
package; a house-rules variant travels whole inside the snapshot. For a document that
outlives a deployment, or comes from outside, use :meth:`Game.to_json
<perudo_rules.engine.game.Game.to_json>` and ``from_json``.

>>> from perudo_rules import Game, load_variant
>>> game = Game.new(load_variant("italian"), 3, seed=1)
>>> blob = snapshot(game, key=b"a secret of the server, 16+ bytes")
>>> restore(blob, key=b"a secret of the server, 16+ bytes") == game
True
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import io
import pickle
from typing import Any

from perudo_rules.base.errors import PerudoError
from perudo_rules.base.version import __version__
from perudo_rules.editions.variant import Variant
from perudo_rules.editions.variantfile import available_variants, load_variant
from perudo_rules.engine.game import Game

__all__ = ["SnapshotError", "restore", "snapshot"]

_MAGIC = b"perudo-rules-snapshot\n"
_DIGEST = hashlib.sha256().digest_size
#: The shortest key accepted: 128 bits.
_MIN_KEY = 16
#: Modules whose classes a snapshot may hold (after its seal is checked, as a second fence).
_ALLOWED = ("perudo_rules.", "builtins", "copyreg", "collections")


class SnapshotError(PerudoError):
    """A snapshot that cannot be restored: not a snapshot, written by another version of
    perudo-rules, sealed with another key, or changed since it was written."""


@functools.cache
def _editions() -> frozenset[str]:
    return frozenset(available_variants())


@functools.cache
def _bundled(edition: str) -> Variant:
    return load_variant(edition)


class _Pickler(pickle.Pickler):
    def persistent_id(self, obj: Any) -> Any:
        if type(obj) is Variant and obj.id in _editions() and obj == _bundled(obj.id):
            return ("edition", obj.id)  # by name: this copy of the package has it
        return None


class _Unpickler(pickle.Unpickler):
    def persistent_load(self, pid: Any) -> Any:
        if type(pid) is tuple and len(pid) == 2 and pid[0] == "edition":
            return _bundled(str(pid[1]))
        raise SnapshotError("a snapshot names an unknown kind of object")

    def find_class(self, module: str, name: str) -> Any:
        if not module.startswith(_ALLOWED):
            raise SnapshotError(f"a snapshot may not hold {module}.{name}")
        return super().find_class(module, name)


def _key(key: object) -> bytes:
    if not isinstance(key, bytes):
        raise TypeError(f"key must be bytes, not {type(key).__name__}")
    if len(key) < _MIN_KEY:
        raise ValueError(f"key must be at least {_MIN_KEY} bytes (a secret of the server)")
    return key


def _head() -> bytes:
    return _MAGIC + __version__.encode() + b"\n"


def snapshot(game: Game, key: bytes) -> bytes:
    """``game`` as bytes sealed with ``key`` (at least 16 bytes, the server's secret), for
    :func:`restore` by this version of perudo-rules."""
    if not isinstance(game, Game):
        raise TypeError(f"snapshot takes a Game, not {type(game).__name__}")
    buf = io.BytesIO()
    _Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL).dump(game)
    body = _head() + buf.getvalue()
    return body + hmac.new(_key(key), body, hashlib.sha256).digest()


def restore(data: bytes, key: bytes) -> Game:
    """The game :func:`snapshot` sealed in ``data`` with ``key``, as it was; raises
    :class:`SnapshotError` for anything else (another version's snapshot, another key, a
    changed byte)."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise TypeError(f"restore takes bytes, not {type(data).__name__}")
    raw = bytes(data)
    secret = _key(key)
    if not raw.startswith(_MAGIC) or len(raw) < len(_MAGIC) + _DIGEST:
        raise SnapshotError("not a perudo-rules snapshot")
    head = _head()
    if not raw.startswith(head):
        line = raw[len(_MAGIC) :].split(b"\n", 1)[0][:40].decode("ascii", "replace")
        raise SnapshotError(
            f"a snapshot of perudo-rules {line}, not {__version__}: restore games across "
            "versions with Game.to_json and Game.from_json"
        )
    body, seal = raw[:-_DIGEST], raw[-_DIGEST:]
    if not hmac.compare_digest(seal, hmac.new(secret, body, hashlib.sha256).digest()):
        raise SnapshotError("the snapshot's seal does not match: another key, or changed")
    try:
        game = _Unpickler(io.BytesIO(body[len(head) :])).load()
    except SnapshotError:
        raise
    except Exception as exc:  # sealed by us, yet unreadable: say so in one line
        why = type(exc).__name__
        raise SnapshotError(f"a sealed snapshot that cannot be read: {why}") from None
    if not isinstance(game, Game):
        raise SnapshotError("a sealed snapshot that holds no game")
    return game
