"""The referee: does a game record obey its variant?

:func:`referee` replays a record step by step and returns a :class:`Verdict`:
valid (with the winner and a summary of every round) or the first
:class:`~perudo_rules.recordformat.Violation` (round, step, action, rule id, reason).
A record that cannot be read as one (bad JSON, wrong shape or types, unknown
keys, an unknown or invalid variant, too large) raises
:class:`~perudo_rules.recordformat.RecordError` instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from perudo_rules.describe import describe_result
from perudo_rules.i18n import tr
from perudo_rules.record import check_record, walk
from perudo_rules.recordformat import RecordError, RecordViolation, Violation, load_record
from perudo_rules.rules import Citation, cite

if TYPE_CHECKING:
    from perudo_rules.game import Game

__all__ = ["RoundSummary", "Verdict", "referee"]


@dataclass(frozen=True, slots=True)
class RoundSummary:
    """One round as the referee saw it: opener, dice held, actions taken and the outcome."""

    round: int
    first_player: int
    palifico: bool
    dice_counts: tuple[int, ...]
    actions: int
    outcome: str


@dataclass(frozen=True, slots=True)
class Verdict:
    """The referee's answer. ``valid`` is true when no rule was broken; ``winner`` is
    ``None`` while the game is unfinished; ``violation`` the first broken rule (its
    structured refusal: rule id, message id, parameters) and ``citation`` where the
    edition states that rule (statement, rulebook section, original words)."""

    valid: bool
    variant: str
    seats: int
    winner: int | None
    rounds: tuple[RoundSummary, ...]
    violation: Violation | None = None
    citation: Citation | None = None

    def __bool__(self) -> bool:
        return self.valid

    @property
    def finished(self) -> bool:
        """Whether the recorded game reached its end."""
        return self.winner is not None

    def headline(self) -> str:
        """One line: ``valid: seat 2 wins ...`` or ``violation: round 3, step 2 ...``."""
        if self.violation is not None:
            return tr("violation: {what}", what=self.violation)
        won = self.winner is not None
        end = tr("seat {n} wins", n=self.winner) if won else tr("game not finished")
        facts = {"end": end, "variant": self.variant, "seats": self.seats, "n": len(self.rounds)}
        return tr("valid: {end} ({variant}, {seats} seats, {n} rounds)", **facts)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form of the verdict."""
        v = self.violation
        return {
            "valid": self.valid,
            "variant": self.variant,
            "seats": self.seats,
            "winner": self.winner,
            "rounds": [
                {
                    "round": r.round,
                    "first_player": r.first_player,
                    "palifico": r.palifico,
                    "dice_counts": list(r.dice_counts),
                    "actions": r.actions,
                    "outcome": r.outcome,
                }
                for r in self.rounds
            ],
            "violation": None if v is None else {**v.to_json(), **self._cited()},
        }

    def _cited(self) -> dict[str, Any]:
        c = self.citation
        if c is None:
            return {}
        return {"statement": c.statement, "source": c.source, "quote": c.quote}


def _summaries(game: Game | None) -> tuple[RoundSummary, ...]:
    if game is None:
        return ()
    out: list[RoundSummary] = []
    history = game.history
    for i, rec in enumerate(history):
        after = (
            tuple(len(c) for c in history[i + 1].dice) if i + 1 < len(history) else game.dice_counts
        )
        out.append(
            RoundSummary(
                round=rec.round,
                first_player=rec.first_player,
                palifico=rec.palifico,
                dice_counts=tuple(len(c) for c in rec.dice),
                actions=len(rec.actions),
                outcome=describe_result(
                    rec.result, after, winner=game.winner if i + 1 == len(history) else None
                ),
            )
        )
    if game.to_move is not None:
        assert game.first_player is not None
        out.append(
            RoundSummary(
                round=game.round,
                first_player=game.first_player,
                palifico=game.palifico,
                dice_counts=game.dice_counts,
                actions=len(game.bids),
                outcome=tr("unfinished; seat {n} to move", n=game.to_move),
            )
        )
    return tuple(out)


def referee(record: Mapping[str, Any] | str | Path, file: str | None = None) -> Verdict:
    """Judge a record (a parsed JSON object, or the path of a record file).

    Returns a :class:`Verdict`; raises :class:`RecordError` if the input is not
    a well-formed record.
    """
    if isinstance(record, str | Path):
        file = str(record)
        data: Any = load_record(record)
    else:
        data = record
    variant = check_record(data, file)
    game: Game | None = None
    violation: Violation | None = None
    try:
        for state in walk(data, variant, every=False):
            game = state
    except RecordViolation as stop:
        violation = stop.violation
    except RecordError as exc:  # pragma: no cover - check_record validated the actions
        raise RecordError(exc.message, file=file, key_path=exc.key_path) from None
    return Verdict(
        valid=violation is None,
        variant=variant.id,
        seats=int(data["seats"]),
        winner=None if game is None or violation is not None else game.winner,
        rounds=_summaries(game),
        violation=violation,
        citation=None if violation is None else cite(violation.rule, variant),
    )
