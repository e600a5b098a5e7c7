"""RULES.md "Scoring a round": special hands, edition1's lowest hand, the caller, everybody else.

Each expected number is worked out by hand in the comment next to it.
"""

from __future__ import annotations

import pytest

from cabo_log.log.builder import LogBuilder

from .helpers import cabo_round, game, last, quiet_turn, report, st

THREE = ["ana", "bruno", "carla"]


def e_round(ruleset: str, hands: dict[str, list[str]], caller: str = "ana",
            discard: str = "6", **options: object) -> LogBuilder:
    b = game(ruleset, list(hands), **options).deal(hands, discard, first=caller)
    return cabo_round(b, caller)


# --- special hand: Kamikaze (edition1, edition2) ---------------------------------------------

@pytest.mark.parametrize("ruleset", ["edition1", "edition2"])
def test_kamikaze_non_caller_scores_0_everybody_else_50(ruleset: str) -> None:
    b = e_round(ruleset, {"ana": ["0", "1", "1", "2"], "bruno": ["12", "12", "13", "13"],
                          "carla": ["5", "5", "5", "5"]})
    # bruno 12+12+13+13 = 50: Kamikaze -> bruno 0; ana and carla 50 each
    assert last(b).points == {"ana": 50, "bruno": 0, "carla": 50}
    assert last(b).special == ("bruno",)


@pytest.mark.parametrize("ruleset", ["edition1", "edition2"])
def test_kamikaze_caller_any_order(ruleset: str) -> None:
    b = e_round(ruleset, {"ana": ["13", "12", "13", "12"], "bruno": ["1", "2", "3", "4"]})
    # ana holds 12, 12, 13, 13 in another order: 0; bruno 50 (not his 1+2+3+4 = 10)
    assert last(b).points == {"ana": 0, "bruno": 50}
    assert last(b).cabo_success is False  # 50 > 10: the call itself failed, Kamikaze decides


@pytest.mark.parametrize("ruleset", ["edition1", "edition2"])
def test_kamikaze_overrides_a_successful_cabo(ruleset: str) -> None:
    b = e_round(ruleset, {"ana": ["0", "0", "1", "1"], "bruno": ["12", "13", "12", "13"]})
    # ana 0+0+1+1 = 2 is lowest (a successful call), but bruno's Kamikaze wins: ana 50
    assert last(b).points == {"ana": 50, "bruno": 0}
    rnd = report(b)["rounds"][0]
    assert rnd["cabo_success"] is True and rnd["points"] == {"ana": 50, "bruno": 0}
    assert rnd["totals"] == {"ana": 2, "bruno": 50}


def test_kamikaze_needs_exactly_four_cards() -> None:
    b = game("edition1").deal({"ana": ["12", "13", "12", "5"], "bruno": ["1", "2", "3", "4"]},
                              "6", ["13"])
    b.draw("ana").replace("ana", [2, 3])           # 12 and 5 differ: the 13 is added
    assert st(b).row_codes(0) == ["12", "13", "12", "5", "13"]
    b.cabo("bruno")
    quiet_turn(b)
    # ana 12+13+12+5+13 = 55 with five cards: no Kamikaze. bruno 10 lowest, caller -> 0
    assert last(b).points == {"ana": 55, "bruno": 0}
    assert last(b).special == ()


def test_kamikaze_formed_during_the_round() -> None:
    b = game("edition1").deal({"ana": ["12", "13", "12", "5"], "bruno": ["1", "2", "3", "4"]},
                              "6", ["13"])
    b.draw("ana").replace("ana", [3])              # the 5 -> 13: 12, 13, 12, 13
    b.cabo("bruno")
    quiet_turn(b)
    assert last(b).points == {"ana": 0, "bruno": 50}


def test_several_special_hands_edition1_two_decks() -> None:
    b = e_round("edition1", {"ana": ["1", "2", "3", "4"], "bruno": ["12", "12", "13", "13"],
                             "carla": ["13", "12", "13", "12"]}, decks=2)
    # bruno and carla both hold a Kamikaze: each 0; ana 50
    assert last(b).points == {"ana": 50, "bruno": 0, "carla": 0}
    assert last(b).special == ("bruno", "carla")


# --- special hand: golf's kamikaze option ----------------------------------------------------

