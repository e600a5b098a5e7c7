"""RULES.md "Cabo and the end of a round": the empty draw pile per ruleset, reshuffles and
their timing, the end reason."""

from __future__ import annotations

import pytest

from cabo_log.log.builder import LogBuilder
from engine import IllegalEventError, InconsistentLogError

from .helpers import (
    deal_with_bottom,
    deck,
    drain,
    game,
    last,
    pile,
    quiet_turn,
    rejected,
    report,
    row,
    st,
    to_play,
)

E_HANDS = {"ana": ["2", "2", "5", "5"], "bruno": ["3", "3", "4", "4"]}
G_HANDS = {"ana": ["2S", "2H", "5S", "5H"], "bruno": ["3S", "3H", "4S", "4H"]}


# --- edition1 / golf: reshuffle --------------------------------------------------------------

@pytest.mark.parametrize(("ruleset", "hands", "top"), [
    ("edition1", E_HANDS, "6"), ("golf", G_HANDS, "6S")])
def test_reshuffle_right_after_the_turn_that_emptied_the_pile(
        ruleset: str, hands: dict[str, list[str]], top: str) -> None:
    b = game(ruleset).deal(hands, top)
    drain(b)
    under, last_discard = pile(b)[:-1], pile(b)[-1]
    # 52 - 8 dealt - 1 first discard = 43 drawn and discarded; all but the top go back
    assert under[0] == top and len(under) == 43
    new = list(reversed(under))                     # any order the log gives
    b.reshuffle(new)
    assert deck(b) == new and pile(b) == [last_discard] and st(b).round.reshuffles == 1
    quiet_turn(b)                                   # the game goes on from the new pile
    assert pile(b)[-1] == new[0]


@pytest.mark.parametrize(("ruleset", "hands", "top"), [
    ("edition1", E_HANDS, "6"), ("golf", G_HANDS, "6S")])
def test_reshuffle_deck_draw_without_it_is_an_error(
        ruleset: str, hands: dict[str, list[str]], top: str) -> None:
    b = drain(game(ruleset).deal(hands, top))
    with rejected("reshuffle_missing", InconsistentLogError) as err:
        b.draw(to_play(b), "deck")
    assert err.error is not None
    assert err.error.message == ("the draw pile is empty: the log must reshuffle the discard "
                                 "pile before this draw")


def test_reshuffle_later_players_take_the_discard_meanwhile() -> None:
    b = drain(game("edition1").deal(E_HANDS, "6"))
    who = to_play(b)
    top = pile(b)[-1]
    b.draw(who, "discard").replace(who, [0])        # legal with an empty draw pile
    assert row(b, who)[0] == top
    quiet_turn_player = to_play(b)
    b.reshuffle()                                   # later: still legal, before the deck draw
    b.draw(quiet_turn_player, "deck")


def test_reshuffle_while_the_pile_has_cards_is_an_error() -> None:
    b = drain(game("edition1").deal(E_HANDS, "6"), keep=1)
    with rejected("reshuffle_not_needed", InconsistentLogError) as err:
        b.reshuffle(pile(b)[:-1])
    assert err.error is not None and err.error.message == "the draw pile still has 1 card"


def test_reshuffle_must_be_exactly_the_pile_under_its_top() -> None:
    b = drain(game("edition1").deal(E_HANDS, "6"))
    under = pile(b)[:-1]
    with rejected("bad_reshuffle", InconsistentLogError):
        b.reshuffle(under[1:])                      # one card short
    with rejected("bad_reshuffle", InconsistentLogError):
        b.reshuffle(pile(b))                        # the top card included
    b.reshuffle(under)


def test_reshuffle_between_turns_or_right_before_a_penalty_card() -> None:
    b = drain(game("edition1").deal(E_HANDS, "6"), keep=1)
    who = to_play(b)
    b.draw(who)                                      # the last card: pile now empty
    b.discard(who)
    if st(b).round.pending_power:
        b.skip(who)
    b.reshuffle()                                    # right after the turn: fine
    assert len(deck(b)) > 0


