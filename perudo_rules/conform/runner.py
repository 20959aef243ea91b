"""The conformance run: scenarios, differential games and perft counts, per edition.

:func:`conform` starts the engine, reads its claims and, for every edition asked for that
it claims, runs the exported scenarios that apply, then random games driven by the
reference with the same dice, then the published perft counts
(:mod:`perudo_rules.conform.perft`), and tallies every comparison by rule id. The first failure of
each rule id is shrunk to a minimal witness (:mod:`perudo_rules.conform.shrink`). What it
found is a :class:`~perudo_rules.conform.report.Report`.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from perudo_rules.base.actions import (
    Action,
    Bid,
    Calza,
    Dudo,
    Leave,
    Reroll,
    format_action,
    parse_action,
)
from perudo_rules.base.errors import ActionSyntaxError
from perudo_rules.conform.check import Finding, Session
from perudo_rules.conform.perft import published, rolled_as_before
from perudo_rules.conform.process import Channel, Engine, HarnessError
from perudo_rules.conform.protocol import PROTOCOL, claim_covers, claims_problem
from perudo_rules.conform.report import EditionReport, Failure, PerftCheck, Report
from perudo_rules.conform.scenarios import Scenario, load_scenarios
from perudo_rules.conform.shrink import Case, shrink
from perudo_rules.editions.variant import Variant
from perudo_rules.editions.variantfile import load_variant
from perudo_rules.engine.game import Game
from perudo_rules.engine.start import roll_cups
from perudo_rules.records.position import Position, Roll, parse_step

__all__ = ["conform"]

#: Most rounds a random game plays before it stops (a game with Calza may not end).
MAX_ROUNDS = 40
#: Most positions the perft walk expands per published position by default (it replays
#: each from the position's start: the deepest depth within this budget is counted).
PERFT_NODES = 200
Progress = Callable[[str], None]


class _Run:
    """One edition against one engine."""

    def __init__(
        self, engine: Channel, variant: Variant, values: dict[str, Any], report: EditionReport
    ) -> None:
        self.engine = engine
        self.variant = variant
        self.values = values
        self.report = report

    def session(self, variant: Variant | None = None) -> Session:
        v = variant or self.variant
        return Session(self.engine, v, v.values() if variant is not None else self.values)

    def tally(self, found: Sequence[Finding], session: Session, source: str,
              probe: Action | None = None) -> None:  # fmt: skip
        rep = self.report
        for f in found:
            if f.ok:
                rep.passed[f.rule] = rep.passed.get(f.rule, 0) + 1
                continue
            rep.failed[f.rule] = rep.failed.get(f.rule, 0) + 1
            if f.rule not in rep.failures:
                pos, steps = session.witness_steps()
                case = Case(pos, steps, probe)
                rep.failures[f.rule] = self.witness(session.variant, case, f, source)
                if not session.broken:
                    session.resync()

    # --- witnesses ----------------------------------------------------------------------

    def rerun(self, variant: Variant, case: Case, rule: str) -> tuple[Case, str] | None:
        """Run ``case`` against the engine again: the case cut where ``rule`` failed, and
        how, or ``None``."""
        s = self.session(variant if variant is not self.variant else None)
        try:
            case.position.game(variant)
        except ValueError:
            return None
        if not s.start(case.position):
            return None
        for i, a in enumerate(case.actions):
            assert s.game is not None
            if isinstance(a, Roll):  # a re-roll's dice
                if not s.game.awaiting_roll or s.game.to_move is None:
                    return None
                try:
                    s.roll(a.dice)
                except ValueError:
                    return None
                continue
            if s.game.to_move is None or s.game.awaiting_roll or s.game.violation(a) is not None:
                return None
            hit = _failed(s.check_point(), rule)
            if hit is not None:
                return Case(case.position, case.actions[:i]), hit
            hit = _failed(s.apply(a), rule)
            if hit is not None:
                return Case(case.position, case.actions[: i + 1]), hit
            if s.broken:
                return None
        assert s.game is not None
        if s.game.to_move is None or s.game.awaiting_roll:
            return None
        hit = _failed(s.check_point(), rule)
        if hit is not None:
            return Case(case.position, case.actions), hit
        if case.probe is not None and s.game.violation(case.probe) is not None:
            hit = _failed(s.probe(case.probe), rule)
            if hit is not None:
                return case, hit
        return None

    def witness(self, variant: Variant, case: Case, finding: Finding, source: str) -> Failure:
        def fails(c: Case) -> Case | None:
            got = self.rerun(variant, c, finding.rule)
            return None if got is None else got[0]

        small = shrink(case, fails)
        again = self.rerun(variant, small, finding.rule)
        detail = finding.detail if again is None else again[1]
        if again is not None:
            small = again[0]
        pos = small.position
        witness = {"variant": self.report.edition, **Position(
            pos.dice, pos.first_player, pos.palifico, pos.round, pos.palifico_used
        ).to_json(small.actions)}  # fmt: skip
        witness.setdefault("actions", [])
        then = None if small.probe is None else format_action(small.probe)
        base = self.values
        overrides = {k: v for k, v in variant.values().items() if base.get(k) != v}
        return Failure(finding.rule, detail, witness, source, then, overrides)

    # --- scenarios ----------------------------------------------------------------------

    def scenario(self, sc: Scenario) -> None:
        variant = sc.variant(self.report.edition)
        s = self.session(variant if sc.overrides else None)
        if not s.start(sc.start):
            self.report.skipped += 1
            return
        self.report.scenarios += 1
        source = f"scenario {sc.id}"
        for step in sc.steps:
            game = s.game
            assert game is not None
            parsed = parse_step(step.action)
            if isinstance(parsed, Roll):
                s.roll(parsed.dice)
                continue
            if game.to_move is None or game.awaiting_roll or isinstance(parsed, Leave):
                return  # a leave is no request of the protocol: the rest is not observed
            self.tally(s.check_point(), s, source)
            expect = step.expect_for(self.report.edition)
            if isinstance(parsed, Bid) and parsed.quantity > game.space.cap and (
                game.violation(parsed) is None
            ):
                return  # a legal bid beyond the listed table: outside the protocol's scope
            if "illegal" in expect and game.violation(parsed) is not None:
                self.tally(s.probe(parsed), s, source, probe=parsed)
            elif not step.probe and game.violation(parsed) is None:
                self.tally(s.apply(parsed), s, source)
            if s.broken:
                return

    # --- random games -------------------------------------------------------------------

    def game(self, rng: random.Random, number: int) -> None:
        rules = self.variant.rules
        players = rng.randint(rules.players_min, min(rules.players_max, 4))
        game = Game.new(self.variant, players, seed=rng.getrandbits(32))
        s = self.session()
        if not s.start(Position.of(game)):
            self.report.skipped += 1
            return
        self.report.games += 1
        source = f"random game {number}"
        while s.game is not None and s.game.winner is None and s.game.round <= MAX_ROUNDS:
            g = s.game
            if g.awaiting_roll:  # the next round's dice, or a re-roll's
                s.roll(roll_cups(rules.dice_faces, g.roll_counts, rng))
                continue
            self.tally(s.check_point(), s, source)
            if rng.random() < 0.3:
                bad = _illegal(g, rng)
                if bad is not None:
                    self.tally(s.probe(bad), s, source, probe=bad)
                    if s.broken:
                        return
            legal = g.legal_actions()
            self.tally(s.apply(legal[int(rng.random() * len(legal))]), s, source)
            if s.broken:
                return

    # --- perft --------------------------------------------------------------------------

    def perft(self, entry: dict[str, Any], budget: int) -> None:
        pos = Position.from_json(entry["position"])
        nodes: list[int] = entry["nodes"]
        calls: list[int] = entry["calls"]
        depth, expanded = 1, 1
        while depth < len(nodes) and expanded + nodes[depth - 1] - calls[depth - 1] <= budget:
            expanded += nodes[depth - 1] - calls[depth - 1]
            depth += 1
        got = [0] * depth
        seats = [s for s, c in enumerate(pos.dice) if c]
        reference = pos.game(self.variant)
        start = {
            "cmd": "start", "edition": self.values, "dice": [list(c) for c in pos.dice],
            "first_player": pos.first_player, "round": pos.round, "palifico": pos.palifico,
            "palifico_used": list(pos.palifico_used),
        }  # fmt: skip

        def walk(path: list[str]) -> None:
            reply = self.engine.ask(start)
            if "skip" in reply:
                raise _Skipped
            ref = reference
            for text in path:
                if self.engine.ask({"cmd": "act", "action": text}).get("ok") is not True:
                    raise HarnessError(f"perft: the engine refuses {text}, which it listed")
                a = parse_action(text)
                after = ref.apply(a) if ref.violation(a) is None else None
                if after is not None and isinstance(a, Reroll):  # as perft rolls it
                    dice = rolled_as_before(ref, a)
                    after = after.roll(dice=dice)
                    request = {"cmd": "roll", "dice": [list(c) for c in dice]}
                    if self.engine.ask(request).get("ok") is not True:
                        raise HarnessError(f"perft: the engine refuses the roll after {text}")
                if after is None:  # a listed action the reference refuses: counted, not walked
                    return
                ref = after
            children: list[str] = []
            for seat in seats:
                listed = self.engine.ask({"cmd": "legal", "seat": seat}).get("actions")
                if not isinstance(listed, list):
                    raise HarnessError("the engine answered 'legal' without an action list")
                children += [str(a) for a in listed]
            got[len(path)] += len(children)
            if len(path) + 1 < depth:
                for text in children:
                    try:
                        is_bid = isinstance(parse_action(text), (Bid, Reroll))
                    except ActionSyntaxError:
                        what = f"the engine lists {text[:60]!r}: not an action"
                        raise HarnessError(what) from None
                    if is_bid:
                        walk([*path, text])

        try:
            walk([])
        except _Skipped:
            self.report.skipped += 1
            return
        self.report.perft.append(PerftCheck(entry["name"], depth, nodes[:depth], got))


class _Skipped(Exception):
    pass


def _failed(found: Sequence[Finding], rule: str) -> str | None:
    for f in found:
        if f.rule == rule and not f.ok:
            return f.detail
    return None


def _illegal(game: Game, rng: random.Random) -> Action | None:
    """An action the reference refuses now, drawn from the round's bids and every call."""
    assert game.to_move is not None
    seats = [s for s, c in enumerate(game.dice_counts) if c]
    table = game.space.bids
    cands: list[Action] = []
    for _ in range(8):
        seat = seats[int(rng.random() * len(seats))]
        kind = rng.random()
        if kind < 0.6 and table:
            q, f = table[int(rng.random() * len(table))]
            a: Action = Bid(game.to_move if kind < 0.5 else seat, q, f)
        else:
            a = Dudo(seat) if kind < 0.8 else Calza(seat)
        if game.violation(a) is not None:
            cands.append(a)
    return cands[0] if cands else None


