"""RULES.md "A turn": draw, discard, replace, multi-replacement, powers, Cabo."""

from __future__ import annotations

import pytest

from engine import EVERYBODY, IllegalEventError

from .helpers import (
    cabo_round,
    deck,
    face_up,
    game,
    knows,
    last,
    pile,
    play_out,
    quiet_turn,
    rejected,
    replay,
    row,
    st,
    to_play,
)

EDITIONS = ["edition1", "edition2"]
# the same table in each deck: (7, 9, J, a plain 5) per ruleset
CODES = {
    "edition1": {"7": "7", "8": "8", "9": "9", "10": "10", "J": "11", "Q": "12", "5": "5",
                 "3": "3", "1": "1"},
    "edition2": {"7": "7", "8": "8", "9": "9", "10": "10", "J": "11", "Q": "12", "5": "5",
                 "3": "3", "1": "1"},
    "golf": {"7": "7S", "8": "8S", "9": "9S", "10": "10S", "J": "JS", "Q": "QS", "5": "5S",
             "3": "3D", "1": "AD"},
    "online": {"7": "7S", "8": "8S", "9": "9S", "10": "10S", "J": "JS", "Q": "QS", "5": "5S",
               "3": "3D", "1": "AD"},
}
ALL = ["edition1", "edition2", "golf", "online"]


def hands_for(ruleset: str) -> tuple[dict[str, list[str]], str]:
    """Two quiet rows (no 7..12 in them) and a discard for ``ruleset``."""
    if ruleset.startswith("edition"):
        return {"ana": ["1", "2", "3", "4"], "bruno": ["4", "3", "2", "1"]}, "6"
    return {"ana": ["AS", "2S", "3S", "4S"], "bruno": ["AH", "2H", "3H", "4H"]}, "6S"


# --- draw, discard, replace ------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", ALL)
def test_draw_from_deck_only_drawer_sees_it(ruleset: str) -> None:
    hands, top = hands_for(ruleset)
    c = CODES[ruleset]
    b = game(ruleset).deal(hands, top, [c["5"]])
    b.draw("ana", "deck", card=c["5"])
    g = st(b)
    assert g.round.face_up[g.round.drawn] is False
    assert g.round.known[g.round.drawn] == 0b01  # ana (seat 0) only


@pytest.mark.parametrize("ruleset", ALL)
def test_discard_drawn_card_face_up_on_pile(ruleset: str) -> None:
    hands, top = hands_for(ruleset)
    c = CODES[ruleset]
    b = game(ruleset).deal(hands, top, [c["5"]]).draw("ana").discard("ana")
    assert pile(b) == [top, c["5"]]
    g = st(b)
    assert g.round.face_up[g.round.pile[-1]] and to_play(b) == "bruno"  # no power: the turn is over


@pytest.mark.parametrize("ruleset", ALL)
def test_replace_one_card_from_deck(ruleset: str) -> None:
    hands, top = hands_for(ruleset)
    c = CODES[ruleset]
    b = game(ruleset).deal(hands, top, [c["5"]]).draw("ana").replace("ana", [2])
    assert row(b, "ana") == [hands["ana"][0], hands["ana"][1], c["5"], hands["ana"][3]]
    assert pile(b) == [top, hands["ana"][2]]      # the replaced card, face up on the pile
    assert face_up(b, "ana") == [False] * 4       # the drawn card lies face down
    assert knows(b, "ana", "ana", 2) and not knows(b, "bruno", "ana", 2)
    assert to_play(b) == "bruno"


@pytest.mark.parametrize("ruleset", ["edition1", "edition2", "online"])
def test_replace_gives_no_power_outside_golf(ruleset: str) -> None:
    c = CODES[ruleset]
    hands, top = hands_for(ruleset)
    hands["ana"][1] = c["7"]                      # the replaced card is a 7 (peek)
    b = game(ruleset).deal(hands, top, [c["9"]]).draw("ana").replace("ana", [1])
    # neither the replaced 7 nor the drawn 9 gives a power: bruno plays at once
    assert pile(b)[-1] == c["7"] and st(b).round.pending_power is None and to_play(b) == "bruno"


