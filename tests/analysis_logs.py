"""Hand-built positions for the analysis tests (stacked decks, exact arithmetic)."""

from __future__ import annotations

from cabo_log.log.builder import LogBuilder


def final_turn(ana: list[str], drawn: str) -> LogBuilder:
    """edition2: bruno (6 6 7 7 = 26) calls Cabo at once; ana, who peeked at positions 0 and
    1, plays the last turn of the round and draws ``drawn``. Non-callers score their total,
    so every option's points are exact arithmetic."""
    b = LogBuilder("edition2", ["ana", "bruno"])
    b.deal({"ana": ana, "bruno": ["6", "6", "7", "7"]}, "3", [drawn], first="bruno", rest=7)
    b.peek("ana", [0, 1]).peek("bruno", [0, 1])
    b.cabo("bruno").draw("ana", "deck")
    return b


def must_fail_log() -> LogBuilder:
    """ana knows her 5 and 4, draws a 13 (no power) and lists both: the replacement must
    fail and the 13 is added to her row: 5 4 9 9 13 = 40 points where discarding scores 27."""
    return final_turn(["5", "4", "9", "9"], "13").replace("ana", [0, 1])
