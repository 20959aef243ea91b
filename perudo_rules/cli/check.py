"""The ``check`` command: is each bid of a sequence a legal raise of the one before, and
may a Dudo or Calza be called (``--bids "3x4 calza"``, ``2:calza`` for seat 2)?

The bids are checked from a :class:`~perudo_rules.records.position.Position`: a fresh round
built from ``--players``/``--dice``/``--palifico``/``--round``, or one read with
``--position FILE.json`` in the JSON shape of a position plus actions (its actions
are played first; re-rolls and their rolls among them). ``--json`` prints the position
reached in the same shape. A re-roll among the bids (``reroll 5,5``, ``reroll.enabled``)
re-rolls its dice as they lay (as perft does, :func:`~perudo_rules.conform.perft.rolled_as_before`):
give its roll in a position file to choose the dice.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from perudo_rules.base.actions import Action, Bid, Calza, Dudo, Leave, Reroll, parse_action
from perudo_rules.base.i18n import ntr, tr
from perudo_rules.base.limits import (
    MAX_STEPS,
    short_number,
)
from perudo_rules.base.messages import Refusal
from perudo_rules.base.safetext import json_text, printable
from perudo_rules.base.table import format_table
from perudo_rules.conform.observe import outcome_of
from perudo_rules.conform.perft import rolled_as_before
from perudo_rules.conform.witnessfile import read_witness
from perudo_rules.editions.corerules import Citation, cite
from perudo_rules.editions.variant import Variant
from perudo_rules.editions.variantfile import load_variant
from perudo_rules.engine.game import Game
from perudo_rules.engine.start import seats_verdict
from perudo_rules.records.decided import citations_json, decided_by
from perudo_rules.records.describe import describe_result, sentence
from perudo_rules.records.position import (
    Position,
    Roll,
    Step,
    format_step,
    position_variant_file,
    read_position,
)

__all__ = [
    "BidVerdict",
    "check_bids",
    "fresh_position",
    "register",
]


@dataclass(frozen=True, slots=True)
class BidVerdict:
    """The verdict on one action (a bid, or a Dudo or Calza call): who acts, what bid
    stood before, and the :class:`~perudo_rules.base.messages.Refusal` of the rule that
    forbids it (``bid`` is the action checked) with that rule's :class:`Citation` in
    the edition: its statement, rulebook section and original words; after a legal
    re-roll, ``rolled`` is the roll that followed it; after a legal Dudo or Calza,
    ``decided_by`` cites the rules the kernel's decision trace names as deciding its
    outcome (who loses or gains a die, who opens next, whether that round is palifico,
    the winner), the deciding rule of each field once, in that order."""

    index: int
    bid: Action
    standing: Bid | None
    refusal: Refusal | None = None
    citation: Citation | None = None
    rolled: Roll | None = None
    decided_by: tuple[Citation, ...] = ()

    @property
    def legal(self) -> bool:
        """True when no rule forbids the bid."""
        return self.refusal is None

    @property
    def rule(self) -> str | None:
        """The rule id that forbids the bid, or ``None``."""
        return None if self.refusal is None else self.refusal.rule

    @property
    def reason(self) -> str | None:
        """Why, in one English sentence, or ``None``."""
        return None if self.refusal is None else self.refusal.message

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping: the refusal's rule, sentence, message id and parameters,
        and where the edition states the rule (statement, section, quote)."""
        out: dict[str, Any] = {
            "index": self.index,
            "seat": self.bid.player,
            "bid": str(self.bid),
            "standing": None if self.standing is None else str(self.standing),
            "legal": self.legal,
            "rule": self.rule,
            "reason": self.reason,
            **({} if self.rolled is None else {"rolled": str(self.rolled)}),
        }
        if self.refusal is not None:
            out["message_id"] = self.refusal.message_id
            out["params"] = dict(self.refusal.params)
            out["message"] = self.refusal.text()  # the sentence in --lang
        if self.citation is not None:
            out["statement"] = self.citation.statement
            out["source"] = self.citation.source
            out["quote"] = self.citation.quote
        if self.decided_by:
            out["decided_by"] = citations_json(self.decided_by)
        return out