@pytest.mark.parametrize("ruleset", ALL)
def test_take_discard_must_replace(ruleset: str) -> None:
    hands, top = hands_for(ruleset)
    b = game(ruleset).deal(hands, top).draw("ana", "discard")
    with rejected("must_replace", IllegalEventError):
        b.discard("ana")
    b.replace("ana", [0])
    assert row(b, "ana")[0] == top and pile(b) == [hands["ana"][0]]


@pytest.mark.parametrize(("ruleset", "lies_face_up"), [
    ("edition1", True), ("edition2", True), ("golf", False), ("online", False)])
def test_taken_discard_card_lies(ruleset: str, lies_face_up: bool) -> None:
    hands, top = hands_for(ruleset)
    b = game(ruleset).deal(hands, top).draw("ana", "discard").replace("ana", [3])
    assert face_up(b, "ana")[3] is lies_face_up
    assert knows(b, "bruno", "ana", 3)             # either way everybody saw it


@pytest.mark.parametrize("ruleset", ALL)
def test_taken_discard_card_gives_no_power_itself(ruleset: str) -> None:
    c = CODES[ruleset]
    hands, _ = hands_for(ruleset)
    b = game(ruleset).deal(hands, c["7"]).draw("ana", "discard").replace("ana", [0])
    # the taken 7 gives nothing; the card put on the pile is ana's 1 (no power either)
    assert pile(b) == [hands["ana"][0]] and st(b).round.pending_power is None


# --- multi-replacement -----------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", EDITIONS)
def test_multi_replacement_two_cards_success_row_shape(ruleset: str) -> None:
    b = game(ruleset).deal({"ana": ["5", "3", "5", "9"], "bruno": ["1", "2", "3", "4"]},
                           "6", ["1"])
    b.draw("ana").replace("ana", [2, 0])
    # the drawn 1 takes slot 2 (first listed); slot 0 disappears; 3 and 9 keep their order
    assert row(b, "ana") == ["3", "1", "9"]
    assert pile(b) == ["6", "5", "5"]
    assert b.outcome.success is True and face_up(b, "ana") == [False, False, False]


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_multi_replacement_into_picks_the_slot(ruleset: str) -> None:
    b = game(ruleset).deal({"ana": ["5", "3", "5", "9"], "bruno": ["1", "2", "3", "4"]},
                           "6", ["1"])
    b.draw("ana").replace("ana", [2, 0], into=0)
    assert row(b, "ana") == ["1", "3", "9"]


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_multi_replacement_into_must_be_listed(ruleset: str) -> None:
    b = game(ruleset).deal({"ana": ["5", "3", "5", "9"], "bruno": ["1", "2", "3", "4"]},
                           "6", ["1"])
    b.draw("ana")
    with rejected("bad_into", IllegalEventError):
        b.replace("ana", [2, 0], into=1)


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_multi_replacement_three_cards_success(ruleset: str) -> None:
    b = game(ruleset).deal({"ana": ["4", "4", "9", "4"], "bruno": ["1", "2", "3", "5"]},
                           "6", ["2"])
    b.draw("ana").replace("ana", [0, 1, 3])
    assert row(b, "ana") == ["2", "9"]
    assert pile(b) == ["6", "4", "4", "4"]


def test_multi_replacement_edition1_any_count_five_cards() -> None:
    b = game("edition1", decks=2)
    b.deal({"ana": ["4", "4", "4", "9"], "bruno": ["1", "2", "3", "5"]}, "6",
           ["4", "6", "4", "6", "1"])
    b.draw("ana").replace("ana", [2, 3])          # 4 and 9 differ: fails, row grows
    assert row(b, "ana") == ["4", "4", "4", "9", "4"]
    quiet_turn(b)                                  # bruno discards a 6
    b.draw("ana").replace("ana", [3])              # the 9 -> 4
    quiet_turn(b)
    b.draw("ana").replace("ana", [0, 1, 2, 3, 4])  # five 4s at once
    assert row(b, "ana") == ["1"]


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_failed_multi_replacement_two_cards(ruleset: str) -> None:
    b = game(ruleset).deal({"ana": ["5", "3", "6", "9"], "bruno": ["1", "2", "3", "4"]},
                           "6", ["1", "8"])
    b.draw("ana").replace("ana", [0, 2])
    # 5 and 6 differ: they stay, now face up; the drawn 1 is added at the right end
    assert b.outcome.success is False
    assert row(b, "ana") == ["5", "3", "6", "9", "1"]
    assert face_up(b, "ana") == [True, False, True, False, False]
    assert knows(b, "bruno", "ana", 0) and knows(b, "bruno", "ana", 2)
    assert not knows(b, "bruno", "ana", 4) and knows(b, "ana", "ana", 4)
    assert pile(b) == ["6"] and deck(b)[0] == "8"  # nothing discarded, no penalty card


