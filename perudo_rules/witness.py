"""Divergence witnesses: a smallest concrete situation where two variants disagree.

For every knob (rule id) whose value differs between variants ``a`` and ``b``,
:func:`find_witnesses` searches for a small position, a bid history and one
decisive action such that the action is legal in one variant and illegal in the
other, or the round resolves differently (who loses, which cups are lifted, who
opens next, whether the next round is a palifico round), or a new game starts
differently (who opens, the dice, or one variant refusing the number of players).

The search is generic: it knows no rule. For a knob ``k`` it builds the *hybrid*
variant, ``a`` with only ``k`` set to ``b``'s value (or ``b`` with ``a``'s value
when that one is not consistent), so that any divergence between the base and
the hybrid is caused by ``k`` alone. It then walks small positions breadth-first
over action sequences, in passes from cheap to dear (2 to 4 seats, 1 to
``max_dice`` dice a seat, and the fewest seats holding their starting dice, one or two
bids a round, then a second round; ordinary
and palifico starts, round 1 and a later round, no seat or every seat having had
its palifico, a few seeded dice rolls; explored bids are the lowest legal bid on
each face, and every Dudo and Calza), comparing at every node the legal actions
of both engines and, after a Dudo or Calza, the whole resolved state. When
nothing diverges in play it compares new games (:meth:`Game.new`) of 2 to 10
players over a range of seeds. A node budget bounds the work per knob.

Each candidate is replayed in the full variants. It is *confirmed* when the full
variants diverge there as the hybrid pair did, and the counterfactual holds: the
full variant with only ``k`` set back behaves like the other one on the decisive
points (so ``k``, not another differing rule, makes the difference). The first
confirmed candidate is the witness; if none is, the first hybrid divergence is
reported unconfirmed, with a note; a knob for which nothing diverges at all gets
a witness of kind ``"none"`` that says so (presentation-only rules like a name).

Everything is deterministic: same variants, same witnesses.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from perudo_rules.actions import Action, Bid, Dudo
from perudo_rules.describe import describe_result, describe_step
from perudo_rules.errors import PerudoError, VariantError
from perudo_rules.game import Game, roll_die
from perudo_rules.i18n import tr
from perudo_rules.position import Position, Roll, Step, format_step
from perudo_rules.start import seats_verdict
from perudo_rules.variant import Variant, differing_knobs, format_value, load_variant

__all__ = [
    "NewGame",
    "SearchLimits",
    "Start",
    "Witness",
    "find_witness",
    "find_witnesses",
]


@dataclass(frozen=True, slots=True)
class NewGame:
    """A new game ``Game.new(variant, players=players, seed=seed)``: where a setup witness
    begins (who opens and the dice depend on the variant)."""

    players: int
    seed: int

    def game(self, variant: Variant) -> Game:
        """The new game under ``variant`` (``ValueError`` if it refuses ``players``)."""
        return Game.new(variant, players=self.players, seed=self.seed)

    def describe(self) -> str:
        """One sentence: the number of players and the seed."""
        return tr("A new game of {n} players rolled from seed {s}", n=self.players, s=self.seed)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready mapping: ``{"players": n, "seed": s}``."""
        return {"players": self.players, "seed": self.seed}


Start = Position | NewGame
"""Where a witness begins: a :class:`~perudo_rules.position.Position` or a :class:`NewGame`."""


