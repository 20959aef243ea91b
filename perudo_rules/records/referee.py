"""The referee: does a game record obey its variant?

:func:`referee` replays a record step by step and returns a :class:`Verdict`:
valid (with the winner and a summary of every round) or the first
:class:`~perudo_rules.records.recordformat.Violation` (round, step, action, rule id, reason).
A record that cannot be read as one (bad JSON, wrong shape or types, unknown
keys, an unknown or invalid variant, too large) raises
:class:`~perudo_rules.records.recordformat.RecordError` instead.

A redacted record (``to_record(game, viewer=seat)``: the dice that seat never saw are
``null``) is checked as far as its public course goes: the seats, turn order, every
action's legality, who may call, every outcome and who opens next (the lifted cups
decide them all). What it cannot check, the faces of the hidden dice and the true count
of a round with a closed cup, the verdict lists in ``unchecked``, and its headline says
``legal, counts unchecked``, never ``valid``. A ``null`` where no redaction puts one (a cup
hidden in part, the viewer's own dice, a roll's die that no re-roll just before rolled) is
a :class:`~perudo_rules.records.recordformat.RecordError` at its key path
(:func:`~perudo_rules.records.redact.check_hidden`), and a violation quotes its step as
the file writes it, never with the faces put under hidden dice to follow the round.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from perudo_rules.base.actions import Calza, Dudo, Leave
from perudo_rules.base.i18n import ntr, tr
from perudo_rules.editions.corerules import Citation, cite
from perudo_rules.records.decided import citations_json, decided_by
from perudo_rules.records.describe import describe_result, describe_step
from perudo_rules.records.recordformat import RecordError, RecordViolation, Violation, load_record
from perudo_rules.records.redact import hidden_dice
from perudo_rules.records.replay import check_record, walk

if TYPE_CHECKING:
    from perudo_rules.engine.game import Game
    from perudo_rules.engine.rounds import RoundRecord

__all__ = ["RoundSummary", "Verdict", "referee"]


@dataclass(frozen=True, slots=True)
class RoundSummary:
    """One round as the referee saw it: opener, dice held, actions taken and the outcome,
    with the rules that decided a Dudo or Calza's outcome (``decided_by``,
    :func:`~perudo_rules.records.decided.decided_by`; empty for a round that did not end
    in a call, and for a redacted record's round whose count a closed cup hides)."""

    round: int
    first_player: int
    palifico: bool
    dice_counts: tuple[int, ...]
    actions: int
    outcome: str
    decided_by: tuple[Citation, ...] = ()


