"""The message catalogues of perudo-rules: extract, update, compile, check (with Babel).

    python tools/catalogs.py extract   # write perudo_rules/locale/perudo_rules.pot
    python tools/catalogs.py update    # merge the template into it/ and es/ .po files
    python tools/catalogs.py compile   # write each .po's .mo (what the package reads)
    python tools/catalogs.py check     # exit 1 when a message lacks a translation
                                       # or a .mo is stale (what tests/test_i18n.py asserts)
    python tools/catalogs.py docs      # the spec's prose: sphinx-build -b gettext, then
                                       # merge into docs/locale/<lang>/LC_MESSAGES/docs.po

``make catalogs`` runs the first three. The messages come from every place English is
written once (perudo_rules.base.i18n says why): the calls ``tr``, ``ptr``, ``ntr`` and
``N_`` in the package's Python (and ``tx``, ``ntx``: texts kept as data,
perudo_rules.base.texts), the knob table (each description and choice), the fixed
rules (``spec/core-rules.yaml``), every variant file (name, description, each rule's
statement and interpretation; its rulebook section with the context ``source``) and the
scenarios (title, description). Quotes from the rulebooks are never translated: they are
shown as the rulebook writes them. Babel is a development dependency (the ``test`` and
``docs`` extras); the package itself reads the ``.mo`` files with the standard library.
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import yaml
from babel.messages.catalog import Catalog
from babel.messages.extract import extract
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "perudo_rules" / "locale"
DOMAIN = "perudo_rules"
LANGS = ("it", "es")
#: The marking functions: perudo_rules.base.i18n's, and perudo_rules.base.texts's ``tx`` and
#: ``ntx`` (the same messages, kept as data and said later).
KEYWORDS = {"tr": None, "ptr": ((1, "c"), 2), "ntr": (1, 2), "N_": None, "tx": None, "ntx": (1, 2)}
#: A placeholder of a message, its format spec included ({n}, {most:,}).
_PLACEHOLDER = re.compile(r"\{[a-z_]*(?:[:!][^{}]*)?\}")
INTERPRETATION = ("chosen", "alternative", "reason", "inexpressible")

#: (msgid, context, location "file:line")
Message = tuple[str | tuple[str, str], str | None, str]


def fold(text: str) -> str:
    """One line, white space runs made one space (as :func:`perudo_rules.base.i18n.fold`)."""
    return " ".join(text.split())


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def python_messages() -> Iterator[Message]:
    """The marked strings of the package's Python modules."""
    for path in sorted((ROOT / "perudo_rules").rglob("*.py")):
        with path.open("rb") as fh:
            for line, message, _comments, context in extract("python", fh, KEYWORDS):
                if isinstance(message, tuple):
                    yield tuple(fold(m) for m in message), context, f"{_rel(path)}:{line}"  # type: ignore[misc]
                else:
                    yield fold(message), context, f"{_rel(path)}:{line}"


def knob_messages() -> Iterator[Message]:
    """Each knob's description and the description of each of its choices."""
    sys.path.insert(0, str(ROOT))
    from perudo_rules.editions.knobs import KNOBS

    where = "perudo_rules/editions/knobs.py"
    for knob in KNOBS:
        yield fold(knob.description), None, f"{where}:{knob.path}"
        for _value, text in knob.choices:
            yield fold(text), None, f"{where}:{knob.path}"
        # what compare's proofs of no difference say of the knob
        # (perudo_rules.analysis.witnessproof)
        if knob.never_read:
            yield fold(knob.never_read), None, f"{where}:{knob.path}"
        conditions = [*knob.read_when, *(c for group in knob.alike for c in group.apart_when)]
        for cond in conditions:
            if cond.otherwise:
                yield fold(cond.otherwise), None, f"{where}:{knob.path}"


def _lines(path: Path) -> dict[str, int]:
    """The first line where each folded scalar of a YAML file stands."""
    out: dict[str, int] = {}
    node = yaml.compose(path.read_text(encoding="utf-8"))

    def walk(n: yaml.Node) -> None:
        if isinstance(n, yaml.ScalarNode):
            out.setdefault(fold(str(n.value)), n.start_mark.line + 1)
        elif isinstance(n, yaml.SequenceNode):
            for item in n.value:
                walk(item)
        elif isinstance(n, yaml.MappingNode):
            for key, value in n.value:
                walk(key)
                walk(value)

    if node is not None:
        walk(node)
    return out


def _texts(path: Path, items: list[tuple[str | None, object]]) -> Iterator[Message]:
    lines = _lines(path)
    for context, value in items:
        if isinstance(value, str) and value.strip():
            text = fold(value)
            yield text, context, f"{_rel(path)}:{lines.get(text, 0)}"


