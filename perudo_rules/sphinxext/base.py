"""The base of every ``perudo-*`` directive: loading data with dependency tracking.

Every loader notes the files it reads with ``env.note_dependency``, so editing a
variant, scenario or spec file rebuilds the pages that show it; a file that cannot be
loaded is a build warning located at the file and line the error names.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from docutils import nodes
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from perudo_rules.base.errors import PerudoError, VariantError
from perudo_rules.conform.scenarios import Scenario, default_paths, load_scenarios
from perudo_rules.editions.corerules import core_rule_details
from perudo_rules.editions.variant import Interpretation, Variant
from perudo_rules.editions.variantfile import data_dir, load_variant
from perudo_rules.sphinxext.events import (
    note_lists_every_file,
    note_variant_files,
    variant_files,
    variants_dir,
)

__all__ = ["CoreRule", "OneVariantDirective", "PerudoDirective", "logger", "warn_located"]

logger = logging.getLogger(__name__)

#: A fixed rule: its id, its statement and its interpretation (if it records one).
CoreRule = tuple[str, str, Interpretation | None]


def warn_located(err: Exception, what: str, fallback: str | None) -> None:
    """A build warning located at the file and line the error names."""
    file = getattr(err, "file", None) or fallback or "<unknown>"
    line = getattr(err, "line", None)
    location = f"{file}:{line}" if line is not None else file
    key_path = getattr(err, "key_path", "")
    message = (f"{key_path}: " if key_path else "") + str(getattr(err, "message", err))
    logger.warning(
        "perudo: %s: %s", what, message, location=location, type="perudo", subtype="yaml"
    )


class PerudoDirective(SphinxDirective):
    """Shared loading with dependency tracking and located warnings."""

    def variant_path(self, variant_id: str) -> Path:
        """The file of ``variant_id``: an id in the variants directory, or a path
        (relative to the source directory)."""
        if "/" in variant_id or variant_id.endswith((".yaml", ".yml")):
            path = Path(variant_id)
            return path if path.is_absolute() else Path(self.env.srcdir) / path
        return variants_dir(self.env) / f"{variant_id}.yaml"

    def load(self, variant_id: str) -> Variant | None:
        """Load a variant, noting every file it reads; warn (file:line) and return None."""
        path = self.variant_path(variant_id)
        note_variant_files(self.env, path)
        if not path.is_file():
            logger.warning(
                "perudo: unknown variant %r (no file %s)",
                variant_id,
                path,
                location=self.get_location(),
                type="perudo",
                subtype="variant",
            )
            return None
        try:
            return load_variant(path)
        except VariantError as err:
            warn_located(err, "cannot load variant", str(path))
            return None

    def load_all(self, ids: Sequence[str]) -> list[tuple[str, Variant]]:
        """Load the named variants, or every variant file when ``ids`` is empty
        (then a new variant file re-reads this page)."""
        if not ids:
            note_lists_every_file(self.env)
            ids = [p.stem for p in variant_files(self.env)]
        out = []
        for vid in ids:
            variant = self.load(vid)
            if variant is not None:
                out.append((Path(vid).stem, variant))
        return out

    def note_rule(self, name: str, anchor: str, objtype: str = "rule") -> None:
        """Register ``name`` as a ``:rule:`` (or ``:scenario:``) target at ``anchor``."""
        std = self.env.get_domain("std")
        std.note_object(objtype, name, anchor, location=self.get_location())  # type: ignore[attr-defined]

    def core_rules(self) -> list[CoreRule]:
        """The fixed rules, noting ``spec/core-rules.yaml`` as a dependency."""
        self.env.note_dependency(str(data_dir("spec") / "core-rules.yaml"))
        out = []
        for rule in core_rule_details():
            interp = rule.get("interpretation")
            reading = Interpretation.from_doc(interp) if interp else None
            out.append((rule["id"], rule["text"], reading))
        return out

    def bundled_scenarios(self) -> list[Scenario]:
        """Load the bundled scenarios, noting every scenario file (and the folder) as a
        dependency of this page; raises :class:`PerudoError` for a broken file."""
        note_lists_every_file(self.env)
        files = default_paths()
        for path in files:
            self.env.note_dependency(str(path))
        return load_scenarios(files)

    def scenarios_by_rule(self, vid: str) -> dict[str, list[str]]:
        """Rule id to the ids of the bundled scenarios that exercise it under ``vid``."""
        try:
            scenarios = self.bundled_scenarios()
        except PerudoError:
            return {}  # the scenario catalogue reports it, with file and line
        out: dict[str, list[str]] = {}
        for sc in scenarios:
            if vid in sc.variants:
                for rule in sc.rules:
                    out.setdefault(rule, []).append(sc.id)
        return out

    def store_folder(self) -> Path | None:
        """The folder of kept results (``perudo_cache_dir``, relative to the source
        directory; :mod:`perudo_rules.sphinxext.store`), or ``None``: keep nothing."""
        configured: str = self.config.perudo_cache_dir
        if not configured:
            return None
        return Path(self.env.srcdir) / configured

    def error_node(self, message: str) -> nodes.Node:
        """What the page shows where the directive could not load its data."""
        return nodes.paragraph(text=message, classes=["perudo-error"])


class OneVariantDirective(PerudoDirective):
    """A directive about the variant its argument names (an id or a path): a variant
    that cannot be loaded is a located warning and an error line on the page."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        vid = Path(self.arguments[0]).stem
        variant = self.load(self.arguments[0])
        if variant is None:
            return [self.error_node(f"Variant {vid!r} could not be loaded.")]
        return self.run_variant(vid, variant)

    def run_variant(self, vid: str, variant: Variant) -> list[nodes.Node]:
        """The nodes for the loaded ``variant`` (``vid``: its id as the argument names it)."""
        raise NotImplementedError