def fresh_position(
    variant: Variant,
    players: int | None = None,
    dice: int | None = None,
    palifico: bool = False,
    round: int = 1,
) -> Position:
    """A fresh round of ``variant`` where seat 0 opens.

    ``players`` seats (default: the variant's most) hold ``dice`` dice each (default:
    ``dice.per_player``); with ``palifico`` seat 0 holds one die and opens a palifico
    round. Dice values never matter for legality, so every die shows the highest face.
    The sizes are checked against the variant before anything is built (``ValueError``).
    """
    rules = variant.rules
    # checked before the cups are built: --players 100000000 must cost nothing
    n = rules.players_max if players is None else players
    per = rules.dice_per_player if dice is None else dice
    most = rules.dice_max_per_player
    if type(per) is not int or not 1 <= per <= most:
        raise ValueError(
            tr(
                "--dice: {n} dice a seat; {edition} allows 1 to {most}",
                n=short_number(per),
                edition=variant.id,
                most=most,
            )
        )
    bad = seats_verdict(rules, n, variant.id)
    if bad is not None:
        raise ValueError(bad.text())  # in the language of the context
    cups = [(rules.dice_faces,) * per for _ in range(n)]
    if palifico:
        cups[0] = (rules.dice_faces,)
    return Position(tuple(cups), 0, palifico=palifico, round=round, variant=variant.ref or None)


def check_bids(
    variant: Variant,
    bids: list[str],
    players: int | None = None,
    dice: int | None = None,
    palifico: bool = False,
    round: int = 1,
    position: Position | None = None,
    before: Sequence[Step] = (),
) -> tuple[Game, list[BidVerdict]]:
    """Check ``bids`` (``"8x4"`` ...) in turn from ``position`` after the steps ``before``.

    ``position`` defaults to :func:`fresh_position` of the other arguments; at most
    :data:`~perudo_rules.base.limits.MAX_STEPS` bids are checked at once.
    A legal bid stands and passes the turn; an illegal one is refused and the same seat
    bids again, so later bids are checked against the last legal one.
    ``ValueError`` for a text that is not a bid, a position the variant does not allow,
    a step before that is illegal, or no seat to bid.
    """
    if len(bids) > MAX_STEPS:
        raise ValueError(
            ntr(
                "{n} bid; check takes at most {most} at once",
                "{n} bids; check takes at most {most} at once",
                len(bids),
                most=MAX_STEPS,
            )
        )
    if position is None:
        position = fresh_position(variant, players, dice, palifico, round)
    game = position.game(variant)
    for step in before:
        game = game.roll(dice=step.dice) if isinstance(step, Roll) else game.apply(step)
    parsed = [_parse(text) for text in bids]
    verdicts = []
    for i, raw in enumerate(parsed, 1):
        if game.to_move is None:
            raise ValueError(tr("step {step}: no seat is to act, the round is over", step=i))
        bid = raw(game.to_move) if callable(raw) else raw
        bad = game.violation(bid)
        if bad is None and isinstance(bid, Reroll):  # its dice come up as they lay
            roll = Roll(rolled_as_before(game, bid))
            verdicts.append(BidVerdict(i, bid, game.current_bid, rolled=roll))
            game = game.apply(bid).roll(dice=roll.dice)
        elif bad is None:
            decided: tuple[Citation, ...] = ()
            if isinstance(bid, (Dudo, Calza)):
                decided = decided_by(game, bid, variant)
            verdicts.append(BidVerdict(i, bid, game.current_bid, decided_by=decided))
            game = game.apply(bid)
        else:
            verdicts.append(BidVerdict(i, bid, game.current_bid, bad, cite(bad.rule, variant)))
    return game, verdicts