def _edition(ref: str) -> Variant:
    return load_variant(ref)


def conform(
    command: str,
    editions: Sequence[str],
    games: int = 20,
    seed: int = 0,
    timeout: float = 10.0,
    progress: Progress | None = None,
    scenarios: Sequence[Scenario] | None = None,
    channel: Channel | None = None,
    perft_nodes: int = PERFT_NODES,
    workers: int = 1,
) -> Report:
    """Run the kit against the engine ``command`` on ``editions`` (ids or files).

    ``channel`` replaces the subprocess (an engine in the same process, for tests);
    ``scenarios`` replaces the bundled scenarios; ``progress`` receives a line per step;
    ``perft_nodes`` bounds the positions each perft walk expands. With ``workers`` above 1
    the editions run in that many processes at once, each against its own copy of the
    engine; the report is the same (each edition's games are seeded by the seed and the
    edition alone, and the editions are reported in order: after a harness error, none
    of the later ones), only ``seconds`` and the progress lines differ.
    """
    variants = [_edition(e) for e in editions]
    started = time.monotonic()
    report = Report(engine="?", command=command, editions=[])
    say = progress or (lambda text: None)
    try:
        with contextlib.ExitStack() as stack:
            engine = channel or stack.enter_context(Engine(command, timeout=timeout))
            claims = _greet(engine, report)
            if workers > 1 and channel is None and len(editions) > 1:
                stack.close()  # each worker starts its own engine
                _in_workers(command, timeout, editions, claims, scenarios, games, seed,
                            perft_nodes, workers, report, say)  # fmt: skip
            else:
                all_scenarios = load_scenarios() if scenarios is None else list(scenarios)
                for ref, variant in zip(editions, variants, strict=True):
                    rep = _edition_report(ref, variant, claims)
                    report.editions.append(rep)
                    _run_edition(engine, rep, variant, claims, all_scenarios, games, seed,
                                 perft_nodes, say)  # fmt: skip
    except HarnessError as exc:
        report.error = str(exc)
    report.seconds = time.monotonic() - started
    return report


