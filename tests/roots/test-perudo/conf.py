"""A tiny project for the perudo_rules.sphinxext tests: two variants of its own."""

extensions = ["perudo_rules.sphinxext"]
perudo_variants_dir = "variants"
perudo_editions_dir = "editions"
exclude_patterns = ["_build"]
smartquotes = False
