"""Ctrl-C (SIGINT) or SIGTERM in the first half second of a command, while it imports its
modules, parses its command line and starts: one line and exit status 130 or 143, never a
``KeyboardInterrupt`` traceback, never a silent death by the signal, never a silent 130.

Real processes of the console script's code, each signalled once at one moment of a spread
from 0 to 0.5 s. cabo-log catches the signals from the first line of its own code
(``launch.main``); before that the interpreter itself is starting (reading its site packages),
which no program can answer for: a signal due then is sent the moment the process shows it
catches SIGTERM (``/proc/PID/status``, which Python never does by itself), i.e. as early as
cabo-log can answer.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cabo_log.log.logfile import dumps_event
from cabo_log.play.simulate import simulate_game

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc")

COMMAND = "import sys; from cabo_log.launch import main; sys.argv[0] = 'cabo-log'; main()"
MOMENTS = (0.0, 0.01, 0.02, 0.04, 0.06, 0.09, 0.12, 0.16, 0.2, 0.25, 0.3, 0.4, 0.5)
SAID = re.compile(r"^cabo-log: (interrupted|terminated)(?:; .+)?$")


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """600 logs (38 MB): enough for ``load`` to start its workers before typer, and for both
    commands to outlast the last moment several times over (a load ~3 s, a validate ~1.8 s on
    a busy two-core machine), so that on a machine a few times faster every moment is still a
    stop."""
    folder = tmp_path_factory.mktemp("early") / "logs"
    folder.mkdir()
    events = simulate_game("edition1", players=3, seed=0, game_id="x")
    for n in range(600):
        events[0] = {**events[0], "game_id": f"g{n}"}
        (folder / f"g{n}.jsonl").write_bytes(b"".join(dumps_event(e) for e in events))
    return folder


def catches_sigterm(pid: int) -> bool:
    """Whether the process has a handler of its own for SIGTERM (cabo-log's)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    found = re.search(r"^SigCgt:\s*([0-9a-f]+)$", status, re.M)
    return found is not None and bool(int(found.group(1), 16) & (1 << (signal.SIGTERM - 1)))


def stop_at(args: list[str], signum: int, moment: float) -> tuple[int, str, bool]:
    """Start the command, signal it ``moment`` s later (or as soon as cabo-log catches
    signals, if it does not yet); its exit status, its stderr, whether it was still starting."""
    proc = subprocess.Popen([sys.executable, "-c", COMMAND, *args], start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(moment)
        starting = not catches_sigterm(proc.pid)
        deadline = time.monotonic() + 30
        while not catches_sigterm(proc.pid) and proc.poll() is None:
            assert time.monotonic() < deadline, "cabo-log never caught SIGTERM"
            time.sleep(0.0005)
        try:
            os.kill(proc.pid, signum)
        except ProcessLookupError:
            pass
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return proc.returncode, err, starting


@pytest.mark.parametrize("command", ["validate", "load"])
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["sigint", "sigterm"])
def test_a_stop_signal_in_the_first_half_second_is_one_line_and_its_status(
        tmp_path: Path, logs: Path, command: str, signum: int) -> None:
    args = ["validate", str(logs)] if command == "validate" else \
        ["load", str(logs), "--db", str(tmp_path / "cabo.duckdb"), "--jobs", "2"]
    verb = "terminated" if signum == signal.SIGTERM else "interrupted"
    stopped = 0
    finished: list[float] = []
    for moment in MOMENTS:
        code, err, starting = stop_at(args, signum, moment)
        where = (command, signal.Signals(signum).name, moment, "starting" if starting else "")
        if code == 0 and "Traceback" not in err:   # it finished before the signal came
            finished.append(moment)
            continue
        assert code == 128 + signum, (where, code, err)
        said = err.splitlines()
        assert len(said) == 1, (where, err)
        match = SAID.match(said[0])
        assert match is not None and match.group(1) == verb, (where, err)
        stopped += 1
    # the spread fell inside the commands: a signal that came while one ran and was lost
    # ends it with status 0 as if it had finished first
    assert stopped >= len(MOMENTS) - 2, ("finished before the signal at", finished)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".cabo-log-load-")]