def _greet(engine: Channel, report: Report) -> list[Any]:
    """The engine's hello: its name (into ``report``) and its claims, checked."""
    hello = engine.ask({"cmd": "hello", "protocol": PROTOCOL})
    name, claims = hello.get("name"), hello.get("claims")
    if not isinstance(name, str) or not name:
        raise HarnessError("the engine's hello reply has no name")
    problem = claims_problem(claims)
    if problem is not None:
        raise HarnessError(f"the engine's claims are malformed: {problem}")
    assert isinstance(claims, list)
    report.engine = name[:200]
    return claims


def _edition_report(ref: str, variant: Variant, claims: list[Any]) -> EditionReport:
    return EditionReport(edition=variant.id if variant.ref else ref,
                         claimed=claim_covers(claims, variant.values()))  # fmt: skip


def _run_edition(
    engine: Channel,
    rep: EditionReport,
    variant: Variant,
    claims: list[Any],
    all_scenarios: Sequence[Scenario],
    games: int,
    seed: int,
    perft_nodes: int,
    say: Progress,
) -> None:
    """One claimed edition: its scenarios, random games and perft counts, into ``rep``."""
    if not rep.claimed:
        return
    run = _Run(engine, variant, variant.values(), rep)
    for sc in all_scenarios:
        if rep.edition in sc.variants and (
            not sc.overrides or claim_covers(claims, sc.variant(rep.edition).values())
        ):
            say(f"{rep.edition}: scenario {sc.id}")
            run.scenario(sc)
    rng = random.Random(f"{seed}:{rep.edition}")
    for n in range(1, games + 1):
        say(f"{rep.edition}: random game {n}/{games}")
        run.game(rng, n)
    for entry in published(rep.edition):
        say(f"{rep.edition}: perft {entry['name']}")
        run.perft(entry, perft_nodes)


