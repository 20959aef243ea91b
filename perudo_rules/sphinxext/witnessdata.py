"""The witnesses the spec shows, computed ahead into ``docs/_data/witnesses.json``.

The spec shows about ninety divergence witnesses (the pairs of ``.. perudo-witnesses::``
and, with ``.. perudo-interpretations:: :witnesses:``, each interpretation's alternative
reading against its variant), and it is built in three languages. A
:class:`~perudo_rules.analysis.witnessvalue.Witness` says no sentence until it is shown (its
texts are data, :mod:`perudo_rules.base.texts`), so one search serves every language: this
module computes them once into a checked-in JSON file, which the directives read
(``perudo_witness_data`` in ``conf.py``) instead of searching at every build.

Regenerate the file after changing a variant file, the knob table, the engine or the
witness search (``tests/test_witness_data.py`` fails while it is stale)::

    make spec-data                                   # the same as:
    python -m perudo_rules.sphinxext.witnessdata     # rewrite docs/_data/witnesses.json
    python -m perudo_rules.sphinxext.witnessdata --check   # exit 1 if it is stale

Options: ``--docs DIR`` (the spec's sources, default ``docs``), ``--variants DIR`` (the
variant files the directives load, default the bundled ones), ``--output FILE`` (default
``DIR/_data/witnesses.json``).

Each entry is keyed by a :func:`witness_key` of both variants (their ids and every knob
value) and the search limits, so a changed variant file is never served a stale witness:
its entry is missing, and the directive searches live, with a build warning saying to
run the command above. The file is deterministic (same sources, same bytes).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import hashlib
import json
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from perudo_rules.analysis.witness import find_witnesses
from perudo_rules.analysis.witnesssearch import SearchLimits
from perudo_rules.analysis.witnessvalue import Witness
from perudo_rules.base.errors import VariantError
from perudo_rules.editions.knobs import KNOBS
from perudo_rules.editions.variant import Knob, Variant
from perudo_rules.editions.variantfile import data_dir, load_variant

__all__ = [
    "COMMAND",
    "FORMAT",
    "SPEC_LIMITS",
    "Question",
    "alternative_variant",
    "compute",
    "dumps",
    "lookup",
    "main",
    "spec_questions",
    "stale_entries",
    "witness_key",
]

#: The version of the file's shape (a part of every witness_key).
FORMAT = 1
#: The search limits of the spec's witnesses (``find_witnesses``' defaults).
SPEC_LIMITS = SearchLimits(max_dice=3)
#: What refreshes the file, as build warnings and the freshness test say it.
COMMAND = "make spec-data (python -m perudo_rules.sphinxext.witnessdata)"


def witness_key(a: Variant, b: Variant, limits: SearchLimits = SPEC_LIMITS) -> str:
    """The key of the witnesses of ``a`` against ``b``: a hash of the file's
    :data:`FORMAT`, both variants' ids and knob values, and the search ``limits``."""
    data = {
        "format": FORMAT,
        "variants": [[v.id, v.values()] for v in (a, b)],
        "limits": dataclasses.asdict(limits),
    }
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


def alternative_variant(variant: Variant, knob: Knob) -> Variant | None:
    """``variant`` with the override that plays ``knob``'s alternative reading, under the id
    ``alternative`` (``None`` when the interpretation names no override)."""
    interp = knob.interpretation
    if interp is None or not interp.override or variant.file is None:
        return None
    alt = load_variant(variant.file, overrides=interp.overrides)
    return dataclasses.replace(alt, id="alternative", name=f"{variant.name}, other reading")


# --- what the spec shows ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Question:
    """Two variants whose witnesses the spec shows, and what the page calls them
    (``label``: ``"italian vs spanish"``, ``"italian: calza.who, other reading"``)."""

    label: str
    a: Variant
    b: Variant


_WITNESSES = re.compile(r"^\.\. perudo-witnesses::[ \t]+(\S+)[ \t]+(\S+)[ \t]*$", re.M)
_INTERPRETATIONS = re.compile(r"^\.\. perudo-interpretations::(.*)\n((?:[ \t]+:.*\n?)*)", re.M)


def _variant_path(variants: Path, docs: Path, name: str) -> Path:
    """The file a directive's argument names (as :class:`PerudoDirective` finds it)."""
    if "/" in name or name.endswith((".yaml", ".yml")):
        path = Path(name)
        return path if path.is_absolute() else docs / path
    return variants / f"{name}.yaml"


def spec_questions(docs: Path, variants: Path | None = None) -> list[Question]:
    """Every pair of variants whose witnesses the sources in ``docs`` show, in page order:
    the pairs of ``.. perudo-witnesses:: A B``, then, for each ``..
    perudo-interpretations::`` with ``:witnesses:`` (its variants, or every file in
    ``variants``), each interpretation a variant file records (not one it inherits) that
    names an override, against its alternative reading. A file that does not load is
    left out (the page reports it)."""
    variants = variants or data_dir("variants")
    out: list[Question] = []
    seen: set[str] = set()

    def add(label: str, a: Variant, b: Variant) -> None:
        key = witness_key(a, b)
        if key not in seen:
            seen.add(key)
            out.append(Question(label, a, b))

    for page in sorted(docs.rglob("*.rst")):
        if "_build" in page.relative_to(docs).parts:
            continue
        source = page.read_text(encoding="utf-8")
        for a_name, b_name in _WITNESSES.findall(source):
            try:
                a = load_variant(_variant_path(variants, docs, a_name))
                b = load_variant(_variant_path(variants, docs, b_name))
            except VariantError:
                continue
            add(f"{Path(a_name).stem} vs {Path(b_name).stem}", a, b)
        for args, options in _INTERPRETATIONS.findall(source):
            if ":witnesses:" not in options:
                continue
            names = args.split() or [p.stem for p in sorted(variants.glob("*.yaml"))]
            for question in _readings(variants, docs, names):
                add(question.label, question.a, question.b)
    return out


