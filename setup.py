"""How cabo-log is built: the engine and the application's busiest modules compiled to C by
mypyc (the way mypy and black ship their own wheels), or plain Python when that cannot be done.

``pip install .`` builds a wheel with the compiled extension modules beside the ``.py`` files
they replace (Python imports an extension before a source file of the same name). The build
is pure Python, saying why in one line (``pip install -v`` shows it), when:

- ``CABO_LOG_PURE=1`` is set;
- the install is editable (``pip install -e .``, ``make install``): a developer's edits must run
  as written, never behind a compiled copy of the module made before the edit;
- there is no C compiler or no Python headers, or mypyc or the C compiler fails.

``CABO_LOG_REQUIRE_COMPILED=1`` turns the last case into a failed build instead (the test
build, tools/build_compiled.py, must not quietly test pure Python twice). ``cabo-log --version``
says which build runs. docs/compiled.md tells the rest.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent

KEEP_PYTHON: dict[str, str] = {
    "engine/__init__.py": "the package's front door; nothing in it runs per event",
    "engine/errors.py": "mypyc makes the class-level ``kind`` of each error an instance default "
                        "that native exception classes never set (``err.kind`` would fail)",
    "engine/native.py": "the build hints' run-time no-op: compiled, the branch the type checker "
                        "deems unreachable would raise instead of defining it; and the "
                        "CABO_LOG_PURE switch, which must run before any compiled module loads",
    "engine/listed.py": "``Listed`` is a ``tuple`` subclass, which mypyc cannot compile as a "
                        "native class; a list is grouped once per match and key, not per event",
    "engine/spec.py": "the declarations the generated modules are written from "
                      "(tools/gen_events.py); read once at import, never per event",
}
"""Engine modules that stay Python in the compiled build, and why."""

APP_MODULES: dict[str, str] = {
    # the load's row stage
    "cabo_log/db/rows.py": "the loader's visitor: an events row per event, from the outcome",
    "cabo_log/db/columns.py": "the column builders every row is written to, a value at a time",
    "cabo_log/db/row_tables.py": "the typed tables of builders the visitor writes to",
    "cabo_log/db/row_sink.py": "the chunk's tables, and the chain that hands each event on",
    "cabo_log/db/open_rows.py": "the powers and cabo_calls rows, opened and closed per event",
    "cabo_log/db/game_cards.py": "each card's code and value, asked for by most events' rows",
    "cabo_log/db/game_rows.py": "the game-level rows: round_scores per player and round",
    # after every load: the ratings of the games loaded
    "cabo_log/db/plackett_luce.py": "the rating update of each complete game, float by float",
    # the replay
    "cabo_log/log/fastlines.py": "every decoded event is applied here",
    "cabo_log/log/line_events.py": "every decoded line becomes an event here, its canonical "
                                   "size added up",
    "cabo_log/log/scanner.py": "the native scan's readers: every byte of a canonical line",
    "cabo_log/log/line_scan.py": "each canonical line read into its event here",
    # simulate: the match loop and what it calls on every decision
    "cabo_log/play/match.py": "simulate's loop: deals, asks the bots, records every event",
    "cabo_log/play/random_bot.py": "the benchmark's bot: one decision per event",
    "cabo_log/play/lines.py": "each recorded event's line object",
    "cabo_log/play/line_text.py": "each recorded decision's line text",
    "cabo_log/play/json_text.py": "the JSON text of the values in those lines",
    "cabo_log/play/chance.py": "the random draws of every decision, deal and reshuffle",
    "cabo_log/log/append.py": "the append API every simulated line is written through",
}
"""Modules of the application compiled as well (the rest of ``cabo_log`` stays Python), and
why: each runs once per event or per decision."""

MYPY_CONFIG = """[mypy]
python_version = 3.11
ignore_missing_imports = True
"""
"""mypyc's type check of the build. Not strict (``make typecheck`` is): the build
environment holds only what the compiled modules' types need (orjson, msgspec, librt), the
other libraries are unknown to it and typed ``Any``, which strict mode would refuse."""

BUILD_RUNTIME = "librt>=0.17,<1"
"""mypyc's runtime library: the compiled row stage writes its byte buffers through it. Pure
Python does not need it (``cabo_log.db.bytes_out`` falls back)."""


CC_FLAGS = ("-fno-semantic-interposition",)
"""C flags for the compiled modules, each used when the compiler takes it. The modules are one
shared library whose functions call each other on every event; without this flag the compiler
must assume that another library loaded first could replace any of them, so it neither inlines
one into another nor calls it directly (CPython builds itself with it too)."""


def say(message: str) -> None:
    """The one line a build prints about itself."""
    print(f"cabo-log build: {message}", file=sys.stderr, flush=True)


def compiled_sources() -> list[str]:
    """The files mypyc compiles, relative to the project root."""
    engine = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "engine").glob("*.py"))
    return [p for p in engine if p not in KEEP_PYTHON] + list(APP_MODULES)


def asked_pure() -> str | None:
    """Why this build was asked to be pure Python, or None."""
    if os.environ.get("CABO_LOG_PURE", "") not in ("", "0"):
        return "CABO_LOG_PURE is set"
    if {"editable_wheel", "develop"} & set(sys.argv):
        return "editable install (the sources run as edited)"
    return None


def cannot_compile() -> str | None:
    """What this machine lacks to compile, or None."""
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        return f"no C compiler ({cc})"
    include = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not include.is_file():
        return f"no Python headers ({include})"
    return None


def taken_flags() -> list[str]:
    """The ``CC_FLAGS`` this machine's C compiler takes (each tried on an empty file)."""
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    taken = []
    for flag in CC_FLAGS:
        tried = subprocess.run([*cc, flag, "-Werror", "-x", "c", "-c", os.devnull, "-o",
                                os.devnull], capture_output=True, check=False)
        if tried.returncode == 0:
            taken.append(flag)
    return taken