@dataclass(frozen=True, slots=True)
class Witness:
    """A concrete situation where two variants disagree because of one rule.

    ``rule`` is the knob path that differs, ``values`` its value per variant id,
    ``variants`` the two ids. ``kind`` is ``"legality"`` (``action`` is legal in
    one, illegal in the other), ``"resolution"`` (``action``, a Dudo or Calza,
    resolves differently), ``"setup"`` (a new game from ``start.seed`` starts
    differently; ``action`` is ``None``) or ``"none"`` (no divergence found;
    ``note`` says why). ``start`` (a :class:`~perudo_rules.position.Position`, or a
    :class:`NewGame` for a setup witness) and ``actions`` (steps before the decisive
    one, :class:`~perudo_rules.position.Roll` between rounds) give the position;
    ``outcomes`` one short text per variant id; ``confirmed`` is true when the
    divergence was replayed in both full variants.
    """

    rule: str
    values: Mapping[str, Any]
    variants: tuple[str, str]
    kind: str
    start: Start | None
    actions: tuple[Step, ...]
    action: Action | None
    outcomes: Mapping[str, str]
    confirmed: bool
    note: str = ""
    searched: int = field(default=0, compare=False)

    def describe(self) -> str:
        """One readable paragraph."""
        a, b = self.variants
        vals = f"{a} has {format_value(self.values[a])}, {b} has {format_value(self.values[b])}"
        head = f"{self.rule} ({vals})"
        if self.kind == "none":
            return f"{head}: {self.note}"
        assert self.start is not None
        if self.kind == "setup":
            text = (
                f"{head}: {self.start.describe()}: under {a} {self.outcomes[a]}; "
                f"under {b} {self.outcomes[b]}."
            )
        else:
            assert self.action is not None
            steps = ", ".join(describe_step(s) for s in self.actions)
            if self.kind == "legality":
                act = describe_step(self.action, gerund=True)
                sentence = (
                    f"{act} is {self.outcomes[a]} under {a} but {self.outcomes[b]} under {b}."
                )
                if steps:
                    sentence = f"After {steps}, {sentence}"
            else:
                act = describe_step(self.action)
                sentence = f"{steps}, then {act}" if steps else act
                sentence += f". Under {a}: {self.outcomes[a]}. Under {b}: {self.outcomes[b]}."
            text = f"{head}: {self.start.describe()}. {sentence[0].upper()}{sentence[1:]}"
        if not self.confirmed:
            text += f" (Not confirmed in the full variants: {self.note})"
        return text

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping. ``start`` is the position in its JSON shape with the
        steps before the decisive one as ``actions`` (``"0:3x4"``, ``"roll [[..]]"``),
        or ``{"players", "seed"}`` for a new game; ``action`` is the decisive one."""
        start: dict[str, Any] | None = None
        if isinstance(self.start, Position):
            start = self.start.to_json(self.actions)
            start.setdefault("actions", [])
        elif self.start is not None:
            start = self.start.to_json()
        return {
            "rule": self.rule,
            "values": dict(self.values),
            "variants": list(self.variants),
            "kind": self.kind,
            "start": start,
            "action": None if self.action is None else format_step(self.action),
            "outcomes": dict(self.outcomes),
            "confirmed": self.confirmed,
            "note": self.note,
            "description": self.describe(),
        }


@dataclass(frozen=True, slots=True)
class SearchLimits:
    """Bounds of the witness search (all small: witnesses are meant to be read)."""

    max_seats: int = 4
    max_dice: int = 3
    seeds: int = 2
    max_bids: int = 2
    max_rounds: int = 2
    node_budget: int = 5000
    setup_seeds: int = 100
    setup_seats: int = 10
    #: Most dice rolled for new games per knob (fewer seeds for games of many dice).
    setup_dice: int = 50_000


# --- comparing two engines -----------------------------------------------------------------


def _legal_key(g: Game) -> tuple[Any, ...]:
    """The legal actions of ``g`` in a cheaply comparable form (equal iff the sets are equal)."""
    legal = g.legal_actions()
    table = g.space.bids
    return (
        g.to_move,
        frozenset(table[r] for r in legal.bid_ranks),
        frozenset(legal[len(legal.bid_ranks) :]),
    )


def _state(g: Game) -> tuple[Any, ...]:
    return (
        g.dice_counts,
        g.to_move,
        g.palifico,
        g.palifico_player,
        g.palifico_used,
        g.winner,
        g.last_result,
    )


def _action_key(a: Action) -> tuple[int, int, int, int]:
    if isinstance(a, Bid):
        return (2, a.player, a.quantity, a.face)
    return (0 if isinstance(a, Dudo) else 1, a.player, 0, 0)


def _legality_text(g: Game, a: Action) -> str:
    bad = g.violation(a)
    return tr("legal") if bad is None else tr("illegal [{r}: {why}]", r=bad.rule, why=bad.text())


def _resolution_text(g: Game) -> str:
    r = g.last_result
    assert r is not None
    return describe_result(r, g.dice_counts, winner=g.winner)


def _setup_texts(ga: Game | str, gb: Game | str) -> tuple[str, str]:
    counts_differ = (
        isinstance(ga, Game) and isinstance(gb, Game) and ga.dice_counts != gb.dice_counts
    )
    texts = []
    for g in (ga, gb):
        if isinstance(g, str):
            texts.append(tr("no game: {reason}", reason=g))
            continue
        text = tr("seat {n} opens the game", n=g.first_player)
        if counts_differ:
            text += " " + tr("(dice per seat: {counts})", counts=", ".join(map(str, g.dice_counts)))
        texts.append(text)
    return texts[0], texts[1]


@dataclass(frozen=True, slots=True)
class _Candidate:
    kind: str
    start: Start
    actions: tuple[Step, ...]
    action: Action | None


def _replay(variant: Variant, start: Start, actions: Sequence[Step]) -> Game | str | None:
    """The game after ``actions``; ``None`` if a step is refused. A new game (``start.seed``)
    that the variant refuses gives the reason instead: refusing is a behaviour too."""
    try:
        g = start.game(variant)
    except (PerudoError, ValueError) as exc:
        return str(exc) if isinstance(start, NewGame) else None
    try:
        for step in actions:
            g = g.roll(dice=step.dice) if isinstance(step, Roll) else g.apply(step)
    except (PerudoError, ValueError):
        return None
    return g


def _signature(kind: str, g: Game | str, action: Action | None) -> dict[str, Any]:
    """What a variant makes of ``action`` in ``g``: legality, rule, and the resolved state."""
    if isinstance(g, str):
        return {"valid": False}
    if kind == "setup":
        return {"valid": True, "first_player": g.first_player, "dice_counts": g.dice_counts}
    assert action is not None
    bad = g.violation(action)
    sig: dict[str, Any] = {"legal": bad is None, "rule": None if bad is None else bad.rule}
    if bad is None and kind == "resolution":
        after = g.apply(action)
        sig.update(
            dice_counts=after.dice_counts,
            to_move=after.to_move,
            palifico=after.palifico,
            palifico_player=after.palifico_player,
            palifico_used=after.palifico_used,
            winner=after.winner,
        )
        r = after.last_result
        assert r is not None
        sig.update({f"result.{f.name}": getattr(r, f.name) for f in dataclasses.fields(r)})
    return sig


def _differing(sa: Mapping[str, Any], sb: Mapping[str, Any]) -> set[str]:
    return {k for k in sa.keys() | sb.keys() if sa.get(k) != sb.get(k)}


def _outcomes(
    kind: str, ga: Game | str, gb: Game | str, action: Action | None
) -> tuple[str, str, str]:
    """(kind, outcome under a, outcome under b) of a divergence."""
    if kind == "setup":
        ta, tb = _setup_texts(ga, gb)
        return kind, ta, tb
    assert action is not None and isinstance(ga, Game) and isinstance(gb, Game)
    if ga.is_legal(action) != gb.is_legal(action):
        return "legality", _legality_text(ga, action), _legality_text(gb, action)
    return "resolution", _resolution_text(ga.apply(action)), _resolution_text(gb.apply(action))


# --- the search ----------------------------------------------------------------------------


def _starts(a: Variant, seats: int, top: int, limits: SearchLimits) -> Iterator[Position]:
    """Explicit starts with ``seats`` seats whose largest cup holds ``top`` dice, smallest first.

    Seat 0 opens; every count vector, round 1 and a later round, ordinary and
    (when seat 0 holds one die) palifico rounds, with no seat or every seat
    having had its palifico round already, and ``limits.seeds`` dice rolls.
    """
    rules = a.rules
    vectors = sorted(
        (c for c in itertools.product(range(1, top + 1), repeat=seats) if max(c) == top),
        key=lambda c: (sum(c), c),
    )
    for counts in vectors:
        for round_no in (1, 2):
            for palifico in (False, True):
                if palifico and counts[0] != 1:
                    continue
                for used in ((), tuple(range(seats))):
                    for seed in range(limits.seeds):
                        rng = random.Random(seed * 7919 + sum(counts) * 31 + seats)
                        dice = tuple(
                            tuple(roll_die(rng, rules.dice_faces) for _ in range(c)) for c in counts
                        )
                        yield Position(
                            dice=dice,
                            first_player=0,
                            palifico=palifico,
                            round=round_no,
                            palifico_used=used,
                        )


def _children(g: Game, bids_this_round: int, max_bids: int) -> list[Action]:
    """Actions to explore: every call, and the lowest legal bid on each face."""
    legal = g.legal_actions()
    ranks = legal.bid_ranks
    calls = sorted(legal[len(ranks) :], key=_action_key)
    if bids_this_round >= max_bids or not ranks:
        return calls
    player = g.to_move
    assert player is not None
    table = g.space.bids
    faces: dict[int, int] = {}
    for r in ranks:  # rank order: the first bid met on a face is its lowest
        q, f = table[r]
        if f not in faces:
            faces[f] = q
    lowest: list[Action] = [Bid(player, faces[f], f) for f in sorted(faces)]
    return lowest + calls


def _passes(a: Variant, limits: SearchLimits) -> list[tuple[int, int, int, int]]:
    """(seats, dice in the largest cup, bids per round, rounds) of each pass.

    Every one-round pass comes first (smallest positions and shortest histories
    first), then the passes that roll on into a second round, which cost far more.
    """
    rules = a.rules
    # the seat counts the edition plays with (the kernel's rule), the smallest first
    playable = [n for n in range(2, rules.players_max + 1) if seats_verdict(rules, n, a.id) is None]
    lo = playable[0]
    top = min(limits.max_dice, rules.dice_max_per_player)
    combos = itertools.product(
        [n for n in playable if n <= limits.max_seats],
        range(1, top + 1),
        range(1, limits.max_bids + 1),
        range(1, limits.max_rounds + 1),
    )
    passes = list(combos)
    # Also the fewest seats holding their starting dice, when that is more than the small
    # positions hold, in one round: rules that only bite at full cups (a cap) show there.
    full = min(rules.dice_per_player, rules.dice_max_per_player)
    if full > top:
        passes += [(lo, full, bids, 1) for bids in range(1, limits.max_bids + 1)]
    return sorted(passes, key=lambda p: (p[3], p[0] + p[1] + 2 * p[2], p))


def _search_play(
    a: Variant, h: Variant, limits: SearchLimits, counter: list[int]
) -> Iterator[_Candidate]:
    """Divergences between ``a`` and ``h`` over small explicit positions, smallest first."""
    seen: set[_Candidate] = set()
    for seats, top, max_bids, max_rounds in _passes(a, limits):
        for start in _starts(a, seats, top, limits):
            if counter[0] >= limits.node_budget:
                return
            try:
                ga0, gh0 = start.game(a), start.game(h)
            except (PerudoError, ValueError):
                counter[0] += 1  # a refused start costs budget too: the search stays bounded
                continue
            frontier: list[tuple[Game, Game, tuple[Step, ...], int, int]] = [(ga0, gh0, (), 0, 1)]
            while frontier and counter[0] < limits.node_budget:
                nxt: list[tuple[Game, Game, tuple[Step, ...], int, int]] = []
                for ga, gh, steps, nbids, rounds in frontier:
                    counter[0] += 1
                    found: list[_Candidate] = []
                    if _legal_key(ga) != _legal_key(gh):
                        la, lh = frozenset(ga.legal_actions()), frozenset(gh.legal_actions())
                        found = [
                            _Candidate("legality", start, steps, x)
                            for x in sorted(la ^ lh, key=_action_key)
                        ]
                    else:
                        for x in _children(ga, nbids, max_bids):
                            ra, rh = ga.apply(x), gh.apply(x)
                            if isinstance(x, Bid):
                                nxt.append((ra, rh, (*steps, x), nbids + 1, rounds))
                            elif _state(ra) != _state(rh):
                                found.append(_Candidate("resolution", start, steps, x))
                            elif ra.awaiting_roll and rounds < max_rounds:
                                roll = _next_roll(ra, len(steps))
                                nxt.append(
                                    (
                                        ra.roll(dice=roll.dice),
                                        rh.roll(dice=roll.dice),
                                        (*steps, x, roll),
                                        0,
                                        rounds + 1,
                                    )
                                )
                    for cand in found:
                        if cand not in seen:
                            seen.add(cand)
                            yield cand
                frontier = nxt


def _next_roll(g: Game, salt: int) -> Roll:
    """A deterministic roll of the cups for the next round."""
    rng = random.Random(salt * 104729 + g.round)
    faces = g.rules.dice_faces
    return Roll(tuple(tuple(roll_die(rng, faces) for _ in range(c)) for c in g.dice_counts))


def _search_setup(a: Variant, h: Variant, limits: SearchLimits) -> Iterator[_Candidate]:
    """New games that start differently: who opens, the dice counts, or one variant
    refusing the number of players. Seat counts 2 to ``limits.setup_seats``, until
    ``limits.setup_dice`` dice have been rolled."""
    per_seat = max(a.rules.dice_per_player, h.rules.dice_per_player)
    rolled = 0
    for n in range(2, limits.setup_seats + 1):
        for seed in range(limits.setup_seeds):
            rolled += n * per_seat
            if rolled > limits.setup_dice:
                return
            start = NewGame(players=n, seed=seed)
            ga, gh = _replay(a, start, ()), _replay(h, start, ())
            assert ga is not None and gh is not None
            if _signature("setup", ga, None) != _signature("setup", gh, None):
                yield _Candidate("setup", start, (), None)
            elif isinstance(ga, str):
                break  # neither variant plays with n seats: no seed changes that


def _hybrid(base: Variant, path: str, value: Any) -> Variant:
    overrides = dict(base.overrides or {})
    overrides[path] = value
    return load_variant(base.ref or base.file or base.id, overrides=overrides)


def _confirms(
    cand: _Candidate,
    decisive: set[str],
    hyb_side: Mapping[str, Any],
    full_side: Mapping[str, Any],
    other_full: Mapping[str, Any],
    full_diff: set[str],
    revert: Variant | None,
) -> bool:
    """Whether the full variants show the divergence the hybrid pair showed, because of the rule.

    The full variant on the changed side must behave like the hybrid on every decisive
    component (so the full variants diverge there too), and, the counterfactual, the same
    full variant with only this rule set back (``revert``) must behave like the other
    side on every decisive component: this rule makes the difference, whatever else
    differs. When that counterfactual variant is not consistent, the full variant must
    behave like the hybrid in every respect, with nothing else differing.
    """
    if not decisive <= full_diff or any(full_side.get(k) != hyb_side.get(k) for k in decisive):
        return False
    if revert is None:  # no counterfactual variant: nothing else may differ at all
        return full_side == hyb_side and full_diff == decisive
    back = _replay(revert, cand.start, cand.actions)
    if back is None:
        return False
    reverted = _signature(cand.kind, back, cand.action)
    return all(reverted.get(k) == other_full.get(k) for k in decisive)


def _masked_note(ids: tuple[str, str], rule: str, flipped: bool) -> str:
    a, b = ids
    pair = (
        f"{b} with only {rule} set to {a}'s value, and {b}"
        if flipped
        else f"{a}, and {a} with only {rule} set to {b}'s value"
    )
    return (
        "in every position searched, other differing rules change or mask this divergence; "
        f"the outcomes shown compare {pair}"
    )


def _labels(a: Variant, b: Variant) -> tuple[str, str]:
    """The two variant ids, told apart when both files carry the same id."""
    if a.id != b.id:
        return a.id, b.id
    return f"{a.id}#1", f"{b.id}#2"


@dataclass(frozen=True, slots=True)
class _Question:
    """What a witness is sought for: variants ``a`` and ``b`` (labelled ``ids``) and the
    differing ``rule``."""

    a: Variant
    b: Variant
    rule: str
    ids: tuple[str, str]

    def witness(
        self,
        kind: str,
        cand: _Candidate | None,
        outcomes: tuple[str, str] | None,
        confirmed: bool,
        note: str = "",
        searched: int = 0,
    ) -> Witness:
        """A :class:`Witness` for this question (``outcomes``: one text per variant)."""
        ids = self.ids
        return Witness(
            self.rule,
            {ids[0]: self.a[self.rule], ids[1]: self.b[self.rule]},
            ids,
            kind,
            None if cand is None else cand.start,
            () if cand is None else cand.actions,
            None if cand is None else cand.action,
            {} if outcomes is None else {ids[0]: outcomes[0], ids[1]: outcomes[1]},
            confirmed,
            note=note,
            searched=searched,
        )


def _hybrids(q: _Question) -> dict[bool, Variant | None]:
    """``a`` with only the rule set to ``b``'s value (key ``False``) and ``b`` with only the
    rule set to ``a``'s value (key ``True``); ``None`` where that is not consistent."""
    hybrids: dict[bool, Variant | None] = {}
    for base, other, flipped in ((q.a, q.b, False), (q.b, q.a, True)):
        try:
            hybrids[flipped] = _hybrid(base, q.rule, other[q.rule])
        except VariantError:
            hybrids[flipped] = None
    return hybrids


