"""RULES.md "Cards and decks": the deck of each ruleset, card codes, values and player counts."""

from __future__ import annotations

from collections import Counter

import pytest

from cabo_log.log.builder import LogBuilder
from engine import InconsistentLogError, RulesetError

from .helpers import cabo_round, game, last, pile, rejected, st

# The decks written out by hand from the table (not taken from the engine).
CABO_DECK = ["0"] * 2 + [str(v) for v in range(1, 13) for _ in range(4)] + ["13"] * 2
STANDARD = [r + s for s in "SHDC"
            for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]


def deal_whole(b: LogBuilder, deck: list[str], players: list[str]) -> LogBuilder:
    """Deal ``deck`` exactly as given: 4 cards per player, then the discard, then the deck."""
    hands = {p: deck[4 * i:4 * i + 4] for i, p in enumerate(players)}
    n = 4 * len(players)
    return b.deal(hands, deck[n], deck=deck[n + 1:], first=players[0])


# --- deck ------------------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", ["edition1", "edition2"])
def test_deck_cabo_deck_52_cards(ruleset: str) -> None:
    # value 0 x2, 1..12 x4, 13 x2 = 2 + 48 + 2 = 52 cards
    assert len(CABO_DECK) == 52
    b = deal_whole(game(ruleset), CABO_DECK, ["ana", "bruno"])
    assert len(st(b).round.codes) == 52


@pytest.mark.parametrize("ruleset", ["edition1", "edition2"])
@pytest.mark.parametrize("change", ["extra_13", "missing_0", "third_0"])
def test_deck_cabo_deck_must_be_exact(ruleset: str, change: str) -> None:
    deck = list(CABO_DECK)
    if change == "extra_13":
        deck.append("13")           # 53 cards, three 13s
    elif change == "missing_0":
        deck.remove("0")            # 51 cards
    else:
        deck[deck.index("1")] = "0"  # 52 cards but three 0s and three 1s
    b = game(ruleset)
    with rejected("bad_deal", InconsistentLogError):
        deal_whole(b, deck, ["ana", "bruno"])


def test_deck_golf_standard_52_no_jokers() -> None:
    assert len(STANDARD) == 52
    b = deal_whole(game("golf"), STANDARD, ["ana", "bruno"])
    assert len(st(b).round.codes) == 52
    with rejected("unknown_card", InconsistentLogError):
        deal_whole(game("golf"), STANDARD + ["JK"], ["ana", "bruno"])


def test_deck_online_standard_52_plus_two_jokers() -> None:
    deck = STANDARD + ["JK", "JK"]  # 52 + 2 = 54
    b = deal_whole(game("online"), deck, ["ana", "bruno"])
    assert len(st(b).round.codes) == 54
    with rejected("bad_deal", InconsistentLogError):  # one joker missing
        deal_whole(game("online"), STANDARD + ["JK"], ["ana", "bruno"])


def test_deck_golf_jokers_option_adds_two_jokers() -> None:
    deck = STANDARD + ["JK", "JK"]  # 54 with the option
    b = deal_whole(game("golf", jokers=True), deck, ["ana", "bruno"])
    assert len(st(b).round.codes) == 54


def test_two_decks_double_every_card() -> None:
    deck = CABO_DECK * 2  # 104 cards, every code twice as often
    b = deal_whole(game("edition1", decks=2), deck, ["ana", "bruno"])
    assert Counter(st(b).round.codes) == Counter({"0": 4, "13": 4,
                                            **{str(v): 8 for v in range(1, 13)}})
    with rejected("bad_deal", InconsistentLogError):
        deal_whole(game("edition1", decks=2), CABO_DECK, ["ana", "bruno"])


def test_two_decks_cards_identified_by_position_not_code() -> None:
    # Both players hold the same codes; a swap moves one physical card, not "every 5".
    b = game("edition1", ["ana", "bruno"], decks=2)
    b.deal({"ana": ["5", "5", "1", "1"], "bruno": ["5", "5", "2", "2"]}, "3", ["11"])
    b.draw("ana").discard("ana").swap("ana", ("ana", 2), ("bruno", 0))
    g = st(b)
    assert g.row_codes(0) == ["5", "5", "5", "1"]
    assert g.row_codes(1) == ["1", "5", "2", "2"]
    # 16 distinct physical cards were dealt into rows/pile even though codes repeat
    assert len(set(g.round.rows[0]) | set(g.round.rows[1])) == 8


# --- card codes ------------------------------------------------------------------------------

@pytest.mark.parametrize("code", ["14", "-1", "00", "05", "K", "AS", "JK", " 5"])
def test_card_codes_cabo_deck_are_0_to_13(code: str) -> None:
    deck = [code] + CABO_DECK[1:]  # one "0" replaced by the bad code
    with rejected("unknown_card", InconsistentLogError) as err:
        deal_whole(game("edition1"), deck, ["ana", "bruno"])
    assert err.error is not None
    assert err.error.message == f"{code!r} is not a card of this ruleset's deck (edition1)"


