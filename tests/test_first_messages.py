"""What a new user's first mistakes are told: a torn last line says it looks torn and what
mends it (``validate`` as ``append`` does), a card code that is no card is said to be none."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_games"


def cabo_log(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cabo_log", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, check=False)


def test_validate_says_a_torn_last_line_looks_torn_and_repair_cuts_it(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    shutil.copy(SAMPLES / "edition1-kamikaze.jsonl", log)
    whole = log.read_bytes()
    with log.open("ab") as f:
        f.write(b'{"type":"po')                          # a writer crashed mid-line
    line = whole.count(b"\n") + 1
    out = cabo_log("validate", log)
    assert out.returncode == 1
    first = out.stdout.splitlines()[0]
    assert first.startswith(f"{log}:{line}: bad_json: the line is not valid JSON")
    assert "looks torn" in first and "'cabo-log repair' cuts it off" in first
    replay = cabo_log("replay", log)
    assert replay.returncode == 1 and "looks torn" in replay.stderr
    # what it says mends it: repair cuts the line, and the log is valid again
    assert cabo_log("repair", log).returncode == 0
    assert log.read_bytes() == whole
    assert cabo_log("validate", log).stdout.endswith("1 valid, 0 invalid\n")


def test_a_bad_line_that_ends_in_a_newline_is_not_called_torn(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    log.write_bytes((SAMPLES / "edition1-kamikaze.jsonl").read_bytes() + b'{"type":"po\n')
    out = cabo_log("validate", log)
    assert out.returncode == 1 and "bad_json" in out.stdout
    assert "torn" not in out.stdout and "repair" not in out.stdout


def _with_line(source: Path, target: Path, number: int, **changes: object) -> None:
    lines = source.read_text().splitlines()
    event = json.loads(lines[number - 1])
    event.update(changes)
    lines[number - 1] = json.dumps(event)
    target.write_text("\n".join(lines) + "\n")


def test_a_drawn_card_code_that_is_no_card_is_said_to_be_none(tmp_path: Path) -> None:
    log = tmp_path / "zz.jsonl"
    _with_line(SAMPLES / "edition1-kamikaze.jsonl", log, 6, card="ZZ")   # ana's first draw
    out = cabo_log("validate", log)
    assert out.returncode == 1
    assert out.stdout.splitlines()[0] == (
        f"{log}:6: unknown_card: 'ZZ' is not a card of this ruleset's deck (edition1)")
    # a real card that is not the one on top is still the wrong card
    _with_line(SAMPLES / "edition1-kamikaze.jsonl", log, 6, card="8")
    assert cabo_log("validate", log).stdout.splitlines()[0] == (
        f"{log}:6: wrong_card: the top of the deck pile is 7, not 8")


def test_a_reshuffle_naming_no_card_is_said_to_be_none(tmp_path: Path) -> None:
    source = SAMPLES / "edition1-reshuffle.jsonl"
    number = next(i for i, line in enumerate(source.read_text().splitlines(), start=1)
                  if json.loads(line)["type"] == "reshuffle")
    deck = json.loads(source.read_text().splitlines()[number - 1])["deck"]
    log = tmp_path / "zz.jsonl"
    _with_line(source, log, number, deck=["ZZ", *deck[1:]])
    out = cabo_log("validate", log)
    assert out.stdout.splitlines()[0] == (
        f"{log}:{number}: unknown_card: 'ZZ' is not a card of this ruleset's deck (edition1)")
