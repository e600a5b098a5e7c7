"""Hand-worked positions for the analysis tests: the last turn of a round, so the right move
is a matter of arithmetic (and, where the player knows their whole row, of exact sums)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cabo_log.log.builder import LogBuilder

# edition1 with every card of one's own row peeked at the deal (a house rule made of data):
# the player knows their whole row, so a last turn is an exact sum over the caller's cards
OPEN_EDITION1: dict[str, Any] = {"base": "edition1", "name": "edition1-open", "peek_count": 4}


def last_turn(ruleset: str | dict[str, Any], ana: Sequence[str], bruno: Sequence[str],
              drawn: str, *, peek: Sequence[int] = (0, 1, 2, 3), discard: str = "3",
              options: dict[str, Any] | None = None,
              before: LogBuilder | None = None) -> LogBuilder:
    """bruno calls Cabo at once; ana, who peeked at ``peek``, plays the round's last turn
    and draws ``drawn`` from the deck (the rest of the deck in order)."""
    b = before or LogBuilder(ruleset, ["ana", "bruno"], options=options)
    b.deal({"ana": list(ana), "bruno": list(bruno)}, discard, [drawn], first="bruno")
    b.peek("ana", list(peek))
    rules = b.rules
    assert rules is not None
    b.peek("bruno", list(rules.peek_positions or range(rules.peek_count)))
    b.cabo("bruno").draw("ana", "deck")
    return b


def quick_round(b: LogBuilder, caller: str, hands: dict[str, list[str]]) -> None:
    """A round in which ``caller`` calls Cabo at once and the other discards what they
    draw (the deck's first card, a 3): the points are the hands' arithmetic."""
    b.deal(hands, "4", ["3"], first=caller)
    rules = b.rules
    assert rules is not None
    for p in hands:
        b.peek(p, list(range(rules.peek_count)))
    other = next(p for p in hands if p != caller)
    b.cabo(caller).draw(other, "deck").discard(other)


def ninety(third: Sequence[str] = ("12", "12", "11", "1")) -> LogBuilder:
    """edition1 (exact 100 resets to 50, every time): ana has 90, bruno 48. In the fourth
    round ana knows her whole row, 8 1 1 0 = 10, and bruno's, 1 1 0 2 = 4; bruno calls;
    ana draws a 2.
    Keeping the 10 lands on exactly 100: reset to 50. Replacing the 8 scores 4 (bruno, the
    caller, ties the lowest total and scores 0; ana scores her 4): 94, one round from the
    end with bruno far below. ``third``: ana's row when she calls (and fails) in round 3,
    its total + 5 added to her 49."""
    b = LogBuilder("edition1", ["ana", "bruno"])
    # ana 13 13 12 11 = 49; bruno calls with 0 0 1 1: lowest, 0
    quick_round(b, "bruno", {"ana": ["13", "13", "12", "11"], "bruno": ["0", "0", "1", "1"]})
    # bruno calls with 12 12 11 8 = 43 against ana's 0 0 1 1: 48 to bruno, 0 to ana
    quick_round(b, "bruno", {"ana": ["0", "0", "1", "1"], "bruno": ["12", "12", "11", "8"]})
    # ana calls with 12 12 11 1 = 36 against 0 0 1 1: 41 to ana (90)
    quick_round(b, "ana", {"ana": list(third), "bruno": ["0", "0", "1", "1"]})
    mine = 49 + sum(int(c) for c in third) + 5
    assert b.state is not None and b.state.cumulative_by_name() == {"ana": mine, "bruno": 48}
    # round 4: ana peeks at 0 and 1, learns 2 and 3 with a 7 and an 8, and spies on all of
    # bruno's cards with 9s and 10s, while bruno discards what he draws
    b.deal({"ana": ["8", "1", "1", "0"], "bruno": ["1", "1", "0", "2"]}, "4",
           ["7", "3", "8", "3", "9", "3", "10", "3", "9", "5", "10", "2"], first="ana")
    b.peek("ana", [0, 1]).peek("bruno", [0, 1])
    b.draw("ana", "deck").discard("ana").peek_power("ana", 2)
    b.draw("bruno", "deck").discard("bruno")
    b.draw("ana", "deck").discard("ana").peek_power("ana", 3)
    for position in range(4):
        b.draw("bruno", "deck").discard("bruno")
        b.draw("ana", "deck").discard("ana").spy("ana", "bruno", position)
    b.cabo("bruno").draw("ana", "deck")
    return b