@pytest.mark.parametrize("ruleset", EDITIONS)
@pytest.mark.parametrize("positions", [[0, 1, 2], [3, 2, 1, 0]])
def test_failed_multi_replacement_three_or_more_cards_penalty(ruleset: str,
                                                              positions: list[int]) -> None:
    b = game(ruleset).deal({"ana": ["5", "3", "6", "9"], "bruno": ["1", "2", "3", "4"]},
                           "6", ["1", "8"])
    b.draw("ana").replace("ana", positions)
    # the chosen cards stay face up, the drawn 1 is added, then the 8 from the deck top
    assert row(b, "ana") == ["5", "3", "6", "9", "1", "8"]
    up = [p in positions for p in range(4)] + [False, False]
    assert face_up(b, "ana") == up
    assert not knows(b, "ana", "ana", 5) and not knows(b, "bruno", "ana", 5)
    assert b.outcome.penalty == "8"


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_failed_multi_replacement_into_allowed_and_ignored(ruleset: str) -> None:
    b = game(ruleset).deal({"ana": ["5", "3", "6", "9"], "bruno": ["1", "2", "3", "4"]},
                           "6", ["1"])
    b.draw("ana").replace("ana", [0, 2], into=2)
    assert row(b, "ana") == ["5", "3", "6", "9", "1"]


def test_failed_multi_replacement_edition1_end_is_not_the_logs_choice() -> None:
    b = game("edition1").deal({"ana": ["5", "3", "6", "9"], "bruno": ["1", "2", "3", "4"]},
                              "6", ["1"])
    b.draw("ana").replace("ana", [0, 2], end="left")
    assert row(b, "ana") == ["5", "3", "6", "9", "1"]  # always the right end


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_failed_multi_replacement_with_taken_discard_face_up(ruleset: str) -> None:
    b = game(ruleset).deal({"ana": ["5", "3", "6", "9"], "bruno": ["1", "2", "3", "4"]}, "2")
    b.draw("ana", "discard").replace("ana", [0, 1])
    assert row(b, "ana") == ["5", "3", "6", "9", "2"]
    assert face_up(b, "ana") == [True, True, False, False, True]
    assert pile(b) == []


def test_golf_single_replacement_only() -> None:
    b = game("golf").deal({"ana": ["5S", "5H", "6S", "9S"], "bruno": ["AH", "2H", "3H", "4H"]},
                          "6H", ["AS"])
    b.draw("ana")
    with rejected("too_many_cards", IllegalEventError) as err:
        b.replace("ana", [0, 1])
    assert err.error is not None
    assert err.error.message == "golf allows replacing at most 1 card at once"
    b.replace("ana", [1])
    assert row(b, "ana") == ["5S", "AS", "6S", "9S"]


def test_online_multi_replacement_four_cards_into_and_discard_order() -> None:
    b = game("online").deal({"ana": ["5S", "5H", "5D", "5C"],
                             "bruno": ["AH", "2H", "3H", "4H"]}, "6H", ["AS"])
    b.draw("ana").replace("ana", [3, 1, 0, 2], into=2)
    assert row(b, "ana") == ["AS"]
    # in the order listed; the last one listed (slot 2, the 5D) ends on top
    assert pile(b) == ["6H", "5C", "5H", "5S", "5D"]


def test_online_multi_replacement_into_keeps_order_of_the_rest() -> None:
    b = game("online").deal({"ana": ["5S", "2S", "3S", "5H"],
                             "bruno": ["AH", "2H", "3H", "4H"]}, "6H", ["AS"])
    b.draw("ana").replace("ana", [0, 3], into=3)
    # slot 3 gets the drawn ace, slot 0 disappears: 2S 3S AS
    assert row(b, "ana") == ["2S", "3S", "AS"]
    assert pile(b) == ["6H", "5S", "5H"]


