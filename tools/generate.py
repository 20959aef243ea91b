"""Write every file generated from the knob table and the package's data.

    python tools/generate.py          # rewrite every generated file (and the catalogues)
    python tools/generate.py --check  # list the stale ones; exit 1 if any (no writing)

What it writes, and the test that fails while each is stale:

* ``spec/variant.schema.json`` (:mod:`perudo_rules.editions.schema`; tests/test_variant.py)
* ``spec/harness.schema.json`` (:mod:`perudo_rules.conform.protocol`; tests/test_conform.py)
* ``spec/record.schema.json`` (:mod:`perudo_rules.records.recordformat`; tests/test_record.py)
* ``spec/game.schema.json`` (:mod:`perudo_rules.records.gamejson`; tests/test_gamejson.py)
* ``spec/view.schema.json`` and ``spec/refusal.schema.json``
  (:mod:`perudo_rules.records.viewjson`; tests/test_view_schema.py)
* ``spec/probes/<edition>.json`` (:mod:`perudo_rules.conform.probes`; tests/test_probes.py)
* the typed knob fields of :class:`~perudo_rules.editions.ruleset.Ruleset`, between the
  markers in ``perudo_rules/editions/ruleset.py`` (tests/test_kernel.py)
* with Babel (the ``test`` and ``docs`` extras), the message catalogues: ``tools/catalogs.py
  update`` then ``compile`` (tests/test_i18n.py); a new message then waits for its Italian
  and Spanish in ``perudo_rules/locale/{it,es}/LC_MESSAGES/perudo_rules.po``, and running
  this again compiles them.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RULESET = ROOT / "perudo_rules" / "editions" / "ruleset.py"
BEGIN = "    # [knob fields: generated from the knob table by tools/generate.py]\n"
END = "    # [end of the knob fields]\n"
WIDTH = 100


def _annotation(schema: dict[str, Any]) -> str:
    """The Python type of a knob's values, from its JSON Schema."""
    if "oneOf" in schema:
        return " | ".join(_annotation(alt) for alt in schema["oneOf"])
    if "enum" in schema:
        return "Literal[" + ", ".join(json.dumps(v) for v in schema["enum"]) + "]"
    return {"integer": "int", "boolean": "bool", "string": "str", "null": "None"}[schema["type"]]


def ruleset_fields() -> str:
    """The field lines of :class:`Ruleset`: one per knob, in the knob table's order, named
    by :func:`~perudo_rules.editions.ruleset.field_name`; a choice knob a ``Literal`` of its
    choices (one a line where they do not fit on one)."""
    from perudo_rules.editions.knobs import KNOBS
    from perudo_rules.editions.ruleset import field_name

    lines = []
    for knob in KNOBS:
        line = f"    {field_name(knob.path)}: {_annotation(knob.schema)}"
        if len(line) > WIDTH and "enum" in knob.schema:
            values = "".join(f"        {json.dumps(v)},\n" for v in knob.schema["enum"])
            line = f"    {field_name(knob.path)}: Literal[\n{values}    ]"
        lines.append(line + "\n")
    return "".join(lines)


def ruleset_source() -> str:
    """``perudo_rules/editions/ruleset.py`` with its knob fields generated."""
    text = RULESET.read_text(encoding="utf-8")
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    if not rest or not tail:
        raise SystemExit(f"{RULESET}: the knob field markers are missing")
    return head + BEGIN + ruleset_fields() + END + tail


def _probes(vid: str) -> str:
    from perudo_rules.conform.probes import probes_text

    return probes_text(vid)


def _schema(module: str, function: str = "schema_json") -> Callable[[], str]:
    def text() -> str:
        return str(getattr(__import__(module, fromlist=[function]), function)())

    return text


#: Each generated file and what it is made of.
FILES: dict[Path, Callable[[], str]] = {
    ROOT / "spec" / "variant.schema.json": _schema("perudo_rules.editions.schema"),
    ROOT / "spec" / "harness.schema.json": _schema("perudo_rules.conform.protocol"),
    ROOT / "spec" / "record.schema.json": _schema("perudo_rules.records.recordformat"),
    ROOT / "spec" / "game.schema.json": _schema("perudo_rules.records.gamejson"),
    ROOT / "spec" / "view.schema.json": _schema(
        "perudo_rules.records.viewjson", "view_schema_json"
    ),
    ROOT / "spec" / "refusal.schema.json": _schema(
        "perudo_rules.records.viewjson", "refusal_schema_json"
    ),
    RULESET: ruleset_source,
    **{
        ROOT / "spec" / "probes" / f"{vid}.json": (lambda vid=vid: _probes(vid))
        for vid in sorted(p.stem for p in (ROOT / "variants").glob("*.yaml"))
    },
}


def stale() -> list[Path]:
    """The generated files whose text is not what this script would write."""
    return [
        path for path, make in FILES.items()
        if not path.is_file() or path.read_text(encoding="utf-8") != make()
    ]  # fmt: skip


def main(argv: list[str]) -> int:
    if argv == ["--check"]:
        bad = stale()
        print("\n".join(f"stale: {p.relative_to(ROOT)}" for p in bad) or "generated files fresh")
        return 1 if bad else 0
    if argv:
        print(__doc__)
        return 2
    for path, make in FILES.items():
        text = make()
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    try:
        import babel  # noqa: F401
    except ImportError:
        print("note: no Babel, the message catalogues are not updated (make catalogs)")
        return 0
    sys.path.insert(0, str(ROOT / "tools"))
    import catalogs

    catalogs.cmd_update()
    catalogs.cmd_compile()
    missing = catalogs.problems()
    print("\n".join(missing) if missing else "catalogues complete")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))  # this checkout's package, before any installed one
    sys.exit(main(sys.argv[1:]))
