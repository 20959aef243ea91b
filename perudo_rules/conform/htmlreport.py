"""The conformance report as one self-contained HTML page (``conform --html FILE``).

:func:`html_report` writes what :func:`perudo_rules.cli.conform.format_report` prints, laid
out for reading and sharing: a header with the engine, its command, the verdict and the
exit code; for each claimed edition a matrix of every rule id (:func:`rule_ids`: status,
comparisons passed and failed, targeted probes sent), each root failure with the knob
values the engine plays against the edition's, the difference, its consequences and the
witness file (linked from the matrix row of its rule), and the perft checks with their
divide; then each edition no claim covers with what kept it out.

The page has its style inline and no script, image or other file. Everything the engine
or the run supplied (its name, the command, details, witnesses) is escaped: an engine is
untrusted input. The sentences are the package's (:func:`perudo_rules.base.i18n.tr`), in
the language of the context (the command line's ``--lang``).
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

from perudo_rules.base.i18n import language, tr
from perudo_rules.conform.report import (
    EXIT_CONFORMS,
    EXIT_DIFFERS,
    EXIT_HARNESS,
    EXIT_UNTESTED,
    EditionReport,
    Failure,
    PerftCheck,
    Report,
    citation,
    rule_ids,
)

__all__ = ["html_report"]

_STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:72em;padding:0 1em;
color:#222;line-height:1.4}
h1,h2,h3{line-height:1.2}
table{border-collapse:collapse;margin:.5em 0 1em}
th,td{border:1px solid #ccc;padding:.2em .6em;text-align:left;vertical-align:top}
th{background:#f3f3f3}
td.n{text-align:right;font-variant-numeric:tabular-nums}
tr.failed td{background:#fde8e8}
tr.passed td:nth-child(2){color:#17632a}
tr.not-reached td,tr.not-observed td{color:#777}
pre{background:#f6f6f6;border:1px solid #ddd;padding:.6em;overflow-x:auto;
white-space:pre-wrap;word-break:break-all}
dl.head{display:grid;grid-template-columns:max-content auto;gap:.2em 1em}
dl.head dt{font-weight:bold}
dl.head dd{margin:0}
.verdict-0{color:#17632a;font-weight:bold}
.verdict-1,.verdict-2,.verdict-3{color:#a11;font-weight:bold}
section.failure{border-left:4px solid #c33;padding-left:1em;margin:1em 0}
code{word-break:break-all}
"""


def _e(value: Any) -> str:
    """``value`` as text, escaped for an element or an attribute."""
    return escape(str(value), quote=True)


def _verdict(code: int) -> str:
    return {
        EXIT_CONFORMS: tr("conforms"), EXIT_DIFFERS: tr("differs"),
        EXIT_HARNESS: tr("harness error"), EXIT_UNTESTED: tr("nothing certified"),
    }[code]  # fmt: skip


def _result(rep: EditionReport) -> str:
    if not rep.claimed:
        return tr("not claimed")
    if not rep.complete:
        return tr("interrupted")
    if rep.conforms:
        return tr("conforms")
    return tr("DIFFERS") if rep.tested else tr("UNTESTED")


def _status(status: str) -> str:
    return {
        "passed": tr("passed"), "failed": tr("failed"),
        "not reached": tr("not reached"), "not observed": tr("not observed"),
        "not read": tr("not read"),
    }.get(status, status)  # fmt: skip


def _table(head: list[str], rows: list[str], cls: str = "") -> str:
    """A table: ``head`` escaped here, ``rows`` already HTML (``<tr>...</tr>``)."""
    th = "".join(f"<th>{_e(h)}</th>" for h in head)
    attr = f' class="{_e(cls)}"' if cls else ""
    return f"<table{attr}><thead><tr>{th}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _json(value: Any) -> str:
    return _e(json.dumps(value, ensure_ascii=False))


