"""RULES.md "End of the match" and "Online-only events": targets, the 100 -> 50 reset, when the
match ends, winners and their tie rules, forfeits."""

from __future__ import annotations

from engine import IllegalEventError, InconsistentLogError

from .helpers import (
    game,
    last,
    pile,
    play_round,
    quiet_turn,
    rejected,
    report,
    row,
    st,
    to_play,
)

KAMI = ["12", "12", "13", "13"]
LOW = ["1", "2", "3", "4"]


# --- edition1 / edition2: the 100 -> 50 reset ------------------------------------------------

def test_edition1_exactly_100_resets_to_50_every_time() -> None:
    b = game("edition1")
    for expected in (50, 50, 50):
        # bruno's Kamikaze: ana +50 each round. 0 -> 50; 50 -> 100 -> reset 50; again.
        play_round(b, {"ana": LOW, "bruno": KAMI}, "bruno", "6", first="bruno")
        assert st(b).cumulative_by_name() == {"ana": expected, "bruno": 0}
    assert [r.resets for r in st(b).rounds] == [(), ("ana",), ("ana",)]
    assert [r.cumulative["ana"] for r in st(b).rounds] == [50, 50, 50]
    assert st(b).complete is False


def test_edition2_exactly_100_resets_once_second_time_ends_the_match() -> None:
    b = game("edition2")
    # bruno has the fewest points after each round, so he starts (and calls) every round
    play_round(b, {"ana": LOW, "bruno": KAMI}, "bruno", "6", first="bruno")
    assert st(b).cumulative_by_name() == {"ana": 50, "bruno": 0}
    play_round(b, {"ana": LOW, "bruno": KAMI}, "bruno", "6")
    assert st(b).cumulative_by_name() == {"ana": 50, "bruno": 0}   # 100 -> 50, the one reset
    assert last(b).resets == ("ana",) and st(b).complete is False
    play_round(b, {"ana": LOW, "bruno": KAMI}, "bruno", "6")
    # 50 + 50 = 100 a second time: no reset, and the match ends; bruno 0 wins
    assert st(b).cumulative_by_name() == {"ana": 100, "bruno": 0}
    assert last(b).resets == ()
    assert st(b).complete and st(b).winners == ("bruno",)
    rep = report(b)
    assert rep["complete"] is True and rep["winners"] == ["bruno"]
    assert rep["scores"] == {"ana": 100, "bruno": 0}


def test_edition1_reset_applied_before_the_end_check() -> None:
    players = ["ana", "bruno", "carla"]
    b = game("edition1", players)
    low = ["0", "0", "1", "1"]
    big_a = ["13", "13", "12", "11"]
    big_b = ["12", "12", "11", "11"]
    # R1: carla 0+0+1+1 = 2 lowest, caller -> 0; ana 13+13+12+11 = 49; bruno 12+12+11+11 = 46
    play_round(b, {"ana": big_a, "bruno": big_b, "carla": low}, "carla", "6", first="carla")
    assert last(b).points == {"ana": 49, "bruno": 46, "carla": 0}
    # R2: ana 13+13+12+3 = 41 -> 90; bruno 46 -> 92; carla 0
    play_round(b, {"ana": ["13", "13", "12", "3"], "bruno": big_b, "carla": low}, "carla", "6",
               first="carla")
    assert st(b).cumulative_by_name() == {"ana": 90, "bruno": 92, "carla": 0}
    # R3: ana 1+2+3+4 = 10 -> exactly 100 -> 50; bruno 5+5+5+5 = 20 -> 112 > 100: the end
    play_round(b, {"ana": LOW, "bruno": ["5", "5", "5", "5"], "carla": low}, "carla", "6",
               first="carla")
    assert last(b).resets == ("ana",)
    assert st(b).cumulative_by_name() == {"ana": 50, "bruno": 112, "carla": 0}
    assert st(b).complete and st(b).winners == ("carla",)
    assert report(b)["rounds"][2]["cumulative"] == {"ana": 50, "bruno": 112, "carla": 0}


def test_edition1_match_ends_above_100_not_at_it() -> None:
    b = game("edition1")
    play_round(b, {"ana": LOW, "bruno": KAMI}, "bruno", "6", first="bruno")        # ana 50
    # bruno 1+2+3+4 = 10 lowest, caller 0; ana 13+13+12+11 = 49 -> 99: not over
    play_round(b, {"ana": ["13", "13", "12", "11"], "bruno": LOW}, "bruno", "6", first="bruno")
    assert st(b).cumulative_by_name() == {"ana": 99, "bruno": 0} and not st(b).complete
    # ana 5+5+6+6 = 22 -> 121 > 100
    play_round(b, {"ana": ["5", "5", "6", "6"], "bruno": LOW}, "bruno", "7", first="bruno")
    assert st(b).complete and st(b).winners == ("bruno",)
    assert st(b).cumulative_by_name() == {"ana": 121, "bruno": 0}


