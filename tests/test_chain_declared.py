"""A chain declared in the header (format 1.1, ``"chain": "sha256"``): a log that holds only its
header already says it is chained, every writer continues the chain in any later call without
being told, and readers require ``h`` on every line after such a header."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from cabo_log.cli import app, register_all
from cabo_log.log.gamelog import GameLog
from cabo_log.log.replay import replay_bytes, replay_file
from cabo_log.log.writes import seal
from cabo_log.play.follow import follow
from engine import CaboLogError

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_games" / "golf-snaps.jsonl"
LINES = SAMPLE.read_bytes().splitlines()
runner = CliRunner()
register_all()

HEADER = {"type": "game", "format": "cabo-log/1", "seq": 0, "game_id": "g",
          "ruleset": "edition2", "players": ["ana", "bruno"]}


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def sha(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def test_append_header_chain_then_plain_appends_continue_it(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    assert run("append", str(log), LINES[0].decode(), "--chain")[0] == 0
    header = log.read_bytes().splitlines()[0]
    assert orjson.loads(header)["chain"] == "sha256"
    # a second call, not told to chain: the header says so
    code, _, err = run("append", str(log), LINES[1].decode())
    assert code == 0, err
    code, _, err = run("append", str(log), *[x.decode() for x in LINES[2:6]])
    assert code == 0, err
    stored = log.read_bytes().splitlines()
    for number in range(1, len(stored)):   # each h computed here, independently
        assert orjson.loads(stored[number])["h"] == sha(stored[number - 1])
    # asking for the chain again is fine (it is there), never not_chained
    code, _, err = run("append", str(log), LINES[6].decode(), "--chain")
    assert code == 0, err
    result = replay_file(log)
    assert result.error is None and result.head == sha(log.read_bytes().splitlines()[-1])


def test_gamelog_reopens_a_header_only_declared_chain(tmp_path: Path) -> None:
    path = tmp_path / "h.jsonl"
    GameLog.create(path, HEADER, chain=True).close()
    only = path.read_bytes().splitlines()
    assert len(only) == 1 and orjson.loads(only[0])["chain"] == "sha256"
    assert replay_file(path).head == sha(only[0])   # a header-only chained log has a head
    with GameLog.open(path) as log:               # not told: the header says chained
        assert log.chained
    declared = tmp_path / "d.jsonl"
    sheet = {**HEADER, "record": "tally", "chain": "sha256"}
    with GameLog.create(declared, sheet) as log:   # chain=False: the header decides
        assert log.chained
        log.append({"type": "tally", "round": 1, "caller": "ana",
                    "hands": {"ana": ["1"], "bruno": ["2"]}})
    stored = declared.read_bytes().splitlines()
    assert orjson.loads(stored[1])["h"] == sha(stored[0])
    assert replay_file(declared).head == sha(stored[1])


def test_a_missing_h_after_a_declared_chain_is_chain_broken(tmp_path: Path) -> None:
    header = json.dumps({**HEADER, "record": "tally", "chain": "sha256"}).encode()
    line = json.dumps({"type": "tally", "seq": 1, "round": 1, "caller": "ana",
                       "hands": {"ana": ["1"], "bruno": ["2"]}}).encode()
    result = replay_bytes(header + b"\n" + line + b"\n", "x.jsonl")
    assert result.error is not None
    assert (result.error.line, result.error.code) == (2, "chain_broken")
    path = tmp_path / "x.jsonl"
    path.write_bytes(header + b"\n" + line + b"\n")
    code, out, _ = run("validate", str(path))
    assert code == 1 and f"{path}:2: chain_broken: " in out
    with pytest.raises(CaboLogError) as caught:
        list(follow(path, interval=0.01, stop=lambda: True))
    assert caught.value.code == "chain_broken"
    # and with its h, the same line is fine
    linked = json.loads(line)
    linked["h"] = sha(header)
    good = header + b"\n" + json.dumps(linked).encode() + b"\n"
    assert replay_bytes(good).error is None


def test_only_sha256_is_a_chain(tmp_path: Path) -> None:
    header = {**HEADER, "chain": "md5"}
    result = replay_bytes(json.dumps(header).encode() + b"\n", "m.jsonl")
    assert result.error is not None
    assert (result.error.line, result.error.code) == (1, "bad_field")
    assert "'chain' must be 'sha256'" in result.error.message
    path = tmp_path / "m.jsonl"
    with pytest.raises(CaboLogError) as caught:
        GameLog.create(path, header)
    assert caught.value.code == "bad_field" and not path.exists()


def test_seal_declares_the_chain(tmp_path: Path) -> None:
    out = tmp_path / "s.jsonl"
    done = seal(SAMPLE, out)
    sealed = out.read_bytes().splitlines()
    assert orjson.loads(sealed[0])["chain"] == "sha256"
    assert done.head == sha(sealed[-1]) == replay_file(out).head
    # the sealed copy is appended to later without --chain, and stays chained
    with GameLog.open(out) as log:
        assert log.chained
