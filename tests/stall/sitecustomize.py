"""Put on ``PYTHONPATH`` by the tests that must hold a load's worker in the middle of a file:
every process of that command (the workers' forkserver too) reads a log whose name ends with
``$CABO_LOG_TEST_STALL`` the blocking way, so a FIFO of that name holds the worker until the
test writes to it or kills it. cabo-log itself refuses FIFOs (they would hang it)."""

from __future__ import annotations

import os

SUFFIX = os.environ.get("CABO_LOG_TEST_STALL")

if SUFFIX:
    from cabo_log.log import logfile

    _read_log = logfile.read_log

    def _stalling_read_log(path: str | os.PathLike[str]) -> tuple[bytes, int]:
        if os.fspath(path).endswith(SUFFIX):
            with open(path, "rb") as f:
                return f.read(), os.fstat(f.fileno()).st_mtime_ns
        return _read_log(path)

    logfile.read_log = _stalling_read_log
