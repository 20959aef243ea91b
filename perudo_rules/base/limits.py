"""The limits of perudo-rules: the largest game, file and record it accepts, checked in one place.

Every entry point that takes a size (seats, dice, games, bids) or reads a file checks it
here *before* it allocates anything, so hostile input costs a clear one-line error,
not gigabytes or hours. The numbers are documented in the README and the spec
(``docs/format.rst``); a test keeps them in step with this module.

Largest game
    :data:`MAX_PLAYERS` seats, and at most :data:`MAX_BIDS` bids a round can rank:
    ``dice.faces x players.max x dice.max_per_player`` (so 1000 seats of 16 d6, or 10
    seats of 5000 d2). A bid names at most :data:`MAX_BID_QUANTITY` dice (nine digits,
    as the notation writes it) of a face of a die of at most :data:`MAX_FACES` faces.
    Exact odds (fractions) are computed over at most
    :data:`MAX_EXACT_DICE` unseen dice; bots and the ``play`` screen use floats above, up to
    :data:`MAX_FLOAT_DICE`.
Largest file
    A variant or scenario file: :data:`MAX_FILE_BYTES`, :data:`MAX_NODES` YAML nodes,
    nesting :data:`MAX_DEPTH` deep, an ``extends`` chain of :data:`MAX_EXTENDS` files.
    A position file: :data:`MAX_POSITION_BYTES` and :data:`MAX_STEPS` steps.
Largest record
    :data:`MAX_RECORD_BYTES`, :data:`MAX_RECORD_NODES` JSON values, and
    :data:`MAX_RECORD_BIDS` ranked bids over its rounds (the referee's work).
Largest run
    ``simulate`` plays at most :data:`MAX_GAMES` games a variant with at most
    :data:`MAX_WORKERS` processes on one machine, :data:`MAX_CLUSTER_GAMES` on a Ray
    cluster, and at most :data:`MAX_SWEEP_POINTS` points of a sweep; ``check`` checks at
    most :data:`MAX_STEPS` bids;
    ``compare --max-dice`` searches at most :data:`MAX_WITNESS_DICE` dice a seat.

Only regular files are read (:func:`read_bounded`): a FIFO, a device such as
``/dev/zero`` or a directory is refused without reading, and every read stops one
byte past the limit (``/proc`` files, which report a size of 0, included).
"""

from __future__ import annotations

import errno
import json
import operator
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from perudo_rules.base.i18n import N_, tr
from perudo_rules.base.safetext import shortened

__all__ = [
    "MAX_BIDS",
    "MAX_BID_QUANTITY",
    "MAX_CLUSTER_GAMES",
    "MAX_DEPTH",
    "MAX_EXACT_DICE",
    "MAX_EXTENDS",
    "MAX_FACES",
    "MAX_FILE_BYTES",
    "MAX_FLOAT_DICE",
    "MAX_GAMES",
    "MAX_NODES",
    "MAX_PLAYERS",
    "MAX_POSITION_BYTES",
    "MAX_RECORD_BIDS",
    "MAX_RECORD_BYTES",
    "MAX_RECORD_NODES",
    "MAX_STEPS",
    "MAX_SWEEP_POINTS",
    "MAX_WITNESS_DICE",
    "MAX_WORKERS",
    "action_id",
    "check_count",
    "check_depth",
    "json_problem",
    "os_reason",
    "read_bounded",
    "short_number",
    "whole_number",
]