def test_golf_kamikaze_caller_total_exactly_0() -> None:
    hands = {"ana": ["KH", "KD", "AS", "AH"], "bruno": ["2S", "3S", "4S", "5S"]}
    b = e_round("golf", hands, discard="6S", kamikaze=True)
    # ana -1 -1 +1 +1 = 0, the caller: 0; bruno 50 instead of 2+3+4+5 = 14
    assert last(b).points == {"ana": 0, "bruno": 50}
    b = e_round("golf", hands, discard="6S")
    # without the option: ana strictly lowest -> 0; bruno 14
    assert last(b).points == {"ana": 0, "bruno": 14}


def test_golf_kamikaze_caller_0_even_when_someone_is_lower() -> None:
    b = game("golf", ["ana", "bruno"], jokers=True, kamikaze=True)
    b.deal({"ana": ["JK", "JK", "KH", "AS"], "bruno": ["KD", "2S", "2H", "2D"]}, "2C")
    b.snap("bruno", 1).snap("bruno", 1).snap("bruno", 1)  # bruno's three 2s go: row KD = -1
    b.cabo("ana")
    quiet_turn(b)
    # ana 0+0-1+1 = 0 (caller, exactly 0): kamikaze -> ana 0, bruno 50 (his total was -1)
    assert last(b).totals == {"ana": 0, "bruno": -1}
    assert last(b).points == {"ana": 0, "bruno": 50}
    assert last(b).cabo_success is False


def test_golf_without_kamikaze_negative_total_counts() -> None:
    b = game("golf", ["ana", "bruno"], jokers=True)
    b.deal({"ana": ["JK", "JK", "KH", "AS"], "bruno": ["KD", "2S", "2H", "2D"]}, "2C")
    b.snap("bruno", 1).snap("bruno", 1).snap("bruno", 1)
    b.cabo("ana")
    quiet_turn(b)
    # ana 0 is not strictly lower than bruno's -1: 0 + 10 = 10; bruno -1
    assert last(b).points == {"ana": 10, "bruno": -1}


def test_golf_kamikaze_only_the_caller() -> None:
    b = e_round("golf", {"ana": ["2S", "3S", "4S", "5S"], "bruno": ["KH", "KD", "AS", "AH"]},
                discard="6S", kamikaze=True)
    # bruno totals 0 but did not call: no kamikaze. ana 14, bruno lower -> 14 + 10 = 24
    assert last(b).points == {"ana": 24, "bruno": 0}


def test_golf_queens_and_kings_are_not_special() -> None:
    b = e_round("golf", {"ana": ["2S", "3S", "4S", "5S"], "bruno": ["QS", "QH", "KS", "KC"]},
                discard="6S")
    # bruno 12+12+13+13 = 50, just a total; ana 14 strictly lowest -> 0
    assert last(b).points == {"ana": 0, "bruno": 50}


# --- special hand: online's shoot the moon ---------------------------------------------------

def test_online_shoot_the_moon_half_the_target() -> None:
    b = e_round("online", {"ana": ["AS", "2S", "3S", "4S"], "bruno": ["QS", "QH", "KD", "KC"]},
                discard="6S")
    # bruno Q Q K K: 0; ana half of 100 = 50
    assert last(b).points == {"ana": 50, "bruno": 0}


@pytest.mark.parametrize(("target", "half"), [(80, 40), (150, 75), (60, 30)])
def test_online_shoot_the_moon_half_a_non_default_target(target: int, half: int) -> None:
    b = e_round("online", {"ana": ["AS", "2S", "3S", "4S"], "bruno": ["KH", "QD", "KS", "QC"]},
                discard="6S", target=target)
    assert last(b).points == {"ana": half, "bruno": 0}


def test_online_shoot_the_moon_odd_target_rounds_down() -> None:
    b = e_round("online", {"ana": ["AS", "2S", "3S", "4S"], "bruno": ["KH", "QD", "KS", "QC"]},
                discard="6S", target=75)
    # half of 75 is 37.5; points are whole numbers: 37 (docs/rules.md)
    assert last(b).points == {"ana": 37, "bruno": 0}


def test_online_shoot_the_moon_by_the_caller() -> None:
    b = e_round("online", {"ana": ["QS", "QH", "KD", "KC"], "bruno": ["AS", "2S", "3S", "4S"]},
                discard="6S")
    assert last(b).points == {"ana": 0, "bruno": 50}


