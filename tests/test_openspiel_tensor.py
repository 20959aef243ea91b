"""The OpenSpiel adapter's information-state tensor, read back piece by piece.

Each piece of the tensor (``Observer.dict``, the named views OpenSpiel's observers expose)
is decoded on its own and compared with the engine position behind the state: the seat,
its dice (as :func:`~perudo_rules.engine.views.sight` shows them to it), the dice counts,
the current round's bids by bidder, who acts, the offer, the end; and every finished
round's row of ``past``: opener, palifico, the seat's dice, the ids bid, caller, call, the
cups lifted, loser and gainer (at each round's first decision and at the end). The state's
own tensor method, the observer's ``set_from`` (OpenSpiel's path) and, there, a fresh
observer (no state carried from the nodes before) must give the same numbers.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402

from perudo_rules.base.actions import Bid  # noqa: E402
from perudo_rules.engine.views import sight  # noqa: E402
from perudo_rules.openspiel import load_game  # noqa: E402

RECALL = pyspiel.IIGObservationType(perfect_recall=True)

# (edition, seats, games): long games at four seats, so fewer of them
CASES = [("openspiel-liars-dice", 2, 12), ("italian", 3, 6), ("spanish", 2, 8), ("spanish", 4, 2)]


def _one_hot(piece: Any, index: int | None) -> None:
    """``piece`` is zero but for a one at ``index`` (all zero for ``None``)."""
    want = np.zeros(len(piece), np.float32)
    if index is not None:
        want[index] = 1.0
    assert piece.tolist() == want.tolist()


def _cup_grid(cup: tuple[int, ...], dice: int, faces: int) -> list[list[float]]:
    """A cup as the tensor shows it: one row per die (sorted), a one at its face."""
    grid = [[0.0] * faces for _ in range(dice)]
    for i, f in enumerate(sorted(cup)):
        grid[i][f - 1] = 1.0
    return grid


def _check_row(row: Any, r: Any, seat: int, spec: Any) -> None:
    """A finished round's row of ``past``, decoded piece by piece against record ``r``."""
    n, d = spec.players, spec.seat_dice
    faces = spec.variant.rules.dice_faces
    amap = spec.amap
    widths = [n, 1, d * faces, amap.num_bids, 0, n, 2, n * d * faces, n, n]
    assert len(row) == sum(widths)
    parts = np.split(row, np.cumsum(widths)[:-1])
    opener, pal, dice, bids, _rerolls, caller, call, shown, loser, gainer = parts
    _one_hot(opener, r.first_player)
    assert pal.tolist() == [float(r.palifico)]
    own = sight(seat, r.dice).cups[seat] or ()
    assert dice.reshape(d, faces).tolist() == _cup_grid(own, d, faces)
    ids = {amap.bid_id(a.quantity, a.face) for a in r.actions if type(a) is Bid}
    assert set(np.flatnonzero(bids).tolist()) == ids
    assert bids.max(initial=0.0) <= 1.0
    res = r.result
    _one_hot(caller, res.caller)
    _one_hot(call, 0 if res.kind == "dudo" else 1)
    lifted = shown.reshape(n, d, faces)
    shown_by_seat = dict(zip(res.revealed, res.shown, strict=True))
    for s in range(n):
        assert lifted[s].tolist() == _cup_grid(shown_by_seat.get(s, ()), d, faces), s
    _one_hot(loser, res.loser)
    _one_hot(gainer, res.gainer)


def _check(state: Any, seat: int, obs: Any, rows: bool) -> None:
    node = state.node
    game = state.perudo_game
    spec = node.spec
    faces = spec.variant.rules.dice_faces
    obs.set_from(state, seat)
    t = obs.dict
    assert state.information_state_tensor(seat) == obs.tensor.tolist()
    if rows:
        fresh = state.get_game().make_py_observer(RECALL)
        fresh.set_from(state, seat)
        assert fresh.tensor.tolist() == obs.tensor.tolist()
    _one_hot(t["player"], seat)
    if game is None:
        return
    over = state.is_terminal()
    cups = game.dice
    own = sight(seat, cups).cups[seat] or () if any(cups) else ()
    assert t["dice"].tolist() == _cup_grid(own, spec.seat_dice, faces)
    for s, c in enumerate(game.dice_counts):
        _one_hot(t["counts"][s], c)
    assert t["over"].tolist() == [float(over)]
    history = game.history
    if rows:
        for k, r in enumerate(history):
            _check_row(t["past"][k], r, seat, spec)
    assert not t["past"][len(history) :].any()
    bids = t["bids"]
    if over or node.phase != 2:  # no round in play: no bids, nobody to act
        assert not bids.any() and not t["to_act"].any()
        return
    want = np.zeros_like(bids)
    for b in game.bids:
        want[b.player, spec.amap.bid_id(b.quantity, b.face)] = 1.0
    assert bids.tolist() == want.tolist()
    _one_hot(t["to_act"], state.current_player())
    assert t["offer"].tolist() == [float(state.offered())]
    _one_hot(t["opener"], game.first_player)
    assert t["palifico"].tolist() == [float(game.palifico)]


@pytest.mark.parametrize(("variant", "players", "games"), CASES, ids=str)
def test_every_piece_of_the_information_state_tensor_reads_back(
    variant: str, players: int, games: int
) -> None:
    game = load_game(variant, players)
    obs = game.make_py_observer(RECALL)
    rng = random.Random(11)
    rows = 0
    for _ in range(games):
        state = game.new_initial_state()
        seen = -1
        while True:
            if not state.is_chance_node():
                # the rows of ``past`` at the first decision of a round and at the end
                finished = len(state.perudo_game.history) if state.perudo_game else 0
                whole = finished != seen or state.is_terminal()
                seen = finished
                for seat in range(players):
                    _check(state, seat, obs, whole)
                rows += finished if whole else 0
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    assert rows >= 12
