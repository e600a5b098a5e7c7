"""``cabo-log play`` driven through standard input, as a person at a terminal would: a whole
match, Ctrl-C in the middle and ``--resume``, ``q``; the screen shows only what the person
knows, and the log is valid at every moment."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
from typer.testing import CliRunner

from cabo_log.cli import app, register_all
from cabo_log.log.replay import replay_file
from cabo_log.play.bots import BOTS

CLI = str(Path(sys.executable).with_name("cabo-log"))
runner = CliRunner()
register_all()


def play(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CLI, "play", *args], input=stdin, capture_output=True, text=True,
                          timeout=120)


def test_a_whole_match_against_bots(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    done = play("--ruleset", "golf", "--players", "3", "--bot", "greedy,random", "--seat",
                "zoe", "--seed", "5", "--out", str(log),
                stdin="1\nana 0\n" * 4000)   # a card of another player: "ana 0"
    assert done.returncode == 0, done.stderr
    result = replay_file(log)
    assert result.error is None and result.state is not None and result.state.complete
    header = orjson.loads(log.read_bytes().split(b"\n", 1)[0])
    assert header["players"][0] == "zoe" and header["human"] == "zoe"
    assert header["bots"] == {"ana": "greedy", "bruno": "random"} and header["seed"] == 5
    out = [re.sub(r"^(> )+", "", line) for line in done.stdout.splitlines()]  # prompts
    winners = ", ".join(result.state.winners)
    assert out[-2] == f"The match is over: {winners} " + (
        "wins" if len(result.state.winners) == 1 else "win")
    # the log claims every round's points and the result, as the host's logs do (one dealer)
    lines = [orjson.loads(raw) for raw in log.read_bytes().splitlines()]
    claims = [(o["round"], o["points"]) for o in lines if o["type"] == "round_end"]
    assert claims == [(r.round, r.points) for r in result.state.rounds]
    assert lines[-1] == {"type": "game_end", "seq": len(lines) - 1,
                         "winners": list(result.state.winners),
                         "scores": result.state.cumulative_by_name()}
    # bots' draws from the deck are never named; zoe's own are
    bot_draws = [line for line in out if re.match(r"  (ana|bruno) drew ", line)]
    assert bot_draws and all(line.endswith("drew a card from the deck") for line in bot_draws)
    assert any(re.match(r"  zoe drew an? \S+ from the deck", line) for line in out)
    # right after the first deal, zoe sees her two peeked cards and nothing of the others
    first = next(i for i, line in enumerate(out) if line.startswith("--- Round 1"))
    rows = {line.split()[0].lstrip("*"): line for line in out[first + 1:first + 4]}
    assert rows["ana"].split()[1:] == ["??"] * 4 and rows["bruno"].split()[1:] == ["??"] * 4


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def test_ctrl_c_leaves_a_valid_log_and_resume_finishes_it(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    proc = subprocess.Popen([CLI, "play", "--ruleset", "edition2", "--players", "2", "--seed",
                             "11", "--out", str(log)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdin is not None
    proc.stdin.write("1\n" * 6)
    proc.stdin.flush()
    deadline = time.monotonic() + 60
    while _lines(log) < 8 and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)  # it waits for the next answer now
    os.kill(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    lines = _lines(log)
    assert err.strip() == (f"interrupted: {log} holds the match so far ({lines} lines); "
                           f"continue with cabo-log play --resume {log}")
    assert "Traceback" not in out + err
    partial = replay_file(log)
    assert partial.error is None and partial.state is not None and not partial.state.complete
    before = log.read_bytes()
    done = play("--resume", str(log), stdin="2\n" * 4000)
    assert done.returncode == 0, done.stderr
    assert log.read_bytes().startswith(before)
    final = replay_file(log)
    assert final.error is None and final.state is not None and final.state.complete


def test_q_saves_and_quits(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    done = runner.invoke(app, ["play", "--ruleset", "edition1", "--seed", "2", "--out",
                               str(log)], input="1\n1\nq\n")
    assert done.exit_code == 0
    lines = _lines(log)
    last = done.stdout.splitlines()[-1].removeprefix("> ")
    assert last == f"saved: {log} ({lines} lines); continue with cabo-log play --resume {log}"
    assert replay_file(log).error is None


def test_bad_arguments_are_usage_errors(tmp_path: Path) -> None:
    out = str(tmp_path / "x.jsonl")
    for args, message in (
            (["--ruleset", "poker"], "cabo-log: unknown ruleset 'poker' (built-in: edition1, "
                                     "edition2, golf, online)"),
            (["--players", "9"], "cabo-log: a match here has 2 to 6 players, not 9"),
            (["--bot", "smart"], f"cabo-log: unknown bot 'smart' (known: "
                                 f"{', '.join(sorted(BOTS))})")):
        done = runner.invoke(app, ["play", *args, "--out", out], input="")
        assert (done.exit_code, done.stderr.strip()) == (2, message)
        assert not (tmp_path / "x.jsonl").exists()


def test_resume_refuses_a_log_not_started_by_play(tmp_path: Path) -> None:
    log = tmp_path / "s.jsonl"
    log.write_bytes((Path(__file__).resolve().parents[1] / "sample_games" /
                     "online-in-progress.jsonl").read_bytes())
    done = runner.invoke(app, ["play", "--resume", str(log)], input="1\n")
    assert done.exit_code == 2
    assert done.stderr.strip() == (f"cabo-log: {log} was not started by cabo-log play (its "
                                   "header does not say which player is the person and which "
                                   "are bots)")
