"""Score sheets (``"record": "tally"``): the engine checks each round for what a sheet can show
and scores it as it scores a dealt round. The expected points below are worked out by hand from
RULES.md (the arithmetic is in the comments), not read back from the engine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cabo_log import cli
from cabo_log.log.replay import replay_bytes, replay_file
from engine import CaboLogError, parse_event
from engine.events import Tally, to_dict

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_games"


def invoke(*args: str) -> Any:
    if not cli.app.registered_commands:
        cli.register_all()
    return CliRunner().invoke(cli.app, list(args))


def sheet(ruleset: str, players: list[str], *lines: dict[str, Any],
          options: dict[str, Any] | None = None) -> bytes:
    header = {"type": "game", "format": "cabo-log/1", "game_id": "t", "ruleset": ruleset,
              "options": options or {}, "players": players, "record": "tally"}
    return b"".join(json.dumps(x).encode() + b"\n" for x in (header, *lines))


def tally(number: int, caller: str | None, **hands: list[str]) -> dict[str, Any]:
    return {"type": "tally", "round": number, "caller": caller, "hands": hands}


def points(stem: str) -> list[dict[str, int]]:
    result = replay_file(SAMPLES / f"{stem}.jsonl")
    assert result.error is None, str(result.error)
    assert result.state is not None
    return [r.points for r in result.state.rounds]


# --- the sample score sheets, scored by hand ---------------------------------------------------


def test_edition1_sheet_scored_by_hand() -> None:
    assert points("tally-edition1") == [
        {"ana": 0, "bruno": 8, "carla": 12},    # ana calls on 6, the lowest hand: 0
        {"ana": 0, "bruno": 11, "carla": 27},   # bruno calls on 6, ana has 4: ana's lowest
                                                # hand scores 0, bruno 6 + 5
        {"ana": 50, "bruno": 50, "carla": 0},   # carla's 12 12 13 13: Kamikaze
        {"ana": 50, "bruno": 0, "carla": 7},    # 11 11 11 11 6 = 50 puts ana on 100 -> 50
        {"ana": 11, "bruno": 32, "carla": 0},   # bruno 101 > 100: the match ends
    ]
    g = replay_file(SAMPLES / "tally-edition1.jsonl").state
    assert g is not None and g.complete
    assert g.rounds[3].resets == ("ana",)
    assert g.cumulative_by_name() == {"ana": 50 + 11, "bruno": 8 + 11 + 50 + 0 + 32,
                                      "carla": 12 + 27 + 0 + 7 + 0}
    assert g.winners == ("carla",)


def test_edition2_sheet_scored_by_hand() -> None:
    assert points("tally-edition2") == [
        {"ana": 0, "bruno": 7},     # ana 7 ties bruno's 7: a tie suffices in edition2
        {"ana": 20, "bruno": 3},    # nobody called: the draw pile ran out
        {"ana": 5, "bruno": 19},    # bruno calls on 9 against 5: 9 + 10
        {"ana": 0, "bruno": 50},    # ana's Kamikaze overrides bruno's successful call on 0
        {"ana": 0, "bruno": 21},    # bruno 79 + 21 = 100 -> 50 (his one reset)
        {"ana": 0, "bruno": 50},    # Kamikaze again: bruno on exactly 100 a second time
    ]
    result = replay_file(SAMPLES / "tally-edition2.jsonl")
    g = result.state
    assert g is not None and g.complete and g.winners == ("ana",)
    assert g.cumulative_by_name() == {"ana": 25, "bruno": 100}
    assert [r.end for r in g.rounds][:2] == ["cabo", "deck_empty"]
    assert g.rounds[3].cabo_success is True and g.rounds[3].special == ("ana",)
    assert result.head is not None   # the sheet declares its chain


def test_golf_sheet_scored_by_hand_with_its_tie_break() -> None:
    assert points("tally-golf") == [
        {"ana": 0, "bruno": 5, "carla": 4},    # KH + AS = -1 + 1 = 0, strictly lowest
        {"ana": 3, "bruno": 15, "carla": 5},   # bruno's 5 ties carla's: fails, 5 + 10
        {"ana": 8, "bruno": 25, "carla": 0},   # carla's red king: -1
        {"ana": 0, "bruno": 10, "carla": 2},   # bruno 55 >= 50; ana and carla tied on 11
        {"ana": 5, "carla": 0},                # the tie-break: ana and carla only
    ]
    g = replay_file(SAMPLES / "tally-golf.jsonl").state
    assert g is not None and g.rounds[-1].tiebreak and g.rounds[-1].players == ("ana", "carla")
    assert g.winners == ("carla",)


def test_online_sheet_scored_by_hand_with_a_moon_and_a_forfeit() -> None:
    assert points("tally-online") == [
        {"ana": 0, "bruno": 10, "carla": 7},   # JK + AS = 1
        {"ana": 50, "bruno": 50, "carla": 0},  # carla's Q Q K K: half the target to others
        {"ana": 3, "bruno": 11, "carla": 6},   # bruno calls on 6 against 3: 6 + 5
        {"ana": 47, "carla": 0},               # bruno left; K K Q 9 = 47 puts ana on 100
    ]
    g = replay_file(SAMPLES / "tally-online.jsonl").state
    assert g is not None and g.complete and g.winners == ("carla",)
    assert g.cumulative_by_name() == {"ana": 100, "bruno": 71, "carla": 13}


# --- what a tally line is checked for ----------------------------------------------------------


@pytest.mark.parametrize(("lines", "line", "code", "words"), [
    ([tally(1, "ana", ana=["3", "ZZ"], bruno=["1"])], 2, "unknown_card",
     "ZZ is not a card of this ruleset's deck"),
    ([tally(1, "ana", ana=["13", "13"], bruno=["13"])], 2, "too_many_copies",
     "3 x 13, but the edition2 deck holds 2"),
    ([tally(1, "zoe", ana=["1"], bruno=["2"])], 2, "unknown_player", "'zoe'"),
    ([tally(2, "ana", ana=["1"], bruno=["2"])], 2, "wrong_round", "round 1, not round 2"),
    ([tally(1, "ana", ana=["1"])], 2, "bad_tally", "played by ana, bruno"),
    ([tally(1, "ana", ana=["1"], bruno=["2"], carla=["3"])], 2, "bad_tally",
     "lists ana, bruno, carla"),
    ([tally(1, "ana", ana=["1"], bruno=["2"]), {"type": "round_end", "round": 1,
                                               "points": {"ana": 1, "bruno": 2}}],
     3, "claim_mismatch", "the rules give ana 0, bruno 2"),
    ([{"type": "cabo", "player": "ana"}], 2, "wrong_record", "score sheet"),
    ([{**tally(1, "ana", ana=["1"], bruno=["2"]), "caller": 7}], 2, "bad_field", "caller"),
    ([{**tally(1, "ana", ana=["1"], bruno=["2"]), "end": "forfeit"}], 2, "bad_field", "end"),
    ([{"type": "tally", "round": 1, "hands": {"ana": [], "bruno": []}}], 2, "missing_field",
     "caller"),
])
def test_a_bad_tally_is_reported_where_it_is(lines: list[dict[str, Any]], line: int, code: str,
                                            words: str) -> None:
    data = sheet("edition2", ["ana", "bruno"], *lines)
    result = replay_bytes(data, "s.jsonl")
    assert isinstance(result.error, CaboLogError)
    assert (result.error.line, result.error.code) == (line, code), str(result.error)
    assert words in result.error.message


def test_two_decks_hold_every_card_twice_as_often() -> None:
    four = {"a": ["13", "13"], "b": ["13", "13"]}
    one_deck = replay_bytes(sheet("edition1", ["a", "b"], tally(1, "a", **four)))
    assert one_deck.error is not None and one_deck.error.code == "too_many_copies"
    two = replay_bytes(sheet("edition1", ["a", "b"], tally(1, "a", **four),
                             options={"decks": 2}))
    assert two.error is None, str(two.error)


def test_no_caller_only_where_the_empty_pile_ends_a_round() -> None:
    golf = replay_bytes(sheet("golf", ["a", "b"], tally(1, None, a=["AS"], b=["2S"])))
    assert golf.error is not None and golf.error.code == "bad_tally"
    assert "needs its caller" in golf.error.message
    e2 = replay_bytes(sheet("edition2", ["a", "b"], tally(1, None, a=["1"], b=["2"])))
    assert e2.error is None and e2.state is not None
    assert e2.state.rounds[0].end == "deck_empty" and e2.state.rounds[0].cabo_success is None


def test_a_full_log_refuses_a_tally_line() -> None:
    data = (SAMPLES / "edition2-match.jsonl").read_bytes().split(b"\n")[0] + b"\n"
    line = {"type": "tally", "seq": 1, "round": 1, "caller": None, "hands": {}}
    result = replay_bytes(data + json.dumps(line).encode() + b"\n")
    assert result.error is not None and result.error.code == "wrong_record"


def test_a_tally_event_reads_back_as_itself() -> None:
    raw = {"type": "tally", "round": 1, "caller": None, "hands": {"a": ["1"], "b": []}}
    event = parse_event(raw)
    assert isinstance(event, Tally) and event.caller is None and event.hands["b"] == ()
    assert to_dict(event) == raw   # "caller": null is written out


def test_replay_json_and_validate_on_score_sheets() -> None:
    out = invoke("replay", str(SAMPLES / "tally-golf.jsonl"), "--json")
    assert out.exit_code == 0
    report = json.loads(out.stdout)
    assert report["complete"] is True and report["winners"] == ["carla"]
    assert [r["caller"] for r in report["rounds"]] == ["ana", "bruno", "carla", "ana", "carla"]
    assert report["rounds"][0]["hands"]["ana"] == ["KH", "AS"]
    assert report["rounds"][0]["totals"]["ana"] == 0
    assert "head" in report
    bad = SAMPLES / "invalid" / "tally-too-many-copies.jsonl"
    out = invoke("validate", str(bad))
    assert out.exit_code == 1
    assert f"{bad}:3: too_many_copies: round 2 shows 3 x 13" in out.stdout


def test_analysis_needs_a_full_record() -> None:
    out = invoke("analyse", str(SAMPLES / "tally-edition1.jsonl"), "-r", "2", "-j", "1")
    assert out.exit_code == 1
    assert "is a score sheet" in out.stderr and "needs a full record" in out.stderr
    out = invoke("whatif", str(SAMPLES / "tally-edition1.jsonl"), "--at", "1")
    assert out.exit_code == 1 and "needs a full record" in out.stderr


def test_timeline_of_a_score_sheet(tmp_path: Path) -> None:
    page = tmp_path / "t.html"
    out = invoke("timeline", str(SAMPLES / "tally-online.jsonl"), "-o", str(page))
    assert out.exit_code == 0, out.stdout + out.stderr
    html = page.read_text()
    assert "A score sheet: each step is a round" in html
    assert "Round 2 on the score sheet: bruno called Cabo" in html
    text = invoke("replay", str(SAMPLES / "tally-online.jsonl")).stdout
    assert "a score sheet" in text and "turns" not in text and "Winners: carla" in text
