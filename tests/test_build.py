"""``pip install .`` without a C compiler, or with ``CABO_LOG_PURE=1``, builds a pure-Python
wheel and says so in one line: no extension module in it, and no mypyc runtime library among
its dependencies. (The compiled wheel is tested by tests/test_compiled*.py, which run it.)

Each build runs on a copy of the project, so that it leaves nothing in the checkout."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from compiled_build import ROOT

COPIED = ["engine", "cabo_log", "setup.py", "pyproject.toml", "README.md"]


def pip_wheel(tmp_path: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``pip wheel`` of a copy of the project with ``env`` added, into ``tmp_path/dist``."""
    project = tmp_path / "project"
    project.mkdir()
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, project / name,
                            ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, project / name)
    return subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps",
                           "--no-build-isolation", "-w", str(tmp_path / "dist"), str(project)],
                          env={**os.environ, **env}, capture_output=True, text=True,
                          check=False)


def build_wheel(tmp_path: Path, env: dict[str, str]) -> tuple[zipfile.ZipFile, str]:
    """A wheel of a copy of the project built with ``env`` added; the wheel and pip's
    output."""
    run = pip_wheel(tmp_path, env)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    wheels = list((tmp_path / "dist").glob("cabo_log-*.whl"))
    assert len(wheels) == 1, wheels
    return zipfile.ZipFile(wheels[0]), run.stdout + run.stderr


def requirements(wheel: zipfile.ZipFile) -> list[str]:
    meta = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
    lines = wheel.read(meta).decode().splitlines()
    return [line.split(":", 1)[1].strip() for line in lines if line.startswith("Requires-Dist:")]


@pytest.mark.parametrize(("env", "says"), [
    ({"CABO_LOG_PURE": "1"}, "cabo-log build: pure Python (CABO_LOG_PURE is set)"),
    ({"CC": "/nonexistent/cc"}, "cabo-log build: pure Python (no C compiler (/nonexistent/cc))"),
])
def test_a_pure_build_has_no_extension_and_says_why(tmp_path: Path, env: dict[str, str],
                                                    says: str) -> None:
    wheel, output = build_wheel(tmp_path, env)
    names = wheel.namelist()
    assert "engine/game.py" in names and "cabo_log/db/rows.py" in names
    assert "cabo_log/queries/cabo_call_success.sql" in names   # the package data
    assert not [n for n in names if n.endswith((".so", ".pyd"))]
    assert output.count("cabo-log build:") == 1 and says in output
    deps = requirements(wheel)
    assert any(d.startswith("duckdb") for d in deps)
    assert not any(d.startswith("librt") for d in deps)


def test_a_required_compiled_build_fails_rather_than_fall_back(tmp_path: Path) -> None:
    run = pip_wheel(tmp_path, {"CC": "/nonexistent/cc", "CABO_LOG_REQUIRE_COMPILED": "1"})
    assert run.returncode != 0
    said = run.stderr + run.stdout
    assert "cabo-log build: cannot compile: no C compiler (/nonexistent/cc)" in said
    assert not list((tmp_path / "dist").glob("*.whl"))


def test_the_development_install_runs_the_sources() -> None:
    """``make dev`` is editable: the modules the compiled build compiles are imported from the
    checkout's ``.py`` files, so an edit runs as written."""
    import cabo_log.db.rows
    import engine.game
    from cabo_log.build_info import build_kind

    assert build_kind() == "pure"
    for module in (engine.game, cabo_log.db.rows):
        assert module.__file__ is not None
        assert Path(module.__file__).resolve().is_relative_to(ROOT)
        assert module.__file__.endswith(".py")


def make_plan(project: Path) -> str:
    """What ``make install`` would run in ``project`` (``make -n``: nothing is built)."""
    run = subprocess.run(["make", "-n", "install"], cwd=project, capture_output=True, text=True,
                         check=True)
    return run.stdout


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_make_install_builds_again_after_the_sources_change(tmp_path: Path) -> None:
    """A compiled install does not run the checkout's sources: after a ``git pull`` that changed
    one, ``make install`` must build it again, or the user runs the old code. A development
    venv (``make dev``, editable) runs the sources and is left as it is."""
    project = tmp_path / "project"
    (project / "engine").mkdir(parents=True)
    (project / "cabo_log" / "queries").mkdir(parents=True)
    shutil.copy2(ROOT / "Makefile", project / "Makefile")
    for name in ("pyproject.toml", "setup.py", "engine/deal.py", "cabo_log/queries/a.sql"):
        (project / name).write_text("# a source\n")
    (project / ".venv" / "bin").mkdir(parents=True)
    (project / ".venv" / "bin" / "python").symlink_to(sys.executable)
    stamp = project / ".venv" / ".installed"
    stamp.touch()
    old = stamp.stat().st_mtime - 60
    for path in project.rglob("*"):
        if path.is_file() and not path.is_symlink() and path != stamp:
            os.utime(path, (old, old))
    assert "pip install" not in make_plan(project)

    for edited in ("engine/deal.py", "cabo_log/queries/a.sql"):
        os.utime(project / edited, None)
        assert "-m pip install -q ." in make_plan(project), edited
        os.utime(project / edited, (old, old))

    (project / ".venv" / ".installed-dev").touch()
    os.utime(project / "engine/deal.py", None)
    assert "pip install" not in make_plan(project)


def _setup_module() -> object:
    """``setup.py`` as a module (its ``setup()`` runs only as a script)."""
    import importlib.util

    found = importlib.util.spec_from_file_location("cabo_setup", ROOT / "setup.py")
    assert found is not None and found.loader is not None
    module = importlib.util.module_from_spec(found)
    found.loader.exec_module(module)
    return module


def test_the_c_flags_are_those_the_compiler_takes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A flag the C compiler would refuse is left out (a failed C build would make the whole
    install pure); a compiler that refuses everything gets none."""
    setup = _setup_module()
    monkeypatch.setenv("CC", "false")
    assert setup.taken_flags() == []  # type: ignore[attr-defined]
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("no gcc on this machine")
    monkeypatch.setenv("CC", gcc)
    assert setup.taken_flags() == list(setup.CC_FLAGS)  # type: ignore[attr-defined]
    monkeypatch.setattr(setup, "CC_FLAGS", ("-fno-such-flag-at-all",))
    assert setup.taken_flags() == []  # type: ignore[attr-defined]
