"""The loader's rows with the compiled row modules (``APP_MODULES`` in setup.py:
``cabo_log/db/rows.py``, ``columns.py`` ...) are exactly the pure build's: every table's schema,
row count and every column's values, in order, on the sample games (the invalid ones included,
which a load rejects) and on simulated games of every ruleset, some with a line dropped or two
lines swapped.

The build is the one ``make compiled`` installs (shared with tests/test_compiled.py); skipped,
saying why, when it cannot be built here or is older than the sources.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from compiled_build import run_dump
from test_compiled import SAMPLES, simulated

from cabo_log.db.row_layout import LAYOUTS


def rows_dump(logs: list[Path], pythonpath: Path | None) -> dict[str, Any]:
    """tests/rows_dump.py in a fresh process, with or without the compiled build first."""
    return run_dump("rows_dump.py", [str(log) for log in logs], pythonpath)


def test_the_compiled_row_modules_build_exactly_the_pure_rows(compiled: Path,
                                                              tmp_path: Path) -> None:
    logs = sorted(SAMPLES.glob("*.jsonl")) + sorted((SAMPLES / "invalid").glob("*.jsonl"))
    logs += simulated(tmp_path)
    pure, fast = rows_dump(logs, None), rows_dump(logs, compiled)
    assert pure["compiled"] == []
    assert fast["compiled"] == ["cabo_log.db.rows", "cabo_log.db.columns"]
    assert fast["tables"] == pure["tables"]
    tables = pure["tables"]
    statuses = [status for status, _ in tables["outcomes"]]
    assert statuses.count("loaded") >= 40 and statuses.count("rejected") >= 30
    # every table has rows, and the events of every kind are there
    assert {"games", "game_players", "rounds", "round_scores", "events", "powers",
            "cabo_calls"} <= set(tables)
    assert set(tables["events"]["kinds"]) == set(LAYOUTS)
    assert tables["events"]["rows"] > 10_000
