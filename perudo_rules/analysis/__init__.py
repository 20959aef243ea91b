"""Floor 5, analysis: what the rules do in play.

Exact odds (:mod:`~perudo_rules.analysis.probability`), bots and simulated games, and the
divergence witnesses: small situations where two editions disagree because of one rule,
or the proof that the rule makes no difference.
"""
