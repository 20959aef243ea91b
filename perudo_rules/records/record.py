"""Game records: a JSON format for whole games, like PGN is for chess.

A record holds everything needed to rebuild a game without the files that
defined its variant::

    {
      "format": "perudo-rules-record",
      "version": 1,
      "variant": "italian",
      "seats": 3,
      "rounds": [
        {"round": 1, "first_player": 2, "palifico": false,
         "dice": [[1, 4, 4, 6, 2], [3, 3, 5, 1, 6], [2, 2, 4, 6, 6]],
         "actions": ["2:3x4", "0:4x4", "1:dudo"],
         "result": {"kind": "dudo", "caller": 1, "bid": "4x4", "count": 5, ...}},
        ...
      ],
      "winner": 2
    }

* ``variant`` is a bundled variant id when the game ran on an unmodified bundled
  edition; otherwise the complete variant document, as a variant file without
  ``extends`` would state it: the variant's exact ``id``, ``name``,
  ``description`` and ``rulebook``, and every knob with its merged value and its
  documentation (``text``, ``source``, ``quote``, ``interpretation``) where it has
  any. That is all a :class:`~perudo_rules.editions.variant.Variant` compares equal by, so
  the replayed variant equals the one played. On input a document may also
  ``extend`` a bundled id.
* Each round lists the dice of every seat as it began (``[]`` for a seat that is out)
  and the actions in order, each ``"seat:QxF"`` (a bid), ``"seat:dudo"``,
  ``"seat:calza"`` or ``"seat:reroll F,F"`` (a re-roll, ``reroll.enabled``), each re-roll
  followed by the chance step that rolled its dice, ``"roll [[], [2, 5], []]"`` (one list
  per seat, only the re-roller's dice), and after the call that ended it ``"seat:leave"``
  for each seat that left before the next round was rolled (``play.leave``): the JSON
  shape of a position plus actions (:mod:`perudo_rules.records.position`), with
  ``palifico_used`` stated once, in ``setup``.
  ``result`` (how the round ended) is for readers; when present it must agree
  with the rules. The last round may be unfinished.
* ``viewer`` (optional) marks a *redacted* record, the one a seat may be given
  (``to_record(game, viewer=seat)``): its own cups and the cups lifted at a reveal are
  shown as the table saw them, every other die is ``null``, and ``count`` is ``null``
  in a round with a hidden die; ``"viewer": null`` the public one, a spectator's
  (``to_record(game)``, the default), where only the cups lifted at a reveal are shown.
  A record without ``viewer`` holds every die (``to_record(game, full=True)``). The
  referee checks a redacted record as far as the public course goes (turn order, every
  action's legality, every outcome, which only lifted cups decide) and says what it could
  not check; :func:`~perudo_rules.records.replay.replay` refuses it (a
  game needs every die).
* ``setup`` (optional, like PGN's SetUp tag) marks a game that started from an
  explicit position (:meth:`Game.start`): its first round may have any number,
  dice counts and palifico flag, and ``setup.palifico_used`` lists the seats that
  already had their palifico round when it started (as :meth:`Game.start` was given
  them; the first round's own palifico player is implied). Without it the game
  starts from the standard position that :func:`perudo_rules.engine.start.opening` deals
  (:func:`perudo_rules.engine.start.opening_verdict`).

:func:`to_record` writes a record; :mod:`perudo_rules.records.replay` rebuilds the game
from one (:func:`~perudo_rules.records.replay.replay`), and
:func:`perudo_rules.records.referee.referee` says whether a record obeys its variant. The
file format itself (constants, errors, the schema, reading and the shape check) is
:mod:`perudo_rules.records.recordformat`; ``spec/record.schema.json`` is its
:func:`~perudo_rules.records.recordformat.schema_json`, and a test keeps it fresh.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Sequence
from typing import Any

from perudo_rules.base.actions import Action, Leave, Reroll
from perudo_rules.base.seatcheck import check_seat
from perudo_rules.editions.knobs import KNOB_PATHS
from perudo_rules.editions.variant import Interpretation, Knob, Variant
from perudo_rules.editions.variantfile import available_variants, load_variant
from perudo_rules.engine.game import Game
from perudo_rules.engine.rounds import RoundRecord, RoundResult
from perudo_rules.engine.start import opening_verdict
from perudo_rules.records.position import Position, Roll, Step
from perudo_rules.records.recordformat import FORMAT, VARIANT_ID_PATTERN, VERSION
from perudo_rules.records.redact import redact

__all__ = [
    "bundled_variant",
    "record_variant",
    "result_json",
    "to_record",
]

_ID_RE = re.compile(VARIANT_ID_PATTERN)


@functools.cache
def bundled_variant(variant_id: str) -> Variant | None:
    """The bundled edition ``variant_id``, loaded once; ``None`` if there is none."""
    if variant_id not in available_variants():
        return None
    return load_variant(variant_id)


def _slug(text: str) -> str:
    slug = re.sub(r"[^a-z0-9_-]+", "-", text.lower()).strip("-_")
    return slug if slug and _ID_RE.match(slug) else "house-rules"


def _interpretation_doc(reading: Interpretation) -> dict[str, Any]:
    out: dict[str, Any] = {
        "chosen": reading.chosen,
        "alternative": reading.alternative,
        "reason": reading.reason,
    }
    if reading.override is not None:
        out["override"] = dict(reading.override)
    if reading.inexpressible is not None:
        out["inexpressible"] = reading.inexpressible
    return out


def _knob_doc(knob: Knob) -> Any:
    """A knob as a variant file states it: the bare value, or the documented mapping."""
    if knob.text is None or knob.source is None:
        return knob.value
    out: dict[str, Any] = {"value": knob.value, "text": knob.text, "source": knob.source}
    if knob.quote is not None:
        out["quote"] = knob.quote
    if knob.interpretation is not None:
        out["interpretation"] = _interpretation_doc(knob.interpretation)
    return out


def record_variant(variant: Variant) -> str | dict[str, Any]:
    """How a record names ``variant``: its id if it is an unmodified bundled edition,
    else the complete variant document (id, name, description, rulebook, where the
    rulebook states the fixed rules, and every knob with its value and documentation), from
    which the same variant loads again.

    An id that a variant document cannot hold (a file name outside
    ``[a-z0-9_-]``) is written as a slug of it, the one thing that does not come back.
    """
    if bundled_variant(variant.id) == variant:
        return variant.id
    # built once per variant and copied through its JSON text (a quarter of the cost);
    # name, description and rulebook are in the key: Variant equality ignores them
    rulebook = None if variant.rulebook is None else tuple(variant.rulebook.items())
    core = tuple((rid, src.source, src.quote) for rid, src in variant.core.items())
    try:
        text = _document_text(variant, variant.name, variant.description, rulebook, core)
    except TypeError:  # a value that cannot be hashed (a variant built by hand)
        return _document(variant)
    doc: dict[str, Any] = json.loads(text)
    return doc


def _document(variant: Variant) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "id": variant.id if _ID_RE.match(variant.id) else _slug(variant.id),
        "name": variant.name,
        "description": variant.description,
    }
    if variant.rulebook is not None:
        doc["rulebook"] = dict(variant.rulebook)
    if variant.core:  # where its rulebook states the fixed rules, for their citations
        doc["core"] = {
            rid: {"source": src.source, **({"quote": src.quote} if src.quote else {})}
            for rid, src in variant.core.items()
        }
    for path in KNOB_PATHS:
        section, knob = path.split(".", 1)
        doc.setdefault(section, {})[knob] = _knob_doc(variant.knob(path))
    return doc


@functools.lru_cache(maxsize=64)
def _document_text(
    variant: Variant,
    name: str,
    description: str,
    rulebook: tuple[tuple[str, str], ...] | None,
    core: tuple[tuple[str, str, str | None], ...],
) -> str:
    return json.dumps(_document(variant))


def result_json(res: RoundResult) -> dict[str, Any]:
    """How a record states the result of a round (its ``result``)."""
    return {
        "kind": res.kind,
        "caller": res.caller,
        "bid": None if res.bid is None else str(res.bid),
        "count": None if res.kind == "leave" else res.count,
        "loser": res.loser,
        "gainer": res.gainer,
        "revealed": list(res.revealed),
        "next_player": res.next_player,
        "next_palifico": res.next_palifico,
    }


def _steps(
    actions: Sequence[Action], rerolls: Sequence[tuple[int, ...]], seats: int
) -> list[Step]:
    """A round's actions with the chance step of each re-roll after it: the roll of the
    dice it re-rolled (``rerolls``, in order; a re-roll still to be rolled has none)."""
    out: list[Step] = []
    rolled = iter(rerolls)
    for a in actions:
        out.append(a)
        if type(a) is Reroll:
            dice = next(rolled, None)
            if dice:  # () when its seat left before its dice were rolled
                out.append(Roll(tuple([dice if s == a.player else () for s in range(seats)])))
    return out


def _round_json(position: Position, steps: Sequence[Step]) -> dict[str, Any]:
    """A round in the JSON shape of a position plus actions; a record states
    ``palifico_used`` once for the game (``setup``), not per round."""
    out = position.to_json(steps)
    del out["palifico_used"]
    out.setdefault("actions", [])
    return out


def _round_dict(rec: RoundRecord) -> dict[str, Any]:
    start = Position(rec.dice, rec.first_player, rec.palifico, rec.round)
    # the seats that left once it had ended, before the next round was rolled, after its call
    steps = _steps((*rec.actions, *[Leave(s) for s in rec.left]), rec.rerolls, len(rec.dice))
    out = _round_json(start, steps)
    out["result"] = result_json(rec.result)
    return out


def to_record(game: Game, viewer: int | None = None, *, full: bool = False) -> dict[str, Any]:
    """The record of ``game`` so far, JSON-ready: every round's dice and actions, as far as
    its reader may see them.

    By default the public record, the one a spectator may be given: every die no seat
    showed the table is ``null`` (the cups lifted at a reveal stay, as the table saw them),
    ``"viewer": null`` says so, and the true count of a round with a hidden die is
    ``null``. With ``viewer`` (a seat, checked: :func:`~perudo_rules.base.seatcheck.check_seat`),
    the record that seat may be given: its own cups too, ``viewer`` its seat. Either
    reveals exactly what :meth:`Game.observation <perudo_rules.engine.game.Game.observation>`
    (``None`` for a spectator) and :meth:`RoundRecord.seen_by
    <perudo_rules.engine.game.RoundRecord.seen_by>` show. Only ``full=True`` (and no
    viewer) writes every die, the record that :func:`~perudo_rules.records.replay.replay`
    rebuilds: ``replay(to_record(game, full=True))`` equals ``game`` in every public field.
    An unfinished round is recorded as far as it went.
    """
    if full and viewer is not None:
        raise ValueError("to_record: full=True writes every die; a viewer's record hides some")
    if viewer is not None:
        viewer = check_seat(viewer, game.players, "viewer")
    rounds = [_round_dict(r) for r in game.history]
    if game.to_move is not None:
        assert game.first_player is not None
        start = Position(game.dealt, game.first_player, game.palifico, game.round)
        rolled = () if game.reroll is None else game.reroll.rolled
        steps = _steps(game.actions, rolled, game.players)
        rounds.append(_round_json(start, steps))
    # the set-up's palifico_used as the first round began (Game.start adds a palifico
    # round's own player, so it is left implied)
    used_at_start = game.history[0].palifico_used if game.history else game.palifico_used
    first = rounds[0]
    if first["palifico"]:
        used_at_start = used_at_start - {first["first_player"]}
    used_before = sorted(used_at_start)
    counts = [len(cup) for cup in first["dice"]]
    standard = (
        opening_verdict(
            game.rules,
            counts,
            first["first_player"],
            first["palifico"],
            first["round"],
            used_before,
        )
        is None
    )
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "variant": record_variant(game.variant),
        "seats": game.players,
    }
    if not full:
        out["viewer"] = viewer
        redact(rounds, [rec.result.revealed for rec in game.history], viewer)
    if not standard:
        out["setup"] = {"palifico_used": used_before}
    out["rounds"] = rounds
    out["winner"] = game.winner
    return out