def _confirmed(
    q: _Question,
    cand: _Candidate,
    hybrid_sides: tuple[dict[str, Any], dict[str, Any]],
    flipped: bool,
    revert: Variant | None,
) -> Witness | None:
    """The confirmed witness at ``cand``, if the full variants diverge there as the hybrid
    pair did (``hybrid_sides``), because of the rule (:func:`_confirms`)."""
    sx, sy = hybrid_sides
    decisive = _differing(sx, sy)
    ga = _replay(q.a, cand.start, cand.actions)
    gb = _replay(q.b, cand.start, cand.actions)
    if ga is None or gb is None or not decisive:
        return None
    sa = _signature(cand.kind, ga, cand.action)
    sb = _signature(cand.kind, gb, cand.action)
    # The side whose rule was changed (in the hybrid pair and in the full pair), the other
    # side's full variant, and the changed side's full variant with only this rule set back
    # (the counterfactual).
    hyb_side, full_side, other_full = (sx, sa, sb) if flipped else (sy, sb, sa)
    if not _confirms(cand, decisive, hyb_side, full_side, other_full, _differing(sa, sb), revert):
        return None
    kind, oa, ob = _outcomes(cand.kind, ga, gb, cand.action)
    return q.witness(kind, cand, (oa, ob), True)


