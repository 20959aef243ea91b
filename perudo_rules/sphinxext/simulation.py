"""The build-time simulation: ``perudo-simulation``, a statistics table and a plot.

The statistics and the plot (drawn in English: its labels are data) are kept as JSON
(:mod:`perudo_rules.sphinxext.store`): the builds of the other languages, and any later
build with the same inputs, read them instead of simulating again; the table is said in
the build's language when the page is rendered.
"""

from __future__ import annotations

import base64
import importlib
import logging
import math
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives

from perudo_rules.analysis.simstats import SimStats, comparison_rows, metric_label, plot
from perudo_rules.analysis.simulate import simulate
from perudo_rules.base.errors import PerudoError
from perudo_rules.base.i18n import tr
from perudo_rules.sphinxext.base import PerudoDirective, logger
from perudo_rules.sphinxext.shared import Cell, scrolling, table
from perudo_rules.sphinxext.store import fingerprint, stored

__all__ = ["SimulationDirective", "load_fonts_quietly", "plot_node", "plot_png", "stats_table"]


def stats_table(ids: Sequence[str], stats: Sequence[SimStats]) -> nodes.container:
    """A row per statistic (as :func:`perudo_rules.analysis.simstats.comparison_rows` orders them),
    a column per edition: each estimate with its 95% interval."""
    columns = [dict(s.summary_rows()) for s in stats]
    rows: list[list[Cell]] = []
    for name, *_ in comparison_rows(stats):
        cells: list[Cell] = [metric_label(name)]
        for column in columns:
            est = column.get(name)
            if est is None or math.isnan(est.value):
                cells.append("—")
                continue
            cell = nodes.paragraph()
            cell += nodes.strong(text=f"{est.value:.3f}")
            cell += nodes.inline(text=f" [{est.low:.3f}, {est.high:.3f}]", classes=["perudo-ci"])
            cells.append(cell)
        rows.append(cells)
    return scrolling(
        table(
            [tr("Statistic"), *ids],
            rows,
            classes=["perudo-stats"],
            widths=[4, *([3] * len(ids))],
        )
    )


def load_fonts_quietly() -> None:
    """Load matplotlib's font manager without its "Matplotlib is building the font cache"
    line: on a machine's first run (an empty cache directory) building the cache may take
    over five seconds, and matplotlib then logs that line through Python's last-resort
    handler, straight to the build's standard error. Nothing to do without matplotlib."""
    log = logging.getLogger("matplotlib.font_manager")
    level = log.level
    log.setLevel(logging.ERROR)
    try:
        importlib.import_module("matplotlib.font_manager")
    except ImportError:
        pass  # plot() says that matplotlib is missing
    finally:
        log.setLevel(level)


def plot_png(stats: Sequence[SimStats]) -> str | None:
    """The plot of ``stats`` as a PNG in base64 (``None`` without matplotlib)."""
    load_fonts_quietly()
    with tempfile.TemporaryDirectory() as tmp:
        png = Path(tmp) / "simulation.png"
        try:
            plot(stats, png)
        except PerudoError as err:  # matplotlib missing
            logger.info("perudo: no simulation plot: %s", err)
            return None
        return base64.b64encode(png.read_bytes()).decode("ascii")


def plot_node(stats: Sequence[SimStats], data: str | None = None) -> nodes.image | None:
    """The plot of ``stats`` inlined as a PNG (``data``: the PNG in base64 if it is drawn
    already); ``None`` without matplotlib."""
    data = data or plot_png(stats)
    if data is None:
        return None
    return nodes.image(
        uri=f"data:image/png;base64,{data}",
        alt="Simulated distributions of each edition, side by side",
        classes=["perudo-plot"],
    )


class SimulationDirective(PerudoDirective):
    """``.. perudo-simulation:: ID [ID ...]``: a small fixed-seed simulation, table and plot.

    Options ``:games:``, ``:players:``, ``:seed:`` (defaults from the ``perudo_sim_*``
    config values), ``:bot:`` (``baseline``) and ``:no-plot:``.
    """

    required_arguments = 1
    optional_arguments = 20
    option_spec: ClassVar[dict[str, Any]] = {
        "games": directives.positive_int,
        "players": directives.positive_int,
        "seed": directives.nonnegative_int,
        "bot": directives.unchanged,
        "no-plot": directives.flag,
    }

    def run(self) -> list[nodes.Node]:
        variants = self.load_all(self.arguments)
        games = self.options.get("games", self.config.perudo_sim_games)
        players = self.options.get("players", self.config.perudo_sim_players)
        seed = self.options.get("seed", self.config.perudo_sim_seed)
        bot = self.options.get("bot", "baseline")
        drawn = "no-plot" not in self.options

        def run() -> dict[str, Any]:
            stats = [
                simulate(v, players=players, games=games, seed=seed, bot=bot, workers=1)
                for _, v in variants
            ]
            png = plot_png(stats) if drawn else None
            return {"stats": [s.to_dict() for s in stats], "png": png}

        editions = [[vid, v.id, v.name, v.values()] for vid, v in variants]
        what = ["perudo-simulation", editions, games, players, seed, bot, drawn]
        try:
            kept = stored(self.store_folder(), "simulation", fingerprint(what), run)
        except ValueError as err:
            raise self.error(f"perudo-simulation: {err}") from None
        stats = [SimStats.from_dict(doc) for doc in kept["stats"]]
        out: list[nodes.Node] = [
            nodes.paragraph(
                text=tr(
                    "{games} games per edition, {players} players, {bot} bots, seed {seed}; "
                    "each figure is the estimate and its 95% confidence interval. Computed "
                    "when the docs are built: the same seed gives the same numbers.",
                    games=games,
                    players=players,
                    bot=bot,
                    seed=seed,
                )
            ),
            stats_table([vid for vid, _ in variants], stats),
        ]
        if drawn and kept["png"] is not None:
            image = plot_node(stats, kept["png"])
            assert image is not None
            out.append(image)
        return out
