"""Hypothesis strategies and test oracles shared by the property and stateful tests.

* :func:`variant_values` draws a complete, valid set of knob values from the whole knob
  space of :data:`perudo_rules.editions.knobs.KNOBS` (every knob, every choice), respecting the
  cross-knob rules the loader enforces; :func:`random_variants` loads such a document
  through ``load_variant`` (as overrides of a bundled file, i.e. a house-rules file that
  replaces every knob), and :func:`variants` mixes in every bundled variant.
* :func:`positions` draws explicit positions (``Game.start``) part-way into a round.
* :func:`random_play` plays a game with a seeded random policy.
* The oracles restate the rules as the rulebooks phrase them, independently of the
  engine's rank table: who may bid what (``bid_expected_legal``, ``raise_ok``), who may
  call (``call_expected_legal``), how a new game starts (``new_game_expected``), what a
  bid counts (``true_count``). ``tests/test_knob_coverage.py`` holds each to the knob
  table: the oracle of bids, calls or the start reads every knob that ``decides`` them.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st

from perudo_rules import Bid, Calza, Dudo, Game, Reroll, Variant, available_variants, load_variant
from perudo_rules.base.actions import Action
from perudo_rules.base.limits import MAX_BID_QUANTITY
from perudo_rules.editions.knobs import KNOB_PATHS, KNOBS, KnobSpec
from perudo_rules.editions.ruleset import Ruleset
from perudo_rules.engine.start import roll_die

#: The property and stateful tests are cheap per example, so they run BOOST times the
#: profile's examples (ci: 60 -> 180), except under a profile that already asks for 1000+.
BOOST = 3


def boosted() -> settings:
    """The current profile with BOOST times its examples (unchanged at 1000 or more)."""
    n = settings.default.max_examples
    return settings(max_examples=n if n >= 1000 else n * BOOST)


# Bounds that keep random games short; every choice of every enum knob is still drawn.
MAX_PLAYERS = 5
MAX_START_DICE = 4
MAX_FACES = 8

#: Integer knobs drawn within bounds that keep games small, by path: ``(low, high)``.
#: An integer knob not listed here is drawn from its schema minimum to that plus
#: :data:`SMALL_SPAN` (its schema maximum if lower), so a new knob is drawn as it is.
SMALL_INTS: dict[str, tuple[int, int]] = {
    "players.min": (2, 4),
    "players.max": (2, MAX_PLAYERS),
    "dice.per_player": (1, MAX_START_DICE),
    "dice.max_per_player": (1, MAX_START_DICE + 2),
    "dice.faces": (2, MAX_FACES),
    "wild.face": (1, MAX_FACES),
    "setup.rolloff_dice": (1, 3),
    "bidding.wild_worth": (1, 3),
    "bidding.quantity_limit": (1, 12),
    "calza.gain_cap": (1, MAX_START_DICE + 2),
    "calza.min_players": (2, 4),
}
SMALL_SPAN = 3
#: Strings knobs may take (``wild.name``): a few, for short games and readable failures.
NAMES = ("wild", "Joker", "x")


def _schema_values(path: str, schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Every value the JSON Schema of knob ``path`` allows, integers kept small."""
    if "oneOf" in schema:
        return st.one_of([_schema_values(path, alt) for alt in schema["oneOf"]])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "string":
        return st.sampled_from([n for n in NAMES if len(n) >= schema.get("minLength", 0)])
    if kind == "integer":
        low, high = SMALL_INTS.get(path, (schema["minimum"], schema["minimum"] + SMALL_SPAN))
        low = max(low, schema.get("minimum", low))
        high = min(high, schema.get("maximum", high))
        return st.integers(low, high)
    raise AssertionError(f"{path}: no strategy for the schema {schema}: extend _schema_values")


def knob_values(spec: KnobSpec) -> st.SearchStrategy[Any]:
    """Every value of one knob, from the knob table: each choice of a choice knob, both
    booleans, integers within bounds that keep games small (:data:`SMALL_INTS`)."""
    return _schema_values(spec.path, spec.schema)


def make_consistent(v: dict[str, Any]) -> dict[str, Any]:
    """The drawn values moved (never pinned) to obey the rules between knobs that the
    loader enforces (``variantfile._check_consistency``): ordered bounds, the wild face a face
    of the die, worth 1 outside ``quantity_then_face``, single-round games for two seats
    without Calza. A new rule between knobs fails ``test_random_variant_documents_load``
    until it is added here."""
    lo, hi = sorted((v["players.min"], v["players.max"]))
    v["players.min"], v["players.max"] = lo, hi
    per, most = sorted((v["dice.per_player"], v["dice.max_per_player"]))
    v["dice.per_player"], v["dice.max_per_player"] = per, most
    if isinstance(v["wild.face"], int):
        v["wild.face"] = (v["wild.face"] - 1) % v["dice.faces"] + 1
    v["calza.gain_cap"] = min(v["calza.gain_cap"], most)
    if v["bidding.order"] != "quantity_then_face":
        v["bidding.wild_worth"] = 1
    if v["end.condition"] == "single_round":
        v["players.min"] = v["players.max"] = 2
        v["calza.enabled"] = False
    return v


