"""The ``expert`` plays for the match, not only the round: a Cabo call that ends the match
in its favour is made whatever its hand, where the round's arithmetic alone would not call.
Each position is worked out by hand from RULES.md."""

from __future__ import annotations

import random
from dataclasses import replace

from test_expert_aims import picks, placements, seen, start

from cabo_log.play.calls import match_end
from cabo_log.play.expert import ExpertBot, Style
from cabo_log.play.expert1 import Expert1Bot
from engine import BUILTINS
from engine.events import Cabo, Discard, Replace
from engine.knowledge import Slot
from engine.vocabulary import Arrival

EDITION1 = BUILTINS["edition1"]
EDITION2 = BUILTINS["edition2"]
ONLINE = BUILTINS["online"]


def test_online_calls_to_end_the_match_while_ahead() -> None:
    """Online, ana 40, bruno 95 (the match ends when a player has >= 100). ana holds a known
    8 9 10 Q = 39, a hand nobody calls on for the round. But if she calls, bruno scores his
    whole hand: any four cards but the very lowest (>= 5) take him to 100 or more, which ends
    the match; ana has at most 40 + 39 + 5 = 84 (a failed call), the lowest total: she wins.
    The first revision, reading only the round, draws."""
    rows = {"ana": ("8H", "9S", "10D", "QC"), "bruno": (None,) * 4}
    obs = seen(ONLINE, rows, discard=("5S",), turn=6, scores={"ana": 40, "bruno": 95})
    assert picks(ExpertBot(ONLINE), obs, start()) == {start()[2]}
    assert Cabo not in {type(m) for m in picks(Expert1Bot(ONLINE), obs, start())}


def test_no_finishing_call_when_the_opponent_is_far_from_the_target() -> None:
    """The same hand at 40 against 60: bruno's hand cannot take him to 100 in one round, so
    the call is a round call like any, and 39 points of known cards do not make one."""
    rows = {"ana": ("8H", "9S", "10D", "QC"), "bruno": (None,) * 4}
    obs = seen(ONLINE, rows, discard=("5S",), turn=6, scores={"ana": 40, "bruno": 60})
    assert Cabo not in {type(m) for m in picks(ExpertBot(ONLINE), obs, start())}


def test_match_end_reads_the_target_and_the_lowest_total() -> None:
    """``match_end``: ana's match total after the round against the others' totals plus their
    round points. Online ends at >= 100, edition2 only above 100 (exactly 100 resets)."""
    assert match_end(ONLINE, 84, [95], [5], ok=False) == 1.0        # 84 against 100: won
    assert match_end(ONLINE, 84, [95], [4], ok=False) == 0.0        # 99: the match goes on
    assert match_end(ONLINE, 101, [60], [12], ok=False) == -1.0     # ana over, 72 lowest
    assert match_end(ONLINE, 100, [95], [5], ok=False) == 0.5       # 100 each: shared
    assert match_end(EDITION2, 84, [95], [5], ok=False) == 0.0      # exactly 100: goes on
    # edition1: when the call fails the lowest hand scores 0, so bruno's 5 does not count
    assert match_end(EDITION1, 104, [95], [5], ok=False) == -1.0
    assert match_end(EDITION1, 90, [95], [8], ok=True) == 1.0


def test_the_finishing_call_is_deterministic_for_a_seed() -> None:
    rows = {"ana": ("8H", "9S", "10D", "QC"), "bruno": (None,) * 4}
    obs = seen(ONLINE, rows, discard=("5S",), turn=6, scores={"ana": 40, "bruno": 95})
    a = ExpertBot(ONLINE).choose(obs, start(), random.Random(3))
    b = ExpertBot(ONLINE).choose(obs, start(), random.Random(3))
    assert a == b


def test_last_turn_lowers_the_hand_rather_than_peek() -> None:
    """Online, bruno called: this is ana's last turn, the round ends after it. She holds
    AS 2H 8D and one unknown card and draws a 7. Discarding it earns a peek, but a card seen
    now can no longer be used: worth nothing. Replacing the 8 lowers her total by 1 (the
    unknown card, about 6.7 on average, would rather gain -0.3). The first revision, valuing
    the peek as on any turn, discards."""
    rows = {"ana": ("AS", "2H", "8D", None), "bruno": (None,) * 4}
    obs = seen(ONLINE, rows, discard=("5S",), drawn="7C")
    obs.caller = "bruno"
    moves = placements(4)
    eight = Replace(None, False, "ana", (2,), None, None)
    assert picks(ExpertBot(ONLINE), obs, moves) == {eight}
    assert picks(Expert1Bot(ONLINE), obs, moves) == {Discard(None, False, "ana")}


def test_calls_when_the_opponent_scores_more_even_if_the_call_may_fail() -> None:
    """Online, ana's third turn: she knows 3H 3S and two unknown cards (about 6.7 each on
    average: some 19); she spied bruno's 10S, and his three other cards are unknown to her:
    one of his initial peek and one he kept after drawing it (both leaning low), and one he
    never saw (any unseen card). Her call succeeds (strictly lowest) about 63 % of the time,
    below the 65 % the round-points rule asks. But succeeding she scores 0 and bruno his
    total, while failing she scores her total + 5 and bruno still his: on average bruno
    scores about twelve points more than she does, where playing on with the hands as they
    stand he would score about three more (``Style.call_edge``, 10). With enough deals to
    read that figure steadily the expert calls; by the round-points rule alone it would not."""
    rows = {"ana": ("3H", "3S", None, None), "bruno": ("10S", None, None, None)}
    peeked, never = Slot(Arrival.DEALT, True), Slot(Arrival.DEALT, False)
    kept = Slot(Arrival.KEPT, True)
    slots = {"ana": (peeked, peeked, never, never),    # online's peek: slots 0 and 1
             "bruno": (peeked, peeked, kept, never)}   # and a card he kept since
    obs = seen(ONLINE, rows, discard=("9D",), turn=4, slots=slots)
    steady = ExpertBot(ONLINE, replace(Style(), samples=8000))
    assert picks(steady, obs, start()) == {start()[2]}
    round_only = ExpertBot(ONLINE, replace(Style(), samples=8000, call_edge=99.0))
    assert Cabo not in {type(m) for m in picks(round_only, obs, start())}
