"""The statistics of simulated games: each figure with its 95% confidence interval.

:class:`SimStats` holds what many games of one variant did (the games
:func:`perudo_rules.analysis.simulate.simulate` plays): rounds per game, bids per round,
the share of palifico rounds, Calza and Dudo calls and how often they were right, and
win rates by seat and by starting position, each an :class:`Estimate` with a 95%
confidence interval (:func:`wilson_interval` for rates, :func:`mean_interval`, Student t /
normal, for means). :func:`summarise` reads the figures of one finished game
(:class:`GameSummary`); :meth:`SimStats.from_games` adds them up in game order.

Intervals treat games as independent samples. Per-round figures (bids per
round, palifico share) pool the rounds of all games; rounds of one game are
not independent, so those intervals are somewhat too narrow.

:func:`comparison_rows` puts several :class:`SimStats` side by side in a table, and
:func:`plot` draws them (needs matplotlib, the ``plot`` extra).
"""

from __future__ import annotations

import io
import math
import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from perudo_rules.base.actions import Bid
from perudo_rules.base.errors import PerudoError
from perudo_rules.base.i18n import N_, tr
from perudo_rules.base.output import write_bytes
from perudo_rules.base.safetext import printable
from perudo_rules.editions.ruleset import Ruleset
from perudo_rules.editions.variant import Variant
from perudo_rules.engine.game import Game
from perudo_rules.engine.rounds import RoundRecord

__all__ = [
    "Estimate",
    "GameSummary",
    "SimStats",
    "comparison_rows",
    "mean_interval",
    "metric_label",
    "plot",
    "plot_format",
    "summarise",
    "summarise_rounds",
    "t95",
    "wilson_interval",
]

_Z95 = 1.959963984540054
# two-sided 95% Student t quantiles for 1..30 degrees of freedom
_T95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom.

    A table up to 30, then the Cornish-Fisher expansion around the normal
    quantile (within 0.001 of the exact value from 31 on).
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    if df <= len(_T95):
        return _T95[df - 1]
    z = _Z95
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df * df)


@dataclass(frozen=True, slots=True)
class Estimate:
    """A point estimate with its 95% confidence interval ``[low, high]`` from ``n`` samples."""

    value: float
    low: float
    high: float
    n: int

    def to_dict(self) -> dict[str, float | int]:
        """``{"value", "low", "high", "n"}``."""
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n}

    def format(self, digits: int = 3) -> str:
        """``value [low, high]`` with ``digits`` decimals; a rate of nothing (``n`` 0, no
        Calza called, say) says so instead of printing ``nan``."""
        if math.isnan(self.value):
            return tr("none to count (n = 0)")
        return f"{self.value:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"


def wilson_interval(successes: int, n: int) -> Estimate:
    """The rate ``successes / n`` with its 95% Wilson score interval (``nan`` when ``n == 0``)."""
    if not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        nan = float("nan")
        return Estimate(nan, nan, nan, 0)
    z2 = _Z95 * _Z95
    p = successes / n
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = _Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), n)


def mean_interval(histogram: Mapping[int, int]) -> Estimate:
    """The mean of integer samples given as ``{value: count}``, with a 95% t interval."""
    n = sum(histogram.values())
    if n == 0:
        nan = float("nan")
        return Estimate(nan, nan, nan, 0)
    total = sum(v * c for v, c in histogram.items())
    mean = total / n
    if n == 1:
        return Estimate(mean, mean, mean, 1)
    # exact integer arithmetic for the sum of squared deviations
    ss = sum(v * v * c for v, c in histogram.items()) * n - total * total
    var = ss / (n * (n - 1))
    t = t95(n - 1)
    half = t * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half, n)


@dataclass(frozen=True, slots=True)
class GameSummary:
    """The figures of one finished game that the statistics need."""

    rounds: int
    bids: tuple[int, ...]
    palifico_rounds: int
    calza_calls: int
    calza_right: int
    dudo_calls: int
    dudo_right: int
    winner: int
    first_player: int
    position: int


def summarise_rounds(rounds: Sequence[RoundRecord], winner: int, rules: Ruleset) -> GameSummary:
    """The :class:`GameSummary` of a finished game from its rounds (a step API game's
    ``history`` or a fast game's ``trace``: both are :class:`~perudo_rules.engine.game.RoundRecord`
    values), its ``winner`` and its ``rules``.

    ``position`` is the winner's place counted in the direction of play from
    the seat that opened the first round (0 = that seat). A call was right when its caller
    did not lose a die (the kernel's settlement: a Dudo against a bid that failed, a Calza
    on an exact bid).
    """
    if not rounds:
        raise ValueError("the game is not over")
    calls = {"calza": [0, 0], "dudo": [0, 0]}  # [calls, right]
    for r in rounds:
        res = r.result
        calls[res.kind][0] += 1
        calls[res.kind][1] += res.loser != res.caller
    first = rounds[0].first_player
    players = len(rounds[0].dice)
    return GameSummary(
        rounds=len(rounds),
        bids=tuple(sum(1 for a in r.actions if type(a) is Bid) for r in rounds),
        palifico_rounds=sum(1 for r in rounds if r.palifico),
        calza_calls=calls["calza"][0],
        calza_right=calls["calza"][1],
        dudo_calls=calls["dudo"][0],
        dudo_right=calls["dudo"][1],
        winner=winner,
        first_player=first,
        position=((winner - first) * rules.direction) % players,
    )


