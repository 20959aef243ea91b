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
from dataclasses import dataclass
from typing import Any

from perudo_rules.base.actions import (
    Action,
    Bid,
    Calza,
    Dudo,
    Leave,
)
from perudo_rules.base.i18n import language, tr, use_language
from perudo_rules.base.texts import tx
from perudo_rules.conform.check import Session, out_of_range
from perudo_rules.conform.diagnose import COUNT, Root, diagnose
from perudo_rules.conform.observe import Judged, reach
from perudo_rules.conform.perftrun import count_through
from perudo_rules.conform.plan import (
    perft_positions,
    scenarios_for,
    then_of,
    unread_rules,
)
from perudo_rules.conform.probes import Probe, probes_for
from perudo_rules.conform.process import Channel, Engine, HarnessError
from perudo_rules.conform.protocol import PROTOCOL, claim_covers, claims_problem, keeps_out
from perudo_rules.conform.report import EditionReport, Failure, Report
from perudo_rules.conform.scenarios import Scenario, load_scenarios
from perudo_rules.conform.shrink import Case, shrink
from perudo_rules.conform.stopping import workers_pool
from perudo_rules.conform.witnessfile import witness_document
from perudo_rules.editions.variant import Variant
from perudo_rules.editions.variantfile import load_variant
from perudo_rules.engine.game import Game
from perudo_rules.engine.start import roll_cups
from perudo_rules.records.decided import decided_by
from perudo_rules.records.position import Position, Roll, format_step, parse_step

__all__ = ["Only", "conform", "examine", "greet"]

#: Most rounds a random game plays before it stops (a game with Calza may not end).
MAX_ROUNDS = 40
#: Most positions the perft walk expands per published position by default (it replays
#: each from the position's start: the deepest depth within this budget is counted).
PERFT_NODES = 200
Progress = Callable[[str], None]