def test_online_several_moons() -> None:
    b = e_round("online", {"ana": ["AS", "2S", "3S", "4S"], "bruno": ["QS", "QH", "KD", "KC"],
                           "carla": ["QD", "QC", "KH", "KS"]}, discard="6S")
    # bruno and carla both shoot the moon: 0 each; ana 50
    assert last(b).points == {"ana": 50, "bruno": 0, "carla": 0}


def test_online_shoot_the_moon_only_active_players_pay() -> None:
    b = game("online", THREE).deal({"ana": ["AS", "2S", "3S", "4S"],
                                    "bruno": ["QS", "QH", "KD", "KC"],
                                    "carla": ["5S", "5H", "5D", "5C"]}, "6S")
    b.forfeit("carla").cabo("ana")
    quiet_turn(b)
    assert last(b).points == {"ana": 50, "bruno": 0}  # carla is not scored at all


def test_online_jokers_are_not_part_of_the_moon() -> None:
    b = e_round("online", {"ana": ["AS", "2S", "3S", "4S"], "bruno": ["QS", "QH", "KD", "JK"]},
                discard="6S")
    # bruno 12+12+13+0 = 37; ana 10 strictly lowest -> 0
    assert last(b).points == {"ana": 0, "bruno": 37}


def test_edition_special_row_does_not_exist_in_golf_or_online_values() -> None:
    # edition2: a 12-12-13-13 row is only special with exactly those values; 12-12-13-11 is not
    b = e_round("edition2", {"ana": ["1", "2", "3", "4"], "bruno": ["12", "12", "13", "11"]})
    assert last(b).points == {"ana": 0, "bruno": 48}  # 12+12+13+11 = 48


# --- edition1: the lowest hand ---------------------------------------------------------------

def test_edition1_caller_strictly_lowest() -> None:
    b = e_round("edition1", {"ana": ["0", "1", "1", "2"], "bruno": ["2", "2", "3", "3"],
                             "carla": ["5", "5", "5", "5"]})
    # ana 4 lowest (caller) 0; bruno 10; carla 20
    assert last(b).points == {"ana": 0, "bruno": 10, "carla": 20}
    assert last(b).cabo_success is True


def test_edition1_caller_among_the_lowest_only_caller_scores_0() -> None:
    b = e_round("edition1", {"ana": ["1", "2", "3", "4"], "bruno": ["4", "3", "2", "1"],
                             "carla": ["5", "5", "5", "5"]})
    # ana 10 and bruno 10 tie for lowest; ana called: only ana 0, bruno keeps 10; carla 20
    assert last(b).points == {"ana": 0, "bruno": 10, "carla": 20}
    assert last(b).cabo_success is True


def test_edition1_lowest_tied_non_callers_all_score_0_caller_penalty_5() -> None:
    b = e_round("edition1", {"ana": ["3", "3", "3", "3"], "bruno": ["1", "2", "2", "5"],
                             "carla": ["1", "1", "4", "4"]})
    # ana 12 called; bruno 10 and carla 10 strictly lower: both 0; ana 12 + 5 = 17
    assert last(b).points == {"ana": 17, "bruno": 0, "carla": 0}
    assert last(b).cabo_success is False


def test_edition1_one_strictly_lower_player_caller_fails() -> None:
    b = e_round("edition1", {"ana": ["1", "2", "3", "4"], "bruno": ["1", "2", "3", "3"],
                             "carla": ["5", "5", "5", "5"]})
    # ana 10 called; bruno 9 lower -> bruno 0, ana 10 + 5 = 15; carla 20
    assert last(b).points == {"ana": 15, "bruno": 0, "carla": 20}


# --- the caller per ruleset ------------------------------------------------------------------

@pytest.mark.parametrize(("ruleset", "tie_points", "success"), [
    ("edition1", 0, True),     # ties are fine (caller among the lowest)
    ("edition2", 0, True),     # "0 if no player has a lower total (ties are fine)"
])
def test_caller_tie_editions(ruleset: str, tie_points: int, success: bool) -> None:
    b = e_round(ruleset, {"ana": ["1", "2", "3", "4"], "bruno": ["4", "3", "2", "1"]})
    assert last(b).points == {"ana": tie_points, "bruno": 10}
    assert last(b).cabo_success is success


@pytest.mark.parametrize(("ruleset", "penalty"), [("golf", 10), ("online", 5)])
def test_caller_tie_fails_golf_online(ruleset: str, penalty: int) -> None:
    b = e_round(ruleset, {"ana": ["AS", "2S", "3S", "4S"], "bruno": ["4H", "3H", "2H", "AH"]},
                discard="6S")
    # 10 against 10: not strictly lower -> 10 + penalty
    assert last(b).points == {"ana": 10 + penalty, "bruno": 10}
    assert last(b).cabo_success is False


