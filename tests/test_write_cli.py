"""``cabo-log append``, ``seal``, ``repair``, ``validate`` of chained logs and ``replay --follow``,
through the command line (typer's runner, and real processes where signals matter)."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from cabo_log.cli import app, register_all
from cabo_log.log.gamelog import GameLog
from cabo_log.log.repair import repair
from cabo_log.log.replay import replay_file

SAMPLES = Path(__file__).resolve().parents[1] / "sample_games"
SAMPLE = SAMPLES / "golf-snaps.jsonl"
LINES = SAMPLE.read_bytes().splitlines()
runner = CliRunner()
register_all()


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_append_creates_appends_and_refuses(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    code, out, _ = run("append", str(log), LINES[0].decode(), LINES[1].decode())
    assert code == 0 and out == f"{log}: created with 2 events (lines 1-2); next seq 2\n"
    stdin = "\n".join(line.decode() for line in LINES[2:30]) + "\n"
    code, out, _ = run("append", str(log), "-", stdin=stdin)
    assert code == 0 and out == f"{log}: appended 28 events (lines 3-30); next seq 30\n"
    before = log.read_bytes()
    wrong = orjson.loads(LINES[0])
    del wrong["seq"]  # the writer numbers it
    code, out, err = run("append", str(log), LINES[30].decode(), orjson.dumps(wrong).decode())
    assert code == 1 and out == ""
    assert err == f"{log}:32: duplicate_header: a log has exactly one 'game' line, the first\n"
    assert log.read_bytes() == before  # the legal first event of the batch was not written
    code, _, err = run("append", str(log), "{not json")
    assert code == 1 and err.startswith(f"{log}:31: bad_json: the line is not valid JSON")
    code, _, err = run("append", str(log), "--expect-seq", "29", LINES[30].decode())
    assert code == 1 and err == (f"{log}:31: seq_conflict: expected to append at seq 29, but the "
                                 "log is at seq 30: it has moved on\n")
    assert log.read_bytes() == before
    code, _, _ = run("append", str(log), "--expect-seq", "30", LINES[30].decode())
    assert code == 0 and log.read_bytes() == b"".join(line + b"\n" for line in LINES[:31])


def test_append_expecting_a_later_seq_does_not_create_a_log(tmp_path: Path) -> None:
    log = tmp_path / "new.jsonl"
    code, out, err = run("append", str(log), LINES[0].decode(), "--expect-seq", "5")
    assert (code, out) == (1, "") and err == (
        f"{log}:1: seq_conflict: expected to append at seq 5, but the log does not exist: a "
        "new log starts at seq 0\n")
    assert not log.exists()
    code, _, _ = run("append", str(log), LINES[0].decode(), "--expect-seq", "0")
    assert code == 0 and log.read_bytes() == LINES[0] + b"\n"


def test_append_needs_a_header_to_start_a_file(tmp_path: Path) -> None:
    log = tmp_path / "new.jsonl"
    code, _, err = run("append", str(log), LINES[1].decode())
    assert code == 1 and err.startswith(f"{log}:1: no_header: ")
    assert not log.exists()
    assert run("append", str(log))[0] == 2  # no events: usage


def test_append_chain_and_seal_agree(tmp_path: Path) -> None:
    chained = tmp_path / "c.jsonl"
    assert run("append", str(chained), "--chain", *[x.decode() for x in LINES[:50]])[0] == 0
    code, out, _ = run("append", str(chained), "-",
                       stdin="\n".join(x.decode() for x in LINES[50:]))
    assert code == 0
    sealed = tmp_path / "s.jsonl"
    code, out, err = run("seal", str(SAMPLE), "-o", str(sealed))
    last = sealed.read_bytes().splitlines()[-1]
    assert code == 0 and out == hashlib.sha256(last).hexdigest() + "\n"
    assert err == f"{sealed}: sealed {len(LINES)} lines; head {out.strip()}\n"
    assert chained.read_bytes() == sealed.read_bytes()
    code, out, _ = run("replay", str(sealed))
    assert code == 0 and out.splitlines()[-1] == f"Chain head: {hashlib.sha256(last).hexdigest()}"
    code, out, _ = run("replay", str(sealed), "--json")
    assert orjson.loads(out)["head"] == hashlib.sha256(last).hexdigest()
    code, out, _ = run("validate", str(sealed), str(SAMPLE))
    assert code == 0 and out == (f"{sealed}: chained, head {hashlib.sha256(last).hexdigest()}\n"
                                 "2 logs checked: 2 valid, 0 invalid\n")
    tampered = sealed.read_bytes().replace(b'"player":"bruno"', b'"player":"carla"', 1)
    sealed.write_bytes(tampered)
    code, out, _ = run("validate", str(sealed))
    assert code == 1 and ": chain_broken: " in out
    assert run("seal", str(SAMPLE), "-o", str(sealed))[0] == 1  # never overwrites


def test_repair_cuts_a_torn_line_and_keeps_a_backup(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    torn = b"".join(line + b"\n" for line in LINES[:20]) + LINES[20][:17]
    log.write_bytes(torn)
    code, _, err = run("append", str(log), LINES[20].decode())
    assert code == 1 and err.startswith(f"{log}:21: torn_line: the last line is incomplete")
    code, out, _ = run("repair", str(log))
    assert code == 0 and out == (f"{log}:21: cut off the torn last line (17 bytes: "
                                 f"{LINES[20][:17].decode()}); 20 whole lines remain; the "
                                 f"original is kept as {log}.bak\n")
    assert (tmp_path / "g.jsonl.bak").read_bytes() == torn
    assert log.read_bytes() == torn[:torn.rfind(b"\n") + 1]
    assert run("repair", str(log))[1] == f"{log}: nothing to repair (the last line is whole)\n"
    assert run("append", str(log), LINES[20].decode())[0] == 0


def test_repair_takes_the_next_free_backup_name_past_anything_in_the_way(
        tmp_path: Path) -> None:
    """A dangling symbolic link named FILE.bak (creating through it fails), a folder named
    FILE.bak.1 and an earlier backup FILE.bak.2: the backup is FILE.bak.3, the link, the folder
    and the earlier backup untouched."""
    log = tmp_path / "g.jsonl"
    torn = b"".join(line + b"\n" for line in LINES[:20]) + LINES[20][:17]
    log.write_bytes(torn)
    os.symlink(tmp_path / "nowhere" / "x", tmp_path / "g.jsonl.bak")
    (tmp_path / "g.jsonl.bak.1").mkdir()
    (tmp_path / "g.jsonl.bak.2").write_bytes(b"older\n")
    code, out, err = run("repair", str(log))
    assert (code, err) == (0, "")
    assert out.endswith(f"; the original is kept as {log}.bak.3\n"), out
    assert (tmp_path / "g.jsonl.bak.3").read_bytes() == torn
    assert log.read_bytes() == torn[:torn.rfind(b"\n") + 1]
    assert os.readlink(tmp_path / "g.jsonl.bak") == str(tmp_path / "nowhere" / "x")
    assert not (tmp_path / "nowhere").exists()
    assert (tmp_path / "g.jsonl.bak.2").read_bytes() == b"older\n"


def test_repair_says_what_is_in_the_way_and_changes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every backup name taken, or a backup that cannot be written: one line each, exit 1,
    the log as it was and no backup left behind."""
    from cabo_log.log import repair as repairmod

    log = tmp_path / "g.jsonl"
    torn = b"".join(line + b"\n" for line in LINES[:20]) + LINES[20][:17]
    log.write_bytes(torn)
    monkeypatch.setattr(repairmod, "BACKUPS", 3)
    for name in ("g.jsonl.bak", "g.jsonl.bak.1", "g.jsonl.bak.2"):
        os.symlink(tmp_path / "nowhere", tmp_path / name)
    code, out, err = run("repair", str(log))
    assert (code, out) == (1, "")
    assert err == (f"{log}: not repaired: no free name for the backup: g.jsonl.bak and "
                   "g.jsonl.bak.1 to .bak.2 are all taken\n")
    assert log.read_bytes() == torn
    (tmp_path / "g.jsonl.bak.2").unlink()

    def full(fd: int, data: bytes) -> int:
        raise OSError(28, os.strerror(28))

    monkeypatch.setattr(repairmod.os, "write", full)
    code, out, err = run("repair", str(log))
    assert (code, out) == (1, "")
    assert err == (f"{log}: not repaired: cannot write the backup {log}.bak.2 "
                   "(No space left on device)\n")
    assert log.read_bytes() == torn and not os.path.lexists(tmp_path / "g.jsonl.bak.2")