def test_online_at_most_four_cards() -> None:
    b = game("online").deal({"ana": ["5S", "5H", "6S", "9S"], "bruno": ["AH", "2H", "3H", "4H"]},
                            "6H", ["AS", "7H", "8H"])
    b.draw("ana").replace("ana", [0, 2])          # fails: row grows to 5
    quiet_turn(b)                                  # bruno discards 7H, skips the peek
    b.draw("ana")
    with rejected("too_many_cards", IllegalEventError) as err:
        b.replace("ana", [0, 1, 2, 3, 4])
    assert err.error is not None
    assert err.error.message == "online allows replacing at most 4 cards at once"


@pytest.mark.parametrize(("end", "expected"), [
    (None, ["5S", "3S", "6S", "9S", "AS"]),
    ("right", ["5S", "3S", "6S", "9S", "AS"]),
    ("left", ["AS", "5S", "3S", "6S", "9S"]),
])
def test_online_failed_multi_replacement_end(end: str | None, expected: list[str]) -> None:
    b = game("online").deal({"ana": ["5S", "3S", "6S", "9S"], "bruno": ["AH", "2H", "3H", "4H"]},
                            "6H", ["AS", "8H"])
    b.draw("ana").replace("ana", [0, 2], end=end)
    assert row(b, "ana") == expected
    assert deck(b)[0] == "8H"                      # two cards: no penalty


def test_online_failed_three_cards_drawn_left_penalty_right() -> None:
    b = game("online").deal({"ana": ["5S", "3S", "6S", "9S"], "bruno": ["AH", "2H", "3H", "4H"]},
                            "6H", ["AS", "8H"])
    b.draw("ana").replace("ana", [0, 1, 2], end="left")
    assert row(b, "ana") == ["AS", "5S", "3S", "6S", "9S", "8H"]
    assert face_up(b, "ana") == [False, True, True, True, False, False]


def test_online_failed_four_cards_penalty() -> None:
    b = game("online").deal({"ana": ["5S", "3S", "6S", "9S"], "bruno": ["AH", "2H", "3H", "4H"]},
                            "6H", ["AS", "8H"])
    b.draw("ana").replace("ana", [0, 1, 2, 3])
    assert row(b, "ana") == ["5S", "3S", "6S", "9S", "AS", "8H"]


# --- powers ----------------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", ALL)
@pytest.mark.parametrize("card", ["7", "8"])
def test_power_peek_own_card(ruleset: str, card: str) -> None:
    hands, top = hands_for(ruleset)
    code = CODES[ruleset][card]
    b = game(ruleset).deal(hands, top, [code]).draw("ana").discard("ana")
    assert st(b).round.pending_power == "peek"
    with rejected("bad_target", IllegalEventError):
        b.event({"type": "power", "player": "ana", "power": "peek", "target": ["bruno", 0]})
    assert not knows(b, "ana", "ana", 2)
    b.peek_power("ana", 2)
    assert knows(b, "ana", "ana", 2) and not knows(b, "bruno", "ana", 2)
    assert to_play(b) == "bruno"


@pytest.mark.parametrize("ruleset", ALL)
@pytest.mark.parametrize("card", ["9", "10"])
def test_power_spy_other_players_card(ruleset: str, card: str) -> None:
    hands, top = hands_for(ruleset)
    code = CODES[ruleset][card]
    b = game(ruleset).deal(hands, top, [code]).draw("ana").discard("ana")
    assert st(b).round.pending_power == "spy"
    with rejected("bad_target", IllegalEventError):
        b.spy("ana", "ana", 0)
    b.spy("ana", "bruno", 1)
    assert knows(b, "ana", "bruno", 1) and b.outcome.card == hands["bruno"][1]