class _Run:
    """One edition against one engine: every comparison kept, then diagnosed."""

    def __init__(self, engine: Channel, variant: Variant, ref: str, report: EditionReport) -> None:
        self.engine = engine
        self.variant = variant
        self.ref = ref
        self.values = variant.values()
        self.report = report
        self.passing: list[Judged] = []
        self.differences: list[Judged] = []

    def session(self, variant: Variant | None = None, source: str = "") -> Session:
        v = variant or self.variant
        return Session(self.engine, v, v.values() if variant is not None else self.values,
                       source)  # fmt: skip

    def record(self, found: Sequence[Judged]) -> None:
        passed = self.report.passed
        for j in found:
            if j.ok:
                for rule in j.rules:
                    passed[rule] = passed.get(rule, 0) + 1
                self.passing.append(j)
            else:
                self.differences.append(j)

    # --- witnesses ----------------------------------------------------------------------

    def rerun(self, variant: Variant, case: Case,
              matches: Callable[[Judged], bool]) -> tuple[Case, Judged] | None:  # fmt: skip
        """Run ``case`` against the engine again: the case cut at the first point that
        ``matches``, and that point, or ``None``."""
        s = self.session(variant if variant is not self.variant else None, "witness")
        try:
            case.position.game(variant)
        except ValueError:
            return None
        if not s.start(case.position):
            return None
        for i, a in enumerate(case.actions):
            g = s.game
            assert g is not None
            if isinstance(a, Roll):  # a re-roll's dice
                if not g.awaiting_roll or g.to_move is None:
                    return None
                try:  # the dice checked first: a HarnessError (a ValueError) is the engine's
                    g.roll(dice=a.dice)
                except ValueError:
                    return None
                s.roll(a.dice)
                continue
            if g.to_move is None or g.awaiting_roll or g.violation(a) is not None:
                return None
            for j in s.check_point():
                if matches(j):
                    return Case(case.position, case.actions[:i]), j
            for j in s.apply(a):
                if matches(j):
                    return Case(case.position, case.actions[: i + 1]), j
            if s.broken:
                return None
        g = s.game
        assert g is not None
        if g.winner is not None:
            for j in s.check_end(case.probe):
                if matches(j):
                    return case, j
            return None
        if g.to_move is None or g.awaiting_roll:
            return None
        for j in s.check_point():
            if matches(j):
                return case, j
        if case.probe is not None and g.violation(case.probe) is not None:
            for j in s.probe(case.probe):
                if matches(j):
                    return case, j
        return None

    def witness(self, root: Root) -> Failure:
        found = root.first
        obs = found.observation
        variant = obs.variant
        steps = obs.steps
        probe = None
        if obs.kind == "act" and obs.engine:  # it took what the edition refuses
            probe = obs.action
        elif obs.kind in ("act", "outcome") and obs.action is not None:
            steps = (*steps, obs.action)
        elif obs.kind == "end":
            probe = obs.action

        def matches(j: Judged) -> bool:
            return not j.ok and root.explains(j)

        def fails(c: Case) -> Case | None:
            got = self.rerun(variant, c, matches)
            return None if got is None else got[0]

        small = shrink(Case(obs.start, steps, probe), fails)
        again = self.rerun(variant, small, matches)
        if again is not None:
            found = again[1]
        return self.failure(root, found)

    def failure(self, root: Root, found: Judged) -> Failure:
        obs = found.observation
        overrides = {k: v for k, v in obs.variant.values().items() if self.values.get(k) != v}
        then, engine, reference = then_of(found)
        detail = found.detail
        if root.scope == COUNT:
            detail = tx("the engine counts as if no face were wild: {detail}", detail=detail)
        knob = {} if root.scope else dict(root.knob)
        says = {} if root.scope else dict(root.edition)
        scoped = {"scope": root.scope, "knob": root.knob} if root.scope else {"knob": knob}
        witness = witness_document(
            self.ref, overrides, obs.start, obs.steps, then, ask=obs.kind, rule=root.rule,
            edition_values=says, engine=engine, reference=reference, detail=detail.text("en"),
            **scoped,
        )  # fmt: skip
        decided: list[str] = []
        game = reach(obs, obs.variant) if obs.kind == "outcome" else None
        if game is not None and isinstance(obs.action, Dudo | Calza) and game.is_legal(obs.action):
            decided = [c.rule for c in decided_by(game, obs.action, obs.variant)]
        return Failure(root.rule, detail, witness, root.first.observation.source, knob, says,
                       list(found.consequences), len(root.differences), decided)  # fmt: skip

    def finish(self, known: Sequence[Root] = (), shrunk: bool = True) -> None:
        """Diagnose the run's differences: one root failure each, with its witness
        shrunk (unless ``shrunk`` is false: the first difference as it was met);
        ``known``: roots to try first, a re-run witness's."""
        rep = self.report

        def ask(probe: Probe, variant: Variant) -> list[Judged]:
            return self.at(probe, variant) or []

        for root in diagnose(self.differences, self.passing, known, ask):
            rep.failed[root.rule] = rep.failed.get(root.rule, 0) + len(root.differences)
            found = self.witness(root) if shrunk else self.failure(root, root.first)
            rep.failures.append(found)

    def replay_case(self, variant: Variant, case: Case) -> None:
        """A witness again: its position, its actions (each point compared), then its
        action (``case.probe``) judged at the end."""
        s = self.session(variant if variant != self.variant else None, "witness")
        if not s.start(case.position):
            self.report.skipped += 1
            return
        self.report.scenarios += 1
        for a in case.actions:
            g = s.game
            assert g is not None
            if isinstance(a, Roll):
                s.roll(a.dice)
                continue
            if g.to_move is None or g.awaiting_roll or g.violation(a) is not None:
                raise ValueError(f"the witness's step {format_step(a)} is not legal here")
            self.record(s.check_point())
            self.record(s.apply(a))
            if s.broken:
                return
        g = s.game
        assert g is not None
        then = case.probe
        if g.winner is not None:
            self.record(s.check_end(then))
            return
        if g.to_move is None or g.awaiting_roll:
            return
        self.record(s.check_point())
        if then is not None:
            self.record(s.probe(then) if g.violation(then) is not None else s.apply(then))

    # --- scenarios ----------------------------------------------------------------------

    def scenario(self, sc: Scenario, variant: Variant, expect_as: str) -> None:
        s = self.session(variant if variant != self.variant else None, f"scenario {sc.id}")
        try:  # asked before the engine, whose HarnessError is a ValueError too
            sc.start.game(variant)
        except ValueError:  # this edition does not allow the scenario's start
            return
        if not s.start(sc.start):
            self.report.skipped += 1
            return
        self.report.scenarios += 1
        for step in sc.steps:
            game = s.game
            assert game is not None
            parsed = parse_step(step.action)
            if isinstance(parsed, Roll):
                s.roll(parsed.dice)
                continue
            if game.to_move is None or game.awaiting_roll or isinstance(parsed, Leave):
                return  # a leave is no request of the protocol: the rest is not observed
            self.record(s.check_point())
            expect = step.expect_for(expect_as)
            refused = game.violation(parsed) is not None
            if isinstance(parsed, Bid) and parsed.quantity > game.space.cap and not refused:
                return  # a legal bid beyond the listed table: outside the protocol's scope
            if refused:
                if "illegal" not in expect:
                    return  # this edition refuses a step its own edition plays: no further
                self.record(s.probe(parsed))
            elif not step.probe:
                self.record(s.apply(parsed))
            if s.broken:
                return

    # --- random games -------------------------------------------------------------------

    def game(self, rng: random.Random, number: int) -> None:
        rules = self.variant.rules
        players = rng.randint(rules.players_min, min(rules.players_max, 4))
        game = Game.new(self.variant, players, seed=rng.getrandbits(32))
        s = self.session(source=f"random game {number}")
        if not s.start(Position.of(game)):
            self.report.skipped += 1
            return
        self.report.games += 1
        while s.game is not None and s.game.winner is None and s.game.round <= MAX_ROUNDS:
            g = s.game
            if g.awaiting_roll:  # the next round's dice, or a re-roll's
                s.roll(roll_cups(rules.dice_faces, g.roll_counts, rng))
                continue
            self.record(s.check_point())
            if rng.random() < 0.3:
                bad = _illegal(g, rng)
                if bad is not None:
                    self.record(s.probe(bad))
                    if s.broken:
                        return
            legal = g.legal_actions()
            self.record(s.apply(legal[int(rng.random() * len(legal))]))
            if s.broken:
                return
        if s.game is not None and s.game.winner is not None:
            seat = rng.randrange(s.game.players)
            after = Bid(seat, 1, 1) if rng.random() < 0.5 else Dudo(seat)
            self.record(s.check_end(after))

    # --- targeted probes ----------------------------------------------------------------

    def probes(self, probes: Sequence[Probe]) -> None:
        """Positions built for each rule, where it decides: its verdict sent to the engine."""
        for probe in probes:
            found = self.at(probe)
            if found is None:
                continue
            self.report.probes[probe.rule] = self.report.probes.get(probe.rule, 0) + 1
            self.record(found)
            if all(j.ok for j in found):  # the engine answered as the rule decides there
                passed = self.report.passed
                passed[probe.rule] = passed.get(probe.rule, 0) + 1

    def at(self, probe: Probe, variant: Variant | None = None) -> list[Judged] | None:
        """The engine at a probe's point (under ``variant``, default the edition): every
        seat's legal actions, then the probe's action (refused or played); ``None`` when
        the point is not reached."""
        under = None if variant is None or variant == self.variant else variant
        s = self.session(under, f"probe {probe.rule}" if probe.rule else "diagnosis")
        try:  # asked before the engine, whose HarnessError is a ValueError too
            probe.position.game(under or self.variant)
        except ValueError:
            return None
        if not s.start(probe.position):
            self.report.skipped += 1
            return None
        found: list[Judged] = []
        for step in probe.steps:
            if s.broken or s.game is None or s.game.to_move is None:
                return None
            if isinstance(step, Roll):
                s.roll(step.dice)
            elif s.game.violation(step) is not None:
                return None  # a point this edition does not reach
            else:
                found += s.apply(step)
        g = s.game
        if s.broken or g is None or g.to_move is None or g.awaiting_roll:
            return None
        found += s.check_point()
        if probe.action is not None:
            bad = g.violation(probe.action) is not None
            found += s.probe(probe.action) if bad else s.apply(probe.action)
        return found

    # --- perft --------------------------------------------------------------------------

    def perft(self, entry: dict[str, Any], budget: int) -> None:
        """A perft position counted through the engine (:func:`count_through`): a
        mismatch's first differing position is one of the run's differences."""
        check = count_through(self.engine, self.variant, self.values, entry, budget,
                              self.differences)  # fmt: skip
        if check is None:
            self.report.skipped += 1
        else:
            self.report.perft.append(check)


