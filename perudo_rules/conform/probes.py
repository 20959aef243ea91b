"""Targeted probes: for each rule an edition decides, positions where that rule decides.

Random games reach the common rules often and the rare ones seldom or never. A
:class:`Probe` is a point of play built for one rule: a position, the steps played to
it, and the action whose verdict (or, for a call, whose outcome) the rule decides
there; at that point the engine is also asked every seat's legal actions. For a knob,
the point is one where the edition and the edition with the knob set otherwise
answer differently, so that an engine playing the other value is caught there; for a
fixed rule, one where the kernel's decision trace names it as the deciding rule.

They are found by walking small positions of the edition itself (:func:`find_probes`,
about a second), so an edition file has its own; the bundled editions' are published in
``spec/probes/<edition>.json`` (:func:`probes_text`).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from perudo_rules.base.actions import Action, Bid, Calza, Dudo, format_action, parse_action
from perudo_rules.base.errors import IllegalAction
from perudo_rules.conform.flips import UNFLIPPED, alternatives, flipped
from perudo_rules.editions.corerules import core_rules
from perudo_rules.editions.knobs import KNOB_PATHS, KNOBS
from perudo_rules.editions.variant import Variant
from perudo_rules.editions.variantfile import available_variants, data_dir, load_variant
from perudo_rules.engine.game import Game
from perudo_rules.records.position import Position, Roll, Step, format_step, parse_line

__all__ = [
    "Probe",
    "distinguishing",
    "find_probes",
    "probes_dir",
    "probes_document",
    "probes_for",
    "probes_text",
]


@dataclass(frozen=True, slots=True)
class Probe:
    """A point built for ``rule``: ``position`` and ``steps`` lead to it; ``action`` is
    judged there (``None``: only the legal actions are compared); ``apart`` is true for a
    probe that tells the knob's value from ``against``, its other value (which may be
    ``None``), false for one where the kernel's trace names ``rule`` deciding."""

    rule: str
    position: Position
    steps: tuple[Step, ...]
    action: Action | None = None
    against: Any = None
    apart: bool = False

    def to_json(self) -> dict[str, Any]:
        """The probe as published."""
        return {"rule": self.rule, "position": self.position.to_json(),
                "steps": [format_step(s) for s in self.steps],
                "action": None if self.action is None else format_action(self.action),
                **({"against": self.against} if self.apart else {})}  # fmt: skip

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Probe:
        """The probe :meth:`to_json` wrote."""
        position, steps = parse_line(dict(doc["position"], actions=doc["steps"]))
        action = None if doc["action"] is None else parse_action(doc["action"])
        apart = "against" in doc
        return cls(doc["rule"], position, steps, action, doc.get("against"), apart)


@functools.lru_cache(maxsize=64)
def _probes_of(variant: Variant) -> tuple[Probe, ...]:
    if variant.id in available_variants() and variant == load_variant(variant.id):
        path = probes_dir() / f"{variant.id}.json"
        if path.is_file():  # a bundled edition's, published
            doc = json.loads(path.read_text(encoding="utf-8"))
            return tuple(Probe.from_json(p) for p in doc["probes"])
    return tuple(find_probes(variant))


def probes_dir() -> Path:
    """Where the bundled editions' probes are published: ``spec/probes/``."""
    return data_dir("spec") / "probes"


def probes_text(variant_id: str) -> str:
    """The text of ``spec/probes/<variant_id>.json``: the probes :func:`find_probes` finds
    (``tools/generate.py`` writes it, a test keeps it fresh)."""
    found = find_probes(load_variant(variant_id))
    doc = {"edition": variant_id, "probes": [p.to_json() for p in found]}
    return json.dumps(doc, indent=1) + "\n"


def probes_for(variant: Variant) -> list[Probe]:
    """The probes of ``variant``: a bundled edition's as published, another's found (once
    per edition, and kept)."""
    return list(_probes_of(variant))


# --- finding them -----------------------------------------------------------------------

#: Points of play walked per edition when looking for probes (a bound on the work).
MAX_POINTS = 3000


def _starts(variant: Variant) -> Iterator[Position]:
    """Small starts, in a fixed order: two and three seats (and a seat that is out), one
    or two dice each, cups of one face and mixed (the wild face among them), ordinary
    and palifico rounds, with and without seats that had their palifico round."""
    rules = variant.rules
    faces = rules.dice_faces
    wild = rules.wild
    low = 1 if wild != 1 else 2
    high = faces if wild != faces else faces - 1
    face_sets = [(high, high), (low, wild or high), (wild or low, low), (high, low)]
    layouts = [(2, 2), (1, 1, 2), (1, 2, 2), (2, 0, 2), (1, 2), (2, 1, 2), (2, 2, 2), (1, 1),
               (2, 1), (2, 2, 1), (2, 2, 2, 2)]  # fmt: skip
    # every layout early: the kinds of start vary slowest, the layouts fastest
    kinds = [(fs, first, used, pal) for fs in face_sets for first in (0, 1, 2)
             for used in (False, True) for pal in (False, True)]  # fmt: skip
    for fs, first, any_used, pal in kinds:
        for counts in layouts:
            seats = len(counts)
            if not rules.players_min <= seats <= rules.players_max or first >= seats:
                continue
            if not counts[first] or (pal and counts[first] != 1):
                continue
            dice = tuple(
                tuple([fs[s % 2], *(fs[(s + 1) % 2] for _ in range(c - 1))]) if c else ()
                for s, c in enumerate(counts)
            )
            used = tuple(s for s in range(seats) if counts[s]) if any_used else ()
            yield Position(dice, first, pal, 3 if pal else 2, used)
            if not pal and not any_used:
                yield Position(dice, first, False, 1, ())