@pytest.mark.parametrize("ruleset", ALL)
@pytest.mark.parametrize("card", ["J", "Q"])
def test_power_swap_own_with_another_players(ruleset: str, card: str) -> None:
    hands, top = hands_for(ruleset)
    code = CODES[ruleset][card]
    b = game(ruleset).deal(hands, top, [code]).draw("ana").discard("ana")
    assert st(b).round.pending_power == "swap"
    b.swap("ana", ("bruno", 3), ("ana", 0))  # the pairs in any order
    assert row(b, "ana")[0] == hands["bruno"][3] and row(b, "bruno")[3] == hands["ana"][0]
    # blind: ana does not learn bruno's card
    assert not knows(b, "ana", "ana", 0)


@pytest.mark.parametrize("ruleset", ALL)
def test_power_swap_needs_two_different_players(ruleset: str) -> None:
    hands, top = hands_for(ruleset)
    b = game(ruleset).deal(hands, top, [CODES[ruleset]["J"]]).draw("ana").discard("ana")
    with rejected("swap_not_allowed", IllegalEventError) as err:
        b.swap("ana", ("ana", 0), ("ana", 1))
    assert err.error is not None
    assert err.error.message == "a swap exchanges cards of two players"


def _three(ruleset: str) -> dict[str, list[str]]:
    if ruleset.startswith("edition"):
        return {"ana": ["1", "2", "3", "4"], "bruno": ["4", "3", "2", "1"],
                "carla": ["5", "5", "6", "6"]}
    return {"ana": ["AS", "2S", "3S", "4S"], "bruno": ["AH", "2H", "3H", "4H"],
            "carla": ["5S", "5H", "6D", "6C"]}


def test_power_swap_edition1_two_other_players() -> None:
    b = game("edition1", ["ana", "bruno", "carla"])
    b.deal(_three("edition1"), "9", ["12"]).draw("ana").discard("ana")
    b.swap("ana", ("bruno", 0), ("carla", 3))  # the user is neither player
    assert row(b, "bruno") == ["6", "3", "2", "1"]
    assert row(b, "carla") == ["5", "5", "6", "4"]
    assert row(b, "ana") == ["1", "2", "3", "4"]


@pytest.mark.parametrize("ruleset", ["edition2", "golf", "online"])
def test_power_swap_others_must_include_own_card(ruleset: str) -> None:
    top = "9" if ruleset == "edition2" else "9D"
    b = game(ruleset, ["ana", "bruno", "carla"])
    b.deal(_three(ruleset), top, [CODES[ruleset]["Q"]]).draw("ana").discard("ana")
    with rejected("swap_not_allowed", IllegalEventError) as err:
        b.swap("ana", ("bruno", 0), ("carla", 3))
    assert err.error is not None
    assert err.error.message == (f"in {ruleset} a swap exchanges one of the user's own cards "
                                 "with another player's")
    b.swap("ana", ("ana", 1), ("carla", 3))


def test_power_swap_keeps_face_state() -> None:
    b = game("edition1").deal({"ana": ["1", "2", "3", "4"], "bruno": ["4", "3", "2", "1"]},
                              "5", ["11"])
    b.draw("ana", "discard").replace("ana", [0])     # the 5 lies face up in ana's slot 0
    b.draw("bruno").discard("bruno")                 # bruno discards an 11: swap
    b.swap("bruno", ("bruno", 2), ("ana", 0))
    assert row(b, "bruno")[2] == "5" and face_up(b, "bruno")[2] is True
    assert row(b, "ana")[0] == "2" and face_up(b, "ana")[0] is False


def test_power_online_other_player_must_be_active() -> None:
    b = game("online", ["ana", "bruno", "carla"])
    b.deal(_three("online"), "9D", ["9S", "JS"]).forfeit("carla")
    b.draw("ana").discard("ana")
    with rejected("inactive_player", IllegalEventError):
        b.spy("ana", "carla", 0)
    b.spy("ana", "bruno", 0)
    b.draw("bruno").discard("bruno")
    with rejected("inactive_player", IllegalEventError):
        b.swap("bruno", ("bruno", 0), ("carla", 0))


@pytest.mark.parametrize("ruleset", ALL)
def test_power_wrong_power_for_the_card(ruleset: str) -> None:
    hands, top = hands_for(ruleset)
    code = CODES[ruleset]["7"]
    b = game(ruleset).deal(hands, top, [code]).draw("ana").discard("ana")
    with rejected("wrong_power", IllegalEventError) as err:
        b.spy("ana", "bruno", 0)
    assert err.error is not None
    assert err.error.message == f"the discarded {code} gives peek, not spy"


