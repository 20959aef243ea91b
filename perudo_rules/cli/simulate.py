"""The ``simulate`` command: bot games of one or more variants, side by side."""

from __future__ import annotations

import argparse
import csv
import sys
from collections.abc import Sequence

from perudo_rules.analysis.bots import BOTS
from perudo_rules.analysis.rayrun import require_ray
from perudo_rules.analysis.simstats import (
    SimStats,
    comparison_rows,
    metric_label,
    plot,
    plot_format,
)
from perudo_rules.analysis.simulate import (
    AUTO_WORKERS_GAMES,
    BACKENDS,
    UNIFORM,
    auto_workers,
    simulate_many,
)
from perudo_rules.analysis.sweep import (
    Sweep,
    parse_sweep,
    plot_sweep,
    sweep_csv_rows,
    sweep_document,
    sweep_points,
    sweep_table,
)
from perudo_rules.base.i18n import ntr, tr
from perudo_rules.base.limits import MAX_CLUSTER_GAMES, MAX_GAMES, MAX_WORKERS, check_count
from perudo_rules.base.output import Outputs
from perudo_rules.base.safetext import display_path, json_text, printable
from perudo_rules.base.table import format_table
from perudo_rules.editions.variantfile import load_variant

__all__ = ["register"]


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            tr("not a whole number: {text}", text=repr(text))
        ) from None
    if value < 1:
        raise argparse.ArgumentTypeError(tr("must be at least 1, not {value}", value=value))
    return value


