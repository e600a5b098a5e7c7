"""Hand-worked positions in each of the four rulesets (``tests/test_analysis_rulesets.py``):
each builds a log whose last decision is a clear blunder (``BLUNDERS``) or the best move or
one within a point of it (``NO_MARK``); the arithmetic is in each builder's docstring.
golf's and online's positions of the match, and golf's Kamikaze, are in
``tests/golf_online_positions.py``. Every builder here plays a round-1 position (match
totals 0, judged by round points) unless it says otherwise."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from analysis_positions import OPEN_EDITION1, last_turn, ninety
from golf_online_positions import (
    GOLF_OPEN,
    golf_kamikaze_broken,
    golf_kamikaze_broken_a_point_worse,
    golf_kamikaze_left_standing,
    golf_match_won_either_way,
    golf_point_loses_match,
    golf_point_wins_match,
    golf_three_five_replaced,
    golf_three_six_replaced,
    online_match_won_either_way,
    online_point_loses_match,
    online_point_wins_match,
    online_three_five_replaced,
    online_three_six_replaced,
    quick_round,
)

from cabo_log.log.builder import LogBuilder

EDITION2_OPEN: dict[str, Any] = {"base": "edition2", "name": "edition2-open", "peek_count": 4}
Position = Callable[[], LogBuilder]


# --- edition1 ---------------------------------------------------------------------------------

def e1_zero_discarded() -> LogBuilder:
    """edition1, ana knows her whole row 13 12 11 10 = 46 and draws a 0 on the last turn.
    Discarding keeps 46; replacing the 13 gives 33. She scores 0 only when strictly below
    bruno (the caller takes a tie), whose four cards she has not seen (46 cards left, 4 of
    them: a total above 33 is rare, about 1 in 6). Discarding: ~46 x 0.97; replacing the 13:
    ~33 x 0.85. Loss about 16 points: ``??`` (exact)."""
    return last_turn(OPEN_EDITION1, ["13", "12", "11", "10"], ["6", "6", "7", "7"],
                     "0").discard("ana")


def e1_thirteen_replaced() -> LogBuilder:
    """The same position, the 13 replaced by the 0: the best move (every other placement
    keeps a higher total, card for card): no mark."""
    return last_turn(OPEN_EDITION1, ["13", "12", "11", "10"], ["6", "6", "7", "7"],
                     "0").replace("ana", [0])


def e1_six_for_twelve() -> LogBuilder:
    """edition1: ana knows her row 13 12 11 10 = 46 and has spied all of bruno's, 0 1 1 2
    = 4 (with two 9s and two 10s). bruno calls; ana draws a 6 (no power). She cannot be
    the lowest, so she scores her total: replacing the 12 gives 40, replacing the 13 gives
    39: exactly one point: no mark (exact). (Where bruno's cards are unseen the same point
    is worth more than one, by the chance that it makes her the lowest: with 9 8 5 4 and a 7,
    1.7 points, a fair ``?!``.)"""
    b = LogBuilder(OPEN_EDITION1, ["ana", "bruno"])
    b.deal({"ana": ["13", "12", "11", "10"], "bruno": ["0", "1", "1", "2"]}, "4",
           ["9", "3", "10", "3", "9", "3", "10", "6"], first="ana")
    b.peek("ana", [0, 1, 2, 3]).peek("bruno", [0, 1, 2, 3])
    for position in range(4):
        b.draw("ana", "deck").discard("ana").spy("ana", "bruno", position)
        if position < 3:
            b.draw("bruno", "deck").discard("bruno")
    b.cabo("bruno").draw("ana", "deck").replace("ana", [1])
    return b


def e1_must_fail() -> LogBuilder:
    """edition1, ana peeked at 0 and 1 (a 5 and a 4), draws a 13 and lists both for a
    multi-replacement: the values differ, so it fails and the 13 joins her row (5 9 4 9 13
    in truth; from her knowledge 9 + 13 + two unseen cards, about 35). Discarding keeps
    about 22 and she is the lowest against bruno's four unseen cards (about 26) about half
    the time; with 13 more she almost never is. Loss about 20: ``??`` (sampled)."""
    return last_turn("edition1", ["5", "4", "9", "9"], ["6", "6", "7", "7"], "13",
                     peek=(0, 1)).replace("ana", [0, 1])


def e1_kamikaze_missed() -> LogBuilder:
    """edition1, ana knows 12 12 13 5 and draws a 13: replacing the 5 makes 12 12 13 13, a
    Kamikaze (0 for her, 50 for bruno); discarding keeps 42, almost never the lowest:
    about 42 points given away: ``??`` (exact)."""
    return last_turn(OPEN_EDITION1, ["12", "12", "13", "5"], ["6", "6", "7", "7"],
                     "13").discard("ana")


def e1_swap_skipped() -> LogBuilder:
    """edition1, ana knows her row 13 13 1 1 = 28 and spied bruno's first card, a 0. On the
    last turn she draws a 12 and skips its swap. Swapping a 13 with bruno's 0 leaves her 15
    and gives bruno at least 13 + 0 + 1 + 1 = 15 (a tie goes to the caller, but only with
    both 0s and an ace in his three unseen cards, which ana holds one 0... about 1 in 1000):
    she scores ~0. Skipping: 28 against bruno's 0 and three unseen cards (about 19.5): she is
    not the lowest about 9 times in 10: ~25 points given away: ``??`` (exact)."""
    b = LogBuilder(OPEN_EDITION1, ["ana", "bruno"])
    b.deal({"ana": ["13", "13", "1", "1"], "bruno": ["0", "6", "7", "8"]}, "3",
           ["9", "12"], first="ana")
    b.peek("ana", [0, 1, 2, 3]).peek("bruno", [0, 1, 2, 3])
    b.draw("ana", "deck").discard("ana").spy("ana", "bruno", 0)
    b.cabo("bruno").draw("ana", "deck").discard("ana").skip("ana")
    return b


def e1_ninety_replaced() -> LogBuilder:
    """The 90-point example (``analysis_positions.ninety``): replacing the 8 (94 points, one
    round from the end with bruno at 48) where keeping the 10 lands on exactly 100 and resets
    to 50: ``??`` by the match."""
    return ninety().replace("ana", [0])


def e1_ninety_kept() -> LogBuilder:
    """The 90-point example, the drawn 2 discarded: the 10 is kept, exactly 100, reset to
    50: the best move by the match: no mark."""
    return ninety().discard("ana")


def e1_ninety_one_replaced() -> LogBuilder:
    """One point apart: ana at 91 (the same match, her third round scored 42). Keeping the
    10 now makes 101: the match ends and bruno (48) wins. Replacing the 8 with the 2 scores
    4: 95, the match goes on: the best move by the match: no mark."""
    return ninety(third=["12", "12", "11", "2"]).replace("ana", [0])


# --- edition2 ---------------------------------------------------------------------------------

def e2_zero_discarded() -> LogBuilder:
    """edition2 (non-callers score their total), ana knows 13 12 11 10 and draws a 0:
    discarding scores 46, replacing the 13 scores 33, whatever bruno holds (unless his
    Kamikaze: 50 either way): exactly 13 given away: ``??`` (exact)."""
    return last_turn(EDITION2_OPEN, ["13", "12", "11", "10"], ["6", "6", "7", "7"],
                     "0").discard("ana")


def e2_ninety(third_cards: Sequence[str] = ("12", "11", "5", "1")) -> LogBuilder:
    """edition2 with every own card peeked (a house rule on edition2: the same match
    rules, exactly 100 resets to 50 once). Round 1: bruno calls with 0 0 1 1 against ana's
    13 13 12 11: ana 49. Round 2 (bruno first: he scored fewest): bruno calls with 12 12 11
    8 = 43 against 0 0 1 1: he fails, 53; ana 2. Round 3 (ana first): ana calls with
    ``third_cards`` (29) against 0 0 1 1 and fails: 39, so ana 90, bruno 55. Round 4 (bruno
    first): ana knows her row 8 1 1 0 = 10; bruno calls at once; ana draws a 2.
    Keeping the 10 lands on exactly 100: reset to 50 (bruno's 55 plus his round). Replacing
    the 8 scores 4 (a non-caller scores her total): 94 against bruno's 55 plus a failed
    call's 10 and his hand: the match most likely ends next round with ana behind."""
    b = LogBuilder(EDITION2_OPEN, ["ana", "bruno"])
    quick_round(b, "bruno", {"ana": ["13", "13", "12", "11"], "bruno": ["0", "0", "1", "1"]})
    quick_round(b, "bruno", {"ana": ["0", "0", "1", "1"], "bruno": ["12", "12", "11", "8"]})
    quick_round(b, "ana", {"ana": list(third_cards), "bruno": ["0", "0", "1", "1"]})
    assert b.state is not None
    totals = b.state.cumulative_by_name()
    assert totals == {"ana": 90, "bruno": 55}, totals
    b.deal({"ana": ["8", "1", "1", "0"], "bruno": ["6", "6", "7", "7"]}, "4", ["2"],
           first="bruno")
    b.peek("ana", [0, 1, 2, 3]).peek("bruno", [0, 1, 2, 3])
    b.cabo("bruno").draw("ana", "deck")
    return b


def e2_ninety_replaced() -> LogBuilder:
    """edition2 at 90 (reset unused): replacing the 8 where keeping the 10 resets to 50:
    ``??`` by the match."""
    return e2_ninety().replace("ana", [0])


def e2_ninety_kept() -> LogBuilder:
    """edition2 at 90: keeping the 10 (exactly 100, reset to 50): the best: no mark."""
    return e2_ninety().discard("ana")


def e2_ninety_reset_spent() -> LogBuilder:
    """edition2 with every own card peeked, ana's once-only reset already spent. Round 1:
    bruno calls with 12 12 11 8 = 43 against 0 0 1 1 and fails: bruno 53, ana 2. Round 2:
    ana calls with 13 13 12 11 = 49 against 0 0 1 1 and fails: 59, ana 61, bruno 55. Round
    3: bruno calls with 0 0 1 1 against ana's 13 13 12 1 = 39: ana exactly 100, reset to 50
    (her once). Round 4: the same against 13 13 12 2 = 40: ana 90, bruno 55. Round 5: ana
    knows 8 1 1 0 = 10; bruno calls at once; ana draws a 2.
    Keeping the 10 lands on exactly 100 a second time: no reset, the match ends, and ana
    (100) wins only if bruno's round (a failed call: his four cards + 10) takes him past
    100, that is if his cards total 35 or more (about 15 %). Replacing the 8 scores 4: 94,
    and the match goes on with bruno about 91 (about 48 %): keeping is the blunder here,
    where with the reset unused it was the best move."""
    b = LogBuilder(EDITION2_OPEN, ["ana", "bruno"])
    quick_round(b, "bruno", {"ana": ["0", "0", "1", "1"], "bruno": ["12", "12", "11", "8"]})
    quick_round(b, "ana", {"ana": ["13", "13", "12", "11"], "bruno": ["0", "0", "1", "1"]})
    quick_round(b, "bruno", {"ana": ["13", "13", "12", "1"], "bruno": ["0", "0", "1", "1"]})
    quick_round(b, "bruno", {"ana": ["13", "13", "12", "2"], "bruno": ["0", "0", "1", "1"]})
    assert b.state is not None
    assert b.state.cumulative_by_name() == {"ana": 90, "bruno": 55}
    assert [r.resets for r in b.state.rounds] == [(), (), ("ana",), ()]
    b.deal({"ana": ["8", "1", "1", "0"], "bruno": ["6", "6", "7", "7"]}, "4", ["2"])
    b.peek("ana", [0, 1, 2, 3]).peek("bruno", [0, 1, 2, 3])
    b.cabo("bruno").draw("ana", "deck")
    return b


def e2_spent_kept() -> LogBuilder:
    """edition2 at 90 with the reset spent: the 10 kept, 100 a second time: ``??`` by the
    match."""
    return e2_ninety_reset_spent().discard("ana")


def e2_spent_replaced() -> LogBuilder:
    """edition2 at 90 with the reset spent: the 8 replaced (94): the best: no mark."""
    return e2_ninety_reset_spent().replace("ana", [0])


def e2_must_fail() -> LogBuilder:
    """edition2 (``tests/analysis_logs.must_fail_log``): ana knows her 5 and 4, draws a 13
    and lists both: the replacement fails and the 13 joins her row: 13 more points than
    discarding (a non-caller scores her total): ``??`` (sampled: two unseen own cards)."""
    return last_turn("edition2", ["5", "4", "9", "9"], ["6", "6", "7", "7"], "13",
                     peek=(0, 1), discard="3").replace("ana", [0, 1])


def e2_kamikaze_missed() -> LogBuilder:
    """edition2, ana knows 12 12 13 5 and draws a 13: replacing the 5 is a Kamikaze (0, and
    it beats bruno's call), discarding scores 42: 42 given away: ``??`` (exact)."""
    return last_turn(EDITION2_OPEN, ["12", "12", "13", "5"], ["6", "6", "7", "7"],
                     "13").discard("ana")


def e2_eight_for_nine() -> LogBuilder:
    """edition2, ana knows 9 8 5 4 and draws a 7: replacing the 8 scores 25, the 9 24:
    exactly one point: no mark (exact)."""
    return last_turn(EDITION2_OPEN, ["9", "8", "5", "4"], ["6", "6", "7", "7"],
                     "7").replace("ana", [1])


# --- golf -------------------------------------------------------------------------------------

def golf_two_discarded() -> LogBuilder:
    """golf with open_peek (ana knows KS 4C 5C 6C = 13 + 4 + 5 + 6 = 28), the last turn: she
    draws the 2H and discards it (28 points as a non-caller) where replacing the black king
    scores 2 + 4 + 5 + 6 = 17 (a king replaced out earns no power): 11 given away: ``??``
    (exact)."""
    return last_turn("golf", ["KS", "4C", "5C", "6C"], ["8H", "8D", "9H", "9D"], "2H",
                     discard="3D", options=GOLF_OPEN).discard("ana")


def golf_king_replaced() -> LogBuilder:
    """The same position, the black king replaced by the 2: 17, the best: no mark."""
    return last_turn("golf", ["KS", "4C", "5C", "6C"], ["8H", "8D", "9H", "9D"], "2H",
                     discard="3D", options=GOLF_OPEN).replace("ana", [0])


def golf_red_king_replaced() -> LogBuilder:
    """golf with open_peek: ana knows KH 4C 5C 6C (-1 + 4 + 5 + 6 = 14), draws the 2H and
    replaces her red king (-1) with it: 17, where replacing the 6 gives 12: 5 points...
    (a mistake, not a blunder); replacing the 6C is best. Used for the 'within a point'
    case: replacing the 5C (13) instead of the 6C (12): one point: no mark (exact)."""
    return last_turn("golf", ["KH", "4C", "5C", "6C"], ["8H", "8D", "9H", "9D"], "2H",
                     discard="3D", options=GOLF_OPEN).replace("ana", [2])


def golf_swap_skipped() -> LogBuilder:
    """golf (open_peek): ana knows KS 4C 5C 6C and spied bruno's red king (-1). On the last
    turn she discards a jack and skips its swap; swapping her black king (13) with bruno's
    red king (-1) scores 14 points less: ``??`` (exact)."""
    b = LogBuilder("golf", ["ana", "bruno"], options=GOLF_OPEN)
    b.deal({"ana": ["KS", "4C", "5C", "6C"], "bruno": ["KH", "8H", "9H", "10H"]}, "3D",
           ["9C", "JC"], first="ana")
    b.peek("ana", [0, 1, 2, 3]).peek("bruno", [0, 1, 2, 3])
    b.draw("ana", "deck").discard("ana").spy("ana", "bruno", 0)
    b.cabo("bruno").draw("ana", "deck").discard("ana").skip("ana")
    return b


def golf_jack_replaced_swap_skipped() -> LogBuilder:
    """golf (open_peek): ana knows JS 4C 5C 6C (11 + 15 = 26) and spied bruno's red king.
    On the last turn she draws the 2H and replaces her jack with it (2 + 15 = 17): the jack
    on the pile earns a swap (golf: the card the turn put on the pile). She skips it, where
    swapping her 6C with bruno's red king scores 2 + 4 + 5 - 1 = 10: 7 given away: ``??``
    (exact)."""
    b = LogBuilder("golf", ["ana", "bruno"], options=GOLF_OPEN)
    b.deal({"ana": ["JS", "4C", "5C", "6C"], "bruno": ["KH", "8H", "9H", "10H"]}, "3D",
           ["9C", "2H"], first="ana")
    b.peek("ana", [0, 1, 2, 3]).peek("bruno", [0, 1, 2, 3])
    b.draw("ana", "deck").discard("ana").spy("ana", "bruno", 0)
    b.cabo("bruno").draw("ana", "deck").replace("ana", [0]).skip("ana")
    return b


# --- online -----------------------------------------------------------------------------------

def online_king_over_ace() -> LogBuilder:
    """online, ana peeked at her ace and 2 (positions 0 and 1), draws the KS on the last
    turn and replaces her ace with it: 12 points more than discarding (a non-caller scores
    her total; the unseen cards are the same either way): ``??`` (exact)."""
    return last_turn("online", ["AS", "2S", "9D", "9C"], ["6H", "6D", "7H", "7D"], "KS",
                     discard="3D", peek=(0, 1)).replace("ana", [0])


def online_king_discarded() -> LogBuilder:
    """The same position, the king discarded: the best: no mark."""
    return last_turn("online", ["AS", "2S", "9D", "9C"], ["6H", "6D", "7H", "7D"], "KS",
                     discard="3D", peek=(0, 1)).discard("ana")


def online_eight_for_nine() -> LogBuilder:
    """online, ana knows her 9D and 8C (positions 0 and 1) and draws the 7H: replacing the
    8C leaves one point more than replacing the 9D: no mark (exact)."""
    return last_turn("online", ["9D", "8C", "5D", "4C"], ["6H", "6D", "7S", "7D"], "7H",
                     discard="3D", peek=(0, 1)).replace("ana", [1])


def online_must_fail() -> LogBuilder:
    """online, ana knows her 5S and 4S (0 and 1), draws the KS and lists both: the values
    differ, the replacement fails and the king joins her row (at the right end): 13 more
    points than discarding, as a non-caller: ``??`` (sampled)."""
    return last_turn("online", ["5S", "4S", "9D", "9C"], ["6H", "6D", "7H", "7D"], "KS",
                     discard="3D", peek=(0, 1)).replace("ana", [0, 1], end="right")


def online_moon_missed() -> LogBuilder:
    """online (shoot the moon: Q Q K K scores 0 and every other active player half the
    target, 50): ana peeked at QS QH, then at her KS (a 7's peek) and her 5C (an 8's). On
    the last turn she draws the KH and discards it: 12 + 12 + 13 + 5 = 42 points where
    replacing the 5C makes Q Q K K: 0. 42 given away: ``??`` (exact)."""
    b = LogBuilder("online", ["ana", "bruno"])
    b.deal({"ana": ["QS", "QH", "KS", "5C"], "bruno": ["6H", "6D", "7H", "7D"]}, "3D",
           ["7C", "3C", "8C", "KH"], first="ana")
    b.peek("ana", [0, 1]).peek("bruno", [0, 1])
    b.draw("ana", "deck").discard("ana").peek_power("ana", 2)
    b.draw("bruno", "deck").discard("bruno")
    b.draw("ana", "deck").discard("ana").peek_power("ana", 3)
    b.cabo("bruno").draw("ana", "deck").discard("ana")
    return b


def online_swap_skipped() -> LogBuilder:
    """online: ana knows her KS (position 0) and spied bruno's joker (0). On the last turn
    she draws the JD, discards it and skips the swap: swapping the king with the joker
    scores 13 less (a non-caller scores her total): ``??`` (exact over her two unseen
    cards, the same in both options)."""
    b = LogBuilder("online", ["ana", "bruno"])
    b.deal({"ana": ["KS", "2S", "9D", "9C"], "bruno": ["JK", "6D", "7H", "7D"]}, "3D",
           ["9H", "JD"], first="ana")
    b.peek("ana", [0, 1]).peek("bruno", [0, 1])
    b.draw("ana", "deck").discard("ana").spy("ana", "bruno", 0)
    b.cabo("bruno").draw("ana", "deck").discard("ana").skip("ana")
    return b


# --- a Cabo call at the first turn (sampled: the rest of the round is played by the bots) ----

def first_call(ruleset: str | dict[str, Any], ana: Sequence[str], bruno: Sequence[str],
               discard: str, peek: Sequence[int], options: dict[str, Any] | None = None
               ) -> LogBuilder:
    """ana, first to play, calls Cabo at once having peeked at ``peek``."""
    b = LogBuilder(ruleset, ["ana", "bruno"], options=options)
    b.deal({"ana": list(ana), "bruno": list(bruno)}, discard, rest=7, first="ana")
    rules = b.rules
    assert rules is not None
    b.peek("ana", list(peek)).peek("bruno", list(rules.peek_positions or peek))
    return b.cabo("ana")


def e1_call_on_46() -> LogBuilder:
    """edition1, ana knows 13 12 11 10 = 46 and calls at once: bruno's four cards (about
    26) are almost surely lower, so she fails: 46 + 5 = 51. Drawing on, she replaces her
    highest cards turn after turn and scores far less (a greedy continuation ends around
    15-25): some 25 points given away: ``??`` (sampled)."""
    return first_call(OPEN_EDITION1, ["13", "12", "11", "10"], ["6", "6", "7", "7"], "3",
                      (0, 1, 2, 3))


def e1_call_on_2() -> LogBuilder:
    """edition1, ana knows 0 1 1 0... (0 1 0 1 = 2) and calls at once: bruno would need
    under 2 after one turn to beat her (the caller takes a tie): she scores 0, the least
    there is: the best move: no mark (sampled)."""
    return first_call(OPEN_EDITION1, ["0", "1", "0", "1"], ["6", "6", "7", "7"], "3",
                      (0, 1, 2, 3))


def e2_call_on_46() -> LogBuilder:
    """edition2: as ``e1_call_on_46`` with a penalty of 10: 56 against a continuation
    scoring about 15-25: ``??`` (sampled)."""
    return first_call(EDITION2_OPEN, ["13", "12", "11", "10"], ["6", "6", "7", "7"], "3",
                      (0, 1, 2, 3))


def golf_call_on_46() -> LogBuilder:
    """golf (open_peek): ana knows KS QS JS 10S = 46 and calls at once: she fails (strictly
    lower is needed): 56, against about 15-25 drawing on: ``??`` (sampled)."""
    return first_call("golf", ["KS", "QS", "JS", "10S"], ["6H", "6D", "7H", "7D"], "3D",
                      (0, 1, 2, 3), GOLF_OPEN)


def online_call_on_kings() -> LogBuilder:
    """online, ana peeked at KS KC (positions 0 and 1; 2 and 3 unseen, about 6.5 each) and
    calls at once: about 39 + 5 = 44 (bruno's four cards, about 26, are lower), against
    about 15-25 replacing the kings turn after turn: ``??`` (sampled)."""
    return first_call("online", ["KS", "KC", "9D", "9C"], ["6H", "6D", "7H", "7D"], "3D",
                      (0, 1))


BLUNDERS: dict[str, dict[str, Position]] = {
    "edition1": {"0 discarded over 13 12 11 10": e1_zero_discarded,
                 "known to fail": e1_must_fail, "Kamikaze missed": e1_kamikaze_missed,
                 "swap skipped": e1_swap_skipped, "Cabo called on 46": e1_call_on_46,
                 "90: 8 replaced, 100 -> 50 missed":
                 e1_ninety_replaced},
    "edition2": {"0 discarded over 13 12 11 10": e2_zero_discarded,
                 "known to fail": e2_must_fail, "Kamikaze missed": e2_kamikaze_missed,
                 "Cabo called on 46": e2_call_on_46,
                 "90, reset spent: the 10 kept, 100 a second time": e2_spent_kept,
                 "90: 8 replaced, 100 -> 50 missed": e2_ninety_replaced},
    "golf": {"2 discarded over a black king": golf_two_discarded,
             "swap skipped": golf_swap_skipped, "Cabo called on 46": golf_call_on_46,
             "jack replaced out, its swap skipped": golf_jack_replaced_swap_skipped,
             "match: a point more, 100 reached": golf_point_loses_match,
             "Kamikaze: bruno's left standing": golf_kamikaze_left_standing,
             "match, sampled: 13, carla's call succeeds, 100": golf_three_five_replaced},
    "online": {"king over a known ace": online_king_over_ace, "known to fail": online_must_fail,
               "moon missed": online_moon_missed, "swap skipped": online_swap_skipped,
               "Cabo called on two kings": online_call_on_kings,
               "match: a point more, 100 reached": online_point_loses_match,
               "match, sampled: 13, carla's call succeeds, 100": online_three_five_replaced},
}

NO_MARK: dict[str, dict[str, Position]] = {
    "edition1": {"13 replaced by the 0": e1_thirteen_replaced,
                 "12 replaced, the 13 a point better": e1_six_for_twelve,
                 "90: the 10 kept, 100 -> 50": e1_ninety_kept,
                 "91: the 8 replaced, 101 avoided": e1_ninety_one_replaced,
                 "Cabo called on 2": e1_call_on_2},
    "edition2": {"8 replaced, the 9 a point better": e2_eight_for_nine,
                 "90, reset spent: the 8 replaced": e2_spent_replaced,
                 "90: the 10 kept, 100 -> 50": e2_ninety_kept},
    "golf": {"black king replaced": golf_king_replaced,
             "5 replaced, the 6 a point better": golf_red_king_replaced,
             "match: a point less, bruno's call fails": golf_point_wins_match,
             "match: won either way, 7 points apart": golf_match_won_either_way,
             "Kamikaze: broken, the best swap": golf_kamikaze_broken,
             "Kamikaze: broken, a point worse": golf_kamikaze_broken_a_point_worse,
             "match, sampled: 12, carla's call fails": golf_three_six_replaced},
    "online": {"king discarded": online_king_discarded,
               "8 replaced, the 9 a point better": online_eight_for_nine,
               "match: a point less, bruno's call fails": online_point_wins_match,
               "match: won either way, 7 points apart": online_match_won_either_way,
               "match, sampled: 12, carla's call fails": online_three_six_replaced},
}
