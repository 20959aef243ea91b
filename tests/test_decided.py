"""Every resolved Dudo or Calza names the rules that decided it: check, the referee, the
terminal game and the conformance report cite them from the kernel's decision trace
(:func:`perudo_rules.records.decided.decided_by`), in their text and in their JSON."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

import pytest

from perudo_rules import Bid, Calza, Dudo, Game, load_variant
from perudo_rules.analysis.bots import make_bot, play_game
from perudo_rules.cli import main
from perudo_rules.cli.conform import format_report
from perudo_rules.conform.runner import conform
from perudo_rules.editions.corerules import cite
from perudo_rules.records.decided import citations_json, decided_by
from perudo_rules.records.record import to_record
from perudo_rules.records.referee import referee
from tests.planted import command

ROOT = Path(__file__).resolve().parent.parent
Capsys = pytest.CaptureFixture[str]


def _rules(before: Game, call: Dudo | Calza) -> list[str]:
    return [c.rule for c in decided_by(before, call)]


def test_an_exact_dudo_is_decided_by_the_exact_rule_and_a_wrong_one_by_the_count() -> None:
    italian = load_variant("italian")
    g = Game.start(italian, [[4, 4, 1], [4, 2, 3]], first_player=0)
    exact = g.apply(Bid(0, 4, 4))  # 4, 4, 1 (Aztec), 4: four fours
    assert _rules(exact, Dudo(1))[0] == "challenge.exact"
    short = g.apply(Bid(0, 5, 4))
    assert _rules(short, Dudo(1))[0] == "play.dudo"
    # a right Calza gains a die and the caller opens; a wrong one, down to one die, palifico
    three = Game.start(italian, [[4, 4, 1], [4, 2, 3], [5, 5]], first_player=0)
    assert _rules(three.apply(Bid(0, 4, 4)), Calza(2)) == ["play.calza", "calza.next_starts"]
    wrong = _rules(three.apply(Bid(0, 5, 4)), Calza(2))
    assert wrong == ["play.calza", "play.palifico_opener", "palifico.trigger"]
    # a right Calza of a seat holding five dice: the cap decides that it gains nothing
    full = Game.start(italian, [[4, 4, 1, 2, 2], [4, 2, 3], [5, 5]], first_player=1)
    assert _rules(full.apply(Bid(1, 4, 4)), Calza(0)) == ["calza.gain_cap", "calza.next_starts"]


def test_who_is_out_and_who_wins_are_cited_only_when_they_happen() -> None:
    italian = load_variant("italian")
    last = Game.start(italian, [[3], [5, 5]], first_player=0).apply(Bid(0, 2, 5))
    rules = _rules(last, Dudo(1))  # two fives: seat 1 loses its die... it holds two
    assert "play.elimination" not in rules and "end.condition" not in rules
    out = Game.start(italian, [[3], [5, 5]], first_player=1).apply(Bid(1, 1, 5))
    rules = _rules(out, Dudo(0))  # two fives: seat 0 challenged a right bid, loses its last
    assert rules[:3] == ["play.dudo", "play.elimination", "end.condition"], rules


def test_a_seat_down_to_one_die_brings_palifico_and_the_second_time_the_rule_that_stops_it() -> (
    None
):
    italian = load_variant("italian")
    g = Game.start(italian, [[2, 2], [3, 3, 3], [6, 6]], first_player=0).apply(Bid(0, 5, 2))
    assert "palifico.trigger" in _rules(g, Dudo(1))
    again = Game.start(
        italian, [[2, 2], [3, 3, 3], [6, 6]], first_player=0, palifico_used=[0]
    ).apply(Bid(0, 5, 2))
    assert _rules(again, Dudo(1))[-1] == "palifico.once_per_player"


def test_the_citations_carry_the_editions_section_and_json_keeps_them() -> None:
    spanish = load_variant("spanish")
    g = Game.start(spanish, [[4, 4, 1], [4, 2, 3]], first_player=0).apply(Bid(0, 4, 4))
    cited = decided_by(g, Dudo(1))
    assert cited[0] == cite("challenge.exact", spanish)
    data = citations_json(cited)
    assert data[0]["rule"] == "challenge.exact"
    assert set(data[0]) == {"rule", "statement", "source", "quote"}
    assert data[0]["source"] == cite("challenge.exact", spanish).source


def _record(edition: str, seed: int) -> dict[str, object]:
    variant = load_variant(edition)
    game = play_game(variant, 3, [make_bot("baseline", seed + i) for i in range(3)], seed=seed)
    return to_record(game, full=True)


@pytest.mark.parametrize("edition", ["italian", "spanish", "bluff", "mso-perudo"])
def test_the_referee_cites_for_every_round_the_rules_the_kernel_names(edition: str) -> None:
    record = _record(edition, 7)
    verdict = referee(record)
    assert verdict.valid and verdict.rounds
    variant = load_variant(edition)
    for summary in verdict.rounds:
        assert summary.decided_by, summary  # every round of a finished game ends in a call
        deciding = summary.decided_by[0]
        assert deciding.rule in {
            "play.dudo", "play.calza", "challenge.exact", "challenge.loss", "calza.gain_cap",
        }, deciding  # fmt: skip
        assert deciding == cite(deciding.rule, variant)
    # the last round cites the rule that ended the game
    assert verdict.rounds[-1].decided_by[-1].rule == "end.condition"
    rounds = verdict.to_dict()["rounds"]
    assert all(r["decided_by"] and r["decided_by"][0]["rule"] for r in rounds)


def test_a_redacted_records_round_with_a_closed_cup_cites_nothing_it_cannot_know() -> None:
    variant = load_variant("italian")
    game = play_game(variant, 3, [make_bot("baseline", i) for i in range(3)], seed=3)
    verdict = referee(to_record(game, viewer=0))
    for summary, rec in zip(verdict.rounds, game.history, strict=True):
        closed = any(
            s not in rec.result.revealed for s, cup in enumerate(rec.dice) if cup and s != 0
        )  # a cup seat 0 never saw: the count is not known, so is what decided it
        assert (summary.decided_by == ()) == closed, summary
    cited = [bool(r.decided_by) for r in verdict.rounds]
    assert any(cited) and not all(cited)  # both kinds of round in this game


def test_the_referee_command_prints_each_deciding_rule_once_with_its_section(
    tmp_path: Path, capsys: Capsys
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_record("italian", 7)))
    assert main(["referee", str(path)]) == 0
    out = capsys.readouterr().out
    assert "The rules that decided the outcomes:" in out
    verdict = referee(path)
    rules = {c.rule: c for r in verdict.rounds for c in r.decided_by}
    for rule, citation in rules.items():
        assert sum(line.strip().startswith(f"{rule}:") for line in out.splitlines()) == 1
        if citation.source:
            assert citation.line() in out
    assert main(["referee", str(path), "--lang", "it"]) == 0
    out = capsys.readouterr().out
    assert "Le regole che hanno deciso gli esiti:" in out


def test_the_terminal_game_says_which_rules_decided_each_round(
    monkeypatch: pytest.MonkeyPatch, capsys: Capsys
) -> None:
    lines = ["", "dudo"] * 60
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{x}\n" for x in lines)))
    assert main(["play", "italian", "--players", "3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    ends = [line for line in out.splitlines() if " calls dudo on " in line]
    decided = [line for line in out.splitlines() if line.strip().startswith("Decided by: ")]
    assert ends and len(decided) == len(ends)
    assert any("round.starter [§ Il \"Dudo\"" in line for line in decided), decided


def test_a_conformance_failure_on_an_outcome_cites_the_rules_of_the_editions_outcome(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    monkeypatch.chdir(ROOT)
    report = conform(command("python", "exact-bidder-loses"), ["italian"], games=2,
                     perft_nodes=40, asked=True)  # fmt: skip
    (rep,) = report.editions
    (fail,) = rep.failures
    assert fail.rule == "challenge.exact"
    assert fail.decided_by and fail.decided_by[0] == "challenge.exact"
    text = format_report(report)
    assert "The edition's outcome was decided by these rules:" in text
    assert fail.to_json()["decided_by"] == fail.decided_by


def test_a_house_rules_record_keeps_where_its_rulebook_states_the_fixed_rules() -> None:
    """A record embeds a modified edition whole, ``core`` included, so its referee cites
    a fixed rule with the section and words of the rulebook, as for the bundled edition."""
    house = load_variant("italian", {"dice.per_player": 3})
    game = Game.start(house, [[2, 3], [4, 4, 1]], first_player=0).apply(Bid(0, 5, 4))
    after = game.apply(Dudo(1))  # three fours, Aztec included: the bid was short
    (summary,) = referee(to_record(after, full=True)).rounds
    deciding = summary.decided_by[0]
    assert deciding.rule == "play.dudo"
    assert deciding == cite("play.dudo", load_variant("italian"))
    assert deciding.source and deciding.quote