@dataclass(frozen=True, slots=True)
class Verdict:
    """The referee's answer. ``valid`` is true when no rule was broken; ``winner`` is
    ``None`` while the game is unfinished; ``violation`` the first broken rule (its
    structured refusal: rule id, message id, parameters) and ``citation`` where the
    edition states that rule (statement, rulebook section, original words).

    ``viewer`` is the seat a redacted record was written for (else ``None``: a full
    record, or the public one a spectator is given); then ``unchecked`` says what could
    not be checked (the hidden dice, the true counts of
    rounds with a closed cup), and :attr:`complete` is false while it says anything."""

    valid: bool
    variant: str
    seats: int
    winner: int | None
    rounds: tuple[RoundSummary, ...]
    violation: Violation | None = None
    citation: Citation | None = None
    viewer: int | None = None
    unchecked: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return self.valid

    @property
    def finished(self) -> bool:
        """Whether the recorded game reached its end."""
        return self.winner is not None

    @property
    def complete(self) -> bool:
        """Whether everything the record states was checked (nothing left ``unchecked``)."""
        return not self.unchecked

    def headline(self) -> str:
        """One line: ``valid: seat 2 wins ...``, ``violation: round 3, step 2 ...``, or for
        a redacted record ``legal, counts unchecked: ... (redacted for seat 1: ...)``."""
        if self.violation is not None:
            return tr("violation: {what}", what=self.violation)
        won = self.winner is not None
        end = tr("seat {n} wins", n=self.winner) if won else tr("game not finished")
        n = len(self.rounds)
        facts = {"end": end, "variant": self.variant, "seats": self.seats}
        if self.viewer is None and self.unchecked:  # a spectator's record: the public one
            return ntr(
                "legal, counts unchecked: {end} ({variant}, {seats} seats, {n} round; the "
                "public record, not checked: {missing})",
                "legal, counts unchecked: {end} ({variant}, {seats} seats, {n} rounds; the "
                "public record, not checked: {missing})",
                n,
                missing="; ".join(self.unchecked),
                **facts,
            )
        if self.viewer is None:
            return ntr(
                "valid: {end} ({variant}, {seats} seats, {n} round)",
                "valid: {end} ({variant}, {seats} seats, {n} rounds)",
                n,
                **facts,
            )
        if not self.unchecked:
            return ntr(
                "legal, all checked: {end} ({variant}, {seats} seats, {n} round; redacted "
                "for seat {viewer}, no die hidden)",
                "legal, all checked: {end} ({variant}, {seats} seats, {n} rounds; redacted "
                "for seat {viewer}, no die hidden)",
                n,
                viewer=self.viewer,
                **facts,
            )
        return ntr(
            "legal, counts unchecked: {end} ({variant}, {seats} seats, {n} round; redacted "
            "for seat {viewer}, not checked: {missing})",
            "legal, counts unchecked: {end} ({variant}, {seats} seats, {n} rounds; redacted "
            "for seat {viewer}, not checked: {missing})",
            n,
            viewer=self.viewer,
            missing="; ".join(self.unchecked),
            **facts,
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form of the verdict."""
        v = self.violation
        return {
            "valid": self.valid,
            "complete": self.complete,
            "viewer": self.viewer,
            "unchecked": list(self.unchecked),
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
                    "decided_by": citations_json(r.decided_by),
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


def _settled(rec: RoundRecord, after: tuple[int, ...]) -> tuple[int, ...]:
    """The dice counts as ``rec``'s round settled, ``after`` those of the next round (or of
    the game): a seat that left between rounds held what the round left it."""
    if not rec.left:
        return after
    res = rec.result
    lost = res.lost or (0,) * len(after)
    return tuple(
        len(rec.dice[s]) - lost[s] + (s == res.gainer) if s in rec.left else n
        for s, n in enumerate(after)
    )


def _winner(game: Game, i: int, rec: RoundRecord) -> int | None:
    """The winner to name after the ``i``-th round: the game's, if it ended there by the
    round itself (a leave between rounds is told after it)."""
    return game.winner if i + 1 == len(game.history) and not rec.left else None


def _summaries(
    game: Game | None, decided: Mapping[int, tuple[Citation, ...]]
) -> tuple[RoundSummary, ...]:
    if game is None:
        return ()
    out: list[RoundSummary] = []
    history = game.history
    for i, rec in enumerate(history):
        after = (
            tuple(len(c) for c in history[i + 1].dice) if i + 1 < len(history) else game.dice_counts
        )
        res = rec.result
        outcome = describe_result(res, _settled(rec, after), winner=_winner(game, i, rec))
        if rec.left:  # the seats that left before the next round was rolled (play.leave)
            told = [describe_step(Leave(s)) for s in rec.left]
            last = game.last_result
            if i + 1 == len(history) and last is not None and last.caller is None:
                told[-1] = describe_result(last, game.dice_counts, winner=game.winner)
            outcome = "; ".join([outcome, *told])
        out.append(
            RoundSummary(
                round=rec.round,
                first_player=rec.first_player,
                palifico=rec.palifico,
                dice_counts=tuple(len(c) for c in rec.dice),
                actions=len(rec.actions),
                outcome=outcome,
                decided_by=decided.get(i, ()),
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
    decided: dict[int, tuple[Citation, ...]] = {}  # round index -> its call's rules
    try:
        for state in walk(data, variant, every=False):
            if game is not None and len(state.history) > len(game.history):
                call = state.history[-1].actions[-1]
                index = len(state.history) - 1
                seen = hidden_dice(data["rounds"][index]) == 0  # a closed cup: no count
                if isinstance(call, Dudo | Calza) and seen:
                    decided[index] = decided_by(game, call, variant)
            game = state
    except RecordViolation as stop:
        violation = stop.violation
    except RecordError as exc:  # pragma: no cover - check_record validated the actions
        raise RecordError(exc.message, file=file, key_path=exc.key_path) from None
    viewer = data.get("viewer")
    return Verdict(
        valid=violation is None,
        variant=variant.id,
        seats=int(data["seats"]),
        winner=None if game is None or violation is not None else game.winner,
        rounds=_summaries(game, decided),
        violation=violation,
        citation=None if violation is None else cite(violation.rule, variant),
        viewer=viewer,
        unchecked=_unchecked(data, game) if "viewer" in data else (),
    )


def _unchecked(data: Mapping[str, Any], game: Game | None) -> tuple[str, ...]:
    """What a redacted record leaves unchecked: its hidden dice (their faces, so whether
    the deal was one), the true count of every round a call ended with a closed cup, and
    whether a seat whose dice are hidden held the faces its re-rolls set aside."""
    hidden = sum(hidden_dice(rnd) for rnd in data["rounds"])
    if not hidden:
        return ()
    out = [
        tr("the faces of {n} hidden die", n=hidden)
        if hidden == 1
        else tr("the faces of {n} hidden dice", n=hidden)
    ]
    history = () if game is None else game.history
    counted = [
        str(rec.round)
        for rec, rnd in zip(history, data["rounds"], strict=False)
        if rec.result.kind != "leave" and hidden_dice(rnd)
    ]
    if counted:
        if len(counted) == 1:
            out.append(tr("the true count of round {n} (play.count)", n=counted[0]))
        else:
            rounds = ", ".join(counted)
            out.append(tr("the true count of rounds {rounds} (play.count)", rounds=rounds))
    rerolls = sum(
        1
        for rnd in data["rounds"]
        for cup, later in zip(rnd["dice"], _rerollers(rnd), strict=False)
        if later and None in cup
    )
    if rerolls:  # reroll.*: a re-roll from hidden dice names faces the table cannot check
        out.append(
            tr("whether a seat held the dice its re-rolls set aside (play.reroll)")
            if rerolls == 1
            else tr(
                "whether {n} seats held the dice their re-rolls set aside (play.reroll)", n=rerolls
            )
        )
    return tuple(out)


def _rerollers(rnd: Mapping[str, Any]) -> list[bool]:
    """Whether each seat of a round (as written) re-rolled in it."""
    seats = {int(a.split(":", 1)[0]) for a in rnd["actions"] if ":reroll" in a}
    return [s in seats for s in range(len(rnd["dice"]))]