def _verdict_text(v: BidVerdict) -> str:
    """A verdict for the table: legal (a re-roll's dice as they came up), or the refusal."""
    if v.refusal is not None:
        return tr("ILLEGAL [{rule}] {reason}", rule=v.rule, reason=v.refusal.text())
    if v.rolled is not None:
        dice = " ".join(str(d) for cup in v.rolled.dice for d in cup)
        return tr("legal; the re-rolled dice come up {dice}", dice=dice)
    return tr("legal")


def _parse(text: str) -> Action | Callable[[int], Action]:
    """An action as ``check`` reads it: ``3x4``, ``dudo``, ``calza``, ``leave`` or
    ``reroll 5,5`` (by the seat to move when it is checked), or with a seat, ``2:calza``."""
    word = text.strip().lower()
    if ":" in word:
        return parse_action(word)
    calls: dict[str, type[Dudo | Calza | Leave]] = {"dudo": Dudo, "calza": Calza, "leave": Leave}
    if word in calls:
        call = calls[word]
        return lambda seat: call(seat)
    if word.startswith("reroll"):
        faces = parse_action(word, player=0)
        assert isinstance(faces, Reroll)
        return lambda seat: Reroll(seat, faces.set_aside)
    raw = Bid.parse(text)
    return lambda seat: Bid(seat, raw.quantity, raw.face)


#: One action of ``--bids``: a re-roll with its faces (``reroll 5,5``), or a word.
_TOKEN = re.compile(r"(?:\d+\s*:\s*)?reroll(?:[\s,]*\d+(?![\dx*]))*|[^\s,;]+", re.IGNORECASE)


def _split_bids(values: list[str]) -> list[str]:
    out = [m[0] for v in values for m in _TOKEN.finditer(v.strip())]
    if not out:
        raise ValueError(tr('no bids given (write them like --bids "8x4 5x1")'))
    return out


def _run_witness(path: str, as_json: bool) -> int:
    """Replay a witness file with the reference: the verdict on its ``then`` action at
    its position (and a call's outcome), beside what the engine did. Exit 0 when the
    reference answers as the witness records, 1 when it no longer does."""
    w = read_witness(path)
    game = w.position.game(w.variant)
    for step in w.steps:
        game = game.roll(dice=step.dice) if isinstance(step, Roll) else game.apply(step)
    doc = w.doc
    over = game.to_move is None
    if w.then is None:
        texts = [] if over else sorted(str(a) for a in game.legal_actions())
        answer: Any = "lists none (the game is over)" if over else texts
        said = tr("the reference lists: {actions}", actions=", ".join(texts) or "-")
    else:
        bad = game.violation(w.then)
        if bad is not None:
            answer = (
                "refuses it (the game is over)" if bad.rule == "play.game_over" else ("refuses it")
            )
            said = tr("the reference refuses {action}: {rule}: {why}", action=str(w.then),
                      rule=bad.rule, why=bad.message)  # fmt: skip
            said += "\n" + printable(cite(bad.rule, w.variant).line())
        elif isinstance(w.then, (Dudo, Calza)) and doc.get("ask") == "outcome":
            after = game.apply(w.then)
            result = after.last_result
            assert result is not None
            answer = outcome_of(game, after)
            told = describe_result(result, after.dice_counts, winner=after.winner)
            said = tr("the reference allows {action}; then: {outcome}", action=str(w.then),
                      outcome=told)  # fmt: skip
        else:
            answer = "allows it"
            said = tr("the reference allows {action} ({rule})", action=str(w.then),
                      rule=game.decision(w.then).rule)  # fmt: skip
    recorded = doc.get("reference")
    same = recorded is None or recorded == answer
    if as_json:
        print(json_text({"edition": w.variant.id, "then": doc.get("then"), "reference": answer,
                         "engine": doc.get("engine"), "rule": doc.get("rule"),
                         "as_recorded": same}))  # fmt: skip
        return 0 if same else 1
    print(tr("{name} ({id}), {position}", name=printable(tr(w.variant.name)),
             id=printable(w.variant.id), position=w.position.describe()))  # fmt: skip
    if w.steps:
        print(tr("after: {steps}", steps=" ".join(format_step(s) for s in w.steps)))
    print(said)
    if doc.get("engine") is not None:
        print(tr("the engine: {answer}", answer=printable(json.dumps(doc["engine"]))))
    if doc.get("rule"):
        knob = doc.get("knob") or {}
        cause = "; ".join(f"{p}: {json.dumps(v)}" for p, v in knob.items())
        if doc.get("scope") == "count" and cause:
            cause = tr("in the count only: {values}", values=cause)
        print(tr("root cause: {rule}", rule=doc["rule"]) + (f" ({cause})" if cause else ""))
    if not same:
        print(tr("The reference no longer answers as the witness records."))
    return 0 if same else 1


