"""The ``simulate`` command: bot games of one or more variants, side by side."""

from __future__ import annotations

import argparse
import csv
import sys

from perudo_rules.analysis.bots import BOTS
from perudo_rules.analysis.simstats import comparison_rows, metric_label, plot, plot_format
from perudo_rules.analysis.simulate import AUTO_WORKERS_GAMES, UNIFORM, auto_workers, simulate
from perudo_rules.base.i18n import ntr, tr
from perudo_rules.base.limits import MAX_GAMES, MAX_WORKERS, check_count
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
                "--workers."
            )
        ),
    )
    p.add_argument("variants", nargs="+", metavar="VARIANT", help=tr("variant id or YAML file"))
    p.add_argument("--players", type=_positive, default=6, help=tr("seats per game (default 6)"))
    p.add_argument(
        "--games",
        type=_positive,
        default=2000,
        help=tr("games per variant (default 2000, at most {n})", n=MAX_GAMES),
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
    p.set_defaults(handler=_cmd_simulate)


def _cmd_simulate(args: argparse.Namespace) -> int:
    check_count("--games", args.games, 1, MAX_GAMES)
    if args.workers is None:
        args.workers = auto_workers(args.games)
    check_count("--workers", args.workers, 0, MAX_WORKERS)
    variants = [load_variant(ref) for ref in args.variants]
    ids = [v.id for v in variants]
    if len(set(ids)) < len(ids):
        # their columns, and with --save-records their record files, would be one another's
        raise ValueError(
            tr("two variants share the id {ids}; give each file its own id", ids=repr(ids))
        )
    # every output is checked before the games are played
    outputs = Outputs(v.file for v in variants if v.file)
    if args.plot:
        outputs.add(args.plot, "--plot")
        plot_format(args.plot)
    if args.save_records:
        outputs.add_folder(args.save_records, "--save-records")
    progress = sys.stderr.isatty()
    stats = [
        simulate(
            v,
            players=args.players,
            games=args.games,
            seed=args.seed,
            bot=args.bot,
            workers=args.workers,
            progress=progress,
            save_records=args.save_records,
        )
        for v in variants
    ]
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
    if args.plot:  # after the figures are out: a failed write loses no result
        sys.stdout.flush()
        plot(stats, args.plot)
        print(tr("plot written to {file}", file=display_path(args.plot)), file=sys.stderr)
    return 0
