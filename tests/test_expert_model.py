"""How the ``expert`` pictures an opponent's unknown cards when it weighs a Cabo call, and
when the others'-points call (``Style.call_edge``) is made. Each figure is computed here from
the position itself, independently of the bot's sampling."""

from __future__ import annotations

import math
import random
from dataclasses import replace

from test_expert_aims import seen

from cabo_log.play.calls import call_verdict, sample_call
from cabo_log.play.counting import Counting
from cabo_log.play.expert import STYLES, ExpertBot, Style, style_for
from engine import BUILTINS
from engine.knowledge import Slot
from engine.vocabulary import Arrival

EDITION2 = BUILTINS["edition2"]
ONLINE = BUILTINS["online"]


def test_an_opponents_unknown_card_is_a_kept_low_card_or_any_unseen_card() -> None:
    """Online, ana's row 2H 3H 4H AS = 10 is fully known; bruno shows 2D 3D 4D and one card
    nobody saw, after 20 turns each. The call succeeds (strictly lowest) when bruno's card is
    2 or more (9 + 2 = 11 > 10). After so many turns that card is almost surely one he kept:
    one of the lowest 40 % of the unseen cards (share ``1 - exp(-20 / 3)``), else any unseen
    card. The chance is so the mixture's: 0.722 here (the low cards are 0 to 6, 13 of the 18
    of them 2 or more). Shifting every unseen card down by the mean of what the keeping takes
    off (4.0: the expert's first model, the same mean) puts it at 0.674: a pool slid down by
    four points has no 0s to spare but many -2s and -3s, which a row never holds."""
    rows = {"ana": ("2H", "3H", "4H", "AS"), "bruno": ("2D", "3D", "4D", None)}
    obs = seen(ONLINE, rows, discard=("9C",), turn=40)
    style = replace(Style(), samples=20000, final_gain=0.0)
    bot = ExpertBot(ONLINE, style)
    pool = Counting(ONLINE).unseen(obs).values
    low = pool[:int(len(pool) * style.keep_share)]
    kept = 1.0 - math.exp(-20 / style.keep_turns)

    def share(values: tuple[int, ...], shift: float = 0.0) -> float:
        return sum(9 + round(v - shift) > 10 for v in values) / len(values)

    mixture = kept * share(low) + (1 - kept) * share(pool)
    bias = kept * (sum(pool) / len(pool) - sum(low) / len(low))
    assert abs(mixture - 0.7224) < 0.0005
    assert abs(share(pool, bias) - 0.6739) < 0.0005
    view = sample_call(ONLINE, style, bot.aims, bot._table(obs), random.Random(0))
    assert abs(view.chance - mixture) < 0.015   # 20,000 deals: a standard error of 0.0035


def test_the_others_points_call_needs_a_better_edge_than_the_hands_as_they_stand() -> None:
    """edition2 at 90 with 2 8 0 0 = 10 against four unknown cards after 5 turns each (two of
    them bruno's initial peek, two he never saw): 10
    more points land on exactly 100 and reset the match total to 50 (-40 as the match counts
    it). The call's edge (its points less bruno's) reaches -10 on some deals, the others'-
    points threshold: but not calling, with the hands as they stand, scores -40 against
    bruno's hand, far better. So no call on any seed, where the edge alone called on one."""
    rows = {"ana": ("2", "8", "0", "0"), "bruno": (None,) * 4}
    peeked, never = Slot(Arrival.DEALT, True), Slot(Arrival.DEALT, False)
    obs = seen(EDITION2, rows, discard=("13",), scores={"ana": 90, "bruno": 60},
               slots={"ana": (peeked,) * 4, "bruno": (peeked, peeked, never, never)})
    bot = ExpertBot(EDITION2)
    table = bot._table(obs)
    views = [sample_call(EDITION2, bot.style, bot.aims, table, random.Random(s))
             for s in range(16)]
    assert all(v.uncalled == -40.0 for v in views)
    assert any(v.edge <= -bot.style.call_edge for v in views)
    assert all(v.stay_edge < v.edge for v in views)
    assert {call_verdict(EDITION2, bot.style, bot.aims, table, random.Random(s))
            for s in range(16)} == {"play"}


def test_each_ruleset_plays_with_its_measured_style() -> None:
    """Golf's kept cards are the lowest 30 % of the unseen ones (``expert.STYLES``); the
    other built-in rulesets, and a house ruleset made from golf under another name, play with
    the defaults; an explicit style wins over both."""
    golf = BUILTINS["golf"]
    assert ExpertBot(golf).style == Style(keep_share=0.3) != Style()
    assert STYLES == {"golf": Style(keep_share=0.3)}
    for name in ("edition1", "edition2", "online"):
        assert ExpertBot(BUILTINS[name]).style == Style()
    assert ExpertBot(replace(golf, name="house")).style == Style()
    assert ExpertBot(golf, Style(samples=8)).style == Style(samples=8)
    assert style_for(golf).keep_share == 0.3
