"""Variant files: loading, validating and merging edition files.

A variant file is YAML: top-level ``id``, ``name``, ``description``,
optional ``extends``, ``rulebook`` and ``core`` (where the rulebook states a fixed rule:
rule id to ``{source, quote?}``), and one mapping per section of knobs
(see :mod:`perudo_rules.editions.knobs`). A knob is a bare value or a documented mapping
``{value, text, source, quote?, interpretation?}``. A file with ``extends``
overrides whole knobs (and whole ``core`` entries) of its base; a file without it must
set every knob. A file loads as a :class:`~perudo_rules.editions.variant.Variant`
(:func:`load_variant`).

Loading checks, in order: safe YAML (no duplicate keys, anchors or object
tags), the JSON Schema, the ``extends`` chain (no cycles), completeness and
cross-knob consistency. Every failure is a :class:`VariantError` that names
the file, the key path and the line. A file is read at every call, but parsed and
checked again only when its bytes changed (:mod:`perudo_rules.base.memo`); each call
returns a variant of its own.

Files named inside files follow one policy, :func:`named_variant_file`: ``extends``
in a variant file, the ``variant`` of a position file (``check --position``), the
variants of a scenario file and the ``extends`` of a game record's embedded variant.
A reference is a bundled id, or a *relative* path to a ``.yaml`` / ``.yml`` file read
from the naming file's folder; symbolic links are resolved first, and the file reached
must lie in that folder or below it (``..`` only while it stays inside), be a regular
file (no device, FIFO or ``/proc`` file) with a ``.yaml`` / ``.yml`` name, within the
limits of :mod:`perudo_rules.base.limits`. A document that is not a file (a record's
embedded variant) may name only a bundled id. So a file shared with you can point only
at YAML files next to it, never probe the file system. The chain holds at most
:data:`~perudo_rules.base.limits.MAX_EXTENDS` files and is followed in a loop, not by
recursion.
"""

from __future__ import annotations

import copy
import errno
import functools
import os
import stat
from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any

import jsonschema

from perudo_rules.base.errors import VariantError
from perudo_rules.base.i18n import N_, ntr, tr
from perudo_rules.base.limits import MAX_EXTENDS, MAX_FILE_BYTES, check_depth, os_reason
from perudo_rules.base.memo import Memo, content_digest, frozen_key
from perudo_rules.base.schematext import schema_problem
from perudo_rules.base.yamlfile import YamlDoc, parse_yaml_bytes, read_yaml_bytes
from perudo_rules.editions.crossknob import knob_conflicts
from perudo_rules.editions.datafiles import data_dir as data_dir  # its callers' old home
from perudo_rules.editions.knobs import KNOB_PATHS, SECTIONS
from perudo_rules.editions.schema import variant_schema
from perudo_rules.editions.variant import Interpretation, Knob, RuleSource, Variant

__all__ = [
    "available_variants",
    "extends_chain",
    "load_variant",
    "named_variant_file",
    "resolve_extends",
    "variant_from_document",
    "variant_path",
    "variant_problems",
]

_META_KEYS = ("id", "name", "description", "extends", "rulebook")


def available_variants() -> list[str]:
    """Sorted ids of the bundled variants."""
    return sorted(p.stem for p in data_dir("variants").glob("*.yaml"))


def variant_path(variant_id: str) -> Path:
    """The file of a bundled variant; :class:`VariantError` if there is none."""
    known = available_variants()
    if variant_id not in known:  # never a file name built from input: any text is safe here
        shown = variant_id if len(variant_id) <= 60 else variant_id[:57] + "..."
        raise VariantError(
            tr("unknown variant {id} (bundled: {known})", id=repr(shown), known=", ".join(known))
        )
    return data_dir("variants") / f"{variant_id}.yaml"


# --- loading -----------------------------------------------------------------------------


@functools.cache
def _validator() -> jsonschema.protocols.Validator:
    return strict_validator(variant_schema())


def _is_integer(checker: Any, instance: Any) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


