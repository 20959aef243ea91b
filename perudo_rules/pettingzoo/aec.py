"""PettingZoo adapter: any variant, with a seat count, as an AEC environment.

``env(variant, players)`` returns a PettingZoo ``AECEnv`` (wrapped the way
PettingZoo's classic environments are); ``raw_env`` the unwrapped
:class:`PerudoEnv`. It needs the optional extra: ``pip install
'perudo-rules[pettingzoo]'``. Importing :mod:`perudo_rules` never imports
this module, ``pettingzoo`` or ``numpy``. ``docs/pettingzoo.rst`` describes
the environment for its users; in short:

* **Agents** ``player_0`` ... ``player_{n-1}``, one per seat. A seat that
  loses its last die is terminated and, after its last (``None``) step,
  leaves ``agents``.
* **Actions** (``Discrete``, fixed for the whole game): bid ``(q, f)`` has
  the id of its rank among all bids of the largest table the game can reach
  (the rank :class:`~perudo_rules.engine.ranks.BidSpace` gives it with the most dice
  that can ever be in play); then Dudo, Calza and Pass, then (``reroll.enabled``) the
  re-rolls, one per set of dice set aside. These are the ids of the OpenSpiel adapter
  (:func:`perudo_rules.engine.actionmap.action_map`).
* **Decisions**: the player to move bids, calls Dudo or calls Calza. After
  every bid, each seat that may call Dudo or Calza out of turn is offered,
  one at a time, in the direction of play after the player to move, the
  choice of Dudo / Calza / Pass; the first call ends the round, and when all
  have passed the player to move acts (as the OpenSpiel adapter does).
* **Observations**: ``{"observation": float32 array, "action_mask": int8
  array}``; :func:`observation_layout` names every slice of the array. With
  ``observation_mode="flat"`` the observation is that array alone (a ``Box``, as
  SuperSuit's wrappers need) and every agent's mask is ``info["action_mask"]``.
* **Parallel**: :func:`parallel_env` is the same game through PettingZoo's
  turn-based conversion (one decision per parallel step).
* **Rewards** (zero-sum, :func:`perudo_rules.engine.kernel.returns`, as the OpenSpiel
  adapter's returns): over a game the winner collects ``+1`` and every other seat
  ``-1/(players-1)``. A seat that is eliminated gets its ``-1/(players-1)`` when
  it loses its last die; at the end the winner gets ``+1`` and any other seat
  still in ``-1/(players-1)``. A game stopped by ``max_rounds`` truncates every
  seat still in with ``0``.
* **Bounds**: the observation array holds at most :data:`MAX_OBSERVATION`
  entries; a larger game (seats x faces x dice) or ``past_rounds`` is refused
  with ``ValueError`` when the environment is made.
* **Chance**: the environment rolls the dice itself (a re-roll's dice too, as soon as
  the re-roll is taken); ``reset(seed=s)`` fixes the whole sequence of games that follows.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import conversions, wrappers
except ImportError as _exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "perudo_rules.pettingzoo needs PettingZoo: pip install 'perudo-rules[pettingzoo]'"
    ) from _exc

from perudo_rules.base.actions import Action, Bid, Calza, Dudo, Reroll
from perudo_rules.base.i18n import check_language, tr, use_language
from perudo_rules.base.safetext import printable
from perudo_rules.editions.variant import Variant
from perudo_rules.editions.variantfile import load_variant
from perudo_rules.engine.actionmap import action_map
from perudo_rules.engine.game import Game
from perudo_rules.engine.kernel import most_dice_per_seat, returns
from perudo_rules.engine.views import PastRound

__all__ = [
    "MAX_OBSERVATION",
    "PerudoEnv",
    "Segment",
    "env",
    "observation_layout",
    "observation_size",
    "parallel_env",
    "raw_env",
]

Obs = dict[str, "npt.NDArray[Any]"]
OBSERVATION_MODES = ("dict", "flat")

MAX_OBSERVATION = 4_194_304
"""The most entries the ``observation`` array may hold (16 MiB of ``float32``): a game
whose array would be larger (:func:`observation_size`: it grows with seats squared times
faces times dice, plus ``past_rounds`` times seats times faces times dice) is refused
with ``ValueError`` when the environment is made, before anything is allocated."""


# --- the observation array ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Segment:
    """One named slice ``[start, stop)`` of the observation array; ``high`` bounds its values.

    Seats appear relative to the observer: entry ``i`` of a per-seat segment is
    the seat ``i`` places after the observer in seat order (``0`` is the
    observer itself), whatever the direction of play.
    """

    name: str
    start: int
    stop: int
    high: float
    doc: str

    @property
    def size(self) -> int:
        """Number of entries."""
        return self.stop - self.start


def observation_size(variant: str | Path | Variant, players: int = 4, past_rounds: int = 1) -> int:
    """The length of the ``observation`` array (computed without building anything);
    ``ValueError`` for a seat count the variant does not allow or a bad ``past_rounds``."""
    v = variant if isinstance(variant, Variant) else load_variant(variant)
    n, faces, b = _dims(v, players, past_rounds)[:3]
    now = faces + 5 * n + 3 + b + b * n + (n * faces if v.rules.reroll_enabled else 0)
    past = 4 + 5 * n + b + n * faces + faces
    return now + past_rounds * past


def _dims(v: Variant, players: int, past_rounds: object) -> tuple[int, int, int, int]:
    """(seats, faces, bid ids, most dice a seat holds) after checking the arguments."""
    ids = action_map(v, players)
    if type(past_rounds) is not int or past_rounds < 0:
        raise ValueError(f"past_rounds must be a whole number >= 0, not {past_rounds!r}")
    return players, v.rules.dice_faces, ids.num_bids, most_dice_per_seat(v.rules)


def observation_layout(
    variant: str | Path | Variant, players: int = 4, past_rounds: int = 1
) -> tuple[Segment, ...]:
    """The segments of the ``observation`` array, in order (see ``docs/pettingzoo.rst``).

    ``past_rounds`` is how many finished rounds, most recent first, the array
    keeps (:class:`PerudoEnv` takes the same parameter). ``ValueError`` when the array
    would hold more than :data:`MAX_OBSERVATION` entries.
    """
    v = variant if isinstance(variant, Variant) else load_variant(variant)
    n, faces, b, d = _dims(v, players, past_rounds)
    size = observation_size(v, players, past_rounds)
    if size > MAX_OBSERVATION:
        raise ValueError(
            f"the observation of {v.id} with {players} seats and past_rounds={past_rounds} "
            f"would hold {size:,} entries; the bound is {MAX_OBSERVATION:,} "
            "(fewer seats, dice, faces or past rounds)"
        )
    parts: list[tuple[str, int, float, str]] = [
        ("own_dice", faces, d, "the observer's dice this round: how many show face 1, 2, ..."),
        ("dice_counts", n, d, "dice each seat holds"),
        ("to_move", n, 1, "one-hot: the player to move (all 0 once the game is over)"),
        ("deciding", n, 1, "one-hot: the seat whose decision it is now"),
        ("call_offer", 1, 1, "1 when that decision is an out-of-turn call offer"),
        ("first_round", 1, 1, "1 in the first round of the game"),
        ("palifico", 1, 1, "1 when this round is a palifico round"),
        ("palifico_player", n, 1, "one-hot: the seat whose palifico round it is"),
        ("palifico_used", n, 1, "seats that have had their palifico round"),
        ("standing_bid", b, 1, "one-hot by action id: the bid to beat"),
        ("bids", b * n, 1, "bids of this round: entry id*players+i is 1 if seat i made bid id"),
    ]
    if v.rules.reroll_enabled:
        parts.append(
            ("set_aside", n * faces, d, "set-aside dice: entry i*faces+f-1 counts seat i's f's")
        )
    for k in range(past_rounds):
        p = f"past[{k}]."
        parts += [
            (p + "present", 1, 1, "1 if the game has that many finished rounds"),
            (p + "palifico", 1, 1, "1 if that round was a palifico round"),
            (p + "kind", 2, 1, "one-hot: ended by Dudo, by Calza"),
            (p + "caller", n, 1, "one-hot: who called"),
            (p + "bid", b, 1, "one-hot by action id: the bid called"),
            (p + "bidder", n, 1, "one-hot: who made that bid"),
            (p + "loser", n, 1, "one-hot: who lost a die (all 0 if nobody)"),
            (p + "gainer", n, 1, "one-hot: who gained a die back (all 0 if nobody)"),
            (p + "lifted", n, 1, "seats whose cups were lifted"),
            (p + "shown", n * faces, d, "lifted cups: entry i*faces+f-1 counts seat i's f's"),
            (p + "own_dice", faces, d, "the observer's own dice in that round, per face"),
        ]
    out = []
    start = 0
    for name, size, high, doc in parts:
        out.append(Segment(name, start, start + size, float(high), doc))
        start += size
    return tuple(out)


def _integer(value: object, what: str) -> int:
    """``value`` as an ``int`` if it is a whole number (Python's or NumPy's, a 0-d integer
    array too); ``TypeError`` for anything else (a float, a bool, a list, a string)."""
    if isinstance(value, np.ndarray) and value.shape == () and value.dtype.kind in "iu":
        return int(value)
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return operator.index(value)
    raise TypeError(f"{what} must be an integer, not {printable(repr(value))[:60]}")


def _faces(cup: Sequence[int], faces: int) -> list[int]:
    counts = [0] * faces
    for die in cup:
        counts[die - 1] += 1
    return counts


# --- the environment ---------------------------------------------------------------------


class PerudoEnv(AECEnv):  # type: ignore[misc]
    """A variant as a PettingZoo AEC environment (make one with :func:`env` or :func:`raw_env`).

    ``game`` is the :class:`~perudo_rules.engine.game.Game` being played (read it,
    e.g. to drive a :mod:`perudo_rules.analysis.bots` bot; the environment replaces it
    on every step). ``ids`` are the :class:`~perudo_rules.engine.actionmap.ActionMap`;
    ``layout`` the :func:`observation_layout`. An illegal action raises ``ValueError``
    naming the rule (``env()`` wraps this class so that one ends the game instead);
    ``docs/pettingzoo.rst`` lists every error. ``observation_mode`` is ``"dict"``
    (``observe`` gives ``observation`` and ``action_mask``) or ``"flat"`` (``observe``
    gives the ``observation`` array, a ``Box``; ``infos[agent]["action_mask"]`` the mask).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's class-level convention
        "render_modes": ["ansi", "human"],
        "name": "perudo_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str | Path | Variant = "italian",
        players: int = 4,
        render_mode: str | None = None,
        max_rounds: int | None = None,
        past_rounds: int = 1,
        observation_mode: str = "dict",
        lang: str = "en",
    ) -> None:
        super().__init__()
        self.lang = check_language(lang)  # of the rendered table (perudo_rules.base.i18n)
        v = variant if isinstance(variant, Variant) else load_variant(variant)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        if max_rounds is not None and (type(max_rounds) is not int or max_rounds < 1):
            raise ValueError(f"max_rounds must be a whole number >= 1, not {max_rounds!r}")
        if not isinstance(observation_mode, str) or observation_mode not in OBSERVATION_MODES:
            raise ValueError(
                "observation_mode must be 'dict' or 'flat', not "
                + printable(repr(observation_mode))[:60]
            )
        self.observation_mode = observation_mode
        self._flat = observation_mode == "flat"
        self.variant = v
        self.players = players
        self.render_mode = render_mode
        self.max_rounds = max_rounds
        self.ids = action_map(v, players)
        self.layout = observation_layout(v, players, past_rounds)  # refuses a huge array
        self.past_rounds = past_rounds
        self._at = {s.name: s.start for s in self.layout}
        size = self.layout[-1].stop
        high = np.zeros(size, dtype=np.float32)
        for s in self.layout:
            high[s.start : s.stop] = s.high
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        n_ids = self.ids.num_actions
        self._action_spaces = {a: spaces.Discrete(n_ids) for a in self.possible_agents}
        # one observation space shared by every agent: its bounds are as large as the array
        box = spaces.Box(np.float32(0.0), high, dtype=np.float32)
        self._observation_space: gymnasium.spaces.Space[Any] = (
            box
            if self._flat
            else spaces.Dict(
                {"observation": box, "action_mask": spaces.Box(0, 1, (n_ids,), np.int8)}
            )
        )
        self._rng: random.Random | None = None
        self._pending: tuple[int, ...] = ()
        self._started = False
        self.game: Game = Game.new(v, players, seed=0)
        self.agents: list[str] = []

    # -- spaces

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The (same) observation space of every agent: a ``Dict`` of ``observation`` and
        ``action_mask``, or (``observation_mode="flat"``) the ``observation`` ``Box``."""
        self._seat_of(agent)
        return self._observation_space

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The (same) ``Discrete`` action space of every agent."""
        self._seat_of(agent)
        return self._action_spaces[agent]

    def _seat_of(self, agent: str) -> int:
        seat = self._seat.get(agent)
        if seat is None:
            raise ValueError(
                f"no agent {printable(agent)!s} (agents: player_0 .. player_{self.players - 1})"
            )
        return seat

    # -- decisions

    def deciding_seat(self) -> int | None:
        """The seat whose decision it is: an offered caller, else the player to move."""
        if self._pending:
            return self._pending[0]
        return self.game.to_move

    def legal_ids(self, seat: int) -> list[int]:
        """The action ids seat ``seat`` may take now, ascending (empty if not its decision):
        the kernel's legal actions of that seat
        (:meth:`ActionMap.legal_ids <perudo_rules.engine.actionmap.ActionMap.legal_ids>`)."""
        game = self.game
        if seat != self.deciding_seat() or game.to_move is None:
            return []
        return self.ids.legal_ids(game, seat, bool(self._pending))

    def _mask(self, seat: int) -> npt.NDArray[np.int8]:
        mask = np.zeros(self.ids.num_actions, dtype=np.int8)
        mask[self.legal_ids(seat)] = 1
        return mask

    # -- the AEC API

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` (``None`` or an integer, NumPy's too) fixes it and every
        game after it until the next seed. Another seed raises ``TypeError``."""
        if seed is not None:
            self._rng = random.Random(_integer(seed, "seed"))
        elif self._rng is None:
            self._rng = random.Random()
        self._begin(Game.new(self.variant, self.players, seed=self._rng.getrandbits(63)))
        if self.render_mode == "human":
            self.render()

    def reset_to(self, game: Game) -> None:
        """Continue from ``game``, a position of this variant and seat count with a seat to
        move (e.g. ``Game.start`` with chosen dice): for tests and worked examples.

        Seats with dice are the agents, rewards start at 0, no call offer is pending.
        """
        if game.variant != self.variant or game.players != self.players:
            raise ValueError("the position is not of this environment's variant and seats")
        if game.to_move is None:
            raise ValueError("the position has nobody to move")
        if self._rng is None:
            self._rng = random.Random()
        self._begin(game)

    def _begin(self, game: Game) -> None:
        self.game = game
        self._pending = ()
        self._started = True
        self.agents = [a for a in self.possible_agents if game.dice_counts[self._seat[a]]]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self._agent(self.deciding_seat())
        self._post_masks()

    def _post_masks(self) -> None:
        """Flat mode: each agent's mask as ``info["action_mask"]`` (new dicts every step)."""
        if self._flat:
            deciding, n = self.deciding_seat(), self.ids.num_actions
            self.infos = {
                a: {"action_mask": self._mask(s) if s == deciding else np.zeros(n, np.int8)}
                for a, s in ((a, self._seat[a]) for a in self.agents)
            }

    def _agent(self, seat: int | None) -> str:
        assert seat is not None
        return self.possible_agents[seat]

    def observe(self, agent: str) -> Obs | npt.NDArray[np.float32]:
        """What ``agent`` sees now: its ``observation`` array and its ``action_mask``, or
        (``observation_mode="flat"``) the array alone (the mask is in its ``info``)."""
        seat = self._seat_of(agent)
        if self._flat:
            return self._encode(seat)
        return {"observation": self._encode(seat), "action_mask": self._mask(seat)}

    def step(self, action: int | None) -> None:
        """Take ``action`` (an id: a Python or NumPy integer) for ``agent_selection``;
        ``None`` for a finished agent. ``RuntimeError`` before ``reset`` and once every
        agent is done, ``TypeError`` for an id that is not an integer, ``ValueError`` for
        an id outside the space or not legal now (naming the rule)."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        if not self.agents:
            raise RuntimeError("the game is over: every agent is done; call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError(f"{agent} is done: its last step takes None, not {action!r}")
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is still playing: give an action id, not None")
        aid = _integer(action, "an action id")
        seat = self._seat[agent]
        move = self._checked(agent, seat, aid)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if move is None:
            self._pending = self._pending[1:]
        else:
            self._play(move)
        live = [a for a in self.agents if not (self.terminations[a] or self.truncations[a])]
        if live:
            self.agent_selection = self._agent(self.deciding_seat())
        self._accumulate_rewards()
        self._deads_step_first()
        self._post_masks()
        if self.render_mode == "human":
            self.render()

    def _checked(self, agent: str, seat: int, aid: int) -> Action | None:
        """The engine action of ``aid`` for ``seat`` (``None``: Pass), or ``ValueError``
        saying why it may not be taken now (the kernel's rule for an engine action)."""
        ids = self.ids
        if not 0 <= aid < ids.num_actions:
            raise ValueError(f"no action id {aid} (ids run 0..{ids.num_actions - 1})")
        move = ids.to_action(aid, seat)
        name = ids.name(aid)
        if self._pending:
            if not isinstance(move, (Dudo, Calza)) and move is not None:
                raise ValueError(
                    f"{name} is not legal for {agent} now: it is offered an out-of-turn call "
                    "(Dudo, Calza or Pass) [play.turn]"
                )
        elif move is None:
            raise ValueError(
                f"Pass is not legal for {agent} now: Pass declines an offered out-of-turn "
                "call, and it is the player to move [play.turn]"
            )
        if move is not None:
            bad = self.game.violation(move)
            if bad is not None:
                raise ValueError(f"{name} is not legal for {agent} now: {bad}")
        return move

    def _play(self, move: Action) -> None:
        before = self.game.dice_counts
        game = self.game.apply(move)
        self.game = game
        self._pending = ()
        if isinstance(move, Bid):
            self._pending = game.call_offers()
            return
        if isinstance(move, Reroll):  # the environment rolls the re-rolled dice at once
            assert self._rng is not None
            self.game = game.roll(rng=self._rng)
            return
        n = self.players
        for seat, (was, now) in enumerate(zip(before, game.dice_counts, strict=True)):
            if was and not now:  # a loser's value, whoever wins: any other seat as winner
                self._finish(seat, returns((seat + 1) % n, n)[seat])
        if game.winner is not None:
            values = game.returns()
            for agent in self.agents:
                if not self.terminations[agent]:
                    seat = self._seat[agent]
                    self._finish(seat, values[seat])
            return
        if self.max_rounds is not None and game.round >= self.max_rounds:
            for agent in self.agents:
                self.truncations[agent] = True
            return
        assert self._rng is not None
        self.game = game.roll(rng=self._rng)

    def _finish(self, seat: int, reward: float) -> None:
        agent = self.possible_agents[seat]
        self.terminations[agent] = True
        self.rewards[agent] = reward

    # -- the observation array

    def _encode(self, me: int) -> npt.NDArray[np.float32]:
        game = self.game
        n, faces = self.players, self.variant["dice.faces"]
        obs = np.zeros(self.layout[-1].stop, dtype=np.float32)
        at = self._at

        def rel(seat: int) -> int:
            return (seat - me) % n

        def put(name: str, values: Sequence[int], offset: int = 0) -> None:
            start = at[name] + offset
            obs[start : start + len(values)] = values

        put("own_dice", _faces(game.dice[me], faces))
        put("dice_counts", [game.dice_counts[(me + i) % n] for i in range(n)])
        if game.to_move is not None:
            obs[at["to_move"] + rel(game.to_move)] = 1
        deciding = self.deciding_seat()
        if deciding is not None:
            obs[at["deciding"] + rel(deciding)] = 1
        obs[at["call_offer"]] = 1 if self._pending else 0
        obs[at["first_round"]] = 1 if game.round == 1 else 0
        obs[at["palifico"]] = 1 if game.palifico else 0
        if game.palifico_player is not None:
            obs[at["palifico_player"] + rel(game.palifico_player)] = 1
        for seat in game.palifico_used:
            obs[at["palifico_used"] + rel(seat)] = 1
        if "set_aside" in at:
            for seat, cup in enumerate(game.set_aside):
                start = at["set_aside"] + rel(seat) * faces
                obs[start : start + faces] = _faces(cup, faces)
        if game.to_move is not None and game.bids:
            last = game.bids[-1]
            obs[at["standing_bid"] + self.ids.bid_id(last.quantity, last.face)] = 1
            for bid in game.bids:
                obs[at["bids"] + self.ids.bid_id(bid.quantity, bid.face) * n + rel(bid.player)] = 1
        if self.past_rounds:
            past = game.observation(me).past_rounds[::-1][: self.past_rounds]
            for k, r in enumerate(past):
                self._encode_past(obs, f"past[{k}].", r, rel)
        return obs

    def _encode_past(
        self, obs: npt.NDArray[np.float32], p: str, r: PastRound, rel: Callable[[int], int]
    ) -> None:
        at = self._at
        faces = self.variant["dice.faces"]
        obs[at[p + "present"]] = 1
        obs[at[p + "palifico"]] = 1 if r.palifico else 0
        if r.kind != "leave":  # a round a seat's leaving ended marks neither kind
            obs[at[p + "kind"] + (0 if r.kind == "dudo" else 1)] = 1
        if r.caller is not None:
            obs[at[p + "caller"] + rel(r.caller)] = 1
        bid = r.bid
        if bid is not None:
            obs[at[p + "bid"] + self.ids.bid_id(bid.quantity, bid.face)] = 1
            obs[at[p + "bidder"] + rel(bid.player)] = 1
        for name, seat in (("loser", r.loser), ("gainer", r.gainer)):
            if seat is not None:
                obs[at[p + name] + rel(seat)] = 1
        for seat, cup in zip(r.revealed, r.shown, strict=True):
            obs[at[p + "lifted"] + rel(seat)] = 1
            start = at[p + "shown"] + rel(seat) * faces
            obs[start : start + faces] = _faces(cup, faces)
        start = at[p + "own_dice"]
        obs[start : start + faces] = _faces(r.own_dice, faces)

    # -- rendering

    def render(self) -> str | None:
        """The table as text: returned (``ansi``), printed (``human``), or ``None`` (no mode)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; nothing to show")
            return None
        text = self.table_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def table_text(self) -> str:
        """Every cup, the dice counts, this round's bids and whose decision it is, as text.

        How the last round ended is told as the table saw it: the lifted cups and the dice
        among them that count (``shown_count``), never the closed cups' count. In the
        environment's ``lang``."""
        with use_language(self.lang):
            return self._table_text()

    def _table_text(self) -> str:
        game = self.game
        pal = tr(", palifico round of seat {n}", n=game.palifico_player) if game.palifico else ""
        name = printable(tr(self.variant.name))
        lines = [tr("{name}: round {round}{palifico}", name=name, round=game.round, palifico=pal)]
        rows = [[tr("seat"), tr("agent"), tr("dice"), tr("cup")]]
        for seat, agent in enumerate(self.possible_agents):
            cup = " ".join(str(d) for d in game.dice[seat]) or "-"
            if game.set_aside[seat]:
                cup += " " + tr("({n} set aside)", n=len(game.set_aside[seat]))
            cup = cup if game.dice_counts[seat] else tr("out")
            rows.append([str(seat), agent, str(game.dice_counts[seat]), cup])
        widths = [max(len(r[i]) for r in rows) for i in range(4)]
        rows.insert(1, ["-" * w for w in widths])
        lines += [
            "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows
        ]
        if game.to_move is not None:
            bids = " ".join(f"{b.player}:{b}" for b in game.actions) or tr("(none yet)")
            lines.append(tr("bids: {bids}", bids=bids))
        deciding = self.deciding_seat()
        agents = self.possible_agents
        if game.winner is not None:
            lines.append(tr("game over: {agent} won", agent=agents[game.winner]))
        elif game.to_move is None:
            lines.append(tr("stopped after max_rounds"))
        elif self._pending and deciding is not None:
            names = ", ".join(self.ids.name(i) for i in self.legal_ids(deciding))
            agent = agents[deciding]
            lines.append(tr("{agent} may call out of turn ({calls})", agent=agent, calls=names))
        else:
            lines.append(tr("to move: {agent}", agent=agents[game.to_move]))
        r = game.last_result
        if r is not None and r.kind == "leave":
            lines.append(tr("last round: seat {n} left the game", n=r.caller))
        elif r is not None:
            lost = tr("no die lost") if r.loser is None else tr("seat {n} lost a die", n=r.loser)
            gain = tr(", seat {n} gained one", n=r.gainer) if r.gainer is not None else ""
            lifted = ", ".join(str(s) for s in r.revealed)
            lines.append(
                tr(
                    "last round: {kind} by seat {caller} on {bid}: {shown} shown in the cups of "
                    "seats {lifted}; {lost}{gain}",
                    kind=r.kind,
                    caller=r.caller,
                    bid=r.bid,
                    shown=r.shown_count,
                    lifted=lifted,
                    lost=lost,
                    gain=gain,
                )
            )
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release (text rendering only)."""


def raw_env(
    variant: str | Path | Variant = "italian",
    players: int = 4,
    render_mode: str | None = None,
    max_rounds: int | None = None,
    past_rounds: int = 1,
    observation_mode: str = "dict",
    lang: str = "en",
) -> PerudoEnv:
    """The unwrapped :class:`PerudoEnv` (an illegal action raises ``ValueError``)."""
    return PerudoEnv(
        variant, players, render_mode, max_rounds, past_rounds, observation_mode, lang
    )


def env(
    variant: str | Path | Variant = "italian",
    players: int = 4,
    render_mode: str | None = None,
    max_rounds: int | None = None,
    past_rounds: int = 1,
    observation_mode: str = "dict",
    lang: str = "en",
) -> Any:
    """``variant`` (an id, a path or a :class:`Variant`) for ``players`` seats, as a PettingZoo
    ``AECEnv``, wrapped like PettingZoo's classic environments.

    An illegal action ends the game for everyone, with ``-1`` to the seat that
    took it; an action outside the space raises; stepping before ``reset``
    raises. ``render_mode`` is ``None``, ``"ansi"`` (``render()`` returns the
    table as text) or ``"human"`` (every step prints it); ``lang`` is its language
    (``"en"``, ``"it"`` or ``"es"``). ``observation_mode="flat"``: the observation is a
    ``Box`` and the mask ``info["action_mask"]`` (:class:`PerudoEnv`).
    """
    e: Any = raw_env(
        variant, players, render_mode, max_rounds, past_rounds, observation_mode, lang
    )
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


def parallel_env(
    variant: str | Path | Variant = "italian",
    players: int = 4,
    render_mode: str | None = None,
    max_rounds: int | None = None,
    past_rounds: int = 1,
    observation_mode: str = "dict",
    lang: str = "en",
) -> Any:
    """:func:`env` as a PettingZoo ``ParallelEnv``, by PettingZoo's
    ``turn_based_aec_to_parallel``: every parallel step is one decision, taken by the agent
    whose mask is not all zeros (``info["active_agent"]`` after a step); the actions given
    for the other agents are ignored. ``aec_to_parallel`` refuses this game: it needs
    every live agent to act once per cycle, and a Perudo step decides who acts next."""
    aec = env(variant, players, render_mode, max_rounds, past_rounds, observation_mode, lang)
    return conversions.turn_based_aec_to_parallel(aec)