@st.composite
def variant_values(draw: st.DrawFn) -> dict[str, Any]:
    """A complete, consistent mapping knob path -> value, drawn from the whole knob space:
    every knob of :data:`perudo_rules.editions.knobs.KNOBS` by :func:`knob_values`, then
    :func:`make_consistent`. A new knob is drawn without editing this module."""
    v = {spec.path: draw(knob_values(spec)) for spec in KNOBS}
    v = make_consistent(v)
    assert set(v) == set(KNOB_PATHS), set(KNOB_PATHS) ^ set(v)
    return v


@functools.lru_cache(maxsize=4096)
def _load(items: tuple[tuple[str, Any], ...]) -> Variant:
    return load_variant("italian", overrides=dict(items))


def load_values(values: dict[str, Any]) -> Variant:
    """Load a drawn knob mapping through ``load_variant`` (cached)."""
    return _load(tuple(sorted(values.items())))


def random_variants() -> st.SearchStrategy[Variant]:
    """Variants nobody wrote by hand: every knob drawn, loaded and validated by the loader."""
    return variant_values().map(load_values)


BUNDLED: list[str] = available_variants()


def bundled_variants() -> st.SearchStrategy[Variant]:
    """Every bundled variant."""
    return st.sampled_from(BUNDLED).map(load_variant)


def variants() -> st.SearchStrategy[Variant]:
    """Bundled variants and random ones."""
    return st.one_of(bundled_variants(), random_variants())


@st.composite
def new_games(draw: st.DrawFn, variant: st.SearchStrategy[Variant] | None = None) -> Game:
    """A game from ``Game.new``: a variant, a seat count it allows, a seed."""
    v = draw(variants() if variant is None else variant)
    players = draw(st.integers(v.rules.players_min, min(v.rules.players_max, MAX_PLAYERS)))
    return Game.new(v, players=players, seed=draw(st.integers(0, 2**32 - 1)))


@st.composite
def starts(draw: st.DrawFn, variant: st.SearchStrategy[Variant] | None = None) -> Game:
    """An explicit position at the start of a round (``Game.start``), palifico ones included."""
    v = draw(variants() if variant is None else variant)
    r = v.rules
    n = draw(st.integers(r.players_min, min(r.players_max, MAX_PLAYERS)))
    counts = draw(st.lists(st.integers(0, r.dice_max_per_player), min_size=n, max_size=n))
    alive = [s for s, c in enumerate(counts) if c]
    if len(alive) < 2:
        a, b = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=2, unique=True))
        counts[a] = counts[a] or 1
        counts[b] = counts[b] or 1
        alive = [s for s, c in enumerate(counts) if c]
    dice = [draw(st.lists(st.integers(1, r.dice_faces), min_size=c, max_size=c)) for c in counts]
    first = draw(st.sampled_from(alive))
    palifico = r.palifico_enabled and counts[first] == 1 and draw(st.booleans())
    used = draw(st.lists(st.integers(0, n - 1), unique=True, max_size=n))
    return Game.start(
        v, dice, first, palifico=palifico, round=draw(st.integers(1, 3)), palifico_used=used
    )


@st.composite
def positions(draw: st.DrawFn, variant: st.SearchStrategy[Variant] | None = None) -> Game:
    """A position part-way into a round: a start, then a few legal bids."""
    g = draw(starts(variant))
    for _ in range(draw(st.integers(0, 4))):
        ranks = g.legal_actions().bid_ranks
        if not ranks:
            break
        i = draw(st.integers(0, min(len(ranks), 8) - 1))
        q, f = g.space.bid(ranks[i])
        assert g.to_move is not None
        g = g.apply(Bid(g.to_move, q, f))
    return g


# --- a random policy ----------------------------------------------------------------------


def choose(game: Game, rng: random.Random, call_rate: float = 0.3) -> Action:
    """A random legal action: often a low raise, sometimes any raise, sometimes a call."""
    acts = game.legal_actions()
    nb = len(acts.bid_ranks)
    extras = len(acts) - nb
    if nb == 0 or (extras and rng.random() < call_rate):
        return acts[nb + rng.randrange(extras)]
    if rng.random() < 0.5:
        return acts[rng.randrange(min(nb, 4))]
    return acts[rng.randrange(nb)]


