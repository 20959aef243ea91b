"""Sphinx configuration of the perudo-rules spec (``make spec``)."""

from __future__ import annotations

import importlib.util

import perudo_rules

project = "perudo-rules"
author = "perudo-rules developers"
copyright = "perudo-rules developers"
release = version = perudo_rules.__version__

extensions = [
    "sphinx.ext.autodoc",
    "perudo_rules.sphinxext",
]

# perudo_rules.sphinxext: one page per bundled variant is written to editions/ at each
# build (gitignored; see docs/.gitignore), the simulation on the comparison page is small.
perudo_editions_dir = "editions"
perudo_sim_games = 60
perudo_sim_players = 6
perudo_sim_seed = 1
# The divergence witnesses the spec shows, computed ahead (they take seconds each, and the
# spec is built in three languages): `make spec-data` refreshes the file after a change to
# a variant file, the knob table or the search (perudo_rules.sphinxext.witnessdata); a pair
# the file lacks is searched at the build, with a warning.
perudo_witness_data = "_data/witnesses.json"
# The conformance runs and the simulation, kept for the next build with the same inputs
# (the Italian and Spanish builds of `make spec` read what the English one computed).
perudo_cache_dir = "_build/perudo-cache"

exclude_patterns = ["_build", ".gitignore"]
# Rule texts and quotes are shown exactly as the variant files write them.
smartquotes = False
templates_path: list[str] = []

autodoc_member_order = "bysource"
# The RL adapters and peers are optional extras: document them with stand-ins when absent.
autodoc_mock_imports = [
    m
    for m in ("pyspiel", "numpy", "gymnasium", "pettingzoo", "supersuit", "textarena")
    if importlib.util.find_spec(m) is None
]
autodoc_typehints = "description"
autodoc_default_options = {"members": True}

html_theme = "furo"
html_static_path = ["_static"]
html_css_files = ["perudo.css"]
# the comparison matrix's controls (progressive enhancement: the page reads without it)
html_js_files = [("perudo.js", {"defer": "defer"})]
html_title = "perudo-rules spec"
html_theme_options = {
    "navigation_with_keys": True,
}

# Sphinx's own i18n: the spec in English (the source), Italian and Spanish. `make spec`
# builds docs/_build/html (English) and docs/_build/html/it, .../es with -D language=it|es.
# The prose of the pages is translated by the catalogue docs/locale/<lang>/LC_MESSAGES/
# docs.po (one catalogue for every page: gettext_compact); the text the perudo-* directives
# generate (rule statements, interpretations, scenarios, labels) comes out already
# translated from the package's own catalogues (perudo_rules.base.i18n), by `language`.
language = "en"
locale_dirs = ["locale/"]
gettext_compact = "docs"
gettext_uuid = False
gettext_location = False
