"""``cabo-log tally``: the terminal score keeper, driven through its standard input (the real
console script in a subprocess, and the library loop with scripted answers)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from cabo_log.log.replay import replay_file
from cabo_log.log.scoresheet import CardError, append_round, open_sheet, read_cards, start_sheet
from cabo_log.play.tally import Stop, keep_score
from engine import BUILTINS, CaboLogError

EXE = Path(sys.executable).parent / "cabo-log"


def run(args: list[str], answers: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(EXE), *args], input=answers, capture_output=True, text=True,
                          cwd=cwd, timeout=60, check=False)


def lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(raw) for raw in path.read_text().splitlines()]


def test_a_whole_edition2_match_typed_in(tmp_path: Path) -> None:
    """Values as players read them; a refused entry is explained and asked again; the table
    after each round; the match end. Points worked out by hand (RULES.md, edition2)."""
    answers = "\n".join([
        "bruno", "7 2 12 5", "1 3 2", "12 12 13 13",   # carla's Kamikaze: 50, 50, 0
        "zoe", "ana", "0 1", "5 x 6", "5 5 6", "9 9",   # zoe: no such player; x: no card
        "-", "13 13", "13", "1", "1", "2", "1",       # three 13s refused, round asked again
        "carla", "12 12 12 12 11", "2", "0",           # ana 51 + 59 = 110 > 100: the end
    ]) + "\n"
    done = run(["tally", "k.jsonl", "--ruleset", "edition2", "--players", "ana,bruno,carla"],
               answers, tmp_path)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Kamikaze: carla scores 0, everybody else 50" in out
    assert "'zoe' does not play in this round" in out
    assert "x is not a card of this ruleset's deck (edition2)" in out
    assert "not written: round 3 shows 3 x 13, but the edition2 deck holds 2" in out
    assert "The match is over: carla wins. Final scores: carla 19, bruno 70, ana 110." in out
    assert "Traceback" not in done.stderr
    result = replay_file(tmp_path / "k.jsonl")
    assert result.error is None and result.state is not None and result.head is not None
    assert [r.points for r in result.state.rounds] == [
        {"ana": 50, "bruno": 50, "carla": 0},   # 26 / 6 / Kamikaze
        {"ana": 0, "bruno": 16, "carla": 18},   # ana calls on 1, the lowest: 0
        {"ana": 1, "bruno": 2, "carla": 1},     # nobody called (the retyped round): totals
        {"ana": 59, "bruno": 2, "carla": 0},    # carla calls on 0: 0
    ]
    header = lines(tmp_path / "k.jsonl")[0]
    assert header["record"] == "tally" and header["chain"] == "sha256"


def test_golf_intro_names_the_kings_that_count_by_suit(tmp_path: Path) -> None:
    """Golf's kings: black 13, red -1 (RULES.md); the keeper is told before the first round,
    and a red king typed by its value scores -1. Other decks have no such line."""
    done = run(["tally", "g.jsonl", "--ruleset", "golf", "--players", "ana,bruno"],
               "ana\n-1 5 7 2\n13 3 3 3\nq\n", tmp_path)
    assert done.returncode == 0, done.stderr
    assert "K counts by its suit: KD KH = -1, KC KS = 13" in done.stdout
    result = replay_file(tmp_path / "g.jsonl")
    assert result.state is not None
    # ana: -1 + 5 + 7 + 2 = 13, the lower hand, so her call makes it: 0; bruno 13 + 9 = 22
    assert [r.points for r in result.state.rounds] == [{"ana": 0, "bruno": 22}]
    plain = run(["tally", "e.jsonl", "--ruleset", "edition1", "--players", "ana,bruno"],
                "q\n", tmp_path)
    assert "counts by its suit" not in plain.stdout


def test_stop_and_resume_lose_nothing(tmp_path: Path) -> None:
    args = ["tally", "g.jsonl", "--ruleset", "golf", "--players", "ana,bruno"]
    done = run(args, "ana\nKH AS\n10 10\nbruno\nq\n", tmp_path)
    assert done.returncode == 0, done.stderr
    assert "1 round written; 'cabo-log tally g.jsonl --resume' carries on" in done.stderr
    assert len(lines(tmp_path / "g.jsonl")) == 2
    # golf's kings: a value says the colour (-1 red, 13 black); K alone is refused
    done = run(["tally", "g.jsonl", "--resume"], "bruno\n\nK 2\n13 2\n-1 -1\n", tmp_path)
    assert "type the cards, or - for a row with no cards" in done.stdout   # a stray Enter
    assert "K is worth -1 or 13 in golf: type the value" in done.stdout
    assert "1 round scored so far" in done.stdout
    sheet = lines(tmp_path / "g.jsonl")
    assert sheet[1]["hands"] == {"ana": ["KH", "AS"], "bruno": ["10S", "10H"]}
    assert sheet[2]["hands"] == {"ana": ["KS", "2S"], "bruno": ["KH", "KD"]}
    result = replay_file(tmp_path / "g.jsonl")
    assert result.error is None and result.state is not None
    # round 2: bruno calls on -2, strictly lower than ana's 15: 0; ana 15
    assert result.state.cumulative_by_name() == {"ana": 15, "bruno": 20}
    # a new sheet over an existing file is refused; --resume needs no ruleset
    assert run(args, "", tmp_path).returncode == 2
    assert run(["tally", "g.jsonl", "--resume", "--ruleset", "golf"], "", tmp_path
               ).returncode == 2


def test_ctrl_c_keeps_every_round_written(tmp_path: Path) -> None:
    proc = subprocess.Popen([str(EXE), "tally", "c.jsonl", "--ruleset", "edition1",
                             "--players", "ana,bruno"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=tmp_path)
    assert proc.stdin is not None
    proc.stdin.write("ana\n1 2\n3 4\nbruno\n5\n")   # round 2 half typed
    proc.stdin.flush()
    sheet = tmp_path / "c.jsonl"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and len(sheet.read_bytes().splitlines()
                                              if sheet.exists() else []) < 2:
        time.sleep(0.05)
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert "1 round written" in err and "Traceback" not in err
    result = replay_file(sheet)
    assert result.error is None and result.state is not None
    assert len(result.state.rounds) == 1


def test_read_cards_from_values_and_codes() -> None:
    online = BUILTINS["online"]
    taken: Counter[str] = Counter()
    assert read_cards(online, "13 13 0 q", taken) == ["KS", "KH", "JK", "QS"]
    assert read_cards(online, "13, 13, 0", taken) == ["KD", "KC", "JK"]
    assert read_cards(BUILTINS["edition1"], "-") == []
    with pytest.raises(CardError, match="14 is not a value"):
        read_cards(BUILTINS["edition1"], "14")


def test_the_library_call_a_page_would_make(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    start_sheet(path, "online", ["ana", "bruno"], game_id="page").close()
    scored = append_round(path, "ana", {"ana": ["JK"], "bruno": ["QS", "QH", "KS", "KH"]})
    assert scored.result.points == {"ana": 50, "bruno": 0}   # bruno shoots the moon
    before = path.read_bytes()
    with pytest.raises(CaboLogError) as refused:
        append_round(path, "zoe", {"ana": ["AS"], "bruno": ["2S"]})
    assert refused.value.code == "unknown_player" and refused.value.line == 3
    assert path.read_bytes() == before   # a refused round changes nothing
    with open_sheet(path) as log:
        answers = iter(["bruno", "AS", "2S", "q"])
        said: list[str] = []
        with pytest.raises(Stop):
            keep_score(log, lambda prompt: next(answers), said.append)
    assert any("bruno called Cabo and failed: hand total + 5" in s for s in said)


def test_a_full_log_is_not_kept_as_a_sheet(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[1]
    copy = tmp_path / "m.jsonl"
    copy.write_bytes((root / "sample_games" / "online-in-progress.jsonl").read_bytes())
    done = run(["tally", str(copy), "--resume"], "", tmp_path)
    assert done.returncode == 1 and "wrong_record" in done.stderr


@pytest.mark.skipif(os.name != "posix", reason="signals")
def test_console_script_exists() -> None:
    assert EXE.exists()