def summarise(game: Game) -> GameSummary:
    """The :class:`GameSummary` of a finished step API game (:func:`summarise_rounds`)."""
    if game.winner is None or not game.history:
        raise ValueError("the game is not over")
    return summarise_rounds(game.history, game.winner, game.rules)


#: A histogram: ``((value, count), ...)`` sorted by value.
Histogram = tuple[tuple[int, int], ...]


def _hist(values: Iterable[int]) -> Histogram:
    return tuple(sorted(Counter(values).items()))


@dataclass(frozen=True, slots=True)
class SimStats:
    """Statistics of ``games`` simulated games of one variant.

    Histograms are ``((value, count), ...)`` sorted by value. ``wins_by_seat[s]``
    counts games won by seat ``s``; ``wins_by_position[k]`` games won by the
    seat ``k`` places after the first player of the game, in the direction of play.
    """

    variant: str
    name: str
    players: int
    games: int
    bot: str
    seed: int
    rounds_per_game: tuple[tuple[int, int], ...]
    bids_per_round: tuple[tuple[int, int], ...]
    calza_per_game: tuple[tuple[int, int], ...]
    palifico_rounds: int
    calza_calls: int
    calza_right: int
    dudo_calls: int
    dudo_right: int
    wins_by_seat: tuple[int, ...]
    wins_by_position: tuple[int, ...]

    @classmethod
    def from_games(
        cls,
        variant: Variant,
        players: int,
        bot: str,
        seed: int,
        games: Sequence[GameSummary],
    ) -> SimStats:
        """Aggregate per-game summaries (in game order)."""
        seat = [0] * players
        pos = [0] * players
        for g in games:
            seat[g.winner] += 1
            pos[g.position] += 1
        return cls(
            variant=variant.id,
            name=variant.name,
            players=players,
            games=len(games),
            bot=bot,
            seed=seed,
            rounds_per_game=_hist(g.rounds for g in games),
            bids_per_round=_hist(b for g in games for b in g.bids),
            calza_per_game=_hist(g.calza_calls for g in games),
            palifico_rounds=sum(g.palifico_rounds for g in games),
            calza_calls=sum(g.calza_calls for g in games),
            calza_right=sum(g.calza_right for g in games),
            dudo_calls=sum(g.dudo_calls for g in games),
            dudo_right=sum(g.dudo_right for g in games),
            wins_by_seat=tuple(seat),
            wins_by_position=tuple(pos),
        )

    def merge(self, other: SimStats) -> SimStats:
        """These games and ``other``'s together: the statistics of both sets of games.

        Every field is an exact integer count or histogram, so merging is exact,
        associative and commutative: chunks of games merged as they arrive, in any order,
        give the same statistics as :meth:`from_games` over all of them. ``other`` must be
        games of the same variant, seats, bot and seed (:class:`ValueError` otherwise).
        """
        mine = (self.variant, self.name, self.players, self.bot, self.seed)
        theirs = (other.variant, other.name, other.players, other.bot, other.seed)
        if mine != theirs:
            raise ValueError(f"cannot merge statistics of {theirs!r} into {mine!r}")

        def hist(a: Histogram, b: Histogram) -> Histogram:
            total: Counter[int] = Counter(dict(a))
            total.update(dict(b))
            return tuple(sorted(total.items()))

        def add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(x + y for x, y in zip(a, b, strict=True))

        return SimStats(
            variant=self.variant,
            name=self.name,
            players=self.players,
            games=self.games + other.games,
            bot=self.bot,
            seed=self.seed,
            rounds_per_game=hist(self.rounds_per_game, other.rounds_per_game),
            bids_per_round=hist(self.bids_per_round, other.bids_per_round),
            calza_per_game=hist(self.calza_per_game, other.calza_per_game),
            palifico_rounds=self.palifico_rounds + other.palifico_rounds,
            calza_calls=self.calza_calls + other.calza_calls,
            calza_right=self.calza_right + other.calza_right,
            dudo_calls=self.dudo_calls + other.dudo_calls,
            dudo_right=self.dudo_right + other.dudo_right,
            wins_by_seat=add(self.wins_by_seat, other.wins_by_seat),
            wins_by_position=add(self.wins_by_position, other.wins_by_position),
        )

    @property
    def total_rounds(self) -> int:
        """Rounds played over all games."""
        return sum(c for _, c in self.bids_per_round)

    def rounds(self) -> Estimate:
        """Mean rounds per game."""
        return mean_interval(dict(self.rounds_per_game))

    def bids(self) -> Estimate:
        """Mean bids per round (rounds of all games pooled)."""
        return mean_interval(dict(self.bids_per_round))

    def palifico_share(self) -> Estimate:
        """Share of rounds that were palifico rounds."""
        return wilson_interval(self.palifico_rounds, self.total_rounds)

    def calza(self) -> Estimate:
        """Mean Calza calls per game."""
        return mean_interval(dict(self.calza_per_game))

    def calza_success(self) -> Estimate:
        """Share of Calza calls that were right (the bid was exact)."""
        return wilson_interval(self.calza_right, self.calza_calls)

    def dudo_success(self) -> Estimate:
        """Share of Dudo calls that were right (the bid did not hold)."""
        return wilson_interval(self.dudo_right, self.dudo_calls)

    def win_rate_by_seat(self) -> list[Estimate]:
        """Win rate of each seat."""
        return [wilson_interval(w, self.games) for w in self.wins_by_seat]

    def win_rate_by_position(self) -> list[Estimate]:
        """Win rate by place after the first player of the game (0 = the first player)."""
        return [wilson_interval(w, self.games) for w in self.wins_by_position]

    def summary_rows(self) -> list[tuple[str, Estimate]]:
        """``(metric, estimate)`` for every reported figure, in a fixed order."""
        rows = [
            ("rounds per game", self.rounds()),
            ("bids per round", self.bids()),
            ("palifico share of rounds", self.palifico_share()),
            ("Calza calls per game", self.calza()),
            ("Calza success rate", self.calza_success()),
            ("Dudo success rate", self.dudo_success()),
        ]
        rows += [(f"win rate seat {s}", e) for s, e in enumerate(self.win_rate_by_seat())]
        rows += [(f"win rate position {k}", e) for k, e in enumerate(self.win_rate_by_position())]
        return rows

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict: parameters, counts, histograms and every estimate."""

        def clean(x: dict[str, float | int]) -> dict[str, float | int | None]:
            return {
                k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in x.items()
            }

        return {
            "variant": self.variant,
            "name": self.name,
            "players": self.players,
            "games": self.games,
            "bot": self.bot,
            "seed": self.seed,
            "counts": {
                "rounds": self.total_rounds,
                "palifico_rounds": self.palifico_rounds,
                "calza_calls": self.calza_calls,
                "calza_right": self.calza_right,
                "dudo_calls": self.dudo_calls,
                "dudo_right": self.dudo_right,
                "wins_by_seat": list(self.wins_by_seat),
                "wins_by_position": list(self.wins_by_position),
            },
            "histograms": {
                "rounds_per_game": [list(p) for p in self.rounds_per_game],
                "bids_per_round": [list(p) for p in self.bids_per_round],
                "calza_per_game": [list(p) for p in self.calza_per_game],
            },
            "estimates": {name: clean(e.to_dict()) for name, e in self.summary_rows()},
        }

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any]) -> SimStats:
        """The statistics :meth:`to_dict` wrote (its estimates are computed again)."""
        counts, hists = doc["counts"], doc["histograms"]

        def hist(name: str) -> tuple[tuple[int, int], ...]:
            return tuple((value, count) for value, count in hists[name])

        return cls(
            variant=doc["variant"],
            name=doc["name"],
            players=doc["players"],
            games=doc["games"],
            bot=doc["bot"],
            seed=doc["seed"],
            rounds_per_game=hist("rounds_per_game"),
            bids_per_round=hist("bids_per_round"),
            calza_per_game=hist("calza_per_game"),
            palifico_rounds=counts["palifico_rounds"],
            calza_calls=counts["calza_calls"],
            calza_right=counts["calza_right"],
            dudo_calls=counts["dudo_calls"],
            dudo_right=counts["dudo_right"],
            wins_by_seat=tuple(counts["wins_by_seat"]),
            wins_by_position=tuple(counts["wins_by_position"]),
        )


#: The reported figures' names, for the catalogues (their keys in JSON stay English).
METRICS = (
    N_("rounds per game"), N_("bids per round"), N_("palifico share of rounds"),
    N_("Calza calls per game"), N_("Calza success rate"), N_("Dudo success rate"),
)


def metric_label(name: str) -> str:
    """A figure's name (a key of :meth:`SimStats.summary_rows`) in the context's language."""
    seat = re.fullmatch(r"win rate (seat|position) (\d+)", name)
    if seat is None:
        return tr(name)
    if seat.group(1) == "seat":
        return tr("win rate seat {n}", n=seat.group(2))
    return tr("win rate position {n}", n=seat.group(2))


def comparison_rows(stats: Sequence[SimStats], digits: int = 3) -> list[list[str]]:
    """One row per metric: the metric, then ``value [low, high]`` for each of ``stats``.

    Use as ``format_table(["metric", *(s.variant for s in stats)], rows)``.
    """
    if not stats:
        return []
    by_variant = [dict(s.summary_rows()) for s in stats]
    names: list[str] = []
    for s in stats:
        for name, _ in s.summary_rows():
            if name not in names:
                names.append(name)
    return [
        [name, *((d[name].format(digits) if name in d else "") for d in by_variant)]
        for name in names
    ]


def plot_format(path: str | os.PathLike[str]) -> str:
    """The image format :func:`plot` writes to ``path``, from its suffix (``png`` without
    one); :class:`PerudoError` if matplotlib is missing or cannot write that format.
    Commands call it before the simulation, so a bad ``--plot`` costs nothing."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise PerudoError("plotting needs matplotlib: pip install 'perudo-rules[plot]'") from None
    fmt = Path(path).suffix[1:].lower() or "png"
    known = FigureCanvasAgg(Figure()).get_supported_filetypes()
    if fmt not in known:
        raise PerudoError(
            f"cannot draw a .{printable(fmt)[:20]} file (formats: {', '.join(sorted(known))})"
        )
    return fmt


