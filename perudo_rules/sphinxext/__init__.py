"""Sphinx extension: the rules spec generated from the files the engine runs.

Enable it with ``extensions = ["perudo_rules.sphinxext"]`` in ``conf.py``. It is
imported only by Sphinx; ``import perudo_rules`` never imports it (nor Sphinx).

Directives (every one builds docutils nodes and notes a dependency on each YAML
file it reads, so editing a variant file rebuilds the pages that show it):

``.. perudo-variant:: ID``
    A whole edition rule by rule: anchor, statement, value, rulebook section,
    quote and interpretation; then the fixed rules every edition shares.
``.. perudo-compare:: [ID ...]``
    A matrix of every knob, one column per variant (no argument: every variant
    in the variants directory, so a new variant file appears without a clean
    build). ``:differences:`` keeps only the rules that differ. The values scroll
    sideways beside a sticky rule column; with ``perudo.js`` (``docs/_static``) the
    reader may show only the differing rows and choose the editions shown.
``.. perudo-core-rules::``
    The fixed rules (``spec/core-rules.yaml``).
``.. perudo-format::``
    The variant file format, from ``spec/variant.schema.json`` and the knob table.
``.. perudo-interpretations:: [ID ...]``
    Every interpretation, the chosen and the alternative reading.
``.. perudo-editions::``
    A table of every variant with a link to its page.
``.. perudo-ladder:: ID``
    Bids in engine rank order (``:bids:``, ``:dice:``, ``:window:``, ``:palifico:``).
``.. perudo-scenarios::``
    The conformance scenarios as step tables, grouped by rule
    (filters ``:rule:``, ``:variant:``, ``:id:``).
``.. perudo-witnesses:: A B``
    Divergence witnesses between two variants, replayed by the engine (computed ahead
    into ``perudo_witness_data``, else searched at the build).
``.. perudo-simulation:: ID [ID ...]``
    A small fixed-seed simulation: statistics table and plot.
``.. perudo-conformance::``
    The built-in harnesses through the conformance kit: implementations x editions,
    passed / failed / not claimed per rule family, with the witnesses
    (``:harnesses:``, ``:editions:``, ``:games:``, ``:seed:``).
``.. perudo-perft::``
    The published perft tables of every bundled edition (``spec/perft/``).
``.. perudo-probes::``
    The conformance kit's targeted probes of every edition of the variants directory:
    per rule, the point of play where it decides and what the probe tells apart.
``.. perudo-knob-values::``
    For engine authors: every knob path, each of its values with its meaning and the
    editions that use it, and the value a claim that leaves it out claims.
``.. perudo-layers::`` and ``.. perudo-api::``
    The package's floors, read from its folders (:mod:`perudo_rules.sphinxext.layout`),
    and the API reference, a section per folder (:mod:`perudo_rules.sphinxext.layers`).
``.. perudo-terms::``
    The words of the game in the Italian and Spanish rulebooks, with the section where
    each stands, and the words of our translations (``spec/terms.yaml``).
``.. perudo-english-only::``
    At the top of a page kept in English (the developer pages): a note saying so, in the
    Italian and Spanish builds only.

Every directive speaks the build's ``language`` (``-D language=it``): see
:func:`in_build_language`.

Rule anchors are cross-referenced with the ``:rule:`` role: ``:rule:`italian:calza.who```
(a variant's rule), ``:rule:`calza.who``` (the knob in the format reference),
``:rule:`play.dudo``` (a fixed rule); scenarios of the unfiltered catalogue with
``:scenario:`it-opening-estimate```. Each rule of an edition page links to the scenarios
that exercise it under that edition.

Configuration: ``perudo_variants_dir`` (default: the bundled ``variants/``),
``perudo_editions_dir`` (a source subdirectory that receives one generated page per
variant at ``builder-inited``; empty to disable), ``perudo_sim_games``,
``perudo_sim_players`` and ``perudo_sim_seed`` (the build-time simulation),
``perudo_witness_data`` (the witnesses computed ahead, a JSON file relative to the source
dir, :mod:`perudo_rules.sphinxext.witnessdata`; empty: every witness is searched at the
build) and ``perudo_cache_dir`` (a folder, relative to the source directory, where the conformance
runs and the simulation are kept for the next build with the same inputs, such as the
other languages': :mod:`perudo_rules.sphinxext.store`; empty to keep nothing).

The package is split the way sphinx-design splits its extension: ``shared`` (docutils
node builders), ``events`` (event handlers and the dependency bookkeeping), ``base``
(the directive base class: loading data and noting dependencies), then one module per
directive family: ``editions``, ``fileformat``, ``compare``, ``interpretations``,
``ladder``, ``scenarios``, ``witnesses``, ``simulation``, ``conformance``, ``probes`` and
``knobvalues``;
``store`` keeps
what they compute at length.
"""

from __future__ import annotations

