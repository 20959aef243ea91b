"""One rule for what a seat sees: :func:`perudo_rules.engine.views.sight`, and every view agrees.

The rule, stated once in the engine: a seat sees its own dice (its cup as dealt and each of
its own re-rolls); everyone sees the dice set aside face up (``reroll.enabled``) and, at
the reveal of a called round, the lifted cups as they stood (a re-roller's last roll
beside its set-aside dice, never its cup as dealt nor an earlier roll); every other die
stays hidden, and the true count with it; a spectator (no seat) sees the public part only.

For random games of every bundled edition (bluff's re-rolls, and seats leaving under both
``leave.round`` choices), at every fifth position, for every seat and a spectator, the dice
each view exposes are exactly what ``sight`` says: :meth:`RoundRecord.seen_by` and
:meth:`Game.observation`, the redacted record (``to_record(game, viewer=seat)``), the
OpenSpiel observer (strings and tensors) and the PettingZoo observation array.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from typing import Any

import pytest

from perudo_rules import Bid, Calza, Dudo, Game, Leave, Reroll, available_variants, load_variant
from perudo_rules.editions.variant import Variant
from perudo_rules.engine.rounds import RoundRecord
from perudo_rules.engine.views import Sight, sight
from perudo_rules.records.position import parse_step
from perudo_rules.records.record import to_record
from tests.strategies import choose

Cup = tuple[int, ...]
Seen = tuple[tuple[Cup | None, ...], tuple[Cup | None, ...]]

CONTINUES = {"leave.round": "continues"}
EARLY_STOPS = ("challenge.early_stop", "challenge.stop_when_unreachable")
VARIANTS: list[tuple[str, dict[str, Any]]] = [
    *[(v, {}) for v in available_variants()],
    ("bluff", {**CONTINUES, "reroll.limit": "once_per_round"}),
    (  # a Dudo that costs one die: the reveal may stop early, a re-roller's cup unlifted
        "bluff",
        {
            "reroll.must_bid": False,
            "challenge.loss": "one_die",
            "challenge.exact": "challenger_loses",
            "challenge.early_stop": True,
        },
    ),
    ("italian", {"reroll.enabled": True, "reroll.must_bid": False, **CONTINUES}),
    ("spanish", {**CONTINUES, "challenge.stop_when_unreachable": True}),
]


# --- the rule itself, by example ----------------------------------------------------------


def test_a_seat_sees_its_own_cup_and_nothing_else_in_play() -> None:
    cups = [(1, 2), (3, 4), (5, 6)]
    assert sight(1, cups) == Sight((None, (3, 4), None), (), False)
    assert sight(None, cups) == Sight((None, None, None), (), False)
    assert sight(0, [(1, 2), (), ()]).whole  # nobody else holds a die: nothing hidden


def test_the_reveal_shows_the_lifted_cups_and_a_rerollers_last_roll_only() -> None:
    cups = [(2, 5, 5), (1, 3, 6), (4, 4, 2)]
    # seat 0 re-rolled twice, rolling (3,) then (6,); seats 0 and 1 are lifted, seat 2's
    # cup stays closed (an early stop)
    by, rolls = (0, 0), [(3,), (6,)]
    seat1 = sight(1, cups, (0, 1), by, rolls)
    assert seat1.cups == (None, (1, 3, 6), None)  # seat 0's cup as dealt: re-rolled away
    assert seat1.rolls == (None, (6,))  # its last roll, shown at the reveal
    assert not seat1.whole
    mine = sight(0, cups, (0, 1), by, rolls)
    assert mine.cups == ((2, 5, 5), (1, 3, 6), None) and mine.rolls == ((3,), (6,))
    crowd = sight(None, cups, (0, 1, 2), by, rolls)
    assert crowd.cups == (None, (1, 3, 6), (4, 4, 2)) and crowd.rolls == (None, (6,))
    assert not crowd.whole  # the dice seat 0 rolled away stay hidden
    # a re-roll never rolled (its seat left with the dice in the air) hides nothing
    gone = sight(1, cups, (1, 2), (0,), [])
    assert gone.rolls == (None,) and gone.cups == (None, (1, 3, 6), (4, 4, 2))
    assert not gone.whole  # seat 0's cup left unseen
    assert sight(1, cups, (0, 1, 2)).whole  # every cup lifted, nobody re-rolled


# --- what each view exposes, read back into the shape of a Sight ---------------------------


def _by(actions: Sequence[object]) -> tuple[int, ...]:
    return tuple([a.player for a in actions if isinstance(a, Reroll)])


def _aside(actions: Sequence[object], seat: int) -> Cup:
    """The dice ``seat`` set aside in a round (named by its re-rolls: public)."""
    faces = [f for a in actions if isinstance(a, Reroll) and a.player == seat for f in a.set_aside]
    return tuple(sorted(faces))


def _exposed(
    actions: Sequence[object],
    cups: dict[int, Cup],
    rolls: Sequence[Cup | None],
    shown: dict[int, Cup],
    seats: int,
) -> Seen:
    """A round as a view exposes it, in the shape of a :class:`Sight`: the cups (as dealt)
    and the re-rolls' rolls it shows outright, and those the cups it shows at the reveal
    tell (a lifted cup shows its seat's set-aside dice, then its last roll; a seat that
    never re-rolled, its cup as dealt)."""
    by = _by(actions)
    last = {s: k for k, s in enumerate(by)}
    out_cups: list[Cup | None] = [cups.get(s) for s in range(seats)]
    out_rolls = list(rolls)
    for s, cup in shown.items():
        if s not in last:
            assert out_cups[s] in (None, cup)
            out_cups[s] = cup
        else:
            aside = _aside(actions, s)
            assert cup[: len(aside)] == aside, (cup, aside)
            assert out_rolls[last[s]] in (None, cup[len(aside) :])
            out_rolls[last[s]] = cup[len(aside) :]
    return tuple(out_cups), tuple(out_rolls)


def _plain(seen: Seen, cups: Sequence[Sequence[int]], rolls: Sequence[Sequence[int]]) -> Seen:
    """``seen`` with a hidden cup or roll that holds no die read as shown: it hides nothing
    (an empty cup, a re-roll never rolled), and views write it either way."""
    return (
        tuple([c if c is not None or cups[s] else () for s, c in enumerate(seen[0])]),
        tuple(
            [
                r if r is not None or (k < len(rolls) and rolls[k]) else ()
                for k, r in enumerate(seen[1])
            ]
        ),
    )


def _said(seen: Sight, cups: Sequence[Sequence[int]], rolls: Sequence[Sequence[int]]) -> Seen:
    return _plain((seen.cups, seen.rolls), cups, rolls)


def _round_sight(rec: RoundRecord, viewer: int | None) -> Sight:
    return sight(viewer, rec.dice, rec.result.revealed, _by(rec.actions), rec.rerolls)


def _live_sight(g: Game, viewer: int | None) -> tuple[Sight, list[Cup]]:
    """What ``viewer`` sees of the round in play (its cups as dealt, its re-rolls so far)."""
    rolled = list(g.reroll.rolled) if g.reroll is not None else []
    return sight(viewer, g.dealt, (), _by(g.actions), rolled), rolled


def _shown_of(rec: RoundRecord) -> dict[int, Cup]:
    return dict(zip(rec.result.revealed, rec.result.shown, strict=True))


def _check_observation(g: Game, p: int) -> None:
    """Game.observation: the cup held now, the set-aside dice (public), the past rounds
    (RoundRecord.seen_by) as sight says."""
    obs = g.observation(p)
    assert obs.dice == sight(p, g.dice).cups[p] == g.dice[p]
    if g.to_move is not None:
        assert obs.set_aside == g.set_aside
    for past, rec in zip(obs.past_rounds, g.history, strict=True):
        assert past == rec.seen_by(p)
        by = _by(rec.actions)
        mine = iter(past.own_rerolls)
        rolls = [next(mine) if s == p else None for s in by]
        assert next(mine, None) is None
        shown = dict(zip(past.revealed, past.shown, strict=True))
        got = _exposed(rec.actions, {p: past.own_dice}, rolls, shown, g.players)
        seen = _round_sight(rec, p)
        assert _plain(got, rec.dice, rec.rerolls) == _said(seen, rec.dice, rec.rerolls)


def _check_record(g: Game, p: int) -> None:
    """The redacted record: its cups, its rolls and its count are what sight says."""
    mine = json.loads(json.dumps(to_record(g, viewer=p)))
    full = to_record(g, full=True)
    for i, (rnd, truth) in enumerate(zip(mine["rounds"], full["rounds"], strict=True)):
        if i < len(g.history):
            rec = g.history[i]
            cups, rolled, seen = rec.dice, list(rec.rerolls), _round_sight(rec, p)
        else:
            cups = g.dealt
            seen, rolled = _live_sight(g, p)
        got_cups = tuple([None if None in c else tuple(c) for c in rnd["dice"]])
        got_rolls: list[Cup | None] = []
        steps = rnd["actions"]
        for at, text in enumerate(steps):
            if ":reroll" in text:
                nxt = steps[at + 1] if at + 1 < len(steps) else ""
                if not nxt.startswith("roll"):
                    got_rolls.append(())  # never rolled
                    continue
                step = parse_step(text)
                assert isinstance(step, Reroll)
                dice = json.loads(nxt[4:])[step.player]
                got_rolls.append(None if None in dice else tuple(dice))
        got: Seen = (got_cups, tuple(got_rolls))
        assert _plain(got, cups, rolled) == _said(seen, cups, rolled), (i, p)
        if "result" in rnd:
            leave = rnd["result"]["kind"] == "leave"
            assert (rnd["result"]["count"] is None) == (leave or not seen.whole)
            if not leave and seen.whole:
                assert rnd["result"]["count"] == truth["result"]["count"]


# --- OpenSpiel: the observer's text, read back ----------------------------------------------


_CUP = re.compile(r"^s(\d+):([\d-]+)$")


def _digits(text: str) -> Cup:
    return () if text == "-" else tuple(int(c) for c in text)


def _parse_round(text: str) -> tuple[dict[int | None, Cup], list[Cup | None], dict[int, Cup]]:
    """A round of the observer's text: the cups it shows as the round was played (the
    viewer's, ``dice ..``, under ``None``), each re-roll's roll shown after it (``None``:
    not shown) and the cups shown at the reveal."""
    head, _, rest = text.partition(" ; shown ")
    shown: dict[int, Cup] = {}
    if rest:
        for token in rest.split(" ; ")[0].split():
            m = _CUP.match(token)
            assert m is not None, token
            shown[int(m.group(1))] = _digits(m.group(2))
    tokens = head.split()
    cups: dict[int | None, Cup] = {}
    rolls: list[Cup | None] = []
    for i, token in enumerate(tokens):
        m = _CUP.match(token)
        if token == "dice":
            cups[None] = _digits(tokens[i + 1])
        elif m is not None:
            cups[int(m.group(1))] = _digits(m.group(2))
        elif token.endswith(":reroll"):
            _, arrow, dice = tokens[i + 1].partition(">")
            rolls.append(_digits(dice) if arrow else None)
    return cups, rolls, shown


def _check_openspiel_text(g: Game, p: int | None) -> None:
    """The information-state text of seat ``p`` (``None``: the public observer's, which
    no seat's private information enters), round by round, as sight says."""
    from perudo_rules.openspiel.texts import history_text

    private = "none" if p is None else "single"
    parts = history_text(g, 0 if p is None else p, private, recall=True).split(" | ")
    rounds = [x for x in parts if x.startswith("r")]
    assert len(rounds) == len(g.history) + (g.to_move is not None)
    for i, text in enumerate(rounds):
        shown_cups, rolls, shown = _parse_round(text)
        own = shown_cups.pop(None, None)
        if own is not None:
            assert p is not None
            shown_cups[p] = own
        cups_now: dict[int, Cup] = {s: c for s, c in shown_cups.items() if s is not None}
        if i < len(g.history):
            rec = g.history[i]
            actions, cups, rolled = rec.actions, rec.dice, list(rec.rerolls)
            seen = _round_sight(rec, p)
            assert shown == _shown_of(rec)
        else:
            actions, cups = g.actions, g.dealt
            seen, rolled = _live_sight(g, p)
            assert not shown
        got = _exposed(actions, cups_now, rolls, shown, g.players)
        assert _plain(got, cups, rolled) == _said(seen, cups, rolled), (i, p, text)


# --- PettingZoo: the observation array, read back --------------------------------------------


def _counts(cup: Sequence[int], faces: int) -> list[int]:
    out = [0] * faces
    for d in cup:
        out[d - 1] += 1
    return out


def _check_pettingzoo(g: Game, p: int, enc: Any) -> None:
    """The observation array of seat ``p``: its dice, the set-aside dice, and in each past
    round its own cup and the cups lifted, as sight says."""
    obs = enc.encode(g, p, g.to_move, False)
    at = {s.name: s for s in enc.layout}
    n, faces = g.players, enc.faces

    def seg(name: str, seat: int | None = None) -> list[int]:
        if seat is None:
            return [int(x) for x in obs[at[name].start : at[name].stop]]
        start = at[name].start + (seat - p) % n * faces  # seats relative to the observer
        return [int(x) for x in obs[start : start + faces]]

    assert seg("own_dice") == _counts(sight(p, g.dice).cups[p] or (), faces)
    if "set_aside" in at:
        for s in range(n):
            assert seg("set_aside", s) == _counts(g.set_aside[s], faces)
    for k, rec in enumerate(reversed(g.history[-enc.past_rounds :])):
        name = f"past[{k}]."
        seen = _round_sight(rec, p)
        assert seg(name + "own_dice") == _counts(seen.cups[p] or (), faces)
        lifted = set(rec.result.revealed)
        assert seg(name + "lifted") == [int((p + i) % n in lifted) for i in range(n)]
        by = _by(rec.actions)
        for s in range(n):
            cup: Sequence[int] = ()
            if s in lifted:  # the cup at the reveal, from what sight shows of it
                last = [j for j, b in enumerate(by) if b == s]
                roll = seen.rolls[last[-1]] if last else None
                cup = (*_aside(rec.actions, s), *(roll or ())) if last else seen.cups[s] or ()
                assert roll is not None or not last
            assert seg(name + "shown", s) == _counts(cup, faces)


# --- the games ---------------------------------------------------------------------------


def _positions(variant: Variant, seats: int, seed: int, leave: float) -> list[Game]:
    rng = random.Random(seed)
    game = Game.new(variant, seats, seed=seed)
    out = [game]
    for _ in range(600):
        if game.is_over:
            break
        if game.awaiting_roll:
            game = game.roll(rng=rng)
        elif rng.random() < leave:
            game = game.apply(Leave(rng.choice([s for s, c in enumerate(game.dice_counts) if c])))
        else:
            game = game.apply(choose(game, rng))
        out.append(game)
    return out


def _coverage(variant: Variant) -> dict[str, bool]:
    """The cases a variant's games must meet, each at least once, marked met where the
    variant cannot reach them: calls, a seat leaving, a cup left closed (where a reveal may
    stop early), a lifted cup of a seat that re-rolled (``reroll.enabled``)."""
    one_die = variant.knob("challenge.loss").value == "one_die"
    stops = one_die and any(variant.knob(k).value for k in EARLY_STOPS)
    return {
        "call": False,
        "leave": False,
        "closed": not stops,
        "lifted re-roll": not variant.rules.reroll_enabled,
    }


def _met(cases: dict[str, bool], rounds: Sequence[RoundRecord]) -> None:
    for r in rounds:
        lifted = r.result.revealed
        cases["call"] = cases["call"] or r.result.kind != "leave"
        cases["leave"] = cases["leave"] or r.result.kind == "leave"
        cases["leave"] = cases["leave"] or any(isinstance(a, Leave) for a in r.actions)
        cases["closed"] = cases["closed"] or 0 < len(lifted) < sum(map(bool, r.dice))
        cases["lifted re-roll"] = cases["lifted re-roll"] or bool(set(_by(r.actions)) & set(lifted))


@pytest.mark.parametrize(("name", "overrides"), VARIANTS, ids=lambda x: str(x))
def test_every_view_shows_what_sight_says(name: str, overrides: dict[str, Any]) -> None:
    variant = load_variant(name, overrides=overrides)
    frontends = _frontends()
    encoders: dict[int, Any] = {}
    cases = _coverage(variant)
    low, high = variant.rules.players_min, variant.rules.players_max
    seed = 0
    while seed < 5 or (not all(cases.values()) and seed < 40):
        seats = max(low, min(high, 2 + seed % 5))  # two to six seats
        positions = _positions(variant, seats, seed, leave=0.03 if seed % 3 else 0.0)
        seed += 1
        _met(cases, positions[-1].history)
        cut, last = len(positions) // 2, len(positions) - 1  # cut: a round in play, likely
        for i, g in enumerate(positions):
            n = g.players
            for p in range(n):
                assert g.observation(p).dice == sight(p, g.dice).cups[p]
            if i % 5 and i not in (cut, last):
                continue
            if "pettingzoo" in frontends and n not in encoders:
                encoders[n] = frontends["pettingzoo"](variant, n)
            for p in range(n):
                _check_observation(g, p)
                if i in (cut, last):
                    _check_record(g, p)
                if "pettingzoo" in frontends:
                    _check_pettingzoo(g, p, encoders[n])
            if "openspiel" in frontends:
                for q in [*range(n), None]:
                    _check_openspiel_text(g, q)
    assert all(cases.values()), cases


def _frontends() -> dict[str, Any]:
    """The RL front ends whose extras are installed: OpenSpiel's observer (its text is
    read), PettingZoo's encoder (made per seat count)."""
    out: dict[str, Any] = {}
    try:
        import perudo_rules.openspiel.observer  # noqa: F401
    except ImportError:
        pass
    else:
        out["openspiel"] = True
    try:
        from perudo_rules.engine.actionmap import action_map
        from perudo_rules.pettingzoo.observation import Encoder
    except ImportError:
        pass
    else:
        out["pettingzoo"] = lambda v, n: Encoder(v, n, 3, action_map(v, n))
    return out


def _cups_text(cups: Sequence[Sequence[int]]) -> str:
    return " ".join(f"s{s}:{''.join(map(str, c)) or '-'}" for s, c in enumerate(cups))


def _check_openspiel_state(state: Any, observer: Any, p: int, faces: int) -> None:
    """Seat ``p``'s observation of an OpenSpiel state: the cup in its tensor and its
    string is the one sight shows it; the set-aside dice are every seat's (public)."""
    g = state.perudo_game
    own = sight(p, g.dice).cups[p]
    assert own is not None
    observer.set_from(state, p)
    dice = observer.dict["dice"]
    assert tuple([f + 1 for row in dice for f in range(faces) if row[f]]) == own
    text = state.observation_string(p)
    assert f" dice {''.join(map(str, own)) or '-'} " in text
    if "set_aside" in observer.dict:
        assert observer.dict["set_aside"].tolist() == [_counts(c, faces) for c in g.set_aside]
        assert (f"aside {_cups_text(g.set_aside)}" in text) == any(g.set_aside)


def test_openspiel_tensors_and_strings_show_the_cup_sight_shows() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from perudo_rules.openspiel import load_game

    rng = random.Random(4)
    for name in available_variants():
        v = load_variant(name)
        seats = min(3, v.rules.players_max)
        game = load_game(v, seats)
        observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
        state = game.new_initial_state()
        for _ in range(300):
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            for p in range(seats):
                _check_openspiel_state(state, observer, p, v.rules.dice_faces)
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])


def test_the_views_differ_only_by_what_a_seat_saw() -> None:
    """Sanity: the checks above can fail. A seat's view of a called round lifted early
    (italian's early stop) leaves the closed cup out; its owner sees it."""
    g = Game.start(load_variant("italian"), [[4, 4, 2], [3, 5, 6], [6, 6, 2]], first_player=0)
    g = g.apply(Bid(0, 1, 4)).apply(Bid(1, 2, 4)).apply(Dudo(2))
    rec = g.history[0]
    assert rec.result.revealed == (0,)
    assert _round_sight(rec, 1).cups == ((4, 4, 2), (3, 5, 6), None)
    assert _round_sight(rec, 2).cups == ((4, 4, 2), None, (6, 6, 2))
    assert _round_sight(rec, None).cups == ((4, 4, 2), None, None)
    for p in range(3):
        _check_observation(g, p)
        _check_record(g, p)
    calza = Game.start(load_variant("spanish"), [[1, 2], [3, 4]], first_player=0)
    calza = calza.apply(Bid(0, 1, 3)).apply(Calza(1))
    assert _round_sight(calza.history[0], None).whole
