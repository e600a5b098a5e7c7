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


# --- the match at stake, sampled: a final turn with another still to come (three players) ---

SPIES = ("9C", "9D", "9H", "9S", "10C", "10D", "10H", "10S")
# what bruno and carla draw and discard while ana spies: every jack and queen (a swap), every
# 3 and 6 and the last 4 first, so that none is left unseen (see ``carla_calls``); then
# cards that change nothing; a card with a power has it skipped
FILLER = ("JC", "JD", "JH", "JS", "QC", "QD", "QH", "QS", "4C", "3C", "3S", "3H", "6D",
          "6H", "6S", "5S", "KS", "KC", "AS", "AH")
POWERLESS = ("A", "2", "3", "4", "5", "6", "K")


def three_rounds(b: LogBuilder, ana: list[list[str]], bruno: list[list[str]],
                 carla: list[list[str]]) -> None:
    """Four quick rounds of ana, bruno and carla: bruno calls in the first and third, ana in
    the second and fourth (with ``LOW_ROW``, so the caller scores 0); the others' rows are
    listed in the order of the rounds they did not call in."""
    suited = {"discard": "4D", "filler": ("5D", "5S", "5H", "6H")}
    quick_round(b, "bruno", {"ana": ana[0], "bruno": LOW_ROW, "carla": carla[0]}, **suited)
    quick_round(b, "ana", {"ana": LOW_ROW, "bruno": bruno[0], "carla": carla[1]}, **suited)
    quick_round(b, "bruno", {"ana": ana[1], "bruno": LOW_ROW, "carla": carla[2]}, **suited)
    quick_round(b, "ana", {"ana": LOW_ROW, "bruno": bruno[1], "carla": carla[3]}, **suited)


def carla_calls(b: LogBuilder) -> LogBuilder:
    """Round 5 of a three-player match at ana 87, bruno 99, carla 85 (seated in that order):
    ana knows her row 6C 5C 2C 2D = 15 and spies all of bruno's, 7C 7D 8C 8D = 30, and all
    of carla's, 2S 2H 4S 4H = 12 (her turns draw the 9s and 10s); bruno and carla discard
    what they draw (``FILLER``). carla calls; ana, on her final turn, draws the 3D; bruno's
    final turn, the round's last, is still to come, so the decision is sampled, not exact.

    What bruno's last turn can do, from ana's knowledge: the cards she has not seen are the
    draw pile's, and none of them is a jack or queen (no swap), a 2, 3, 4 or 6 (nobody could
    snap carla's row lower, or ana's 6C 3D 2C 2D); so he changes his own row only, by one
    card and a snap of its twin at most: 7 7 8 8 goes no lower than 7 7 -1 = 13 (golf's red
    king for an 8, the other 8 snapped) or 8 8 0 = 16 (online's joker for both 7s), still
    above carla's 12, and bruno ends at 99 + 13 = 112 or more."""
    hands = {"ana": ["6C", "5C", "2C", "2D"], "bruno": ["7C", "7D", "8C", "8D"],
             "carla": ["2S", "2H", "4S", "4H"]}
    assert b.state is not None
    seats = ["ana", "bruno", "carla"]
    must = expected_first(b.state, (0, 1, 2))
    first = 0 if must is None else must
    turns: list[tuple[str, str]] = []
    spies, filler = list(SPIES), list(FILLER)
    at = first
    while True:
        p = seats[at % 3]
        if p == "carla" and not spies:
            break                              # carla calls at this turn
        turns.append((p, spies.pop(0) if p == "ana" and spies else filler.pop(0)))
        at += 1
    assert not {"JC", "JD", "JH", "JS", "QC", "QD", "QH", "QS", "4C", "3C", "3S", "3H", "6D",
                "6H", "6S"} - {card for _, card in turns}, "a card left unseen that matters"
    b.deal(hands, "4D", [card for _, card in turns] + ["3D"], first=seats[first])
    for p in seats:
        b.peek(p, [0, 1, 2, 3])
    spied = 0
    for p, card in turns:
        b.draw(p, "deck").discard(p)
        if card in SPIES:
            b.spy("ana", "bruno" if spied < 4 else "carla", spied % 4)
            spied += 1
        elif not card.startswith(POWERLESS):
            b.skip(p)
    return b.cabo("carla").draw("ana", "deck")
