"""OpenSpiel adapter: any variant, with a seat count, as a ``pyspiel`` game.

``load_game(variant, players)`` returns a variant as a Python game of OpenSpiel, so
OpenSpiel's algorithms (MCTS, CFR, Deep CFR, NFSP...) and its test harness
(``pyspiel.random_sim_test``) run on our editions. Importing this module registers every
bundled edition with OpenSpiel, its seat count a game parameter:
``pyspiel.load_game("perudo_italian", {"players": 3})`` or
``pyspiel.load_game("perudo_italian(players=3)")``
(:func:`~perudo_rules.openspiel.spec.family_name`; the names of earlier releases,
``perudo_italian_3p``, still load); any other variant is
registered by ``load_game``. Games and states pickle (a ``multiprocessing`` pool maps over
them). It needs the optional extra: ``pip install 'perudo-rules[openspiel]'``.
Importing :mod:`perudo_rules` never imports this module or ``pyspiel``.

The game, move by move:

* **Chance nodes.** If the variant settles the first player by a roll-off
  (``setup.first_player: roll_off``), the game opens with one chance node
  whose outcome ``k`` (probability ``1/players``) makes seat ``k`` the opener:
  a roll-off with ties re-rolled among the tied is symmetric, so every seat
  opens with the same probability, and one node keeps the game finite.
  Then every round starts with one chance node per die, seat 0's dice first,
  then seat 1's and so on (out seats skipped); outcome ``k`` (probability
  ``1/faces``) sets the die to face ``k+1``. Each cup is sorted once rolled.
* **Action ids** (fixed for the whole game, see
  :class:`~perudo_rules.engine.actionmap.ActionMap`, ``PerudoGame.action_map``): bid
  ``(q, f)`` has the id of its rank among all bids of the largest possible
  table (``BidSpace`` with the most dice that can ever be in play, ordinary
  ranking); rank order is the same at any smaller cap, so ids grow with rank.
  Then ``DUDO = number of bids``, ``CALZA = DUDO + 1`` where the variant has Calza, then
  ``PASS`` where a seat can be offered an out-of-turn call: an id no position can take is
  left out, so ``openspiel-liars-dice`` has ``liars_dice``'s ids (the bids, then Liar).
* **Decision nodes.** The player to move chooses among its legal bids, Dudo
  (when ``challenge.who`` allows it) and Calza (when ``calza.who`` allows the
  player to move). Out-of-turn calls are explicit decisions: after every bid,
  each seat that may call Dudo or Calza out of turn (``challenge.who:
  any_except_bidder``, ``calza.who: any_except_bidder`` or
  ``any_except_bidder_and_next``) is offered, one at a time, in the direction
  of play starting after the player to move, the choice of Calza / Dudo /
  ``PASS``. The first call ends the round; when everyone offered has passed,
  the player to move acts. So each eligible seat gets exactly one chance to
  call against each standing bid, before the next bid replaces it; the seat
  order is the tie-break for calls that would be simultaneous at a table.
* **A seat leaving** (``play.leave``, :class:`~perudo_rules.base.actions.Leave`) is no
  action of the game: no id stands for it, so no player and no chance node ever takes
  one, and every state is reached by action ids from the start. A forfeit, disconnect or
  timeout is the harness's business (stop the game, or let a bot play the seat).
* **Returns** (zero-sum, terminal only, :func:`perudo_rules.engine.settlement.returns`, the
  PettingZoo adapter's rewards too): the winner gets ``+1`` and every
  other seat ``-1/(players-1)`` (so ``+1/-1`` with two seats, as in
  OpenSpiel's ``liars_dice``). An exact Calza gives a die back or changes
  nothing, so a game with Calza has no length bound; the game parameter
  ``max_rounds`` caps it (default: ``10 x`` the starting dice with Calza,
  else the natural bound ``starting dice - 1``, which is never reached; one round for
  ``end.condition: single_round``; ``0`` stands for the default). A game stopped by the
  cap is a draw: every return is 0. ``max_game_length`` counts decisions (not chance
  outcomes) as OpenSpiel does, round by round on each round's own bid table
  (:func:`~perudo_rules.openspiel.spec.game_length`): no game is longer, and a
  single-round game has ``liars_dice``'s figure.
* **Bounds.** OpenSpiel holds a game's length in a 32-bit ``int``, so ``max_rounds``
  x the most moves of a round must stay below ``2**31``
  (:data:`~perudo_rules.openspiel.spec.MAX_GAME_LENGTH`): ``max_rounds`` runs from 1 to
  that bound (``ValueError`` otherwise, and for anything but a whole number), and the
  default is lowered to it on very large tables (hundreds of seats), where a game
  without Calza may then stop as a draw before its natural end.
* **Observations.** The information-state string and tensor are perfect recall: the
  seat's own dice of every round, every public action, every lifted cup and who is to
  act. The tensor holds the seat, its dice, the dice counts, the palifico state, the
  round's opener, every bid of the current round by bidder and who is to act, then one
  row per round the game can play (``max_rounds``; one for a single-round game) for the
  finished ones: opener, palifico, the seat's dice as dealt, the ids bid, re-rolls,
  caller and call, the lifted cups, loser and gainer. Two histories have the same
  tensor exactly when they have the same information-state string
  (``tests/test_openspiel_recall.py`` walks every history of small games). The
  observation string and tensor show the same public state but only the standing bid.

With ``variants/openspiel-liars-dice.yaml`` (and overrides of
``dice.per_player``, ``dice.faces`` and ``bidding.order``) the game is move
for move OpenSpiel's own ``liars_dice``: the same chance nodes, action ids,
legal actions and returns (``tests/test_openspiel_diff.py`` proves it).

The adapter decides no rule itself: legality, settlement and every other rule come from
the engine (:class:`~perudo_rules.engine.game.Game`) and the rules kernel
(:mod:`perudo_rules.engine.kernel`). Its parts: :mod:`~perudo_rules.engine.actionmap` (the action
ids,
shared with the PettingZoo adapter), :mod:`~perudo_rules.openspiel.spec` (what is fixed
per registered game),
:mod:`~perudo_rules.openspiel.nodes` (positions and stepping),
:mod:`~perudo_rules.openspiel.observer` (observations) and
:mod:`~perudo_rules.openspiel.game` (the ``pyspiel`` classes and registration).
"""

from __future__ import annotations

try:
    import numpy  # noqa: F401
    import pyspiel  # type: ignore[import-not-found]  # noqa: F401
except ImportError as _exc:  # pragma: no cover - exercised only without the extra
    from perudo_rules.base.errors import missing_extra

    raise missing_extra("perudo_rules.openspiel", "OpenSpiel", "openspiel") from _exc

from perudo_rules.openspiel.game import PerudoGame, PerudoState, load_game
from perudo_rules.openspiel.spec import family_name, game_name

__all__ = ["PerudoGame", "PerudoState", "family_name", "game_name", "load_game"]