#: Most seats a variant may allow (``players.max``).
MAX_PLAYERS = 1000
#: Most bids a round may rank: ``dice.faces x players.max x dice.max_per_player``.
MAX_BIDS = 100_000
#: Largest quantity a bid may name (``play.bid_range``), with or without a quantity cap:
#: nine digits, all the notation (``"999999999x6"``, ``ACTION_PATTERN``) writes, so every
#: legal game has a record. Above the dice in play a bid can only lose.
MAX_BID_QUANTITY = 999_999_999
#: Most faces of a die (``dice.faces``), so a bid's face has at most three digits.
MAX_FACES = 100
#: Most unseen dice exact odds (fractions) are computed over.
MAX_EXACT_DICE = 2000
#: Most unseen dice the float odds (``bid_probability_float``) take: far beyond any game,
#: and every intermediate value stays a finite float.
MAX_FLOAT_DICE = 10**18
#: Largest variant or scenario file, in bytes.
MAX_FILE_BYTES = 256 << 10
#: Most YAML nodes (keys, values, items) of a variant or scenario file.
MAX_NODES = 20_000
#: Deepest nesting of a YAML file or of a document given in memory.
MAX_DEPTH = 64
#: Most files in an ``extends`` chain, the file loaded included.
MAX_EXTENDS = 32
#: Largest position file (``check --position``), in bytes.
MAX_POSITION_BYTES = 1 << 20
#: Most steps of a position file, and most bids ``check`` checks at once.
MAX_STEPS = 10_000
#: Largest record file, in bytes.
MAX_RECORD_BYTES = 8 << 20
#: Most JSON values (objects, arrays, scalars) a record may hold.
MAX_RECORD_NODES = 500_000
#: Most ranked bids the rounds of one record may need in total (dice.faces x dice in play,
#: summed over the rounds): each round builds its table of bids, so this bounds the work.
MAX_RECORD_BIDS = 1_000_000
#: Most games ``simulate`` plays of one variant on this machine (the local pool).
MAX_GAMES = 1_000_000
#: Most games ``simulate --ray`` plays of one variant (or of one point of a sweep) on a
#: cluster: the statistics are merged as chunks arrive, so memory does not grow with it.
MAX_CLUSTER_GAMES = 10_000_000_000
#: Most points (combinations of knob values) one ``simulate --sweep`` plays.
MAX_SWEEP_POINTS = 256
#: Most dice a seat holds in the positions the witness search explores.
MAX_WITNESS_DICE = 6
#: Most worker processes ``simulate`` starts.
MAX_WORKERS = 256

#: Builds the caller's error: ``err(message, file=...)``.
ErrorFactory = Callable[..., Exception]


def short_number(value: object) -> str:
    """``value`` for an error line: a huge integer is shortened (``123...789 (5000 digits)``).

    >>> short_number(10**40)
    '100000...000000 (41 digits)'
    """
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**18:
        if value.bit_length() > 13_000:  # str() refuses over 4300 digits
            return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
        digits = str(abs(value))
        sign = "-" if value < 0 else ""
        return f"{sign}{digits[:6]}...{digits[-6:]} ({len(digits)} digits)"
    return repr(value)[:60]


def whole_number(value: object) -> int | None:
    """``value`` as an ``int`` if it is a whole number: an ``int`` or a type Python reads
    as an index (``operator.index``: a NumPy integer, a 0-d NumPy integer array); ``None``
    for anything else, a ``bool`` (NumPy's too) or a float first. The one reading of an
    integer argument (:func:`~perudo_rules.base.seatcheck.check_int` asks it too).

    >>> whole_number(3), whole_number(True), whole_number(3.0)
    (3, None, None)
    """
    if type(value) is int:
        return value
    if isinstance(value, bool) or type(value).__name__ in ("bool_", "bool"):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def action_id(value: object, count: int, *, outcome: bool = False) -> int:
    """``value`` as an id of a space of ``count`` ids (``0 .. count - 1``): an action id,
    or with ``outcome`` a chance outcome. ``TypeError`` unless it is a whole number
    (:func:`whole_number`: a bool or a float is not), ``ValueError`` naming the range for
    one outside it, however many digits it has (:func:`short_number`): what the
    reinforcement-learning adapters (PettingZoo, Gymnasium, OpenSpiel) check an id with.

    >>> action_id(10**5000, 5)
    Traceback (most recent call last):
    ...
    ValueError: no action id a number of about 5001 digits (ids run 0..4)
    """
    aid = whole_number(value)
    if aid is not None and 0 <= aid < count:
        return aid
    shown = shortened(repr(value), 60) if aid is None else short_number(aid)
    if aid is None and outcome:
        raise TypeError(tr("a chance outcome must be an integer, not {value}", value=shown))
    if aid is None:
        raise TypeError(tr("an action id must be an integer, not {value}", value=shown))
    last = count - 1
    if outcome:
        raise ValueError(tr("no chance outcome {value} (outcomes run 0..{last})",
                            value=shown, last=last))  # fmt: skip
    raise ValueError(tr("no action id {value} (ids run 0..{last})", value=shown, last=last))


def check_count(name: str, value: Any, low: int, high: int) -> int:
    """``value`` if it is an integer from ``low`` to ``high``, else ``ValueError`` naming ``name``.

    >>> check_count("--players", 4, 2, 6)
    4
    >>> check_count("--players", 10**8, 2, 6)
    Traceback (most recent call last):
    ...
    ValueError: --players must be 2 to 6, not 100000000
    """
    if type(value) is not int:
        raise ValueError(
            tr("{name} must be a whole number, not {value}", name=name, value=short_number(value))
        )
    if not low <= value <= high:
        raise ValueError(
            tr(
                "{name} must be {low} to {high}, not {value}",
                name=name,
                low=low,
                high=high,
                value=short_number(value),
            )
        )
    return value


