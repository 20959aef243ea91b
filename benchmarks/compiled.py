"""The pure-Python package and the compiled build side by side (``make bench`` runs this).

Runs ``benchmarks/run.py`` twice, each run pairing us with pyspiel in one process: on the
pure package of the checkout (``--only``, default every benchmark), then on the compiled
build in ``build/compiled`` (``make compiled``; A, B, the seed editions C, the RL paths
R and the restore of a stored game P). Then it prints one table of both builds' ratios
to pyspiel with the targets of issue 24, beside it one of both builds' rates on the seed
editions (Italian and Spanish, 6 seats x 5 dice: step API and fastplay) with the targets
of issue 25, then the restore times of P, and exits 1 if a target is missed. Other
options go to both runs (``--quick``, ``--repeats``, ``--wall``).

Without the compiled build it says so and compares nothing (exit 1): build it first.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
COMPILED = ROOT / "build" / "compiled"
RUN = ROOT / "benchmarks" / "run.py"

#: (benchmark, what, target for the pure build, target for the compiled build); a target
#: is a least ratio to pyspiel, or None where the figure is reported only.
ROWS: tuple[tuple[str, str, float | None, float | None], ...] = (
    ("A", "step API, whole games", 0.6, 1.0),
    ("B", "fastplay, whole games", 1.8, 3.0),
    ("R1", "PettingZoo raw_env, AEC loop (steps)", None, None),
    ("R2", "OpenSpiel adapter, rl_environment (steps)", 0.6, 1.0),
    ("R3", "reference: OpenSpiel's python_kuhn_poker vs kuhn_poker", None, None),
    ("R4", "reference: a Python game that does no work vs liars_dice", None, None),
)


def _ratio(report: dict[str, Any], bench: str) -> float | None:
    if bench in ("A", "B"):
        entry = report.get("A_B", {}).get("step" if bench == "A" else "fast", {})
    else:
        entry = report.get("R", {}).get(bench, {}).get("ours", {})
    value = entry.get("ratio_to_pyspiel")
    return float(value) if value is not None else None


def _seed_rate(report: dict[str, Any], name: str) -> tuple[float, float] | None:
    """Benchmark C's rate of ``name`` (``italian-step``) and its target, if it ran."""
    entry = report.get("C", {}).get(name)
    if entry is None:
        return None
    per = entry["target"]["per_s"]
    return float(entry[f"{per}_per_s"]), float(entry["target"]["at_least"])


def _print(lines: list[tuple[str, ...]]) -> None:
    widths = [max(len(row[i]) for row in lines) for i in range(len(lines[0]))]
    for n, row in enumerate(lines):
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
        if n == 0:
            print("  ".join("-" * w for w in widths))


def _run(argv: list[str], out: Path, env: dict[str, str]) -> dict[str, Any]:
    code = subprocess.run(
        [sys.executable, str(RUN), *argv, "--out", str(out)], env=env, check=False
    ).returncode
    if code != 0:
        raise SystemExit(f"benchmarks/run.py failed (exit {code})")
    data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return data


def main(argv: list[str]) -> int:
    args = list(argv)
    only = "ABCDRP"
    if "--only" in args:
        i = args.index("--only")
        only = args[i + 1].upper()
        del args[i : i + 2]
    if not (COMPILED / ".built").is_file():
        print("compiled build: missing (make compiled builds it into build/compiled)")
        return 1
    with tempfile.TemporaryDirectory(prefix="perudo-bench-") as tmp:
        print("== pure Python (the checkout)")
        pure = _run([*args, "--only", only], Path(tmp) / "pure.json", dict(os.environ))
        env = dict(os.environ, PYTHONSAFEPATH="1", PYTHONPATH=str(COMPILED))
        print(f"\n== compiled (mypyc), from {COMPILED.relative_to(ROOT)}")
        fast_only = "".join(c for c in "ABCRP" if c in only) or "AB"
        compiled = _run([*args, "--only", fast_only], Path(tmp) / "compiled.json", env)
    if compiled.get("kernel") != "compiled (mypyc)":
        print(f"the compiled run imported {compiled.get('kernel')!r}, not the compiled build")
        return 1
    print("\n== side by side: ratio to pyspiel's liars_dice (numdice=5), paired medians")
    header = ("bench", "what", "pure", "target", "compiled", "target")
    lines: list[tuple[str, ...]] = [header]
    missed = []
    for bench, what, want_pure, want_compiled in ROWS:
        cells = [bench, what]
        builds = ((pure, want_pure, "pure"), (compiled, want_compiled, "compiled"))
        for report, want, build in builds:
            got = _ratio(report, bench)
            cells.append("-" if got is None else f"{got:.2f}x")
            cells.append("measured" if want is None else f">= {want:.1f}x")
            if want is not None and got is not None and got < want:
                missed.append(f"{bench} {build}: {got:.2f}x < {want:.1f}x")
        lines.append(tuple(cells))
    _print(lines)
    seed = [
        (f"{edition}-{path}", f"{edition} 6x5, {what}")
        for edition in ("italian", "spanish")
        for path, what in (("step", "step API (decisions/s)"), ("fast", "fastplay (games/s)"))
    ]
    if any(_seed_rate(pure, name) or _seed_rate(compiled, name) for name, _ in seed):
        print("\n== side by side: the seed editions, 6 seats x 5 dice, rates (medians)")
        lines = [("bench", "what", "pure", "target", "compiled", "target")]
        for name, what in seed:
            cells = ["C", what]
            for report, build in ((pure, "pure"), (compiled, "compiled")):
                rate = _seed_rate(report, name)
                if rate is None:
                    cells += ["-", "-"]
                    continue
                cells += [f"{rate[0]:,.0f}", f">= {rate[1]:,.0f}"]
                if rate[0] < rate[1]:
                    missed.append(f"C {name} {build}: {rate[0]:,.0f} < {rate[1]:,.0f}")
            lines.append(tuple(cells))
        _print(lines)
    if "P" in pure or "P" in compiled:
        print("\n== side by side: restoring a game at the end of a 6-seat game, ms (medians)")
        lines = [("bench", "what", "pure", "compiled", "target")]
        for way, what, target in (("from_json", "Game.from_json (verifies)", None),
                                  ("restore", "restore(snapshot)", 1.0),
                                  ("pickle", "pickle.loads (for scale)", None)):  # fmt: skip
            cells = ["P", what]
            for report, build in ((pure, "pure"), (compiled, "compiled")):
                ms = report.get("P", {}).get("ms_per_restore", {}).get(way)
                cells.append("-" if ms is None else f"{ms:.3f}")
                if target is not None and ms is not None and ms >= target:
                    missed.append(f"P {way} {build}: {ms:.3f} ms >= {target} ms")
            cells.append("measured" if target is None else f"< {target:g} ms")
            lines.append(tuple(cells))
        _print(lines)
    if missed:
        print("missed: " + "; ".join(missed))
        return 1
    print("every target met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