def strict_validator(schema: Mapping[str, Any]) -> jsonschema.protocols.Validator:
    """A validator for ``schema`` whose ``integer`` type refuses floats such as ``5.0``
    (JSON Schema accepts them; the engine counts dice with true integers)."""
    cls = jsonschema.validators.validator_for(schema)
    checker = cls.TYPE_CHECKER.redefine("integer", _is_integer)
    strict = jsonschema.validators.extend(cls, type_checker=checker)  # type: ignore[no-untyped-call]
    validator: jsonschema.protocols.Validator = strict(schema)
    return validator


def _schema_problems(doc: YamlDoc) -> list[VariantError]:
    """Every JSON Schema violation of ``doc``, one located error each, in line order
    (one per unknown key and per missing key)."""
    located: list[tuple[int, str, str]] = []
    for e in _validator().iter_errors(doc.data):
        path: list[str | int] = list(e.absolute_path)
        found = [(path, schema_problem(e))]
        schema = e.schema if isinstance(e.schema, dict) else {}
        if e.validator == "additionalProperties" and isinstance(e.instance, dict):
            allowed = schema.get("properties", {})
            known = ", ".join(sorted(allowed)) or "none"
            extra = [k for k in e.instance if k not in allowed]
            if extra:
                here = N_("unknown key {key} (allowed here: {keys})")
                found = [([*path, str(k)], tr(here, key=repr(k), keys=known)) for k in extra]
        elif e.validator == "required" and isinstance(e.validator_value, list):
            instance = e.instance if isinstance(e.instance, dict) else {}
            missing = [k for k in e.validator_value if k not in instance]
            if missing:
                found = [(path, tr("missing required key {key}", key=repr(k))) for k in missing]
        for where, message in found:
            line = doc.line(where)
            located.append((line or 0, ".".join(str(p) for p in where), message))
    return [
        VariantError(message, file=doc.file, key_path=key_path, line=line or None)
        for line, key_path, message in sorted(dict.fromkeys(located))
    ]


def _schema_errors(doc: YamlDoc) -> None:
    problems = _schema_problems(doc)
    if not problems:
        return
    first = problems[0]
    message = first.message
    if len(problems) > 1:
        more = len(problems) - 1
        message += " " + ntr("(and {n} more problem)", "(and {n} more problems)", more)
    raise VariantError(message, file=first.file, key_path=first.key_path, line=first.line)


def variant_problems(ref: str | Path) -> list[VariantError]:
    """Every problem of a variant file (or bundled id), in line order; ``[]`` if it loads.

    One pass: every JSON Schema violation of the file itself, one error each; then the
    file without the keys those name is followed through its ``extends`` chain (the
    problem that stops the chain is listed) and every broken rule between knobs is
    listed. Broken YAML is the one problem of its file.
    """
    try:
        path = resolve_extends(str(ref))
        doc, _ = _parsed(path)
    except VariantError as exc:
        return [exc]
    if not isinstance(doc.data, dict):
        return [VariantError("a variant file must be a YAML mapping", file=str(path), line=1)]
    problems = _schema_problems(doc)
    if problems:  # go on without the keys named (a missing key has nothing to drop)
        data = copy.deepcopy(doc.data)
        for problem in problems:
            *parents, last = (problem.key_path or "").split(".")
            holder: Any = data
            for part in parents:
                holder = holder.get(part) if isinstance(holder, dict) else None
            if isinstance(holder, dict) and last in holder and problem.key_path:
                del holder[last]
        doc = YamlDoc(data, doc.root, doc.file)
        if _schema_problems(doc):
            return problems
    try:
        chain = _chain(doc, path)
        knobs, _ = _merge(chain)
        problems += _consistency_problems(knobs, str(path), [d.file for d, _ in chain])
    except VariantError as exc:
        problems.append(exc)
    return sorted(problems, key=lambda e: (e.file != str(path), e.line or 0))


