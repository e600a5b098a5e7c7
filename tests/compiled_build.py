"""What the compiled-build tests share: the compiled build installed by ``make compiled``
(tools/build_compiled.py; ``make test`` runs it first) and a dump script run in a fresh
process with or without that build first on the path, so that each test compares the two
builds' own output on the same inputs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import build_compiled  # noqa: E402  (tools/ is not a package)


def site_or_skip() -> Path:
    """The folder holding the compiled build of the current sources. The test is skipped,
    saying why, when the machine cannot build it or it was not built since the sources
    changed (a compiled copy of older sources would be compared with the new ones): the
    tests never build it themselves, ``make test`` does before they run."""
    reason = build_compiled.cannot_build()
    if reason:
        pytest.skip(f"no compiled build: {reason}")
    if not build_compiled.current():
        pytest.skip("the compiled build is missing or older than the sources: run "
                    "`make compiled` (make test does)")
    return build_compiled.SITE


def run_dump(script: str, args: list[str], pythonpath: Path | None) -> dict[str, Any]:
    """``tests/<script>`` in a fresh process (with the compiled build first on the path when
    ``pythonpath`` is given); its standard output, a JSON object."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CABO_LOG_PURE")}
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    run = subprocess.run([sys.executable, str(ROOT / "tests" / script), *args], cwd=ROOT,
                         env=env, capture_output=True, check=False)
    assert run.returncode == 0, run.stderr.decode()
    out: dict[str, Any] = orjson.loads(run.stdout)
    return out
