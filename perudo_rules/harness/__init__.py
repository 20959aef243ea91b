"""Built-in harnesses: our own front ends speaking the harness protocol.

Each module is an engine that ``perudo-rules conform`` can certify, started as
``python -m perudo_rules.harness.<name>``: ``stepapi`` (the reference, the step API of
:class:`~perudo_rules.engine.game.Game`), ``fastplay`` (the kernel's per-round tables, as the fast
path plays them), ``pettingzoo`` (the PettingZoo environment, through its action masks),
``openspiel`` (the OpenSpiel adapter, through ``pyspiel``'s API), ``pyspiel_liars_dice``
(OpenSpiel's own ``liars_dice``) and ``textarena`` (TextArena's ``LiarsDiceEnv``).
:class:`Harness` is what they share: :func:`serve` reads the requests, calls the methods
and writes the replies (the protocol: :mod:`perudo_rules.conform.protocol`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from typing import IO, Any

from perudo_rules.base.actions import Action, Bid
from perudo_rules.base.errors import ActionSyntaxError
from perudo_rules.conform.protocol import ANY, PROTOCOL
from perudo_rules.editions.knobs import KNOB_PATHS, KNOBS
from perudo_rules.editions.variant import Variant
from perudo_rules.editions.variantfile import variant_from_document

__all__ = [
    "AWAITING_ROLL",
    "GAME_OVER",
    "Harness",
    "claim_all",
    "claim_edition",
    "edition_variant",
    "outcome",
    "refusal",
    "serve",
]

Cups = Sequence[Sequence[int]]

#: Why an ``act`` is refused once the game is over (the protocol's edge cases).
GAME_OVER = "play.game_over"
#: Why an ``act`` is refused while the next round's dice are awaited.
AWAITING_ROLL = "play.roll"


def refusal(action: Action, why: str, faces: int) -> dict[str, Any]:
    """The ``act`` reply of an engine that refused ``action`` for ``why``: named
    ``play.bid_range`` when it is a bid of no dice or of a face off a die of ``faces``
    faces (the rule every edition refuses it by), else ``why``. Only the name: whether
    the action is refused is the engine's to say."""
    if isinstance(action, Bid) and (action.quantity < 1 or not 1 <= action.face <= faces):
        return {"illegal": "play.bid_range"}
    return {"illegal": why}


def edition_variant(values: Mapping[str, Any]) -> Variant:
    """A variant from the knob values a ``start`` request carries."""
    doc: dict[str, Any] = {"id": "edition", "name": "edition"}
    for knob in KNOBS:
        doc.setdefault(knob.section, {})[knob.name] = values[knob.path]
    return variant_from_document(doc, file="<edition>")


def claim_all() -> dict[str, Any]:
    """A claim of every value of every knob."""
    return dict.fromkeys(KNOB_PATHS, ANY)


def claim_edition(variant: Variant, free: Sequence[str] = ()) -> dict[str, Any]:
    """A claim of exactly ``variant``'s knob values, any value for the paths ``free``."""
    return {p: ANY if p in free else v for p, v in variant.values().items()}


def outcome(before: Sequence[int], after: Sequence[int], nxt: int | None, palifico: bool,
            winner: int | None) -> dict[str, Any]:  # fmt: skip
    """The ``outcome`` of an ``act`` reply from the dice counts before and after a round."""
    pairs = list(zip(before, after, strict=True))
    return {
        "delta": [b - a for a, b in pairs],
        "next": nxt,
        "palifico": palifico,
        "eliminated": [s for s, (a, b) in enumerate(pairs) if a and not b],
        "winner": winner,
    }


class Harness:
    """An engine behind the protocol: override the methods (each returns the reply)."""

    name = "harness"

    def claims(self) -> list[dict[str, Any]]:
        """The knob values this engine implements."""
        return [claim_all()]

    def start(self, edition: Mapping[str, Any], dice: Cups, first_player: int, round: int,
              palifico: bool, palifico_used: Sequence[int]) -> dict[str, Any]:  # fmt: skip
        """A new game at the start of a round."""
        raise NotImplementedError

    def legal(self, seat: int) -> list[str]:
        """Every action ``seat`` may take now, in the project's notation."""
        raise NotImplementedError

    def act(self, action: str) -> dict[str, Any]:
        """Take ``action`` or refuse it."""
        raise NotImplementedError

    def roll(self, dice: Cups) -> dict[str, Any]:
        """Start the next round with ``dice``."""
        raise NotImplementedError

    def handle(self, req: Mapping[str, Any]) -> dict[str, Any]:
        """The reply to one request."""
        cmd = req.get("cmd")
        if cmd == "hello":
            return {"name": self.name, "protocol": PROTOCOL, "claims": self.claims()}
        if cmd == "start":
            return self.start(req["edition"], req["dice"], req["first_player"],
                              req.get("round", 1), req.get("palifico", False),
                              req.get("palifico_used", []))  # fmt: skip
        if cmd == "legal":
            return {"actions": self.legal(req["seat"])}
        if cmd == "act":
            try:
                return self.act(req["action"])
            except ActionSyntaxError as exc:
                return {"illegal": str(exc)}
        if cmd == "roll":
            return self.roll(req["dice"])
        return {"error": f"unknown command {str(cmd)[:40]!r}"}


def serve(harness: Harness, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> None:
    """Answer requests from ``stdin`` (one JSON object a line) until ``quit`` or the end."""
    src = stdin or sys.stdin
    out = stdout or sys.stdout
    for line in src:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
        except ValueError:
            reply: dict[str, Any] = {"error": "a request line is not JSON"}
        else:
            if req.get("cmd") == "quit":
                return
            try:
                reply = harness.handle(req)
            except Exception as exc:  # the runner reports it in one line
                reply = {"error": f"{type(exc).__name__}: {exc}"}
        out.write(json.dumps(reply, separators=(",", ":")) + "\n")
        out.flush()