def _illegal(game: Game, rng: random.Random) -> Action | None:
    """An action the reference refuses now, drawn from the round's bids, every call and
    bids out of every range (zero dice, faces beyond the die)."""
    assert game.to_move is not None
    seats = [s for s, c in enumerate(game.dice_counts) if c]
    table = game.space.bids
    cands: list[Action] = []
    for _ in range(8):
        seat = seats[int(rng.random() * len(seats))]
        kind = rng.random()
        if kind < 0.1:
            wild = out_of_range(game)
            a: Action = wild[int(rng.random() * len(wild))]
        elif kind < 0.6 and table:
            q, f = table[int(rng.random() * len(table))]
            a = Bid(game.to_move if kind < 0.5 else seat, q, f)
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
    asked: bool = False,
    only: Only | None = None,
) -> Report:
    """Run the kit against the engine ``command`` on ``editions`` (ids or files).

    ``channel`` replaces the subprocess (an engine in the same process, for tests);
    ``scenarios`` replaces the bundled scenarios; ``progress`` receives a line per step;
    ``perft_nodes`` bounds the positions each perft walk expands; ``asked`` says the
    editions were named, so that each must be claimed (:attr:`Report.exit_code`). With
    ``workers`` above 1 the editions run in that many processes at once, each against
    its own copy of the engine; the report is the same (each edition's games are seeded
    by the seed and the edition alone, and the editions are reported in order: after a
    harness error, none of the later ones), only ``seconds`` and the progress lines differ.
    ``only`` runs a witness file or named scenarios alone (``conform --witness``,
    ``--scenario``), with no probes, games or perft.
    """
    variants = [_edition(e) for e in editions]
    started = time.monotonic()
    report = Report(engine="?", command=command, editions=[], asked=asked)
    say = progress or (lambda text: None)
    try:
        with contextlib.ExitStack() as stack:
            engine = channel or stack.enter_context(Engine(command, timeout=timeout))
            claims = greet(engine, report)
            if workers > 1 and channel is None and len(editions) > 1 and only is None:
                stack.close()  # each worker starts its own engine
                _in_workers(command, timeout, editions, claims, scenarios, games, seed,
                            perft_nodes, workers, report, say)  # fmt: skip
            else:
                all_scenarios = load_scenarios() if scenarios is None else list(scenarios)
                for ref, variant in zip(editions, variants, strict=True):
                    rep = _edition_report(ref, variant, claims)
                    report.editions.append(rep)
                    if only is not None:
                        _run_only(engine, rep, ref, variant, claims, all_scenarios, only, say)
                        continue
                    _run_edition(engine, rep, ref, variant, claims, all_scenarios, games,
                                 seed, perft_nodes, say)  # fmt: skip
    except HarnessError as exc:
        report.error = str(exc)
        if report.editions:
            report.editions[-1].complete = False
    report.seconds = time.monotonic() - started
    return report


