"""RULES.md "Snap (golf only, unless no_snap)": matching discards between turns."""

from __future__ import annotations

import pytest

from cabo_log.log.builder import LogBuilder
from engine import IllegalEventError, InconsistentLogError

from .helpers import (
    cabo_round,
    deck,
    face_up,
    game,
    knows,
    last,
    pile,
    quiet_turn,
    rejected,
    row,
    st,
    to_play,
)

HANDS = {"ana": ["5S", "KS", "KH", "2S"], "bruno": ["5H", "KC", "KD", "3S"]}


def golf(top: str = "5D", deck_top: tuple[str, ...] = ("AS", "AH"),
         **options: bool) -> LogBuilder:
    return game("golf", **options).deal(HANDS, top, list(deck_top))


def test_snap_match_goes_on_pile_row_shrinks() -> None:
    b = golf().snap("bruno", 0)  # bruno's 5H on the 5D, before the first turn
    assert b.outcome.success is True
    assert row(b, "bruno") == ["KC", "KD", "3S"]
    assert pile(b) == ["5D", "5H"]
    assert to_play(b) == "ana"  # nothing else changes: still ana's turn


def test_snap_mismatch_card_back_known_to_all_and_penalty_card() -> None:
    b = golf().snap("ana", 3)  # 2S on the 5D: no match
    assert b.outcome.success is False and b.outcome.penalty == "AS"
    # the 2S stays in slot 3 (known to all, still face down); the AS is added at the right
    assert row(b, "ana") == ["5S", "KS", "KH", "2S", "AS"]
    assert face_up(b, "ana") == [False] * 5
    assert knows(b, "bruno", "ana", 3)
    assert not knows(b, "ana", "ana", 4) and not knows(b, "bruno", "ana", 4)
    assert pile(b) == ["5D"] and deck(b)[0] == "AH"


def test_snap_red_king_does_not_match_black_king() -> None:
    b = game("golf").deal({"ana": ["5S", "KS", "KH", "2S"], "bruno": ["5H", "3C", "KD", "3S"]},
                          "KC", ["AS"])          # a black king (13) on top
    b.snap("ana", 2)              # KH is a red king (-1): no match
    assert b.outcome.success is False and len(row(b, "ana")) == 5
    b.snap("ana", 1)              # KS, black: matches
    assert b.outcome.success is True and pile(b)[-1] == "KS"


def test_snap_red_king_matches_red_king() -> None:
    b = game("golf").deal({"ana": ["5S", "KS", "KD", "2S"], "bruno": ["5H", "KC", "3H", "3S"]},
                          "KH", ["AS"])
    b.snap("ana", 2)              # KD (-1) on KH (-1)
    assert b.outcome.success is True and row(b, "ana") == ["5S", "KS", "2S"]


def test_snap_several_in_a_row_each_on_the_new_top() -> None:
    b = game("golf", ["ana", "bruno", "carla"])
    b.deal({"ana": ["5S", "2S", "3S", "4S"], "bruno": ["5H", "2H", "3H", "4H"],
            "carla": ["6C", "2C", "3C", "4C"]}, "5D", ["AS"])
    b.snap("ana", 0).snap("bruno", 0)
    assert pile(b) == ["5D", "5S", "5H"]
    b.snap("carla", 1)            # 2C on the 5H: no match, penalty AS
    assert row(b, "carla") == ["6C", "2C", "3C", "4C", "AS"]


def test_snap_between_turns_by_any_player() -> None:
    b = golf(deck_top=("3D", "AH"))
    b.draw("ana").discard("ana")  # the 3D on top; bruno to play
    b.snap("bruno", 3)            # bruno's 3S
    b.snap("ana", 3)              # ana's 2S on the 3S: penalty AH
    assert row(b, "bruno") == ["5H", "KC", "KD"] and row(b, "ana")[-1] == "AH"
    assert to_play(b) == "bruno"


def test_snap_not_while_a_card_is_held() -> None:
    b = golf().draw("ana")
    with rejected("wrong_phase", IllegalEventError) as err:
        b.snap("bruno", 0)
    assert err.error is not None
    assert err.error.message == "a snap comes between turns, not while a card is held"


def test_snap_while_power_pending_ends_the_turn() -> None:
    b = golf(deck_top=("7D", "AH")).draw("ana").discard("ana")
    assert st(b).round.pending_power == "peek"
    b.snap("bruno", 3)            # no 7 in bruno's row: 3S mismatch, but legal
    assert b.outcome.lapsed is not None and st(b).round.pending_power is None
    assert to_play(b) == "bruno"


