"""Build the optional mypyc-compiled engine into ``build/mypyc/`` (``make compiled``).

The pure-Python ``engine/`` stays the default: the compiled copy lives in its own folder and is
used only by a process that puts it first on the path (``PYTHONPATH=build/mypyc``), where the
extension modules shadow the ``.py`` files beside them. Nothing is written into ``engine/``.

The sources are copied, then compiled there by the ``mypyc`` that ships with mypy (a test
dependency) with the machine's C compiler; a stamp (the SHA-256 of the sources and mypyc's
version) makes a re-run a no-op until ``engine/`` changes. Modules that mypyc cannot compile
to the same behaviour stay Python inside the compiled package (``KEEP_PYTHON``, with why).

Usage::

    .venv/bin/python tools/build_compiled.py            # build (or confirm up to date)
    .venv/bin/python tools/build_compiled.py --check    # exit 3 when no C compiler is found
"""

from __future__ import annotations

import argparse
import compileall
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "build" / "mypyc"
STAMP = ".stamp"

KEEP_PYTHON: dict[str, str] = {
    "__init__.py": "the package's front door; nothing in it runs per event",
    "errors.py": "mypyc makes the class-level ``kind`` of each error an instance default that "
                 "native exception classes never set (``err.kind`` fails); raised, not hot",
    "listed.py": "``Listed`` is a ``tuple`` subclass, which mypyc cannot compile as a native "
                 "class; a list is grouped once per match and key, not per event",
    "native.py": "the build hints' run-time no-op: compiled, its branch that the type checker "
                 "deems unreachable would raise instead of defining it",
}
"""Engine modules left as Python in the compiled package, and why."""

APP_MODULES: dict[str, str] = {
    # the load's row stage (issue 12: the load no slower than DuckDB's read_json)
    "cabo_log/db/rows.py": "the loader's visitor: an events row per event, from the outcome",
    "cabo_log/db/row_layout.py": "the flat lists the visitor appends to (RowSink, native)",
    "cabo_log/db/open_rows.py": "the powers and cabo_calls rows, opened and closed per event",
    "cabo_log/db/game_rows.py": "the game-level rows of every game: round_scores per player "
                                "and round, written as machine values (native loops)",
    # the replay (issue 12: parse + validate + apply >= 500k events/s)
    "cabo_log/log/fastlines.py": "replay: every decoded line becomes an event and every event "
                                 "is applied here (native constructor and apply calls, no "
                                 "interpreted frame per line)",
    # simulate (issue 12: at most 3x cabo-rl's time): the match loop and what it calls per event
    "cabo_log/play/match.py": "simulate's loop: deals, asks the bots, records every event",
    "cabo_log/play/random_bot.py": "the benchmark's bot: one decision per event",
    "cabo_log/play/lines.py": "each recorded event's line object",
    "cabo_log/play/chance.py": "the random draws of every decision, deal and reshuffle",
    "cabo_log/log/append.py": "the append API every simulated line is written through",
}
"""Hot modules of the application (``cabo_log/...`` paths) compiled as well, and why. When any
are listed, the whole ``cabo_log`` package (data files included) is copied beside the engine so
that ``PYTHONPATH=build/mypyc`` finds one consistent package; only these modules are compiled,
the rest of the copy stays Python."""

MYPY_CONFIG = """[mypy]
python_version = 3.11
strict = True

[mypy-pyarrow.*,pyarrow,plotly,plotly.*]
ignore_missing_imports = True
"""
"""mypyc's type check of the copied tree (the repository's pyproject.toml is not there)."""


def compiler() -> str | None:
    """The C compiler Python's build configuration names (``CC``), if it is installed."""
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc)


def missing_headers() -> str | None:
    """Why extensions cannot be built against this Python, or None when they can."""
    include = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return None if include.is_file() else f"no Python headers ({include} is missing)"


def sources() -> list[Path]:
    """Every file the build copies: the engine, and the application when part of it is
    compiled (its non-Python files too: queries, templates, schemas)."""
    files = sorted((ROOT / "engine").glob("*.py"))
    if APP_MODULES:
        files += sorted(p for p in (ROOT / "cabo_log").rglob("*")
                        if p.is_file() and "__pycache__" not in p.parts)
    return files


def fingerprint(files: list[Path]) -> str:
    """Changes whenever a source, this script or mypyc changes: the stamp of an up-to-date
    build."""
    import mypy.version

    digest = hashlib.sha256(mypy.version.__version__.encode() + Path(__file__).read_bytes())
    for path in files:
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes()
                      + b"\0")
    return digest.hexdigest()


def build(out: Path = OUT, *, quiet: bool = True) -> Path:
    """Compile ``engine/`` into ``out`` unless the stamp says it is up to date; returns
    ``out`` (the folder to put first on ``PYTHONPATH``). Raises RuntimeError with mypyc's
    output when the build fails."""
    files = sources()
    stamp = out / STAMP
    wanted = fingerprint(files)
    if stamp.is_file() and stamp.read_text() == wanted:
        return out
    shutil.rmtree(out, ignore_errors=True)
    for path in files:
        target = out / path.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
    (out / "mypy.ini").write_text(MYPY_CONFIG)
    compiled = [f"engine/{p.name}" for p in files
                if p.parent.name == "engine" and p.name not in KEEP_PYTHON]
    compiled += list(APP_MODULES)
    started = time.monotonic()
    run = subprocess.run([sys.executable, "-m", "mypyc", *compiled], cwd=out,
                         capture_output=True, text=True, check=False)
    if run.returncode != 0:
        raise RuntimeError(f"mypyc failed ({run.returncode}):\n{run.stdout[-4000:]}"
                           f"{run.stderr[-4000:]}")
    shutil.rmtree(out / "build", ignore_errors=True)   # mypyc's C sources and objects
    # the copy's Python modules byte-compiled now, as pip does for what it installs: where
    # PYTHONDONTWRITEBYTECODE is set, every command (a load and its workers' forkserver)
    # compiled ~60 of them from source again, ~0.15 s before its work could begin
    compileall.compile_dir(out, quiet=1)
    stamp.write_text(wanted)
    if not quiet:
        print(f"compiled {len(compiled)} modules into {out} "
              f"in {time.monotonic() - started:.0f} s")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="only say whether a C compiler and the Python headers are there")
    args = parser.parse_args()
    reason = None if compiler() else "no C compiler (install gcc)"
    reason = reason or missing_headers()
    if reason:
        print(f"cannot build the compiled engine: {reason}", file=sys.stderr)
        return 3
    if args.check:
        return 0
    try:
        out = build(quiet=False)
    except RuntimeError as exc:
        print(exc, file=sys.stderr)
        return 1
    print(f"compiled engine ready: PYTHONPATH={os.path.relpath(out)} .venv/bin/cabo-log ...")
    return 0


if __name__ == "__main__":
    sys.exit(main())
