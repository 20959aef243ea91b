"""Floor 3, the engine: the rules kernel and the immutable game that asks it.

Bid ranks (:mod:`~perudo_rules.engine.ranks`), every decision that varies between editions
(:mod:`~perudo_rules.engine.kernel`, with the deal in :mod:`~perudo_rules.engine.start`, how a
called round settles in :mod:`~perudo_rules.engine.settlement`, the re-roll in
:mod:`~perudo_rules.engine.reroll` and a seat leaving in :mod:`~perudo_rules.engine.leaving`),
legal actions as a view, rounds and what a seat sees, the
:class:`~perudo_rules.engine.game.Game` value, the fast path for whole random games and the
integer action ids the RL adapters share.
"""