@pytest.mark.parametrize("ruleset", ALL)
@pytest.mark.parametrize("card", ["1", "3", "5"])
def test_power_none_for_low_cards(ruleset: str, card: str) -> None:
    hands, top = hands_for(ruleset)
    code = CODES[ruleset][card]
    hands["ana"] = [CODES[ruleset]["8"], *hands["ana"][1:]]
    b = game(ruleset).deal(hands, top, [code]).draw("ana").discard("ana")
    assert st(b).round.pending_power is None and to_play(b) == "bruno"
    with rejected("power_not_earned", IllegalEventError):
        b.peek_power("ana", 0)


@pytest.mark.parametrize("ruleset", ["edition1", "edition2"])
def test_power_none_for_13_and_0(ruleset: str) -> None:
    b = game(ruleset).deal({"ana": ["1", "2", "3", "4"], "bruno": ["4", "3", "2", "1"]},
                           "5", ["13", "0"])
    b.draw("ana").discard("ana")
    assert st(b).round.pending_power is None
    b.draw("bruno").discard("bruno")
    assert st(b).round.pending_power is None


@pytest.mark.parametrize("king", ["KS", "KH"])
def test_power_none_for_kings_golf(king: str) -> None:
    b = game("golf").deal({"ana": ["AS", "2S", "3S", "4S"], "bruno": ["AH", "2H", "3H", "4H"]},
                          "6S", [king])
    b.draw("ana").discard("ana")
    assert st(b).round.pending_power is None


def test_power_none_for_kings_online() -> None:
    b = game("online").deal({"ana": ["AS", "2S", "3S", "4S"], "bruno": ["AH", "2H", "3H", "4H"]},
                            "6S", ["KH"])
    b.draw("ana").discard("ana")
    assert st(b).round.pending_power is None


def test_power_golf_from_replaced_card_taken_discard_replacing_a_9() -> None:
    b = game("golf").deal({"ana": ["AS", "9S", "3S", "4S"], "bruno": ["AH", "2H", "3H", "4H"]},
                          "5D")
    b.draw("ana", "discard").replace("ana", [1])
    assert pile(b) == ["9S"] and st(b).round.pending_power == "spy"
    b.spy("ana", "bruno", 2)
    assert knows(b, "ana", "bruno", 2)


def test_power_golf_from_replaced_card_deck_draw_replacing_a_jack() -> None:
    b = game("golf").deal({"ana": ["AS", "JD", "3S", "4S"], "bruno": ["AH", "2H", "3H", "4H"]},
                          "5D", ["2C"])
    b.draw("ana").replace("ana", [1])
    assert st(b).round.pending_power == "swap"
    b.swap("ana", ("ana", 1), ("bruno", 0))
    assert row(b, "ana")[1] == "AH" and row(b, "bruno")[0] == "2C"


def test_power_golf_from_discarded_draw() -> None:
    b = game("golf").deal({"ana": ["AS", "2S", "3S", "4S"], "bruno": ["AH", "2H", "3H", "4H"]},
                          "5D", ["8C"])
    b.draw("ana").discard("ana")
    assert st(b).round.pending_power == "peek"


def test_power_golf_replaced_low_card_no_power_even_if_drawn_had_one() -> None:
    b = game("golf").deal({"ana": ["AS", "2S", "3S", "4S"], "bruno": ["AH", "2H", "3H", "4H"]},
                          "9D", ["7C"])
    b.draw("ana", "discard").replace("ana", [2])    # took the 9, put the 3 on the pile
    assert st(b).round.pending_power is None and to_play(b) == "bruno"
    b.draw("bruno").replace("bruno", [0])           # drew the 7, put the AH on the pile
    assert st(b).round.pending_power is None


@pytest.mark.parametrize("ruleset", ALL)
def test_power_on_final_turns(ruleset: str) -> None:
    hands, top = hands_for(ruleset)
    b = game(ruleset).deal(hands, top, [CODES[ruleset]["9"]])
    b.cabo("ana").draw("bruno").discard("bruno")
    assert st(b).round.pending_power == "spy"
    b.spy("bruno", "ana", 0)
    assert b.outcome.card == hands["ana"][0]
    assert len(st(b).rounds) == 1 and last(b).end == "cabo"  # the last final turn is over