def _knobs_of(doc: YamlDoc) -> dict[str, Knob]:
    data: Mapping[str, Any] = doc.data
    out: dict[str, Knob] = {}
    for section in SECTIONS:
        for name, raw in (data.get(section) or {}).items():
            path = f"{section}.{name}"
            line = doc.line([section, name])
            if isinstance(raw, dict):
                interp = raw.get("interpretation")
                out[path] = Knob(
                    path=path,
                    value=raw["value"],
                    text=raw["text"],
                    source=raw["source"],
                    quote=raw.get("quote"),
                    interpretation=Interpretation.from_doc(interp) if interp else None,
                    file=doc.file,
                    line=line,
                )
            else:
                out[path] = Knob(path=path, value=raw, file=doc.file, line=line)
    return out


def _core_of(doc: YamlDoc) -> dict[str, RuleSource]:
    """The ``core`` entries of ``doc``: where its rulebook states a fixed rule."""
    entries: Mapping[str, Any] = doc.data.get("core") or {}
    return {
        rule: RuleSource(
            source=raw["source"],
            quote=raw.get("quote"),
            file=doc.file,
            line=doc.line(["core", rule]),
        )
        for rule, raw in entries.items()
    }


#: A file's memo key: its path and the digest of its bytes.
_Key = tuple[str, str]
#: Variant files by memo key: the parsed document (shared: nothing changes it), whether it
#: passed the schema, and its size in bytes (the memo keeps at most 4 MiB of files).
_DOCS: Memo[_Key, tuple[YamlDoc, bool, int]] = Memo(256, budget=4 << 20)
#: In-memory documents (:func:`variant_from_document`) that passed the schema, by content.
_VALID_DOCUMENTS: Memo[Hashable, bool] = Memo(64)
_SCALARS = (str, int, float, bool, type(None))


def _parsed(path: Path) -> tuple[YamlDoc, _Key]:
    """A variant file read and parsed (once per content), and its memo key."""
    raw = read_yaml_bytes(path, VariantError, tr("no such variant file"))
    key = (str(path), content_digest(raw))
    hit = _DOCS.get(key)
    if hit is not None:
        return hit[0], key
    doc = parse_yaml_bytes(raw, str(path), VariantError)
    _DOCS.put(key, (doc, False, len(raw)), weight=len(raw))
    return doc, key


def _read_file(path: Path) -> YamlDoc:
    """A variant file read and checked against the schema (once per content)."""
    doc, key = _parsed(path)
    hit = _DOCS.get(key)
    if hit is not None and hit[1]:
        return doc
    if not isinstance(doc.data, dict):
        raise VariantError("a variant file must be a YAML mapping", file=str(path), line=1)
    _schema_errors(doc)
    if hit is not None:
        _DOCS.put(key, (doc, True, hit[2]), weight=hit[2])
    return doc


def _plain(knob: Knob) -> bool:
    """Whether every value ``knob`` holds is a scalar (so the knob cannot be changed)."""
    reading = knob.interpretation
    override = () if reading is None or reading.override is None else reading.override
    return isinstance(knob.value, _SCALARS) and all(isinstance(v, _SCALARS) for _, v in override)


def _own(knobs: tuple[Knob, ...]) -> tuple[Knob, ...]:
    """``knobs`` as a caller may keep them: themselves when they hold only scalars, else
    a deep copy (a list in an interpretation's override)."""
    return knobs if all(_plain(k) for k in knobs) else copy.deepcopy(knobs)


def _rulebook(meta: Mapping[str, Any]) -> dict[str, Any] | None:
    """The ``rulebook`` of ``meta``, a copy of its own (its values are strings)."""
    rulebook = meta.get("rulebook")
    return None if rulebook is None else dict(rulebook)


