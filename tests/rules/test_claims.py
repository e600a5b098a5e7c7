"""FORMAT.md: ``round_end`` and ``game_end`` are claims the replay checks against the rules."""

from __future__ import annotations

from cabo_log.log.builder import LogBuilder
from engine import InconsistentLogError

from .helpers import cabo_round, game, quiet_turn, rejected, replay, st

KAMI = ["12", "12", "13", "13"]
LOW = ["1", "2", "3", "4"]


def one_round() -> LogBuilder:
    b = game("edition2").deal({"ana": ["5", "5", "6", "6"], "bruno": LOW}, "7", first="ana")
    # ana 22 beaten by bruno 10 -> 22 + 10 = 32; bruno 10
    return cabo_round(b, "ana")


def finished_match() -> LogBuilder:
    b = game("edition2")
    for _ in range(3):  # bruno's Kamikaze each round: ana 50, 100 -> 50, 100 again: the end
        b.deal({"ana": LOW, "bruno": KAMI}, "6", first="bruno")
        cabo_round(b, "bruno")
    assert st(b).complete
    return b


def test_round_end_claim_correct_accepted() -> None:
    b = one_round().round_end({"ana": 32, "bruno": 10}, round=1)
    result = replay(b)
    assert result.error is None and result.state is not None
    assert result.state.rounds[0].points == {"ana": 32, "bruno": 10}


def test_round_end_claim_wrong_points_is_a_mismatch_at_that_line() -> None:
    b = one_round().raw({"type": "round_end", "round": 1, "points": {"ana": 22, "bruno": 10}},
                        seq=True)
    b.raw({"type": "deal", "round": 2, "first": "bruno", "hands": {}, "discard": "1",
           "deck": []}, seq=True)
    result = replay(b)
    assert result.error is not None
    assert isinstance(result.error, InconsistentLogError)
    assert result.error.code == "claim_mismatch"
    assert result.error.line == len(b.lines) - 1       # the claim, not the line after
    assert result.error.message == ("round 1: the log claims points ana 22, bruno 10, but the "
                                    "rules give ana 32, bruno 10")
    assert result.report()["error"]["code"] == "claim_mismatch"
    # the valid part is kept: the round was played and scored
    assert result.report()["partial"]["rounds"][0]["points"] == {"ana": 32, "bruno": 10}


def test_round_end_claim_with_extra_or_missing_player_is_a_mismatch() -> None:
    for points in ({"ana": 32}, {"ana": 32, "bruno": 10, "carla": 0}):
        b = one_round().raw({"type": "round_end", "round": 1, "points": points}, seq=True)
        result = replay(b)
        assert result.error is not None and result.error.code == "claim_mismatch"


def test_round_end_claim_before_the_round_ended_is_premature() -> None:
    b = game("edition2").deal({"ana": ["5", "5", "6", "6"], "bruno": LOW}, "7", first="ana")
    b.cabo("ana")
    with rejected("claim_premature", InconsistentLogError) as err:
        b.round_end({"ana": 32, "bruno": 10}, round=1)
    assert err.error is not None and err.error.message == "round 1 has not ended at this point"
    quiet_turn(b)
    b.round_end({"ana": 32, "bruno": 10}, round=1)


def test_round_end_claim_for_a_later_round_is_premature() -> None:
    b = one_round()
    with rejected("claim_premature", InconsistentLogError):
        b.round_end({"ana": 0, "bruno": 0}, round=2)


def test_round_end_claim_after_the_last_final_turn_with_power_pending() -> None:
    b = game("edition2").deal({"ana": LOW, "bruno": ["5", "5", "6", "6"]}, "7", ["9"],
                              first="ana")
    b.cabo("ana").draw("bruno").discard("bruno")     # bruno may still spy
    # the claim lets the power lapse: the round is over and scored: ana 10 -> 0; bruno 22
    b.round_end({"ana": 0, "bruno": 22}, round=1)


def test_game_end_claim_correct_accepted() -> None:
    b = finished_match().round_end().game_end(["bruno"], {"ana": 100, "bruno": 0})
    result = replay(b)
    assert result.error is None
    assert result.report()["winners"] == ["bruno"]


def test_game_end_claim_wrong_winners_mismatch() -> None:
    b = finished_match().raw({"type": "game_end", "winners": ["ana"],
                              "scores": {"ana": 100, "bruno": 0}}, seq=True)
    result = replay(b)
    assert result.error is not None and result.error.code == "claim_mismatch"
    assert result.error.line == len(b.lines)
    assert result.error.message == "the log claims winners ana, but the rules give bruno"


def test_game_end_claim_wrong_scores_mismatch() -> None:
    b = finished_match().raw({"type": "game_end", "winners": ["bruno"],
                              "scores": {"ana": 50, "bruno": 0}}, seq=True)
    result = replay(b)
    assert result.error is not None and result.error.code == "claim_mismatch"
    assert result.error.message == ("the log claims scores ana 50, bruno 0, but the rules give "
                                    "ana 100, bruno 0")


def test_game_end_claim_before_the_match_ended_is_premature() -> None:
    b = one_round()
    with rejected("claim_premature", InconsistentLogError) as err:
        b.game_end(["bruno"], {"ana": 32, "bruno": 10})
    assert err.error is not None
    assert err.error.message == "the match has not ended at this point"


def test_game_end_claim_during_edition2_extra_round_is_premature() -> None:
    # the match end was reached but the tie is unresolved: another round is due
    b = game("edition2", ["ana", "bruno", "carla"])
    hands = {"ana": ["2", "2", "3", "3"], "bruno": ["1", "1", "4", "4"],
             "carla": ["13", "13", "12", "11"]}
    for first in ("carla", "ana"):
        b.deal(hands, "6", first=first)
        while st(b).players[st(b).round.current] != "carla":
            quiet_turn(b)
        cabo_round(b, "carla")
    assert st(b).cumulative_by_name() == {"ana": 20, "bruno": 20, "carla": 118}
    with rejected("claim_premature", InconsistentLogError):
        b.game_end(["ana", "bruno"], {"ana": 20, "bruno": 20, "carla": 118})


def test_claims_mixed_in_a_valid_log_every_round() -> None:
    b = game("edition1")
    b.deal({"ana": LOW, "bruno": KAMI}, "6", first="bruno")
    cabo_round(b, "bruno").round_end({"ana": 50, "bruno": 0}, round=1)
    b.deal({"ana": LOW, "bruno": KAMI}, "6", first="bruno")
    cabo_round(b, "bruno").round_end({"ana": 50, "bruno": 0}, round=2)
    result = replay(b)
    assert result.error is None
    # the claim is of the round's points; the cumulative 100 was reset to 50
    assert result.report()["rounds"][1]["cumulative"] == {"ana": 50, "bruno": 0}
