"""What a game server is sent: any text, any seat. The README's ``serve()`` answers every
request with a view or a refusal (a JSON-able dict with a rule and a message id, said in
every language), never an exception; the spectator's view and the public record never
hold a die of a closed cup, and the full record is written only when asked.

``serve()`` is the README's own text: the test takes it from the README's server block
and runs it, so the two cannot drift apart.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perudo_rules import (
    Game,
    IllegalAction,
    Refusal,
    Refused,
    check_seat,
    load_variant,
    parse_action,
    referee,
    replay,
    to_record,
)
from perudo_rules.base.errors import ActionSyntaxError, SeatError, SeatTypeError
from perudo_rules.base.i18n import use_language
from perudo_rules.base.messages import CATALOGUES, ENGLISH, Plural
from perudo_rules.records.recordformat import RecordError
from tests.strategies import BUNDLED, choose

try:  # NumPy's integers are seats too (an optional extra of the tests)
    import numpy as np
except ImportError:  # pragma: no cover - without the pettingzoo extra
    np = None

README = Path(__file__).resolve().parent.parent / "README.md"
NUMPY_SEATS: list[Any] = [] if np is None else [np.int64(1), np.int32(0), np.bool_(True)]


def _serve_source() -> str:
    """The README's ``serve()``: its import line and its definition, prompts taken off."""
    text = README.read_text(encoding="utf-8")
    start = text.index(">>> from perudo_rules import Refused")
    lines: list[str] = []
    for line in text[start:].splitlines():
        if line.startswith(">>> ") and lines and not line.startswith(">>> def serve"):
            break
        lines.append(line[4:])
    return "\n".join(lines) + "\n"


def _serve() -> Any:
    namespace: dict[str, Any] = {"Game": Game, "json": json}
    exec(_serve_source(), namespace)  # the README's text, as a doctest runs it
    return namespace["serve"]


SERVE = _serve()


def _states() -> list[str]:
    """Stored states a server holds: new games of several editions, one in mid-round,
    one awaiting a roll, one over."""
    out = []
    for i, edition in enumerate(BUNDLED[:4]):
        game = Game.new(load_variant(edition), 3, seed=i)
        rng = random.Random(i)
        for _ in range(i * 3):
            if game.is_over:
                break
            game = game.roll(rng=rng) if game.awaiting_roll else game.apply(choose(game, rng))
        out.append(json.dumps(game.to_json()))
    two = Game.new(load_variant("italian"), 2, seed=3)
    rng = random.Random(3)
    while not two.is_over:
        two = two.roll(rng=rng) if two.awaiting_roll else two.apply(choose(two, rng))
    out.append(json.dumps(two.to_json()))
    return out


STATES = _states()

NEAR_MISSES = [
    "", " ", ":", "0:", ":2x3", "2x", "x3", "2x3x4", "2y3", "0x3", "2x0", "-1:2x3", "1:-2x3",
    "dudo!", "Dudo", " CALZA ", "calza 2", "leave now", "reroll", "reroll 0", "reroll 5,",
    "1:reroll 7,7", "roll [[1]]", "bid 2x3", "1: bid 2x3", "9999999:dudo", "1:" + "9" * 12 + "x3",
    "2x" + "9" * 12, "0:2x3", "1:2x3", "2:2x3", "1:dudo", "3:calza", "2 3", "2*3", "\x00",
    "1:2x3\n", "\uff11:\uff12x\uff13", "banana",
]
TEXTS = st.one_of(
    st.text(max_size=40),
    st.sampled_from(NEAR_MISSES),
    st.builds(
        lambda seat, q, f, sep: f"{seat}{sep}{q}x{f}",
        st.integers(-2, 5),
        st.integers(-1, 20),
        st.integers(-1, 9),
        st.sampled_from([":", "", " : ", "::"]),
    ),
    st.builds(
        lambda s, t: f"{s}:{t}", st.integers(-1, 5), st.sampled_from(["dudo", "calza", "leave"])
    ),
    st.none(),
    st.integers(),
    st.binary(max_size=5),
)
SEATS = st.one_of(
    st.integers(-3, 6),
    st.integers(),
    st.none(),
    st.booleans(),
    st.text(max_size=3),
    st.floats(allow_nan=True),
    st.sampled_from([*NUMPY_SEATS, 1.0, "1", 2**70, -(2**70)]),
)