def _chain(doc: YamlDoc, path: Path | None) -> list[tuple[YamlDoc, Path | None]]:
    """``doc`` (read from ``path``) and every document it extends, the most derived first.

    A loop, not recursion: the chain is bounded by :data:`MAX_EXTENDS`, and a file met
    twice is a cycle.
    """
    chain: list[tuple[YamlDoc, Path | None]] = [(doc, path)]
    seen: list[Path] = [path] if path is not None else []
    while "extends" in doc.data:
        at = doc

        def fail(message: str, at: YamlDoc = at) -> VariantError:
            return VariantError(
                message, file=at.file, key_path="extends", line=at.line(["extends"])
            )

        if len(chain) >= MAX_EXTENDS:
            raise fail(f"'extends' chain longer than {MAX_EXTENDS} files")
        try:
            base = named_variant_file(doc.data["extends"], path)
        except VariantError as exc:
            raise fail(exc.message) from None
        if base in seen:
            raise fail("'extends' cycle: " + " -> ".join(p.name for p in (*seen, base)))
        seen.append(base)
        doc, path = _read_file(base), base
        chain.append((doc, path))
    return chain


def _merge(chain: list[tuple[YamlDoc, Path | None]]) -> tuple[dict[str, Knob], dict[str, Any]]:
    """The knobs and metadata of a chain from :func:`_chain`: each file over its base (a
    ``core`` entry, in ``meta["core"]``, over the base's entry for the same rule)."""
    knobs: dict[str, Knob] = {}
    meta: dict[str, Any] = {"core": {}}
    for doc, path in reversed(chain):
        data: dict[str, Any] = doc.data
        meta.pop("id", None)  # an id names its own file only
        knobs.update(_knobs_of(doc))
        meta["core"].update(_core_of(doc))
        for key in _META_KEYS:
            if key in data:
                meta[key] = data[key]
        if "id" not in data and path is not None:
            meta["id"] = path.stem
    return knobs, meta


def _check_consistency(
    knobs: Mapping[str, Knob], file: str | None, files: Sequence[str | None] = ()
) -> None:
    """Raise the first of :func:`_consistency_problems`, saying how many more there are."""
    problems = _consistency_problems(knobs, file, files)
    if problems:
        first = problems[0]
        more = f" (and {len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
        raise VariantError(
            first.message + more, file=first.file, key_path=first.key_path, line=first.line
        )


def _consistency_problems(
    knobs: Mapping[str, Knob], file: str | None, files: Sequence[str | None] = ()
) -> list[VariantError]:
    """Completeness and every rule between knobs that is broken. ``files`` lists the files
    of the chain, the most derived first: a conflict between two knobs is reported where
    the later of them was set (the house-rules file that changed one, not the base)."""
    missing = [p for p in KNOB_PATHS if p not in knobs]
    if missing:
        return [
            VariantError(
                tr("incomplete variant: no value for {paths}", paths=", ".join(missing)),
                file=file,
                key_path=missing[0],
            )
        ]
    problems: list[VariantError] = []
    rank = {f: i for i, f in reversed(list(enumerate(files)))}

    def fail(message: str, *paths: str) -> None:
        knob = min((knobs[p] for p in paths), key=lambda k: rank.get(k.file, len(rank)))
        problems.append(
            VariantError(message, file=knob.file, key_path=knob.path, line=knob.line)
        )

    v = {p: k.value for p, k in knobs.items()}
    for message, paths in knob_conflicts(v):
        fail(message, *paths)
    return problems