def _interpretation(doc: object) -> list[tuple[str | None, object]]:
    if not isinstance(doc, dict):
        return []
    return [(None, doc.get(k)) for k in INTERPRETATION]


def core_messages() -> Iterator[Message]:
    """The fixed rules' statements and interpretations."""
    path = ROOT / "spec" / "core-rules.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    items: list[tuple[str | None, object]] = []
    for rule in doc["rules"]:
        items.append((None, rule.get("text")))
        items += _interpretation(rule.get("interpretation"))
    yield from _texts(path, items)


def variant_messages() -> Iterator[Message]:
    """Every variant file's name, description, rulebook title, each rule's statement,
    interpretation and rulebook section (``source``), and the section of each fixed rule
    its ``core`` mapping cites."""
    for path in sorted((ROOT / "variants").glob("*.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        items: list[tuple[str | None, object]] = [
            (None, doc.get("name")),
            (None, doc.get("description")),
        ]
        rulebook = doc.get("rulebook")
        if isinstance(rulebook, dict):
            items.append(("source", rulebook.get("title")))
        core = doc.get("core")
        if isinstance(core, dict):  # where the rulebook states a fixed rule: its section
            items += [("source", e.get("source")) for e in core.values() if isinstance(e, dict)]
        for section, knobs in doc.items():
            if section in ("rulebook", "id", "name", "description", "extends", "core"):
                continue
            if not isinstance(knobs, dict):
                continue
            if section == "wild" and isinstance(knobs.get("name"), dict):  # shown in play
                items.append(("wild", knobs["name"].get("value")))
            for knob in knobs.values():
                if isinstance(knob, dict):
                    items.append((None, knob.get("text")))
                    items.append(("source", knob.get("source")))
                    items += _interpretation(knob.get("interpretation"))
        yield from _texts(path, items)


def scenario_messages() -> Iterator[Message]:
    """Every bundled scenario's title and description."""
    for path in sorted((ROOT / "spec" / "scenarios").glob("*.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        items: list[tuple[str | None, object]] = []
        for sc in doc.get("scenarios", []):
            items += [(None, sc.get("title")), (None, sc.get("description"))]
        yield from _texts(path, items)


def term_messages() -> Iterator[Message]:
    """What each term of the terminology table (``spec/terms.yaml``) means."""
    path = ROOT / "spec" / "terms.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    yield from _texts(path, [(None, t.get("meaning")) for t in doc["terms"]])


def refusal_messages() -> Iterator[Message]:
    """Every refusal's English template (``perudo_rules.base.messages.ENGLISH``), keyed by its
    message id as the context; a template that follows a count has its two forms."""
    sys.path.insert(0, str(ROOT))
    try:
        from perudo_rules.base.messages import ENGLISH
    except ImportError:  # before structured refusals
        return
    where = "perudo_rules/base/messages.py"
    for message_id, tpl in ENGLISH.items():
        if isinstance(tpl, str):
            yield tpl, message_id, f"{where}:{message_id}"
        else:
            yield (tpl.one, tpl.other), message_id, f"{where}:{message_id}"


def all_messages() -> Iterator[Message]:
    """Every message of the catalogues, with where it comes from."""
    yield from python_messages()
    yield from refusal_messages()
    yield from term_messages()
    yield from knob_messages()
    yield from core_messages()
    yield from variant_messages()
    yield from scenario_messages()


def template() -> Catalog:
    """The template catalogue (the ``.pot``) of every message."""
    cat = Catalog(
        project="perudo-rules",
        domain=DOMAIN,
        charset="utf-8",
        fuzzy=False,
        msgid_bugs_address="",
        copyright_holder="perudo-rules developers",
    )
    for message, context, location in all_messages():
        file, _, line = location.rpartition(":")
        flags = ["python-brace-format"] if _PLACEHOLDER.search(str(message)) else []
        known = cat.get(message, context)  # type: ignore[arg-type]
        if known is not None:
            known.locations.append((file, int(line) if line.isdigit() else None))
            continue
        cat.add(
            message,
            None,
            [(file, int(line) if line.isdigit() else None)],
            flags=flags,
            context=context,
        )
    return cat


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(lang: str) -> Catalog:
    with po_path(lang).open("rb") as fh:
        return read_po(fh, locale=lang, domain=DOMAIN)


def _write_po(cat: Catalog, path: Path) -> None:
    buf = io.BytesIO()
    write_po(
        buf,
        cat,
        width=100,
        omit_header=False,
        sort_output=False,
        ignore_obsolete=True,
        include_previous=True,
        include_lineno=False,  # a file's name, never its lines: an edit elsewhere churns nothing
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buf.getvalue())


def mo_bytes(cat: Catalog) -> bytes:
    buf = io.BytesIO()
    write_mo(buf, cat, use_fuzzy=False)
    return buf.getvalue()


def cmd_extract() -> None:
    _write_po(template(), LOCALE / f"{DOMAIN}.pot")


def cmd_update() -> None:
    tpl = template()
    for lang in LANGS:
        path = po_path(lang)
        if path.exists():
            cat = read(lang)
            cat.update(tpl, no_fuzzy_matching=False, update_header_comment=False)
        else:
            cat = Catalog(locale=lang, domain=DOMAIN, project="perudo-rules", fuzzy=False)
            cat.update(tpl)
        cat.revision_date = cat.creation_date = _FIXED_DATE
        _write_po(cat, path)


def cmd_compile() -> None:
    for lang in LANGS:
        cat = read(lang)
        po_path(lang).with_suffix(".mo").write_bytes(mo_bytes(cat))


def problems() -> list[str]:
    """Every missing, fuzzy or mismatched translation, and every stale ``.mo``."""
    out: list[str] = []
    tpl = template()
    for lang in LANGS:
        cat = read(lang)
        for msg in tpl:
            if not msg.id:
                continue
            got = cat.get(msg.id, msg.context)
            key = f"{lang}: {msg.id if isinstance(msg.id, str) else msg.id[0]!r}"
            if (
                got is None
                or not got.string
                or (isinstance(got.string, tuple) and not all(got.string))
            ):
                out.append(f"{key}: no translation ({msg.locations[0][0]})")
                continue
            if got.fuzzy:
                out.append(f"{key}: fuzzy")
                continue
            ids = msg.id if isinstance(msg.id, tuple) else (msg.id,)
            strings = got.string if isinstance(got.string, tuple) else (got.string,)
            want = set(_PLACEHOLDER.findall(ids[-1]))
            for s in strings:
                if set(_PLACEHOLDER.findall(s)) != want:
                    out.append(f"{key}: placeholders differ: {s!r}")
        mo = po_path(lang).with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != mo_bytes(cat):
            out.append(f"{lang}: {_rel(mo)} is stale: run python tools/catalogs.py compile")
    return out


_FIXED_DATE = __import__("datetime").datetime(2026, 1, 1, tzinfo=__import__("datetime").UTC)

DOCS = ROOT / "docs"
#: The pages of the spec whose prose is translated: the pages players, reviewers and engine
#: authors read (docs/index.rst lists them). The developer pages (architecture, api,
#: pettingzoo) stay English and say so in the other languages (``perudo-english-only``).
#: A message of these pages without Italian or Spanish fails tests/test_i18n.py.
DOCS_TRANSLATED = (
    "index",
    "glossary",
    "terms",
    "editions",
    "compare",
    "interpretations",
    "core-rules",
    "bid-ranks",
    "scenarios",
    "conformance",
    "format",
    "about",
    "house-rules",
    "balance-studies",
)


def docs_page(location: str) -> str:
    """The page (``index``, ``editions/italian``) a location of the gettext builder names."""
    path = location.split(":", 1)[0].replace("\\", "/")
    tail = path.split("/docs/", 1)[-1] if "/docs/" in path else path.lstrip("./")
    return tail.removeprefix("docs/").removesuffix(".rst")


def docs_translated(page: str) -> bool:
    """Whether ``page`` is one whose prose must be translated."""
    return page in DOCS_TRANSLATED or page.startswith("editions/")


def docs_template(out: Path) -> Catalog:
    """Run Sphinx's gettext builder into ``out``; the template of the spec's prose, each
    message located at its page (no line numbers, so edits elsewhere do not churn)."""
    import subprocess

    subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-q",
            "-b",
            "gettext",
            "-D",
            "gettext_location=1",
            str(DOCS),
            str(out),
        ],
        check=True,
    )
    with (out / "docs.pot").open("rb") as fh:
        pot = read_po(fh)
    cat = Catalog(project="perudo-rules", domain="docs", charset="utf-8", fuzzy=False)
    for msg in pot:
        if not msg.id:
            continue
        pages = sorted({docs_page(loc) for loc, _line in msg.locations})
        cat.add(msg.id, None, [(f"docs/{p}.rst", None) for p in pages], context=msg.context)
    return cat


def docs_po(lang: str) -> Path:
    return DOCS / "locale" / lang / "LC_MESSAGES" / "docs.po"


def cmd_docs() -> None:
    """Merge the spec's template into each language's ``docs.po``; a new message that the
    package's catalogue already translates (an edition's name) takes that translation."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        tpl = docs_template(Path(tmp))
    for lang in LANGS:
        path = docs_po(lang)
        if path.exists():
            with path.open("rb") as fh:
                cat = read_po(fh, locale=lang, domain="docs")
        else:
            cat = Catalog(locale=lang, domain="docs", project="perudo-rules", fuzzy=False)
        cat.update(tpl, no_fuzzy_matching=True, update_header_comment=False)
        package = read(lang)
        for msg in cat:
            if msg.id and not msg.string:
                known = package.get(msg.id)
                if known is not None and known.string:
                    msg.string = known.string
        cat.revision_date = cat.creation_date = _FIXED_DATE
        _write_po(cat, path)


_LITERAL = re.compile(r"``.+?``(?!`)")
_ROLE = re.compile(r":([a-z]+):`([^`]+)`")


def _markup(text: str) -> tuple[list[str], list[str], int]:
    """What a translation must keep of a message: its literals and its cross-references
    (a ``:term:`` reference names the translated term, so only their number counts)."""
    literals = _LITERAL.findall(text)
    rest = _LITERAL.sub("", text)
    roles = [f"{r}:{t}" for r, t in _ROLE.findall(rest) if r != "term"]
    terms = sum(1 for r, _ in _ROLE.findall(rest) if r == "term")
    return sorted(literals), sorted(roles), terms


def docs_problems() -> list[str]:
    """Every message of a translated page (:data:`DOCS_TRANSLATED`) in ``docs.po`` without
    its translation, or whose placeholders (``:rule:`..```, ``{n}``, ``**``) differ."""
    out: list[str] = []
    for lang in LANGS:
        with docs_po(lang).open("rb") as fh:
            cat = read_po(fh, locale=lang, domain="docs")
        package = read(lang)
        for msg in cat:
            known = package.get(msg.id) if isinstance(msg.id, str) and msg.id else None
            if known is not None and known.string and msg.string != known.string:
                out.append(f"{lang}: {str(msg.id)[:60]!r}: not the package's translation")
            if not msg.id:
                continue
            pages = [docs_page(loc) for loc, _ in msg.locations]
            if not any(docs_translated(p) for p in pages):
                continue
            where = f"{lang}: {pages[0]}: {str(msg.id)[:60]!r}"
            if not msg.string or msg.fuzzy:
                out.append(f"{where}: no translation")
                continue
            if _markup(str(msg.id)) != _markup(str(msg.string)):
                out.append(f"{where}: the roles and literals differ")
    return out


def ruled_out(lang: str) -> list[tuple[re.Pattern[str], dict[str, str]]]:
    """The words ``spec/terms.yaml`` rules out of our ``lang`` texts, each as the pattern that
    finds it (case-insensitive, from the start of a word; a trailing ``*`` allows any ending;
    several words are a phrase across any white space) with its entry."""
    doc = yaml.safe_load((ROOT / "spec" / "terms.yaml").read_text(encoding="utf-8"))
    out = []
    for entry in (doc.get("ruled_out") or {}).get(lang) or []:
        word = str(entry["word"])
        stem, any_end = (word[:-1], True) if word.endswith("*") else (word, False)
        body = r"\s+".join(re.escape(w) for w in stem.split())
        pattern = rf"(?<![\w'\u2019]){body}" + (r"\w*" if any_end else r"(?!\w)")
        out.append((re.compile(pattern, re.IGNORECASE), entry))
    return out


def terms_problems() -> list[str]:
    """Every translation, in the package's catalogue or the spec's, that uses a word the
    terms table rules out (``ruled_out`` in ``spec/terms.yaml``)."""
    out: list[str] = []
    for lang in LANGS:
        checks = ruled_out(lang)
        cats = [("perudo_rules.po", read(lang))]
        if docs_po(lang).exists():
            with docs_po(lang).open("rb") as fh:
                cats.append(("docs.po", read_po(fh, locale=lang, domain="docs")))
        for name, cat in cats:
            for msg in cat:
                if not msg.id or msg.fuzzy:
                    continue
                strings = msg.string if isinstance(msg.string, tuple) else (msg.string,)
                for text in strings:
                    for pattern, entry in checks:
                        hit = pattern.search(text or "")
                        if hit:
                            out.append(
                                f"{lang}: {name}: {hit.group(0)!r} in {str(text)[:70]!r}: "
                                f"write {entry['use']!r} ({entry['why']})"
                            )
    return out


def main(argv: list[str]) -> int:
    commands = {
        "extract": cmd_extract,
        "update": cmd_update,
        "compile": cmd_compile,
        "docs": cmd_docs,
    }
    if argv and argv[0] == "check":
        bad = problems() + docs_problems() + terms_problems()
        print("\n".join(bad) if bad else "catalogues complete")
        return 1 if bad else 0
    if len(argv) != 1 or argv[0] not in commands:
        print(__doc__)
        return 2
    commands[argv[0]]()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
