"""Floor 2, the editions: rules as data.

The knob space (:mod:`~perudo_rules.editions.knobs`: every rule that may differ between
editions), the rules between knobs (:mod:`~perudo_rules.editions.crossknob`), the JSON
Schema generated from them, loading and merging variant files
(:mod:`~perudo_rules.editions.variantfile`) into the variant they state
(:mod:`~perudo_rules.editions.variant`), its values typed for the engine
(:mod:`~perudo_rules.editions.ruleset`), the text of the fixed core rules and the
citation of a rule in an edition (:mod:`~perudo_rules.editions.corerules`), and where the
bundled data lives (:mod:`~perudo_rules.editions.datafiles`).
"""
