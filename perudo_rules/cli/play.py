"""The ``play`` command: a game of Perudo in the terminal against bots.

You hold one seat; the other seats are :class:`~perudo_rules.analysis.bots.BaselineBot`
players (or random ones with ``--bot random``). The screen shows your dice,
every seat's dice count, the dice set aside face up, this round's bids and the odds of
the standing bid from your seat. Type ``5x4`` or ``5 4`` to bid, ``dudo``, ``calza``,
``reroll 5,5`` (where the edition lets you set dice aside and re-roll the rest), ``help``
or ``quit``. An illegal move is refused with the rule it breaks and you are
asked again. After each round the lifted cups are shown. However the session
ends (the game's end, ``quit``, end of input, Ctrl-C, SIGTERM or SIGHUP, input that
is not UTF-8) the game record is saved, to a file checked before the game starts;
check it with ``perudo-rules referee FILE``. SIGTERM and SIGHUP end the game as
Ctrl-C does, then exit ``128 + signal`` with one line on standard error.

A record is never dropped: if its file cannot be written when the game ends (its
folder was deleted, or replaced by a file), it is saved to a fresh file in the
current folder or else in the system's temporary folder, and one line on standard
error says where (exit 2); if even that fails, the record is printed to standard
error as one line of JSON (:func:`save_record`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType
from typing import Any, TextIO

from perudo_rules.analysis.bots import Bot, derive_seed, make_bot, out_of_turn_calls
from perudo_rules.analysis.probability import (
    bid_probability_float,
    exact_probability_float,
    from_game,
    matches,
)
from perudo_rules.base.actions import Action, Bid, Calza, Dudo, Reroll, parse_action
from perudo_rules.base.errors import ActionSyntaxError, OutputError, PerudoError
from perudo_rules.base.i18n import N_, ptr, tr
from perudo_rules.base.limits import MAX_EXACT_DICE
from perudo_rules.base.output import Outputs, write_text
from perudo_rules.base.safetext import display_path, printable
from perudo_rules.editions.corerules import Citation
from perudo_rules.editions.variantfile import load_variant
from perudo_rules.engine.game import Game
from perudo_rules.records.decided import decided_by
from perudo_rules.records.describe import describe_result, sentence
from perudo_rules.records.record import to_record

__all__ = [
    "HELP",
    "HELP_LINES",
    "TerminalGame",
    "fallback_folders",
    "help_text",
    "register",
    "save_record",
]

#: The commands of the terminal game and what each does (shown translated by help_text).
HELP_LINES = (
    (N_("5x4 or 5 4"), N_("bid: at least five dice show 4 (wild dice count too, when they count)")),
    ("dudo", N_("doubt the standing bid: cups are lifted; whoever is wrong loses a die")),
    ("calza", N_("claim the standing bid is exact: right gains a die, wrong loses one")),
    (
        N_("reroll 5,5"),
        N_("set these dice aside face up and re-roll the rest (where the edition allows it)"),
    ),
    ("help", N_("this text")),
    ("quit", N_("stop here (the record so far is saved)")),
)


def help_text() -> str:
    """The help of the terminal game, in the language of the context."""
    lines = [tr("commands:")]
    lines += [f"  {tr(cmd):<12} {tr(text)}" for cmd, text in HELP_LINES]
    lines.append(
        tr("When a bot has bid and you may call out of turn, press Enter to let play go on.")
    )
    return "\n".join(lines)


#: The help in English.
HELP = help_text()


#: Most bids of the round the screen lists (the latest ones).
MAX_SHOWN_BIDS = 30
#: Most dice of a cup the screen lists one by one (a bigger cup is shown by face).
MAX_SHOWN_DICE = 40


class _Quit(Exception):
    """The player typed quit or the input ended."""


def _cup(dice: Sequence[int]) -> str:
    """A cup for the screen: its dice, or the count of each face when there are many."""
    if len(dice) <= MAX_SHOWN_DICE:
        return " ".join(map(str, sorted(dice)))
    return ", ".join(f"{n} x {face}" for face, n in sorted(Counter(dice).items()))


def _odds(game: Game, seat: int) -> tuple[float, float]:
    """P(the standing bid holds), P(it is exact), from ``seat``: exact fractions while
    they are cheap (:data:`~perudo_rules.base.limits.MAX_EXACT_DICE` unseen dice), floats beyond."""
    bid = game.bids[-1]
    own = game.dice[seat]
    unknown = game.dice_in_play - len(own)
    if unknown <= MAX_EXACT_DICE:
        odds = from_game(game, seat)
        return float(odds.holds), float(odds.exact)
    wild = game.space.wild
    faces = game.rules.dice_faces
    known = matches(own, bid.face, wild)
    args = (known, unknown, bid.quantity, bid.face, faces, wild)
    return bid_probability_float(*args), exact_probability_float(*args)


class TerminalGame:
    """One game between a human seat and bots, driven by ``read`` (a line or ``None`` at EOF)
    and ``write`` (text with its newline)."""

    def __init__(
        self,
        game: Game,
        seat: int,
        bots: Sequence[Bot | None],
        roll_seed: int,
        read: Callable[[str], str | None],
        write: Callable[[str], None],
    ) -> None:
        self.game = game
        self.seat = seat
        self.bots = bots
        self.rng = random.Random(roll_seed)
        self.read = read
        self.write = write
        #: the rules that decided the last call's outcome (records.decided.decided_by)
        self.decided: tuple[Citation, ...] = ()

    # --- display ------------------------------------------------------------------------

    def _name(self, s: int) -> str:
        return tr("seat {n} (you)", n=s) if s == self.seat else tr("seat {n}", n=s)

    def show_state(self) -> None:
        """Print the round, dice counts, your dice, the bids and the odds of the standing bid."""
        g = self.game
        pal = tr(", palifico") if g.palifico else ""
        wild = g.space.wild
        name = ptr("wild", g.rules.wild_name)
        wild_text = (
            tr("wild: {name} (every {face})", name=name, face=wild)
            if wild is not None
            else tr("no wilds")
        )
        n = g.dice_in_play
        head = tr("round {round}{palifico}: {n} dice in play", round=g.round, palifico=pal, n=n)
        self.write(f"\n-- {head}, {wild_text}")
        counts = "  ".join(
            f"{self._name(s)}: {c}" for s, c in enumerate(g.dice_counts) if c or s == self.seat
        )
        self.write("   " + tr("dice held: {counts}", counts=counts))
        if g.dice_counts[self.seat]:
            self.write("   " + tr("your dice: {dice}", dice=_cup(g.dice[self.seat])))
        aside = [f"{self._name(s)}: {_cup(c)}" for s, c in enumerate(g.set_aside) if c]
        if aside:
            self.write("   " + tr("set aside, face up: {dice}", dice="  ".join(aside)))
        if g.bids:
            acts = g.actions
            shown = acts[-MAX_SHOWN_BIDS:]
            bids = ", ".join(f"{self._name(b.player)} {b}" for b in shown)
            if len(shown) < len(acts):
                line = tr(
                    "bids (the last {n} of {total}): {bids}",
                    n=len(shown),
                    total=len(acts),
                    bids=bids,
                )
            else:
                line = tr("bids: {bids}", bids=bids)
            self.write("   " + line)
            if g.dice_counts[self.seat]:
                holds, exact = (format(p, ".3f") for p in _odds(g, self.seat))
                self.write(
                    "   "
                    + tr(
                        "the standing bid {bid} holds with probability {holds} from your seat, "
                        "and is exact with probability {exact}",
                        bid=g.bids[-1],
                        holds=holds,
                        exact=exact,
                    )
                )
        else:
            self.write("   " + tr("{who} opens the bidding", who=self._name(g.to_move or 0)))

    def show_result(self) -> None:
        """Print the lifted cups and the outcome of the round just ended."""
        g = self.game
        res = g.last_result
        assert res is not None
        for s, cup in zip(res.revealed, res.shown, strict=True):
            dice = " ".join(map(str, cup)) or "-"
            self.write("     " + tr("{who} shows {dice}", who=self._name(s), dice=dice))
        text = describe_result(res, g.dice_counts, name=self._name, winner=g.winner)
        self.write(f"   {sentence(text)}")
        if self.decided:  # each rule that decided it, with its section and the book's words
            cited = [f"{c.rule} [{c.where()}]" if c.where() else c.rule for c in self.decided]
            self.write("   " + tr("Decided by: {rules}", rules="; ".join(cited)))

    # --- input --------------------------------------------------------------------------

    def _ask(self, prompt: str) -> str:
        line = self.read(prompt)
        if line is None:
            self.write("")
            raise _Quit
        text = line.strip().lower()
        if text in ("quit", "exit", "q"):
            raise _Quit
        return text

    def _parse(self, text: str) -> Action | None:
        try:
            return parse_action(f"{self.seat}:{text}")
        except ActionSyntaxError:
            pass
        try:
            return Bid.parse(text, self.seat)
        except ActionSyntaxError:
            return None

    def _refusal(self, action: Action) -> str | None:
        bad = self.game.violation(action)
        if bad is None:
            return None
        return "   " + tr("not allowed: {reason} [{rule}]", reason=bad.text(), rule=bad.rule)

    def ask_turn(self) -> Action:
        """Ask for the human's move until it is legal."""
        action = self._read(tr("your move") + "> ", bids=True)
        assert action is not None
        return action

    def ask_call(self) -> Action | None:
        """Offer the human an out-of-turn call; ``None`` when they pass."""
        calls = (" " + tr("or") + " ").join(
            tr(str(a)) for a in out_of_turn_calls(self.game, self.seat)
        )
        return self._read(tr("{calls} now? (Enter to pass)", calls=calls) + "> ", bids=False)

    def _read(self, prompt: str, bids: bool) -> Action | None:
        """Read until a legal action (a bid only if ``bids``); an empty line passes when
        bids are not expected, and is ignored when they are."""
        while True:
            text = self._ask(prompt)
            if not text:
                if bids:
                    continue
                return None
            if text in ("help", "?", "h"):
                self.write(help_text())
                continue
            action = self._parse(text)
            if isinstance(action, (Bid, Reroll)) and not bids:
                who = self._name(self.game.to_move or 0)
                self.write("   " + tr("it is {who}'s turn to bid", who=who))
                continue
            if action is None:
                self.write("   " + tr("not understood: {text} (type help)", text=repr(text)))
                continue
            refusal = self._refusal(action)
            if refusal is None:
                return action
            self.write(refusal)

    # --- the loop -----------------------------------------------------------------------

    def _offer_calls(self) -> Action | None:
        """Ask every seat the kernel offers an out-of-turn call, in the kernel's order
        (:meth:`Game.call_offers`); the first call made, or ``None`` when all pass."""
        g = self.game
        for s in g.call_offers():
            bot = self.bots[s]
            if bot is None:
                self.show_state()
                action = self.ask_call()
            else:
                action = bot.choose(g, s)
            if action is not None:
                return action
        return None

    def _step(self) -> None:
        g = self.game
        to_move = g.to_move
        assert to_move is not None
        action = self._offer_calls()
        if action is None:
            bot = self.bots[to_move]
            if bot is None:
                if g.bids:
                    self.show_state()
                action = self.ask_turn()
            else:
                action = bot.choose(g, to_move)
                if action is None:  # pragma: no cover - bots always act on their turn
                    raise ValueError(tr("the bot of seat {seat} did not act", seat=to_move))
        if action.player != self.seat:
            self.write(f"   {self._name(action.player)}: {action}")
        if isinstance(action, Dudo | Calza) and g.is_legal(action):
            self.decided = decided_by(g, action)
        self.game = g.apply(action)
        if self.game.to_move is None:
            self.show_result()

    def run(self) -> Game:
        """Play until the game ends or the human quits; the last position."""
        try:
            self.show_state()
            while not self.game.is_over:
                if self.game.awaiting_roll:
                    self.game = self.game.roll(rng=self.rng)
                    self.show_state()
                    continue
                self._step()
        except _Quit:
            self.write("   " + tr("game stopped."))
            return self.game
        self.write("\n" + tr("{who} wins the game.", who=self._name(self.game.winner or 0)))
        return self.game