def _normalise_overrides(overrides: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in overrides.items():
        if "." in key and key.split(".", 1)[0] in SECTIONS:
            section, name = key.split(".", 1)
            out.setdefault(section, {})[name] = value
        elif key in SECTIONS and isinstance(value, Mapping):
            out.setdefault(key, {}).update(value)
        else:
            out[key] = value
    return out


def load_variant(ref: str | Path, overrides: Mapping[str, Any] | None = None) -> Variant:
    """Load a variant by bundled id (``"italian"``) or by path to a ``.yaml`` file.

    ``overrides`` applies like a house-rules file extending the variant: a
    mapping of sections (``{"dice": {"per_player": 1}}``) or of knob paths
    (``{"dice.per_player": 1}``). Raises :class:`VariantError` on any problem.
    """
    ref_str = str(ref)
    path = resolve_extends(ref_str)
    chain = _chain(_read_file(path), path)
    knobs, meta = _merge(chain)
    files = [doc.file for doc, _ in chain]
    if overrides:
        check_depth(overrides, VariantError, file="<overrides>")
        data = _normalise_overrides(overrides)
        data["extends"] = str(path)
        doc = YamlDoc(data, None, "<overrides>")
        _schema_errors(doc)
        knobs.update(_knobs_of(doc))
        meta["core"].update(_core_of(doc))
        for key in ("name", "description"):
            if key in data:
                meta[key] = data[key]
        files.insert(0, doc.file)
    _check_consistency(knobs, str(path), files)
    return Variant(
        id=meta.get("id", path.stem),
        name=meta.get("name", meta.get("id", path.stem)),
        description=meta.get("description", ""),
        knobs=_own(tuple(knobs[p] for p in KNOB_PATHS)),
        file=str(path),
        extends=meta.get("extends"),
        rulebook=_rulebook(meta),
        ref=ref_str,
        overrides=dict(overrides) if overrides else None,
        core=meta["core"],
    )


def variant_from_document(data: Mapping[str, Any], file: str = "<variant>") -> Variant:
    """A variant from an in-memory document, as a variant file would state it.

    ``data`` is the parsed mapping (for example the variant embedded in a game
    record); it is checked like a file: nesting depth, schema, ``extends`` chain (a
    bundled id only: a document that is not a file has no folder to name files in,
    see :func:`named_variant_file`), completeness and consistency. ``file`` names it in
    errors. Raises :class:`VariantError`, whose ``key_path`` is relative to ``data``.
    """
    if not isinstance(data, Mapping):
        raise VariantError("a variant document must be a mapping", file=file)
    check_depth(dict(data), VariantError, file=file)
    doc = YamlDoc(dict(data), None, file)
    key = frozen_key(doc.data)  # the schema's verdict depends on the content alone
    if key is None or _VALID_DOCUMENTS.get(key) is None:
        _schema_errors(doc)
        if key is not None:
            _VALID_DOCUMENTS.put(key, True)
    chain = _chain(doc, None)
    knobs, meta = _merge(chain)
    _check_consistency(knobs, file, [d.file for d, _ in chain])
    name = meta.get("id", "house-rules")
    return Variant(
        id=str(name),
        name=str(meta.get("name", name)),
        description=str(meta.get("description", "")),
        knobs=_own(tuple(knobs[p] for p in KNOB_PATHS)),
        extends=meta.get("extends"),
        rulebook=_rulebook(meta),
        core=meta["core"],
    )


# --- files named in files ----------------------------------------------------------------


def _is_path(ref: str) -> bool:
    return "/" in ref or ref.endswith((".yaml", ".yml"))


def _shown(ref: str) -> str:
    """``ref`` for an error line: quoted, and cut short in the middle when long."""
    return repr(ref if len(ref) <= 60 else ref[:28] + "..." + ref[-28:])


def _resolved(path: Path, ref: str) -> Path:
    """``path`` with every symbolic link resolved; :class:`VariantError` if it cannot be."""
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError) as exc:
        if isinstance(exc, RuntimeError) or getattr(exc, "errno", None) == errno.ELOOP:
            why = "a symbolic-link loop"
        elif isinstance(exc, ValueError):
            why = "not a file name (it contains a NUL byte)"
        elif exc.errno == errno.ENAMETOOLONG:
            why = "file name too long"
        else:
            why = f"cannot resolve the path ({exc.strerror or exc})"
        raise VariantError(f"{why}: {_shown(ref)}") from None


