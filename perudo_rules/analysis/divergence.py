"""One situation played under several variants: where a divergence witness begins, the
play, and what each variant makes of the decisive action.

A :class:`Situation` is a start (an explicit :class:`~perudo_rules.records.position.Position` or
a :class:`NewGame`), the steps before the decisive one and the decisive action (``None``
for a new game). :func:`play_situation` plays it under a variant through
:class:`~perudo_rules.engine.game.Game` alone; :func:`signature` is what the variant makes of the
decisive action (whether it is legal and which rule refuses it, and, for a Dudo or a
Calza, the whole resolved state; for a new game who opens and the dice counts); two
variants *diverge* there when their signatures differ (:func:`differing`), and
:func:`outcome_texts` says how, one sentence per variant (as data, a
:class:`~perudo_rules.base.texts.Text`, said in the reader's language when shown). The
witness search
(:mod:`perudo_rules.analysis.witnesssearch`) finds situations, :mod:`perudo_rules.analysis.witness`
confirms them with these functions.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from perudo_rules.base.actions import Action
from perudo_rules.base.errors import PerudoError, VariantError
from perudo_rules.base.i18n import tr
from perudo_rules.base.texts import Text, concat, refusal_text, tx
from perudo_rules.editions.knobs import KNOBS
from perudo_rules.editions.variant import Variant
from perudo_rules.editions.variantfile import load_variant
from perudo_rules.engine.game import Game
from perudo_rules.engine.start import seats_verdict
from perudo_rules.records.describe import result_text
from perudo_rules.records.position import Position, Roll, Step

__all__ = [
    "NewGame",
    "Situation",
    "SituationGames",
    "Start",
    "differing",
    "outcome_texts",
    "play_situation",
    "signature",
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
"""Where a witness begins: a :class:`~perudo_rules.records.position.Position` or a
:class:`NewGame`."""


@dataclass(frozen=True, slots=True)
class Situation:
    """A situation to play under several variants: ``kind`` is ``"legality"`` (is
    ``action`` legal?), ``"resolution"`` (how does ``action``, a Dudo or a Calza,
    resolve?) or ``"setup"`` (how does the new game ``start`` begin? ``action`` is
    ``None``); ``actions`` are the steps from ``start`` to the decisive one."""

    kind: str
    start: Start
    actions: tuple[Step, ...]
    action: Action | None


class _Refused(str):
    """Why a variant refuses a new game (the English sentence, as :func:`signature` compares
    it), with the sentence as data (``said``) when a refusal of the seats gives it, so that
    a witness shows it in the reader's language."""

    said: Text | None = None

    def __new__(cls, english: str, said: Text | None = None) -> _Refused:
        out = super().__new__(cls, english)
        out.said = said
        return out


def play_situation(variant: Variant, start: Start, actions: Sequence[Step]) -> Game | str | None:
    """The game after ``actions`` from ``start``; ``None`` if the start or a step is
    refused. A new game that the variant refuses gives the reason instead: refusing a
    number of players is a behaviour too."""
    try:
        g = start.game(variant)
    except (PerudoError, ValueError) as exc:
        if not isinstance(start, NewGame):
            return None
        bad = seats_verdict(variant.rules, start.players, variant.id)
        return _Refused(str(exc), refusal_text(bad)) if bad is not None else str(exc)
    try:
        for step in actions:
            g = g.roll(dice=step.dice) if isinstance(step, Roll) else g.apply(step)
    except (PerudoError, ValueError):
        return None
    return g


def signature(kind: str, g: Game | str, action: Action | None) -> dict[str, Any]:
    """What a variant makes of ``action`` in ``g``: legality, rule, and the resolved state
    (a setup: whether the game starts, who opens and the dice counts)."""
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


def differing(sa: Mapping[str, Any], sb: Mapping[str, Any]) -> set[str]:
    """The points where two signatures disagree. Where one variant refuses what the other
    allows (a start, an action), that is the whole disagreement (``valid``, or ``legal``
    and ``rule``); a difference only in the rule that refuses an action both refuse is no
    divergence in play."""
    out = {k for k in sa.keys() | sb.keys() if sa.get(k) != sb.get(k)}
    if "valid" in out:
        return {"valid"}
    if "legal" in out:
        return {"legal", "rule"}
    if out == {"rule"}:
        return set()
    return out