def why_pure() -> str | None:
    """Why this build is pure Python, or None when it compiles."""
    return asked_pure() or cannot_compile()


def required() -> bool:
    """Whether a compiled build that cannot be made is an error rather than a pure build."""
    return os.environ.get("CABO_LOG_REQUIRE_COMPILED", "") not in ("", "0")


def fall_back(reason: str) -> None:
    """Say that the build is pure Python, and why; fail instead when compiling is required."""
    if required():
        raise SystemExit(f"cabo-log build: cannot compile: {reason}")
    say(f"pure Python ({reason})")


def mypyc_extensions() -> list[Any]:
    """The compiled extension modules (mypyc generates their C here and now), or none."""
    asked = asked_pure()
    if asked is not None:
        say(f"pure Python ({asked})")
        return []
    lacking = cannot_compile()
    if lacking is not None:
        fall_back(lacking)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as exc:
        fall_back(f"mypyc is not installed ({exc})")
        return []
    out = "build/mypyc-c"   # relative: setuptools refuses absolute source paths
    Path(out).mkdir(parents=True, exist_ok=True)
    config = Path(out, "mypy.ini")
    config.write_text(MYPY_CONFIG)
    level = os.environ.get("MYPYC_OPT_LEVEL", "3")
    try:
        extensions: list[Any] = mypycify(["--config-file", str(config), *compiled_sources()],
                                         opt_level=level, target_dir=out)
    except (SystemExit, Exception) as exc:   # mypyc reports a type error by exiting
        fall_back(f"mypyc failed: {exc}")
        return []
    flags = taken_flags()
    for ext in extensions:
        ext.extra_compile_args = [*(ext.extra_compile_args or []), *flags]
    say(f"compiling {len(compiled_sources())} modules with mypyc (C at -O{level}"
        f"{''.join(' ' + flag for flag in flags)})")
    return extensions


class OptionalBuildExt(build_ext):
    """Builds the extensions, and when the C compiler fails, leaves none behind: the wheel is
    then pure Python (never some modules compiled and the shared library they need missing)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            for ext in self.extensions:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            self.distribution.ext_modules = []
            self.extensions = []
            fall_back(f"the C build failed: {exc}")


def dependencies() -> list[str]:
    """The run-time dependencies (``[tool.cabo-log] dependencies`` in pyproject.toml), with
    mypyc's runtime library when the build compiles."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    deps: list[str] = list(project["tool"]["cabo-log"]["dependencies"])
    return deps + ([BUILD_RUNTIME] if why_pure() is None else [])


def building() -> bool:
    """Whether setuptools was asked to build (not only to describe the project's metadata):
    mypyc runs only then, as it takes minutes."""
    return bool({"bdist_wheel", "build", "build_ext", "install"} & set(sys.argv))


if __name__ == "__main__":
    os.chdir(ROOT)
    if building():
        # a fresh build folder: setuptools would otherwise copy into the wheel the compiled
        # modules a previous build left there, even into a pure build
        shutil.rmtree(ROOT / "build" / "setuptools", ignore_errors=True)
    setup(
        install_requires=dependencies(),
        ext_modules=mypyc_extensions() if building() else [],
        cmdclass={"build_ext": OptionalBuildExt},
        options={"build": {"build_base": "build/setuptools"}},
    )
