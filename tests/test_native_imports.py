"""A stop signal that comes while DuckDB or Arrow is first imported waits for the import's end
(``stop.NATIVE_PACKAGES``): DuckDB's extension runs Python code (its enums) from native code
that cannot take an exception raised there, and aborted the process ("Critical nanobind
error", status 134) or lost the stop, so that the command went on and ended with status 0.

Each case runs in a process of its own with the console script's handlers (``stop.install``)
and sends itself SIGTERM from a profile hook at a chosen call inside the import: the same
moment on every run, which a signal from outside hits only now and then.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = r"""
import os, signal, sys
from cabo_log import stop

package, inside, nth = sys.argv[1], sys.argv[2], int(sys.argv[3])
stop.install()
stop.started()
calls = []

def hook(frame, event, arg):
    if event == "call" and package in sys.modules and inside in frame.f_code.co_filename:
        calls.append(frame.f_code.co_filename)
        if len(calls) == nth:
            os.kill(os.getpid(), signal.SIGTERM)

sys.setprofile(hook)
try:
    __import__(package)
except stop.Interrupted as exc:
    sys.setprofile(None)
    print("interrupted", exc.signum, len(calls) >= nth)
    module = __import__(package)   # imported again, it works
    if package == "duckdb":
        print("works", module.connect().execute("SELECT 6 * 7").fetchone()[0])
    else:
        print("works", module.array([6, 7]).to_pylist())
    sys.exit(0)
sys.setprofile(None)
print("not interrupted", len(calls))
"""


def run(package: str, inside: str, nth: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", SCRIPT, package, inside, str(nth)],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(("package", "inside", "nth"), [
    ("duckdb", "enum.py", 1),        # DuckDB's extension creating its first enum
    ("duckdb", "enum.py", 200),
    ("duckdb", "/duckdb/", 5),       # DuckDB's own Python code
    ("pyarrow", "/pyarrow/", 1),
    ("pyarrow", "/pyarrow/", 60),
])
def test_a_stop_during_a_native_import_is_raised_when_the_import_ends(
        package: str, inside: str, nth: int) -> None:
    done = run(package, inside, nth)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert done.stderr == ""
    said = done.stdout.splitlines()
    # SIGTERM, raised once, when the import ended; the signal came inside it
    assert said[0] == "interrupted 15 True", said
    assert said[1] == ("works 42" if package == "duckdb" else "works [6, 7]")


PACKAGE = """
import os, signal
os.kill(os.getpid(), signal.SIGTERM)
total = sum(range(100_000))   # Python code after the signal, where it would be raised
open({marker!r}, "w").write("the import ran to its end")
"""

DEFERRING = r"""
import sys
sys.path.insert(0, sys.argv[1])
from cabo_log import stop
stop.NATIVE_PACKAGES = frozenset(sys.argv[2:])
stop.install()
stop.started()
try:
    import slowlib
except stop.Interrupted as exc:
    print("interrupted", exc.signum)
"""


@pytest.mark.parametrize("native", [True, False], ids=["deferred", "plain"])
def test_only_the_native_packages_imports_hold_a_stop(tmp_path: Path, native: bool) -> None:
    marker = tmp_path / "ran"
    (tmp_path / "slowlib").mkdir()
    (tmp_path / "slowlib" / "__init__.py").write_text(PACKAGE.format(marker=str(marker)))
    done = subprocess.run([sys.executable, "-c", DEFERRING, str(tmp_path),
                           *(["slowlib"] if native else [])],
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "interrupted 15\n", "")
    # held: the package's code ran to its end first; not held: the stop cut it short
    assert marker.exists() is native