@pytest.mark.parametrize("code", ["1S", "11H", "KX", "Q", "13", "10", "kS", "JK"])
def test_card_codes_golf_rank_and_suit(code: str) -> None:
    deck = [code] + STANDARD[1:]  # the ace of spades replaced by the bad code
    with rejected("unknown_card", InconsistentLogError):
        deal_whole(game("golf"), deck, ["ana", "bruno"])


def test_card_codes_golf_accepts_ten_and_faces() -> None:
    b = game("golf")
    b.deal({"ana": ["AS", "10H", "QD", "KC"], "bruno": ["JS", "2C", "3D", "4H"]}, "5S")
    assert st(b).row_codes(0) == ["AS", "10H", "QD", "KC"]


# --- values ----------------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", ["edition1", "edition2"])
def test_values_printed_number(ruleset: str) -> None:
    b = game(ruleset)
    b.deal({"ana": ["0", "13", "7", "1"], "bruno": ["12", "11", "10", "9"]}, "5", ["3"])
    cabo_round(b, "ana")
    # ana 0 + 13 + 7 + 1 = 21; bruno 12 + 11 + 10 + 9 = 42
    assert last(b).totals == {"ana": 21, "bruno": 42}


def test_values_golf_faces_and_red_king() -> None:
    b = game("golf")
    b.deal({"ana": ["AS", "JH", "QD", "KC"], "bruno": ["KH", "KD", "KS", "10C"]}, "5S", ["3S"])
    cabo_round(b, "ana")
    # ana A 1 + J 11 + Q 12 + black K(C) 13 = 37
    # bruno red K(H) -1 + red K(D) -1 + black K(S) 13 + 10 = 21
    assert last(b).totals == {"ana": 37, "bruno": 21}


def test_values_golf_joker_option_zero() -> None:
    b = game("golf", jokers=True)
    b.deal({"ana": ["JK", "JK", "2S", "3S"], "bruno": ["4S", "5S", "6S", "7S"]}, "8S", ["3H"])
    cabo_round(b, "ana")
    # ana 0 + 0 + 2 + 3 = 5; bruno 4 + 5 + 6 + 7 = 22
    assert last(b).totals == {"ana": 5, "bruno": 22}


def test_values_golf_joker_has_no_power() -> None:
    b = game("golf", jokers=True)
    b.deal({"ana": ["AS", "2S", "3S", "4S"], "bruno": ["5S", "6S", "7S", "8S"]}, "9S", ["JK"])
    b.draw("ana").discard("ana")
    assert pile(b)[-1] == "JK"
    assert st(b).round.pending_power is None and st(b).round.current == 1  # bruno's turn at once


def test_values_online_every_king_13_joker_0() -> None:
    b = game("online")
    b.deal({"ana": ["KH", "KD", "JK", "AS"], "bruno": ["KS", "KC", "JK", "10D"]}, "5S", ["3S"])
    cabo_round(b, "ana")
    # ana 13 + 13 + 0 + 1 = 27; bruno 13 + 13 + 0 + 10 = 36
    assert last(b).totals == {"ana": 27, "bruno": 36}


def test_values_online_joker_has_no_power() -> None:
    b = game("online")
    b.deal({"ana": ["AS", "2S", "3S", "4S"], "bruno": ["5S", "6S", "7S", "8S"]}, "9S", ["JK"])
    b.draw("ana").discard("ana")
    assert st(b).round.pending_power is None and st(b).round.current == 1


# --- players ---------------------------------------------------------------------------------

def _names(n: int) -> list[str]:
    return [f"p{i}" for i in range(n)]


@pytest.mark.parametrize(("ruleset", "options", "ok", "bad"), [
    ("edition1", {}, [2, 3, 4, 5], [1, 6]),
    ("edition1", {"decks": 2}, [2, 5, 6], [1, 7]),
    ("edition2", {}, [2, 3, 4, 5], [1, 6]),
    ("edition2", {"decks": 2}, [2, 5, 6], [1, 7]),
    ("golf", {}, [2, 3, 4], [1, 5]),
    ("golf", {"decks": 2}, [5, 6], [1, 7]),
    ("online", {}, [2, 3, 4, 5], [1, 6]),
])
def test_players(ruleset: str, options: dict[str, int], ok: list[int], bad: list[int]) -> None:
    for n in ok:
        LogBuilder(ruleset, _names(n), options=options)
    for n in bad:
        with rejected("bad_players", RulesetError):
            LogBuilder(ruleset, _names(n), options=options)


def test_golf_options_exist_only_in_golf() -> None:
    for option in ("jokers", "open_peek", "no_snap", "kamikaze"):
        LogBuilder("golf", ["ana", "bruno"], options={option: True})
        for other in ("edition1", "edition2", "online"):
            with rejected("bad_option", RulesetError):
                LogBuilder(other, ["ana", "bruno"], options={option: True})
