"""The pure build needs no mypyc runtime library: ``cabo_log.db.pure_buffers`` writes the same
bytes as ``librt.strings`` (when it is installed), and a load without that library builds the
same rows, column for column, as one with it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from compiled_build import ROOT, run_dump

from cabo_log.db import pure_buffers

SAMPLES = ROOT / "sample_games"
NUMBERS = [0, 1, -1, 255, -256, 32767, -32768, 2**31 - 1, -(2**31), 2**40 + 3, -(2**63)]


def test_the_pure_writers_write_librts_bytes() -> None:
    librt = pytest.importorskip("librt.strings")
    for name, low, high in (("write_i16_le", -(2**15), 2**15), ("write_i32_le", -(2**31), 2**31),
                            ("write_i64_le", -(2**63), 2**63)):
        ours, theirs = pure_buffers.BytesWriter(), librt.BytesWriter()
        for n in NUMBERS:
            if low <= n < high:
                getattr(pure_buffers, name)(ours, n)
                getattr(librt, name)(theirs, n)
        ours.append(7)
        theirs.append(7)
        ours.write(b"xyz")
        theirs.write(b"xyz")
        assert ours.getvalue() == theirs.getvalue() and len(ours) == len(theirs)
        ours.truncate(5)
        theirs.truncate(5)
        assert ours.getvalue() == theirs.getvalue() == theirs.getvalue()[:5]
    data = bytes(range(16))
    for at in (0, 3, 12):
        assert pure_buffers.read_i32_le(data, at) == librt.read_i32_le(data, at)
    for at in (0, 3, 8):
        assert pure_buffers.read_i64_le(data, at) == librt.read_i64_le(data, at)
    assert pure_buffers.read_i64_le(b"\xff" * 8, 0) == librt.read_i64_le(b"\xff" * 8, 0) == -1


def test_the_pure_writers_bytes_are_little_endian_signed() -> None:
    buffer = pure_buffers.BytesWriter()
    pure_buffers.write_i16_le(buffer, -2)
    pure_buffers.write_i32_le(buffer, 258)
    pure_buffers.write_i64_le(buffer, -(2**40))
    assert buffer.getvalue() == (b"\xfe\xff" + b"\x02\x01\x00\x00"
                                 + (-(2**40)).to_bytes(8, "little", signed=True))
    assert pure_buffers.read_i32_le(buffer.getvalue(), 2) == 258


def test_a_load_without_librt_builds_the_same_rows(tmp_path: Path) -> None:
    logs = [str(p) for p in sorted(SAMPLES.glob("*.jsonl"))[:8]]
    logs += [str(p) for p in sorted((SAMPLES / "invalid").glob("*.jsonl"))[:4]]
    with_librt = run_dump("rows_dump.py", logs, None)
    # the same dump with librt unimportable (None in sys.modules makes an import fail)
    code = ("import runpy, sys; sys.modules['librt'] = sys.modules['librt.strings'] = None; "
            "import cabo_log.db.byte_buffers as b; "
            "assert b.BytesWriter.__module__ == 'cabo_log.db.pure_buffers', b.BytesWriter; "
            f"sys.argv = ['rows_dump.py', *sys.argv[1:]]; "
            f"runpy.run_path({str(ROOT / 'tests' / 'rows_dump.py')!r}, run_name='__main__')")
    run = subprocess.run([sys.executable, "-c", code, *logs], cwd=ROOT, capture_output=True,
                         check=False)
    assert run.returncode == 0, run.stderr.decode()
    without = orjson.loads(run.stdout)
    assert without["tables"] == with_librt["tables"]
    assert with_librt["tables"]["events"]["rows"] > 1000
    statuses = [status for status, _ in with_librt["tables"]["outcomes"]]
    assert "loaded" in statuses and "rejected" in statuses
