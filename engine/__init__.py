"""The pure Cabo rules engine: rulesets as data, one mutable state, events applied in order.

No I/O and no third-party imports; everything here is deterministic.
"""

# ruff: noqa: E402  (the switch below comes before the package's own imports)
from .native import prefer_sources

prefer_sources(__path__)   # CABO_LOG_PURE=1: the sources, even beside compiled modules

from .errors import (
    CaboLogError,
    IllegalEventError,
    InconsistentLogError,
    LogSyntaxError,
    RulesetError,
)
from .events import Event, GameStart, type_name
from .game import apply, finish, new_game
from .outcome import EVERYBODY, Outcome
from .parsing import parse_event
from .results import EndReason, RoundResult
from .rulesets import BUILTINS, Ruleset, resolve
from .state import GameState, RoundState
from .vocabulary import Arrival, DrawSource, ExactReset, Phase, PowerKind

__all__ = [
    "Arrival", "BUILTINS", "EVERYBODY", "CaboLogError", "DrawSource", "EndReason", "Event",
    "ExactReset", "GameStart", "GameState", "IllegalEventError", "InconsistentLogError",
    "LogSyntaxError", "Outcome", "Phase", "PowerKind", "RoundResult", "RoundState", "Ruleset",
    "RulesetError",
    "apply", "finish", "new_game", "parse_event", "resolve", "type_name",
]
