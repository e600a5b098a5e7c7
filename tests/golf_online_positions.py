"""Hand-worked positions of golf and online where the match is at stake, and of golf's
optional Kamikaze (``tests/ruleset_positions.py`` lists them with the others); each
builder's docstring has its arithmetic. Neither ruleset resets at the target: reaching 100
ends the match and the lowest total wins, so near the target a single round point can
decide it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cabo_log.log.builder import LogBuilder
from engine.scoring import expected_first

GOLF_OPEN: dict[str, Any] = {"open_peek": True}


def quick_round(b: LogBuilder, caller: str, hands: dict[str, list[str]], *,
                discard: str = "4", filler: Sequence[str] = ("3", "3", "3")) -> None:
    """A round in which ``caller`` calls Cabo at their first turn (the first player, as the
    ruleset names or the log says, otherwise draws a ``filler`` card, a 3, and discards it
    first) and the others discard what they draw (3s): the points are the hands'
    arithmetic."""
    rules = b.rules
    assert rules is not None
    first = caller if rules.first_player == "logged" or not b.state or not b.state.rounds \
        else None
    b.deal(hands, discard, list(filler), first=first)
    for p in hands:
        b.peek(p, list(rules.peek_positions or range(rules.peek_count)))
    assert b.state is not None
    order = list(hands)
    start = b.state.players[b.state.to_act()]
    order = order[order.index(start):] + order[:order.index(start)]
    for p in order[:order.index(caller)]:
        b.draw(p, "deck").discard(p)
    b.cabo(caller)
    for p in order[order.index(caller) + 1:] + order[:order.index(caller)]:
        b.draw(p, "deck").discard(p)



# --- the match at stake in golf and online (no reset: the target ends the match) ------------

ONLINE_OPEN: dict[str, Any] = {"base": "online", "name": "online-open", "peek_count": 4,
                               "peek_positions": [0, 1, 2, 3]}
LOW_ROW = ["AS", "AH", "2S", "2H"]          # 6 points: a call with it succeeds


def spied_last_turn(b: LogBuilder, ana: Sequence[str], bruno: Sequence[str], drawn: str,
                    spies: Sequence[str] = ("9H", "9D", "10H", "10D"),
                    filler: Sequence[str] = ("5D", "5H", "5S", "6H")) -> LogBuilder:
    """A round in which ana knows her whole row (the ruleset peeks all four) and spies on
    all four of bruno's cards with ``spies`` (9s and 10s, discarded), while bruno discards
    what he draws (``filler``); then bruno calls and ana, on the round's last turn, draws
    ``drawn``. The first player is whoever the ruleset names (golf rotates)."""
    hands = {"ana": list(ana), "bruno": list(bruno)}
    assert b.state is not None
    must = expected_first(b.state, (0, 1))
    first = "bruno" if must is None else b.state.players[must]
    order = ["ana", "bruno"] if first == "ana" else ["bruno", "ana"]
    turns: list[tuple[str, str]] = []       # (player, card drawn)
    spied, filled = list(spies), list(filler)
    while spied:
        for p in order:
            if p == "ana" and spied:
                turns.append(("ana", spied.pop(0)))
            elif p == "bruno" and (spied or order[0] == "bruno"):
                turns.append(("bruno", filled.pop(0)))
    if turns[-1][0] == "bruno":
        turns.pop()                          # bruno calls at this turn instead
    b.deal(hands, "4D", [card for _, card in turns] + [drawn], first=first)
    b.peek("ana", [0, 1, 2, 3]).peek("bruno", [0, 1, 2, 3])
    position = 0
    for p, _ in turns:
        b.draw(p, "deck").discard(p)
        if p == "ana":
            b.spy("ana", "bruno", position)
            position += 1
    return b.cabo("bruno").draw("ana", "deck")


def golf_match(ana: Sequence[str], drawn: str) -> LogBuilder:
    """golf with open_peek (target 100: reaching it ends the match, the lowest total wins;
    no reset). Four quick rounds (golf: the caller must be strictly lowest; a non-caller
    scores their total; a failed call scores the total + 10): bruno calls with A A 2 2 = 6
    against K K Q Q = 50 (ana 50); ana calls with A A 2 2 against K K Q 10 = 48 (bruno 48);
    bruno against K Q 6 6 = 37 (ana 87); ana against K Q 3 4 = 32 (bruno 80). Round 5: ana
    knows her row ``ana`` and has spied all of bruno's, 4 4 2 2 = 12; bruno calls; ana draws
    ``drawn``. At 12 or less she beats his call (not strictly lower): bruno 80 + 12 + 10 =
    102 ends the match, and ana, at most 87 + 12 = 99, wins it. At 13 or more the call
    succeeds: bruno stays at 80 and ana reaches 100: the match ends and bruno wins."""
    b = LogBuilder("golf", ["ana", "bruno"], options=GOLF_OPEN)
    suited = {"discard": "4D", "filler": ("3D", "3S", "3H")}
    quick_round(b, "bruno", {"ana": ["KS", "KC", "QS", "QC"], "bruno": LOW_ROW}, **suited)
    quick_round(b, "ana", {"ana": LOW_ROW, "bruno": ["KS", "KC", "QS", "10C"]}, **suited)
    quick_round(b, "bruno", {"ana": ["KS", "QS", "6C", "6D"], "bruno": LOW_ROW}, **suited)
    quick_round(b, "ana", {"ana": LOW_ROW, "bruno": ["KS", "QS", "3C", "4C"]}, **suited)
    assert b.state is not None
    assert b.state.cumulative_by_name() == {"ana": 87, "bruno": 80}, b.state.cumulative_by_name()
    return spied_last_turn(b, ana, ["4S", "4H", "2S", "2H"], drawn)


def golf_point_loses_match() -> LogBuilder:
    """``golf_match`` with 6C 5C 2C 2D = 15, the 3H drawn. Replacing the 6 makes 12: bruno
    fails, 102, ana 99: she wins the match (100 %, exact). Replacing the 5 makes 13, a
    single round point more: the call succeeds and ana's 100 ends the match lost (0 %).
    By round points no mark (1.0); by the match 100 % given away: ``??`` (exact)."""
    return golf_match(["6C", "5C", "2C", "2D"], "3H").replace("ana", [1])


def golf_point_wins_match() -> LogBuilder:
    """The same position, the 6 replaced (12: bruno's call fails, ana wins the match): the
    best: no mark (exact)."""
    return golf_match(["6C", "5C", "2C", "2D"], "3H").replace("ana", [0])


def golf_match_won_either_way() -> LogBuilder:
    """``golf_match`` with 9C AC AD 2C = 13, the AH drawn. Replacing the 9 scores 5,
    replacing the 2 scores 12: seven round points apart (a ``??`` by round points), but both
    beat bruno's 12, so his call fails (102) and ana wins the match either way (92 or 99):
    by the match nothing is given away: no mark (exact)."""
    return golf_match(["9C", "AC", "AD", "2C"], "AH").replace("ana", [3])


def online_match(ana: Sequence[str], drawn: str) -> LogBuilder:
    """online with every own card peeked (target 100: reaching it ends the match; no
    reset). Four quick rounds (the caller must be strictly lowest; a non-caller scores
    their total; a failed call the total + 5): bruno calls with A A 2 2 = 6 against
    K K Q J = 49 (ana 49); ana calls against K K Q 10 = 48 (bruno 48); bruno against
    K Q 7 6 = 38 (ana 87); ana against K Q 6 6 = 37 (bruno 85). Round 5: ana knows her row
    ``ana`` and has spied all of bruno's, 4 4 2 2 = 12; bruno calls; ana draws ``drawn``.
    At 12 or less bruno fails: 85 + 12 + 5 = 102 ends the match and ana (at most 99) wins;
    at 13 or more he succeeds (85) and ana's 100 ends the match lost."""
    b = LogBuilder(ONLINE_OPEN, ["ana", "bruno"])
    suited = {"discard": "4D", "filler": ("3D", "3S", "3H")}
    quick_round(b, "bruno", {"ana": ["KS", "KC", "QS", "JC"], "bruno": LOW_ROW}, **suited)
    quick_round(b, "ana", {"ana": LOW_ROW, "bruno": ["KS", "KC", "QS", "10C"]}, **suited)
    quick_round(b, "bruno", {"ana": ["KS", "QS", "7C", "6D"], "bruno": LOW_ROW}, **suited)
    quick_round(b, "ana", {"ana": LOW_ROW, "bruno": ["KS", "QS", "6C", "6D"]}, **suited)
    assert b.state is not None
    assert b.state.cumulative_by_name() == {"ana": 87, "bruno": 85}, b.state.cumulative_by_name()
    return spied_last_turn(b, ana, ["4S", "4H", "2S", "2H"], drawn)


def online_point_loses_match() -> LogBuilder:
    """``online_match`` with 6C 5C 2C 2D = 15, the 3H drawn: replacing the 5 (13) where
    replacing the 6 (12) wins the match: one round point, 100 % of the match: ``??``
    (exact)."""
    return online_match(["6C", "5C", "2C", "2D"], "3H").replace("ana", [1])


def online_point_wins_match() -> LogBuilder:
    """The same position, the 6 replaced: 12, bruno fails, ana wins: no mark (exact)."""
    return online_match(["6C", "5C", "2C", "2D"], "3H").replace("ana", [0])


def online_match_won_either_way() -> LogBuilder:
    """``online_match`` with 9C AC AD 2C = 13, the AH drawn: replacing the 2 scores 12,
    replacing the 9 scores 5; both make bruno's call fail and win the match: by the match
    nothing is given away (seven round points): no mark (exact)."""
    return online_match(["9C", "AC", "AD", "2C"], "AH").replace("ana", [3])


# --- golf's optional Kamikaze (a house rule made of data: golf with ``special_caller_zero``) --

GOLF_KAMIKAZE: dict[str, Any] = {"base": "golf", "name": "golf-kamikaze",
                                 "special_caller_zero": True, "peek_count": 4,
                                 "peek_positions": [0, 1, 2, 3]}


def golf_kamikaze(bruno: Sequence[str], drawn: str = "JC") -> LogBuilder:
    """golf with Kamikaze (a caller whose row totals exactly 0 scores 0 and every other
    player 50, instead of their totals) and every own card peeked. ana knows her row 9C 8C
    3C 4C = 24 and has spied all of bruno's (``bruno``); bruno calls; on the round's last
    turn ana draws a jack (its swap: one of her cards for one of his)."""
    b = LogBuilder(GOLF_KAMIKAZE, ["ana", "bruno"])
    return spied_last_turn(b, ["9C", "8C", "3C", "4C"], list(bruno), drawn)


def golf_kamikaze_left_standing() -> LogBuilder:
    """bruno calls with KH KD AS AC = -1 - 1 + 1 + 1 = 0: his Kamikaze. ana discards the
    jack and skips its swap: the Kamikaze stands and she scores 50. Swapping her 9C for his
    KH breaks it: ana 24 - 9 - 1 = 14, bruno 0 + 1 + 9 = 10, strictly lower, his call
    succeeds and ana scores her 14. 50 - 14 = 36 given away: ``??`` (exact)."""
    return golf_kamikaze(["KH", "KD", "AS", "AC"]).discard("ana").skip("ana")


def golf_kamikaze_broken() -> LogBuilder:
    """The same position, the 9C swapped for his KH: 14, the best (the KD is the same
    card's worth; any other swap leaves ana more): no mark (exact)."""
    return golf_kamikaze(["KH", "KD", "AS", "AC"]).discard("ana").swap(
        "ana", ("ana", 0), ("bruno", 0))


def golf_kamikaze_broken_a_point_worse() -> LogBuilder:
    """The same position, the 8C swapped for his KH: ana 24 - 8 - 1 = 15, bruno 9 (still
    strictly lower: his call succeeds): one point worse than the 9C's 14: no mark
    (exact)."""
    return golf_kamikaze(["KH", "KD", "AS", "AC"]).discard("ana").swap(
        "ana", ("ana", 1), ("bruno", 0))
