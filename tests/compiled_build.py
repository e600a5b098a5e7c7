"""What the compiled-build tests share: the build itself (the one ``make compiled`` runs, a
no-op while its sources are unchanged) and a dump script run in a fresh process with or without
``build/mypyc`` first on the path, so that each test compares the two builds' own output."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

ROOT = Path(__file__).resolve().parents[1]


def build_or_skip() -> Path:
    """``build/mypyc``, built if needed; the test is skipped (saying why) only when the machine
    has no C compiler or no Python headers (the script's exit 3)."""
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "build_compiled.py")],
                         cwd=ROOT, capture_output=True, text=True, check=False)
    if run.returncode == 3:
        pytest.skip(run.stderr.strip())
    assert run.returncode == 0, run.stdout + run.stderr
    return ROOT / "build" / "mypyc"


def run_dump(script: str, args: list[str], pythonpath: Path | None) -> dict[str, Any]:
    """``tests/<script>`` in a fresh process (with the compiled build first on the path when
    ``pythonpath`` is given); its standard output, a JSON object."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    run = subprocess.run([sys.executable, str(ROOT / "tests" / script), *args], cwd=ROOT,
                         env=env, capture_output=True, check=False)
    assert run.returncode == 0, run.stderr.decode()
    out: dict[str, Any] = orjson.loads(run.stdout)
    return out
