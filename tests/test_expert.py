"""The ``expert`` bot: it counts cards right, plays legal and deterministic moves, makes the
decisions its expected values call for, and beats ``greedy`` heads-up."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from cabo_log.play.bots import BOTS, make_bot
from cabo_log.play.counting import known_to_fail, unseen
from cabo_log.play.expert import ExpertBot
from cabo_log.play.simulate import MAX_TURNS, simulate, simulate_game
from engine import BUILTINS
from engine.events import Cabo, Discard, Draw, Event, Power, Replace, Skip
from engine.knowledge import Observation, Slot
from engine.vocabulary import Arrival, Phase

EDITION2 = BUILTINS["edition2"]


def observation(rows: dict[str, tuple[str | None, ...]], *, discard: tuple[str, ...] = ("5",),
                drawn: str | None = None, source: str | None = None, power: str | None = None,
                caller: str | None = None, turn: int = 10, phase: str = "turn_start",
                slots: dict[str, tuple[Slot, ...]] | None = None) -> Observation:
    """ana's view of a two-player edition2 table (keywords only, so it survives new fields).
    ``slots``: every card dealt, known to its owner unless ana's own and unknown to her."""
    players = tuple(rows)
    return Observation(me="ana", players=players, active=players, round=1, phase=Phase(phase),
                       to_play="ana", rows=rows, slots=slots or dealt(rows), discard=discard,
                       deck_size=30, drawn=drawn,
                       drawn_source=source, pending_power=power, caller=caller,
                       scores=dict.fromkeys(players, 0), turn=turn, ruleset="edition2")


def dealt(rows: dict[str, tuple[str | None, ...]]) -> dict[str, tuple[Slot, ...]]:
    """Slot records of a table where nothing moved since the deal and every player knows
    their cards (ana only those her row shows)."""
    return {p: tuple(Slot(Arrival.DEALT, p != "ana" or c is not None) for c in row)
            for p, row in rows.items()}


def choose(obs: Observation, moves: list[Event], seed: int = 0) -> Event:
    return ExpertBot(EDITION2).choose(obs, moves, random.Random(seed))


def placements(size: int, *, deck: bool = True) -> list[Event]:
    from itertools import combinations
    moves: list[Event] = [Discard(None, False, "ana")] if deck else []
    for count in range(1, size + 1):
        moves += [Replace(None, False, "ana", c, None, None)
                  for c in combinations(range(size), count)]
    return moves


# --- counting --------------------------------------------------------------------------------


def test_unseen_is_the_deck_minus_everything_the_player_saw() -> None:
    obs = observation({"ana": ("0", None, "13", None), "bruno": (None, "12", None, None)},
                      discard=("5", "5", "9"), drawn="1", source="deck", phase="drawn")
    pool = unseen(obs, EDITION2)
    expected = Counter(EDITION2.values()[c] for c in EDITION2.deck_codes())
    expected.subtract([0, 13, 12, 5, 5, 9, 1])
    assert pool.by_value() == +expected
    assert len(pool.values) == 52 - 7
    assert pool.mean == pytest.approx(sum(pool.values) / 45)
    assert sorted(pool.sample(3, random.Random(1))) != [] and len(pool.sample(99,
                                                                   random.Random(1))) == 45


def test_known_to_fail_needs_two_known_different_values() -> None:
    values = EDITION2.values()
    assert known_to_fail(("4", "5", None), (0, 1), values)
    assert not known_to_fail(("4", "4", None), (0, 1), values)
    assert not known_to_fail(("4", None, None), (0, 1, 2), values)


# --- decisions -------------------------------------------------------------------------------


def test_replaces_its_worst_known_card_with_a_low_draw() -> None:
    obs = observation({"ana": ("3", "12", "2", "4"), "bruno": (None,) * 4},
                      drawn="1", source="deck", phase="drawn")
    move = choose(obs, placements(4))
    assert isinstance(move, Replace) and move.positions == (1,)


def test_pairs_known_equal_cards_but_never_lists_an_unknown_one() -> None:
    obs = observation({"ana": ("9", "2", "9", None), "bruno": (None,) * 4},
                      drawn="3", source="deck", phase="drawn")
    move = choose(obs, placements(4))
    assert isinstance(move, Replace) and move.positions == (0, 2)   # 18 points go for 3
    # with only one 9 known, a bet that the unknown card is the other 9 is never made
    obs = observation({"ana": ("9", "2", None, None), "bruno": (None,) * 4},
                      drawn="3", source="deck", phase="drawn")
    move = choose(obs, placements(4))
    assert not (isinstance(move, Replace) and len(move.positions) > 1)


def test_discards_a_high_draw_and_takes_a_low_discard() -> None:
    obs = observation({"ana": ("1", "2", "0", "3"), "bruno": (None,) * 4},
                      drawn="11", source="deck", phase="drawn")
    assert isinstance(choose(obs, placements(4)), Discard)
    start: list[Event] = [Draw(None, False, "ana", "deck", None),
                          Draw(None, False, "ana", "discard", None), Cabo(None, False, "ana")]
    obs = observation({"ana": ("13", None, "2", None), "bruno": (None,) * 4},
                      discard=("6", "0"), turn=2)
    assert choose(obs, start) == start[1]