def _readings(variants: Path, docs: Path, names: Sequence[str]) -> Iterator[Question]:
    """Each interpretation of the named variants against its alternative reading."""
    for name in names:
        try:
            variant = load_variant(_variant_path(variants, docs, name))
        except VariantError:
            continue
        for spec in KNOBS:
            knob = variant.knob(spec.path)
            if knob.interpretation is None or knob.file != variant.file:
                continue
            try:
                alt = alternative_variant(variant, knob)
            except VariantError:
                continue
            if alt is not None:
                yield Question(f"{Path(name).stem}: {spec.path}, other reading", variant, alt)


# --- the file --------------------------------------------------------------------------------


def compute(
    questions: Sequence[Question],
    limits: SearchLimits = SPEC_LIMITS,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """The file's document: every question's witnesses, searched now, in order."""
    entries = []
    for i, q in enumerate(questions):
        if progress is not None:
            progress(f"{q.label} ({i + 1} of {len(questions)})")
        witnesses = find_witnesses(q.a, q.b, limits=limits)
        entries.append(
            {
                "key": witness_key(q.a, q.b, limits),
                "label": q.label,
                "witnesses": [w.to_data() for w in witnesses],
            }
        )
    return {"format": FORMAT, "refresh": COMMAND, "entries": entries}


def dumps(document: dict[str, Any]) -> str:
    """The file's text: an entry's witnesses one a line (the same document, the same
    bytes)."""
    lines = ["{", f'"format": {json.dumps(document["format"])},']
    lines.append(f'"refresh": {json.dumps(document["refresh"])},')
    lines.append('"entries": [')
    entries = document["entries"]
    for i, entry in enumerate(entries):
        head = {"key": entry["key"], "label": entry["label"]}
        lines.append(json.dumps(head, ensure_ascii=False)[:-1] + ', "witnesses": [')
        rows = [_compact(w) for w in entry["witnesses"]]
        lines.extend(f" {row}{',' if j < len(rows) - 1 else ''}" for j, row in enumerate(rows))
        lines.append("]}" + ("," if i < len(entries) - 1 else ""))
    lines.append("]}")
    return "\n".join(lines) + "\n"


def _compact(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def stale_entries(current: dict[str, Any], fresh: dict[str, Any]) -> list[str]:
    """The labels of the entries of ``fresh`` that ``current`` lacks or holds otherwise,
    and of those ``current`` holds that ``fresh`` has no more (``"(gone) ..."``)."""
    have = {e["key"]: e for e in current.get("entries", [])}
    want = {e["key"]: e for e in fresh["entries"]}
    out = [e["label"] for key, e in want.items() if have.get(key) != e]
    out += [f"(gone) {e['label']}" for key, e in have.items() if key not in want]
    if current.get("format") != fresh["format"] and not out:
        out.append("(the file's format)")
    return out


@functools.lru_cache(maxsize=4)
def _read(path: str, stamp: tuple[int, int]) -> dict[str, tuple[Witness, ...]]:
    """The file's witnesses by key (``stamp``: its mtime and size, so an edit is read)."""
    document = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ValueError(f"not a witness file of format {FORMAT}")
    return {
        str(entry["key"]): tuple(Witness.from_data(w) for w in entry["witnesses"])
        for entry in document["entries"]
    }


def lookup(
    path: Path, a: Variant, b: Variant, limits: SearchLimits = SPEC_LIMITS
) -> list[Witness] | None:
    """The witnesses of ``a`` against ``b`` the file at ``path`` holds, or ``None`` when it
    holds none for these variants and limits, or there is no such file. ``ValueError``
    when the file is not a witness file."""
    try:
        stat = path.stat()
    except OSError:
        return None
    found = _read(str(path), (stat.st_mtime_ns, stat.st_size)).get(witness_key(a, b, limits))
    return None if found is None else list(found)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module's docstring): 0, or 1 when ``--check`` finds the
    file stale."""
    parser = argparse.ArgumentParser(
        prog="python -m perudo_rules.sphinxext.witnessdata",
        description="Compute the divergence witnesses the spec shows into its data file.",
    )
    parser.add_argument("--docs", type=Path, default=Path("docs"), help="the spec's sources")
    parser.add_argument("--variants", type=Path, default=None, help="the variant files")
    parser.add_argument("--output", type=Path, default=None, help="the data file")
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    args = parser.parse_args(argv)
    output = args.output or args.docs / "_data" / "witnesses.json"
    questions = spec_questions(args.docs, args.variants)

    def say(text: str) -> None:
        print(f"witnesses: {text}", file=sys.stderr)

    document = compute(questions, progress=say)
    if args.check:
        try:
            current = json.loads(output.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            current = {}
        stale = stale_entries(current, document)
        for label in stale:
            print(f"stale: {label}")
        if stale:
            print(f"{output} is stale: run {COMMAND}")
        return 1 if stale else 0
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(dumps(document), encoding="utf-8")
    count = sum(len(e["witnesses"]) for e in document["entries"])
    print(f"{output}: {count} witnesses of {len(questions)} pairs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
