"""Mutation run: deliberate rule breaks, one at a time, each must turn the suite red.

``make mutants`` (or ``.venv/bin/python .ci/mutants.py``) copies the package, its data
and the tests into a temporary directory, applies ONE mutant there (an exact text
replacement in a rules file: the kernel and the modules beside it, the bid table, the
ruleset or the game), runs the relevant tests against the copy (``PYTHONPATH`` points at
it), and prints a kill table: each mutant and the tests that failed. The working tree is
never modified. A mutant whose snippet is no longer in the engine (it was refactored) is
reported as ``snippet not found`` instead of crashing the run.

Options: ``--jobs N`` (parallel copies, default 2), ``--only NAME`` (repeatable),
``--tests PATH`` (repeatable; default: the scenario, property, stateful, kernel and fast-
path tests), ``--check`` (only check that every snippet is still found). Exit status 0
when every mutant is killed, 1 otherwise."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_TESTS = (
    "tests/test_scenarios.py",
    "tests/test_properties.py",
    "tests/test_stateful.py",
    "tests/test_kernel.py",
    "tests/test_fastplay.py",
    "tests/test_frontends.py",
    "tests/test_visibility.py",
    "tests/test_listing.py",
    "tests/test_reroll.py",
    "tests/test_leave.py",
    "tests/test_viewer_record.py",
)
COPY = ("perudo_rules", "spec", "variants", "tests", "pyproject.toml")


@dataclass(frozen=True)
class Mutant:
    """A deliberate rule break: replace ``old`` (exactly once) by ``new`` in ``file``."""

    name: str
    description: str
    file: str
    old: str
    new: str


K = "perudo_rules/engine/kernel.py"
S = "perudo_rules/engine/settlement.py"
ST = "perudo_rules/engine/start.py"
R = "perudo_rules/engine/ranks.py"
RS = "perudo_rules/editions/ruleset.py"
G = "perudo_rules/engine/game.py"
RR = "perudo_rules/engine/reroll.py"
LV = "perudo_rules/engine/leaving.py"
RD = "perudo_rules/records/redact.py"

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        "to-wild-floor",
        "to wilds needs floor(q/k) instead of ceil(q/k) (wild key shifted by k-1)",
        R,
        "return (self.worth * quantity, -1 if self.wild_below else 1, 0)",
        "return (self.worth * quantity + self.worth - 1, -1 if self.wild_below else 1, 0)",
    ),
    Mutant(
        "from-wild-2q",
        "back from w wilds needs k*w instead of k*w+1 dice",
        R,
        "return (self.worth * quantity, -1 if self.wild_below else 1, 0)",
        "return (self.worth * quantity, -1, 0)",
    ),
    Mutant(
        "palifico-wilds-count",
        "wilds count (and rank as wilds) in palifico rounds",
        R,
        "wild = rules.wild if (not palifico or rules.palifico_wilds_count) else None",
        "wild = rules.wild",
    ),
    Mutant(
        "quantity-cap-off-by-one",
        "a bid naming every die in play is refused",
        R,
        "self.wild_cap if face == rules.wild else self.cap for face in range(self.faces + 1)",
        "self.wild_cap if face == rules.wild else self.cap - 1 for face in range(self.faces + 1)",
    ),
    Mutant(
        "calza-cap-dropped",
        "an exact Calza gains a die even at the cap",
        S,
        "if counts[caller] < calza_gain_limit(rules):",
        "if True:",
    ),
    Mutant(
        "wrong-next-starter",
        "after a Dudo the challenge winner starts instead of the loser (and vice versa)",
        S,
        'starter = loser if rules.round_starter == "loser" else challenge_winner',
        'starter = challenge_winner if rules.round_starter == "loser" else loser',
    ),
    Mutant(
        "reveal-no-early-stop",
        "the Italian reveal lifts every cup instead of stopping when the bid is reached",
        S,
        "reached = rules.challenge_early_stop",
        "reached = False",
    ),
    Mutant(
        "reveal-stops-although-unread",
        "the reveal stops early where a Dudo costs more than one die (challenge.early_stop "
        "read although the knob table says challenge.loss: difference never reads it)",
        S,
        "if dudo and rr.one_die and (reached or unreachable):",
        "if dudo and (reached or unreachable):",
    ),
    Mutant(
        "palifico-once-ignored",
        "palifico rounds repeat for a seat although once_per_player",
        S,
        "if candidate is not None and not (rules.palifico_once_per_player and candidate in used):",
        "if candidate is not None:",
    ),
    Mutant(
        "face-lock-ignored",
        "in palifico rounds anyone may change the face",
        K,
        'if lock == "free":',
        "if True:",
    ),
    Mutant(
        "single-die-exception-wrong",
        "the face-change exception goes to seats with two dice instead of one",
        K,
        "single = self.counts[player] == 1",
        "single = self.counts[player] == 2",
    ),
    Mutant(
        "dudo-by-non-mover",
        "any seat but the bidder may call Dudo where only the player to move may",
        K,
        "if p != to_move and (",
        "if False and (",
    ),
    Mutant(
        "wild-opening-ban-ignored",
        "a wild bid may always open (the Spanish ban and the first-round reading ignored)",
        K,
        "            banned = rules.wild is not None\n",
        "            banned = False\n",
    ),
    Mutant(
        "calza-by-bidder",
        "the bidder may call Calza on their own bid",
        K,
        'return Refusal("calza.who", "calza-own-bid", {})',
        "pass",
    ),
    Mutant(
        "calza-by-next-player",
        "the player to move may call Calza where the variant excludes them",
        K,
        'if p == to_move and calza_who in ("any_except_bidder_and_next", "any_except_next"):',
        "if False:",
    ),
    Mutant(
        "dudo-tie-flipped",
        "a Dudo with count exactly the quantity costs the bidder, not the challenger",
        S,
        "loser = caller if count >= bid.quantity else bid.player",
        "loser = caller if count > bid.quantity else bid.player",
    ),
    Mutant(
        "direction-ignored",
        "play always passes to the next higher seat, whatever setup.direction says",
        RS,
        'object.__setattr__(self, "direction", 1 if self.setup_direction == "left" else -1)',
        'object.__setattr__(self, "direction", 1)',
    ),
    Mutant(
        "out-starter-not-skipped",
        "an eliminated loser still opens the next round",
        S,
        "if not new_counts[starter]:",
        "if False:",
    ),
    Mutant(
        "reveal-lists-out-seats",
        "reveals list seats that are out",
        S,
        "order = [s for s in ((start + direction * i) % n for i in range(n)) if counts[s]]",
        "order = [(start + direction * i) % n for i in range(n)]",
    ),
    Mutant(
        "reveal-from-challenger",
        "a Dudo reveal starts at the challenger instead of the next seat",
        S,
        "start = caller + direction if dudo else caller",
        "start = caller",
    ),
    Mutant(
        "palifico-heads-up-ignored",
        "palifico rounds happen heads-up although palifico.heads_up is false",
        S,
        "if rules.palifico_enabled and (rules.palifico_heads_up or alive > 2):",
        "if rules.palifico_enabled:",
    ),
    Mutant(
        "calza-next-ignored",
        "after a Calza the player to move opens, whatever calza.next_starts says",
        S,
        'if after_calza == "caller":',
        "if False:",
    ),
    Mutant(
        "palifico-not-after-calza",
        "a wrong Calza that leaves the caller with one die brings no palifico round",
        S,
        'and (dudo or trigger == "reduced_to_one")',
        "and dudo",
    ),
    Mutant(
        "wilds-never-count",
        "wild dice never count toward other faces",
        K,
        "total += cup.count(face) + cup.count(wild)",
        "total += cup.count(face)",
    ),
    Mutant(
        "out-seat-may-call",
        "a seat without dice may call",
        K,
        "return type(p) is not int or not 0 <= p < len(counts) or not counts[p]",
        "return type(p) is not int or not 0 <= p < len(counts)",
    ),
    Mutant(
        "verdict-accepts-non-raise",
        "the verdict takes a bid that does not raise the standing bid",
        K,
        "if rank > cur_rank:",
        "if True:",
    ),
    Mutant(
        "round-not-counted",
        "the round number does not advance with a roll",
        G,
        "nxt = self.round + 1",
        "nxt = self.round",
    ),
    Mutant(
        "opener-may-always-change",
        "the palifico player may change its face whatever palifico.opener_may_change says",
        K,
        "            return rules.palifico_opener_may_change",
        "            return True",
    ),
    Mutant(
        "former-palifico-ignored",
        "the former-palifico exception frees nobody",
        K,
        '        if lock == "locked_except_former_palifico":\n            return former',
        '        if lock == "locked_except_former_palifico":\n            return False',
    ),
    Mutant(
        "calza-bidder-always-barred",
        "the bidder may never call Calza, even where calza.who lets it",
        K,
        'if p == bidder and calza_who in ("any_except_bidder_and_next", "any_except_bidder"):',
        "if p == bidder:",
    ),
    Mutant(
        "calza-in-palifico-ignored",
        "Calza is allowed in palifico rounds although calza.in_palifico is false",
        K,
        "if self.palifico and not rules.calza_in_palifico:",
        "if False:",
    ),
    Mutant(
        "no-cap-still-capped",
        "bids above the dice in play are refused although bidding.quantity_cap is none",
        K,
        "            if table.capped:\n                return Refusal(",
        "            if True:\n                return Refusal(",
    ),
    Mutant(
        "unreachable-stop-ignored",
        "the reveal never stops once the bid is unreachable",
        S,
        "unreachable and running + down < bid.quantity",
        "False",
    ),
    Mutant(
        "dudo-trigger-counts-calza",
        "a wrong Calza brings a palifico round under reduced_to_one_by_dudo",
        S,
        'and (dudo or trigger == "reduced_to_one")',
        "and True",
    ),
    Mutant(
        "right-calza-caller-starts",
        "after a right Calza the caller opens under loser_else_bidder",
        S,
        "starter = caller if loser == caller else bid.player",
        "starter = caller",
    ),
    Mutant(
        "palifico-wild-ban-ignored",
        "wild bids are allowed in palifico rounds whatever palifico.wild_bids says",
        K,
        'banned = rules.wild is not None and wild_bids != "allowed"',
        "banned = False",
    ),
    Mutant(
        "rolloff-wild-not-best",
        "the wild face never scores best in the roll-off",
        ST,
        "values = [faces + 1 if d == best_wild else d for d in dice]",
        "values = dice",
    ),
    Mutant(
        "plain-window-wrong",
        "the kernel tells the fast path every higher rank is open, under a face lock or a wild ban",
        K,
        "self.plain = not self.ban_later and not self.locked",
        "self.plain = True",
    ),
    Mutant(
        "fast-verdict-takes-the-standing-bid",
        "the verdict's plain-round shortcut accepts the standing bid itself as a raise",
        K,
        "if standing is not None and rank > standing:",
        "if standing is not None and rank >= standing:",
    ),
    Mutant(
        "fast-verdict-ignores-the-seat-type",
        "the verdict's plain-round shortcut takes a bool as the seat to move",
        K,
        "if self.plain and p == to_move and type(p) is int:",
        "if self.plain and p == to_move:",
    ),
    Mutant(
        "raise-window-ignores-lock",
        "the listed raises ignore the palifico face lock",
        K,
        "if self.locked and not self.face_free(to_move):",
        "if False:",
    ),
    Mutant(
        "successor-skips-none",
        "the next seat with dice is the next seat even when it is out",
        K,
        "self.successor = tuple([next_seat(counts, direction, s) for s in range(len(counts))])",
        "self.successor = tuple([(s + direction) % len(counts) for s in range(len(counts))])",
    ),
    Mutant(
        "neither-decreases-face-may-drop",
        "under bidding.order neither_decreases a raise may lower the face",
        K,
        "if q >= cq and f >= cf and (q != cq or f != cf):",
        "if q >= cq and (q != cq or f != cf):",
    ),
    Mutant(
        "grid-lists-lower-faces",
        "the listed neither_decreases raises include lower faces",
        R,
        "faces = tuple(f for f in range(face, self.faces + 1) if f != skip)",
        "faces = tuple(f for f in range(1, self.faces + 1) if f != skip)",
    ),
    Mutant(
        "wild-rank-below-ignored",
        "wild bids always rank just above k*w, whatever bidding.wild_rank says",
        R,
        "return (self.worth * quantity, -1 if self.wild_below else 1, 0)",
        "return (self.worth * quantity, 1, 0)",
    ),
    Mutant(
        "quantity-limit-table-ignored",
        "the bid table runs to the cap, past bidding.quantity_limit",
        R,
        "self.cap = cap if limit is None else min(cap, limit)",
        "self.cap = cap",
    ),
    Mutant(
        "quantity-limit-wild-ignored",
        "wild bids may name as many wilds as ordinary bids name dice under the limit",
        R,
        "return quantity > (limit // self.worth if face == self.limit_face else limit)",
        "return quantity > limit",
    ),
    Mutant(
        "loss-difference-ignored",
        "a Dudo always costs one die, whatever challenge.loss says",
        S,
        'lose = abs(count - bid.quantity) if rules.challenge_loss == "difference" else 1',
        "lose = 1",
    ),
    Mutant(
        "one-die-shortcut-always",
        "a Dudo always takes the one-die shortcut, whatever challenge.loss and .exact say",
        K,
        "self.one_die = rules.challenge_loss ==",
        "self.one_die = True or rules.challenge_loss ==",
    ),
    Mutant(
        "exact-others-ignored",
        "an exact count costs only the challenger, whatever challenge.exact says",
        S,
        'if count == bid.quantity and rules.challenge_exact == "others_lose":',
        "if False:",
    ),
    Mutant(
        "calza-min-players-ignored",
        "Calza may be called with any number of seats left",
        K,
        "if self.alive < rules.calza_min_players:",
        "if False:",
    ),
    Mutant(
        "after-caller-ignored",
        "after a Dudo the loser opens, whatever round.starter after_caller says",
        S,
        "if dudo and rr.after_caller:",
        "if False:",
    ),
    # the protocol around the rules (issue 18): offers and what the reveal shows
    Mutant(
        "offers-skip-bidder",
        "the bidder is never offered an out-of-turn Calza on its own bid",
        K,
        "        callers.discard(to_move)\n",
        "        callers.discard(to_move)\n        callers.discard(bidder)\n",
    ),
    Mutant(
        "offers-from-to-move",
        "out-of-turn offers start at the player to move's predecessor, not its successor",
        K,
        "            s = successor[to_move]\n",
        "            s = successor[successor[to_move]]\n",
    ),
    Mutant(
        "early-stop-needs-no-count",
        "an early-stop reveal stops even where the loss needs the true count",
        S,
        "if dudo and rr.one_die and (reached or unreachable):",
        "if dudo and (reached or unreachable):",
    ),
    Mutant(
        "reroll-all-aside",
        "a re-roll may set every concealed die aside (reroll.min_hidden ignored by one)",
        RR,
        "    if len(hidden) < rules.reroll_min_hidden:",
        "    if len(hidden) < rules.reroll_min_hidden - 1:",
    ),
    Mutant(
        "reroll-then-call",
        "after a re-roll the player may challenge even where reroll.must_bid says it bids",
        RR,
        "    if rules.reroll_must_bid and p == to_move and type(action) in (Dudo, Calza):",
        "    if False and p == to_move and type(action) in (Dudo, Calza):",
    ),
    Mutant(
        "reroll-forgets-set-aside",
        "a second re-roll puts the dice set aside earlier back under the cup",
        RR,
        "    aside = tuple(sorted(state.set_aside[p] + action.set_aside))",
        "    aside = tuple(sorted(action.set_aside))",
    ),
    Mutant(
        "reroll-twice-a-turn",
        "a seat may re-roll again in the turn it re-rolled (reroll.limit: once_per_turn)",
        RR,
        "    if state.rerolled_now(seat, bids_made):\n        return Refusal(",
        "    if False:\n        return Refusal(",
    ),
    Mutant(
        "reroll-limit-per-round-ignored",
        "under reroll.limit: once_per_round a seat re-rolls again in a later turn",
        RR,
        'if rules.reroll_limit == "once_per_round" and state.rerolled(seat):',
        "if False:",
    ),
    Mutant(
        "reroll-in-every-edition",
        "a re-roll is accepted where the edition has none (reroll.enabled false)",
        RR,
        '    if not rules.reroll_enabled:\n        return Refusal("reroll.enabled", "no-reroll", '
        '{})\n    if type(p)',
        "    if type(p)",
    ),
    Mutant(
        "reroll-any-face",
        "a re-roll may set aside a face its concealed dice do not show (play.reroll)",
        RR,
        "        if f not in hidden:\n            held = ",
        "        if f not in hidden and False:\n            held = ",
    ),
    Mutant(
        "reroll-bid-in-the-air",
        "a bid is taken while the re-rolled dice are still to be rolled (play.roll)",
        RR,
        "    if state is not None and state.pending and type(action) is not Leave:",
        "    if False:",
    ),
    Mutant(
        "reroll-dealt-cup-shown",
        "a re-roller's cup lifted at the reveal is shown as dealt in another seat's record",
        RD,
        "(seat not in seen or rolls.get(seat))",
        "(seat not in seen)",
    ),
    Mutant(
        "leave-next-starts-ignored",
        "after a leave called the round off, its opener opens, whatever leave.next_starts says",
        LV,
        'starter = opener if who == "round_opener" else to_move if who == "player_to_move" '
        "else seat",
        "starter = opener",
    ),
    Mutant(
        "leave-round-always-void",
        "a leave calls the round off even under leave.round: continues",
        LV,
        'if rules.leave_round == "continues":\n        return None',
        'if False:\n        return None',
    ),
    Mutant(
        "leave-palifico-not-replayed",
        "a palifico round called off by a leave is not played again",
        LV,
        "if rr.palifico and owner is not None and new_counts[owner] and heads_up:",
        "if False:",
    ),
    Mutant(
        "leave-table-shrinks",
        "the rest of a round a seat left gets the bid table of the dice left (a lower cap)",
        LV,
        "        rr.used,\n        rr.table,\n    )",
        "        rr.used,\n    )",
    ),
    Mutant(
        "leaver-keeps-the-turn",
        "the turn stays with a seat that left a round that goes on",
        G,
        "to_move=rest.successor[seat] if to_move == seat else to_move,",
        "to_move=to_move,",
    ),
)


@dataclass
class Outcome:
    """What happened to one mutant."""

    mutant: Mutant
    status: str  # killed, SURVIVED, snippet not found, snippet ambiguous, error
    killers: tuple[str, ...] = ()
    seconds: float = 0.0
    detail: str = ""


def _copy_tree(dest: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis", "_build")
    for name in COPY:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=ignore)
        else:
            shutil.copy2(src, dest / name)


def _locate(m: Mutant, root: Path) -> str | None:
    """``None`` if the snippet occurs exactly once in the file under ``root``, else why not."""
    path = root / m.file
    if not path.is_file():
        return f"file {m.file} not found"
    n = path.read_text(encoding="utf-8").count(m.old)
    if n == 0:
        return "snippet not found"
    if n > 1:
        return f"snippet ambiguous ({n} matches)"
    return None


def _run_tests(
    root: Path, tests: list[str], junit: Path, timeout: float
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(root)
    env.setdefault("HYPOTHESIS_PROFILE", "mutants")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        *tests,
        "-q",
        "-p",
        "no:cacheprovider",
        "--no-header",
        f"--junitxml={junit}",
        "-o",
        "addopts=",
    ]
    try:
        return subprocess.run(
            cmd, cwd=root, env=env, capture_output=True, text=True, check=False, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(cmd, -1, "", f"timed out after {timeout:.0f}s")


def _failures(junit: Path) -> tuple[str, ...]:
    if not junit.is_file():
        return ()
    out = []
    for case in ET.parse(junit).getroot().iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            cls = case.get("classname", "").rsplit(".", 1)[-1]
            out.append(f"{cls}::{case.get('name')}")
    return tuple(out)


def _check_imports_copy(root: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(root))
    got = subprocess.run(
        [sys.executable, "-c", "import perudo_rules; print(perudo_rules.__file__)"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if not Path(got).resolve().is_relative_to(root.resolve()):
        raise SystemExit(f"mutants: the copy is not imported (got {got}); refusing to run")


def run_one(m: Mutant | None, tests: list[str], timeout: float = 1800) -> Outcome:
    """Copy, mutate the copy, run the tests; ``m=None`` runs the unmutated baseline."""
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="perudo-mutant-") as tmp:
        root = Path(tmp)
        _copy_tree(root)
        _check_imports_copy(root)
        dummy = Mutant("baseline", "no change", G, "", "")
        if m is not None:
            problem = _locate(m, root)
            if problem is not None:
                return Outcome(m, problem)
            path = root / m.file
            path.write_text(path.read_text(encoding="utf-8").replace(m.old, m.new, 1), "utf-8")
            env = dict(os.environ, PYTHONPATH=str(root))
            probe = subprocess.run(
                [sys.executable, "-c", "import perudo_rules, perudo_rules.engine.game"],
                cwd=root,
                env=env,
                capture_output=True,
                text=True,
                check=False,
            )
            if probe.returncode != 0:
                err = probe.stderr.strip().splitlines()[-1:]
                return Outcome(m, "broken (does not import)", (), 0.0, "\n".join(err))
        proc = _run_tests(root, tests, root / "junit.xml", timeout)
        killers = _failures(root / "junit.xml")
        seconds = time.monotonic() - start
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-5:])
        if m is None:
            status = "green" if proc.returncode == 0 else "RED"
            return Outcome(dummy, status, killers, seconds, tail)
        if proc.returncode == 0:
            return Outcome(m, "SURVIVED", (), seconds, tail)
        if proc.returncode == -1:
            return Outcome(m, "timeout", killers, seconds, tail)
        if not killers:
            return Outcome(m, "error", (), seconds, tail)
        return Outcome(m, "killed", killers, seconds)


def _short(killers: tuple[str, ...]) -> str:
    """``N scenario(s); test, test, ...``: scenario cases counted, other tests named."""
    cases = [k for k in killers if "::test_scenario[" in k]
    others = []
    for k in killers:
        if k in cases:
            continue
        cls, _, name = k.partition("::")
        others.append(f"{cls.removeprefix('test_')}::{name}" if cls else name)
    parts = [f"{len(cases)} scenario case(s)"] if cases else []
    return "; ".join(parts + others)


def main(argv: list[str] | None = None) -> int:
    """Run the mutants and print the kill table; 0 when every mutant is killed."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--tests", action="append", default=[])
    ap.add_argument("--check", action="store_true", help="only check the snippets are found")
    ap.add_argument("--timeout", type=float, default=1800, help="seconds per mutant")
    args = ap.parse_args(argv)
    mutants = [m for m in MUTANTS if not args.only or m.name in args.only]
    unknown = set(args.only) - {m.name for m in MUTANTS}
    if unknown:
        print(f"mutants: unknown mutant(s): {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    tests = args.tests or list(DEFAULT_TESTS)

    missing = [(m, p) for m in mutants if (p := _locate(m, ROOT)) is not None]
    for m, p in missing:
        print(f"{m.name}: {p} in {m.file}: {m.old!r}")
    if args.check:
        print(f"{len(mutants) - len(missing)}/{len(mutants)} snippets found")
        return 1 if missing else 0

    print(f"baseline: running {' '.join(tests)} on an unmutated copy ...", flush=True)
    base = run_one(None, tests, args.timeout)
    if base.status != "green":
        print(f"baseline is RED; fix the suite first:\n{base.detail}")
        return 1
    print(f"baseline green in {base.seconds:.0f}s; {len(mutants)} mutants, {args.jobs} jobs")

    outcomes: list[Outcome] = []
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for o in pool.map(lambda m: run_one(m, tests, args.timeout), mutants):
            print(f"  {o.mutant.name}: {o.status} ({o.seconds:.0f}s)", flush=True)
            outcomes.append(o)

    width = max(len(o.mutant.name) for o in outcomes)
    print()
    print(f"{'mutant':<{width}}  {'status':<8}  {'fails':>5}  killed by")
    print(f"{'-' * width}  {'-' * 8}  {'-' * 5}  {'-' * 40}")
    for o in outcomes:
        first = _short(o.killers) or o.detail.replace("\n", " ")
        print(f"{o.mutant.name:<{width}}  {o.status:<8}  {len(o.killers):>5}  {first}")
    killed = sum(o.status == "killed" for o in outcomes)
    print(f"\n{killed}/{len(outcomes)} mutants killed")
    for o in outcomes:
        if o.status != "killed":
            print(f"\n{o.mutant.name} ({o.mutant.description}): {o.status}\n{o.detail}")
    return 0 if killed == len(outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