def _read_line(stream: TextIO, out: TextIO) -> Callable[[str], str | None]:
    def read(prompt: str) -> str | None:
        out.write(prompt)
        out.flush()
        try:
            line = stream.readline()
        except UnicodeDecodeError:
            raise PerudoError(tr("the input is not valid UTF-8; the game stops here")) from None
        if not line:
            return None
        if stream is not sys.stdin or not stream.isatty():
            out.write(printable(line.rstrip("\n")) + "\n")
        return line

    return read


class _Stopped(BaseException):
    """SIGTERM or SIGHUP arrived: the game stops where it is, as on Ctrl-C.

    A ``BaseException``, as ``KeyboardInterrupt`` is, so that no ``except Exception``
    on the way swallows it before the record is saved.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


#: The signals that stop a game and save its record (as Ctrl-C does); SIGHUP is POSIX only.
STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)


class _SignalGuard:
    """While armed, the first SIGTERM or SIGHUP raises :class:`_Stopped` in the main
    thread (a read waiting for a line included); after :meth:`disarm`, these signals and
    Ctrl-C are ignored, so that nothing interrupts saving the record; :meth:`restore`
    puts the previous handlers back. Outside the main thread (where Python cannot take
    signals) it does nothing."""

    def __init__(self) -> None:
        self.armed = False
        self.previous: dict[signal.Signals, Any] = {}

    def arm(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return
        for sig in STOP_SIGNALS:
            self.previous[sig] = signal.signal(sig, self._handle)
        self.armed = True

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.armed:  # once: a second signal while the record is saved does nothing
            self.armed = False
            raise _Stopped(signum)

    def disarm(self) -> None:
        self.armed = False
        if self.previous and signal.SIGINT not in self.previous:
            self.previous[signal.SIGINT] = signal.signal(signal.SIGINT, signal.SIG_IGN)

    def restore(self) -> None:
        self.armed = False
        for sig, handler in self.previous.items():
            if handler is not None:  # None: a handler not set from Python, left as it is
                signal.signal(sig, handler)
        self.previous.clear()


def fallback_folders() -> list[str]:
    """Where a record goes when its own file cannot be written: the current folder, then
    the system's temporary folder (each only if it can be found)."""
    found: list[str] = []
    with contextlib.suppress(OSError):
        found.append(os.getcwd())
    with contextlib.suppress(OSError):
        found.append(tempfile.gettempdir())
    return list(dict.fromkeys(os.path.realpath(f) for f in found))