def test_reshuffle_with_only_the_top_card_nothing_to_reshuffle() -> None:
    # Every deck draw is added to the row by a failed 2-card replacement (2 and 5 differ),
    # so nothing reaches the discard pile: it keeps only its first card.
    b = game("edition1").deal({"ana": ["2", "5", "1", "1"], "bruno": ["3", "4", "1", "1"]},
                              "6")
    while deck(b):
        who = to_play(b)
        b.draw(who).replace(who, [0, 1])
    assert pile(b) == ["6"]
    who = to_play(b)
    with rejected("deck_empty", IllegalEventError):  # not reshuffle_missing
        b.draw(who, "deck")
    b.draw(who, "discard").replace(who, [0])
    assert deck(b) == [] and len(pile(b)) == 1


def test_penalty_card_owed_empty_pile_edition1_reshuffle_first() -> None:
    b = drain(game("edition1").deal({"ana": ["2", "5", "7", "1"], "bruno": ["3", "4", "9", "1"]},
                                    "6"))
    who = to_play(b)
    b.draw(who, "discard")
    with rejected("reshuffle_missing", InconsistentLogError):
        b.replace(who, [0, 1, 2])                   # fails with 3 cards: a penalty is owed
    # the reshuffle belongs before the turn
    b2 = drain(game("edition1").deal({"ana": ["2", "5", "7", "1"],
                                      "bruno": ["3", "4", "9", "1"]}, "6"))
    b2.reshuffle()
    new_top = deck(b2)[0]
    who = to_play(b2)
    b2.draw(who, "discard").replace(who, [0, 1, 2])
    assert row(b2, who)[-1] == new_top and len(row(b2, who)) == 6


def test_penalty_card_owed_after_drawing_the_last_card_edition1_reshuffle_mid_turn() -> None:
    b = drain(game("edition1").deal({"ana": ["2", "5", "7", "1"], "bruno": ["3", "4", "9", "1"]},
                                    "6"), keep=1)
    who = to_play(b)
    b.draw(who)                                     # the last card: the pile is now empty
    with rejected("reshuffle_missing", InconsistentLogError):
        b.replace(who, [0, 1, 2])                   # fails with 3 cards: a penalty is owed
    b.reshuffle()                                   # "reshuffle first", right before the card
    new_top = deck(b)[0]
    b.replace(who, [0, 1, 2])
    # 4 cards + the drawn card + the penalty card from the new draw pile
    assert len(row(b, who)) == 6 and row(b, who)[-1] == new_top


# --- edition2: the empty draw pile ends the round --------------------------------------------

THREE = {"ana": ["2", "2", "5", "5"], "bruno": ["3", "3", "4", "4"], "carla": ["0", "0", "1", "1"]}


def test_edition2_no_reshuffle() -> None:
    b = drain(game("edition2").deal(E_HANDS, "6"), keep=1)
    with rejected("reshuffle_not_allowed", IllegalEventError):
        b.reshuffle([])


def test_edition2_empty_pile_ends_round_without_cabo() -> None:
    b = game("edition2", ["ana", "bruno", "carla"]).deal(THREE, "7", first="ana")
    drain(b, keep=1)
    assert st(b).rounds == []
    quiet_turn(b)                                    # draws the last card
    r = last(b)
    # no caller: everybody scores the hand total: ana 2+2+5+5 = 14, bruno 14, carla 0+0+1+1 = 2
    assert (r.end, r.caller, r.cabo_success) == ("deck_empty", None, None)
    assert r.points == {"ana": 14, "bruno": 14, "carla": 2}
    assert r.turns == 52 - 13                        # 39 cards in the draw pile, one per turn


def test_edition2_empty_pile_ends_round_even_with_final_turns_left() -> None:
    # 38 quiet turns from ana leave 1 card; turn 39 is carla's (38 % 3 = 2)
    b = game("edition2", ["ana", "bruno", "carla"]).deal(THREE, "7", first="ana")
    drain(b, keep=1)
    assert to_play(b) == "carla"
    b.cabo("carla")
    quiet_turn(b)                                    # ana's final turn takes the last card
    r = last(b)
    # bruno's final turn is cut short; carla (2) is still scored as the caller: no lower -> 0
    assert (r.end, r.caller, r.cabo_success) == ("deck_empty", "carla", True)
    assert r.points == {"ana": 14, "bruno": 14, "carla": 0}


def test_edition2_last_final_turn_empties_pile_ends_with_cabo() -> None:
    # 37 quiet turns from bruno leave 2 cards with carla to play
    b = game("edition2", ["ana", "bruno", "carla"]).deal(THREE, "7", first="bruno")
    drain(b, keep=2)
    assert to_play(b) == "carla"
    b.cabo("carla")
    quiet_turn(b)                                    # ana
    quiet_turn(b)                                    # bruno takes the last card
    assert deck(b) == []
    assert (last(b).end, last(b).caller) == ("cabo", "carla")
    assert report(b)["rounds"][0]["end"] == "cabo"