def _legality_text(g: Game, a: Action) -> Text:
    bad = g.violation(a)
    if bad is None:
        return tx("legal")
    return tx("illegal [{r}: {why}]", r=bad.rule, why=refusal_text(bad))


def _resolution_text(g: Game) -> Text:
    r = g.last_result
    assert r is not None
    return result_text(r, g.dice_counts, winner=g.winner)


def _setup_texts(ga: Game | str, gb: Game | str) -> tuple[Text, Text]:
    counts_differ = (
        isinstance(ga, Game) and isinstance(gb, Game) and ga.dice_counts != gb.dice_counts
    )
    texts = []
    for g in (ga, gb):
        if isinstance(g, str):  # a new game refused (play_situation's reason)
            reason = g.said if isinstance(g, _Refused) and g.said is not None else g
            texts.append(tx("no game: {reason}", reason=reason))
            continue
        text = tx("seat {n} opens the game", n=g.first_player)
        if counts_differ:
            counts = ", ".join(map(str, g.dice_counts))
            text = concat(text, " ", tx("(dice per seat: {counts})", counts=counts))
        texts.append(text)
    return texts[0], texts[1]


def outcome_texts(
    kind: str, ga: Game | str, gb: Game | str, action: Action | None
) -> tuple[str, Text, Text]:
    """(kind, outcome under the first variant, outcome under the second) of a divergence
    at a situation of kind ``kind``: a legality divergence where one variant refuses the
    action, else the two resolutions (or starts) in words, as data
    (:class:`~perudo_rules.base.texts.Text`: said in the reader's language when shown)."""
    if kind == "setup":
        ta, tb = _setup_texts(ga, gb)
        return kind, ta, tb
    assert action is not None and isinstance(ga, Game) and isinstance(gb, Game)
    if ga.is_legal(action) != gb.is_legal(action):
        return "legality", _legality_text(ga, action), _legality_text(gb, action)
    return "resolution", _resolution_text(ga.apply(action)), _resolution_text(gb.apply(action))


class SituationGames:
    """Variants with a few rules set to another variant's values, and the games situations
    reach under them (:func:`play_situation`), each made once (a witness search asks for
    the same ones again and again). Variants are told apart by identity: keep them alive
    while the cache is in use."""

    def __init__(self) -> None:
        self._made: dict[tuple[int, int, frozenset[str]], Variant | None] = {}
        self._games: dict[tuple[int, Start, tuple[Step, ...]], Game | str | None] = {}

    def set_back(self, base: Variant, other: Variant, rules: frozenset[str]) -> Variant | None:
        """``base`` with ``rules`` set to ``other``'s values, loaded as a house-rules file
        extending it would be (``None`` if that is not consistent); ``base`` itself when
        ``rules`` is empty. When that is not consistent, the knobs the engine never reads
        in play (``never_read`` in the knob table) are set to ``other``'s values too: they
        change no behaviour, and the loader may need them (``calza.gain_cap`` is never
        above ``dice.max_per_player``)."""
        if not rules:
            return base
        key = (id(base), id(other), rules)
        if key not in self._made:
            unread = {k.path for k in KNOBS if k.never_read and base[k.path] != other[k.path]}
            attempts = [rules] if unread <= rules else [rules, rules | unread]
            made: Variant | None = None
            for attempt in attempts:
                overrides = dict(base.overrides or {})
                overrides.update({r: other[r] for r in sorted(attempt)})
                try:
                    made = load_variant(base.ref or base.file or base.id, overrides=overrides)
                    break
                except VariantError:
                    made = None
            self._made[key] = made
        return self._made[key]

    def game(
        self, variant: Variant, start: Start, actions: tuple[Step, ...]
    ) -> Game | str | None:
        """:func:`play_situation`, remembered (a few thousand games at most)."""
        key = (id(variant), start, actions)
        hit = self._games.get(key, self)
        if hit is self:
            if len(self._games) >= 4096:
                self._games.clear()
            hit = self._games[key] = play_situation(variant, start, actions)
        assert hit is not self
        return hit  # type: ignore[return-value]

    def signature(self, variant: Variant | None, situation: Situation) -> dict[str, Any] | None:
        """What ``variant`` makes of ``situation`` (:func:`signature`), or ``None`` when
        there is no such variant or it refuses a step."""
        if variant is None:
            return None
        g = self.game(variant, situation.start, situation.actions)
        return None if g is None else signature(situation.kind, g, situation.action)