def _header(report: Report) -> str:
    code = report.exit_code
    items = [
        (tr("engine"), _e(report.engine)),
        (tr("command"), f"<code>{_e(report.command)}</code>"),
        (tr("verdict"), f'<span class="verdict-{code}">{_e(_verdict(code))}</span>'),
        (tr("exit code"), f'<span class="verdict-{code}">{code}</span>'),
        (tr("time"), _e(tr("{seconds} s", seconds=f"{report.seconds:.1f}"))),
    ]
    if report.error is not None:
        items.append((tr("harness error"), _e(report.error)))
    rows = "".join(f"<dt>{_e(k)}</dt><dd>{v}</dd>" for k, v in items)
    title = _e(tr("Conformance report"))
    return f'<header><h1>{title}</h1><dl class="head">{rows}</dl></header>'


def _summary(report: Report) -> str:
    rows = []
    for i, rep in enumerate(report.editions):
        if rep.claimed:
            ran = tr("{s} scenarios, {g} games, {p} probes, perft {ok}/{all}", s=rep.scenarios,
                     g=rep.games, p=sum(rep.probes.values()),
                     ok=sum(1 for x in rep.perft if x.ok), all=len(rep.perft))  # fmt: skip
            if rep.skipped:
                ran += tr(", {n} starts skipped", n=rep.skipped)
        else:
            ran = rep.keeps_out
        rows.append(f'<tr><td><a href="#edition-{i}">{_e(rep.edition)}</a></td>'
                    f"<td>{_e(_result(rep))}</td><td>{_e(ran)}</td></tr>")  # fmt: skip
    if not rows:
        return ""
    return _table([tr("edition"), tr("result"), tr("ran")], rows, "summary")


def _matrix(i: int, rep: EditionReport) -> str:
    first: dict[str, int] = {}
    for j, fail in enumerate(rep.failures):
        first.setdefault(fail.rule, j)
    rows = []
    for rule in rule_ids():
        status = rep.status(rule)
        name = f"<code>{_e(rule)}</code>"
        if rule in first:
            name = f'<a href="#failure-{i}-{first[rule]}">{name}</a>'
        rows.append(
            f'<tr class="{_e(status.replace(" ", "-"))}" id="rule-{i}-{_e(rule)}">'
            f"<td>{name}</td><td>{_e(_status(status))}</td>"
            f'<td class="n">{rep.passed.get(rule, 0)}</td>'
            f'<td class="n">{rep.failed.get(rule, 0)}</td>'
            f'<td class="n">{rep.probes.get(rule, 0)}</td></tr>'
        )
    head = [tr("rule"), tr("status"), tr("passed"), tr("failed"), tr("probes")]
    return _table(head, rows, "rules")


def _p(text: str) -> str:
    return f"<p>{_e(text)}</p>"


def _failure(i: int, j: int, edition: str, fail: Failure, checks: int) -> str:
    parts = [f'<section class="failure" id="failure-{i}-{j}">',
             f"<h3><code>{_e(fail.rule)}</code></h3>"]  # fmt: skip
    if fail.knob:
        plays = ", ".join(f"{p}: {json.dumps(v)}" for p, v in fail.knob.items())
        says = ", ".join(json.dumps(v) for v in fail.edition_values.values())
        parts.append(_p(tr("FAIL {edition} {rule}: the engine plays {plays}; the edition says "
                           "{says}", edition=edition, rule=fail.rule, plays=plays, says=says)))
        rows = [f"<tr><td><code>{_e(path)}</code></td><td><code>{_json(value)}</code></td>"
                f"<td><code>{_json(fail.edition_values.get(path))}</code></td></tr>"
                for path, value in fail.knob.items()]  # fmt: skip
        parts.append(_table([tr("knob"), tr("the engine plays"), tr("the edition says")],
                            rows, "knobs"))  # fmt: skip
    else:
        parts.append(_p(tr("FAIL {edition} {rule}: no knob value explains it; this rule "
                           "decided the reference's answer", edition=edition, rule=fail.rule)))
    cited = citation(edition, fail.rule)
    if cited:
        parts.append(f"<blockquote>{_e(cited)}</blockquote>")
    parts.append(_p(str(fail.detail)))
    parts.append(_p(tr("({n} of {checks} checks, first in {source})", n=fail.count,
                       checks=checks, source=fail.source)))  # fmt: skip
    if fail.consequences:
        parts.append(_p(tr("and so: {fields} differ too", fields=", ".join(fail.consequences))))
    if fail.decided_by:  # the edition's outcome of the call, rule by rule
        parts.append(_p(tr("The edition's outcome was decided by these rules:")))
        items = "".join(f"<li>{_e(citation(edition, r) or r)}</li>" for r in fail.decided_by)
        parts.append(f'<ul class="decided">{items}</ul>')
    parts.append(_p(tr("The witness file: perudo-rules check --witness FILE replays it, "
                       "perudo-rules conform --engine CMD --witness FILE re-runs it.")))
    witness = json.dumps(fail.witness, indent=2, ensure_ascii=False)
    parts.append(f'<pre class="witness">{_e(witness)}</pre></section>')
    return "".join(parts)