def test_edition1_winners_ties_share() -> None:
    b = game("edition1", ["ana", "bruno", "carla"])
    play_round(b, {"ana": ["1", "1", "4", "4"], "bruno": ["2", "2", "3", "3"],
                   "carla": ["13", "13", "12", "11"]}, "carla", "6", first="carla")
    # carla 49 beaten -> 49 + 5 = 54; ana 1+1+4+4 = 10 and bruno 10: lowest, both 0
    assert last(b).points == {"ana": 0, "bruno": 0, "carla": 54}
    play_round(b, {"ana": ["1", "1", "4", "4"], "bruno": ["2", "2", "3", "3"],
                   "carla": ["13", "13", "12", "11"]}, "carla", "6", first="carla")
    # carla 54 + 54 = 108 > 100: ana 0 and bruno 0 share the win
    assert st(b).complete and st(b).winners == ("ana", "bruno")
    assert report(b)["winners"] == ["ana", "bruno"]


# --- edition2: tie-break by the last round, else another round for everybody -----------------

def test_edition2_tie_fewest_points_in_last_round_wins() -> None:
    b = game("edition2", ["ana", "bruno", "carla"])
    # R1: ana 0+0+1+1 = 2, caller, lowest -> 0; bruno 2+2+3+3 = 10; carla 13+13+12+11 = 49
    play_round(b, {"ana": ["0", "0", "1", "1"], "bruno": ["2", "2", "3", "3"],
                   "carla": ["13", "13", "12", "11"]}, "ana", "6", first="ana")
    assert st(b).cumulative_by_name() == {"ana": 0, "bruno": 10, "carla": 49}
    # R2 (ana starts: fewest points): ana quiet, bruno calls, carla's final turn grows her row
    b.deal({"ana": ["2", "2", "3", "3"], "bruno": ["0", "0", "1", "1"],
            "carla": ["13", "13", "12", "11"]}, "6", ["5", "10", "5"])
    quiet_turn(b)                                   # ana discards a 5
    b.cabo("bruno")
    b.draw("carla").replace("carla", [0, 3])        # 13 and 11 differ: the 10 is added
    quiet_turn(b)                                   # ana's final turn
    # bruno 2, lowest -> 0; ana 2+2+3+3 = 10; carla 13+13+12+11+10 = 59
    assert last(b).points == {"ana": 10, "bruno": 0, "carla": 59}
    # totals ana 10, bruno 10 (tied lowest), carla 108 > 100: the tie goes to bruno, who
    # scored fewer points in the last round (0 < 10)
    assert st(b).cumulative_by_name() == {"ana": 10, "bruno": 10, "carla": 108}
    assert st(b).complete and st(b).winners == ("bruno",)


def test_edition2_tie_still_tied_another_round_for_everybody() -> None:
    players = ["ana", "bruno", "carla"]
    b = game("edition2", players)
    hands = {"ana": ["2", "2", "3", "3"], "bruno": ["1", "1", "4", "4"],
             "carla": ["13", "13", "12", "11"]}
    # R1: carla calls with 49, beaten -> 59; ana 10; bruno 10
    play_round(b, hands, "carla", "6", first="carla")
    assert st(b).cumulative_by_name() == {"ana": 10, "bruno": 10, "carla": 59}
    # R2: ana and bruno tie on 10 points; carla started -> ana starts. carla calls again.
    play_round(b, hands, "carla", "6")
    assert last(b).first == "ana"
    # carla 59 + 59 = 118 > 100; ana 20 and bruno 20 tie, and tie on the last round (10, 10)
    assert st(b).cumulative_by_name() == {"ana": 20, "bruno": 20, "carla": 118}
    assert st(b).complete is False and st(b).winners == ()
    assert report(b)["winners"] == [] and report(b)["complete"] is False
    # another round for everybody: all three are dealt in; ana and bruno tied on points,
    # ana started -> going left: bruno
    with rejected("bad_deal", InconsistentLogError):
        b.deal({"ana": ["5"] * 4, "bruno": ["0", "0", "1", "1"]}, "6", first="bruno")
    play_round(b, {"ana": ["1", "1", "2", "2"], "bruno": ["0", "0", "1", "1"],
                   "carla": ["5", "5", "5", "5"]}, "bruno", "6", first="bruno")
    # bruno 2 -> 0; ana 6 -> 26; carla 20 -> 138: bruno 20 is lowest
    assert st(b).cumulative_by_name() == {"ana": 26, "bruno": 20, "carla": 138}
    assert st(b).complete and st(b).winners == ("bruno",)
    with rejected("match_over", IllegalEventError):
        b.deal({"ana": ["5"] * 4, "bruno": ["0", "0", "1", "1"],
                "carla": ["2"] * 4}, "6", first="bruno")