def test_repair_adds_a_missing_newline_to_a_whole_event(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    log.write_bytes(b"\n".join(LINES[:12]))
    done = repair(log)
    assert (done.action, done.line) == ("newline", 12)
    assert log.read_bytes() == b"".join(line + b"\n" for line in LINES[:12])


def test_repair_will_not_touch_a_log_bad_in_the_middle(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    bad = b"".join(line + b"\n" for line in LINES[:5]) + b"{}\n" + LINES[6][:9]
    log.write_bytes(bad)
    code, _, err = run("repair", str(log))
    assert code == 1 and err.startswith(f"{log}:6: missing_field: ")
    assert log.read_bytes() == bad and not (tmp_path / "g.jsonl.bak").exists()


def _cli(*args: str) -> list[str]:
    return [str(Path(sys.executable).with_name("cabo-log")), *args]


def test_follow_prints_events_as_they_come_and_stops_at_the_end(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    log.write_bytes(b"".join(line + b"\n" for line in LINES[:3]))
    proc = subprocess.Popen(_cli("replay", "--follow", str(log)), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(0.5)
        with GameLog.open(log, fsync=False) as writer:
            for at in range(3, len(LINES), 50):
                writer.extend([orjson.loads(x) for x in LINES[at:at + 50]])
                time.sleep(0.05)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 2 * len(LINES)
    assert lines[0] == "    1  Game sample-golf-snaps: golf, players ana, bruno, carla"
    assert lines[6] == "    4  bruno looked at their cards 0 and 3 (5♠ and J♥)"
    assert lines[7].startswith("       -> round 1, turn 1: ana to play (turn start), draw pile "
                               "39, discard 5♥")
    final = replay_file(SAMPLE).state
    assert final is not None
    scores = ", ".join(f"{p} {s}" for p, s in final.cumulative_by_name().items())
    assert lines[-1] == f"       -> match over, winners {', '.join(final.winners)}; scores {scores}"


def test_follow_stops_on_ctrl_c_with_one_line(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    log.write_bytes(b"".join(line + b"\n" for line in LINES[:5]))
    proc = subprocess.Popen(_cli("replay", "--follow", str(log)), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    first = [proc.stdout.readline() for _ in range(10)]  # following: the five lines so far
    time.sleep(0.3)
    os.kill(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert err.strip() == f"interrupted: stopped following {log}"
    assert first[-1].startswith("       -> ") and out == ""


def test_follow_as_a_player_names_only_what_they_saw() -> None:
    code, out, _ = run("replay", "--follow", str(SAMPLE), "--as", "bruno")
    assert code == 0
    events = [line.split(maxsplit=1)[1] for line in out.splitlines()
              if not line.startswith(" " * 7)]
    draws = [e for e in events if e.startswith(("ana drew", "carla drew"))]
    assert draws and all(e.endswith("drew a card from the deck") for e in draws)
    assert any(e.startswith("bruno drew a") and not e.startswith("bruno drew a card")
               for e in events)
    assert run("replay", "--follow", str(SAMPLE), "--as", "zed")[0] == 2