def test_peeks_at_an_unknown_card_and_spies_on_the_opponent() -> None:
    obs = observation({"ana": ("3", "5", None, "1"), "bruno": (None,) * 4}, power="peek",
                      phase="power")
    moves: list[Event] = [Skip(None, False, "ana")] + [
        Power(None, False, "ana", "peek", ("ana", i), None) for i in range(4)]
    assert choose(obs, moves) == moves[3]
    obs = observation({"ana": ("3", "5", "2", "1"), "bruno": ("4", None, "1", "0")},
                      power="spy", phase="power")
    moves = [Skip(None, False, "ana")] + [
        Power(None, False, "ana", "spy", ("bruno", i), None) for i in range(4)]
    assert choose(obs, moves) == moves[2]


def swaps(sizes: tuple[int, int]) -> list[Event]:
    return [Skip(None, False, "ana")] + [
        Power(None, False, "ana", "swap", None, (("ana", i), ("bruno", j)))
        for i in range(sizes[0]) for j in range(sizes[1])]


def test_swaps_its_worst_card_for_a_low_one_it_saw_and_keeps_a_good_hand() -> None:
    obs = observation({"ana": ("2", "12", "1", "3"), "bruno": (None, "0", None, None)},
                      power="swap", phase="power")
    move = choose(obs, swaps((4, 4)))
    assert isinstance(move, Power) and move.cards == (("ana", 1), ("bruno", 1))
    obs = observation({"ana": ("2", "1", "1", "0"), "bruno": ("3", None, None, None)},
                      power="swap", phase="power")
    assert isinstance(choose(obs, swaps((4, 4))), Skip)


def test_calls_cabo_on_a_sure_win_and_not_on_a_weak_hand() -> None:
    start: list[Event] = [Draw(None, False, "ana", "deck", None),
                          Draw(None, False, "ana", "discard", None), Cabo(None, False, "ana")]
    strong = observation({"ana": ("0", "1", "1", "0"), "bruno": ("6", None, None, "9")},
                         turn=8)
    assert isinstance(choose(strong, start), Cabo)
    weak = observation({"ana": ("9", None, "7", None), "bruno": (None, None, None, None)},
                       turn=8)
    assert not isinstance(choose(weak, start), Cabo)


# --- whole matches ---------------------------------------------------------------------------

TABLES: list[tuple[str, int, dict[str, Any], str]] = [
    ("edition1", 4, {"target": 50}, "expert,greedy,random,cautious"),
    ("edition1", 5, {"decks": 2, "target": 20}, "expert"),
    ("edition2", 3, {"target": 50}, "greedy,expert"),
    ("golf", 3, {"jokers": True, "kamikaze": True, "target": 50}, "expert,random"),
    ("golf", 2, {"open_peek": True, "target": 50}, "expert"),
    ("online", 4, {"target": 50}, "expert,greedy"),
]


@pytest.mark.parametrize(("ruleset", "players", "options", "bots"), TABLES)
def test_expert_plays_legal_and_deterministic_matches(ruleset: str, players: int,
                                                      options: dict[str, Any], bots: str) -> None:
    """The simulator raises on any illegal move; the same seed gives the same match; rounds
    end by a call well before the simulator's own limit, even at a table of experts."""
    forfeits = 0.003 if ruleset == "online" else 0.0
    game = simulate(ruleset, players=players, seed=4, options=options, bots=bots,
                    forfeit_rate=forfeits, auto_rate=0.01)
    again = simulate_game(ruleset, players=players, seed=4, options=options, bots=bots,
                          forfeit_rate=forfeits, auto_rate=0.01)
    assert game.events == again and again[-1]["type"] == "game_end"
    assert max(r.turns for r in game.state.rounds) < MAX_TURNS // 2
    other = simulate_game(ruleset, players=players, seed=5, options=options, bots=bots)
    assert other != again


def test_expert_is_registered() -> None:
    assert "expert" in BOTS and isinstance(make_bot("expert", EDITION2), ExpertBot)


def test_expert_beats_greedy_heads_up() -> None:
    """40 short heads-up matches, seats alternated: the benchmark measures ~75-90 % wins over
    full matches; a lenient bar here still fails a bot no better than greedy."""
    wins = 0.0
    points: dict[str, list[int]] = {"expert": [], "greedy": []}
    matches = 40
    rulesets = list(BUILTINS)
    for index in range(matches):
        table = ["expert", "greedy"] if index % 2 == 0 else ["greedy", "expert"]
        game = simulate(rulesets[index % 4], players=2, seed=1000 + index,
                        options={"target": 50}, bots=table)
        kind = dict(zip(game.state.players, table, strict=True))
        winners = game.state.winners
        wins += sum(kind[w] == "expert" for w in winners) / len(winners)
        for result in game.state.rounds:
            for player, value in result.points.items():
                points[kind[player]].append(value)
    mean = {k: sum(v) / len(v) for k, v in points.items()}
    assert wins >= 0.6 * matches, (wins, mean)
    assert mean["expert"] < 0.8 * mean["greedy"], mean
