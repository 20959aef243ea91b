"""The kernel's decision trace: which rules decided an action, or each field of a round's
outcome.

The kernel's functions (:meth:`RoundRules.verdict <perudo_rules.engine.kernel.RoundRules.verdict>`
and the verdicts it asks, :func:`~perudo_rules.engine.reroll.verdict_with_rerolls`,
:func:`~perudo_rules.engine.settlement.settle`) take an optional recorder, a :class:`Trace`
(an :class:`OutcomeTrace` for a settlement: one per outcome field), and note in it, as
they branch, every rule id they read and the one that decided. Without a recorder
(``None``, the default) they record nothing and cost nothing more than that check.
:meth:`Game.decision <perudo_rules.engine.game.Game.decision>` and
:meth:`Game.outcome_decision <perudo_rules.engine.game.Game.outcome_decision>` hand the
answer out as a :class:`Decision` and a mapping of rule ids by field.

A rule id is a knob path of :mod:`perudo_rules.editions.knobs` or a fixed rule of
``spec/core-rules.yaml``. Plain typed Python, like the kernel (``mypyc`` compiles it).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["OUTCOME_FIELDS", "Decision", "OutcomeTrace", "Trace"]

#: The fields of a called round's outcome that :class:`OutcomeTrace` explains.
OUTCOME_FIELDS: tuple[str, ...] = ("delta", "next", "palifico", "eliminated", "winner")


@dataclass(frozen=True, slots=True)
class Decision:
    """Why an action is legal or refused: ``rules``, the rule ids that decided, the deciding
    (most specific) one first, then the others the kernel read on the way, in the order it
    read them; ``legal``, whether the action is allowed."""

    rules: tuple[str, ...]
    legal: bool

    @property
    def rule(self) -> str:
        """The deciding rule: the one that allowed the action, or refused it (the
        :class:`~perudo_rules.base.messages.Refusal`'s ``rule``)."""
        return self.rules[0]


class Trace:
    """A recorder the kernel notes rule ids in as it decides one thing: every rule it read
    (:meth:`read`), in order, and the one that decided (:meth:`decide`, the first such
    call; :meth:`overrule` when a later rule replaces that decision)."""

    __slots__ = ("decider", "seen")

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.decider: str | None = None

    def read(self, rule: str) -> None:
        """Note that ``rule`` was read (once: a rule read again keeps its place)."""
        if rule not in self.seen:
            self.seen.append(rule)

    def decide(self, rule: str) -> None:
        """Note that ``rule`` decided, unless a rule decided already (a more specific one:
        the kernel asks the specific rules first)."""
        self.read(rule)
        if self.decider is None:
            self.decider = rule

    def overrule(self, rule: str) -> None:
        """Note that ``rule`` decided, replacing the rule that had (read before it)."""
        self.read(rule)
        self.decider = rule

    def rules(self, first: str | None = None) -> tuple[str, ...]:
        """The rule ids, the deciding one first (``first`` if given, else the one noted),
        then the others in the order they were read."""
        head = first if first is not None else self.decider
        if head is None:
            return tuple(self.seen)
        return (head, *[r for r in self.seen if r != head])

    def decision(self, refusal_rule: str | None) -> Decision:
        """The :class:`Decision` of a verdict: refused by ``refusal_rule``, or (``None``)
        allowed by the rule noted as deciding."""
        if refusal_rule is not None:
            return Decision(self.rules(refusal_rule), False)
        assert self.decider is not None, "a legal verdict noted no deciding rule"
        return Decision(self.rules(), True)


class OutcomeTrace:
    """One :class:`Trace` per field of a called round's outcome (:data:`OUTCOME_FIELDS`):
    the dice each seat lost or gained (``delta``), who opens the next round (``next``),
    whether it is palifico (``palifico``), the seats put out (``eliminated``) and the
    winner (``winner``)."""

    __slots__ = ("delta", "eliminated", "next", "palifico", "winner")

    def __init__(self) -> None:
        self.delta = Trace()
        self.next = Trace()
        self.palifico = Trace()
        self.eliminated = Trace()
        self.winner = Trace()

    def as_dict(self) -> dict[str, tuple[str, ...]]:
        """The rule ids of each field, the deciding one first."""
        return {
            "delta": self.delta.rules(),
            "next": self.next.rules(),
            "palifico": self.palifico.rules(),
            "eliminated": self.eliminated.rules(),
            "winner": self.winner.rules(),
        }
