"""A project whose variant file is broken: the build must warn with file and line."""

extensions = ["perudo_rules.sphinxext"]
perudo_variants_dir = "variants"
exclude_patterns = ["_build"]
smartquotes = False