def test_edition2_pile_emptied_by_a_penalty_card() -> None:
    b = game("edition2").deal({"ana": ["2", "5", "7", "1"], "bruno": ["3", "4", "9", "1"]}, "6")
    drain(b, keep=2)
    who = to_play(b)
    b.draw(who).replace(who, [0, 1, 2])              # fails: the penalty card is the last one
    assert len(row(b, who)) == 6
    assert last(b).end == "deck_empty"


def test_edition2_penalty_card_owed_with_empty_pile_nothing_owed() -> None:
    b = game("edition2").deal({"ana": ["2", "5", "7", "1"], "bruno": ["3", "4", "9", "1"]}, "6")
    drain(b, keep=1)
    who = to_play(b)
    b.draw(who).replace(who, [0, 1, 2])              # fails, the pile is empty: no penalty
    assert len(st(b).round.rows[st(b).seat[who]]) == 5
    assert last(b).end == "deck_empty"


def test_edition2_round_ends_when_the_power_of_the_last_card_is_done() -> None:
    b = game("edition2")
    deal_with_bottom(b, E_HANDS, "6", ["9"])          # the last card is a 9 (spy)
    drain(b, keep=1)
    who = to_play(b)
    other = "bruno" if who == "ana" else "ana"
    b.draw(who).discard(who)
    assert st(b).rounds == [] and st(b).round.pending_power == "spy"
    b.spy(who, other, 0)                             # the turn is complete: the round ends
    assert last(b).end == "deck_empty"


# --- online: no reshuffle, both piles empty --------------------------------------------------

O_HANDS = {"ana": ["2S", "5S", "AS", "AH"], "bruno": ["3S", "4S", "AD", "AC"]}


def _online_drain_keeping_pile() -> LogBuilder:
    b = game("online").deal(O_HANDS, "6S")
    while deck(b):                                   # failed 2-card replacements: the draws
        who = to_play(b)                             # go into the rows, the pile keeps 6S
        b.draw(who).replace(who, [0, 1])
    return b


def test_online_no_reshuffle_deck_draw_is_an_error() -> None:
    b = game("online").deal(O_HANDS, "6S")
    drain(b)
    with rejected("reshuffle_not_allowed", IllegalEventError):
        b.reshuffle(pile(b)[:-1])
    with rejected("deck_empty", IllegalEventError) as err:
        b.draw(to_play(b), "deck")
    assert err.error is not None and err.error.message == "the draw pile is empty"
    who = to_play(b)
    b.draw(who, "discard").replace(who, [0])        # taking the discard is still allowed


def test_online_both_piles_empty_only_cabo_final_turns_skipped() -> None:
    b = _online_drain_keeping_pile()
    who = to_play(b)
    b.draw(who, "discard").replace(who, [0, 1])     # fails: the 6S joins the row
    assert deck(b) == [] and pile(b) == []
    nxt = to_play(b)
    with rejected("deck_empty", IllegalEventError):
        b.draw(nxt, "deck")
    with rejected("discard_empty", IllegalEventError):
        b.draw(nxt, "discard")
    turns = st(b).round.turn
    b.cabo(nxt)
    # the other player's final turn has no card to take: skipped, the round ends at once
    assert len(st(b).rounds) == 1 and last(b).end == "cabo" and last(b).turns == turns + 1


def test_online_final_turn_with_only_the_discard_is_played() -> None:
    b = _online_drain_keeping_pile()
    who = to_play(b)
    b.cabo(who)
    other = to_play(b)
    assert other != who and st(b).rounds == []
    b.draw(other, "discard").replace(other, [0])
    assert last(b).end == "cabo"


def test_online_penalty_card_owed_with_empty_pile_nothing_owed() -> None:
    b = game("online").deal({"ana": ["2S", "5S", "7S", "AH"], "bruno": ["3S", "4S", "9S", "AC"]},
                            "6S")
    drain(b)
    who = to_play(b)
    b.draw(who, "discard").replace(who, [0, 1, 2])  # fails with 3 cards, nothing to give
    assert len(row(b, who)) == 5