# --- golf: >= target, no reset, tie-break rounds ---------------------------------------------

def test_golf_match_ends_at_target_exactly() -> None:
    b = game("golf")
    hands = {"ana": ["KS", "KC", "QS", "QH"], "bruno": ["AS", "2S", "3S", "4S"]}
    # bruno 10 strictly lowest, caller 0; ana 13+13+12+12 = 50 (no special hand in golf)
    play_round(b, hands, "bruno", "6S", first="bruno")
    assert st(b).cumulative_by_name() == {"ana": 50, "bruno": 0} and not st(b).complete
    play_round(b, hands, "ana", "6S")               # rotation: ana starts round 2
    # ana calls with 50, beaten -> 60 -> 110. (No reset in golf; >= 100 ends.)
    assert st(b).complete and st(b).winners == ("bruno",)


def test_golf_exactly_100_ends_no_reset() -> None:
    b = game("golf")
    hands = {"ana": ["KS", "KC", "QS", "QH"], "bruno": ["AS", "2S", "3S", "4S"]}
    play_round(b, hands, "bruno", "6S", first="bruno")   # ana 50
    play_round(b, hands, "bruno", "6S", first="ana")     # ana quiet, bruno calls: ana 100
    assert st(b).cumulative_by_name() == {"ana": 100, "bruno": 0}
    assert last(b).resets == () and st(b).complete and st(b).winners == ("bruno",)


def test_golf_target_option_short_game() -> None:
    b = game("golf", target=50)
    play_round(b, {"ana": ["KS", "KC", "QS", "QH"], "bruno": ["AS", "2S", "3S", "4S"]},
               "bruno", "6S", first="bruno")
    # ana 50 >= 50: over at once
    assert st(b).complete and st(b).winners == ("bruno",)


def test_golf_tie_break_rounds_only_tied_until_one_is_lowest() -> None:
    players = ["ana", "bruno", "carla", "dan"]
    b = game("golf", players, target=50)
    # R1: bruno 13+13+12+3 = 41 beaten -> 51 >= 50; ana 10, carla 10, dan 10 tie
    play_round(b, {"ana": ["AS", "2S", "3S", "4S"], "bruno": ["KS", "KC", "QS", "3C"],
                   "carla": ["AH", "2H", "3H", "4H"], "dan": ["AD", "2D", "3D", "4D"]},
               "bruno", "9S", first="bruno")
    assert last(b).points == {"ana": 10, "bruno": 51, "carla": 10, "dan": 10}
    assert not st(b).complete and st(b).tiebreak == (0, 2, 3)
    # tie-break 1: ana, carla, dan; the next tied player after bruno starts: carla.
    # carla calls with 5+5+5+1 = 16, not lowest -> 26; ana 3*4 = 12; dan 4+4+2+2 = 12
    play_round(b, {"ana": ["3S", "3H", "3D", "3C"], "carla": ["5S", "5H", "5D", "AC"],
                   "dan": ["4S", "4H", "2C", "2D"]}, "carla", "9S", first="carla")
    assert last(b).points == {"ana": 12, "carla": 26, "dan": 12}
    assert last(b).tiebreak is True and last(b).players == ("ana", "carla", "dan")
    # ana 22, dan 22 still tie (carla 36): another tie-break with only ana and dan; after
    # carla the next of them is dan
    assert not st(b).complete and st(b).tiebreak == (0, 3)
    with rejected("bad_deal", InconsistentLogError):
        b.deal({"ana": ["2S", "2H", "2D", "2C"], "carla": ["AS", "AH", "AD", "AC"]}, "9S",
               first="ana")
    play_round(b, {"ana": ["2S", "2H", "2D", "2C"], "dan": ["AS", "AH", "AD", "AC"]},
               "dan", "9S", first="dan")
    # dan 4 strictly lowest -> 0; ana 8: ana 30, dan 22
    assert st(b).cumulative_by_name() == {"ana": 30, "bruno": 51, "carla": 36, "dan": 22}
    assert st(b).complete and st(b).winners == ("dan",)
    rnd = report(b)["rounds"][2]
    assert rnd["points"] == {"ana": 8, "dan": 0}   # only the tied players are scored
    assert rnd["cumulative"] == {"ana": 30, "bruno": 51, "carla": 36, "dan": 22}


