"""No command prints Python's inner workings: no ``<Enum.MEMBER: 'value'>``, no
``DrawSource.DECK``, no ``Decimal(...)``, no ``None`` where a word is meant, no traceback.

A representative set of commands runs on the sample games, on the invalid ones and on
hand-built positions; everything they print (stdout and stderr) is searched."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from analysis_logs import must_fail_log
from typer.testing import CliRunner

from cabo_log import cli
from engine.vocabulary import DrawSource

cli._register_all()

SAMPLES = Path(__file__).parent.parent / "sample_games"
REPRS = [
    re.compile(r"<[A-Za-z_.]+: "),                        # <DrawSource.DECK: 'deck'>
    re.compile(r"\b[A-Z][A-Za-z]+\.[A-Z_]+\b"),           # DrawSource.DECK, Mark.BLUNDER
    re.compile(r"Decimal\(|Traceback \(most recent call last\)"),
]
NONE_WORD = re.compile(r"\bNone\b")   # in text; JSON says null


def reprs_in(text: str, *, json: bool = False) -> list[str]:
    """The repr-like fragments of ``text`` (with what surrounds them, to say where)."""
    found = [text[max(0, m.start() - 30):m.end() + 30]
             for pattern in REPRS for m in pattern.finditer(text)]
    if not json:
        found += [text[max(0, m.start() - 30):m.end() + 30] for m in NONE_WORD.finditer(text)]
    return found


def test_the_patterns_catch_what_they_are_for() -> None:
    """The test below can fail: each kind of leak it looks for is caught."""
    assert reprs_in(str({"type": "draw", "source": DrawSource.DECK}))
    assert reprs_in(f"source {DrawSource.DECK!r}")
    assert reprs_in("best was to discard: None")
    assert reprs_in("Traceback (most recent call last):\n  File ...")
    assert not reprs_in("seq 6 ana replaced 0 and 1 (a 5 and a 4) with a 13: ?? (K.O.)")


def run(*args: str, stdin: str | None = None) -> str:
    result = CliRunner().invoke(cli.app, list(args), input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.stdout + result.stderr


def commands(tmp: Path) -> list[tuple[str, list[str], str | None, bool]]:
    """(name, arguments, standard input, prints JSON) of each command run."""
    log = str(must_fail_log().write(tmp / "fail.jsonl"))
    match = str(SAMPLES / "edition1-match.jsonl")
    db = str(tmp / "x.duckdb")
    shutil.copy(SAMPLES / "tally-golf.jsonl", tmp / "sheet.jsonl")
    shutil.copy(SAMPLES / "online-in-progress.jsonl", tmp / "open.jsonl")
    (tmp / "one").mkdir()
    shutil.copy(log, tmp / "one" / "fail.jsonl")
    out: list[tuple[str, list[str], str | None, bool]] = []
    for sample in sorted(SAMPLES.glob("*.jsonl")):
        out.append(("replay", ["replay", str(sample)], None, False))
    for sample in ("edition1-kamikaze", "golf-snaps", "online-forfeit"):
        out.append(("replay --as", ["replay", str(SAMPLES / f"{sample}.jsonl"), "--as", "ana",
                                    "--until", "9"], None, False))
    for bad in sorted((SAMPLES / "invalid").glob("*.jsonl")):
        out.append(("replay invalid", ["replay", str(bad)], None, False))
    out += [
        ("validate", ["validate", str(SAMPLES)], None, False),
        ("rules", ["rules"], None, False),
        ("rules golf", ["rules", "golf"], None, False),
        ("analyse", ["analyse", log, "-r", "2", "-j", "1"], None, False),
        ("analyse --json", ["analyse", log, "-r", "2", "-j", "1", "--json"], None, True),
        ("whatif", ["whatif", match, "--at", "12", "-r", "2"], None, False),
        ("whatif --move", ["whatif", log, "--at", "6", "-r", "2", "--move",
                           '{"type": "discard", "player": "ana"}'], None, False),
        ("whatif --move draw", ["whatif", match, "--at", "10", "-r", "2", "-w", "2", "--move",
                                '{"type": "draw", "player": "carla", "source": "discard"}'],
         None, False),
        ("whatif --move --json", ["whatif", match, "--at", "10", "-r", "2", "-w", "2",
                                  "--json", "--move", '{"type": "draw", "player": "carla", '
                                  '"source": "discard"}'], None, True),
        ("whatif not a decision", ["whatif", match, "--at", "2", "-r", "2", "--move",
                                   '{"type": "peek", "player": "ana", "positions": [0, 1]}'],
         None, False),
        ("simulate", ["simulate", "-r", "golf", "-n", "3", "-g", "2", "-o", str(tmp / "sim"),
                      "--no-progress", "-j", "1"], None, False),
        ("simulate bad", ["simulate", "-r", "golf", "--options", '{"bogus": 1}', "-o",
                          str(tmp / "sim2")], None, False),
        ("load", ["load", str(SAMPLES), "--db", db, "-j", "1"], None, False),
        ("load --analyse", ["load", str(tmp / "one"), "--db", db, "--analyse", "--rollouts",
                            "2", "-j", "1"], None, False),
        ("ratings", ["ratings", "--db", db], None, False),
        ("report list", ["report", "--list", "--db", db], None, False),
        ("report mistakes", ["report", "mistakes", "--db", db], None, False),
        ("report power_usage", ["report", "power_usage", "--db", db], None, False),
        ("sql", ["sql", "SELECT game_id, winners FROM games ORDER BY 1 LIMIT 3", "--db", db],
         None, False),
        ("tally --resume", ["tally", str(tmp / "sheet.jsonl"), "--resume"], "", False),
        ("append bad", ["append", str(tmp / "open.jsonl"),
                        '{"type": "draw", "player": "zed", "source": "deck"}'], None, False),
        ("play", ["play", "-r", "edition1", "-n", "2", "--seed", "4", "-o",
                  str(tmp / "played.jsonl")], "5\n" + "1\n" * 60 + "q\n", False),
        ("timeline", ["timeline", match, "-o", str(tmp / "t.html")], None, False),
    ]
    return out


def test_no_command_prints_a_python_repr(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                         ) -> None:
    monkeypatch.chdir(tmp_path)
    leaks = {}
    for name, args, stdin, json in commands(tmp_path):
        found = reprs_in(run(*args, stdin=stdin), json=json)
        if found:
            leaks[f"{name}: {' '.join(args[:2])}"] = found[:3]
    assert leaks == {}
