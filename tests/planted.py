"""Engines with one bug planted, and the rule each breaks: the cases the kit's root-cause
report is tested on (a data module; tests/test_planted.py checks that each plant plants).

:data:`PLANTS` has a row ``(engine, plant, edition, rule)`` per planted engine: ``engine``
is ``"python"`` (tests/harnesses/planted.py, the step API with the bug) or ``"js"``
(harnesses/js/perudo.js under ``PERUDO_PLANT``); ``plant`` what :func:`command` plants;
``edition`` the bundled edition to run the kit on, one where the bug shows in play; ``rule``
the rule id the report should name. The Python rows are its named bugs, one per core rule
the protocol observes, and a ``KNOB=JSON`` row per knob the kit observes
(:data:`KNOB_PLANTS`: an edition that reads the knob, and another value that changes play
from positions of at most 4 seats), whose rule is the knob path. :data:`NOT_PLANTED` says
why an observed knob has no row.
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
PLANTED = ROOT / "tests" / "harnesses" / "planted.py"
PERUDO_JS = ROOT / "harnesses" / "js" / "perudo.js"


class Plant(NamedTuple):
    """One planted engine: which, the plant, the edition to run it on and the rule it breaks."""

    engine: str
    plant: str
    edition: str
    rule: str


#: The named bugs of the Python engine (tests/harnesses/planted.py), each with the edition
#: it shows in and the core rule it breaks.
PYTHON_NAMED: tuple[tuple[str, str, str], ...] = (
    ("zero-bid", "italian", "play.bid_range"),
    ("face-range", "italian", "play.bid_range"),
    ("after-end", "openspiel-liars-dice", "play.game_over"),  # a game over in one round
    ("exact-bidder-loses", "italian", "challenge.exact"),
    ("count-no-wild", "italian", "play.count"),
    ("bid-out-of-turn", "italian", "play.turn"),
    ("dead-seat", "italian", "play.seat"),
    ("dudo-first", "italian", "play.bid_needed"),
    ("no-elimination", "openspiel-liars-dice", "play.elimination"),  # every Dudo puts one out
    ("next-dead", "italian", "play.next_seat"),  # the loser opens: passed on when it is out
    ("palifico-opener", "italian", "play.palifico_opener"),
    ("calza-exact-nogain", "italian", "calza.gain_cap"),  # no gain at all: gain_cap 1
    ("winner-early", "italian", "end.condition"),
)

#: Each knob the kit observes: an edition that reads it and the value planted instead of
#: the edition's (a value that changes play from some position of at most 4 seats).
KNOB_PLANTS: dict[str, tuple[str, Any]] = {
    "dice.faces": ("italian", 7),  # 5 would skip every start showing a 6
    "wild.face": ("italian", 6),
    "setup.direction": ("italian", "right"),  # 3 seats or more
    "bidding.order": ("openspiel-liars-dice", "face_then_quantity"),  # wild_worth 1
    "bidding.wild_worth": ("italian", 1),
    "bidding.wild_rank": ("italian", "below_multiple"),
    "bidding.wild_opening": ("italian", "not_as_opening_bid"),
    "bidding.quantity_cap": ("italian", "none"),
    "bidding.quantity_limit": ("italian", 5),
    "reroll.enabled": ("bluff", False),
    "reroll.min_hidden": ("bluff", 2),
    "reroll.limit": ("bluff", "once_per_round"),
    "reroll.must_bid": ("bluff", False),
    "challenge.who": ("italian", "any_except_bidder"),  # 3 seats or more
    "challenge.loss": ("italian", "difference"),
    "challenge.exact": ("italian", "others_lose"),  # 3 seats or more
    "calza.enabled": ("italian", False),
    "calza.who": ("italian", "anyone"),
    "calza.gain_cap": ("italian", 2),  # 1 would be the named bug calza-exact-nogain
    # italian's Calza is for neither the bidder nor the player to move: none with 2 seats
    "calza.min_players": ("spanish", 3),
    "calza.next_starts": ("italian", "player_to_move"),  # the caller never is, in italian
    "calza.in_palifico": ("italian", False),
    "palifico.enabled": ("italian", False),
    "palifico.trigger": ("italian", "starts_with_one"),
    "palifico.once_per_player": ("italian", False),
    "palifico.wilds_count": ("italian", True),
    "palifico.face_lock": ("italian", "free"),
    "palifico.heads_up": ("italian", False),
    # italian's lock lets a single die change the face, and its palifico seat holds one
    "palifico.opener_may_change": ("spanish", True),
    "palifico.wild_bids": ("italian", "forbidden"),
    "round.starter": ("italian", "challenge_winner"),
    # single_round needs players.max 2: openspiel is the one edition that plays it
    "end.condition": ("openspiel-liars-dice", "last_player_standing"),
}

#: Knobs the kit observes that no plant can show, and why.
NOT_PLANTED: dict[str, str] = {
    "dice.max_per_player": "never read in play (the knob table's never_read): it bounds the "
    "dice a position may hold, and a Calza gains only up to calza.gain_cap, never above it",
}

#: The bugs of harnesses/js/perudo.js (PERUDO_PLANT), each with its edition and rule.
JS_NAMED: tuple[tuple[str, str, str], ...] = (
    ("quantity-cap", "openspiel-liars-dice", "bidding.quantity_cap"),
    ("order", "openspiel-liars-dice", "bidding.order"),
    ("textarena-order", "textarena-liars-dice", "bidding.order"),
    ("wild", "openspiel-liars-dice", "wild.face"),
    ("who", "textarena-liars-dice", "challenge.who"),
    ("starter", "textarena-liars-dice", "round.starter"),
    ("single-round", "openspiel-liars-dice", "end.condition"),
    ("zero-bid", "textarena-liars-dice", "play.bid_range"),
    ("after-end", "openspiel-liars-dice", "play.game_over"),
    ("exact", "textarena-liars-dice", "challenge.exact"),
    ("dudo-first", "textarena-liars-dice", "play.bid_needed"),
)


#: Knobs an engine shows only through another rule: the runner rolls the dice, so the
#: number of faces an engine plays shows only in the bids it allows (play.bid_range).
OBSERVED_AS: dict[str, str] = {"dice.faces": "play.bid_range"}


def knob_plant(path: str, value: Any) -> str:
    """The ``--plant`` text that plays knob ``path`` with ``value``."""
    return f"{path}={json.dumps(value)}"


PLANTS: tuple[Plant, ...] = (
    *(Plant("python", p, e, r) for p, e, r in PYTHON_NAMED),
    *(Plant("python", knob_plant(k, v), e, OBSERVED_AS.get(k, k))
      for k, (e, v) in KNOB_PLANTS.items()),
    *(Plant("js", p, e, r) for p, e, r in JS_NAMED),
)


def command(engine: str, plant: str | None, edition: str | None = None) -> str:
    """The command line of a planted engine (the kit splits it with :func:`shlex.split`):
    ``plant`` planted (``None``: none), and for the Python engine with ``edition``, that
    bundled edition played whatever the runner sends (``--edition``)."""
    if engine == "python":
        args = [sys.executable, str(PLANTED)]
        args += ["--edition", edition] if edition is not None else []
        args += ["--plant", plant] if plant is not None else []
        return shlex.join(args)
    if engine == "js":
        if edition is not None:
            raise ValueError("perudo.js plays the editions it claims: it has no --edition")
        env = ["env", f"PERUDO_PLANT={plant}"] if plant is not None else []
        return shlex.join([*env, shutil.which("node") or "node", str(PERUDO_JS)])
    raise ValueError(f"no planted engine {engine!r} (python or js)")
