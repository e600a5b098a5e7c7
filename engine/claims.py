"""The claims a log may make (``round_end``, ``game_end``), checked against the rules' own
result, and the one line that may never come again (a second header)."""

from __future__ import annotations

from .dispatch import handles
from .errors import IllegalEventError, InconsistentLogError
from .events import GameEnd, GameStart, RoundEnd
from .outcome import NOTHING, Outcome
from .state import GameState


@handles(RoundEnd)
def round_end(g: GameState, e: RoundEnd) -> Outcome:
    if not 1 <= e.round <= len(g.rounds):
        raise InconsistentLogError("claim_premature",
                                   f"round {e.round} has not ended at this point")
    result = g.rounds[e.round - 1]
    if dict(e.points) != result.points:
        raise InconsistentLogError("claim_mismatch",
                                   f"round {e.round}: the log claims points "
                                   f"{_fmt(e.points)}, but the rules give {_fmt(result.points)}")
    return NOTHING


@handles(GameEnd)
def game_end(g: GameState, e: GameEnd) -> Outcome:
    if not g.complete:
        raise InconsistentLogError("claim_premature", "the match has not ended at this point")
    scores = g.cumulative_by_name()
    if set(e.winners) != set(g.winners) or len(e.winners) != len(g.winners):
        raise InconsistentLogError("claim_mismatch",
                                   f"the log claims winners {', '.join(e.winners) or 'none'}, "
                                   f"but the rules give {', '.join(g.winners)}")
    if dict(e.scores) != scores:
        raise InconsistentLogError("claim_mismatch",
                                   f"the log claims scores {_fmt(e.scores)}, but the rules "
                                   f"give {_fmt(scores)}")
    return NOTHING


def _fmt(points: dict[str, int]) -> str:
    return ", ".join(f"{p} {v}" for p, v in points.items()) or "none"


@handles(GameStart)
def header_again(g: GameState, e: GameStart) -> Outcome:
    raise IllegalEventError("duplicate_header", "a log has exactly one 'game' line, the first")
