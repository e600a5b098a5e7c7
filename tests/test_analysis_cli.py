"""``cabo-log analyse`` and ``cabo-log whatif`` from the command line: output and errors."""

from __future__ import annotations

import json
from pathlib import Path

from analysis_logs import must_fail_log
from typer.testing import CliRunner

from cabo_log import cli

cli._register_all()


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli.app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_analyse_prints_the_blunder_in_words(tmp_path: Path) -> None:
    log = must_fail_log().write(tmp_path / "t.jsonl")
    code, out, _ = run("analyse", str(log), "--rollouts", "4", "--player", "ana", "--jobs", "1")
    assert code == 0
    lines = out.splitlines()
    assert ("seq 6 ana replaced 0 and 1 (a 5 and a 4) with a 13: the replacement must fail — "
            "expected +13.0 points; best was to discard: ?? (round points, 8 worlds)") in lines
    assert lines[-1].startswith("ana: accuracy ")


def test_analyse_json_is_the_documented_object(tmp_path: Path) -> None:
    log = must_fail_log().write(tmp_path / "t.jsonl")
    code, out, _ = run("analyse", str(log), "-r", "4", "--json", "-j", "1", "--seed", "3")
    assert code == 0
    data = json.loads(out)
    assert data["game_id"] == "game-1"
    assert set(data["accuracy"]) == {"ana", "bruno"}
    blunder = next(d for d in data["decisions"] if d["seq"] == 6)
    assert blunder["player"] == "ana" and blunder["mark"] == "??" and blunder["loss"] == 13.0
    assert blunder["chosen"] == {"type": "replace", "player": "ana", "positions": [0, 1]}
    assert blunder["best"] == {"type": "discard", "player": "ana"}
    assert {o["text"] for o in blunder["options"]} >= {"discard", "replace 0 and 1"}
    _, again, _ = run("analyse", str(log), "-r", "4", "--json", "-j", "2", "--seed", "3")
    assert again == out


def test_analyse_errors(tmp_path: Path) -> None:
    code, _, err = run("analyse", str(tmp_path / "none.jsonl"))
    assert (code, err.strip()) == (2, f"cabo-log: no such file: {tmp_path / 'none.jsonl'}")
    log = must_fail_log().write(tmp_path / "t.jsonl")
    code, _, err = run("analyse", str(log), "--player", "zed")
    assert (code, err.strip()) == (2, f"cabo-log: 'zed' is not a player of {log}")
    code, _, err = run("analyse", str(log), "--rollouts", "1")
    assert (code, err.strip()) == (2, "cabo-log: --rollouts must be at least 2, not 1")
    code, _, err = run("analyse", str(log), "--bot", "oracle")
    assert code == 2 and err.startswith("cabo-log: unknown bot 'oracle'")
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(log.read_bytes() + b'{"type": "cabo", "seq": 8, "player": "ana"}\n')
    code, _, err = run("analyse", str(bad), "-r", "2", "-j", "1")
    assert code == 1
    assert err.strip() == f"{bad}:8: seq_gap: seq jumps from 6 to 8"


def test_whatif_prints_each_player(tmp_path: Path) -> None:
    log = must_fail_log().write(tmp_path / "t.jsonl")
    code, out, _ = run("whatif", str(log), "--at", "6", "--move",
                       '{"type": "discard", "player": "ana"}', "-r", "3")
    assert code == 0
    rows = {line.split()[0]: line for line in out.splitlines()[2:]}
    # the round is over: ana 5 4 9 9 = 27 points; bruno's Cabo (26) succeeds: 0 points
    assert rows["ana"].split()[-3:] == ["27.0", "±", "0.0"]
    assert rows["bruno"].split()[1:4] == ["100.0", "%", "±"]
    code, out, _ = run("whatif", str(log), "--at", "6", "-r", "3", "--json")
    assert json.loads(out)["players"]["ana"]["round_points"] == {"mean": 40.0, "ci95": 0.0}


def test_whatif_errors(tmp_path: Path) -> None:
    log = must_fail_log().write(tmp_path / "t.jsonl")
    code, _, err = run("whatif", str(log), "--at", "6", "--move",
                       '{"type": "discard", "player": "bruno"}')
    assert (code, err.strip()) == (1, f"{log}:7: nothing_drawn: bruno holds no drawn card "
                                      "to discard")
    code, _, err = run("whatif", str(log), "--at", "6", "--move", "{nope")
    assert code == 2 and err.startswith("cabo-log: --move is not valid JSON")
    code, _, err = run("whatif", str(log), "--at", "60")
    assert (code, err.strip()) == (2, f"cabo-log: --at 60: {log} has events 1 to 6")
    code, _, err = run("whatif", str(log))
    assert code == 2
