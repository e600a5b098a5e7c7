"""The compiled simulator (``make compiled``: the engine and the simulator's hot modules,
``APP_MODULES`` in setup.py) writes exactly the logs the pure-Python one writes:
the same bytes for the same seeds, for every ruleset and for each built-in bot, with forfeits,
timeouts and timestamps, and through ``write_games`` in two worker processes.

Skipped, saying why, when the compiled build cannot be made here or is older than the sources.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from compiled_build import run_dump


def dump(out: Path, pythonpath: Path | None) -> dict[str, Any]:
    """tests/simulate_dump.py in a fresh process, with or without the compiled build first."""
    return run_dump("simulate_dump.py", [str(out)], pythonpath)


def test_the_compiled_simulator_writes_the_pure_ones_bytes(compiled: Path,
                                                           tmp_path: Path) -> None:
    pure, fast = dump(tmp_path / "pure", None), dump(tmp_path / "fast", compiled)
    assert pure["compiled"] == []
    assert set(fast["compiled"]) >= {"engine.game", "engine.knowledge", "cabo_log.play.match",
                                     "cabo_log.play.random_bot", "engine.moveset",
                                     "engine.moves", "cabo_log.play.lines",
                                     "cabo_log.play.chance", "cabo_log.log.append"}
    assert len(pure["games"]) == 22 and len(set(pure["games"].values())) == 22
    assert fast["games"] == pure["games"]
