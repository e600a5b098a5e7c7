"""RULES.md "Setup of every round": the initial peek, who starts each round, turn order."""

from __future__ import annotations

import pytest

from cabo_log.log.builder import LogBuilder
from engine import IllegalEventError, InconsistentLogError

from .helpers import cabo_round, game, knows, last, quiet_turn, rejected, st, to_play

E1_HANDS = {"ana": ["1", "2", "3", "4"], "bruno": ["5", "6", "7", "8"]}
GOLF_HANDS = {"ana": ["AS", "2S", "3S", "4S"], "bruno": ["5S", "6S", "7S", "8S"]}


def known_positions(b: LogBuilder, player: str) -> list[int]:
    return [i for i in range(4) if knows(b, player, player, i)]


# --- initial peek ----------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", ["edition1", "edition2"])
@pytest.mark.parametrize("positions", [[0, 1], [1, 3], [3, 2], [0, 3]])
def test_initial_peek_editions_any_two_positions(ruleset: str, positions: list[int]) -> None:
    b = game(ruleset).deal(E1_HANDS, "9")
    b.peek("ana", positions)
    assert known_positions(b, "ana") == sorted(positions)
    assert known_positions(b, "bruno") == []  # bruno chose no peek: knows none of his cards


@pytest.mark.parametrize("ruleset", ["edition1", "edition2"])
@pytest.mark.parametrize("positions", [[0], [0, 1, 2], [1, 1], [0, 4]])
def test_initial_peek_editions_exactly_two_distinct(ruleset: str, positions: list[int]) -> None:
    b = game(ruleset).deal(E1_HANDS, "9")
    code = "bad_position" if 4 in positions else "bad_peek"
    with rejected(code, IllegalEventError):
        b.peek("ana", positions)


def test_initial_peek_editions_not_logged_knows_nothing() -> None:
    b = game("edition1").deal(E1_HANDS, "9")
    assert known_positions(b, "ana") == [] and known_positions(b, "bruno") == []


def test_initial_peek_golf_outer_pair() -> None:
    b = game("golf").deal(GOLF_HANDS, "9S")
    # at the deal nobody has looked yet: the peek events teach the fixed positions
    assert known_positions(b, "ana") == [] and known_positions(b, "bruno") == []
    b.peek("bruno", [3, 0])  # any order
    assert known_positions(b, "bruno") == [0, 3] and known_positions(b, "ana") == []
    with rejected("bad_peek", IllegalEventError):
        b.peek("ana", [0, 1])
    # not logged: the engine applies the fixed positions 0 and 3 when the first turn begins
    b.draw("ana")
    assert known_positions(b, "ana") == [0, 3]


def test_initial_peek_golf_open_peek_all_four() -> None:
    b = game("golf", open_peek=True).deal(GOLF_HANDS, "9S")
    assert known_positions(b, "ana") == []
    b.peek("bruno", [3, 2, 1, 0])
    assert known_positions(b, "bruno") == [0, 1, 2, 3]
    with rejected("bad_peek", IllegalEventError):
        b.peek("ana", [0, 3])  # open_peek: the count is 4
    b.cabo("ana")   # a Cabo call begins the round's first turn too
    assert known_positions(b, "ana") == [0, 1, 2, 3]


def test_initial_peek_online_positions_0_and_1() -> None:
    b = game("online").deal(GOLF_HANDS, "9S")
    assert known_positions(b, "ana") == [] and known_positions(b, "bruno") == []
    b.peek("bruno", [1, 0])
    assert known_positions(b, "bruno") == [0, 1]
    assert not knows(b, "bruno", "ana", 0)  # only own cards
    with rejected("bad_peek", IllegalEventError):
        b.peek("ana", [0, 3])
    b.draw("ana")
    assert known_positions(b, "ana") == [0, 1]
    assert not knows(b, "ana", "bruno", 0) and not knows(b, "bruno", "ana", 0)