def greet(engine: Channel, report: Report) -> list[Any]:
    """The engine's hello: its name (into ``report``) and its claims, checked."""
    hello = engine.ask({"cmd": "hello", "protocol": PROTOCOL})
    name, claims = hello.get("name"), hello.get("claims")
    if not isinstance(name, str) or not name:
        raise HarnessError(tr("the engine's hello reply has no name"))
    problem = claims_problem(claims)
    if problem is not None:
        raise HarnessError(tr("the engine's claims are malformed: {problem}", problem=problem))
    assert isinstance(claims, list)
    report.engine = name[:200]
    return claims


def _edition_report(ref: str, variant: Variant, claims: list[Any]) -> EditionReport:
    """An edition's report, under the name it was asked by (an id, or a file as given)."""
    values = variant.values()
    rep = EditionReport(edition=ref, claimed=claim_covers(claims, values))
    if not rep.claimed:
        rep.keeps_out = keeps_out(claims, values)
    return rep


def examine(engine: Channel, ref: str, variant: Variant, games: int, seed: int,
            say: Progress | None = None, shrunk: bool = True) -> EditionReport:  # fmt: skip
    """A quick look at an engine under ``variant`` (claimed or not): its targeted probes
    and ``games`` random games, then the diagnosis, its witnesses ``shrunk`` or as met
    (what ``--profile`` runs each round)."""
    rep = EditionReport(edition=ref, claimed=True)
    run = _Run(engine, variant, ref, rep)
    (say or (lambda text: None))(f"{ref}: targeted probes")
    run.probes(probes_for(variant))
    rng = random.Random(f"{seed}:{ref}")
    for n in range(1, games + 1):
        run.game(rng, n)
    run.finish(shrunk=shrunk)
    return rep


