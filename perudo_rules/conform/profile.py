"""Fingerprint an engine: which knob values it plays, and the nearest bundled edition.

``perudo-rules conform --engine CMD --profile`` needs no claim and no documentation. It
looks at the engine under every bundled edition (its targeted probes), starts from the
one it differs from least (with a few games too), and sets, round after round, each knob the
diagnosis names (:mod:`perudo_rules.conform.diagnose`) to the value the engine plays,
until the engine agrees with the reference everywhere it was asked, or a difference no
knob value explains remains. The :class:`Profile` holds the knob values found, the
nearest bundled edition and the knobs where the engine differs from it (each with the
witness that showed it), the knobs the run never saw decide, and what stayed unexplained.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from perudo_rules.base.i18n import ntr, tr
from perudo_rules.conform.flips import UNFLIPPED, flipped
from perudo_rules.conform.process import Channel, Engine, HarnessError
from perudo_rules.conform.report import EditionReport, Failure, Report
from perudo_rules.conform.runner import examine, greet
from perudo_rules.editions.knobs import KNOB_PATHS
from perudo_rules.editions.variant import Variant
from perudo_rules.editions.variantfile import available_variants, load_variant

__all__ = ["Profile", "profile"]

#: Rounds of setting knobs before the profile stops.
MAX_ROUNDS = 6


@dataclass
class Profile:
    """What ``--profile`` found: ``values`` the knob values the engine plays (as far as
    seen), ``nearest`` the bundled edition nearest to them and ``differs`` each knob where
    the engine differs from it, with the failure that showed it; ``undetermined`` the
    knobs never seen to decide; ``unexplained`` differences no knob value explains."""

    engine: str
    command: str
    values: dict[str, Any] = field(default_factory=dict)
    nearest: str = ""
    differs: list[Failure] = field(default_factory=list)
    undetermined: list[str] = field(default_factory=list)
    unexplained: list[Failure] = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None

    @property
    def exit_code(self) -> int:
        """0 the engine plays a bundled edition exactly (as far as seen); 1 it differs;
        2 harness error."""
        if self.error is not None:
            return 2
        return 1 if self.differs or self.unexplained else 0

    def to_json(self) -> dict[str, Any]:
        """The profile as JSON."""
        return {
            "engine": self.engine, "command": self.command, "exit": self.exit_code,
            "error": self.error, "nearest": self.nearest, "values": self.values,
            "differs": [f.to_json() for f in self.differs],
            "undetermined": self.undetermined,
            "unexplained": [f.to_json() for f in self.unexplained],
            "seconds": round(self.seconds, 2),
        }  # fmt: skip


def _differences(rep: EditionReport) -> tuple[int, int, int]:
    """How far an engine is from an edition: the root causes no knob value explains, the
    knobs to set, then the differences (an edition that sees less fails less often, but
    needs as many knobs set)."""
    unexplained = sum(1 for f in rep.failures if not f.knob)
    knobs = sum(len(f.knob) for f in rep.failures)
    return (unexplained, knobs, sum(rep.failed.values()))


def profile(
    command: str,
    games: int = 4,
    seed: int = 0,
    timeout: float = 10.0,
    channel: Channel | None = None,
    progress: Callable[[str], None] | None = None,
) -> Profile:
    """Fingerprint the engine ``command`` (``channel`` replaces the subprocess)."""
    started = time.monotonic()
    say = progress or (lambda text: None)
    out = Profile(engine="?", command=command)
    try:
        with contextlib.ExitStack() as stack:
            engine = channel or stack.enter_context(Engine(command, timeout=timeout))
            report = Report(engine="?", command=command, editions=[])
            greet(engine, report)
            out.engine = report.engine
            _profile(engine, games, seed, out, say)
    except HarnessError as exc:
        out.error = str(exc)
    out.seconds = time.monotonic() - started
    return out


def _profile(engine: Channel, games: int, seed: int, out: Profile,
             say: Callable[[str], None]) -> None:  # fmt: skip
    looks: list[tuple[tuple[int, int, int], str, EditionReport]] = []
    for ref in available_variants():
        say(tr("profile: {edition}", edition=ref))
        # the probes tell most; the witnesses wait for the edition chosen
        rep = examine(engine, ref, load_variant(ref), 0, seed, shrunk=False)
        looks.append((_differences(rep), ref, rep))
    looks.sort(key=lambda x: x[0])
    _, base_ref, rep = looks[0]
    base = load_variant(base_ref)
    played: dict[str, Any] = {}
    shown: dict[str, Failure] = {}
    variant: Variant = base
    if games:  # the chosen edition again, with games too
        rep = examine(engine, base_ref, base, games, seed)
    for n in range(MAX_ROUNDS):
        found = {p: v for f in rep.failures for p, v in f.knob.items()}
        new = {p: v for p, v in found.items() if p not in played or played[p] != v}
        if not new:
            break
        attempt = flipped(base, {**played, **new})
        if attempt is None:
            break
        played.update(new)
        for f in rep.failures:
            for p in f.knob:
                shown.setdefault(p, f)
        variant = attempt
        say(ntr("profile: round {round}, {n} knob set", "profile: round {round}, {n} knobs set",
                len(played), round=n + 2))  # fmt: skip
        rep = examine(engine, base_ref, variant, games, seed + n + 1, shrunk=False)
    values = variant.values()
    decided = {r for r in KNOB_PATHS if rep.status(r) in ("passed", "failed")} | set(played)
    out.undetermined = [p for p in KNOB_PATHS if p not in decided and p not in UNFLIPPED]
    out.values = {p: values[p] for p in KNOB_PATHS if p in decided}
    out.unexplained = [f for f in rep.failures if not f.knob]
    out.nearest = _nearest(out.values, base_ref)
    near = load_variant(out.nearest)
    for p, v in out.values.items():
        if near[p] != v or type(near[p]) is not type(v):
            if p in shown:
                out.differs.append(shown[p])
            else:
                out.differs.append(Failure(p, f"{p} is {v!r} where {out.nearest} has "
                                              f"{near[p]!r}", {}, "profile", {p: v},
                                           {p: near[p]}))  # fmt: skip


def _nearest(values: dict[str, Any], prefer: str) -> str:
    """The bundled edition that differs from ``values`` in the fewest knobs."""
    best: tuple[int, int, str] | None = None
    for order, ref in enumerate(available_variants()):
        theirs = load_variant(ref).values()
        apart = sum(1 for p, v in values.items()
                    if theirs[p] != v or type(theirs[p]) is not type(v))  # fmt: skip
        key = (apart, 0 if ref == prefer else 1 + order, ref)
        if best is None or key < best:
            best = key
    assert best is not None
    return best[2]
