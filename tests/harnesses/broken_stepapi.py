"""A deliberately broken engine for tests/test_conform.py: the step API with one rule flipped.

``python tests/harnesses/broken_stepapi.py MODE``:

``dudo-exact``
    A Dudo against a bid that is exactly right makes the bidder lose (``play.dudo``: the
    bid stands when at least its quantity shows; this engine wants more).
``bidder-dudo``
    The bidder is offered a Dudo against its own bid (``challenge.who``).
``reroll-all``
    Where a seat may re-roll, it is also offered to set every concealed die aside
    (``reroll.min_hidden``: at least one stays under the cup in Bluff).
``garbage``, ``flood``, ``hang``, ``crash``
    Answer ``hello`` with something that is not JSON, a line without end, nothing, or die.
"""

from __future__ import annotations

import sys
import time
from typing import Any


def serve_broken(mode: str) -> None:
    """Serve the step API with ``mode``'s rule flipped (imported only here: the bad-engine
    modes answer at once)."""
    from perudo_rules.base.actions import Dudo, Reroll, format_action, parse_action
    from perudo_rules.harness import serve
    from perudo_rules.harness.stepapi import StepHarness

    class Broken(StepHarness):
        """The step API, wrong on purpose."""

        def __init__(self, mode: str) -> None:
            super().__init__()
            self.mode = mode
            self.name = f"broken step API ({mode})"

        def legal(self, seat: int) -> list[str]:
            out = super().legal(seat)
            game = self.game
            assert game is not None
            if self.mode == "bidder-dudo" and game.to_move is not None and game.bids and (
                game.bids[-1].player == seat
            ):
                out.append(format_action(Dudo(seat)))
            rerolls = [a for a in out if ":reroll" in a]
            if self.mode == "reroll-all" and rerolls:
                hidden = tuple(game.dice[seat][len(game.set_aside[seat]) :])
                out.append(format_action(Reroll(seat, hidden)))
            return out

        def act(self, action: str) -> dict[str, Any]:
            game = self.game
            assert game is not None
            a = parse_action(action)
            reply = super().act(action)
            if self.mode == "dudo-exact" and isinstance(a, Dudo) and "outcome" in reply:
                bid = game.bids[-1]
                res = self.game.last_result if self.game is not None else None
                if res is not None and res.count == bid.quantity:
                    delta = [0] * len(reply["outcome"]["delta"])
                    delta[bid.player] = -1
                    reply["outcome"]["delta"] = delta
            return reply

    serve(Broken(mode))


def main() -> None:
    mode = sys.argv[1]
    if mode == "garbage":
        sys.stdin.readline()
        print("hello, I am not JSON", flush=True)
        sys.stdin.read()
    elif mode == "flood":
        sys.stdin.readline()
        while True:
            sys.stdout.write("x" * 65536)
    elif mode == "hang":
        time.sleep(60)
    elif mode == "crash":
        sys.stdin.readline()
        print("Traceback: something broke", file=sys.stderr)
        sys.exit(3)
    else:
        serve_broken(mode)


if __name__ == "__main__":
    main()
