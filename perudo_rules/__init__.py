"""perudo-rules: the reference rules library for Perudo (Dudo).

Editions are data (``variants/*.yaml``); this package is the engine that
interprets them. Start with :func:`load_variant` and :meth:`Game.new`.
"""

from perudo_rules import gamejson as gamejson  # installs Game.to_json, Game.from_json, ...
from perudo_rules.actions import (
    Action,
    Bid,
    Calza,
    Dudo,
    Leave,
    Reroll,
    format_action,
    parse_action,
    parse_bid,
)
from perudo_rules.errors import IllegalAction, PerudoError, VariantError
from perudo_rules.game import Game
from perudo_rules.legal import LegalActions
from perudo_rules.messages import Refusal, format_message
from perudo_rules.position import Position
from perudo_rules.record import replay, to_record
from perudo_rules.recordformat import RecordError, load_record
from perudo_rules.referee import Verdict, referee
from perudo_rules.rounds import RoundRecord, RoundResult
from perudo_rules.rules import core_rules, rule_text
from perudo_rules.variant import Knob, Variant, available_variants, load_variant
from perudo_rules.version import __version__ as __version__
from perudo_rules.views import Observation, PastRound

__all__ = [
    "Action",
    "Bid",
    "Calza",
    "Dudo",
    "Game",
    "IllegalAction",
    "Knob",
    "Leave",
    "LegalActions",
    "Observation",
    "PastRound",
    "PerudoError",
    "Position",
    "RecordError",
    "Refusal",
    "Reroll",
    "RoundRecord",
    "RoundResult",
    "Variant",
    "VariantError",
    "Verdict",
    "available_variants",
    "core_rules",
    "format_action",
    "format_message",
    "load_record",
    "load_variant",
    "parse_action",
    "parse_bid",
    "referee",
    "replay",
    "rule_text",
    "to_record",
]