def random_play(
    game: Game, seed: int, max_steps: int = 5000, strict: bool = True
) -> Iterator[tuple[Game, Any, Game]]:
    """Play ``game`` to the end with a seeded random policy.

    Yields ``(before, step, after)`` where ``step`` is an action or ``"roll"``.
    If the game is not over after ``max_steps`` steps, raises ``AssertionError``
    (``strict``) or just stops.
    """
    rng = random.Random(seed)
    for _ in range(max_steps):
        if game.is_over:
            return
        if game.awaiting_roll:
            nxt = game.roll(rng=rng)
            yield game, "roll", nxt
        else:
            action = choose(game, rng)
            nxt = game.apply(action)
            yield game, action, nxt
        game = nxt
    if strict:
        raise AssertionError(f"game not over after {max_steps} steps: {game!r}")


# --- oracles: the rules restated ----------------------------------------------------------


def wild_active(game: Game) -> int | None:
    """The wild face if wilds count in this round (not in a palifico round without them)."""
    r = game.rules
    if game.palifico and not r.palifico_wilds_count:
        return None
    return r.wild


def true_count(dice: Any, face: int, wild: int | None) -> int:
    """Dice showing ``face``, plus wild dice when a wild counts and the bid is not on it."""
    return sum(1 for cup in dice for d in cup if d == face or (wild is not None and d == wild))


