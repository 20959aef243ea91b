"""A server's own snapshot of a game restores it as it was, without replaying it, and
refuses anything it did not seal (another key, another version, a changed byte)."""

from __future__ import annotations

import hashlib
import hmac
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perudo_rules import (
    Bid,
    Game,
    PerudoError,
    SnapshotError,
    available_variants,
    load_variant,
    restore,
    snapshot,
)
from perudo_rules.base.version import __version__
from perudo_rules.records import snapshot as snapshot_module

KEY = b"a server secret of 32 bytes ...."


def _walk(game: Game, seed: int, steps: int, seen: list[object] | None = None) -> Game:
    """``game`` after up to ``steps`` seeded random steps (rolls included); each position's
    legal actions go into ``seen`` when given."""
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        if game.awaiting_roll:
            game = game.roll(rng=rng)
            continue
        actions = list(game.legal_actions())
        if seen is not None:
            seen.append(actions)
        game = game.apply(actions[int(rng.random() * len(actions))])
    return game


def _played(edition: str, seed: int, steps: int) -> Game:
    """A game of ``edition`` after up to ``steps`` random steps."""
    variant = load_variant(edition)
    players = min(variant.rules.players_max, 2 + seed % 3)
    return _walk(Game.new(variant, players, seed=seed), seed, steps)


def _continuation(game: Game, seed: int, steps: int = 40) -> list[object]:
    """What a seeded random continuation of ``game`` sees: each position's legal actions,
    then the game it reaches."""
    seen: list[object] = []
    seen.append(_walk(game, seed, steps, seen).to_json())
    return seen


@settings(max_examples=60, deadline=None)
@given(edition=st.sampled_from(available_variants()), seed=st.integers(0, 10_000),
       steps=st.integers(0, 400))  # fmt: skip
def test_a_restored_game_is_the_game_and_plays_on_alike(
    edition: str, seed: int, steps: int
) -> None:
    game = _played(edition, seed, steps)
    back = restore(snapshot(game, KEY), KEY)
    assert back == game and back.history == game.history
    assert back.to_json() == game.to_json()
    assert _continuation(back, seed) == _continuation(game, seed)


def test_a_house_rules_variant_travels_inside_and_a_bundled_edition_by_name() -> None:
    house = load_variant("italian", {"dice.per_player": 3, "calza.enabled": False})
    start = Game.new(house, 3, seed=2)
    mine = start.apply(Bid(start.to_move or 0, 1, 2))
    sealed = snapshot(mine, KEY)
    back = restore(sealed, KEY)
    assert back == mine and back.variant == house and back.variant.rules.dice_per_player == 3
    assert back.variant.rules.calza_enabled is False
    bundled = snapshot(_played("italian", 1, 0), KEY)
    variant_class = b"perudo_rules.editions.variant"
    assert variant_class in sealed and variant_class not in bundled  # copied; named


def test_every_changed_byte_another_key_or_version_is_refused() -> None:
    game = _played("spanish", 3, 60)
    sealed = snapshot(game, KEY)
    for i in range(0, len(sealed), max(1, len(sealed) // 97)):
        changed = bytearray(sealed)
        changed[i] ^= 0x01
        with pytest.raises(SnapshotError):
            restore(bytes(changed), KEY)
    with pytest.raises(SnapshotError, match="seal does not match"):
        restore(sealed, b"another server's secret, 32 b..")
    with pytest.raises(SnapshotError, match="not a perudo-rules snapshot"):
        restore(b"garbage", KEY)
    with pytest.raises(SnapshotError, match="not a perudo-rules snapshot"):
        restore(game.to_json().__repr__().encode(), KEY)
    other = sealed.replace(__version__.encode(), b"0.0.1", 1)
    with pytest.raises(SnapshotError, match=r"perudo-rules 0\.0\.1, not .*Game\.from_json"):
        restore(other, KEY)
    assert issubclass(SnapshotError, PerudoError) and issubclass(SnapshotError, ValueError)


def test_a_sealed_snapshot_still_holds_only_games_and_package_classes() -> None:
    """Even with the key, a snapshot may not name other classes (a second fence)."""
    head = snapshot_module._head()  # forging one needs the header

    def sealed(payload: bytes) -> bytes:
        body = head + payload
        return body + hmac.new(KEY, body, hashlib.sha256).digest()

    with pytest.raises(SnapshotError, match=r"may not hold (posix|os)\.system"):
        restore(sealed(b"cos\nsystem\n(S'true'\ntR."), KEY)
    with pytest.raises(SnapshotError, match="holds no game"):
        restore(sealed(pickle.dumps([1, 2, 3])), KEY)
    with pytest.raises(SnapshotError, match="cannot be read"):
        restore(sealed(b"\x80\x05not a pickle"), KEY)


def test_keys_and_inputs_of_the_wrong_kind_are_refused_in_one_line() -> None:
    game = _played("italian", 0, 5)
    with pytest.raises(TypeError, match="key must be bytes, not str"):
        snapshot(game, "a string key of many chars")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least 16 bytes"):
        snapshot(game, b"short")
    with pytest.raises(TypeError, match="snapshot takes a Game, not dict"):
        snapshot(game.to_json(), KEY)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="restore takes bytes, not str"):
        restore("text", KEY)  # type: ignore[arg-type]
