"""The replay's text names what happened: who forfeited, and a special hand (Kamikaze, shoot the
moon) as itself, never as a failed Cabo call."""

from __future__ import annotations

from pathlib import Path

from cabo_log.log.render import describe, special_hand
from cabo_log.log.replay import replay_file
from engine import BUILTINS
from engine.results import RoundResult

SAMPLES = Path(__file__).resolve().parents[1] / "sample_games"


def text(name: str) -> list[str]:
    return describe(replay_file(SAMPLES / name)).splitlines()


def test_forfeits_are_told_per_round_and_in_the_scores() -> None:
    lines = text("online-forfeit.jsonl")
    # carla left during round 1, bruno during round 2 (sample_games/README.md)
    round2 = lines.index(next(x for x in lines if x.startswith("Round 2")))
    assert "  carla  forfeited: left the match, not scored" in lines[:round2]
    assert "  bruno  forfeited: left the match, not scored" in lines[round2:]
    assert lines[-2:] == ["Scores: ana 17, bruno 0 (forfeited), carla 0 (forfeited)",
                          "Winners: ana"]


def test_kamikaze_is_named_not_a_failed_call() -> None:
    lines = text("edition1-kamikaze.jsonl")
    assert lines[1].startswith("Round 1, first: ana: ana called Cabo; Kamikaze: ana 0, "
                               "others +50; ended")
    assert lines[2].endswith("[Kamikaze, caller]")
    # edition2: bruno's Kamikaze overrides ana's call, which is not a "failure" either
    lines = text("edition2-kamikaze.jsonl")
    assert lines[1].startswith("Round 1, first: ana: ana called Cabo; Kamikaze: bruno 0, "
                               "others +50; ended")
    assert not any("failure" in x for x in lines[1:5])


def test_online_calls_it_shooting_the_moon() -> None:
    assert BUILTINS["online"].special_name == "shoot the moon"
    lines = text("online-moon.jsonl")
    assert "carla called Cabo; Shoot the moon: carla 0, others +50;" in lines[1]
    assert lines[4].endswith("[shoot the moon, caller]")


def test_special_hand_text_for_several_holders() -> None:
    r = RoundResult(3, "ana", ("ana", "bruno", "carla"), None, None, "cabo", {}, {},
                    {"ana": 0, "bruno": 0, "carla": 50}, {}, 9, 0, special=("ana", "bruno"))
    assert special_hand(r) == "Kamikaze: ana and bruno 0, others +50"
    plain = RoundResult(3, "ana", ("ana",), None, None, "cabo", {}, {}, {"ana": 4}, {}, 9, 0)
    assert special_hand(plain) is None