def _run(args: argparse.Namespace) -> int:
    if args.witness is not None:
        if args.variant is not None or args.bids is not None or args.position is not None:
            raise ValueError(
                tr("--witness names its edition, position and action: give it alone")
            )
        return _run_witness(args.witness, args.json)
    if args.variant is None or args.bids is None:
        raise ValueError(tr("give VARIANT and --bids, or --witness FILE"))
    variant = load_variant(args.variant)
    before: tuple[Step, ...] = ()
    written_for: str | None = None
    if args.position is not None:
        given = [
            args.players,
            args.dice,
            args.palifico or None,
            args.round if args.round != 1 else None,
        ]
        if any(x is not None for x in given):
            raise ValueError(tr("--position replaces --players, --dice, --palifico and --round"))
        position, before = read_position(args.position)
        named = position_variant_file(position, args.position)
        if named is not None and load_variant(named).id != variant.id:
            written_for = position.variant  # played under VARIANT all the same, and said so
    else:
        position = fresh_position(variant, args.players, args.dice, args.palifico, args.round)
    game, verdicts = check_bids(variant, _split_bids(args.bids), position=position, before=before)
    ok = all(v.legal for v in verdicts)
    if args.json:
        played = list(before)
        for v in verdicts:
            if v.legal:
                played += [v.bid] if v.rolled is None else [v.bid, v.rolled]
        data = {
            "variant": variant.id,
            "players": game.players,
            "dice": list(game.dice_counts),
            "palifico": game.palifico,
            "round": game.round,
            "legal": ok,
            "rulebook": variant.rulebook.get("title") if variant.rulebook else None,
            "bids": [v.to_dict() for v in verdicts],
            "position": position.to_json(played),
            "written_for": written_for,
        }
        print(json_text(data))
        return 0 if ok else 1
    # the round checked: after a call ended it, as it was before the call
    ended = game.history[-1] if game.to_move is None and game.history else None
    palifico = game.palifico if ended is None else ended.palifico
    held = game.dice_counts if ended is None else tuple(len(cup) for cup in ended.dice)
    facts = {
        "name": printable(tr(variant.name)),
        "id": printable(variant.id),
        "round": game.round,
        "players": game.players,
        "counts": " ".join(map(str, held)),
        "total": sum(held),
        "first": game.first_player,
    }
    if palifico:
        head = tr(
            "{name} ({id}): palifico round {round}, {players} seats holding {counts} dice "
            "({total} in play), seat {first} opens",
            **facts,
        )
    else:
        head = tr(
            "{name} ({id}): round {round}, {players} seats holding {counts} dice "
            "({total} in play), seat {first} opens",
            **facts,
        )
    print(head + (ntr(", after {n} step", ", after {n} steps", len(before)) if before else ""))
    if written_for is not None:
        print(tr("The position was written for {edition}; it is checked under {id}.",
                 edition=printable(written_for), id=printable(variant.id)))  # fmt: skip
    rows = [
        (
            v.index,
            v.bid.player,
            str(v.bid),
            "-" if v.standing is None else str(v.standing),
            _verdict_text(v),
        )
        for v in verdicts
    ]
    headers = [tr("#"), tr("seat"), tr("bid"), tr("standing bid"), tr("verdict")]
    print(format_table(headers, rows))
    bad = [v for v in verdicts if not v.legal]
    cited = {v.citation.rule: v.citation for v in bad if v.citation is not None}
    if cited:
        print()
    for citation in cited.values():  # one line a rule: statement, section, original words
        print(printable(citation.line()))
    print("\n" + _summary(verdicts, len(bad)))
    if ended is not None and args.position is not None:  # a call ended the round: how
        result = describe_result(ended.result, game.dice_counts, winner=game.winner)
        print()
        print(printable(sentence(f"{result}.")))
        call = next((v for v in reversed(verdicts) if v.decided_by), None)
        if call is not None:  # the rules that decided it: statement, section, words
            print(tr("Decided by these rules:"))
            for citation in call.decided_by:
                print("  " + printable(citation.line()))
    elif ended is not None:  # a fresh round's dice are placeholders: no outcome to tell
        print("\n" + tr("The call ends the round; give the dice with --position to see how."))
    return 0 if ok else 1


