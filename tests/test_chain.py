"""The hash chain (FORMAT.md "Tamper evidence"): any edited, removed, inserted or reordered line
of a sealed log is found at the line where the chain breaks; only cutting lines off the end
keeps it, and the head then tells. Unchained logs are unaffected."""

from __future__ import annotations

import hashlib
from pathlib import Path

import orjson
import pytest

from cabo_log.log.gamelog import GameLog
from cabo_log.log.replay import replay_bytes, replay_file
from cabo_log.log.writes import seal

SAMPLES = sorted((Path(__file__).resolve().parents[1] / "sample_games").glob("*.jsonl"))
SEALED = ["edition2-exact-100", "golf-tiebreak", "online-forfeit", "online-in-progress",
          "tally-online"]


@pytest.fixture(params=SEALED)
def sealed(request: pytest.FixtureRequest, tmp_path: Path) -> list[bytes]:
    out = tmp_path / "sealed.jsonl"
    seal(SAMPLES[[p.stem for p in SAMPLES].index(request.param)], out)
    return out.read_bytes().splitlines()


def error_at(lines: list[bytes]) -> tuple[str, int | None]:
    result = replay_bytes(b"".join(line + b"\n" for line in lines))
    assert result.error is not None, "the change went unnoticed"
    return result.error.code, result.error.line


def test_sealing_keeps_the_events_and_chains_every_line(sealed: list[bytes]) -> None:
    for number in range(1, len(sealed)):
        h = orjson.loads(sealed[number])["h"]
        assert h == hashlib.sha256(sealed[number - 1]).hexdigest()  # computed independently
    result = replay_bytes(b"".join(line + b"\n" for line in sealed))
    assert result.error is None
    assert result.head == hashlib.sha256(sealed[-1]).hexdigest()
    assert result.report()["head"] == result.head


def test_an_edited_line_is_found_at_the_next_line(sealed: list[bytes]) -> None:
    for number in range(1, len(sealed)):  # 0-based: line number + 1 is what replay reports
        edited = list(sealed)
        obj = orjson.loads(edited[number - 1])
        obj["note"] = "edited"  # legal for the rules: only the chain can tell
        edited[number - 1] = orjson.dumps(obj)
        assert error_at(edited) == ("chain_broken", number + 1)
    result = replay_bytes(b"".join(line + b"\n" for line in sealed[:-1]) + sealed[-1][:-1]
                          + b',"x":1}\n')
    assert result.error is None and result.head != replay_bytes(
        b"".join(line + b"\n" for line in sealed)).head  # the last line: the head changes


def test_an_edited_hash_is_found_on_its_own_line(sealed: list[bytes]) -> None:
    for number in range(2, len(sealed) + 1):
        edited = list(sealed)
        obj = orjson.loads(edited[number - 1])
        obj["h"] = hashlib.sha256(b"forged").hexdigest()
        edited[number - 1] = orjson.dumps(obj)
        assert error_at(edited) == ("chain_broken", number)


def test_a_removed_line_is_found_where_it_was(sealed: list[bytes]) -> None:
    for number in range(2, len(sealed)):  # the last one is "cutting off the end"
        assert error_at(sealed[:number - 1] + sealed[number:]) == ("chain_broken", number)


def test_an_inserted_line_is_found(sealed: list[bytes]) -> None:
    for number in range(2, len(sealed) + 1):
        copied = sealed[1 + number % (len(sealed) - 1)]
        if copied == sealed[number - 1]:
            continue
        assert error_at(sealed[:number - 1] + [copied] + sealed[number - 1:]) \
            == ("chain_broken", number)
        # a forger who fixes the inserted line's own hash is caught by the rules on that
        # line, or by the chain on the next
        forged = orjson.loads(copied)
        forged["h"] = hashlib.sha256(sealed[number - 2]).hexdigest()
        if number <= len(sealed) - 1:
            code, line = error_at(sealed[:number - 1] + [orjson.dumps(forged)]
                                  + sealed[number - 1:])
            assert line == number or (code, line) == ("chain_broken", number + 1)


def test_reordered_lines_are_found(sealed: list[bytes]) -> None:
    for number in range(2, len(sealed)):
        swapped = list(sealed)
        swapped[number - 1], swapped[number] = swapped[number], swapped[number - 1]
        assert error_at(swapped) == ("chain_broken", number)


def test_cutting_off_the_end_keeps_the_chain_and_changes_the_head(sealed: list[bytes]) -> None:
    full = replay_bytes(b"".join(line + b"\n" for line in sealed)).head
    cut = replay_bytes(b"".join(line + b"\n" for line in sealed[:-3]))
    assert cut.error is None and cut.head not in (None, full)


UNCHAINED = [p for p in SAMPLES if b'"chain"' not in p.read_bytes().split(b"\n")[0]]


@pytest.mark.parametrize("sample", UNCHAINED, ids=lambda p: p.stem)
def test_unchained_logs_are_unaffected(sample: Path) -> None:
    result = replay_file(sample)
    assert result.error is None and result.head is None
    assert "head" not in result.report()