def golf_three() -> LogBuilder:
    """golf with open_peek, three players. bruno calls with A A 2 2 against ana's KS KC QS
    QC = 50 and carla's QH QD JS 4C = 39; ana calls against bruno's KS KC QS QC = 50 and
    carla's QH QD 5C 3C = 32; bruno against ana's KS QS 6C 6D = 37 and carla's AC AD 2C 3C
    = 7; ana against bruno's KS KC QS JC = 49 and carla's 7: ana 87, bruno 99, carla 85.
    Then ``carla_calls``."""
    b = LogBuilder("golf", ["ana", "bruno", "carla"], options=GOLF_OPEN)
    three_rounds(b, [["KS", "KC", "QS", "QC"], ["KS", "QS", "6C", "6D"]],
                 [["KS", "KC", "QS", "QC"], ["KS", "KC", "QS", "JC"]],
                 [["QH", "QD", "JS", "4C"], ["QH", "QD", "5C", "3C"], ["AC", "AD", "2C", "3C"],
                  ["AC", "AD", "2C", "3C"]])
    assert b.state is not None
    assert b.state.cumulative_by_name() == {"ana": 87, "bruno": 99, "carla": 85}
    return carla_calls(b)


def golf_three_five_replaced() -> LogBuilder:
    """``golf_three``: ana replaces the 5 with the 3D: 6 + 3 + 2 + 2 = 13, and carla's 12
    is strictly the lowest (bruno keeps 13 or more, see ``carla_calls``): her call succeeds
    (0) and ana's 87 + 13 = 100 ends the match, won by carla at 85: ana's chance 0 whatever
    bruno's last turn does. Replacing the 6 makes 12: carla is no longer strictly the
    lowest, her call fails, 85 + 12 + 10 = 107 ends the match; ana has 99, bruno 112 or
    more: ana wins, 100 %, in every world. Every other option makes 14 or more and loses
    (0 %). Given away: the whole match, 60 points on the scale: ``??`` (by the match,
    sampled: bruno's last turn is still to come)."""
    return golf_three().replace("ana", [1])


def golf_three_six_replaced() -> LogBuilder:
    """``golf_three``: the 6 replaced: 12, carla's call fails and ana wins the match at 99
    (every other option makes 13 or more and carla's call succeeds, 0 %): the best move,
    no mark."""
    return golf_three().replace("ana", [0])


def online_three() -> LogBuilder:
    """online (every own card peeked), three players; rows that are not Q Q K K (shooting
    the moon). bruno calls with A A 2 2 against ana's KS KC QS JC = 49 and carla's QH QD JS
    4C = 39; ana calls against bruno's KS KC QS 10C = 48 and carla's QH QD 5C 3C = 32; bruno
    against ana's KS QS 6C 6D = 37 and carla's AC AD 2C 3C = 7; ana against bruno's KS KC KH
    QS = 51 and carla's 7: ana 87, bruno 99, carla 85. Then ``carla_calls``."""
    b = LogBuilder(ONLINE_OPEN, ["ana", "bruno", "carla"])
    three_rounds(b, [["KS", "KC", "QS", "JC"], ["KS", "QS", "7C", "6D"]],
                 [["KS", "KC", "QS", "10C"], ["KS", "KC", "KH", "QS"]],
                 [["QH", "QD", "JS", "4C"], ["QH", "QD", "5C", "3C"], ["AC", "AD", "2C", "3C"],
                  ["AC", "AD", "2C", "3C"]])
    assert b.state is not None
    assert b.state.cumulative_by_name() == {"ana": 87, "bruno": 99, "carla": 85}
    return carla_calls(b)


def online_three_five_replaced() -> LogBuilder:
    """``online_three``: ana replaces the 5 with the 3D: 13; carla's 12 is strictly the
    lowest (bruno keeps 13 or more), her call succeeds and ana's 100 ends the match, won by
    carla at 85 (0 %). Replacing the 6 makes 12: carla's call fails, 85 + 12 + 5 = 102 ends
    the match, ana 99 against bruno's 112 or more: 100 % in every world. The other options
    (discard 15, a 2 replaced 16, both 2s replaced 14) lose. The whole match given away:
    ``??`` (by the match, sampled)."""
    return online_three().replace("ana", [1])


def online_three_six_replaced() -> LogBuilder:
    """``online_three``: the 6 replaced: 12, carla's call fails and ana wins the match at 99:
    the best move, no mark."""
    return online_three().replace("ana", [0])
