"""perudo-rules benchmarks, side by side with OpenSpiel (``make bench``).

Prints one table and writes the figures as JSON (``benchmarks/results/bench-<time>.json``
or ``--out PATH``). Every figure is the median of ``--repeats`` runs; peers that are
compared (ours vs pyspiel) run in the same process, alternating inside every repeat, and
each ratio is the median of the per-repeat ratios, so it holds on a noisy machine.

The random policy, everywhere: at every decision point take the full
``legal_actions()`` list (bids of the player to move, then Dudo calls, then Calza calls
of every eligible seat, out-of-turn Calza included) and pick
``actions[int(rng.random() * len(actions))]``; between rounds ``game.roll(rng=rng)``.
One ``random.Random`` per benchmark run drives the policy; each game's opening dice come
from ``Game.new(variant, players, seed=i)``.

Benchmarks:

* A  whole uniform-random games of ``openspiel-liars-dice`` (2 seats x 5 dice) through the
     public step API vs ``pyspiel.load_game("liars_dice", {"numdice": 5})`` driven the same
     way (``chance_outcomes`` sampled, ``legal_actions``, ``apply_action``).
* B  the same games through :mod:`perudo_rules.engine.fastplay`, vs pyspiel.
* C  whole games of the seed editions, Italian and Spanish, 6 seats x 5 dice (113 decisions
     a game on average): the step API as in A (``Game.new``, ``legal_actions``, ``apply``,
     ``roll``; decisions per second) and the fast path (games per second), each against
     its target (:data:`SEED_TARGETS`: rates, not ratios; there is no pyspiel peer).
* D  per-decision cost of ``legal_actions``, ``is_legal``, ``apply`` and drawing a random
     legal action at 10, 30, 100 and 300 dice in play (bid tables warmed; their one-off
     build cost is reported separately).
* P  restoring a game at the end of a six-seat game: the verifying ``Game.from_json``
     against a sealed snapshot (``perudo_rules.restore``, target under 1 ms) and
     ``pickle.loads`` (``benchmarks/persistence.py``).
* R  the RL paths (``benchmarks/rl.py``), steps per second against pyspiel's ``liars_dice``
     through the same loop: R1 the PettingZoo ``raw_env`` (pyspiel's game through Shimmy),
     R2 the OpenSpiel adapter in OpenSpiel's ``rl_environment``; R3, for reference, what
     OpenSpiel's own Python game ``python_kuhn_poker`` reaches against its C++ twin there;
     R4, the floor under R2: a Python game of ``liars_dice``'s shape that does no work
     (``benchmarks/floorgame.py``). R4 near 1x says the crossing from C++ into Python costs
     little: what R2 misses is the adapter's own work.

The figures are those of the build that is imported: the pure-Python package, or the
compiled one (``make compiled``; ``benchmarks/compiled.py`` runs both and prints them side
by side, as ``make bench`` does). The first line of the table says which.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import gc
import importlib.util
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "benchmarks") not in sys.path:
    sys.path.insert(0, str(ROOT / "benchmarks"))  # rl.py (also under PYTHONSAFEPATH)
if str(ROOT) not in sys.path and importlib.util.find_spec("perudo_rules") is None:
    sys.path.insert(0, str(ROOT))  # run from a checkout without installing

import rl  # noqa: E402  # benchmarks/rl.py, beside this file
from persistence import persistence  # noqa: E402  # benchmarks/persistence.py

from perudo_rules import load_variant  # noqa: E402
from perudo_rules.base.actions import Bid, Dudo  # noqa: E402
from perudo_rules.base.errors import VariantError  # noqa: E402
from perudo_rules.base.table import format_table  # noqa: E402
from perudo_rules.base.version import build  # noqa: E402
from perudo_rules.editions.variant import Variant  # noqa: E402
from perudo_rules.engine.game import Game  # noqa: E402
from perudo_rules.engine.ranks import BidSpace  # noqa: E402

try:
    from perudo_rules.engine import fastplay
except ImportError:  # pragma: no cover - the fast path is optional for the harness
    fastplay = None  # type: ignore[assignment]

try:
    import pyspiel
except ImportError:  # pragma: no cover - open_spiel is an optional extra
    pyspiel = None

# Stand-in for variants/openspiel-liars-dice.yaml while that file does not exist.
_LIARS_DICE_OVERRIDES = {
    "players.min": 2,
    "players.max": 2,
    "wild.face": "highest",
    "bidding.order": "quantity_then_face",
    "bidding.wild_worth": 1,
    "bidding.wild_opening": "allowed",
    "challenge.who": "player_to_move",
    "challenge.early_stop": False,
    "calza.enabled": False,
    "palifico.enabled": False,
    "end.condition": "single_round",
    "setup.first_player": "seat_zero",
}

# Which build runs: pure Python, or compiled by mypyc (make compiled; benchmarks/compiled.py)
KERNEL = build

COMPILED = KERNEL == "compiled (mypyc)"
#: The targets of issue 24, by benchmark, for the pure (False) and the compiled (True) build.
TARGETS: dict[str, dict[bool, str]] = {
    "A": {False: ">= 0.6x", True: ">= 1.0x"},
    "B": {False: ">= 1.8x", True: ">= 3.0x"},
    "R1": {False: "measured", True: "measured"},
    "R2": {False: ">= 0.6x", True: ">= 1.0x"},
    "R3": {False: "reference", True: "reference"},
    "R4": {False: "reference", True: "reference"},
}
#: The seed editions of benchmark C, 6 seats x 5 dice each.
SEED_EDITIONS = ("italian", "spanish")
SEED_SEATS = 6
#: The targets of benchmark C (issue 25), by path, for the pure (False) and the compiled
#: (True) build: the step API in decisions per second, the fast path in games per second,
#: each on the machine class the issue was measured on. Pure: the figures of ``dd18d00``,
#: before the seed editions slowed down (22k decisions/s, 480 games/s). Compiled: the
#: compiled build before it slowed down (``86ac92d``, the last commit before
#: ``LegalActions.of``), measured against ``dd18d00`` in alternating runs on one machine
#: (1.83x on the step API, 1.74x on fastplay, the lower edition of the two), times those
#: figures. Rates depend on the machine: on another class compare with ``dd18d00`` there.
SEED_TARGETS: dict[str, dict[bool, float]] = {
    "step": {False: 22_000.0, True: 40_000.0},
    "fast": {False: 480.0, True: 830.0},
}
#: The RL paths: what runs on our side, and on pyspiel's (benchmarks/rl.py).
RL_PATHS = {
    "R1": ("openspiel-liars-dice 2x5, PettingZoo raw_env, AEC loop", "Shimmy AEC env, AEC loop"),
    "R2": ("openspiel-liars-dice 2x5, OpenSpiel adapter, rl_environment", "rl_environment"),
    "R3": (
        "OpenSpiel's own python_kuhn_poker (a Python game), rl_environment",
        "kuhn_poker (C++), rl_environment",
    ),
    "R4": (
        "a Python game of liars_dice's shape that does no work (floor), rl_environment",
        "rl_environment",
    ),
}

# CPU time of this process by default: time the machine spends on other processes does not
# count (a shared 2-core machine runs several jobs at once); --wall uses perf_counter.
CLOCK: Callable[[], float] = time.process_time

Runner = Callable[[int, int], tuple[int, int]]  # (games, seed) -> (games, decisions)


def liars_dice_variant() -> tuple[Variant, str]:
    """The 2-seat, 5-dice OpenSpiel Liar's Dice variant (and which source it came from)."""
    try:
        return load_variant("openspiel-liars-dice", overrides={"dice.per_player": 5}), (
            "openspiel-liars-dice"
        )
    except VariantError:
        return load_variant("italian", overrides=_LIARS_DICE_OVERRIDES), "italian+overrides"


