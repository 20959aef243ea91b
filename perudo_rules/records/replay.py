"""Replaying game records: a record checked, then followed through the engine step by step.

:func:`check_record` checks a record's shape and variant, :func:`walk` follows a checked
record and stops at the first step that breaks a rule, :func:`states` does both and yields
every position on the way, and :func:`replay` rebuilds the game. What a record holds, and
how a game is written as one, is :mod:`perudo_rules.records.record`;
:func:`perudo_rules.records.referee.referee` walks a record to say whether it obeys its
variant.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from perudo_rules.base.actions import Bid, Leave
from perudo_rules.base.errors import IllegalAction, VariantError
from perudo_rules.base.i18n import tr
from perudo_rules.base.limits import MAX_RECORD_BIDS
from perudo_rules.base.messages import Refusal
from perudo_rules.editions.variant import Variant
from perudo_rules.editions.variantfile import available_variants, variant_from_document
from perudo_rules.engine.game import Game
from perudo_rules.engine.rounds import RoundResult
from perudo_rules.engine.start import opening_verdict, seats_verdict
from perudo_rules.records.position import Position, Roll, Step, parse_step
from perudo_rules.records.record import bundled_variant, result_json
from perudo_rules.records.recordformat import (
    RecordError,
    RecordViolation,
    Violation,
    check_shape,
)
from perudo_rules.records.redact import check_hidden, hidden_dice, placeholders

__all__ = [
    "check_record",
    "rebuild",
    "replay",
    "states",
    "walk",
]

# --- checking -----------------------------------------------------------------------------


def _variant_of(data: Mapping[str, Any], file: str | None) -> Variant:
    ref = data["variant"]
    if isinstance(ref, str):
        if ref not in available_variants():
            known = ", ".join(available_variants())
            unknown = tr("unknown variant {id} (bundled: {known})", id=repr(ref), known=known)
            raise RecordError(unknown, file=file, key_path="variant")
        variant = bundled_variant(ref)
        assert variant is not None
        return variant
    try:
        # its ``extends`` follows the policy for files named in files: a document that is
        # not a file may name only a bundled id (variantfile.named_variant_file)
        return variant_from_document(ref, "<record variant>")
    except VariantError as exc:
        where = f"variant.{exc.key_path}" if exc.key_path else "variant"
        raise RecordError(f"bad variant: {exc.message}", file=file, key_path=where) from None


def check_record(data: Any, file: str | None = None) -> Variant:
    """Check that ``data`` is a well-formed record and return its variant.

    Raises :class:`RecordError` for anything malformed (shape, types, unknown
    keys, sizes, an unknown or invalid variant); rule violations are left to
    :func:`states`.
    """
    check_shape(data, file)
    check_hidden(data, file)
    variant = _variant_of(data, file)
    faces = variant.rules.dice_faces
    work = sum(faces * sum(len(cup) for cup in rnd["dice"]) for rnd in data["rounds"])
    if work > MAX_RECORD_BIDS:
        raise RecordError(
            tr(
                "record too large to referee: its rounds rank {n} bids in all (limit {most})",
                n=work,
                most=MAX_RECORD_BIDS,
            ),
            file=file,
        )
    return variant


# --- replay -------------------------------------------------------------------------------


def _starter_rule(res: RoundResult) -> str:
    if res.next_palifico:
        return "play.palifico_opener"
    if res.kind == "leave":
        return "leave.next_starts"
    return "round.starter" if res.kind == "dudo" else "calza.next_starts"


_RESULT_RULES = {
    "kind": "play.dudo",
    "caller": "play.dudo",
    "bid": "play.dudo",
    "count": "play.count",
    "loser": "play.dudo",
    "gainer": "play.calza",
    "revealed": "play.reveal",
    "next_player": "round.starter",
    "next_palifico": "palifico.trigger",
}


#: The sentence of each field of a result the record states otherwise than the rules.
_RESULT_MESSAGES = {
    "kind": "record-result-kind",
    "caller": "record-result-caller",
    "bid": "record-result-bid",
    "count": "record-result-count",
    "loser": "record-result-loser",
    "gainer": "record-result-gainer",
    "revealed": "record-result-revealed",
    "next_player": "record-result-next-player",
    "next_palifico": "record-result-next-palifico",
}


#: The fields of a result that name a seat or none (``null``), each with its sentence for
#: a record that names none where the rules name one, and for the other way round.
_NO_SEAT = {
    "loser": ("record-result-loser-none", "record-result-loser-extra"),
    "gainer": ("record-result-gainer-none", "record-result-gainer-extra"),
    "next_player": ("record-result-next-player-none", "record-result-next-player-extra"),
}


def _check_result(
    stated: Mapping[str, Any], res: RoundResult, number: int, hidden: bool = False
) -> None:
    """``RecordViolation`` unless ``stated`` agrees with ``res``; with ``hidden`` (a round
    of a redacted record with a hidden die) the true count is not compared."""
    actual = result_json(res)
    for key, value in stated.items():
        if actual[key] != value and not (hidden and key == "count"):
            rule = _RESULT_RULES[key]
            if res.kind == "calza" and rule == "play.dudo":
                rule = "play.calza"
            if res.kind == "leave" and key != "next_player":
                rule = "play.leave"
            if key == "next_player":
                rule = _starter_rule(res)
            message = _RESULT_MESSAGES[key]
            said = {"stated": _shown(value, key), "actual": _shown(actual[key], key)}
            if key in _NO_SEAT and value is None:  # no seat: never "seat null"
                message, said = _NO_SEAT[key][0], {"actual": said["actual"]}
            elif key in _NO_SEAT and actual[key] is None:
                message, said = _NO_SEAT[key][1], {"stated": said["stated"]}
            refusal = Refusal(rule, message, said)
            raise RecordViolation(Violation(number, 0, None, refusal))


def _shown(value: Any, key: str) -> str:
    """A value of a result in a sentence: a call by its name (Dudo, Calza), a text (a bid)
    as it is, anything else as its JSON."""
    if key == "kind" and value in ("dudo", "calza"):
        return str(value).capitalize()
    return value if isinstance(value, str) else json.dumps(value)


#: The key of a round (step 0) each sentence is about, where it is one key of the round.
_ROUND_KEY = {
    "record-cups": "dice",
    "record-two-seats": "dice",
    "start-dice": "dice",
    "record-round-number": "round",
    "start-round": "round",
    "record-opener": "first_player",
    "record-opener-without-dice": "first_player",
    "start-first-player": "first_player",
    "record-palifico-expected": "palifico",
    "record-palifico-unexpected": "palifico",
    "record-no-palifico": "palifico",
    "record-palifico-opener": "palifico",
    "start-palifico": "palifico",
    "start-palifico-used": "palifico",
    "record-result-without-call": "result",
    "record-lifted-cup-hidden": "result.revealed",
    **{message: f"result.{key}" for key, message in _RESULT_MESSAGES.items()},
    **{message: f"result.{key}" for key, pair in _NO_SEAT.items() for message in pair},
}
#: The sentences about one seat's cup of a round (step 0): its key is ``dice.<seat>``.
_CUP_MESSAGES = frozenset({"record-not-a-face", "record-too-many-dice", "record-rolled"})


def _key_path(rounds: Sequence[Mapping[str, Any]], index: int, violation: Violation) -> str:
    """The record's key path of the value ``violation`` (in the round at ``index`` of
    ``rounds``) is about: an action (``rounds.0.actions.3``), a key of the round
    (``rounds.0.first_player``, ``rounds.0.dice.2``, ``rounds.0.result.loser``), or a key
    of the record (``seats``, ``winner``)."""
    here = f"rounds.{index}"
    if violation.step > 0:
        return f"{here}.actions.{violation.step - 1}"
    message = violation.refusal.message_id
    if message.startswith("seats-") or (
        # every round with the same number of cups, other than seats: seats is at fault
        message == "record-cups" and index == 0 and len({len(r["dice"]) for r in rounds}) == 1
    ):
        return "seats"
    if message.startswith("record-winner-"):
        return "winner"
    if message == "record-round-not-ended" and index > 0:
        return f"rounds.{index - 1}.actions"  # the round before ends without a call
    if message in _CUP_MESSAGES:
        seat = violation.refusal.params["seat"]
        cup = rounds[index]["dice"][seat]
        die = violation.refusal.params.get("die")
        if message == "record-not-a-face" and die in cup:
            return f"{here}.dice.{seat}.{cup.index(die)}"
        return f"{here}.dice.{seat}"
    key = _ROUND_KEY.get(message)
    return f"{here}.{key}" if key else here


def _start_round(
    game: Game | None, rnd: Mapping[str, Any], variant: Variant, data: Mapping[str, Any]
) -> Game:
    rules = variant.rules
    number = rnd["round"]
    dice = rnd["dice"]
    seats = data["seats"]

    def stop(rule: str, message_id: str, **params: int | str) -> RecordViolation:
        return RecordViolation(Violation(number, 0, None, Refusal(rule, message_id, params)))

    if len(dice) != seats:
        raise stop("play.roll", "record-cups", cups=len(dice), seats=seats)
    for seat, cup in enumerate(dice):
        for d in cup:
            if not 1 <= d <= rules.dice_faces:
                faces = rules.dice_faces
                raise stop("play.roll", "record-not-a-face", seat=seat, die=d, faces=faces)
        if len(cup) > rules.dice_max_per_player:
            too_many = {"seat": seat, "held": len(cup), "most": rules.dice_max_per_player}
            raise stop("dice.max_per_player", "record-too-many-dice", **too_many)
    if game is None:
        return _first_round(rnd, variant, data, stop)
    if game.winner is not None:
        raise stop("play.game_over", "record-game-over", winner=game.winner)
    if not game.awaiting_roll:
        raise stop("play.roll", "record-round-not-ended")
    prev = game.last_result
    assert prev is not None and prev.next_player is not None  # the game goes on
    if number != game.round + 1:
        raise stop("play.roll", "record-round-number", previous=game.round, round=number)
    for seat, (cup, held) in enumerate(zip(dice, game.dice_counts, strict=True)):
        if len(cup) != held:
            rolled = {"seat": seat, "rolled": len(cup), "held": held, "round": game.round}
            raise stop("play.roll", "record-rolled", **rolled)
    if rnd["first_player"] != prev.next_player:
        expected, seat = prev.next_player, rnd["first_player"]
        raise stop(_starter_rule(prev), "record-opener", expected=expected, seat=seat)
    if rnd["palifico"] != prev.next_palifico:
        said = "record-palifico-expected" if prev.next_palifico else "record-palifico-unexpected"
        raise stop("play.leave" if prev.kind == "leave" else "palifico.trigger", said)
    return game.roll(dice=dice)  # the checks above leave roll() nothing to refuse


def _first_round(
    rnd: Mapping[str, Any],
    variant: Variant,
    data: Mapping[str, Any],
    stop: Callable[..., RecordViolation],
) -> Game:
    """The game at the record's first round, every check of :meth:`Game.start` made first
    so that each refusal names its rule and its values."""
    rules = variant.rules
    number, dice, seats, first = rnd["round"], rnd["dice"], data["seats"], rnd["first_player"]
    bad = seats_verdict(rules, seats, variant.id)
    if bad is not None:
        raise RecordViolation(Violation(number, 0, None, bad))
    setup = data.get("setup")
    counts = [len(cup) for cup in dice]
    used: Sequence[int] = ()
    if setup is None:
        bad = opening_verdict(rules, counts, first, rnd["palifico"], number)
        if bad is not None:
            raise RecordViolation(Violation(number, 0, None, bad))
    else:
        used = setup.get("palifico_used", ())
    if first >= seats or not dice[first]:
        raise stop("play.next_seat", "record-opener-without-dice", seat=first)
    if sum(1 for c in counts if c) < 2:
        raise stop("play.roll", "record-two-seats")
    if rnd["palifico"]:
        if not rules.palifico_enabled:
            raise stop("palifico.enabled", "record-no-palifico", edition=variant.id)
        if counts[first] != 1:
            held = counts[first]
            raise stop("play.palifico_opener", "record-palifico-opener", seat=first, held=held)
    cups = tuple(tuple(cup) for cup in dice)
    return Position(cups, first, rnd["palifico"], number, tuple(used)).game(variant)


def _bids(game: Game, actions: Sequence[str]) -> tuple[Game, int]:
    """The game after the legal bids that open ``actions``, and how many there were.

    The kernel judges each bid against a growing list and the game is built once, so a
    round of n bids costs O(n) (applying them one by one copies the bids so far each
    time: O(n^2)). The first action that is not a legal bid is left to the caller.
    """
    rr = game.round_rules
    to_move = game.to_move
    if to_move is None:
        return game, 0
    bids = list(game.bids)
    done = 0
    for text in actions:
        action = parse_step(text)
        if type(action) is not Bid or rr.verdict(to_move, bids, action) is not None:
            break
        bids.append(action)
        to_move = rr.successor[action.player]
        done += 1
    if done:
        game = dataclasses.replace(game, bids=tuple(bids), to_move=to_move)
    return game, done


def _reroll_step(game: Game, step: Step, number: int, at: int, text: str) -> Game:
    """The game after the chance step of a re-roll inside a round (``step``: its roll)."""

    def stop(message_id: str, **params: int | str) -> RecordViolation:
        refusal = Refusal("play.roll", message_id, params)
        return RecordViolation(Violation(number, at, text, refusal))

    if not game.awaiting_roll:
        raise stop("record-no-reroll-waiting")
    if not isinstance(step, Roll):
        assert game.reroll is not None
        raise stop("reroll-dice-in-the-air", seat=game.reroll.steps[-1].action.player)
    counts = game.roll_counts
    if len(step.dice) != len(counts):
        raise stop("record-cups", cups=len(step.dice), seats=len(counts))
    faces = game.rules.dice_faces
    for seat, (cup, held) in enumerate(zip(step.dice, counts, strict=True)):
        for d in cup:
            if not 1 <= d <= faces:
                raise stop("record-not-a-face", seat=seat, die=d, faces=faces)
        if len(cup) != held:
            raise stop("record-rerolled", seat=seat, rolled=len(cup), held=held)
    return game.roll(dice=step.dice)


def walk(data: Mapping[str, Any], variant: Variant, *, every: bool = True) -> Iterator[Game]:
    """Every position of a record already checked by :func:`check_record` (which gave
    ``variant``): each round's start and the game after each action.

    With ``every=False`` the positions between the bids of a round are skipped (each
    round's start, the game after its last bid, after its Dudo or Calza, are yielded),
    and the replay takes time linear in the number of bids: what :func:`replay` and
    the referee use. Raises :class:`RecordViolation` at the first step that breaks a
    rule; its ``violation`` says where and which. :func:`states` checks the record first.

    A redacted record (``viewer``) is walked with a placeholder face under every hidden
    die: the positions are not the game's, but its course is, for no legality nor any
    outcome depends on a closed cup (a reveal stops early only where the cups lifted
    decide the outcome, :func:`~perudo_rules.engine.settlement.reveal`);
    the true count of a round with a hidden die is not compared, and a lifted cup that
    the record hides is a violation (``play.reveal``).
    """
    at = [0]  # the index in rounds of the round walked
    try:
        yield from _walk(data, variant, every, at)
    except RecordViolation as stop:
        if not stop.key_path:
            stop.key_path = _key_path(data["rounds"], at[0], stop.violation)
        bad = stop.violation
        if bad.step > 0:  # the action as the file writes it: never a placeholder's face
            written = data["rounds"][at[0]]["actions"][bad.step - 1]
            stop.violation = dataclasses.replace(bad, action=written)
            stop.args = (str(stop.violation),)
        raise


def _walk(
    data: Mapping[str, Any], variant: Variant, every: bool, at: list[int]
) -> Iterator[Game]:
    """:func:`walk`, keeping in ``at[0]`` the index in ``rounds`` of the round walked."""
    game: Game | None = None
    faces = variant.rules.dice_faces
    for index, rnd in enumerate(data["rounds"]):
        at[0] = index
        number = rnd["round"]
        closed: list[int] = []
        unseen = hidden_dice(rnd) > 0
        if unseen:
            rnd, closed = placeholders(rnd, faces)
        game = _start_round(game, rnd, variant, data)
        yield game
        actions: Sequence[str] = rnd["actions"]
        skipped = 0
        if not every:
            game, skipped = _bids(game, actions)
            if skipped:
                yield game
        for step, text in enumerate(actions[skipped:], start=skipped + 1):
            action = parse_step(text)
            between = game.to_move is None and not game.is_over and type(action) is Leave
            if (game.is_over or game.to_move is None) and not between:  # play.leave: a leave
                rule = "play.game_over" if game.is_over else "play.roll"  # may follow the call
                ended = Refusal(rule, "record-after-end", {})
                raise RecordViolation(Violation(number, step, text, ended))
            if isinstance(action, Roll) or (game.awaiting_roll and type(action) is not Leave):
                game = _reroll_step(game, action, number, step, text)
                yield game
                continue
            bad = game.violation(action)
            if bad is not None:
                raise RecordViolation(Violation(number, step, text, bad))
            try:
                game = game.apply(action)
            except IllegalAction as exc:  # pragma: no cover - violation() said it was legal
                raise RecordViolation(Violation(number, step, text, exc.refusal)) from None
            yield game
        stated = rnd.get("result")
        # the round's own result (last_result is a later leave's, play.leave)
        own = game.history[-1].result if game.to_move is None else None
        res = own if closed else None
        if res is not None:  # a redacted record shows every cup the table saw lifted
            # the record's own reveal first: a hidden lifted cup changes the replay's reveal
            told = [s for s in (stated or {}).get("revealed", ()) if s in closed]
            replayed = sorted(set(res.revealed) & set(closed))
            if told or replayed:
                seat = (told or replayed)[0]
                hidden = Refusal("play.reveal", "record-lifted-cup-hidden", {"seat": seat})
                raise RecordViolation(Violation(number, 0, None, hidden))
        if stated is not None:
            if own is None:
                unended = Refusal("play.dudo", "record-result-without-call", {})
                raise RecordViolation(Violation(number, 0, None, unended))
            _check_result(stated, own, number, unseen)
    assert game is not None
    if "winner" in data and data["winner"] != game.winner:
        last = data["rounds"][-1]["round"]
        if game.winner is None:
            unfinished = {"seat": data["winner"]}
            wrong = Refusal("play.elimination", "record-winner-unfinished", unfinished)
        else:
            stated = {"winner": game.winner, "stated": json.dumps(data["winner"])}
            wrong = Refusal("play.elimination", "record-winner-differs", stated)
        raise RecordViolation(Violation(last, 0, None, wrong))


def _not_redacted(record: Mapping[str, Any], file: str | None) -> None:
    if "viewer" in record and record["viewer"] is None:
        raise RecordError(
            tr(
                "the record is the public one, a spectator's: the dice under closed cups are "
                "hidden (null), and a game cannot be rebuilt without them (referee() checks "
                "it as far as it can; write to_record(game, full=True) to keep every die)"
            ),
            file=file,
            key_path="viewer",
        )
    if "viewer" in record:
        raise RecordError(
            tr(
                "the record is redacted for seat {seat}: the dice that seat never saw are "
                "hidden (null), and a game cannot be rebuilt without them (referee() checks a "
                "redacted record as far as it can)",
                seat=record["viewer"],
            ),
            file=file,
            key_path="viewer",
        )


def states(record: Mapping[str, Any], file: str | None = None) -> Iterator[Game]:
    """Every position of a record in order: each round's start and the game after each action.

    Raises :class:`RecordError` if the record is malformed or breaks a rule
    (``.violation`` then says where and which), or is redacted (as :func:`replay`).
    """
    variant = check_record(record, file)
    _not_redacted(record, file)
    try:
        yield from walk(record, variant)
    except RecordViolation as stop:
        raise RecordError(str(stop.violation), file=file, violation=stop.violation) from None


def replay(record: Mapping[str, Any], file: str | None = None) -> Game:
    """Rebuild the game of ``record`` step by step and return its final position.

    ``replay(to_record(game, full=True))`` equals ``game`` in every public field. Raises
    :class:`RecordError` if the record is malformed or breaks a rule, and for a redacted
    record (``viewer``): a game needs every die, and the record hides some; the referee
    checks what it can of one.
    """
    return _last(record, file, lambda stop: RecordError(
        str(stop.violation), file=file, violation=stop.violation))  # fmt: skip


def rebuild(record: Mapping[str, Any]) -> Game:
    """:func:`replay` for a record held in a document: every :class:`RecordError` names
    the record's key path of the value at fault (``rounds.0.actions.3``,
    ``rounds.1.first_player``, ``winner``; its ``violation`` says which rule) and its
    message is the reason alone, without the round and step."""

    def said(stop: RecordViolation) -> RecordError:
        reason = f"{stop.violation.refusal.text()} [{stop.violation.rule}]"
        return RecordError(reason, key_path=stop.key_path, violation=stop.violation)

    return _last(record, None, said)


def _last(
    record: Mapping[str, Any], file: str | None, said: Callable[[RecordViolation], RecordError]
) -> Game:
    """The final position of ``record`` (checked, not redacted), its first broken rule
    raised as ``said`` words it."""
    variant = check_record(record, file)
    _not_redacted(record, file)
    game: Game | None = None
    try:
        for state in walk(record, variant, every=False):
            game = state
    except RecordViolation as stop:
        raise said(stop) from None
    assert game is not None
    return game
