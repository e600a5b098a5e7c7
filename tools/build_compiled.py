"""Install the compiled build into ``build/compiled/site`` for the differential tests
(``make compiled``; ``make test`` runs it first).

The development install is editable and pure Python: it runs the sources as they are edited.
The tests that compare the two builds (tests/test_compiled*.py) need the compiled one too, so
this script installs the project the way ``pip install .`` does (setup.py, with mypyc) into a
folder of its own, without dependencies (those of ``.venv`` serve), and a test process puts
that folder first on its path. A stamp (a digest of the sources, the build files and mypy's
version) makes a re-run a no-op until one of them changes; the tests skip a build whose stamp
no longer matches the sources, rather than compare the sources with an older compiled copy.

The C here is compiled at ``-O0`` unless ``MYPYC_OPT_LEVEL`` says otherwise (as mypyc's own
test suite does): the optimiser does not change what the code does, and it is most of the
build's time. Installs for use (``pip install .``) compile at ``-O3``.

Usage::

    .venv/bin/python tools/build_compiled.py            # build (or confirm up to date)
    .venv/bin/python tools/build_compiled.py --check    # exit 3 when it cannot be built here
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "build" / "compiled"
SITE = OUT / "site"
STAMP = OUT / "stamp"
OPT_LEVEL = os.environ.get("MYPYC_OPT_LEVEL", "0")


def cannot_build() -> str | None:
    """Why the compiled build cannot be made on this machine, or None."""
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        return f"no C compiler ({cc}; install gcc)"
    include = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not include.is_file():
        return f"no Python headers ({include} is missing)"
    return None


def fingerprint() -> str:
    """A digest of everything the build reads: it changes with any source, build file,
    optimisation level or mypy version."""
    import mypy.version

    digest = hashlib.sha256(f"{mypy.version.__version__} -O{OPT_LEVEL}".encode())
    files = [ROOT / "setup.py", ROOT / "pyproject.toml", Path(__file__)]
    for package in ("engine", "cabo_log"):
        files += sorted(p for p in (ROOT / package).rglob("*")
                        if p.is_file() and "__pycache__" not in p.parts)
    for path in files:
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes()
                      + b"\0")
    return digest.hexdigest()


def current() -> bool:
    """Whether ``SITE`` holds the compiled build of the sources as they are now."""
    return STAMP.is_file() and STAMP.read_text() == fingerprint()


def build() -> Path:
    """Install the compiled build into ``SITE`` unless it is current; returns ``SITE``.
    Raises RuntimeError with pip's output when the build fails (it is never quietly pure:
    ``CABO_LOG_REQUIRE_COMPILED``)."""
    wanted = fingerprint()
    if STAMP.is_file() and STAMP.read_text() == wanted:
        return SITE
    shutil.rmtree(OUT, ignore_errors=True)
    env = {**os.environ, "CABO_LOG_REQUIRE_COMPILED": "1", "MYPYC_OPT_LEVEL": OPT_LEVEL}
    env.pop("CABO_LOG_PURE", None)
    run = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                          "--no-build-isolation", "--target", str(SITE), str(ROOT)],
                         cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if run.returncode != 0:
        raise RuntimeError(f"the compiled build failed ({run.returncode}):\n"
                           f"{run.stdout[-4000:]}{run.stderr[-4000:]}")
    STAMP.write_text(wanted)
    return SITE


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="only say whether the compiled build can be made here")
    args = parser.parse_args()
    reason = cannot_build()
    if reason:
        print(f"cannot build the compiled build: {reason}", file=sys.stderr)
        return 3
    if args.check:
        return 0
    if current():
        return 0
    started = time.monotonic()
    try:
        site = build()
    except RuntimeError as exc:
        print(exc, file=sys.stderr)
        return 1
    print(f"compiled build installed in {os.path.relpath(site)} "
          f"in {time.monotonic() - started:.0f} s (C at -O{OPT_LEVEL})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