def _summary(verdicts: Sequence[BidVerdict], bad: int) -> str:
    bids = all(isinstance(v.bid, Bid) for v in verdicts)
    if len(verdicts) == 1:
        if bids:
            return tr("The bid is illegal.") if bad else tr("The bid is legal.")
        return tr("The action is illegal.") if bad else tr("The action is legal.")
    n, total = bad, len(verdicts)
    if bad:
        if bids:
            return tr("{n} of {total} bids illegal.", n=n, total=total)
        return tr("{n} of {total} actions illegal.", n=n, total=total)
    if bids:
        return tr("All {total} bids legal.", total=total)
    return tr("All {total} actions legal.", total=total)


def register(subparsers: Any) -> None:
    """Add the ``check`` command."""
    p = subparsers.add_parser(
        "check",
        help=tr("is each bid a legal raise of the one before, and if not which rule forbids it"),
        description=(
            tr(
                "Check a sequence of bids in a fresh round of VARIANT: seats bid in turn from "
                "seat 0; a legal bid stands, an illegal one is refused (naming the rule id and "
                "the reason) and the same seat bids again. Exit 0 if every bid is legal, 1 if "
                "some bid is illegal, 2 on bad input."
            )
        ),
    )
    p.add_argument(
        "variant",
        nargs="?",
        metavar="VARIANT",
        help=tr("a bundled id (see 'list') or a .yaml path"),
    )
    p.add_argument(
        "--witness",
        metavar="FILE.json",
        help=tr(
            "replay a witness file that 'conform' wrote (its edition, position and "
            "action): the reference's verdict there, beside what the engine did"
        ),
    )
    p.add_argument(
        "--bids",
        nargs="+",
        metavar="BIDS",
        help=(
            tr(
                'bids as QUANTITYxFACE and calls, e.g. --bids "8x4 5x1 calza" (spaces or commas '
                "between); dudo/calza is called by the seat to move, SEAT:calza by another seat"
            )
        ),
    )
    p.add_argument(
        "--palifico",
        action="store_true",
        help=tr("seat 0 holds one die and opens a palifico round"),
    )
    p.add_argument(
        "--players",
        type=int,
        metavar="N",
        help=tr("seats at the table (default: the variant's most)"),
    )
    p.add_argument(
        "--dice",
        type=int,
        metavar="N",
        help=tr("dice per seat (default: the variant's starting dice)"),
    )
    p.add_argument(
        "--round",
        type=int,
        default=1,
        metavar="N",
        help=tr("the round number of the game (default 1; matters for wild-opening rules)"),
    )
    p.add_argument(
        "--position",
        metavar="FILE.json",
        help=(
            tr(
                "start from this position instead (JSON: dice, first_player, palifico, round, "
                "palifico_used, and actions played before the bids)"
            )
        ),
    )
    p.add_argument("--json", action="store_true", help=tr("print JSON"))
    p.set_defaults(handler=_run)