# --- online: target, active players, forfeits ------------------------------------------------

O3 = ["ana", "bruno", "carla"]


def test_online_target_option_reached_exactly_ends() -> None:
    b = game("online", O3, target=43)
    # carla calls with K K Q JK = 13+13+12+0 = 38
    play_round(b, {"ana": ["AS", "2S", "3S", "4S"], "bruno": ["AH", "2H", "3H", "4H"],
                   "carla": ["KS", "KC", "QS", "JK"]}, "carla", "6S", first="carla")
    # carla 38 beaten -> 38 + 5 = 43 >= 43: the match ends; ana 10 and bruno 10 share
    assert last(b).points == {"ana": 10, "bruno": 10, "carla": 43}
    assert st(b).complete and st(b).winners == ("ana", "bruno")


def test_online_winner_lowest_among_active_players_only() -> None:
    b = game("online", O3, target=40)
    # R1: ana 1+2+3+4 = 10 strictly lowest -> 0; bruno 5*4 = 20; carla 1+1+6+7 = 15
    play_round(b, {"ana": ["AS", "2S", "3S", "4S"], "bruno": ["5S", "5H", "5D", "5C"],
                   "carla": ["AH", "AD", "6S", "7S"]}, "ana", "9D", first="ana")
    assert st(b).cumulative_by_name() == {"ana": 0, "bruno": 20, "carla": 15}
    b.forfeit("ana", "left")                        # between rounds: ana (lowest) leaves
    with rejected("bad_deal", InconsistentLogError):
        b.deal({"ana": ["2H", "3H", "4H", "5H"], "bruno": ["AS", "2S", "3S", "4S"],
                "carla": ["KS", "KC", "QS", "JS"]}, "9D", first="bruno")
    # R2: bruno 10 strictly lowest -> 0; carla 13+13+12+11 = 49 -> 64 >= 40: the end
    play_round(b, {"bruno": ["AS", "2S", "3S", "4S"], "carla": ["KS", "KC", "QS", "JS"]},
               "bruno", "9D", first="bruno")
    assert last(b).points == {"bruno": 0, "carla": 49}
    assert st(b).cumulative_by_name() == {"ana": 0, "bruno": 20, "carla": 64}
    assert st(b).complete and st(b).winners == ("bruno",)   # not ana, who left
    rep = report(b)
    assert rep["winners"] == ["bruno"] and rep["forfeited"] == ["ana"]


def test_online_mid_turn_forfeit_drawn_card_to_discard_no_power() -> None:
    b = game("online", O3).deal({"ana": ["AS", "2S", "3S", "4S"], "bruno": ["AH", "2H", "3H", "4H"],
                                 "carla": ["5S", "5H", "5D", "5C"]}, "6S", ["9S"])
    b.draw("ana").forfeit("ana", "disconnected")
    assert pile(b) == ["6S", "9S"]
    assert st(b).round.pending_power is None and to_play(b) == "bruno"
    assert st(b).round.rows[0] == [] and len(st(b).round.out) == 4  # ana's row leaves play
    with rejected("inactive_player", IllegalEventError):
        b.draw("ana")


def test_online_mid_turn_forfeit_with_taken_discard() -> None:
    b = game("online", O3).deal({"ana": ["AS", "2S", "3S", "4S"], "bruno": ["AH", "2H", "3H", "4H"],
                                 "carla": ["5S", "5H", "5D", "5C"]}, "6S")
    b.draw("ana", "discard").forfeit("ana")
    assert pile(b) == ["6S"] and to_play(b) == "bruno"


def test_online_forfeit_keeps_another_players_power() -> None:
    b = game("online", O3).deal({"ana": ["AS", "2S", "3S", "4S"], "bruno": ["AH", "2H", "3H", "4H"],
                                 "carla": ["5S", "5H", "5D", "5C"]}, "6S", ["9S"])
    b.draw("ana").discard("ana").forfeit("carla")
    assert st(b).round.pending_power == "spy"
    b.spy("ana", "bruno", 0)


def test_online_forfeiting_caller_final_turns_played_nobody_scored_as_caller() -> None:
    b = game("online", O3).deal({"ana": ["AS", "2S", "3S", "4S"], "bruno": ["5S", "5H", "6S", "6H"],
                                 "carla": ["7S", "7H", "8S", "8H"]}, "2H", ["3H", "4H"])
    b.cabo("ana").forfeit("ana")
    assert to_play(b) == "bruno"
    quiet_turn(b)                                   # bruno's final turn
    assert st(b).rounds == []
    quiet_turn(b)                                   # carla's final turn
    r = last(b)
    # ana is not scored; bruno 5+5+6+6 = 22 and carla 7+7+8+8 = 30 score their totals
    assert r.end == "cabo" and r.points == {"bruno": 22, "carla": 30}
    assert r.cabo_success is None