from docutils import nodes
from docutils.parsers.rst import Directive
from sphinx.application import Sphinx
from sphinx.roles import XRefRole
from sphinx.util.typing import ExtensionMetadata

from perudo_rules.base.i18n import LANGUAGES, use_language
from perudo_rules.base.version import __version__
from perudo_rules.sphinxext import events
from perudo_rules.sphinxext.compare import CompareDirective
from perudo_rules.sphinxext.conformance import ConformanceDirective, PerftDirective
from perudo_rules.sphinxext.editions import (
    CoreRulesDirective,
    EditionsDirective,
    VariantDirective,
)
from perudo_rules.sphinxext.englishonly import EnglishOnlyDirective
from perudo_rules.sphinxext.fileformat import FormatDirective
from perudo_rules.sphinxext.interpretations import InterpretationsDirective
from perudo_rules.sphinxext.knobvalues import KnobValuesDirective
from perudo_rules.sphinxext.ladder import LadderDirective
from perudo_rules.sphinxext.layers import ApiDirective, LayersDirective
from perudo_rules.sphinxext.probes import ProbesDirective
from perudo_rules.sphinxext.scenarios import ScenariosDirective
from perudo_rules.sphinxext.shared import rule_anchor
from perudo_rules.sphinxext.simulation import SimulationDirective
from perudo_rules.sphinxext.terms import TermsDirective
from perudo_rules.sphinxext.witnesses import WitnessesDirective

__all__ = ["in_build_language", "rule_anchor", "setup"]

DIRECTIVES = {
    "perudo-variant": VariantDirective,
    "perudo-core-rules": CoreRulesDirective,
    "perudo-format": FormatDirective,
    "perudo-compare": CompareDirective,
    "perudo-editions": EditionsDirective,
    "perudo-interpretations": InterpretationsDirective,
    "perudo-ladder": LadderDirective,
    "perudo-scenarios": ScenariosDirective,
    "perudo-witnesses": WitnessesDirective,
    "perudo-simulation": SimulationDirective,
    "perudo-conformance": ConformanceDirective,
    "perudo-perft": PerftDirective,
    "perudo-knob-values": KnobValuesDirective,
    "perudo-probes": ProbesDirective,
    "perudo-terms": TermsDirective,
    "perudo-layers": LayersDirective,
    "perudo-api": ApiDirective,
    "perudo-english-only": EnglishOnlyDirective,
}


def in_build_language(directive: type[Directive]) -> type[Directive]:
    """``directive`` made to speak the build's ``language`` (``-D language=it``): its
    ``run`` is called under :func:`perudo_rules.base.i18n.use_language`, so the rule statements,
    interpretations, scenarios and labels it generates come from the package's own
    catalogues, already translated; the nodes it returns are marked not translatable, so
    Sphinx's gettext leaves them alone (and keeps them out of ``docs/locale``). A language
    the package does not speak is English."""

    def run(self: Directive) -> list[nodes.Node]:
        lang = getattr(self.state.document.settings.env.config, "language", None) or "en"
        with use_language(lang if lang in LANGUAGES else "en"):
            out: list[nodes.Node] = list(directive.run(self))
        for node in out:  # (inline nodes are never translated; Sphinx unwraps any marked one)
            for text in node.findall(nodes.TextElement):
                if not isinstance(text, nodes.Inline):
                    text["translatable"] = False
        return out

    return type(directive.__name__, (directive,), {"run": run, "__doc__": directive.__doc__})


def setup(app: Sphinx) -> ExtensionMetadata:
    """Register the directives, the ``:rule:`` and ``:scenario:`` roles, the config values
    and the event handlers."""
    app.add_config_value("perudo_variants_dir", "", "env", types=frozenset({str}))
    app.add_config_value("perudo_editions_dir", "", "env", types=frozenset({str}))
    app.add_config_value("perudo_sim_games", 100, "env", types=frozenset({int}))
    app.add_config_value("perudo_sim_players", 6, "env", types=frozenset({int}))
    app.add_config_value("perudo_sim_seed", 1, "env", types=frozenset({int}))
    app.add_config_value("perudo_witness_data", "", "env", types=frozenset({str}))
    # where results are kept between builds: no page reads differently for it
    app.add_config_value("perudo_cache_dir", "", "", types=frozenset({str}))
    for kind in ("rule", "scenario"):
        app.add_crossref_type(kind, kind, indextemplate=f"pair: %s; {kind}", objname=kind)
        app.add_role_to_domain(
            "std", kind, XRefRole(innernodeclass=nodes.literal, warn_dangling=True), override=True
        )
    for name, directive in DIRECTIVES.items():
        app.add_directive(name, in_build_language(directive))
    app.connect("builder-inited", events.write_edition_pages)
    app.connect("env-get-outdated", events.outdated)
    app.connect("env-purge-doc", events.purge)
    app.connect("env-merge-info", events.merge)
    app.connect("missing-reference", events.missing_reference)
    return {
        "version": __version__,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
        "env_version": 2,
    }