def _non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            tr("not a whole number: {text}", text=repr(text))
        ) from None
    if value < 0:
        raise argparse.ArgumentTypeError(tr("must be 0 or more, not {value}", value=value))
    return value


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``simulate`` command."""
    p = subparsers.add_parser(
        "simulate",
        help=tr("play bot games and report statistics per variant"),
        description=(
            tr(
                "Play GAMES games of each VARIANT with bots and report, per variant: rounds per "
                "game, bids per round, share of palifico rounds, Calza calls and success rate, "
                "Dudo success rate, and win rates by seat and by starting position, each with a "
                "95% confidence interval. The same --seed gives the same numbers whatever "
                "--workers and --backend. With --sweep KNOB=V1,V2, one VARIANT is played at "
                "every combination of the knobs' values."
            )
        ),
    )
    p.add_argument("variants", nargs="+", metavar="VARIANT", help=tr("variant id or YAML file"))
    p.add_argument("--players", type=_positive, default=6, help=tr("seats per game (default 6)"))
    p.add_argument(
        "--games",
        type=_positive,
        default=2000,
        help=tr(
            "games per variant (default 2000, at most {n} on this machine, {cluster} with "
            "--ray)",
            n=MAX_GAMES,
            cluster=MAX_CLUSTER_GAMES,
        ),
    )
    p.add_argument("--seed", type=int, default=1, help=tr("random seed (default 1)"))
    p.add_argument(
        "--bot",
        choices=sorted([*BOTS, UNIFORM]),
        default="baseline",
        help=(
            tr(
                "bot for every seat (default baseline); 'uniform' plays a uniformly random legal "
                "action of any seat on the fast path"
            )
        ),
    )
    p.add_argument(
        "--workers",
        type=_non_negative,
        default=None,
        help=tr(
            "worker processes (0 = one per CPU; default: one per CPU from {n} games a "
            "variant on, else 1); the output is the same for any number",
            n=AUTO_WORKERS_GAMES,
        ),
    )
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help=tr("print JSON instead of a table"))
    fmt.add_argument(
        "--csv", action="store_true", help=tr("print CSV: variant,metric,value,low,high,n")
    )
    p.add_argument("--plot", metavar="FILE", help=tr("draw the distributions into FILE (PNG, SVG)"))
    p.add_argument(
        "--save-records",
        metavar="DIR",
        help=tr("write every game as a JSON game record into DIR"),
    )
    p.add_argument(
        "--sweep",
        action="append",
        metavar="KNOB=V1,V2",
        help=tr(
            "play every combination of these knob values (repeat for more knobs) as house "
            "rules of the one VARIANT, and mark the figures whose confidence interval does "
            "not overlap the edition's own values"
        ),
    )
    p.add_argument(
        "--backend",
        choices=BACKENDS,
        default=None,
        help=tr(
            "where the games are played: local (this machine's processes, default) or ray "
            "(a Ray cluster: --ray-address, else RAY_ADDRESS, else a local Ray instance)"
        ),
    )
    p.add_argument("--ray", action="store_true", help=tr("the same as --backend ray"))
    p.add_argument(
        "--ray-address",
        metavar="ADDRESS",
        help=tr("the Ray cluster to use (implies --backend ray)"),
    )
    p.set_defaults(handler=_cmd_simulate)


def _backend(args: argparse.Namespace) -> str:
    backend: str = args.backend or "local"
    if args.ray or args.ray_address:
        if backend == "local" and args.backend is not None:
            raise ValueError(tr("--ray and --ray-address cannot be used with --backend local"))
        backend = "ray"
    return backend


def _cmd_simulate(args: argparse.Namespace) -> int:
    backend = _backend(args)
    check_count("--games", args.games, 1, MAX_GAMES if backend == "local" else MAX_CLUSTER_GAMES)
    if args.workers is None:
        args.workers = auto_workers(args.games)
    check_count("--workers", args.workers, 0, MAX_WORKERS)
    sweep: Sweep | None = None
    if args.sweep:
        if len(args.variants) != 1:
            raise ValueError(tr("--sweep plays house rules of one VARIANT, not {n}",
                                n=len(args.variants)))  # fmt: skip
        if args.save_records:
            raise ValueError(tr("--save-records cannot be used with --sweep"))
        sweep = sweep_points(args.variants[0], parse_sweep(args.sweep))
        variants = [p.variant for p in sweep.points]
    else:
        variants = [load_variant(ref) for ref in args.variants]
        ids = [v.id for v in variants]
        if len(set(ids)) < len(ids):
            # their columns, and with --save-records their record files, would be one another's
            raise ValueError(
                tr("two variants share the id {ids}; give each file its own id", ids=repr(ids))
            )
    if backend == "ray" and args.save_records:
        raise ValueError(
            tr("game records are not saved from a Ray cluster: its nodes would keep them")
        )
    if backend == "ray":
        require_ray()
    # every output is checked before the games are played
    outputs = Outputs({v.file for v in variants if v.file})
    if args.plot:
        outputs.add(args.plot, "--plot")
        plot_format(args.plot)
    if args.save_records:
        outputs.add_folder(args.save_records, "--save-records")
    run = simulate_many(
        variants,
        players=args.players,
        games=args.games,
        seed=args.seed,
        bot=args.bot,
        workers=args.workers,
        progress=sys.stderr.isatty(),
        save_records=args.save_records,
        backend=backend,
        ray_address=args.ray_address,
    )
    if sweep is not None:
        _print_sweep(args, sweep, run.stats)
    else:
        _print_stats(args, run.stats)
    if run.interrupted:
        sys.stdout.flush()
        print(
            tr(
                "interrupted: {done} of {total} games were played; the figures above are theirs",
                done=run.played,
                total=run.games * len(variants),
            ),
            file=sys.stderr,
        )
        return 130
    if args.plot:  # after the figures are out: a failed write loses no result
        sys.stdout.flush()
        if sweep is not None:
            plot_sweep(sweep, run.stats, args.plot)
        else:
            plot(run.stats, args.plot)
        print(tr("plot written to {file}", file=display_path(args.plot)), file=sys.stderr)
    return 0


def _print_stats(args: argparse.Namespace, stats: Sequence[SimStats]) -> None:
    if args.json:
        print(json_text([s.to_dict() for s in stats]))
    elif args.csv:
        out = csv.writer(sys.stdout, lineterminator="\n")
        out.writerow(["variant", "metric", "value", "low", "high", "n"])
        for s in stats:
            for name, e in s.summary_rows():
                out.writerow([printable(s.variant), name, e.value, e.low, e.high, e.n])
    else:
        first = stats[0]
        print(
            ntr(
                "{n} game per variant, {players} players, {bot} bots, seed {seed}; "
                "value [95% interval]",
                "{n} games per variant, {players} players, {bot} bots, seed {seed}; "
                "value [95% interval]",
                first.games, players=first.players, bot=first.bot, seed=first.seed,
            )
        )  # fmt: skip
        rows = [[metric_label(name), *cells] for name, *cells in comparison_rows(stats)]
        print(format_table([tr("metric"), *(s.variant for s in stats)], rows))


def _print_sweep(args: argparse.Namespace, sweep: Sweep, stats: Sequence[SimStats]) -> None:
    if args.json:
        print(json_text(sweep_document(sweep, stats)))
    elif args.csv:
        out = csv.writer(sys.stdout, lineterminator="\n")
        out.writerows(sweep_csv_rows(sweep, stats))
    else:
        first = stats[0]
        print(
            ntr(
                "{edition}: {n} game per point, {players} players, {bot} bots, seed {seed}; "
                "value [95% interval]",
                "{edition}: {n} games per point, {players} players, {bot} bots, seed {seed}; "
                "value [95% interval]",
                first.games, edition=sweep.edition, players=first.players, bot=first.bot,
                seed=first.seed,
            )
        )  # fmt: skip
        for i, p in enumerate(sweep.points, start=1):
            own = " " + tr("(the edition's own values)") if p.own else ""
            print(f"#{i}: {p.label}{own}")
        heads = [f"#{i}" for i in range(1, len(sweep.points) + 1)]
        print(format_table([tr("metric"), *heads], sweep_table(sweep, stats)))
        print(
            tr(
                "*: the 95% interval does not overlap that of the edition's own values (#{n})",
                n=sweep.baseline + 1,
            )
        )
