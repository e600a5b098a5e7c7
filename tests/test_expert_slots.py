"""The expert reads each unknown card from its slot's public record (``leans``): a card its
owner never saw is any unseen card, one they kept after seeing it leans low, one an opponent's
swap gave leans high. Positions where that record alone decides the move."""

from __future__ import annotations

import math
import random

import pytest

from cabo_log.play.counting import Counting
from cabo_log.play.expert import ExpertBot, Table, style_for
from engine import BUILTINS
from engine.events import Cabo, Draw, Event, Power, Skip
from engine.knowledge import Observation, Slot
from engine.vocabulary import Arrival, Phase, PowerKind

EDITION2 = BUILTINS["edition2"]
NEVER_SEEN = Slot(Arrival.DEALT, False)
KEPT = Slot(Arrival.KEPT, True)
KNOWN = Slot(Arrival.DEALT, True)


def observation(rows: dict[str, tuple[str | None, ...]], slots: dict[str, tuple[Slot, ...]],
                *, turn: int = 8, power: PowerKind | None = None) -> Observation:
    players = tuple(rows)
    return Observation(me="ana", players=players, active=players, round=1,
                       phase=Phase.POWER if power else Phase.TURN_START, to_play="ana",
                       rows=rows, slots=slots, discard=("5",), deck_size=30, drawn=None,
                       drawn_source=None, pending_power=power, caller=None,
                       scores=dict.fromkeys(players, 0), turn=turn, ruleset="edition2")


def table(obs: Observation) -> Table:
    return Table(obs, Counting(EDITION2), style_for(EDITION2))


def test_a_card_its_owner_never_saw_is_worth_the_pool_mean_and_a_kept_one_less() -> None:
    rows = {"ana": ("1", "2", "3", "4"), "bruno": (None, None, None, None)}
    mine = (KNOWN,) * 4
    blind = table(observation(rows, {"ana": mine, "bruno": (NEVER_SEEN,) * 4}))
    assert blind.value("bruno", 0) == blind.pool.mean   # the mean of the 45 unseen cards
    kept = table(observation(rows, {"ana": mine, "bruno": (KEPT,) * 4}))
    # the 47 unseen cards (52 less 1 2 3 4 and the 5 on the pile): their lowest 40 %, 18 cards
    assert len(kept.low) == 18 and kept.low == tuple(sorted(kept.pool.values)[:18])
    low = sum(kept.low) / 18
    share = 1 - math.exp(-(8 / 2) / 2)   # 4 turns each, keep_turns 2: 0.86, above kept_low
    assert kept.value("bruno", 0) == pytest.approx(kept.pool.mean + share * (low - kept.pool.mean))
    given = table(observation({"ana": ("1", None, "3", "4"), "bruno": rows["bruno"]},
                              {"ana": (KNOWN, Slot(Arrival.GIVEN, False), KNOWN, KNOWN),
                               "bruno": (NEVER_SEEN,) * 4}))
    assert given.value("ana", 1) > given.pool.mean   # what bruno wanted rid of


def test_calls_against_cards_nobody_saw_not_against_kept_ones() -> None:
    """ana holds 1 2 3 4 (10). bruno's four cards: never seen by him, they are four of the
    unseen cards (mean about 6.7: 27 on average), and the call wins; kept after seeing them
    on turn 8, they lean to the lowest 40 % (0s to 4s), and he beats 10 too often."""
    start: list[Event] = [Draw(None, False, "ana", "deck", None),
                          Draw(None, False, "ana", "discard", None), Cabo(None, False, "ana")]
    rows = {"ana": ("1", "2", "3", "4"), "bruno": (None, None, None, None)}
    mine = (KNOWN,) * 4
    bot = ExpertBot(EDITION2)
    blind = observation(rows, {"ana": mine, "bruno": (NEVER_SEEN,) * 4})
    assert isinstance(bot.choose(blind, start, random.Random(0)), Cabo)
    kept = observation(rows, {"ana": mine, "bruno": (KEPT,) * 4})
    assert not isinstance(ExpertBot(EDITION2).choose(kept, start, random.Random(0)), Cabo)


def test_swaps_its_high_card_for_the_one_its_owner_kept() -> None:
    """ana holds a known 13 and has a swap. bruno's slot 0 he never saw (any unseen card);
    slot 2 he put there after drawing it (a low card): the swap takes slot 2, though slot 0
    comes first among equal-looking unknown cards."""
    rows = {"ana": ("1", "13", "2", "0"), "bruno": (None, "5", None, None)}
    slots = {"ana": (KNOWN,) * 4, "bruno": (NEVER_SEEN, KNOWN, KEPT, NEVER_SEEN)}
    moves: list[Event] = [Power(None, False, "ana", "swap", None, (("ana", i), ("bruno", j)))
                          for i in range(4) for j in range(4)] + [Skip(None, False, "ana")]
    move = ExpertBot(EDITION2).choose(observation(rows, slots, power=PowerKind.SWAP), moves,
                                      random.Random(0))
    assert isinstance(move, Power) and move.cards == (("ana", 1), ("bruno", 2))