def _search_direction(
    q: _Question, hyb: Variant, flipped: bool, revert: Variant | None, limits: SearchLimits
) -> tuple[Witness | None, Witness | None, int]:
    """Search one direction: ``a`` against its hybrid, or (``flipped``) the hybrid of ``b``
    against ``b``. Returns the first confirmed witness (or ``None``), the first divergence
    of the hybrid pair as an unconfirmed witness (or ``None``) and the game states searched.
    """
    counter = [0]
    base = q.b if flipped else q.a
    first, second = (hyb, base) if flipped else (base, hyb)
    unconfirmed: Witness | None = None
    for cand in itertools.chain(
        _search_play(first, second, limits, counter), _search_setup(first, second, limits)
    ):
        hx = _replay(first, cand.start, cand.actions)
        hy = _replay(second, cand.start, cand.actions)
        if hx is None or hy is None:  # pragma: no cover - the search only takes legal steps
            continue
        sx = _signature(cand.kind, hx, cand.action)
        sy = _signature(cand.kind, hy, cand.action)
        confirmed = _confirmed(q, cand, (sx, sy), flipped, revert)
        if confirmed is not None:
            return confirmed, unconfirmed, counter[0]
        if unconfirmed is None:
            kind, oa, ob = _outcomes(cand.kind, hx, hy, cand.action)
            note = _masked_note(q.ids, q.rule, flipped)
            unconfirmed = q.witness(kind, cand, (oa, ob), False, note=note)
    return None, unconfirmed, counter[0]


