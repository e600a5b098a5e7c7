"""``cabo-log analyse`` and ``cabo-log whatif`` from the command line: output and errors."""

from __future__ import annotations

import json
from pathlib import Path

from analysis_logs import final_turn, must_fail_log
from typer.testing import CliRunner

from cabo_log import cli
from cabo_log.analysis.evaluate import DEFAULT_ROLLOUTS

cli._register_all()


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli.app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_analyse_prints_the_blunder_in_words(tmp_path: Path) -> None:
    log = must_fail_log().write(tmp_path / "t.jsonl")
    code, out, _ = run("analyse", str(log), "--rollouts", "4", "--player", "ana", "--jobs", "1")
    assert code == 0
    lines = out.splitlines()
    assert ("seq 6 ana replaced 0 and 1 (a 5 and a 4) with a 13: the replacement must fail; "
            "13.0 expected points given away; best was to discard: ?? (round points, 16 worlds)"
            ) in lines
    assert lines[-1].startswith("ana: accuracy ")
    # the points read as given away, not as a plus
    assert " over 2 decisions (" in lines[-1] and "+" not in out
    assert "given away for sure: " in lines[-1]
    # seq 5 (ana drew from the deck) is unclear, so undecided, at 4 rollouts on the default
    # seed
    assert "1 unclear; 0 exact, 1 undecided)" in lines[-1], lines[-1]
    assert lines[-1].endswith(" expected points in 2 decisions judged by round points")
    code, out, _ = run("analyse", str(log), "--player", "bruno", "--jobs", "1")
    assert code == 0 and " over 1 decision (" in out.splitlines()[-1]   # bruno's call


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
    # accuracy counts what is sure: the settled blunder at the low end of its interval
    assert blunder["settled"] is True and blunder["counted_loss"] == blunder["sure_loss"]
    for d in data["decisions"]:
        assert d["counted_loss"] <= d["sure_loss"]
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


def _table_rows(out: str) -> dict[str, str]:
    """The real table's rows of whatif's text, by player (the first line of each)."""
    lines = out.splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith("On the real table"))
    rows: dict[str, str] = {}
    for line in lines[start:]:
        if line.startswith("  ") and line.split()[0] in ("ana", "bruno"):
            rows.setdefault(line.split()[0], line)
    return rows


def test_whatif_prints_each_player(tmp_path: Path) -> None:
    log = must_fail_log().write(tmp_path / "t.jsonl")
    code, out, _ = run("whatif", str(log), "--at", "6", "-r", "3")
    assert code == 0
    assert out.splitlines()[0] == "game-1 after seq 6 (round 1)"
    assert "3 playouts, greedy bots playing the match to its end; ± 95 % interval" in \
        out.replace("\n", " ")
    rows = _table_rows(out)
    # the round is over: ana 5 4 9 9 13 = 40 points; bruno's Cabo (26) succeeds: 0 points
    assert rows["ana"].split()[-3:] == ["40.0", "±", "0.0"]
    assert rows["bruno"].split()[1:4] == ["100.0", "%", "±"]
    code, out, _ = run("whatif", str(log), "--at", "6", "-r", "3", "--json")
    assert json.loads(out)["players"]["ana"]["round_points"] == {"mean": 40.0, "ci95": 0.0}


def test_whatif_with_a_move_prints_both_views(tmp_path: Path) -> None:
    log = must_fail_log().write(tmp_path / "t.jsonl")
    code, out, _ = run("whatif", str(log), "--at", "6", "--move",
                       '{"type": "discard", "player": "ana"}', "-r", "3")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == ("game-1 at seq 6 (round 1): what if ana were to discard? (the log: ana "
                        "replaced 0 and 1 (a 5 and a 4) with a 13)")
    text = " ".join(out.split())
    assert ("From what ana knew, as analyse judges it: ana's expected points in round 1 (lower "
            "is better)") in text
    assert f"(--worlds {DEFAULT_ROLLOUTS}, --seed 0); ± 1 standard error" in text
    # the 13 added to her row costs exactly 13 in every world the knowledge view samples
    diff = next(line for line in lines if line.startswith("  instead - logged") and "paired"
                in line)
    assert diff.split()[3:6] == ["-13.00", "±", "0.00"]
    assert ("analyse, over all 6 options, by round points: 13.0 expected points given away "
            "by the logged move (??); best was to discard") in text
    # the real table: ana's 5 4 9 9 = 27 instead of 40, in every playout
    table = lines[next(k for k, line in enumerate(lines) if line.startswith("On the real")):]
    last = next(line for line in table if line.startswith("  instead - logged"))
    assert last.split()[-3:] == ["-13.0", "±", "0.0"]
    assert "The two views answer different questions" in text


def test_whatif_agrees_with_analyse_on_the_same_question(tmp_path: Path) -> None:
    """ana, who knows her 5 and 4 but not the rest, replaces her unseen position 2 with a
    drawn 3 instead of her known 5: analyse's values of both moves are whatif's knowledge
    view, world for world (the same seed and bot give the same worlds)."""
    log = final_turn(["5", "4", "9", "9"], "3").replace("ana", [2]).write(tmp_path / "t.jsonl")
    code, out, _ = run("analyse", str(log), "--json", "-r", "8", "-s", "5", "-j", "1")
    assert code == 0
    decision = next(d for d in json.loads(out)["decisions"] if d["seq"] == 6)
    options = {o["text"]: o for o in decision["options"]}
    code, out, _ = run("whatif", str(log), "--at", "6", "--json", "-r", "2", "-w", "8",
                       "-s", "5", "--move", '{"type": "replace", "player": "ana", '
                       '"positions": [0]}')
    assert code == 0
    view = json.loads(out)["knowledge"]
    assert (view["player"], view["measure"], view["worlds"]) == ("ana", "round points", 8)
    assert view["analyse"]["loss"] == decision["loss"]
    assert view["analyse"]["mark"] == decision["mark"]
    assert view["analyse"]["best"] == decision["best"]
    for side, text in (("logged", "replace 2"), ("instead", "replace 0")):
        ours, theirs = view[side], options[text]
        if ours["worlds"] == theirs["rollouts"]:
            assert round(ours["mean"], 2) == theirs["expected"], side
        else:   # fewer worlds in analyse (screened out): the same within the error
            assert abs(ours["mean"] - theirs["expected"]) < 4 * max(ours["stderr"], 0.5)
    gap = options["replace 0"]["expected"] - options["replace 2"]["expected"]
    assert abs(view["difference"]["mean"] - gap) <= 2 * view["difference"]["stderr"] + 0.01


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
    code, _, err = run("whatif", str(log), "--at", "6", "--worlds", "1")
    assert (code, err.strip()) == (2, "cabo-log: --worlds must be at least 2, not 1")
