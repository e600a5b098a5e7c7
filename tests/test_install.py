"""A user's install is not a developer's: ``pip install .`` and ``make install`` / ``make demo``
bring what cabo-log needs to run, never the test tools, which only ``make dev`` / ``make test``
install (the ``test`` extra)."""

from __future__ import annotations

import shutil
import subprocess
import tomllib
from importlib.metadata import PackageNotFoundError, requires
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PROJECT = PYPROJECT["project"]
# the runtime dependencies are dynamic: setup.py reads them from here (and adds mypyc's runtime
# library to a compiled build)
RUNTIME = PYPROJECT["tool"]["cabo-log"]["dependencies"]

# what a developer needs and a user never should: the test runners, the browser driver, the
# type checker and the linter
TEST_TOOLS = {"pytest", "pytest-playwright", "playwright", "hypothesis", "mypy", "ruff"}


def _name(requirement: str) -> str:
    return canonicalize_name(Requirement(requirement).name)


def runtime_closure() -> set[str]:
    """Every distribution ``pip install .`` brings in: the project's dependencies and theirs,
    as the installed metadata states them (environment markers evaluated, no extras)."""
    seen: set[str] = set()
    todo = [Requirement(d) for d in RUNTIME]
    while todo:
        req = todo.pop()
        name = canonicalize_name(req.name)
        if name in seen:
            continue
        seen.add(name)
        try:
            found = requires(name) or []
        except PackageNotFoundError:   # not installed here: its own needs are unknown
            continue
        for line in found:
            sub = Requirement(line)
            if sub.marker is None or sub.marker.evaluate({"extra": ""}):
                todo.append(sub)
    return seen


def test_the_test_tools_are_an_extra_only() -> None:
    extra = {_name(r) for r in PROJECT["optional-dependencies"]["test"]}
    assert TEST_TOOLS <= extra   # the developers still get every one of them
    assert not TEST_TOOLS & {_name(r) for r in RUNTIME}


def test_no_runtime_dependency_brings_a_test_tool() -> None:
    closure = runtime_closure()
    assert {"duckdb", "typer", "pyarrow"} <= closure   # the walk did follow the metadata
    assert not TEST_TOOLS & closure, sorted(TEST_TOOLS & closure)


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
@pytest.mark.parametrize(("target", "extra"), [("install", False), ("demo", False),
                                               ("dev", True), ("test", True)])
def test_make_targets_install_what_they_say(target: str, extra: bool) -> None:
    """What each target would run on a fresh checkout (``make -n -B``: print, run nothing):
    ``install`` and ``demo`` install the package alone, ``dev`` and ``test`` with its test
    extra."""
    out = subprocess.run(["make", "-n", "-B", target], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    installs = [line for line in out.splitlines() if "pip install" in line]
    assert installs, out
    assert any("[test]" in line for line in installs) is extra, out
    assert ("pytest" in out) is (target == "test")