def raise_ok(game: Game, cur: Bid, new: Bid) -> bool:
    """Whether ``new`` beats ``cur``, as the rulebooks state the raise (no rank table)."""
    r = game.rules
    wild = wild_active(game)
    q0, f0, q, f = cur.quantity, cur.face, new.quantity, new.face
    if r.bidding_order == "face_then_quantity":
        return f > f0 or (f == f0 and q > q0)
    if r.bidding_order == "neither_decreases":  # lower neither, change something
        return q >= q0 and f >= f0 and (q, f) != (q0, f0)
    k = r.bidding_wild_worth
    below = r.bidding_wild_rank == "below_multiple"
    if f == wild and f0 == wild:
        return q > q0
    if f == wild:  # to wilds: at least ceil(q0 / k) (below the multiple: floor(q0 / k) + 1)
        return q >= (q0 // k + 1 if below else -(-q0 // k))
    if f0 == wild:  # back from wilds: at least k * w + 1 (below the multiple: k * w)
        return q >= (k * q0 if below else k * q0 + 1)
    return q > q0 or (q == q0 and f > f0)


def wild_banned(game: Game) -> bool:
    """Whether a bid on the wild face is forbidden right now: the wild-opening rule outside
    palifico rounds, palifico.wild_bids in them."""
    r = game.rules
    if game.palifico:
        return r.palifico_wild_bids == "forbidden" or (
            r.palifico_wild_bids == "not_as_opening_bid" and not game.bids
        )
    if r.bidding_wild_opening == "allowed":
        return False
    if r.bidding_wild_opening == "not_as_opening_bid":
        return not game.bids
    return game.round == 1


def face_free(game: Game, player: int) -> bool:
    """Whether ``player`` may change the face in this palifico round: never under a lock,
    except as the lock says for other seats and as opener_may_change says for the palifico
    player itself."""
    r = game.rules
    lock = r.palifico_face_lock
    if lock == "free":
        return True
    if player == game.palifico_player:
        return r.palifico_opener_may_change
    single = game.dice_counts[player] == 1
    former = player in game.palifico_used
    return {
        "locked": False,
        "locked_except_single_die": single,
        "locked_except_former_palifico": former,
        "locked_except_single_die_or_former_palifico": single or former,
    }[lock]


def bid_expected_legal(game: Game, bid: Bid) -> bool:
    """The legality of a bid, restated from the rules."""
    if game.to_move is None or bid.player != game.to_move:
        return False
    faces = game.rules.dice_faces
    capped = game.rules.bidding_quantity_cap == "dice_in_play"
    if not (1 <= bid.quantity <= MAX_BID_QUANTITY and 1 <= bid.face <= faces):
        return False
    if capped and bid.quantity > game.dice_in_play:
        return False
    limit = game.rules.bidding_quantity_limit
    if limit is not None:  # a bid on the wild face (counting or not): limit // worth
        wild = game.rules.wild
        if bid.quantity > (limit // game.rules.bidding_wild_worth if bid.face == wild else limit):
            return False
    if bid.face == game.rules.wild and wild_banned(game):
        return False
    if not game.bids:
        return True
    cur = game.bids[-1]
    if game.palifico and bid.face != cur.face and not face_free(game, bid.player):
        return False
    return raise_ok(game, cur, bid)


def call_expected_legal(g: Game, call: Dudo | Calza) -> bool:
    """The legality of a Dudo or a Calza, restated from the rules: against a standing bid,
    by a seat with dice, never the bidder's Dudo; who else, as the variant says."""
    r = g.rules
    p = call.player
    bidder = g.bids[-1].player if g.bids else None
    live = g.to_move is not None and bidder is not None and g.dice_counts[p] > 0
    if isinstance(call, Dudo):
        anyone = r.challenge_who == "any_except_bidder" or (
            r.challenge_who == "any_except_bidder_in_palifico" and g.palifico
        )
        return live and p != bidder and (anyone or p == g.to_move)
    calza = live and r.calza_enabled and (r.calza_in_palifico or not g.palifico)
    calza = calza and sum(1 for c in g.dice_counts if c) >= r.calza_min_players
    who = r.calza_who
    if who == "player_to_move":
        return calza and p == g.to_move
    if who == "any_except_bidder_and_next":
        return calza and p != g.to_move and p != bidder
    if who == "any_except_bidder":
        return calza and p != bidder
    if who == "any_except_next":
        return calza and p != g.to_move
    return calza


def new_game_expected(
    r: Ruleset, players: int, seed: int
) -> tuple[int, int, tuple[tuple[int, ...], ...]]:
    """How ``Game.new(variant, players, seed=seed)`` starts, restated: the seat count
    ``players`` brought within the variant's bounds, the opener and the dice. With
    ``random.Random(seed)``, every seat rolls setup.rolloff_dice dice, the best score opens
    (their total or their highest die, the wild face best where the variant says so), ties
    re-roll among the tied (in seat order); then every seat's dice.per_player dice are
    rolled seat by seat. ``seat_zero`` always opens at 0."""
    players = max(r.players_min, min(players, r.players_max))
    rng = random.Random(seed)
    best = r.wild if r.setup_rolloff_wild_best else None

    def roll(n: int) -> tuple[int, ...]:
        return tuple(roll_die(rng, r.dice_faces) for _ in range(n))

    def score(dice: tuple[int, ...]) -> int:
        values = [r.dice_faces + 1 if d == best else d for d in dice]
        return max(values) if r.setup_rolloff_score == "highest_die" else sum(values)

    first = 0
    if r.setup_first_player == "roll_off":
        tied = list(range(players))
        while len(tied) > 1:
            totals = [score(roll(r.setup_rolloff_dice)) for _ in tied]
            tied = [s for s, t in zip(tied, totals, strict=True) if t == max(totals)]
        first = tied[0]
    return players, first, tuple(roll(r.dice_per_player) for _ in range(players))


def candidates(game: Game) -> list[Action]:
    """The whole candidate space: every bid of every seat with quantity 0..dice+2 and face
    0..faces+1, Dudo and Calza for every seat, out seats included, and every re-roll of
    every seat (each part of its concealed dice where the edition has re-rolls, else one;
    and one naming no face of the die)."""
    cap = game.dice_in_play
    out: list[Action] = []
    for p in range(game.players):
        out.extend(Bid(p, q, f) for q in range(cap + 3) for f in range(game.rules.dice_faces + 2))
        out.append(Dudo(p))
        out.append(Calza(p))
        hidden = sorted(game.dice[p][len(game.set_aside[p]) :])
        if game.rules.reroll_enabled:  # every multiset of its concealed dice, the empty one too
            parts: list[tuple[int, ...]] = [()]
            for face in sorted(set(hidden)):
                held = hidden.count(face)
                parts = [c + (face,) * k for c in parts for k in range(held + 1)]
        else:  # an edition without re-rolls refuses each alike
            parts = [(), tuple(hidden[:1])]
        out += [Reroll(p, c) for c in sorted(parts)] + [Reroll(p, (0,))]
    return out


def rotate(seq: Any, r: int) -> list[Any]:
    """``seq`` rotated so that item ``i`` moves to ``(i + r) % n``."""
    n = len(seq)
    return [seq[(i - r) % n] for i in range(n)]


def shift(action: Action, r: int, n: int, mirror: bool = False) -> Action:
    """``action`` by seat ``(p + r) % n`` (or the mirrored seat ``(-p) % n``)."""
    p = (-action.player) % n if mirror else (action.player + r) % n
    if isinstance(action, Bid):
        return Bid(p, action.quantity, action.face)
    if isinstance(action, Reroll):
        return Reroll(p, action.set_aside)
    return type(action)(p)