def test_the_implied_peeks_are_in_the_first_turns_outcome() -> None:
    """Whoever follows knowledge by outcomes (the simulator's observer) learns the implied
    peeks from the event that began the round: the first draw's, or a first Cabo call's."""
    from engine.outcome import Drew, Ended

    b = game("online").deal(GOLF_HANDS, "9S", first="ana")
    b.peek("bruno", [0, 1])
    b.draw("ana")
    done = b.outcome
    assert isinstance(done, Drew)
    seat = {"ana": 0, "bruno": 1}
    row = st(b).round.rows[seat["ana"]]
    implied = {(seat["ana"], row[0]), (seat["ana"], row[1])}
    assert implied <= set(done.learned) and len(done.learned) == 3   # + the drawn card
    c = game("online").deal(GOLF_HANDS, "9S", first="ana")
    c.cabo("ana")
    called = c.outcome
    assert isinstance(called, Ended)
    assert {s for s, _ in called.learned} == {0, 1} and len(called.learned) == 4


def test_initial_peek_before_first_turn_only() -> None:
    b = game("edition1").deal(E1_HANDS, "9", ["1"])
    b.draw("ana").discard("ana")
    with rejected("peek_too_late", IllegalEventError):
        b.peek("bruno", [0, 1])


def test_initial_peek_after_cabo_on_first_turn_too_late() -> None:
    b = game("edition1").deal(E1_HANDS, "9")
    b.cabo("ana")
    with rejected("peek_too_late", IllegalEventError):
        b.peek("bruno", [0, 1])


def test_initial_peek_once_per_round() -> None:
    b = game("edition1").deal(E1_HANDS, "9")
    b.peek("ana", [0, 1])
    with rejected("already_peeked", IllegalEventError):
        b.peek("ana", [2, 3])


def test_initial_peek_again_next_round() -> None:
    b = game("edition1").deal(E1_HANDS, "9", ["1"]).peek("ana", [0, 1])
    cabo_round(b, "ana")
    b.deal(E1_HANDS, "9", first="bruno").peek("ana", [2, 3])
    assert known_positions(b, "ana") == [2, 3]  # a new round: old knowledge gone


# --- first player, round 1 and turn order ----------------------------------------------------

@pytest.mark.parametrize("ruleset", ["edition1", "edition2", "golf", "online"])
def test_first_player_round_1_log_names(ruleset: str) -> None:
    if ruleset.startswith("edition"):
        hands, discard = {**E1_HANDS, "carla": ["9", "10", "11", "12"]}, "9"
    else:
        hands, discard = {**GOLF_HANDS, "carla": ["9H", "10H", "JH", "QH"]}, "9D"
    b = game(ruleset, ["ana", "bruno", "carla"]).deal(hands, discard, first="bruno")
    assert to_play(b) == "bruno"  # not the first seat: the log decides


def test_turn_order_is_seat_order_wrapping() -> None:
    b = game("edition1", ["ana", "bruno", "carla"])
    b.deal({"ana": ["1", "1", "1", "1"], "bruno": ["2", "2", "2", "2"],
            "carla": ["3", "3", "3", "3"]}, "4", ["5", "5", "5", "5"], first="carla")
    order = []
    for _ in range(4):
        order.append(to_play(b))
        quiet_turn(b)
    assert order == ["carla", "ana", "bruno", "carla"]


# --- first player, later rounds --------------------------------------------------------------

@pytest.mark.parametrize("ruleset", ["edition1", "online"])
@pytest.mark.parametrize("second", ["ana", "bruno"])
def test_first_player_later_rounds_log_names(ruleset: str, second: str) -> None:
    hands = E1_HANDS if ruleset == "edition1" else GOLF_HANDS
    discard = "9" if ruleset == "edition1" else "9S"
    b = game(ruleset).deal(hands, discard, first="ana")
    cabo_round(b, "ana")
    b.deal(hands, discard, first=second)
    assert to_play(b) == second