def _points(variant: Variant) -> Iterator[tuple[Position, tuple[Step, ...], Game]]:
    """Points of play from :func:`_starts`: the start, and after one or two bids (a few
    spread over the table, and those that are exactly right, where Calza and the exact
    Dudo decide)."""
    for pos in _starts(variant):
        try:
            game = pos.game(variant)
        except ValueError:
            continue
        yield pos, (), game
        for a in _some_bids(game, 5):
            after = game.apply(a)
            yield pos, (a,), after
            for b in _some_bids(after, 3):
                yield pos, (a, b), after.apply(b)


def _some_bids(game: Game, spread: int) -> list[Bid]:
    bids = [a for a in game.legal_actions() if isinstance(a, Bid)]
    some = bids[:: max(1, len(bids) // spread)][:spread]
    rr = game.round_rules
    exact = [b for b in bids if b.quantity == rr.count(game.dice, b.face)]
    return list(dict.fromkeys([*some, *exact[:3]]))


def _answers(game: Game) -> dict[str, Any]:
    """Every answer of the rules at a point: each legal action, and each call's outcome."""
    out: dict[str, Any] = {}
    for a in game.legal_actions():
        text = format_action(a)
        if isinstance(a, (Dudo, Calza)):
            after = game.apply(a)
            res = after.last_result
            assert res is not None
            out[text] = (after.dice_counts, res.next_player, res.next_palifico, after.winner)
        else:
            out[text] = True
    return out


def _differs(base: dict[str, Any], other: dict[str, Any]) -> str | None:
    """The first action whose answer differs between two points' answers."""
    for text in sorted(set(base) | set(other)):
        if base.get(text) != other.get(text):
            return text
    return None


def find_probes(variant: Variant, max_points: int = MAX_POINTS) -> list[Probe]:
    """The probes of ``variant``: for each other value of each knob it reads, the first
    point (of :func:`_points`) where that value answers otherwise; for each rule (a knob
    or a fixed rule), the first point where the kernel's trace names it as deciding an
    action or a field of an outcome."""
    values = variant.values()
    wanted: dict[tuple[str, str], tuple[str, Any, Variant]] = {}
    for path, value in alternatives(variant):
        spec = next(k for k in KNOBS if k.path == path)
        if spec.never_read or not all(c.holds(_with_seats(values)) for c in spec.read_when):
            continue
        other = flipped(variant, {path: value})
        if other is not None:
            wanted[(path, repr(value))] = (path, value, other)
    # every rule the protocol observes, reached where the kernel's trace names it deciding
    fixed = ({*core_rules(), *KNOB_PATHS} - UNFLIPPED) - {
        "play.leave", "play.reveal", "play.public_counts", "play.roll",
    }  # fmt: skip
    found: list[Probe] = []
    for n, (pos, steps, game) in enumerate(_points(variant)):
        if n >= max_points or (not wanted and not fixed):
            break
        base = _answers(game)
        if n >= max_points // 3:
            wanted.clear()  # values not told apart by now seldom are: the rules go on
        for key, (path, value, other) in list(wanted.items()):
            there = _replayed(other, pos, steps)
            if there is None:
                continue
            text = _differs(base, _answers(there))
            if text is not None:
                found.append(Probe(path, pos, steps, parse_action(text), value, apart=True))
                del wanted[key]
        for a in [*game.legal_actions(), *_refused(game)]:
            legal = game.violation(a) is None
            rules = game.outcome_decision(a) if legal and isinstance(a, (Dudo, Calza)) else None
            deciding = {game.decision(a).rule} | (
                {r[0] for r in rules.values()} if rules else set()
            )
            for rule in sorted(deciding & fixed):
                found.append(Probe(rule, pos, steps, a))
                fixed.discard(rule)
    return found


def distinguishing(a: Variant, b: Variant, max_points: int = 4000) -> Probe | None:
    """The first point (of ``a``'s walk) where editions ``a`` and ``b`` answer otherwise,
    as a probe of the action whose answer differs; ``None`` if none is found."""
    for n, (pos, steps, game) in enumerate(_points(a)):
        if n >= max_points:
            return None
        there = _replayed(b, pos, steps)
        if there is None:
            continue
        text = _differs(_answers(game), _answers(there))
        if text is not None:
            return Probe("", pos, steps, parse_action(text))
    return None


def _with_seats(values: dict[str, Any]) -> dict[str, Any]:
    return dict(values, seats=values["players.max"])


def _replayed(variant: Variant, pos: Position, steps: tuple[Step, ...]) -> Game | None:
    try:
        game = pos.game(variant)
        for s in steps:
            assert not isinstance(s, Roll)
            game = game.apply(s)
    except (ValueError, IllegalAction):
        return None
    return game


def _refused(game: Game) -> list[Action]:
    """Actions the rules refuse at a point, one of each kind: a call before any bid or by
    a seat that is out, a bid out of turn, bids out of every range."""
    to_move = game.to_move
    assert to_move is not None
    faces = game.rules.dice_faces
    out: list[Action] = [Dudo(to_move), Calza(to_move)]
    for seat, held in enumerate(game.dice_counts):
        if not held:
            out.append(Dudo(seat))
        elif seat != to_move:
            out.append(Bid(seat, game.dice_in_play, faces))
    out += [Bid(to_move, 0, 2), Bid(to_move, 1, faces + 1)]
    return out


def probes_document(variant: Variant) -> dict[str, Any]:
    """The probes of an edition as JSON (the spec's conformance page shows them)."""
    return {"edition": variant.id, "probes": [p.to_json() for p in probes_for(variant)]}