def check_depth(data: Any, err: ErrorFactory, limit: int = MAX_DEPTH, **where: Any) -> None:
    """Raise ``err(message, **where)`` if ``data`` (dicts and lists) nests deeper than ``limit``.

    Iterative, so a document nested a million levels deep costs no recursion.
    """
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            raise err(tr("nesting deeper than {limit} levels", limit=limit), **where)
        if isinstance(node, dict):
            stack.extend((v, depth + 1) for v in node.values())
        elif isinstance(node, list | tuple):
            stack.extend((v, depth + 1) for v in node)


#: The reasons the system gives for an error, in words of the catalogues (by ``errno``).
_OS_REASONS = {
    errno.ENOENT: N_("no such file"),
    errno.ENOTDIR: N_("a part of the path is not a folder"),
    errno.EISDIR: N_("it is a directory"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("operation not permitted"),
    errno.ENAMETOOLONG: N_("file name too long"),
    errno.ELOOP: N_("too many levels of symbolic links"),
    errno.ENOSPC: N_("no space left on the device"),
    errno.EROFS: N_("the file system is read-only"),
    errno.EEXIST: N_("the file exists already"),
    errno.EIO: N_("input/output error"),
    errno.ENXIO: N_("no such device"),
    errno.EMFILE: N_("too many open files"),
    errno.ETXTBSY: N_("the file is busy"),
    errno.EINVAL: N_("invalid argument"),
}


def json_problem(exc: Exception) -> str:
    """Why a text is not JSON, in the language of the context: where the parser stopped
    (a :class:`json.JSONDecodeError`), that it nests too deep (a ``RecursionError``), or
    that a number has more digits than Python converts (any other ``ValueError``)."""
    if isinstance(exc, json.JSONDecodeError):
        return tr("invalid JSON (line {line}, column {column})", line=exc.lineno, column=exc.colno)
    if isinstance(exc, RecursionError):
        return tr("invalid JSON: nesting too deep")
    return tr("invalid JSON: a number with too many digits")


def os_reason(exc: OSError) -> str:
    """Why the system refused: a sentence of the catalogues for its ``errno``, in the
    language of the context (an unknown ``errno`` by its symbolic name, ``EXDEV``)."""
    reason = _OS_REASONS.get(exc.errno or 0)
    if reason is not None:
        return tr(reason)
    name = errno.errorcode.get(exc.errno or 0, type(exc).__name__)
    return tr("the system refuses it ({name})", name=name)


def read_bounded(
    path: str | os.PathLike[str], limit: int, err: ErrorFactory, missing: str | None = None
) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    Raises ``err(message, file=name)`` for a name that cannot be a file (a NUL byte, too
    long, a symbolic-link loop), a file that is missing (``missing`` is the message) or
    unreadable, anything but a regular file (a directory, a FIFO, a device such as
    ``/dev/zero``) and a file over ``limit`` bytes. The file is opened without blocking
    (a FIFO is refused, not waited for) and read no further than ``limit + 1`` bytes,
    whatever its reported size. The messages are in the language of the context
    (``missing`` too, which the caller translates; default: "no such file").
    """
    missing = tr("no such file") if missing is None else missing
    name = os.fsdecode(path) if isinstance(path, bytes) else str(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(Path(name), flags | getattr(os, "O_CLOEXEC", 0))
    except ValueError:  # an embedded NUL byte
        raise err(tr("not a file name (it contains a NUL byte)"), file=name) from None
    except (FileNotFoundError, NotADirectoryError):
        raise err(missing, file=name) from None
    except OSError as exc:
        raise err(tr("cannot read file: {reason}", reason=os_reason(exc)), file=name) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise err(tr("{missing} (it is a directory)", missing=missing), file=name)
        if not stat.S_ISREG(info.st_mode):
            raise err(tr("not a regular file (a device, pipe or socket)"), file=name)
        if info.st_size > limit:
            raise err(
                tr("file too large ({size} bytes, limit {limit})", size=info.st_size, limit=limit),
                file=name,
            )
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise err(tr("cannot read file: {reason}", reason=os_reason(exc)), file=name) from None
    finally:
        os.close(fd)
    if size > limit:
        raise err(tr("file too large (limit {limit} bytes)", limit=limit), file=name)
    return b"".join(chunks)