def save_record(
    text: str, path: str | os.PathLike[str], stem: str, folders: Sequence[str] | None = None
) -> tuple[Path | None, OutputError | None]:
    """Save the record ``text`` to ``path``, never dropping it.

    Returns ``(where, problem)``: ``(path, None)`` when ``path`` was written; when it
    could not be (``problem`` says why), ``where`` is a fresh file ``STEM-*.json`` in the
    first of ``folders`` (default :func:`fallback_folders`) that takes it, or ``None``
    when none did (the caller then prints the record)."""
    try:
        write_text(path, text)
        return Path(path), None
    except OutputError as exc:
        problem = exc
    data = text.encode("utf-8", errors="surrogateescape")
    for folder in fallback_folders() if folders is None else folders:
        try:
            fd, name = tempfile.mkstemp(prefix=f"{stem}-", suffix=".json", dir=folder)
        except (OSError, ValueError):
            continue
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            return Path(name), problem
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(name)
    return None, problem


def _tell(text: str, stream: TextIO) -> None:
    """Print one line, and carry on if the terminal is gone (SIGHUP, a closed pipe)."""
    with contextlib.suppress(OSError, ValueError):
        print(text, file=stream, flush=True)


def _save_and_tell(record: dict[str, Any], path: Path, stem: str, stop: str) -> bool:
    """Save the record (:func:`save_record`) and say where; ``stop`` starts the error line
    (``"stopped by SIGTERM; "`` or ``""``). True when it went to ``path``."""
    text = json.dumps(record, indent=1) + "\n"
    where, problem = save_record(text, path, stem)
    if problem is None:
        shown = display_path(path)
        saved = tr("record saved to {file} (check it: perudo-rules referee {file})", file=shown)
        _tell(saved, sys.stdout)
        return True
    why = " ".join(str(problem).split())
    if where is not None:
        shown = display_path(where)
        _tell(
            tr("perudo-rules: error: {stop}{why}; the record is saved to {file} instead "
               "(check it: perudo-rules referee {file})", stop=stop, why=why, file=shown),
            sys.stderr,
        )
        return False
    folders = (" " + tr("or") + " ").join(map(display_path, fallback_folders()))
    _tell(
        tr("perudo-rules: error: {stop}{why}, and no fresh file could be written in {folders}; "
           "the record follows on standard error, as one line of JSON", stop=stop, why=why,
           folders=folders or tr("any folder")),
        sys.stderr,
    )
    _tell(json.dumps(record), sys.stderr)
    return False


