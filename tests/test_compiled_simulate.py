"""The compiled simulator (``make compiled``: the engine and the simulator's hot modules,
``APP_MODULES`` in tools/build_compiled.py) writes exactly the logs the pure-Python one writes:
the same bytes for the same seeds, for every ruleset and for each built-in bot, with forfeits,
timeouts and timestamps, and through ``write_games`` in two worker processes.

Skipped only when the machine has no C compiler or no Python headers, saying so.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def compiled() -> Path:
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "build_compiled.py")],
                         cwd=ROOT, capture_output=True, text=True, check=False)
    if run.returncode == 3:
        pytest.skip(run.stderr.strip())
    assert run.returncode == 0, run.stdout + run.stderr
    return ROOT / "build" / "mypyc"


def dump(out: Path, pythonpath: Path | None) -> dict[str, Any]:
    """tests/simulate_dump.py in a fresh process, with or without the compiled build first."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    run = subprocess.run([sys.executable, str(ROOT / "tests" / "simulate_dump.py"), str(out)],
                         cwd=ROOT, env=env, capture_output=True, check=False)
    assert run.returncode == 0, run.stderr.decode()
    result: dict[str, Any] = orjson.loads(run.stdout)
    return result


def test_the_compiled_simulator_writes_the_pure_ones_bytes(compiled: Path,
                                                           tmp_path: Path) -> None:
    pure, fast = dump(tmp_path / "pure", None), dump(tmp_path / "fast", compiled)
    assert pure["compiled"] == []
    assert set(fast["compiled"]) >= {"engine.game", "engine.knowledge", "cabo_log.play.match",
                                     "cabo_log.play.random_bot", "cabo_log.play.moveset",
                                     "cabo_log.play.state_access", "cabo_log.play.lines",
                                     "cabo_log.play.chance", "cabo_log.log.append"}
    assert len(pure["games"]) == 22 and len(set(pure["games"].values())) == 22
    assert fast["games"] == pure["games"]