def test_snap_between_final_turns() -> None:
    b = game("golf", ["ana", "bruno", "carla"])
    b.deal({"ana": ["5S", "2S", "3S", "4S"], "bruno": ["5H", "2H", "3H", "4H"],
            "carla": ["6C", "2C", "3C", "4C"]}, "5D", ["6D", "AS"])
    b.cabo("ana")
    quiet_turn(b)                 # bruno discards the 6D
    b.snap("carla", 0)            # carla's 6C, between the final turns
    assert row(b, "carla") == ["2C", "3C", "4C"]
    quiet_turn(b)                 # carla's final turn ends the round
    # ana 5+2+3+4 = 14; bruno 14; carla 2+3+4 = 9: ana not strictly lowest -> 14 + 10 = 24
    assert last(b).points == {"ana": 24, "bruno": 14, "carla": 9}


def test_snap_not_after_round_end() -> None:
    b = golf()
    cabo_round(b, "ana")
    with rejected("round_over", IllegalEventError):
        b.snap("bruno", 0)


def test_snap_no_snap_option() -> None:
    b = golf(no_snap=True)
    with rejected("snap_not_allowed", IllegalEventError) as err:
        b.snap("bruno", 0)
    assert err.error is not None and err.error.message == "there is no snapping in golf"


@pytest.mark.parametrize("ruleset", ["edition1", "edition2", "online"])
def test_snap_only_in_golf(ruleset: str) -> None:
    if ruleset == "online":
        b = game(ruleset).deal(HANDS, "5D")
    else:
        b = game(ruleset).deal({"ana": ["5", "1", "2", "3"], "bruno": ["4", "4", "6", "6"]}, "5")
    with rejected("snap_not_allowed", IllegalEventError) as err:
        b.snap("ana", 0)
    assert err.error is not None
    assert err.error.message == f"there is no snapping in {ruleset}"


def test_snap_gives_no_power() -> None:
    b = game("golf").deal({"ana": ["7S", "2S", "3S", "4S"], "bruno": ["5H", "2H", "3H", "4H"]},
                          "7D")
    b.snap("ana", 0)
    assert st(b).round.pending_power is None and st(b).phase == "turn_start"


def test_snap_shorter_row_helps_the_score() -> None:
    b = golf().snap("bruno", 0)   # bruno drops his 5H
    cabo_round(b, "ana")
    # ana 5 + 13 - 1 + 2 = 19; bruno 13 - 1 + 3 = 15 -> ana not lowest: 19 + 10 = 29
    assert last(b).totals == {"ana": 19, "bruno": 15}
    assert last(b).points == {"ana": 29, "bruno": 15}


def test_snap_penalty_with_empty_deck_reshuffle_first() -> None:
    b = game("golf")
    full = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS",
            "AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH",
            "AD", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD",
            "AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC"]
    b.deal({"ana": full[0:4], "bruno": full[4:8]}, full[8], deck=full[9:])
    while deck(b):                # quiet turns until the draw pile is empty
        quiet_turn(b)
    top = pile(b)[-1]
    assert top == "KC"
    with rejected("reshuffle_missing", InconsistentLogError):
        b.snap("ana", 0)          # AS on the KC: a penalty card is owed, the pile is empty
    b.reshuffle()                 # oldest discard first: 9S becomes the top of the new deck
    assert deck(b)[0] == "9S"
    b.snap("ana", 0)
    assert row(b, "ana") == ["AS", "2S", "3S", "4S", "9S"]


def test_snap_not_by_a_player_sitting_out_a_tie_break() -> None:
    b = game("golf", ["ana", "bruno", "carla"], target=50)
    b.deal({"ana": ["AS", "2S", "3S", "4S"], "bruno": ["KS", "KC", "QS", "QH"],
            "carla": ["AH", "2H", "3H", "4H"]}, "9S", first="bruno")
    cabo_round(b, "bruno")
    # bruno 13+13+12+12 = 50, not lowest -> 60 >= 50; ana 10 and carla 10 tie
    assert last(b).points == {"ana": 10, "bruno": 60, "carla": 10}
    b.deal({"ana": ["5S", "6S", "7S", "8S"], "carla": ["5H", "6H", "7H", "8H"]}, "5D",
           first="carla")
    with rejected("not_in_round", IllegalEventError):
        b.snap("bruno", 0)
    b.snap("ana", 0)              # a tied player may


def test_snap_away_every_card_then_no_discard_to_take() -> None:
    # "Take the top of the discard pile and replace one of their cards": with an empty row
    # there is nothing to replace, so only a deck draw (or Cabo) remains.
    hands = {"ana": ["5S", "5H", "5D", "5C"], "bruno": ["AS", "2S", "3S", "4S"]}
    b = game("golf", decks=2).deal(hands, "5S", first="bruno")
    for _ in range(4):
        b.snap("ana", 0)                           # four 5s onto the 5s: the row is empty
    assert row(b, "ana") == []
    quiet_turn(b)                                  # bruno
    with rejected("empty_row", IllegalEventError) as err:
        b.draw("ana", "discard")
    assert err.error is not None
    assert err.error.message == "ana has no card that the discard could replace"
    b.draw("ana", "deck")                          # drawing from the deck is still fine