def _run(args: argparse.Namespace) -> int:
    variant = load_variant(args.variant)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    game = Game.new(variant, args.players, seed=seed)
    if not 0 <= args.seat < args.players:
        raise ValueError(tr("--seat must be 0 to {most}", most=args.players - 1))
    bots: list[Bot | None] = [
        None if s == args.seat else make_bot(args.bot, derive_seed(seed, "bot", s))
        for s in range(args.players)
    ]
    out = sys.stdout
    # where the record goes is checked now, not after the game
    outputs = Outputs([variant.file] if variant.file else [])
    stem = f"perudo-{variant.id}-seed{seed}"
    path = outputs.add(args.record_out or f"{stem}.json", "--record-out")

    def write(text: str) -> None:
        print(printable(text, newlines=True), file=out)

    write(
        tr(
            "{name}: {players} seats, you are seat {seat}; {bot} bots; seed {seed}. "
            "Type help for the commands.",
            name=tr(variant.name), players=args.players, seat=args.seat, bot=args.bot, seed=seed,
        )
    )
    tg = TerminalGame(
        game, args.seat, bots, derive_seed(seed, "roll"), _read_line(sys.stdin, out), write
    )
    guard = _SignalGuard()
    stopped: _Stopped | None = None
    try:
        guard.arm()
        try:
            tg.run()
            guard.disarm()
        except _Stopped as exc:
            stopped = exc
    finally:
        # whatever ends the session (the end, quit, end of input, Ctrl-C, SIGTERM, SIGHUP,
        # bad input), the record is saved, and nothing interrupts that
        while True:
            try:
                guard.disarm()
                break
            except _Stopped as exc:  # arrived between the game's end and the disarm
                stopped = exc
        try:
            name = None if stopped is None else signal.Signals(stopped.signum).name
            stop = "" if name is None else tr("stopped by {signal}", signal=name) + "; "
            saved = _save_and_tell(to_record(tg.game, full=True), path, stem, stop)
        finally:
            guard.restore()
    if stopped is not None:
        if saved:
            name = signal.Signals(stopped.signum).name
            _tell(tr("perudo-rules: stopped by {signal}", signal=name), sys.stderr)
        return 128 + stopped.signum
    return 0 if saved else 2


def register(subparsers: Any) -> None:
    """Add the ``play`` command."""
    p = subparsers.add_parser(
        "play",
        help=tr("play a game in the terminal against bots"),
        description=(
            tr("Play one game of a variant against bots. Bid with 5x4 or '5 4', call dudo or "
            "calza, type help or quit. The game record is saved at the end.")
        ),
    )
    p.add_argument("variant", help=tr("a bundled variant id or a variant file"))
    p.add_argument("--players", type=int, default=4, help=tr("seats at the table (default 4)"))
    p.add_argument("--seat", type=int, default=0, help=tr("your seat (default 0)"))
    p.add_argument("--seed", type=int, default=None, help=tr("seed of the dice and bots"))
    p.add_argument(
        "--bot", choices=["baseline", "random"], default="baseline", help=tr("the bots' policy")
    )
    p.add_argument(
        "--record-out",
        metavar="FILE",
        default=None,
        help=tr("where to save the record (default perudo-VARIANT-seedN.json here)"),
    )
    p.set_defaults(handler=_run)