def _is_refusal(answer: dict[str, Any]) -> bool:
    refused = answer.get("refused")
    return isinstance(refused, dict) and {"rule", "message_id", "params", "message"} <= set(refused)


@given(state=st.sampled_from(STATES), seat=SEATS, sent=TEXTS)
def test_every_request_ends_as_a_view_or_a_refusal(state: str, seat: Any, sent: Any) -> None:
    new_state, answer = SERVE(state, seat, sent)
    json.dumps(answer)  # JSON-able, whatever came in
    if _is_refusal(answer):
        assert new_state == state  # nothing applied
        refused = answer["refused"]
        assert refused["message_id"] in ENGLISH and "." in refused["rule"]
        for lang in ("it", "es"):  # said in every language, from the same values
            with use_language(lang):
                text = _text(refused, lang)
            assert (text and text != refused["message"]) or _untranslatable(refused["message_id"])
    else:  # applied: the seat's own view of the new state
        assert type(seat) is not bool and answer["player"] == int(seat)
        assert Game.from_json(json.loads(new_state)).observation(int(seat)).to_json() == answer


def _text(refused: dict[str, Any], lang: str) -> str:
    return Refusal(refused["rule"], refused["message_id"], refused["params"]).text()


def _untranslatable(message_id: str) -> bool:
    """A template whose translation may read as the English one (none does today)."""
    english, other = ENGLISH[message_id], CATALOGUES["it"][message_id]
    return isinstance(english, Plural) and english == other


@pytest.mark.parametrize(
    ("seat", "sent", "message_id"),
    [
        (1, "banana", "action-syntax"),
        (1, None, "action-syntax"),
        (1, "0:2x3", "another-seats-action"),
        ("1", "dudo", "seat-not-an-int"),
        (True, "dudo", "seat-not-an-int"),
        (1.0, "dudo", "seat-not-an-int"),
        (None, "0:dudo", "seat-not-an-int"),
        (3, "dudo", "no-such-seat"),
        (-1, "dudo", "no-such-seat"),
    ],
)
def test_the_server_refuses_with_a_message_id(seat: Any, sent: Any, message_id: str) -> None:
    state = STATES[0]
    new_state, answer = SERVE(state, seat, sent)
    assert new_state == state and answer["refused"]["message_id"] == message_id


def test_a_syntax_error_is_a_refusal_in_every_language() -> None:
    with pytest.raises(Refused) as err:
        parse_action("banana")
    e = err.value
    assert isinstance(e, ActionSyntaxError) and not isinstance(e, IllegalAction)
    assert e.refusal.to_json()["params"] == {"text": "'banana'"}
    assert e.rule == "play.notation" and "optionally prefixed by the seat, 2:QxF" in str(e)
    assert e.message_in("it").startswith("non è un'azione: 'banana'")
    assert e.message_in("es").startswith("no es una acción: 'banana'")
    with use_language("it"):
        assert e.message_in().startswith("non è")
    with pytest.raises(ActionSyntaxError) as other:
        parse_action("0:2x3", player=1)
    assert other.value.message == "'0:2x3' is seat 0's action; this request is seat 1's"
    with pytest.raises(ActionSyntaxError) as same:
        parse_action("1:2x3", player=2)
    assert same.value.refusal.params == {"text": "'1:2x3'", "seat": 1, "player": 2}


def test_a_seat_is_checked_alike_everywhere() -> None:
    game = Game.new(load_variant("italian"), 3, seed=1)
    takers = {
        "seat": lambda s: game.legal_actions(seat=s),
        "player": lambda s: game.observation(s),
        "viewer": lambda s: to_record(game, viewer=s),
    }
    for parameter, take in takers.items():
        for bad in (True, False, 1.0, "1", 1 + 0j, [1], *NUMPY_SEATS[2:]):
            with pytest.raises(TypeError) as wrong:
                take(bad)
            assert isinstance(wrong.value, SeatTypeError)
            assert str(wrong.value).startswith(f"{parameter}=")
            assert "from 0 to 2" in str(wrong.value) and "\n" not in str(wrong.value)
        for bad in (3, -1, 10**30):
            with pytest.raises(ValueError) as out:
                take(bad)
            assert isinstance(out.value, SeatError) and not isinstance(out.value, TypeError)
            assert str(out.value).startswith(f"{parameter}=") and "0 to 2" in str(out.value)
        for good in (2, *NUMPY_SEATS[:1]):  # an integer type Python reads as an index
            assert take(good) is not None
    if np is not None:
        to_move = game.to_move
        assert list(game.legal_actions(np.int64(to_move))) == list(game.legal_actions(to_move))
        assert check_seat(np.int32(1), 2) == 1 and type(check_seat(np.int32(1), 2)) is int
    with pytest.raises(SeatError, match=r"^seat=7 is not a seat"):
        game.next_seat(7)
    with pytest.raises(SeatTypeError, match=r"^player='1' is not a seat"):
        parse_action("dudo", player="1")  # type: ignore[arg-type]


