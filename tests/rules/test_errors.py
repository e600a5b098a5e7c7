"""Every kind of bad line pins its error class, ``code``, line and message (python-chess style).

Each case builds a valid prefix with the strict builder, appends one bad line unchecked, and
replays the bytes: the replay must stop at exactly that line with exactly that error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cabo_log.log.builder import LogBuilder
from cabo_log.log.replay import replay_bytes
from engine import (
    CaboLogError,
    IllegalEventError,
    InconsistentLogError,
    LogSyntaxError,
    RulesetError,
)

from .helpers import cabo_round, drain, game, quiet_turn

E_HANDS = {"ana": ["1", "2", "3", "4"], "bruno": ["5", "5", "6", "6"]}
G_HANDS = {"ana": ["AS", "2S", "3S", "4S"], "bruno": ["5S", "5H", "6S", "6H"]}
THREE = {"ana": ["1", "2", "3", "4"], "bruno": ["5", "5", "6", "6"], "carla": ["8", "8", "9", "9"]}


LOW = ["1", "2", "3", "4"]


def pile_under(b: LogBuilder) -> list[str]:
    assert b.state is not None
    return [b.state.round.codes[c] for c in b.state.round.pile[:-1]]


def e1(deck_top: tuple[str, ...] = ("7",), players: int = 2) -> LogBuilder:
    hands = E_HANDS if players == 2 else THREE
    return game("edition1", list(hands)).deal(hands, "10", list(deck_top), first="ana")


def e2(deck_top: tuple[str, ...] = ("7",)) -> LogBuilder:
    return game("edition2", ["ana", "bruno", "carla"]).deal(THREE, "10", list(deck_top),
                                                            first="ana")


def golf(deck_top: tuple[str, ...] = ("7D",)) -> LogBuilder:
    return game("golf").deal(G_HANDS, "9D", list(deck_top), first="ana")


def online(deck_top: tuple[str, ...] = ("7D",)) -> LogBuilder:
    hands = {**G_HANDS, "carla": ["8S", "8H", "9S", "9H"]}
    return game("online", list(hands)).deal(hands, "9D", list(deck_top), first="ana")


def deal_line(round_: int, first: str, hands: dict[str, list[str]], discard: str,
              deck: list[str]) -> dict[str, Any]:
    return {"type": "deal", "round": round_, "first": first, "hands": hands, "discard": discard,
            "deck": deck}


def full_deal(b: LogBuilder, hands: dict[str, list[str]], discard: str,
              first: str = "ana", round_: int = 1) -> dict[str, Any]:
    return deal_line(round_, first, hands, discard, b.remaining(hands, discard, ()))


Line = dict[str, Any] | Callable[[LogBuilder], dict[str, Any]]


def after(build: Callable[[], LogBuilder], line: Line) -> tuple[LogBuilder, int]:
    b = build()
    b.raw(line(b) if callable(line) else line, seq=True)
    return b, len(b.lines)


def now(b: LogBuilder) -> str:
    """The player to act."""
    assert b.state is not None
    return b.state.players[b.state.round.current]


# (name, build, bad line, class, code, message) -- the bad line is the last one of the log
Case = tuple[str, Callable[[], LogBuilder], Line, type[CaboLogError], str, str]

CASES: list[Case] = [
    # --- wrong player / phase / turn ---
    ("unknown_player", e1, {"type": "draw", "player": "zoe", "source": "deck"},
     IllegalEventError, "unknown_player", "'zoe' is not a player of this game"),
    ("not_your_turn_draw", e1, {"type": "draw", "player": "bruno", "source": "deck"},
     IllegalEventError, "not_your_turn", "it is ana's turn, not bruno's"),
    ("not_your_turn_cabo", e1, {"type": "cabo", "player": "bruno"},
     IllegalEventError, "not_your_turn", "it is ana's turn, not bruno's"),
    ("draw_mid_turn", lambda: e1().draw("ana"),
     {"type": "draw", "player": "ana", "source": "deck"},
     IllegalEventError, "wrong_phase", "ana is in the middle of a turn"),
    ("cabo_mid_turn", lambda: e1().draw("ana"), {"type": "cabo", "player": "ana"},
     IllegalEventError, "wrong_phase", "Cabo is called at the start of a turn"),
    ("second_cabo", lambda: e1(players=3).cabo("ana"), {"type": "cabo", "player": "bruno"},
     IllegalEventError, "second_cabo", "ana already called Cabo this round"),
    ("no_round", lambda: game("edition1"), {"type": "draw", "player": "ana", "source": "deck"},
     IllegalEventError, "no_round", "no round has been dealt yet"),
    ("round_over", lambda: cabo_round(e1(), "ana"),
     {"type": "draw", "player": "bruno", "source": "deck"},
     IllegalEventError, "round_over", "round 1 is over; the next event must be a deal"),
    ("round_in_progress", e1, deal_line(2, "ana", E_HANDS, "10", []),
     IllegalEventError, "round_in_progress", "round 1 is still being played"),
    ("discard_nothing_drawn", e1, {"type": "discard", "player": "ana"},
     IllegalEventError, "nothing_drawn", "ana holds no drawn card to discard"),
    ("replace_nothing_drawn", e1, {"type": "replace", "player": "ana", "positions": [0]},
     IllegalEventError, "nothing_drawn", "ana holds no drawn card to place"),
    ("must_replace", lambda: e1().draw("ana", "discard"), {"type": "discard", "player": "ana"},
     IllegalEventError, "must_replace",
     "a card taken from the discard pile must replace a card of the row"),
    # --- positions ---
    ("position_out_of_range", lambda: e1().draw("ana"),
     {"type": "replace", "player": "ana", "positions": [4]},
     IllegalEventError, "bad_position",
     "ana has no card at position 4 (their row has 4 cards)"),
    ("position_negative", lambda: e1().draw("ana"),
     {"type": "replace", "player": "ana", "positions": [-1]},
     IllegalEventError, "bad_position",
     "ana has no card at position -1 (their row has 4 cards)"),
    ("position_twice", lambda: e1().draw("ana"),
     {"type": "replace", "player": "ana", "positions": [1, 1]},
     IllegalEventError, "bad_position", "a position is listed twice"),
    ("too_many_cards", lambda: golf().draw("ana"),
     {"type": "replace", "player": "ana", "positions": [0, 1]},
     IllegalEventError, "too_many_cards", "golf allows replacing at most 1 card at once"),
    ("bad_into", lambda: game("edition1").deal({"ana": ["5", "5", "6", "6"], "bruno": LOW},
                                               "10", ["7"]).draw("ana"),
     {"type": "replace", "player": "ana", "positions": [0, 1], "into": 2},
     IllegalEventError, "bad_into", "'into' 2 is not one of the listed positions"),
    # --- initial peek ---
    ("bad_peek_count", e1, {"type": "peek", "player": "ana", "positions": [0, 1, 2]},
     IllegalEventError, "bad_peek", "the initial peek is 2 different positions, not [0, 1, 2]"),
    ("bad_peek_fixed", golf, {"type": "peek", "player": "ana", "positions": [0, 1]},
     IllegalEventError, "bad_peek", "in golf the initial peek is positions [0, 3], not [0, 1]"),
    ("peek_too_late", lambda: e1().draw("ana").discard("ana").skip("ana"),
     {"type": "peek", "player": "bruno", "positions": [0, 1]},
     IllegalEventError, "peek_too_late", "the initial peek comes before the round's first turn"),
    ("already_peeked", lambda: e1().peek("ana", [0, 1]),
     {"type": "peek", "player": "ana", "positions": [2, 3]},
     IllegalEventError, "already_peeked", "ana has already looked at their cards this round"),
    # --- powers ---
    ("power_not_earned", lambda: e1(("5",)).draw("ana").discard("ana"),
     {"type": "power", "player": "ana", "power": "peek", "target": ["ana", 0]},
     IllegalEventError, "power_not_earned", "ana has not earned a power at this point"),
    ("power_after_replace", lambda: e1().draw("ana").replace("ana", [0]),
     {"type": "power", "player": "ana", "power": "peek", "target": ["ana", 0]},
     IllegalEventError, "power_not_earned", "ana has not earned a power at this point"),
    ("wrong_power", lambda: e1().draw("ana").discard("ana"),
     {"type": "power", "player": "ana", "power": "swap", "cards": [["ana", 0], ["bruno", 0]]},
     IllegalEventError, "wrong_power", "the discarded 7 gives peek, not swap"),
    ("peek_other", lambda: e1().draw("ana").discard("ana"),
     {"type": "power", "player": "ana", "power": "peek", "target": ["bruno", 0]},
     IllegalEventError, "bad_target", "peek looks at one of the user's own cards"),
    ("spy_own", lambda: e1(("9",)).draw("ana").discard("ana"),
     {"type": "power", "player": "ana", "power": "spy", "target": ["ana", 0]},
     IllegalEventError, "bad_target", "spy looks at another player's card"),
    ("spy_out_of_range", lambda: e1(("9",)).draw("ana").discard("ana"),
     {"type": "power", "player": "ana", "power": "spy", "target": ["bruno", 7]},
     IllegalEventError, "bad_position",
     "bruno has no card at position 7 (their row has 4 cards)"),
    ("swap_same_player", lambda: e1(("11",)).draw("ana").discard("ana"),
     {"type": "power", "player": "ana", "power": "swap", "cards": [["bruno", 0], ["bruno", 1]]},
     IllegalEventError, "swap_not_allowed", "a swap exchanges cards of two players"),
    ("swap_not_own", lambda: e2(("12",)).draw("ana").discard("ana"),
     {"type": "power", "player": "ana", "power": "swap", "cards": [["bruno", 0], ["carla", 1]]},
     IllegalEventError, "swap_not_allowed",
     "in edition2 a swap exchanges one of the user's own cards with another player's"),
    ("nothing_to_skip", lambda: e1(("5",)).draw("ana").discard("ana"),
     {"type": "skip", "player": "bruno"},
     IllegalEventError, "nothing_to_skip", "bruno has no power to skip"),
    # --- snap, reshuffle, forfeit by ruleset ---
    ("snap_outside_golf", e1, {"type": "snap", "player": "bruno", "position": 0},
     IllegalEventError, "snap_not_allowed", "there is no snapping in edition1"),
    ("snap_mid_turn", lambda: golf().draw("ana"), {"type": "snap", "player": "bruno",
                                                   "position": 0},
     IllegalEventError, "wrong_phase", "a snap comes between turns, not while a card is held"),
    ("reshuffle_not_allowed", e2, {"type": "reshuffle", "deck": []},
     IllegalEventError, "reshuffle_not_allowed", "edition2 never reshuffles the discard pile"),
    ("forfeit_not_allowed", e1, {"type": "forfeit", "player": "bruno"},
     IllegalEventError, "forfeit_not_allowed", "there are no forfeits in edition1"),
    ("inactive_player", lambda: online().forfeit("carla"),
     {"type": "forfeit", "player": "carla"},
     IllegalEventError, "inactive_player", "carla has already left the match"),
    ("inactive_player_target", lambda: online(("10D",)).forfeit("carla").draw("ana")
     .discard("ana"), {"type": "power", "player": "ana", "power": "spy",
                       "target": ["carla", 0]},
     IllegalEventError, "inactive_player", "carla has left the match"),
    # --- cards that are not where the log says ---
    ("wrong_card_deck", e1, {"type": "draw", "player": "ana", "source": "deck", "card": "8"},
     InconsistentLogError, "wrong_card", "the top of the deck pile is 7, not 8"),
    ("wrong_card_discard", e1,
     {"type": "draw", "player": "ana", "source": "discard", "card": "8"},
     InconsistentLogError, "wrong_card", "the top of the discard pile is 10, not 8"),
    ("reshuffle_not_needed", e1, {"type": "reshuffle", "deck": []},
     InconsistentLogError, "reshuffle_not_needed", "the draw pile still has 43 cards"),
    ("reshuffle_missing", lambda: drain(e1()),
     {"type": "draw", "player": "bruno", "source": "deck"},
     InconsistentLogError, "reshuffle_missing",
     "the draw pile is empty: the log must reshuffle the discard pile before this draw"),
    ("bad_reshuffle", lambda: drain(e1()),
     lambda b: {"type": "reshuffle", "deck": pile_under(b)[1:] + ["13"]},
     InconsistentLogError, "bad_reshuffle",
     "the new draw pile must be exactly the discard pile under its top card: missing a 10, "
     "extra a 13"),
    ("deck_empty", lambda: drain(online()),
     lambda b: {"type": "draw", "player": now(b), "source": "deck"},
     IllegalEventError, "deck_empty", "the draw pile is empty"),
    ("discard_empty", lambda: online().draw("ana", "discard").replace("ana", [0, 1]),
     {"type": "draw", "player": "bruno", "source": "discard"},
     IllegalEventError, "discard_empty", "the discard pile is empty"),
    ("draw_after_edition2_deck_empty", lambda: drain(e2()),
     {"type": "draw", "player": "ana", "source": "deck"},
     IllegalEventError, "round_over", "round 1 is over; the next event must be a deal"),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_error(case: Case) -> None:
    _name, build, line, kind, code, message = case
    b, number = after(build, line)
    result = replay_bytes(b.to_bytes(), "g.jsonl")
    err = result.error
    assert err is not None, "the log was accepted"
    assert (type(err), err.code, err.line, err.message) == (kind, code, number, message)
    assert str(err) == f"g.jsonl:{number}: {code}: {message}"
    assert result.state is not None and result.state.events == number - 1  # all before it
    assert result.report()["error"] == {"file": "g.jsonl", "line": number, "code": code,
                                        "kind": kind.kind, "message": message}


# --- deals -----------------------------------------------------------------------------------

def _golf_tiebreak() -> LogBuilder:
    b = game("golf", ["ana", "bruno", "carla"], target=50)
    b.deal({"ana": ["AS", "2S", "3S", "4S"], "bruno": ["KS", "KC", "QS", "QH"],
            "carla": ["AH", "2H", "3H", "4H"]}, "9S", first="bruno")
    # bruno 50 + 10 = 60 >= 50; ana 10 and carla 10 tie: a tie-break round for them
    return cabo_round(b, "bruno")


def _golf_tiebreak_round() -> LogBuilder:
    return _golf_tiebreak().deal({"ana": ["5S", "6S", "7S", "8S"],
                                  "carla": ["5H", "6H", "7H", "8H"]}, "5D", first="carla")


def _edition2_after_round() -> LogBuilder:
    b = game("edition2").deal(E_HANDS, "10", first="ana")
    return cabo_round(b, "ana")  # ana 10 -> 0; bruno 22: ana starts round 2


def _swapped_deck(b: LogBuilder) -> dict[str, Any]:
    line = full_deal(b, E_HANDS, "10")
    deck = list(line["deck"])
    deck[deck.index("0")] = "13"      # a third 13 instead of a 0
    return {**line, "deck": deck}


DEAL_CASES: list[Case] = [
    ("deal_wrong_players", lambda: game("edition1"),
     lambda b: full_deal(b, {"ana": LOW}, "10"),
     InconsistentLogError, "bad_deal",
     "round 1 must deal to exactly ana, bruno; the log deals to ana"),
    ("deal_three_cards", lambda: game("edition1"),
     lambda b: full_deal(b, {"ana": ["1", "2", "3"], "bruno": ["5", "5", "6", "6"]}, "10"),
     InconsistentLogError, "bad_deal", "ana must be dealt 4 cards, not 3"),
    ("deal_not_the_deck", lambda: game("edition1"), _swapped_deck,
     InconsistentLogError, "bad_deal",
     "hands, discard and deck must be exactly the edition1 deck: missing a 0, extra a 13"),
    ("deal_short_deck", lambda: game("edition1"),
     lambda b: {**full_deal(b, E_HANDS, "10"), "deck": full_deal(b, E_HANDS, "10")["deck"][1:]},
     InconsistentLogError, "bad_deal",
     "hands, discard and deck must be exactly the edition1 deck: missing a 0"),
    ("deal_unknown_card", lambda: game("edition1"),
     lambda b: {**full_deal(b, E_HANDS, "10"), "discard": "X"},
     InconsistentLogError, "unknown_card", "'X' is not a card of this ruleset's deck (edition1)"),
    ("deal_wrong_round", lambda: game("edition1"),
     lambda b: full_deal(b, E_HANDS, "10", round_=2),
     InconsistentLogError, "wrong_round", "this deal should start round 1, not round 2"),
    ("deal_first_not_dealt_in", _golf_tiebreak,
     lambda b: full_deal(b, {"ana": LOW_G, "carla": HIGH_G}, "9D", first="bruno", round_=2),
     InconsistentLogError, "wrong_first_player",
     "bruno cannot start round 2: they are not dealt in"),
    ("deal_first_by_rule", _edition2_after_round,
     lambda b: full_deal(b, E_HANDS, "10", first="bruno", round_=2),
     InconsistentLogError, "wrong_first_player",
     "ana must start round 2 (fewest points), not bruno"),
    ("not_in_round", _golf_tiebreak_round, {"type": "snap", "player": "bruno", "position": 0},
     IllegalEventError, "not_in_round", "bruno does not play in this round"),
    ("peek_not_in_round", _golf_tiebreak_round,
     {"type": "peek", "player": "bruno", "positions": [0, 3]},
     IllegalEventError, "not_in_round", "bruno does not play in this round"),
]
LOW_G = ["AS", "2S", "3S", "4S"]
HIGH_G = ["KS", "KC", "QS", "QH"]


@pytest.mark.parametrize("case", DEAL_CASES, ids=[c[0] for c in DEAL_CASES])
def test_deal_error(case: Case) -> None:
    test_error(case)


def _match_over() -> LogBuilder:
    b = game("edition2")
    for _ in range(3):  # bruno's Kamikaze: ana 50, 100 -> 50, 100 again: the match is over
        b.deal({"ana": LOW, "bruno": ["12", "12", "13", "13"]}, "10", first="bruno")
        cabo_round(b, "bruno")
    return b


def test_match_over_errors() -> None:
    for line, message in [
        (lambda b: full_deal(b, E_HANDS, "10", first="bruno", round_=4),
         "the match is over; no more rounds are dealt"),
        (lambda b: {"type": "draw", "player": "ana", "source": "deck"}, "the match is over"),
    ]:
        test_error(("match_over", _match_over, line, IllegalEventError, "match_over", message))


def test_forfeit_after_match_over() -> None:
    def build() -> LogBuilder:
        b = game("online")
        b.deal({"ana": LOW_G, "bruno": HIGH_G}, "9D", first="ana")
        return b.forfeit("bruno")
    test_error(("match_over", build, {"type": "forfeit", "player": "ana"}, IllegalEventError,
                "match_over", "the match is over"))


def test_claims_errors() -> None:
    def one() -> LogBuilder:
        return cabo_round(game("edition1").deal(E_HANDS, "10", first="ana"), "ana")
    test_error(("claim_mismatch", one,
                {"type": "round_end", "round": 1, "points": {"ana": 10, "bruno": 22}},
                InconsistentLogError, "claim_mismatch",
                "round 1: the log claims points ana 10, bruno 22, but the rules give ana 0, "
                "bruno 22"))
    test_error(("claim_premature", e1,
                {"type": "round_end", "round": 1, "points": {"ana": 0, "bruno": 22}},
                InconsistentLogError, "claim_premature", "round 1 has not ended at this point"))
    test_error(("claim_premature", one, {"type": "game_end", "winners": ["ana"],
                                         "scores": {"ana": 0, "bruno": 22}},
                InconsistentLogError, "claim_premature",
                "the match has not ended at this point"))


# --- lines that are not events: raw bytes ----------------------------------------------------

HEADER = (b'{"type":"game","format":"cabo-log/1","game_id":"g","ruleset":"edition1",'
          b'"options":{},"players":["ana","bruno"]}')
HEADER_SEQ = (b'{"type":"game","seq":0,"format":"cabo-log/1","game_id":"g",'
              b'"ruleset":"edition1","options":{},"players":["ana","bruno"]}')


def raw_error(data: bytes) -> CaboLogError:
    result = replay_bytes(data, "g.jsonl")
    assert result.error is not None, "the log was accepted"
    return result.error


RAW_CASES: list[tuple[str, bytes, type[CaboLogError], str, int, str]] = [
    ("not_utf8", HEADER + b'\n{"type":"cabo","player":"\xff"}\n',
     LogSyntaxError, "not_utf8", 2, "the line is not valid UTF-8 text"),
    ("not_object", HEADER + b"\n[1, 2]\n",
     LogSyntaxError, "not_object", 2, "a line must be a JSON object, not list"),
    ("not_object_number", HEADER + b"\n42\n",
     LogSyntaxError, "not_object", 2, "a line must be a JSON object, not 42"),
    ("no_type", HEADER + b'\n{"player":"ana"}\n',
     LogSyntaxError, "missing_field", 2, "event has no 'type' field"),
    ("unknown_type", HEADER + b'\n{"type":"shuffle"}\n',
     LogSyntaxError, "unknown_type", 2, "unknown event type 'shuffle'"),
    ("type_not_string", HEADER + b'\n{"type":3}\n',
     LogSyntaxError, "unknown_type", 2, "unknown event type 3"),
    ("missing_field", HEADER + b'\n{"type":"draw","source":"deck"}\n',
     LogSyntaxError, "missing_field", 2, "draw event has no 'player' field"),
    ("bad_source", HEADER + b'\n{"type":"draw","player":"ana","source":"hand"}\n',
     LogSyntaxError, "bad_field", 2,
     "draw: field 'source' must be 'deck' or 'discard', not 'hand'"),
    ("player_not_string", HEADER + b'\n{"type":"cabo","player":1}\n',
     LogSyntaxError, "bad_field", 2, "cabo: field 'player' must be a string, not 1"),
    ("positions_empty", HEADER + b'\n{"type":"replace","player":"ana","positions":[]}\n',
     LogSyntaxError, "bad_field", 2,
     "replace: field 'positions' must be a non-empty list of positions, not list"),
    ("position_not_int", HEADER + b'\n{"type":"snap","player":"ana","position":"1"}\n',
     LogSyntaxError, "bad_field", 2,
     "snap: field 'position' must be a whole number, not a string ('1')"),
    ("bad_end", HEADER + b'\n{"type":"replace","player":"ana","positions":[0],"end":"up"}\n',
     LogSyntaxError, "bad_field", 2, "replace: field 'end' must be 'left' or 'right', not 'up'"),
    ("bad_power_name", HEADER + b'\n{"type":"power","player":"ana","power":"look"}\n',
     LogSyntaxError, "bad_field", 2,
     "power: field 'power' must be 'peek', 'spy' or 'swap', not 'look'"),
    ("swap_one_card", HEADER + b'\n{"type":"power","player":"ana","power":"swap",'
                               b'"cards":[["ana",0]]}\n',
     LogSyntaxError, "bad_field", 2, "power: field 'cards' must be two [player, position] pairs"),
    ("target_shape", HEADER + b'\n{"type":"power","player":"ana","power":"spy",'
                              b'"target":["bruno"]}\n',
     LogSyntaxError, "bad_field", 2,
     "power: field 'target' must be [player, position], not list"),
    ("auto_not_bool", HEADER + b'\n{"type":"cabo","player":"ana","auto":1}\n',
     LogSyntaxError, "bad_field", 2, "cabo: field 'auto' must be true or false"),
    ("seq_negative", HEADER + b'\n{"type":"cabo","seq":-1,"player":"ana"}\n',
     LogSyntaxError, "bad_field", 2, "cabo: field 'seq' must be a whole number >= 0"),
    ("points_not_ints", HEADER + b'\n{"type":"round_end","round":1,"points":{"ana":"3"}}\n',
     LogSyntaxError, "bad_field", 2,
     "round_end: field 'points' must map players to whole numbers, not dict"),
    ("bad_format", b'{"type":"game","format":"cabo-log/2","game_id":"g","ruleset":"edition1",'
                   b'"players":["ana","bruno"]}\n',
     LogSyntaxError, "bad_format", 1, "format must be 'cabo-log/1', not 'cabo-log/2'"),
    ("no_header", b'{"type":"cabo","player":"ana"}\n',
     LogSyntaxError, "no_header", 1, "the first line must be the 'game' header"),
    ("empty_log", b"\n\n",
     LogSyntaxError, "empty_log", 1, "the log has no lines"),
    ("duplicate_header", HEADER + b"\n" + HEADER + b"\n",
     IllegalEventError, "duplicate_header", 2, "a log has exactly one 'game' line, the first"),
    # --- seq ---
    ("seq_gap", HEADER_SEQ + b'\n{"type":"cabo","seq":2,"player":"ana"}\n',
     InconsistentLogError, "seq_gap", 2, "seq jumps from 0 to 2"),
    ("seq_repeat", HEADER_SEQ + b'\n{"type":"cabo","seq":0,"player":"ana"}\n',
     InconsistentLogError, "seq_repeat", 2, "seq 0 repeats an earlier line; 1 was expected"),
    ("seq_missing", HEADER_SEQ + b'\n{"type":"cabo","player":"ana"}\n',
     InconsistentLogError, "seq_missing", 2, "this line has no seq; 1 was expected"),
    ("seq_unexpected", HEADER + b'\n{"type":"cabo","seq":1,"player":"ana"}\n',
     InconsistentLogError, "seq_unexpected", 2,
     "the header has no seq, so no line may have one"),
    ("seq_header_not_0", HEADER_SEQ.replace(b'"seq":0', b'"seq":1') + b"\n",
     InconsistentLogError, "seq_gap", 1, "the header's seq must be 0, not 1"),
    # --- the header's ruleset and players ---
    ("unknown_ruleset", HEADER.replace(b"edition1", b"edition3") + b"\n",
     RulesetError, "unknown_ruleset", 1,
     "unknown ruleset 'edition3' (built-in: edition1, edition2, golf, online)"),
    ("option_not_in_ruleset", HEADER.replace(b'"options":{}', b'"options":{"jokers":true}')
     + b"\n", RulesetError, "bad_option", 1,
     "option 'jokers' does not exist in edition1 (its options: target, decks)"),
    ("option_wrong_type", HEADER.replace(b'"options":{}', b'"options":{"target":"50"}')
     + b"\n", RulesetError, "bad_option", 1,
     "option 'target' must be a whole number, not a string ('50')"),
    ("too_few_players", HEADER.replace(b'["ana","bruno"]', b'["ana"]') + b"\n",
     RulesetError, "bad_players", 1, "edition1 is for 2 to 5 players with 1 deck, not 1"),
    ("duplicate_player", HEADER.replace(b'["ana","bruno"]', b'["ana","ana"]') + b"\n",
     RulesetError, "bad_players", 1, "player ids must be unique"),
    ("empty_player", HEADER.replace(b'["ana","bruno"]', b'["ana",""]') + b"\n",
     RulesetError, "bad_players", 1, "a player id must not be empty"),
    ("house_unknown_parameter",
     HEADER.replace(b'"edition1"', b'{"base":"edition2","snap_speed":3}') + b"\n",
     RulesetError, "bad_ruleset", 1, "house rules: unknown parameter 'snap_speed'"),
    ("house_unknown_base", HEADER.replace(b'"edition1"', b'{"base":"poker"}') + b"\n",
     RulesetError, "bad_ruleset", 1, "house rules: unknown base ruleset 'poker'"),
]


@pytest.mark.parametrize("case", RAW_CASES, ids=[c[0] for c in RAW_CASES])
def test_raw_error(case: tuple[str, bytes, type[CaboLogError], str, int, str]) -> None:
    _name, data, kind, code, line, message = case
    err = raw_error(data)
    assert (type(err), err.code, err.line, err.message) == (kind, code, line, message)


def test_bad_json_names_the_line() -> None:
    err = raw_error(HEADER + b"\n\n{not json}\n")
    assert (type(err), err.code, err.line) == (LogSyntaxError, "bad_json", 3)  # blank counted
    assert err.message.startswith("the line is not valid JSON (")
    assert str(err).startswith("g.jsonl:3: bad_json: the line is not valid JSON (")


def test_bad_json_position_is_a_column_of_the_log_line() -> None:
    # the decoder's own "line 1 column 2" would contradict the log line 3 in front of it
    err = raw_error(HEADER + b"\n\n{not json}\n")
    assert "line 1" not in err.message
    assert err.message.endswith("at column 2 of the line)")


def test_card_differences_name_cards_not_counts() -> None:
    from collections import Counter

    from engine.cards import describe_difference

    assert describe_difference(Counter(["4", "8"]), Counter(["0", "8"])) \
        == "missing a 4, extra a 0"
    assert describe_difference(Counter(["4", "4", "8", "AS"]), Counter()) \
        == "missing two 4s, an 8 and an AS"
    assert describe_difference(Counter(["4"]), Counter(["4"])) == "no difference"


def test_error_after_a_valid_prefix_keeps_the_valid_part() -> None:
    b = e1().draw("ana").discard("ana")
    b.raw({"type": "draw", "player": "ana", "source": "deck"}, seq=True)   # not ana's turn
    result = replay_bytes(b.to_bytes())
    assert result.error is not None and result.error.code == "not_your_turn"
    assert result.error.line == len(b.lines)
    # every line before the bad one was applied, the bad one was not
    assert result.state is not None and result.state.events == len(b.lines) - 1
    assert result.state.round.rows[0] == [0, 1, 2, 3]


def test_quiet_turn_helper_is_legal() -> None:
    b = e1(("5",))
    quiet_turn(b)
    assert replay_bytes(b.to_bytes()).error is None


def test_unreadable_file(tmp_path: Any) -> None:
    from cabo_log.log.replay import replay_file

    result = replay_file(tmp_path / "missing.jsonl")
    err = result.error
    assert err is not None and (type(err), err.code, err.line) == (LogSyntaxError, "unreadable", 0)
    assert err.message == "cannot read the file (No such file or directory)"


def test_every_code_in_the_engine_is_documented() -> None:
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    source = "".join(p.read_text() for p in [*root.glob("engine/*.py"),
                                              *root.glob("cabo_log/log/*.py"),
                                              *root.glob("cabo_log/pages/table/*.py"),
                                              root / "cabo_log/play/follow.py"])
    codes = set(re.findall(r'(?:SyntaxError|EventError|LogError|RulesetError|WriterError)\('
                           r'\s*"([a-z_]+)"', source))
    codes |= {"bad_field"}  # raised through a helper
    # and the loader's refusals of a file (its ``load_errors`` rows)
    codes |= set(re.findall(r'"code": "([a-z_]+)"',
                            (root / "cabo_log/db/replay_files.py").read_text()))
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", (root / "docs/errors.md").read_text(),
                                re.M))
    assert codes - documented == set()
    assert documented - codes == set()


def test_unknown_fields_and_t_are_kept_and_ignored() -> None:
    b = e1(("5",))
    b.event({"type": "draw", "player": "ana", "source": "deck", "t": 1200, "comment": "hm"})
    b.event({"type": "discard", "player": "ana", "t": "2026-11-29T20:00:01Z", "x": [1]})
    assert replay_bytes(b.to_bytes()).error is None