def _perft(checks: list[PerftCheck]) -> str:
    rows = []
    extra = []
    for x in checks:
        ok = tr("passed") if x.ok else tr("failed")
        rows.append(f'<tr class="{"passed" if x.ok else "failed"}"><td>{_e(x.name)}</td>'
                    f'<td class="n">{x.depth}</td><td>{_e(x.expected)}</td>'
                    f"<td>{_e(x.got)}</td><td>{_e(ok)}</td></tr>")  # fmt: skip
        if x.divide:
            drows = [f"<tr><td><code>{_e(move)}</code></td><td>{_e(want)}</td>"
                     f"<td>{_e(got)}</td></tr>" for move, want, got in x.divide]  # fmt: skip
            title = tr("{name}: divide", name=x.name)
            extra.append(f"<h4>{_e(title)}</h4>")
            extra.append(_table([tr("first move"), tr("expected"), tr("the engine counts")],
                                drows, "divide"))  # fmt: skip
    head = [tr("position"), tr("depth"), tr("expected"), tr("the engine counts"), tr("result")]
    perft_title = tr("Perft")
    return f"<h3>{_e(perft_title)}</h3>" + _table(head, rows, "perft") + "".join(extra)


def _edition(i: int, rep: EditionReport) -> str:
    out = [f'<section class="edition" id="edition-{i}">',
           f"<h2>{_e(rep.edition)}: {_e(_result(rep))}</h2>"]  # fmt: skip
    if not rep.claimed:
        why = tr("NOT CLAIMED {edition}: {why}", edition=rep.edition, why=rep.keeps_out)
        return "".join([*out, _p(why), "</section>"])
    if not rep.complete:
        out.append(_p(tr("A harness error stopped this edition: its counts are partial.")))
    elif not rep.tested:
        out.append(_p(tr("UNTESTED {edition}: {why}", edition=rep.edition, why=rep.untested())))
    out.append(_matrix(i, rep))
    for j, fail in enumerate(rep.failures):
        checks = rep.failed.get(fail.rule, 0) + rep.passed.get(fail.rule, 0)
        out.append(_failure(i, j, rep.edition, fail, checks))
    if rep.perft:
        out.append(_perft(rep.perft))
    out.append("</section>")
    return "".join(out)


def html_report(report: Report) -> str:
    """``report`` as a self-contained HTML page (inline style, no script, nothing it links
    outside itself), every text from the engine or the run escaped."""
    title = tr("Conformance report: {name}", name=report.engine)
    body = [_header(report), _summary(report)]
    body += [_edition(i, rep) for i, rep in enumerate(report.editions) if rep.claimed]
    body += [_edition(i, rep) for i, rep in enumerate(report.editions) if not rep.claimed]
    if not any(rep.claimed for rep in report.editions) and report.error is None:
        body.append(_p(tr("UNTESTED: the engine claims none of the editions asked for")))
    return (
        f'<!DOCTYPE html>\n<html lang="{_e(language())}"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)}</title><style>{_STYLE}</style></head>"
        f"<body>{''.join(body)}</body></html>\n"
    )