def plot(stats: Sequence[SimStats], path: str | os.PathLike[str]) -> None:
    """Draw ``stats`` side by side into an image file (PNG, SVG, PDF by suffix).

    Four panels: rounds per game, bids per round, win rate by starting
    position (with 95% intervals), and the rates of palifico rounds and
    right Calza/Dudo calls. Needs matplotlib (``pip install 'perudo-rules[plot]'``);
    it is imported here, and drawn without touching pyplot's global backend. The image
    is drawn in memory and written atomically (:func:`perudo_rules.base.output.write_bytes`):
    a failed write (a full disk) is an :class:`~perudo_rules.base.errors.OutputError`.
    """
    if not stats:
        raise ValueError("nothing to plot")
    fmt = plot_format(path)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(12, 8), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(2, 2)
    n = len(stats)
    width = 0.8 / n

    def hist_panel(ax: Any, attr: str, title: str, xlabel: str) -> None:
        for s in stats:
            h = getattr(s, attr)
            total = sum(c for _, c in h) or 1
            xs = [v for v, _ in h]
            ys = [c / total for _, c in h]
            mean = mean_interval(dict(h)).value
            ax.step(xs, ys, where="mid", label=f"{s.variant} (mean {mean:.2f})")
        ax.set_title(title)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("share")
        ax.legend()

    hist_panel(axes[0][0], "rounds_per_game", "Rounds per game", "rounds")
    hist_panel(axes[0][1], "bids_per_round", "Bids per round", "bids")

    ax = axes[1][0]
    for i, s in enumerate(stats):
        est = s.win_rate_by_position()
        xs = [k - 0.4 + width * (i + 0.5) for k in range(len(est))]
        ax.bar(
            xs,
            [e.value for e in est],
            width=width,
            yerr=[[e.value - e.low for e in est], [e.high - e.value for e in est]],
            capsize=2,
            label=s.variant,
        )
    ax.axhline(1 / stats[0].players, color="grey", linewidth=0.8, linestyle="--")
    ax.set_title("Win rate by starting position (0 = first player)")
    ax.set_xlabel("position after the first player")
    ax.set_ylabel("win rate")
    ax.legend()

    ax = axes[1][1]
    labels = ["palifico share", "Calza right", "Dudo right"]
    for i, s in enumerate(stats):
        est = [s.palifico_share(), s.calza_success(), s.dudo_success()]
        vals = [0.0 if math.isnan(e.value) else e.value for e in est]
        err = [
            [0.0 if math.isnan(e.value) else e.value - e.low for e in est],
            [0.0 if math.isnan(e.value) else e.high - e.value for e in est],
        ]
        xs = [k - 0.4 + width * (i + 0.5) for k in range(len(labels))]
        ax.bar(xs, vals, width=width, yerr=err, capsize=2, label=s.variant)
    ax.set_xticks(range(len(labels)), labels)
    ax.set_ylim(0, 1)
    ax.set_title("Rates")
    ax.legend()
    fig.suptitle(
        f"{stats[0].games} simulated games, {stats[0].players} players, "
        f"{stats[0].bot} bots, seed {stats[0].seed}"
    )
    image = io.BytesIO()
    fig.savefig(image, format=fmt, dpi=100)
    write_bytes(path, image.getvalue())