def _in_workers(
    command: str,
    timeout: float,
    editions: Sequence[str],
    claims: list[Any],
    scenarios: Sequence[Scenario] | None,
    games: int,
    seed: int,
    perft_nodes: int,
    workers: int,
    report: Report,
    say: Progress,
) -> None:
    """The editions in ``workers`` processes, reported in order as one engine would: up to
    and including the first edition that met a harness error, which is raised again."""
    args = (command, timeout, claims, scenarios, games, seed, perft_nodes)
    with ProcessPoolExecutor(max_workers=min(workers, len(editions))) as pool:
        futures = [pool.submit(_edition_in_worker, ref, *args) for ref in editions]
        for ref, fut in zip(editions, futures, strict=True):
            rep, error = fut.result()
            report.editions.append(rep)
            say(f"{rep.edition or ref}: done")
            if error is not None:
                for rest in futures:
                    rest.cancel()
                raise HarnessError(error)


def _edition_in_worker(
    ref: str,
    command: str,
    timeout: float,
    claims: list[Any],
    scenarios: Sequence[Scenario] | None,
    games: int,
    seed: int,
    perft_nodes: int,
) -> tuple[EditionReport, str | None]:
    """One edition in a worker process, against an engine of its own (greeted first)."""
    variant = _edition(ref)
    rep = _edition_report(ref, variant, claims)
    if not rep.claimed:
        return rep, None
    all_scenarios = load_scenarios() if scenarios is None else list(scenarios)
    try:
        with Engine(command, timeout=timeout) as engine:
            _greet(engine, Report(engine="?", command=command, editions=[]))
            _run_edition(engine, rep, variant, claims, all_scenarios, games, seed,
                         perft_nodes, lambda text: None)  # fmt: skip
    except HarnessError as exc:
        return rep, str(exc)
    return rep, None
