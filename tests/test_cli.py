"""The command line as a new user meets it: help, version, completion, and the sentences that
answer a first mistake (a folder for a file, an empty folder, an unknown player, a re-run)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cabo_log import cli
from cabo_log.db.reports import FORMATS, Format
from cabo_log.play.bots import BOTS
from engine import BUILTINS
from engine.rulesets import BuiltinRuleset

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_games"
COMMANDS = ["replay", "validate", "rules", "schema", "simulate", "load", "report", "sql",
            "export", "timeline"]


def all_commands() -> list[str]:
    """Every command the CLI registers (other areas add theirs), at least COMMANDS."""
    if not cli.app.registered_commands:
        cli.register_all()
    return sorted({c.name or "" for c in cli.app.registered_commands} | set(COMMANDS))


def invoke(*args: str, **kwargs: Any) -> Any:
    if not cli.app.registered_commands:
        cli.register_all()
    return CliRunner().invoke(cli.app, list(args), **kwargs)


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cabo_log", *args], capture_output=True,
                          text=True, check=False, env={**os.environ, **(env or {})}, cwd=ROOT)


def test_choices_are_the_registries() -> None:
    assert [r.value for r in BuiltinRuleset] == list(BUILTINS)
    assert [f.value for f in Format] == list(FORMATS)


@pytest.mark.parametrize("command", all_commands())
def test_help_uses_plain_metavars(command: str) -> None:
    result = invoke(command, "--help", env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for typed in ("<bool>", "<str>", "<int", "<path>", "<list[", "{"):
        assert typed not in result.output.replace('{"', ""), (command, typed, result.output)


def test_help_shows_defaults_and_choices() -> None:
    load = invoke("load", "--help", env={"COLUMNS": "200"}).output
    assert "./cabo.duckdb" in load and "CABO_LOG_DB" in load and "one per core" in load
    report = invoke("report", "--help", env={"COLUMNS": "200"}).output
    assert "[table|csv|json|html]" in report
    simulate = " ".join(invoke("simulate", "--help", env={"COLUMNS": "200"}).output.split())
    assert "RULESET" in simulate and "edition1, edition2, golf, online (required)" in simulate
    assert ", ".join(BOTS) in simulate and len(BOTS) >= 3
    replay = invoke("replay", "--help").output
    assert re.search(r"Usage: cabo-log replay \[OPTIONS\] FILE *\n", replay)


def test_a_ruleset_outside_the_choices_is_a_usage_error(tmp_path: Path) -> None:
    for args in (["simulate", "--ruleset", "nope", "--out", str(tmp_path / "x")],
                 ["rules", "nope"]):
        result = invoke(*args, env={"COLUMNS": "200"})
        assert result.exit_code == 2
        assert "'nope' is not one of 'edition1', 'edition2', 'golf', 'online'" in result.output
    assert not (tmp_path / "x").exists()


def test_version_and_python_dash_m() -> None:
    out = run("--version")
    assert (out.returncode, out.stdout) == (0, f"cabo-log {version('cabo-log')} (pure)\n")
    assert run("replay", "sample_games/edition1-kamikaze.jsonl").returncode == 0


def test_shell_completion_offers_the_choices() -> None:
    def complete(words: str) -> list[str]:
        env = {"_CABO_LOG_COMPLETE": "complete_bash", "COMP_WORDS": words,
               "COMP_CWORD": str(len(words.split(" ")) - 1)}
        out = subprocess.run([sys.executable, "-c", "from cabo_log.cli import main; main()"],
                             capture_output=True, text=True, env={**os.environ, **env},
                             check=False)
        return out.stdout.split()

    assert complete("cabo-log simulate --ruleset e") == ["edition1", "edition2"]
    assert complete("cabo-log simulate --bot greedy,r") == ["greedy,random"]
    assert complete("cabo-log report --format c") == ["csv"]


def test_rules_online_peeks_positions_0_and_1() -> None:
    result = invoke("rules")
    line = next(x for x in result.output.splitlines() if x.startswith("online"))
    assert "positions 0-1 peeked" in line and BUILTINS["online"].peek_positions == (0, 1)


def test_replay_of_a_folder_says_what_to_do() -> None:
    result = invoke("replay", str(SAMPLES))
    assert result.exit_code == 2
    assert f"{SAMPLES} is a folder; replay reads one log" in result.output
    assert f"cabo-log validate {SAMPLES}" in result.output


def test_until_must_not_be_negative() -> None:
    result = invoke("replay", str(SAMPLES / "online-moon.jsonl"), "--until", "-1")
    assert result.exit_code == 2 and "--until" in result.output


def test_unknown_player_lists_the_players() -> None:
    for command in ("replay", "timeline"):
        result = invoke(command, str(SAMPLES / "online-moon.jsonl"), "--as", "zoe",
                        "-o" if command == "timeline" else "--json",
                        *(["/nonexistent/x.html"] if command == "timeline" else []))
        assert result.exit_code == 2, result.output
        assert result.output.strip().endswith(
            "'zoe' is not a player of "
            f"{SAMPLES / 'online-moon.jsonl'} (its players: ana, bruno, carla)"), result.output


def test_empty_folder_is_no_logs_found(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    result = invoke("validate", str(empty))
    assert result.exit_code == 1
    assert result.output.strip() == f"cabo-log: no logs found (no *.jsonl under {empty})"
    db = tmp_path / "x.duckdb"
    result = invoke("load", str(empty), "--db", str(db))
    assert result.exit_code == 1
    assert result.output.strip() == f"cabo-log: no logs found (no *.jsonl under {empty})"
    assert not db.exists()


def test_load_quiet_prints_only_the_summary(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "good.jsonl").write_bytes((SAMPLES / "edition1-kamikaze.jsonl").read_bytes())
    (folder / "bad.jsonl").write_text("nope\n")
    db = tmp_path / "x.duckdb"
    loud = run("load", str(folder), "--db", str(db))
    assert loud.returncode == 1 and f"{folder / 'bad.jsonl'}:1: bad_json" in loud.stderr
    quiet = run("load", str(folder), "--db", str(db), "-q", "--force")
    assert quiet.returncode == 1 and quiet.stderr == ""
    assert re.fullmatch(rf"{re.escape(str(db))}: loaded 1 game.*rejected 1.*\n", quiet.stdout)


def test_simulate_refuses_to_overwrite_another_run(tmp_path: Path) -> None:
    out = tmp_path / "sim"
    args = ["simulate", "-r", "edition1", "-g", "2", "--out", str(out), "--no-progress"]
    assert invoke(*args).exit_code == 0
    first = {p.name: p.read_bytes() for p in out.iterdir()}
    result = invoke(*args, "--bot", "random", "-g", "3")
    assert result.exit_code == 2
    assert result.output.strip() == (
        f"cabo-log: {out} already holds 2 of these logs (edition1-s0-000000.jsonl, ...); "
        "--force overwrites them, or choose another --out or --seed")
    assert {p.name: p.read_bytes() for p in out.iterdir()} == first
    assert invoke(*args, "--bot", "random", "--force").exit_code == 0
    assert {p.name: p.read_bytes() for p in out.iterdir()} != first
    assert invoke(*args, "--seed", "1").exit_code == 0      # another seed: other names


def _entries(text: str) -> list[str]:
    """The entries of a help's Arguments / Options / Commands sections, each as one line (an
    entry starts two spaces in; its help may wrap onto lines indented further)."""
    entries: list[str] = []
    section = False
    for line in text.splitlines():
        if re.match(r"^(Arguments|Options|Commands):$", line):
            section = True
        elif not line.strip() or not line.startswith(" "):
            section = False
        elif section and re.match(r"^  \S", line):
            entries.append(line.strip())
        elif section and entries:
            entries[-1] += " " + line.strip()
    return entries


@pytest.mark.parametrize("columns", ["80", "200"])
@pytest.mark.parametrize("command", ["", *all_commands()])
def test_help_reads_as_prose(command: str, columns: str) -> None:
    """Every command's help: whole sentences (none cut by markup or a narrow column), each
    default said once and plainly, ranges in words, no Python type for a value to type."""
    args = [command, "--help"] if command else ["--help"]
    result = invoke(*args, env={"COLUMNS": columns})
    assert result.exit_code == 0
    text = result.output
    assert "default: (" not in text and "x>=" not in text and "x<=" not in text, text
    assert "╭" not in text and "│" not in text, text     # no boxes around narrow columns
    entries = _entries(text)
    assert any(e.startswith("--help") for e in entries), text
    for entry in entries:
        words = " ".join(entry.split())
        assert not re.search(r" [.,;:](\s|$)", words), words  # nothing lost before a stop
        assert words.lower().count("default") <= 1, words
        assert " TEXT " not in f"{words} ", words         # say what to type, not its type
        unmetavarred = re.sub(r"[A-Z_\[\],]+\.\.\.\]?", "", words)   # PATHS..., BOT[,BOT...]
        assert "..." not in unmetavarred, words           # no sentence cut short
        sentence = re.sub(r"\s+\[[^\]]*\]$", "", words)   # without click's [default: ...]
        assert sentence.endswith((".", ")")), words
    if not command:   # the list of commands: each one's first sentence, whole
        for name in all_commands():
            line = next(e for e in entries if e.split()[0] == name)
            assert line.endswith("."), line


def test_help_says_each_default_in_words() -> None:
    load = " ".join(invoke("load", "--help", env={"COLUMNS": "100"}).output.split())
    assert "(default: 4; as 'cabo-log analyse --rollouts')" in load
    assert "(default: one per core;" in load
    assert "(default: $CABO_LOG_DB when it is set, else ./cabo.duckdb)" in load
    report = " ".join(invoke("report", "--help", env={"COLUMNS": "100"}).output.split())
    assert "How to print the rows (default: html when -o names a .html file, else table)." \
        in report
    serve = " ".join(invoke("serve", "--help", env={"COLUMNS": "100"}).output.split())
    assert "[default: 8000; 0 to 65535]" in serve