@dataclass(frozen=True)
class Only:
    """A run of one thing alone: a witness file's case (``witness``: the variant it is
    played under and its case), or the scenarios named ``scenarios``; ``known`` the root
    causes the witness recorded, tried first."""

    witness: tuple[Variant, Case] | None = None
    scenarios: tuple[str, ...] = ()
    known: tuple[Root, ...] = ()


def _run_only(engine: Channel, rep: EditionReport, ref: str, variant: Variant,
              claims: list[Any], all_scenarios: Sequence[Scenario], only: Only,
              say: Progress) -> None:  # fmt: skip
    if not rep.claimed:
        return
    run = _Run(engine, variant, ref, rep)
    if only.witness is not None:
        under, case = only.witness
        if under is variant or claim_covers(claims, under.values()):
            say(tr("{edition}: witness", edition=rep.edition))
            run.replay_case(under, case)
    for sc, under, expect_as in scenarios_for(ref, variant, all_scenarios):
        if sc.id in only.scenarios and (under is variant or claim_covers(claims, under.values())):
            say(tr("{edition}: scenario {id}", edition=rep.edition, id=sc.id))
            run.scenario(sc, under, expect_as)
    run.finish(only.known)


def _run_edition(
    engine: Channel,
    rep: EditionReport,
    ref: str,
    variant: Variant,
    claims: list[Any],
    all_scenarios: Sequence[Scenario],
    games: int,
    seed: int,
    perft_nodes: int,
    say: Progress,
) -> None:
    """One claimed edition: its scenarios, targeted probes, random games and perft
    counts, into ``rep``; then the diagnosis of every difference."""
    if not rep.claimed:
        return
    run = _Run(engine, variant, ref, rep)
    rep.unread = unread_rules(variant)
    for sc, under, expect_as in scenarios_for(ref, variant, all_scenarios):
        if under is variant or claim_covers(claims, under.values()):
            say(tr("{edition}: scenario {id}", edition=rep.edition, id=sc.id))
            run.scenario(sc, under, expect_as)
    say(tr("{edition}: targeted probes", edition=rep.edition))
    run.probes(probes_for(variant))
    rng = random.Random(f"{seed}:{rep.edition}")
    for n in range(1, games + 1):
        say(tr("{edition}: random game {n}/{games}", edition=rep.edition, n=n, games=games))
        run.game(rng, n)
    for entry in perft_positions(ref, variant, perft_nodes):
        say(tr("{edition}: perft {name}", edition=rep.edition, name=entry["name"]))
        run.perft(entry, perft_nodes)
    say(tr("{edition}: diagnosis", edition=rep.edition))
    run.finish()


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
    args = (command, timeout, claims, scenarios, games, seed, perft_nodes, language())
    with workers_pool(min(workers, len(editions))) as pool:  # stopped: workers ended too
        futures = [pool.submit(_edition_in_worker, ref, *args) for ref in editions]
        for ref, fut in zip(editions, futures, strict=True):
            rep, error = fut.result()
            report.editions.append(rep)
            say(tr("{edition}: done", edition=rep.edition or ref))
            if error is not None:
                for rest in futures:
                    rest.cancel()
                raise HarnessError(error)


def _edition_in_worker(ref: str, command: str, timeout: float, claims: list[Any],
                       scenarios: Sequence[Scenario] | None, games: int, seed: int,
                       perft_nodes: int, lang: str = "en",
                       ) -> tuple[EditionReport, str | None]:  # fmt: skip
    """One edition in a worker process, against an engine of its own (greeted first), its
    errors in ``lang`` (the language of the run)."""
    with use_language(lang):
        variant = _edition(ref)
        rep = _edition_report(ref, variant, claims)
        if not rep.claimed:
            return rep, None
        all_scenarios = load_scenarios() if scenarios is None else list(scenarios)
        try:
            with Engine(command, timeout=timeout) as engine:
                greet(engine, Report(engine="?", command=command, editions=[]))
                _run_edition(engine, rep, ref, variant, claims, all_scenarios, games, seed,
                             perft_nodes, lambda text: None)  # fmt: skip
        except HarnessError as exc:
            rep.complete = False
            return rep, str(exc)
        return rep, None
