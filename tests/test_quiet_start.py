"""A worker whose parent is stopped between asking the forkserver for a process and sending it
its work must not print a traceback after the command's one line (seen on a SIGTERM 0.3 s into
a load): the forkserver's child finds its pipe empty and leaves silently."""

from __future__ import annotations

import subprocess
import sys
import textwrap

# The parent asks the forkserver for a child and closes the pipe before sending the work, as
# a process stopped at that moment does; it then waits for the child's exit status.
ORPHAN = textwrap.dedent("""
    import os, sys
    import multiprocessing
    from multiprocessing import forkserver
    if sys.argv[1] == "cabo-log":
        from cabo_log.forkserver import start_forkserver
        start_forkserver([])
    else:
        multiprocessing.get_context("forkserver")
        forkserver.ensure_running()
    status, data = forkserver._forkserver.connect_to_new_process([])
    os.close(data)
    pid = forkserver.read_signed(status)
    code = forkserver.read_signed(status)
    print(pid > 0, code)
""")


def orphan(kind: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", ORPHAN, kind], capture_output=True,
                          text=True, timeout=120, check=False)


def test_a_child_left_without_work_says_nothing() -> None:
    done = orphan("cabo-log")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "1"]      # the child ran and left with status 1
    assert done.stderr == ""


def test_python_alone_prints_the_child_s_traceback() -> None:
    """The same without the preloaded module: the traceback the module silences (so the test
    above can fail)."""
    done = orphan("python")
    assert done.returncode == 0, done.stderr
    assert "EOFError" in done.stderr and "Traceback" in done.stderr


def test_other_errors_in_a_child_s_start_are_still_printed() -> None:
    done = subprocess.run([sys.executable, "-c",
                           "import cabo_log.quiet_start, sys\n"
                           "sys.excepthook(EOFError, EOFError('gone'), None)\n"
                           "sys.excepthook(ValueError, ValueError('shown'), None)"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert "gone" not in done.stderr and "ValueError: shown" in done.stderr