@pytest.mark.parametrize("ruleset", ALL)
def test_power_skip_explicit(ruleset: str) -> None:
    hands, top = hands_for(ruleset)
    b = game(ruleset).deal(hands, top, [CODES[ruleset]["7"]]).draw("ana").discard("ana")
    b.skip("ana")
    assert to_play(b) == "bruno" and st(b).round.pending_power is None
    with rejected("power_not_earned", IllegalEventError):
        b.peek_power("ana", 0)


@pytest.mark.parametrize("ruleset", ALL)
def test_power_skip_by_next_turn_starting(ruleset: str) -> None:
    hands, top = hands_for(ruleset)
    c = CODES[ruleset]
    b = game(ruleset).deal(hands, top, [c["7"], c["5"]]).draw("ana").discard("ana")
    b.draw("bruno")
    assert b.outcome.lapsed is not None and to_play(b) == "bruno"


def test_power_skip_by_log_ending_then_round_ends() -> None:
    b = game("edition1").deal({"ana": ["1", "2", "3", "4"], "bruno": ["4", "3", "2", "1"]},
                              "5", ["9"])
    b.cabo("ana").draw("bruno").discard("bruno")   # bruno's final turn, spy pending
    assert st(b).rounds == []
    rep = replay(b).report()
    # the log ends: the spy is read as skipped, so the final turn is over and the round ends
    assert rep["rounds"][0]["end"] == "cabo"
    assert rep["rounds"][0]["points"] == {"ana": 0, "bruno": 10}  # ana 10 ties: caller wins


def test_skip_without_power() -> None:
    b = game("edition1").deal({"ana": ["1", "2", "3", "4"], "bruno": ["4", "3", "2", "1"]},
                              "5", ["6"]).draw("ana").discard("ana")
    with rejected("nothing_to_skip", IllegalEventError):
        b.skip("bruno")


# --- Cabo ------------------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", ALL)
def test_cabo_on_the_very_first_turn(ruleset: str) -> None:
    hands, top = hands_for(ruleset)
    b = game(ruleset).deal(hands, top).cabo("ana")
    assert st(b).round.caller == 0 and to_play(b) == "bruno"


@pytest.mark.parametrize("ruleset", ALL)
def test_cabo_second_call_rejected(ruleset: str) -> None:
    hands, top = hands_for(ruleset)
    b = game(ruleset, ["ana", "bruno", "carla"]).deal(_three(ruleset), top).cabo("ana")
    with rejected("second_cabo", IllegalEventError) as err:
        b.cabo("bruno")
    assert err.error is not None
    assert err.error.message == "ana already called Cabo this round"


@pytest.mark.parametrize("ruleset", ALL)
def test_cabo_only_at_start_of_turn(ruleset: str) -> None:
    hands, top = hands_for(ruleset)
    b = game(ruleset).deal(hands, top).draw("ana")
    with rejected("wrong_phase", IllegalEventError):
        b.cabo("ana")


@pytest.mark.parametrize("ruleset", ALL)
def test_cabo_others_play_one_more_turn_in_seat_order_caller_not_again(ruleset: str) -> None:
    top = "9" if ruleset.startswith("edition") else "9D"
    b = game(ruleset, ["ana", "bruno", "carla"]).deal(_three(ruleset), top,
                                                       first="bruno")
    quiet_turn(b)            # bruno
    b.cabo("carla")
    order = []
    while not st(b).rounds:
        order.append(to_play(b))
        quiet_turn(b)
    assert order == ["ana", "bruno"]
    assert last(b).caller == "carla" and last(b).turns == 4  # bruno, carla (Cabo), ana, bruno


@pytest.mark.parametrize("ruleset", ALL)
def test_not_your_turn(ruleset: str) -> None:
    hands, top = hands_for(ruleset)
    b = game(ruleset).deal(hands, top)
    with rejected("not_your_turn", IllegalEventError):
        b.draw("bruno")
    with rejected("not_your_turn", IllegalEventError):
        b.cabo("bruno")