@pytest.mark.parametrize("ruleset", ["golf", "online"])
def test_caller_strictly_lower_succeeds_golf_online(ruleset: str) -> None:
    b = e_round(ruleset, {"ana": ["AS", "2S", "3S", "3H"], "bruno": ["4H", "3D", "2H", "AH"]},
                discard="6S")
    # ana 1+2+3+3 = 9 < bruno 4+3+2+1 = 10 -> ana 0, bruno 10
    assert last(b).points == {"ana": 0, "bruno": 10}


@pytest.mark.parametrize(("ruleset", "penalty"), [("edition1", 5), ("edition2", 10)])
def test_caller_failure_penalty_editions(ruleset: str, penalty: int) -> None:
    b = e_round(ruleset, {"ana": ["5", "5", "6", "6"], "bruno": ["1", "2", "3", "4"],
                          "carla": ["9", "9", "9", "9"]})
    # ana 22 beaten by bruno 10
    if ruleset == "edition1":   # lowest hand: bruno 0; ana 22 + 5 = 27; carla 36
        assert last(b).points == {"ana": 27, "bruno": 0, "carla": 36}
    else:                       # ana 22 + 10 = 32; bruno 10; carla 36
        assert last(b).points == {"ana": 32, "bruno": 10, "carla": 36}


@pytest.mark.parametrize(("ruleset", "penalty"), [("golf", 10), ("online", 5)])
def test_caller_failure_penalty_golf_online(ruleset: str, penalty: int) -> None:
    b = e_round(ruleset, {"ana": ["5S", "5H", "6S", "6H"], "bruno": ["AS", "2S", "3S", "4S"],
                          "carla": ["9S", "9H", "9D", "9C"]}, discard="7D")
    # ana 22 beaten by bruno 10: 22 + penalty; everybody else their total
    assert last(b).points == {"ana": 22 + penalty, "bruno": 10, "carla": 36}


def test_edition2_caller_success_others_total() -> None:
    b = e_round("edition2", {"ana": ["1", "1", "2", "2"], "bruno": ["2", "2", "3", "3"],
                             "carla": ["1", "1", "4", "4"]})
    # ana 6 lowest -> 0; bruno 10; carla 10 (no lowest-hand rule in edition2)
    assert last(b).points == {"ana": 0, "bruno": 10, "carla": 10}


def test_report_fields_of_a_scored_round() -> None:
    b = e_round("edition2", {"ana": ["5", "5", "6", "6"], "bruno": ["1", "2", "3", "4"]})
    rep = report(b)
    assert rep["complete"] is False and rep["winners"] == []
    rnd = rep["rounds"][0]
    assert rnd["caller"] == "ana" and rnd["cabo_success"] is False and rnd["end"] == "cabo"
    assert rnd["hands"] == {"ana": ["5", "5", "6", "6"], "bruno": ["1", "2", "3", "4"]}
    assert rnd["totals"] == {"ana": 22, "bruno": 10}
    assert rnd["points"] == {"ana": 32, "bruno": 10}        # 22 + 10
    assert rnd["cumulative"] == {"ana": 32, "bruno": 10}
    assert rep["scores"] == {"ana": 32, "bruno": 10}


def test_golf_kamikaze_penalty_is_50_even_in_a_short_game() -> None:
    b = e_round("golf", {"ana": ["KH", "KD", "AS", "AH"], "bruno": ["2S", "3S", "4S", "5S"]},
                discard="6S", kamikaze=True, target=50)
    assert last(b).points == {"ana": 0, "bruno": 50}
    assert st(b).complete and st(b).winners == ("ana",)  # bruno 50 >= 50


def test_online_shoot_the_moon_needs_exactly_four_cards() -> None:
    b = game("online").deal({"ana": ["QS", "KH", "QD", "5S"], "bruno": ["AS", "2S", "3S", "4S"]},
                            "6S", ["KC"])
    b.draw("ana").replace("ana", [2, 3])           # Q and 5 differ: the KC is added
    b.cabo("bruno")
    quiet_turn(b)
    # ana 12+13+12+5+13 = 55 in five cards: no moon; bruno 10 strictly lowest -> 0
    assert last(b).points == {"ana": 55, "bruno": 0}