# --- whole games ----------------------------------------------------------------------------


def step_games(variant: Variant, players: int) -> Runner:
    """Whole random games through the public step API."""

    def run(games: int, seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        rand = rng.random
        decisions = 0
        for i in range(games):
            g = Game.new(variant, players, seed=seed * 1_000_003 + i)
            while g.winner is None:
                if g.to_move is None:
                    g = g.roll(rng=rng)
                    continue
                actions = g.legal_actions()
                g = g.apply(actions[int(rand() * len(actions))])
                decisions += 1
        return games, decisions

    return run


def fast_games(variant: Variant, players: int) -> Runner:
    """Whole random games through the fast simulation path."""
    assert fastplay is not None

    def run(games: int, seed: int) -> tuple[int, int]:
        stats = fastplay.random_games(variant, players, games, seed=seed)
        return games, stats.decisions

    return run


def pyspiel_games(numdice: int) -> Runner:
    """Whole random games of pyspiel ``liars_dice`` through its Python API."""
    assert pyspiel is not None
    game = pyspiel.load_game("liars_dice", {"numdice": numdice})

    def run(games: int, seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        rand = rng.random
        decisions = 0
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    r = rand()
                    outcomes = state.chance_outcomes()
                    action = outcomes[-1][0]
                    for a, p in outcomes:
                        r -= p
                        if r < 0:
                            action = a
                            break
                    state.apply_action(action)
                else:
                    actions = state.legal_actions()
                    state.apply_action(actions[int(rand() * len(actions))])
                    decisions += 1
        return games, decisions

    return run


def timed(fn: Runner, games: int, seed: int) -> tuple[float, int, int]:
    t0 = CLOCK()
    g, d = fn(games, seed)
    return CLOCK() - t0, g, d


def calibrate(fn: Runner, target: float) -> int:
    """Games per run so that one run takes about ``target`` seconds."""
    n = 20
    while True:
        dt, _, _ = timed(fn, n, 12345)
        if dt >= target / 4 or n >= 10_000_000:
            return max(1, int(n * target / max(dt, 1e-9)))
        n *= 4


def compare(peers: dict[str, Runner], repeats: int, target: float) -> dict[str, Any]:
    """Run every peer ``repeats`` times, alternating; medians and paired ratios."""
    sizes = {name: calibrate(fn, target) for name, fn in peers.items()}
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in peers}
    for rep in range(repeats):
        order = list(peers) if rep % 2 == 0 else list(reversed(peers))
        for name in order:
            dt, g, d = timed(peers[name], sizes[name], 1000 + rep)
            runs[name].append((g / dt, d / dt))
    out: dict[str, Any] = {}
    for name, rs in runs.items():
        out[name] = {
            "games": sizes[name],
            "games_per_s": statistics.median(r[0] for r in rs),
            "decisions_per_s": statistics.median(r[1] for r in rs),
            "runs_games_per_s": [r[0] for r in rs],
            "runs_decisions_per_s": [r[1] for r in rs],
        }
    return out


def paired_ratio(res: dict[str, Any], a: str, b: str, per: str = "games") -> float:
    """Median over the repeats of ``a``'s rate over ``b``'s (games, or decisions: steps)."""
    xs = res[a][f"runs_{per}_per_s"]
    ys = res[b][f"runs_{per}_per_s"]
    return statistics.median(x / y for x, y in zip(xs, ys, strict=True))


# --- D: scaling -----------------------------------------------------------------------------

SCALING_DICE = (10, 30, 100, 300)


def scaling_variant() -> Variant:
    """Italian rules with room for 50 dice a seat (6 seats x 50 = 300 dice)."""
    return load_variant("italian", overrides={"dice.max_per_player": 50})


def spread(total: int, seats: int) -> list[int]:
    base, extra = divmod(total, seats)
    return [base + (1 if s < extra else 0) for s in range(seats)]


def positions(variant: Variant, dice: int, count: int, seed: int) -> list[Game]:
    """Mid-round positions with ``dice`` in play: an opening position and a few bids in."""
    rng = random.Random(seed)
    faces = variant.rules.dice_faces
    out: list[Game] = []
    while len(out) < count:
        cups = [[int(rng.random() * faces) + 1 for _ in range(c)] for c in spread(dice, 6)]
        g = Game.start(variant, cups, first_player=int(rng.random() * 6))
        out.append(g)
        for _ in range(6):
            ranks = g.legal_actions().bid_ranks
            if not ranks:
                break
            # small raises so rounds last: a bid in the lowest tenth of the legal ones
            q, f = g.space.bid(ranks[int(rng.random() * max(1, len(ranks) // 10))])
            assert g.to_move is not None
            g = g.apply(Bid(g.to_move, q, f))
            out.append(g)
    return out[:count]


def _ops(games: list[Game], seed: int) -> dict[str, tuple[Callable[[], None], int]]:
    """The measured operations over a list of positions: name -> (loop, calls per loop)."""
    rng = random.Random(seed)
    rand = rng.random
    picks: list[Bid | Any] = []
    illegal: list[Bid] = []
    bid_moves: list[tuple[Game, Bid]] = []
    for g in games:
        la = g.legal_actions()
        picks.append(la[int(rand() * len(la))])
        ranks = la.bid_ranks
        assert g.to_move is not None
        below = ranks[0] - 1 if ranks and ranks[0] > 0 else 0
        illegal.append(Bid(g.to_move, *g.space.bid(below)))
        bid_moves.append((g, Bid(g.to_move, *g.space.bid(ranks[len(ranks) // 2]))))
    checks = list(zip(games, picks, illegal, strict=True))
    calls = [(g, Dudo(g.to_move)) for g in games if g.bids and g.to_move is not None]

    def do_legal() -> None:
        for g in games:
            g.legal_actions()

    def do_len() -> None:
        for g in games:
            len(g.legal_actions())

    def do_is_legal() -> None:
        for g, a, b in checks:
            g.is_legal(a)
            g.is_legal(b)

    def do_apply() -> None:
        for g, a in bid_moves:
            g.apply(a)

    def do_call() -> None:
        for g, a in calls:
            g.apply(a)

    def do_random() -> None:
        for g in games:
            la = g.legal_actions()
            la[int(rand() * len(la))]

    n = len(games)
    return {
        "legal_actions_s": (do_legal, n),
        "len_legal_actions_s": (do_len, n),
        "is_legal_s": (do_is_legal, 2 * n),
        "apply_bid_s": (do_apply, n),
        "random_legal_action_s": (do_random, n),
        "apply_dudo_s": (do_call, len(calls)),
    }


def scaling(repeats: int, quick: bool) -> dict[str, Any]:
    """Per-call costs at each dice count; levels alternate inside every repeat."""
    variant = scaling_variant()
    rules = variant.rules
    n_pos = 100 if quick else 300
    loops = 2 if quick else 4
    result: dict[str, Any] = {}
    levels = {}
    for dice in SCALING_DICE:
        builds = []
        for _ in range(repeats):
            t0 = CLOCK()
            BidSpace(rules, dice, False)
            builds.append(CLOCK() - t0)
        result[str(dice)] = {
            "bid_table_build_s": statistics.median(builds),
            "bid_table_size": dice * rules.dice_faces,
            "positions": n_pos,
        }
        levels[dice] = _ops(positions(variant, dice, n_pos, seed=dice), seed=dice)
    samples: dict[tuple[int, str], list[float]] = {}
    d_repeats = max(3 * repeats, 9)  # short samples, many of them
    gc.collect()
    gc.disable()  # as timeit does: a collection landing in one small loop is noise here
    try:
        _scaling_samples(levels, samples, d_repeats, loops)
    finally:
        gc.enable()
    for (dice, name), xs in samples.items():
        result[str(dice)][name] = statistics.median(xs)
    # flatness: within every repeat the levels of one operation run back to back, so
    # max/min over the levels of that repeat is a paired figure; report its median
    result["spread"] = {
        name: statistics.median(
            max(samples[(d, name)][r] for d in SCALING_DICE)
            / min(samples[(d, name)][r] for d in SCALING_DICE)
            for r in range(d_repeats)
        )
        for name in levels[SCALING_DICE[0]]
    }
    result["repeats"] = d_repeats
    return result


def _scaling_samples(
    levels: dict[int, dict[str, tuple[Callable[[], None], int]]],
    samples: dict[tuple[int, str], list[float]],
    repeats: int,
    loops: int,
) -> None:
    for rep in range(repeats):
        order = list(SCALING_DICE) if rep % 2 == 0 else list(reversed(SCALING_DICE))
        for name in levels[SCALING_DICE[0]]:
            for dice in order:
                fn, calls = levels[dice][name]
                t0 = CLOCK()
                for _ in range(loops):
                    fn()
                dt = (CLOCK() - t0) / (loops * calls)
                samples.setdefault((dice, name), []).append(dt)


# --- main -----------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7, help="repeats per figure (median)")
    parser.add_argument("--seconds", type=float, default=0.3, help="target seconds per run")
    parser.add_argument("--quick", action="store_true", help="fewer repeats, shorter runs")
    parser.add_argument("--only", default="ABCDRP", help="which benchmarks, e.g. AB")
    parser.add_argument("--out", type=Path, help="JSON output path")
    parser.add_argument("--wall", action="store_true", help="wall-clock instead of CPU time")
    args = parser.parse_args(argv)
    global CLOCK
    if args.wall:
        CLOCK = time.perf_counter
    repeats, target = args.repeats, args.seconds
    if args.quick:
        repeats, target = 3, 0.1

    ld, ld_source = liars_dice_variant()
    report: dict[str, Any] = {
        "when": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "python": sys.version.split()[0],
        "machine": platform.platform(),
        "pyspiel": getattr(pyspiel, "__version__", None) if pyspiel else None,
        "liars_dice_variant": ld_source,
        "repeats": repeats,
        "clock": "perf_counter (wall)" if args.wall else "process_time (CPU)",
        "kernel": KERNEL,
    }
    rows: list[list[str]] = []

    def rate(r: dict[str, Any]) -> str:
        return f"{r['games_per_s']:,.0f} games/s, {r['decisions_per_s']:,.0f} decisions/s"

    def steps(r: dict[str, Any]) -> str:
        return f"{r['decisions_per_s']:,.0f} steps/s"

    only = args.only.upper()
    if ("A" in only or "B" in only) and pyspiel is not None:
        peers: dict[str, Runner] = {"pyspiel": pyspiel_games(5)}
        if "A" in only:
            peers["step"] = step_games(ld, 2)
        if "B" in only and fastplay is not None:
            peers["fast"] = fast_games(ld, 2)
        res = compare(peers, repeats, target)
        report["A_B"] = res
        rows.append(["A/B", "pyspiel liars_dice numdice=5", rate(res["pyspiel"]), "1.00x", ""])
        for key, label, bench, goal in (
            ("step", f"{ld_source} 2x5, step API", "A", TARGETS["A"][COMPILED]),
            ("fast", f"{ld_source} 2x5, fastplay", "B", TARGETS["B"][COMPILED]),
        ):
            if key in res:
                ratio = paired_ratio(res, key, "pyspiel")
                res[key]["ratio_to_pyspiel"] = ratio
                rows.append([bench, label, rate(res[key]), f"{ratio:.2f}x pyspiel", goal])
    elif "A" in only or "B" in only:
        rows.append(["A/B", "pyspiel not installed: skipped", "", "", ""])

    if "R" in only:
        found, notes = rl.runners()
        report["R"] = {}
        for bench, pair in found.items():
            res = compare(pair, repeats, target)
            ratio = paired_ratio(res, "ours", "pyspiel", per="decisions")
            res["ours"]["ratio_to_pyspiel"] = ratio
            report["R"][bench] = res
            ours, theirs = RL_PATHS[bench]
            goal = TARGETS[bench][COMPILED]
            rows.append([bench, f"pyspiel, {theirs}", steps(res["pyspiel"]), "1.00x", ""])
            rows.append([bench, ours, steps(res["ours"]), f"{ratio:.2f}x pyspiel", goal])
        for note in notes:
            bench, _, why = note.partition(": ")
            rows.append([bench, why, "", "", ""])

    if "C" in only:
        peers = {}
        for edition in SEED_EDITIONS:
            variant = load_variant(edition)
            peers[f"{edition}-step"] = step_games(variant, SEED_SEATS)
            if fastplay is not None:
                peers[f"{edition}-fast"] = fast_games(variant, SEED_SEATS)
        res = compare(peers, repeats, target)
        report["C"] = res
        for name, r in res.items():
            edition, path = name.split("-")
            per = "decisions" if path == "step" else "games"
            want = SEED_TARGETS[path][COMPILED]
            r["target"] = {"per_s": per, "at_least": want}
            r["met"] = r[f"{per}_per_s"] >= want
            what = "step API" if path == "step" else "fastplay"
            label = f"{edition} {SEED_SEATS}x5, {what}"
            rows.append(["C", label, rate(r), "", f">= {want:,.0f} {per}/s"])

    if "D" in only:
        sc = scaling(repeats, args.quick)
        report["D"] = sc
        ops = (
            ("legal_actions_s", "legal_actions()"),
            ("len_legal_actions_s", "len(legal_actions())"),
            ("is_legal_s", "is_legal(a)"),
            ("apply_bid_s", "apply(bid)"),
            ("random_legal_action_s", "random legal action"),
        )
        dice_txt = "/".join(str(d) for d in SCALING_DICE)
        flat = {}
        for key, label in (*ops, ("apply_dudo_s", "apply(Dudo), once a round")):
            vals = [sc[str(d)][key] for d in SCALING_DICE]
            spread_ = sc["spread"][key]
            flat[key] = spread_
            rows.append(
                [
                    "D",
                    f"{label}, us at {dice_txt} dice",
                    " / ".join(f"{v * 1e6:.2f}" for v in vals),
                    f"{spread_:.2f}x max/min*",
                    "<= 1.5x" if key != "apply_dudo_s" else "O(dice): counts every cup",
                ]
            )
        builds = " / ".join(f"{sc[str(d)]['bid_table_build_s'] * 1e3:.2f}" for d in SCALING_DICE)
        rows.append(["D", f"bid table build (once), ms at {dice_txt} dice", builds, "", ""])
        report["D_spread"] = flat

    if "P" in only:
        report["P"], p_rows = persistence(max(repeats, 5), CLOCK)
        rows += p_rows

    print(f"build: {KERNEL}")
    print(format_table(["bench", "what", "median of repeats", "ratio", "target"], rows))
    print(
        "ratios are medians of per-repeat ratios (peers alternate within a repeat); "
        "* max/min over the dice counts, measured back to back; "
        + ("wall-clock time" if args.wall else "CPU time of this process (--wall for wall time)")
    )

    out = args.out
    if out is None:
        stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        out = ROOT / "benchmarks" / "results" / f"bench-{stamp}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"\nJSON: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