def _positions(edition: str, seed: int) -> list[Game]:
    rng = random.Random(seed)
    variant = load_variant(edition)
    rules = variant.rules
    game = Game.new(variant, min(max(3 + seed % 2, rules.players_min), rules.players_max), seed)
    out = [game]
    for _ in range(300):
        if game.is_over:
            break
        game = game.roll(rng=rng) if game.awaiting_roll else game.apply(choose(game, rng))
        out.append(game)
    return out


def _without_own(view: dict[str, Any]) -> dict[str, Any]:
    """A view less what is a seat's own: its seat, dice and legal actions, and its own dice
    in past rounds."""
    rest = {k: v for k, v in view.items() if k not in ("player", "dice", "legal_actions")}
    rest["past_rounds"] = [
        {k: v for k, v in r.items() if k not in ("own_dice", "own_rerolls")}
        for r in view["past_rounds"]
    ]
    return rest


@pytest.mark.parametrize("edition", BUNDLED)
def test_a_spectator_sees_what_every_seat_sees_and_no_closed_cup(edition: str) -> None:
    for seed in (1, 2):
        positions = _positions(edition, seed)
        for game in positions[:: max(1, len(positions) // 12)] + positions[-1:]:
            public = game.observation(None)
            doc = public.to_json()
            json.dumps(doc)
            assert doc["player"] is None and doc["dice"] == [] and doc["legal_actions"] == []
            assert all(r["own_dice"] == [] and r["own_rerolls"] == [] for r in doc["past_rounds"])
            for seat in range(game.players):  # exactly what is common to all seats
                assert _without_own(game.observation(seat).to_json()) == _without_own(doc)
            _public_record_hides_closed_cups(game)


def _public_record_hides_closed_cups(game: Game) -> None:
    full = to_record(game, full=True)
    public = to_record(game)
    assert "viewer" not in full and public["viewer"] is None
    for i, (rnd, whole) in enumerate(zip(public["rounds"], full["rounds"], strict=True)):
        finished = i < len(game.history)
        lifted = set(game.history[i].result.revealed) if finished else set()
        rerolled = {int(a.split(":")[0]) for a in whole["actions"] if ":reroll" in a}
        for seat, cup in enumerate(rnd["dice"]):
            if seat in lifted and seat not in rerolled:
                assert cup == whole["dice"][seat]  # lifted at the reveal: seen by all
            else:  # a closed cup (or one re-rolled away): no die of it
                assert all(d is None for d in cup)
        for text in rnd["actions"]:
            if text.startswith("roll"):
                rolled = json.loads(text[4:])
                shown = [s for s, cup in enumerate(rolled) if any(d is not None for d in cup)]
                assert set(shown) <= lifted
        if finished and (set(range(len(rnd["dice"]))) - lifted) & {
            s for s, c in enumerate(whole["dice"]) if c
        }:
            assert rnd.get("result", {}).get("count") is None
    verdict = referee(json.loads(json.dumps(public)))
    assert verdict.violation is None and verdict.viewer is None
    with pytest.raises(RecordError, match="public one"):
        replay(public)
    assert replay(json.loads(json.dumps(full))) == game


def test_the_full_record_only_when_asked() -> None:
    game = _positions("italian", 4)[-1]
    assert "viewer" not in to_record(game, full=True)
    assert to_record(game)["viewer"] is None
    assert to_record(game, viewer=1)["viewer"] == 1
    with pytest.raises(ValueError, match="full=True"):
        to_record(game, viewer=1, full=True)
    assert Game.from_json(json.loads(json.dumps(game.to_json()))) == game  # gamejson: full


def test_the_readme_serve_is_the_tested_one() -> None:
    source = _serve_source()
    assert "except Refused as e:" in source and "check_seat(seat, game.players)" in source
    assert re.search(r"^def serve\(state: str, seat: object, sent: object\)", source, re.M)