def _no_difference(q: _Question, searched: int, limits: SearchLimits) -> Witness:
    """The witness of kind ``"none"`` when nothing diverged in any searched position."""
    same = "no behavioural difference"
    note = tr(
        "no behavioural difference found: in {n} game states searched (up to {seats} seats "
        "with 1 to {dice} dice each, {rounds} rounds) and in new games of 2 to {players} "
        "players from up to {seeds} seeds, both values allow the same actions, resolve every "
        "round alike and start games alike: the rule is presentation only, or matters only "
        "in larger positions",
        n=searched, seats=limits.max_seats, dice=limits.max_dice,
        rounds=limits.max_rounds, players=limits.setup_seats, seeds=limits.setup_seeds,
    )  # fmt: skip
    return q.witness("none", None, (same, same), False, note=note, searched=searched)


def find_witness(a: Variant, b: Variant, rule: str, limits: SearchLimits | None = None) -> Witness:
    """The witness for one differing knob ``rule`` (see :func:`find_witnesses`).

    The steps: build the two hybrids (:func:`_hybrids`); search ``a`` against its hybrid,
    then, if that found a divergence but could not confirm it, ``b``'s hybrid against
    ``b`` (:func:`_search_direction`); the first confirmed witness wins, else the first
    unconfirmed divergence, else a witness of kind ``"none"`` (:func:`_no_difference`).
    """
    limits = limits or SearchLimits()
    q = _Question(a, b, rule, _labels(a, b))
    hybrids = _hybrids(q)
    if hybrids[False] is None and hybrids[True] is None:
        return q.witness(
            "none",
            None,
            None,
            False,
            note=tr(
                "no divergence searched: setting this rule alone makes neither variant consistent"
            ),
        )
    unconfirmed: Witness | None = None
    searched = 0
    for flipped in (False, True):
        hyb = hybrids[flipped]
        if hyb is None:
            continue
        confirmed, first, nodes = _search_direction(q, hyb, flipped, hybrids[not flipped], limits)
        if confirmed is not None:
            return dataclasses.replace(confirmed, searched=searched + nodes)
        if unconfirmed is None:
            unconfirmed = first
        searched += nodes
        if unconfirmed is None:
            break  # nothing diverged at all: the other direction is not tried
    if unconfirmed is not None:
        return dataclasses.replace(unconfirmed, searched=searched)
    return _no_difference(q, searched, limits)


def find_witnesses(
    a: Variant, b: Variant, max_dice: int = 3, limits: SearchLimits | None = None
) -> list[Witness]:
    """One :class:`Witness` per knob whose value differs between ``a`` and ``b``, in knob order.

    ``max_dice`` bounds the dice per seat in searched positions (``limits``
    overrides every bound). Deterministic; a few seconds at most for two
    bundled editions.
    """
    if limits is None:
        limits = SearchLimits(max_dice=max_dice)
    return [find_witness(a, b, path, limits) for path in differing_knobs(a, b)]