def test_cabo_round_and_play_out_helpers_agree() -> None:
    b = game("edition1").deal({"ana": ["1", "2", "3", "4"], "bruno": ["4", "3", "2", "1"]}, "5")
    cabo_round(b, "ana")
    b.deal({"ana": ["1", "2", "3", "4"], "bruno": ["4", "3", "2", "1"]}, "5", first="bruno")
    b.cabo("bruno")
    play_out(b)
    assert [r.caller for r in st(b).rounds] == ["ana", "bruno"]


@pytest.mark.parametrize(("ruleset", "card"), [
    *[("edition1", str(v)) for v in (0, 1, 2, 3, 4, 5, 6, 13)],
    *[("edition2", str(v)) for v in (0, 1, 2, 3, 4, 5, 6, 13)],
    *[("golf", c) for c in ("AD", "2D", "3D", "4D", "5D", "6D", "KD", "KC")],
    *[("online", c) for c in ("AD", "2D", "3D", "4D", "5D", "6D", "KD", "KC", "JK")],
])
def test_power_none_for_every_value_without_one(ruleset: str, card: str) -> None:
    hands, top = hands_for(ruleset)    # the deck still holds another copy of each card
    b = game(ruleset).deal(hands, top, [card]).draw("ana").discard("ana")
    assert st(b).round.pending_power is None and to_play(b) == "bruno"


@pytest.mark.parametrize("ruleset", ALL)
def test_auto_moves_are_ordinary_events(ruleset: str) -> None:
    hands, top = hands_for(ruleset)
    c = CODES[ruleset]
    b = game(ruleset).deal(hands, top, [c["5"], c["3"]])
    b.event({"type": "draw", "player": "ana", "source": "deck", "auto": True})
    b.event({"type": "discard", "player": "ana", "auto": True})
    b.event({"type": "cabo", "player": "bruno", "auto": True})
    assert to_play(b) == "ana" and replay(b).error is None


@pytest.mark.parametrize(("ruleset", "hands", "top", "lies_face_up"), [
    ("edition1", {"ana": ["5", "3", "5", "9"], "bruno": ["1", "2", "3", "4"]}, "1", True),
    ("edition2", {"ana": ["5", "3", "5", "9"], "bruno": ["1", "2", "3", "4"]}, "1", True),
    ("online", {"ana": ["5S", "3S", "5H", "9S"], "bruno": ["AH", "2H", "3H", "4H"]}, "AS",
     False),
])
def test_multi_replacement_with_the_taken_discard(ruleset: str, hands: dict[str, list[str]],
                                                  top: str, lies_face_up: bool) -> None:
    b = game(ruleset).deal(hands, top).draw("ana", "discard").replace("ana", [0, 2])
    assert row(b, "ana") == [top, hands["ana"][1], hands["ana"][3]]
    assert face_up(b, "ana")[0] is lies_face_up and knows(b, "bruno", "ana", 0)
    assert pile(b) == [hands["ana"][0], hands["ana"][2]]
    assert st(b).round.pending_power is None


def test_forfeit_with_a_held_card_makes_it_public_in_the_outcome() -> None:
    """The held card of a player who leaves lies face up on the pile: the forfeit's outcome
    says everybody learned it (readers following knowledge by outcomes rely on it)."""
    b = game("online", ["ana", "bruno", "carla"])
    b.deal(_three("online"), "9D", ["9S", "JS"]).draw("ana")
    held = st(b).round.drawn
    code = st(b).round.codes[held]
    b.forfeit("ana")
    done = b.outcome
    assert done is not None
    assert done.discarded == (code,)
    assert (EVERYBODY, held) in done.learned
    assert st(b).round.face_up[held] and st(b).round.pile[-1] == held


def test_forfeit_ending_the_round_makes_the_other_held_card_public() -> None:
    """Two left, the one not holding leaves: the round ends and the card still held goes to
    the pile face up; the outcome says so."""
    hands, top = hands_for("online")
    b = game("online", ["ana", "bruno"])
    b.deal(hands, top, ["9S"]).draw("ana")
    held = st(b).round.drawn
    b.forfeit("bruno")
    done = b.outcome
    assert done is not None and done.round_ended is not None
    assert (EVERYBODY, held) in done.learned