def named_variant_file(ref: object, naming_file: str | Path | None) -> Path:
    """The variant file that a reference written *inside a file* names: the one policy
    for every file a file names (``extends``, a position's ``variant``, a scenario's
    variants, a record's embedded variant).

    ``ref`` is a bundled id (its bundled file is returned) or a relative path to a
    ``.yaml`` / ``.yml`` file, read from the folder of ``naming_file``. Symbolic links
    are resolved *first*; then the file reached must lie in the naming file's (resolved)
    folder or below it, so ``..`` is accepted only while it stays inside, be a regular
    file (no directory, FIFO, device or ``/proc`` file) whose name ends ``.yaml`` /
    ``.yml``, and hold at most :data:`~perudo_rules.base.limits.MAX_FILE_BYTES`. With
    ``naming_file`` ``None`` (a document that is not a file, such as a record's embedded
    variant) only a bundled id is accepted. Anything else is a :class:`VariantError`
    whose message says what is wrong; the caller locates it (file, key path, line).
    """
    if not isinstance(ref, str) or not ref:
        raise VariantError(f"not a variant reference: {str(ref)[:60]!r}")
    if not _is_path(ref):
        return variant_path(ref).resolve()
    if naming_file is None:
        raise VariantError(
            f"a variant that is not a file may name only a bundled id, not {_shown(ref)}"
        )
    if Path(ref).is_absolute():
        raise VariantError(
            f"takes a bundled id or a relative path, not the absolute path {_shown(ref)}"
        )
    if not ref.endswith((".yaml", ".yml")):
        raise VariantError(f"names a .yaml or .yml file, not {_shown(ref)}")
    folder = _resolved(Path(naming_file), str(naming_file)).parent
    target = _resolved(folder / ref, ref)
    if not target.is_relative_to(folder):
        raise VariantError(
            f"{_shown(ref)} leads outside the folder of the file (to {target}): only "
            "files in the same folder or below may be named"
        )
    if not target.name.endswith((".yaml", ".yml")):
        raise VariantError(f"{_shown(ref)} leads to {target}, not a .yaml or .yml file")
    try:
        info = os.stat(target)
    except (FileNotFoundError, NotADirectoryError):
        raise VariantError(tr("no such variant file: {file}", file=_shown(ref))) from None
    except OSError as exc:
        reason = os_reason(exc)
        why = tr("cannot read {file}: {reason}", file=_shown(ref), reason=reason)
        raise VariantError(why) from None
    if stat.S_ISDIR(info.st_mode):
        raise VariantError(tr("{file} is a directory, not a variant file", file=_shown(ref)))
    if not stat.S_ISREG(info.st_mode):
        raise VariantError(f"{_shown(ref)} is not a regular file (a device, pipe or socket)")
    if info.st_size > MAX_FILE_BYTES:
        raise VariantError(
            f"{_shown(ref)} is too large ({info.st_size} bytes, limit {MAX_FILE_BYTES})"
        )
    return target


def resolve_extends(ref: str, relative_to: Path | None = None) -> Path:
    """The file a variant reference names: what ``extends: REF`` in the file
    ``relative_to`` reads (:func:`named_variant_file`, the policy for files named in
    files), or with no ``relative_to`` what ``load_variant(REF)`` reads.

    A reference with a ``/`` or a ``.yaml``/``.yml`` ending is a path; anything else is
    a bundled id (:class:`VariantError` if there is no such edition). ``load_variant``
    takes any path its caller gives. A name that cannot be a file (a NUL byte, too
    long, a symbolic-link loop) is a :class:`VariantError` too.
    """
    if relative_to is not None:
        return named_variant_file(ref, relative_to)
    if not isinstance(ref, str) or not ref:
        raise VariantError(f"not a variant reference: {str(ref)[:60]!r}")
    if not _is_path(ref):
        return variant_path(ref).resolve()
    return _resolved(Path(ref), ref)


def extends_chain(path: str | Path) -> list[Path]:
    """The variant file ``path`` and every file it ``extends``, in order, as far as they
    can be read (a broken or missing file, or a cycle, ends the chain; loading the
    variant reports it). For tools that watch files, such as the docs build."""
    out: list[Path] = []
    try:
        current: Path | None = resolve_extends(str(path))
    except VariantError:
        return out
    while current is not None and current not in out and len(out) < MAX_EXTENDS:
        try:
            data = _parsed(current)[0].data
            out.append(current)
            ref = data.get("extends") if isinstance(data, dict) else None
            current = resolve_extends(ref, current) if isinstance(ref, str) else None
        except VariantError:
            break
    return out
