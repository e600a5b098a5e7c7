"""What the benchmarks share to measure the compiled build: the folder ``make compiled`` fills,
and a run of a benchmark's own child mode with that folder first on the path (a fresh process:
the pure and the compiled modules cannot share one)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

COMPILED = Path(__file__).resolve().parents[1] / "build" / "mypyc"


def run_child(script: str, args: list[str]) -> dict[str, Any] | None:
    """The figures ``script`` prints as JSON on its last line when run with ``args`` in a
    child with ``build/mypyc`` first on its path; ``None`` (and why, printed) when that
    folder holds no compiled engine."""
    env = {**os.environ, "PYTHONPATH": str(COMPILED)}
    run = subprocess.run([sys.executable, script, *args], env=env, capture_output=True,
                         text=True, check=True)
    figures: dict[str, Any] = json.loads(run.stdout.strip().splitlines()[-1])
    if str(figures["engine"]).endswith(".py"):
        print(f"(build/mypyc holds no compiled engine: {figures['engine']})")
        return None
    return figures
