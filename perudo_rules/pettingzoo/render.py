"""The PettingZoo environment's table as text (``render``): for watching and debugging.

Every cup, the dice counts, this round's bids, whose decision it is and how the last round
ended. The table is :func:`perudo_rules.base.table.format_table`'s and the last round's
sentence :func:`perudo_rules.records.describe.describe_result`'s, as every front end says
them; the words come from the message catalogues (:mod:`perudo_rules.base.i18n`).
"""

from __future__ import annotations

from collections.abc import Sequence

from perudo_rules.base.actions import Leave
from perudo_rules.base.i18n import tr, use_language
from perudo_rules.base.safetext import printable
from perudo_rules.base.table import format_table
from perudo_rules.engine.game import Game
from perudo_rules.records.describe import describe_result

__all__ = ["table_text"]


def table_text(
    game: Game,
    agents: Sequence[str],
    deciding: int | None,
    calls: Sequence[str] | None,
    lang: str,
) -> str:
    """``game`` seen from above, in ``lang``: ``agents`` names the seats, ``deciding`` is the
    seat whose decision it is and ``calls`` the names of the calls it is offered out of turn
    (``None`` when it is not offered one).

    How the last round ended is told as the table saw it: the lifted cups and the dice
    among them that count (``shown_count``), never the closed cups' count."""
    with use_language(lang):
        return _table_text(game, agents, deciding, calls)


def _table_text(
    game: Game, agents: Sequence[str], deciding: int | None, calls: Sequence[str] | None
) -> str:
    pal = tr(", palifico round of seat {n}", n=game.palifico_player) if game.palifico else ""
    name = printable(tr(game.variant.name))
    lines = [tr("{name}: round {round}{palifico}", name=name, round=game.round, palifico=pal)]
    rows = []
    for seat, agent in enumerate(agents):
        cup = " ".join(str(d) for d in game.dice[seat]) or "-"
        if game.set_aside[seat]:
            cup += " " + tr("({n} set aside)", n=len(game.set_aside[seat]))
        cup = cup if game.dice_counts[seat] else tr("out")
        rows.append([str(seat), agent, str(game.dice_counts[seat]), cup])
    lines.append(format_table([tr("seat"), tr("agent"), tr("dice"), tr("cup")], rows))
    if game.to_move is not None:
        bids = " ".join(f"{b.player}:{b}" for b in game.actions) or tr("(none yet)")
        lines.append(tr("bids: {bids}", bids=bids))
    if game.winner is not None:
        lines.append(tr("game over: {agent} won", agent=agents[game.winner]))
    elif game.to_move is None:
        lines.append(tr("stopped after max_rounds"))
    elif calls is not None and deciding is not None:
        agent, names = agents[deciding], ", ".join(calls)
        lines.append(tr("{agent} may call out of turn ({calls})", agent=agent, calls=names))
    else:
        lines.append(tr("to move: {agent}", agent=agents[game.to_move]))
    r = game.last_result
    if r is not None:
        # the dice each seat holds after that round, unless a seat has left this one since
        left = any(isinstance(a, Leave) for a in game.actions)
        outcome = describe_result(r, None if left else game.dice_counts, winner=game.winner)
        lines.append(tr("last round: {outcome}", outcome=outcome))
    return "\n".join(lines)