def test_online_forfeit_in_final_turns_removes_that_turn() -> None:
    b = game("online", O3).deal({"ana": ["AS", "2S", "3S", "4S"], "bruno": ["5S", "5H", "6S", "6H"],
                                 "carla": ["7S", "7H", "8S", "8H"]}, "2H", ["3H", "4H"])
    b.cabo("ana")
    b.forfeit("carla")
    quiet_turn(b)                                   # bruno's final turn: the last one now
    # ana 10 strictly lower than bruno 22 -> 0; carla not scored
    assert last(b).points == {"ana": 0, "bruno": 22}


def test_online_fewer_than_two_active_round_unscored_remaining_player_wins() -> None:
    b = game("online").deal({"ana": ["AS", "2S", "3S", "4S"], "bruno": ["KS", "KH", "QS", "JS"]},
                            "6S", ["9S"])
    b.draw("ana").forfeit("ana")
    r = last(b)
    assert r.end == "forfeit" and r.points == {"bruno": 0}   # unscored
    # bruno wins although his row (13+13+12+11 = 49) is far worse than ana's
    assert st(b).complete and st(b).winners == ("bruno",)
    rep = report(b)
    assert rep["rounds"][0]["end"] == "forfeit" and rep["winners"] == ["bruno"]
    assert rep["scores"] == {"ana": 0, "bruno": 0} and rep["complete"] is True


def test_online_forfeit_of_the_player_not_on_turn_ends_round_with_two_players() -> None:
    b = game("online", O3).deal({"ana": ["AS", "2S", "3S", "4S"], "bruno": ["5S", "5H", "6S", "6H"],
                                 "carla": ["7S", "7H", "8S", "8H"]}, "2H", ["3H"])
    b.forfeit("carla")
    assert st(b).rounds == []                        # two players are still enough
    b.draw("ana").forfeit("bruno")
    assert last(b).end == "forfeit" and last(b).points == {"ana": 0}
    assert st(b).winners == ("ana",)
    assert row(b, "ana") == ["AS", "2S", "3S", "4S"]


def test_online_forfeit_between_rounds_leaves_one_player() -> None:
    b = game("online")
    play_round(b, {"ana": ["AS", "2S", "3S", "4S"], "bruno": ["5S", "5H", "6S", "6H"]}, "ana",
               "2H", first="ana")
    b.forfeit("ana")
    assert st(b).complete and st(b).winners == ("bruno",)
    assert len(st(b).rounds) == 1


def test_forfeit_only_online() -> None:
    b = game("edition1").deal({"ana": LOW, "bruno": ["5", "5", "6", "6"]}, "7")
    with rejected("forfeit_not_allowed", IllegalEventError) as err:
        b.forfeit("ana")
    assert err.error is not None and err.error.message == "there are no forfeits in edition1"


def test_online_forfeit_before_the_first_deal() -> None:
    b = game("online", O3).forfeit("carla")
    with rejected("bad_deal", InconsistentLogError):
        b.deal({"ana": ["AS", "2S", "3S", "4S"], "bruno": ["5S", "5H", "6S", "6H"],
                "carla": ["7S", "7H", "8S", "8H"]}, "2H")
    b.deal({"ana": ["AS", "2S", "3S", "4S"], "bruno": ["5S", "5H", "6S", "6H"]}, "2H",
           first="bruno")
    assert st(b).round.participants == (0, 1)


def test_online_forfeited_player_gets_no_final_turn() -> None:
    b = game("online", O3).deal({"ana": ["AS", "2S", "3S", "4S"],
                                 "bruno": ["5S", "5H", "6S", "6H"],
                                 "carla": ["7S", "7H", "8S", "8H"]}, "2H", ["3H", "4H"],
                                first="bruno")
    b.forfeit("ana")
    assert to_play(b) == "bruno"
    b.cabo("bruno")
    quiet_turn(b)                                   # carla; ana is skipped
    # bruno 5+5+6+6 = 22 strictly lower than carla 30 -> 0; ana is not scored
    assert last(b).points == {"bruno": 0, "carla": 30} and last(b).turns == 2


def test_online_forfeit_before_the_first_deal_leaving_one_player() -> None:
    b = game("online").forfeit("ana")
    assert st(b).complete and st(b).winners == ("bruno",) and st(b).rounds == []
    assert report(b)["winners"] == ["bruno"]