def _edition2_round(hands: dict[str, list[str]], first: str) -> LogBuilder:
    b = game("edition2", list(hands))
    b.deal(hands, "5", ["6", "6", "6", "6"], first=first)
    return b


def test_first_player_edition2_fewest_points() -> None:
    b = _edition2_round({"ana": ["1", "1", "2", "2"], "bruno": ["9", "9", "10", "10"],
                         "carla": ["3", "3", "4", "4"]}, "ana")
    cabo_round(b, "ana")
    # ana 1+1+2+2 = 6, lowest -> 0; bruno 9+9+10+10 = 38; carla 3+3+4+4 = 14
    assert last(b).points == {"ana": 0, "bruno": 38, "carla": 14}
    with rejected("wrong_first_player", InconsistentLogError) as err:
        b.deal({"ana": ["1"] * 4, "bruno": ["2"] * 4, "carla": ["3"] * 4}, "4", first="carla")
    assert err.error is not None
    assert err.error.message == "ana must start round 2 (fewest points), not carla"
    b.deal({"ana": ["1"] * 4, "bruno": ["2"] * 4, "carla": ["3"] * 4}, "4", first="ana")
    assert to_play(b) == "ana"


def test_first_player_edition2_points_not_hand_totals_after_kamikaze() -> None:
    b = _edition2_round({"ana": ["0", "0", "1", "1"], "bruno": ["12", "12", "13", "13"],
                         "carla": ["3", "3", "4", "4"]}, "ana")
    cabo_round(b, "ana")
    # Kamikaze for bruno (hand total 50): bruno 0, ana 50, carla 50 -- although ana's hand
    # total (0+0+1+1 = 2) was the lowest, bruno scored the fewest points.
    assert last(b).totals == {"ana": 2, "bruno": 50, "carla": 14}
    assert last(b).points == {"ana": 50, "bruno": 0, "carla": 50}
    with rejected("wrong_first_player", InconsistentLogError):
        b.deal({"ana": ["1"] * 4, "bruno": ["2"] * 4, "carla": ["3"] * 4}, "4", first="ana")
    b.deal({"ana": ["1"] * 4, "bruno": ["2"] * 4, "carla": ["3"] * 4}, "4", first="bruno")


def test_first_player_edition2_tie_first_going_left_after_previous_first() -> None:
    # seats ana 0, bruno 1, carla 2, dan 3; carla started (and called), so the search for
    # the tied players goes dan, ana, bruno, carla.
    b = _edition2_round({"ana": ["2", "2", "3", "3"], "bruno": ["9", "9", "10", "10"],
                         "carla": ["11", "11", "12", "12"], "dan": ["2", "2", "3", "3"]},
                        "carla")
    cabo_round(b, "carla")
    # carla 11+11+12+12 = 46, beaten -> 46 + 10 = 56; ana 2+2+3+3 = 10; bruno 38; dan 10
    assert last(b).points == {"ana": 10, "bruno": 38, "carla": 56, "dan": 10}
    hands = {"ana": ["1"] * 4, "bruno": ["2"] * 4, "carla": ["3"] * 4, "dan": ["4"] * 4}
    with rejected("wrong_first_player", InconsistentLogError):
        b.deal(hands, "5", first="ana")  # ana is tied too, but dan comes first after carla
    b.deal(hands, "5", first="dan")


def test_first_player_edition2_tie_previous_first_is_searched_last() -> None:
    # bruno started round 1 and ties for the fewest points with ana: going left from bruno
    # the search visits carla, ana, bruno -> ana.
    b = _edition2_round({"ana": ["2", "2", "3", "3"], "bruno": ["2", "2", "3", "3"],
                         "carla": ["9", "9", "10", "10"]}, "bruno")
    quiet_turn(b)  # bruno
    b.cabo("carla")
    quiet_turn(b)  # ana's final turn
    quiet_turn(b)  # bruno's final turn
    # carla 9+9+10+10 = 38, beaten -> 48; ana 10; bruno 10
    assert last(b).points == {"ana": 10, "bruno": 10, "carla": 48}
    hands = {"ana": ["1"] * 4, "bruno": ["2"] * 4, "carla": ["3"] * 4}
    with rejected("wrong_first_player", InconsistentLogError):
        b.deal(hands, "4", first="bruno")
    b.deal(hands, "4", first="ana")


