"""The compiled build (``make compiled``: tools/build_compiled.py installs it) replays to
exactly what the pure-Python engine gives: the same reports, the same located errors and the
same outcome of every event, on the sample games (the invalid ones included), on simulated
games of every ruleset and on simulated games with a line lost or two lines swapped.

Skipped, saying why, when the machine has no C compiler or no Python headers, or when the
compiled build is older than the sources (``make test`` builds it first).
"""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from compiled_build import ROOT, run_dump

from cabo_log.play.simulate import write_games

SAMPLES = ROOT / "sample_games"
TABLES = [("edition1", 3, 0.0), ("edition2", 4, 0.0), ("golf", 3, 0.0), ("online", 4, 0.05)]


def dump(logs: list[Path], pythonpath: Path | None) -> dict[str, Any]:
    """tests/replay_dump.py in a fresh process, with or without the compiled engine first."""
    return run_dump("replay_dump.py", [str(log) for log in logs], pythonpath)


def simulated(folder: Path) -> list[Path]:
    """Six games of each ruleset, then copies of some with a line dropped, two swapped, a key
    twice, a default spelled out, a space before a colon or an unknown key (what the fast
    path's key count must send to the exact reader)."""
    logs: list[Path] = []
    for ruleset, players, forfeits in TABLES:
        summary = write_games(folder / ruleset, ruleset, games=6, players=players, seed=12,
                              forfeit_rate=forfeits, jobs=1)
        logs += sorted(summary.files)
    for i, path in enumerate(logs[::3]):
        lines = path.read_bytes().split(b"\n")
        at = min(10 + 7 * i, len(lines) - 3)
        line = lines[at]
        edited = [
            [*lines[:at], *lines[at + 1:]],
            [*lines[:at], lines[at + 1], line, *lines[at + 2:]],
            [*lines[:at], line[:-1] + b',"player":"ana"}', *lines[at + 1:]],   # a key twice
            [*lines[:at], line[:-1] + b',"seq":null}', *lines[at + 1:]],       # a default
            [*lines[:at], line.replace(b'":', b'" :', 1), *lines[at + 1:]],    # spaced
            [*lines[:at], line[:-1] + b',"x":{"k":1,"k":2}}', *lines[at + 1:]],  # unknown
        ][i % 6]
        target = folder / "edited" / f"{i}-{path.name}"
        target.parent.mkdir(exist_ok=True)
        target.write_bytes(b"\n".join(edited))
        logs.append(target)
    return logs


def test_the_compiled_engine_replays_exactly_like_the_pure_one(compiled: Path,
                                                                 tmp_path: Path) -> None:
    logs = sorted(SAMPLES.glob("*.jsonl")) + sorted((SAMPLES / "invalid").glob("*.jsonl"))
    logs += simulated(tmp_path)
    pure, fast = dump(logs, None), dump(logs, compiled)
    assert (pure["engine"], fast["engine"]) == ("pure", "compiled")
    assert fast["logs"] == pure["logs"]
    reports = [entry["report"] for entry in pure["logs"].values()]
    errors = [r["error"]["code"] for r in reports if "error" in r]
    assert len(errors) >= 30 and len(reports) - len(errors) >= 40  # both kinds compared
    assert {"illegal", "inconsistent"} <= {r["error"]["kind"] for r in reports if "error" in r}
    whole = [entry["fast_body"] is not None for entry in pure["logs"].values()]
    assert sum(whole) >= 30 and not all(whole)  # the compiled fastlines, and the fallbacks


@pytest.mark.parametrize(("value", "build"), [("1", "pure"), ("0", "compiled"),
                                              ("", "compiled")])
def test_cabo_log_pure_runs_the_sources_of_a_compiled_install(compiled: Path, value: str,
                                                              build: str) -> None:
    """``CABO_LOG_PURE=1`` at run time: the same install imports its ``.py`` files, the
    engine's and the application's, and nothing of mypyc's (``0`` or empty: the extensions)."""
    script = ("import sys, cabo_log.log.replay, cabo_log.play.match, engine.game\n"
              "from cabo_log.build_info import build_kind\n"
              "files = [cabo_log.log.fastlines.__file__, cabo_log.play.match.__file__,\n"
              "         engine.game.__file__]\n"
              "print(build_kind(), sorted({f.rsplit('.', 1)[-1] for f in files}),\n"
              "      any('__mypyc' in name for name in sys.modules))\n")
    env = {**os.environ, "PYTHONPATH": str(compiled), "CABO_LOG_PURE": value}
    run = subprocess.run([sys.executable, "-P", "-c", script], env=env, cwd=ROOT,
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    expected = "['py'] False" if build == "pure" else "['so'] True"
    assert run.stdout == f"{build} {expected}\n"


def test_the_compiled_build_says_so_and_brings_its_runtime(compiled: Path) -> None:
    """``cabo-log --version`` names the build that runs, and the compiled wheel depends on
    mypyc's runtime library (the pure one does not: tests/test_build.py)."""
    env = {**os.environ, "PYTHONPATH": str(compiled)}
    env.pop("CABO_LOG_PURE", None)
    run = subprocess.run([sys.executable, "-P", "-m", "cabo_log", "--version"], env=env, cwd=ROOT,
                         capture_output=True, text=True, check=False)
    assert (run.returncode, run.stdout) == (0, f"cabo-log {version('cabo-log')} (compiled)\n")
    meta = next(compiled.glob("cabo_log-*.dist-info")) / "METADATA"
    assert "Requires-Dist: librt" in meta.read_text()


def test_the_compiled_engine_pickles_what_the_analysis_sends_its_workers(compiled: Path) -> None:
    """A native class does not pickle by default: the analysis' worker processes receive a
    state mid-round, its ruleset and events, so each must come back equal in the compiled
    build too (they are rebuilt through their constructors)."""
    script = ("import pickle\n"
              "from cabo_log.build_info import build_kind\n"
              "from engine import new_game\n"
              "from engine.events import Draw, GameStart\n"
              "header = GameStart(0, False, 'g', 'golf', {}, ('ana', 'bruno'), None, None)\n"
              "g = new_game(header)\n"
              "g.round.codes.append('7')\n"
              "draw = Draw(3, False, 'ana', 'deck', '7')\n"
              "back = [pickle.loads(pickle.dumps(x)) for x in (g, g.rules, header, draw)]\n"
              "print(build_kind(), back == [g, g.rules, header, draw],\n"
              "      back[0].round is not g.round, back[0].round.codes, back[1].name)\n")
    env = {**os.environ, "PYTHONPATH": str(compiled)}
    env.pop("CABO_LOG_PURE", None)
    run = subprocess.run([sys.executable, "-P", "-c", script], env=env, cwd=ROOT,
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "compiled True True ['7'] golf\n"
