"""Golden playthroughs: every sample's ``cabo-log replay --json`` (and a few player views) must
match the reviewed copy in ``tests/golden/``. After an intended rule change, regenerate with
``.venv/bin/python tests/golden/regenerate.py`` and review the diff.
"""

from __future__ import annotations

import difflib
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

GOLDEN = Path(__file__).resolve().parent / "golden"


def _load_regenerate() -> ModuleType:
    spec = importlib.util.spec_from_file_location("golden_regenerate", GOLDEN / "regenerate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


regen = _load_regenerate()
CASES: dict[str, list[str]] = regen.cases()


def test_every_case_has_a_golden_file_and_no_file_is_stale() -> None:
    stored = {p.stem for p in GOLDEN.glob("*.json")}
    missing = sorted(set(CASES) - stored)
    stale = sorted(stored - set(CASES))
    assert not missing and not stale, (
        f"missing {missing}, stale {stale}: run .venv/bin/python tests/golden/regenerate.py")


def test_the_views_are_covered() -> None:
    assert any("--as" in args for args in CASES.values())
    assert any("--until" in args for args in CASES.values())


@pytest.mark.parametrize("stem", sorted(CASES))
def test_golden_replay(stem: str) -> None:
    path = GOLDEN / f"{stem}.json"
    if not path.exists():
        pytest.fail(f"no golden file {path.name}: run .venv/bin/python tests/golden/regenerate.py")
    expected = path.read_text(encoding="utf-8")
    actual = regen.render(CASES[stem])
    if actual != expected:
        diff = "\n".join(difflib.unified_diff(
            expected.splitlines(), actual.splitlines(), f"golden/{path.name}", "replay now",
            lineterm="", n=2))
        pytest.fail(f"cabo-log {' '.join(CASES[stem])} differs from the golden copy "
                    f"(if intended, run .venv/bin/python tests/golden/regenerate.py):\n{diff}",
                    pytrace=False)