def test_first_player_edition2_tie_not_lowest_seat() -> None:
    # bruno started; ana and carla tie: going left from bruno -> carla (not ana, seat 0)
    b = _edition2_round({"ana": ["2", "2", "3", "3"], "bruno": ["9", "9", "10", "10"],
                         "carla": ["2", "2", "3", "3"]}, "bruno")
    cabo_round(b, "bruno")
    # bruno 38 beaten -> 48; ana 10; carla 10
    assert last(b).points == {"ana": 10, "bruno": 48, "carla": 10}
    hands = {"ana": ["1"] * 4, "bruno": ["2"] * 4, "carla": ["3"] * 4}
    with rejected("wrong_first_player", InconsistentLogError):
        b.deal(hands, "4", first="ana")
    b.deal(hands, "4", first="carla")


def test_first_player_golf_next_seat_after_previous_first() -> None:
    players = ["ana", "bruno", "carla"]
    hands = {"ana": ["AS", "2S", "3S", "4S"], "bruno": ["5S", "6S", "7S", "8S"],
             "carla": ["AH", "2H", "3H", "4H"]}
    b = game("golf", players).deal(hands, "9S", first="bruno")
    cabo_round(b, "bruno")
    with rejected("wrong_first_player", InconsistentLogError) as err:
        b.deal(hands, "9S", first="bruno")
    assert err.error is not None
    assert err.error.message == "carla must start round 2 (rotate), not bruno"
    b.deal(hands, "9S", first="carla")
    cabo_round(b, "carla")
    with rejected("wrong_first_player", InconsistentLogError):
        b.deal(hands, "9S", first="bruno")
    b.deal(hands, "9S", first="ana")  # wraps around


def test_first_player_golf_tie_break_round_next_tied_player() -> None:
    players = ["ana", "bruno", "carla", "dan"]
    b = game("golf", players, target=50)
    b.deal({"ana": ["AS", "2S", "3S", "4S"], "bruno": ["KS", "KC", "QS", "3H"],
            "carla": ["5S", "5H", "5D", "5C"], "dan": ["AH", "2H", "3D", "4D"]},
           "9S", first="bruno")
    cabo_round(b, "bruno")
    # bruno 13+13+12+3 = 41, not lowest -> 41 + 10 = 51 >= 50: the match ends.
    # ana 1+2+3+4 = 10, carla 20, dan 1+2+3+4 = 10: ana and dan tie -> tie-break round.
    assert last(b).points == {"ana": 10, "bruno": 51, "carla": 20, "dan": 10}
    assert st(b).complete is False
    # plain rotation would give carla; the next tied player after bruno is dan.
    tie_hands = {"ana": ["6S", "6H", "6D", "6C"], "dan": ["AH", "AD", "AC", "2C"]}
    with rejected("wrong_first_player", InconsistentLogError):
        b.deal(tie_hands, "9S", first="ana")
    b.deal(tie_hands, "9S", first="dan")
    assert st(b).round.participants == (0, 3)
    cabo_round(b, "dan")
    # dan 1+1+1+2 = 5 strictly lowest -> 0; ana 24. Totals: ana 34, dan 10 -> dan wins.
    assert last(b).points == {"ana": 24, "dan": 0}
    assert st(b).complete and st(b).winners == ("dan",)


def test_initial_peek_still_allowed_after_snaps_before_the_first_turn() -> None:
    b = game("golf").deal({"ana": ["5S", "2S", "3S", "4S"], "bruno": ["5H", "6S", "7S", "8S"]},
                          "5D")
    b.snap("bruno", 0)                     # before the first turn
    b.peek("ana", [0, 3])                  # the round's first turn has not started
    assert st(b).round.turn == 0