def test_an_unchained_log_with_one_hash_is_refused(tmp_path: Path) -> None:
    lines = SAMPLES[0].read_bytes().splitlines()
    obj = orjson.loads(lines[4])
    obj["h"] = hashlib.sha256(lines[3]).hexdigest()
    lines[4] = orjson.dumps(obj)
    assert error_at(lines) == ("chain_broken", 5)


@pytest.mark.parametrize("key", [b'"h"', b'"\\u0068"', b'"\\u0068" '])
def test_a_hash_key_written_as_an_escape_is_a_hash(key: bytes) -> None:
    # The verdict is the decoded key's: "\u0068" is h, though no byte spells "h".
    lines = SAMPLES[0].read_bytes().splitlines()
    lines[4] = lines[4][:-1] + b"," + key + b':"0000"}'
    assert error_at(lines) == ("chain_broken", 5)


def test_an_escaped_hash_continues_a_chain(sealed: list[bytes]) -> None:
    escaped = list(sealed)
    escaped[-2] = escaped[-2].replace(b'"h":', b'"\\u0068":')   # the last link still holds
    assert escaped[-2] != sealed[-2]
    escaped[-1] = escaped[-1][:-1].rsplit(b',"h":', 1)[0] + b',"h":"' + \
        hashlib.sha256(escaped[-2]).hexdigest().encode() + b'"}'
    result = replay_bytes(b"".join(line + b"\n" for line in escaped))
    assert result.error is None and result.head == hashlib.sha256(escaped[-1]).hexdigest()


def test_a_hash_twice_one_escaped_is_refused(sealed: list[bytes]) -> None:
    twice = list(sealed)
    right = hashlib.sha256(sealed[1]).hexdigest().encode()
    twice[2] = twice[2][:-1] + b',"\\u0068":"' + right + b'"}'
    assert error_at(twice)[1] == 3


def test_a_writer_continues_the_chain(tmp_path: Path) -> None:
    source = SAMPLES[[p.stem for p in SAMPLES].index("online-in-progress")]
    full = source.read_bytes().splitlines()
    out = tmp_path / "part.jsonl"
    with GameLog.create(out, orjson.loads(full[0]), chain=True) as log:
        log.extend([orjson.loads(line) for line in full[1:40]])
    with GameLog.open(out) as log:  # reopened: chained because line 2 has h
        assert log.chained
        log.extend([orjson.loads(line) for line in full[40:]])
        head = log.head
    whole = tmp_path / "whole.jsonl"
    assert seal(source, whole).head == head == replay_file(out).head
    assert out.read_bytes() == whole.read_bytes()


def test_chain_cannot_be_started_in_the_middle_of_a_log(tmp_path: Path) -> None:
    from cabo_log.log.gamelog import write_log
    from cabo_log.log.lock import WriterError

    lines = [orjson.loads(line) for line in SAMPLES[0].read_bytes().splitlines()]
    out = write_log(tmp_path / "g.jsonl", lines[:5]).path
    with pytest.raises(WriterError) as caught:
        GameLog.open(out, chain=True)
    assert caught.value.code == "not_chained"
    header_only = write_log(tmp_path / "h.jsonl", lines[:1]).path
    with GameLog.open(header_only, chain=True) as log:  # nothing to contradict yet
        log.extend(lines[1:5])
    assert replay_file(header_only).head is not None


def test_a_bom_is_part_of_the_first_line_as_stored(tmp_path: Path) -> None:
    """FORMAT.md: ``h`` hashes the previous line exactly as stored, so line 2 of a file that
    starts with a UTF-8 BOM hashes the BOM too; a writer continuing such a log agrees."""
    bom = b"\xef\xbb\xbf"
    source = SAMPLES[[p.stem for p in SAMPLES].index("online-in-progress")]
    full = source.read_bytes().splitlines()
    sealed = tmp_path / "sealed.jsonl"
    seal(source, sealed)
    lines = sealed.read_bytes().splitlines()

    def relinked(first: bytes, hashed: bytes) -> bytes:
        """The sealed log with line 1 = ``first`` and line 2's ``h`` the hash of ``hashed``."""
        out, before = [first], hashed
        for raw in lines[1:]:
            obj = orjson.loads(raw)
            obj["h"] = hashlib.sha256(before).hexdigest()   # computed independently
            out.append(orjson.dumps(obj))
            before = out[-1]
        return b"".join(line + b"\n" for line in out)

    right = replay_bytes(relinked(bom + lines[0], bom + lines[0]))
    assert right.error is None and right.head is not None
    wrong = replay_bytes(relinked(bom + lines[0], lines[0]))   # the BOM left out
    assert wrong.error is not None and (wrong.error.code, wrong.error.line) == ("chain_broken", 2)
    # a writer starting a chain on a header-only file with a BOM: the replay agrees with it
    out = tmp_path / "bom.jsonl"
    out.write_bytes(bom + full[0] + b"\n")
    with GameLog.open(out, chain=True) as log:
        log.extend([orjson.loads(line) for line in full[1:10]])
        head = log.head
    result = replay_file(out)
    assert result.error is None and result.head == head
    assert orjson.loads(out.read_bytes().splitlines()[1])["h"] == hashlib.sha256(
        bom + full[0]).hexdigest()
