"""The sample games replay, show what their README promises, and the invalid logs fail where
``sample_games/invalid/README.md`` says they fail (the table is parsed, so docs and test agree).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cabo_log import cli
from cabo_log.log.replay import ReplayResult, ReplayVisitor, replay_file
from engine import CaboLogError, Event, GameState, Outcome
from engine.events import Replace, Snap

ROOT = Path(__file__).resolve().parents[1]
SAMPLES_DIR = ROOT / "sample_games"
INVALID_DIR = SAMPLES_DIR / "invalid"
SAMPLES = sorted(SAMPLES_DIR.glob("*.jsonl"))
IDS = [p.stem for p in SAMPLES]

ROW = re.compile(r"^\| `(?P<file>[^`]+\.jsonl)` \| (?P<line>\d+) \| `(?P<code>[a-z0-9_]+)` \| "
                 r"(?P<what>.+) \|$")


def invalid_table() -> list[tuple[str, int, str]]:
    """(file, line, code) for every row of the table in sample_games/invalid/README.md."""
    text = (INVALID_DIR / "README.md").read_text(encoding="utf-8")
    rows = [ROW.match(line) for line in text.splitlines()]
    return [(m["file"], int(m["line"]), m["code"]) for m in rows if m]


INVALID = invalid_table()


def in_progress(path: Path) -> bool:
    return "in-progress" in path.stem


def invoke(*args: str) -> Any:
    if not cli.app.registered_commands:
        cli.register_all()
    return CliRunner().invoke(cli.app, list(args))


class Recorder(ReplayVisitor):
    """Keeps every applied event with what it did (for the coverage checks)."""

    def __init__(self) -> None:
        self.events: list[tuple[Event, Any]] = []

    def event(self, line: int, event: Event, state: GameState, outcome: Outcome) -> None:
        self.events.append((event, outcome))


def replay(path: Path) -> tuple[ReplayResult, Recorder]:
    recorder = Recorder()
    return replay_file(path, visitor=recorder), recorder


@pytest.fixture(scope="module")
def replays() -> dict[str, tuple[ReplayResult, Recorder]]:
    return {p.stem: replay(p) for p in SAMPLES}


# --- the sample games ----------------------------------------------------------------------


def test_there_are_samples_and_invalid_logs() -> None:
    assert len(SAMPLES) >= 20
    assert len(INVALID) >= 24


@pytest.mark.parametrize("path", SAMPLES, ids=IDS)
def test_sample_replays_without_error(path: Path) -> None:
    result = replay_file(path)
    assert result.error is None, str(result.error)
    assert result.state is not None
    assert result.state.complete is not in_progress(path)
    report = result.report()
    assert report["complete"] is not in_progress(path)
    if result.state.complete:
        assert report["winners"]
    else:
        assert report["winners"] == [] and "current_round" in report


@pytest.mark.parametrize("path", SAMPLES, ids=IDS)
def test_sample_lines_carry_seq_and_claims(path: Path) -> None:
    lines = [json.loads(raw) for raw in path.read_text(encoding="utf-8").splitlines()]
    assert [line.get("seq") for line in lines] == list(range(len(lines)))
    if in_progress(path):
        assert not any(line["type"] == "game_end" for line in lines)
        return
    result = replay_file(path)
    assert result.state is not None
    claimed = [line["round"] for line in lines if line["type"] == "round_end"]
    assert claimed == list(range(1, len(result.state.rounds) + 1))
    assert lines[-1]["type"] == "game_end"


def test_every_ruleset_has_a_complete_multi_round_match(
        replays: dict[str, tuple[ReplayResult, Recorder]]) -> None:
    best: Counter[str] = Counter()
    for result, _ in replays.values():
        g = result.state
        assert g is not None
        if g.complete:
            name = g.rules.name if g.rules.name in ("edition1", "edition2", "golf", "online") \
                else "house"
            best[name] = max(best[name], len(g.rounds))
    assert all(best[name] >= 4 for name in ("edition1", "edition2", "golf", "online")), best
    assert best["house"] >= 2


def _rounds(replays: dict[str, tuple[ReplayResult, Recorder]], stem: str) -> list[Any]:
    g = replays[stem][0].state
    assert g is not None
    return g.rounds


def test_samples_show_every_special_case(
        replays: dict[str, tuple[ReplayResult, Recorder]]) -> None:
    """The special cases the README lists are really in the logs (regeneration keeps them)."""
    r = replays
    # Kamikaze in edition1; in edition2 overriding a successful call
    assert _rounds(r, "edition1-kamikaze")[0].special == ("ana",)
    first = _rounds(r, "edition2-kamikaze")[0]
    assert first.special == ("bruno",) and first.cabo_success is True
    assert first.points["ana"] == 50
    # shoot the moon (online): half the target
    moon = _rounds(r, "online-moon")[0]
    assert moon.special == ("carla",) and set(moon.points.values()) == {0, 50}
    # golf kamikaze option: a caller with exactly 0
    golf_k = _rounds(r, "golf-kamikaze")[0]
    assert golf_k.special == ("ana",) and golf_k.totals["ana"] == 0
    # exact 100 -> 50: twice for ana in edition1; edition2 once, then the match ends on 100
    assert sum("ana" in x.resets for x in _rounds(r, "edition1-exact-100")) == 2
    e2 = r["edition2-exact-100"][0].state
    assert e2 is not None and e2.complete
    assert sum("ana" in x.resets for x in e2.rounds) == 1 and e2.cumulative_by_name()["ana"] == 100
    # reshuffle; edition2's empty deck, without and with a Cabo before it
    assert any(x.reshuffles for x in _rounds(r, "edition1-reshuffle"))
    empty = [x for x in _rounds(r, "edition2-deck-empty") if x.end == "deck_empty"]
    assert {x.caller is None for x in empty} == {True, False}
    # golf tie-break round with only the tied players
    tb = [x for x in _rounds(r, "golf-tiebreak") if x.tiebreak]
    assert tb and len(tb[0].players) == 2
    # forfeits: one round scored without the forfeited player, one ended by a forfeit
    forfeit = _rounds(r, "online-forfeit")
    assert "carla" not in forfeit[0].points and forfeit[-1].end == "forfeit"
    # house rules: caller penalty 7
    house = _rounds(r, "house-rules")[0]
    assert house.caller is not None and not house.cabo_success
    assert house.points[house.caller] == house.totals[house.caller] + 7


def test_samples_show_every_special_move(
        replays: dict[str, tuple[ReplayResult, Recorder]]) -> None:
    snaps: Counter[bool] = Counter()
    replaces: Counter[tuple[int, bool, bool]] = Counter()  # (cards, success, penalty)
    autos = 0
    red_king_snap = False
    for result, recorder in replays.values():
        assert result.state is not None
        for event, effect in recorder.events:
            autos += event.auto
            if isinstance(event, Snap):
                snaps[bool(effect.success)] += 1
                red_king_snap |= effect.card in ("KH", "KD") and not effect.success
            if isinstance(event, Replace) and len(event.positions) > 1:
                replaces[(min(len(event.positions), 3), bool(effect.success),
                          effect.penalty is not None)] += 1
    assert snaps[True] and snaps[False] and red_king_snap
    assert replaces[(2, True, False)]                      # successful multi-replacement
    assert replaces[(2, False, False)]                     # failed with 2: no penalty card
    assert replaces[(3, False, True)]                      # failed with 3+: penalty card
    assert autos >= 2
    golf_hands = [h for x in _rounds(replays, "golf-snaps") for h in x.hands.values()]
    assert any(c in ("KH", "KD") for hand in golf_hands for c in hand)


# --- the invalid logs ----------------------------------------------------------------------


def test_invalid_readme_lists_every_invalid_file() -> None:
    listed = [name for name, _, _ in INVALID]
    assert len(listed) == len(set(listed))
    assert sorted(listed) == sorted(p.name for p in INVALID_DIR.glob("*.jsonl"))


def test_invalid_logs_cover_every_kind_of_error() -> None:
    codes = {code for _, _, code in INVALID}
    assert codes >= {
        "bad_json", "not_object", "missing_field", "unknown_type", "not_utf8",
        "not_your_turn", "wrong_phase", "bad_position", "power_not_earned", "wrong_power",
        "swap_not_allowed", "snap_not_allowed", "second_cabo",
        "wrong_card", "bad_deal", "bad_reshuffle", "seq_gap", "claim_mismatch",
        "unknown_ruleset", "bad_option",
    }
    assert any(name == "syntax-truncated.jsonl" for name, _, _ in INVALID)


@pytest.mark.parametrize(("name", "line", "code"), INVALID, ids=[n for n, _, _ in INVALID])
def test_invalid_log_fails_at_documented_line(name: str, line: int, code: str) -> None:
    path = INVALID_DIR / name
    result = replay_file(path)
    assert isinstance(result.error, CaboLogError)
    assert (result.error.line, result.error.code) == (line, code), str(result.error)
    assert result.error.file == str(path)
    assert result.last_line <= line
    out = invoke("replay", str(path), "--json")
    assert out.exit_code == 1
    error = json.loads(out.stdout)["error"]
    assert (error["line"], error["code"]) == (line, code)


def test_truncated_log_is_cut_mid_line() -> None:
    data = (INVALID_DIR / "syntax-truncated.jsonl").read_bytes()
    assert not data.endswith(b"\n")


# --- the command line ----------------------------------------------------------------------


def test_validate_the_sample_folder_reports_the_invalid_logs() -> None:
    """validate searches folders recursively, so sample_games/ includes invalid/: every invalid
    log is reported on its own line and the exit status is 1."""
    out = invoke("validate", str(SAMPLES_DIR))
    assert out.exit_code == 1
    reported = [line for line in out.stdout.splitlines() if line.startswith(str(INVALID_DIR))]
    assert len(reported) == len(INVALID)
    for name, line, code in INVALID:
        assert f"{INVALID_DIR / name}:{line}: {code}: " in out.stdout
    total = len(SAMPLES) + len(INVALID)
    assert out.stdout.splitlines()[-1] == (f"{total} logs checked: {len(SAMPLES)} valid, "
                                           f"{len(INVALID)} invalid")


def test_validate_the_sample_games_alone() -> None:
    out = invoke("validate", *map(str, SAMPLES))
    assert out.exit_code == 0, out.stdout
    *heads, count = out.stdout.strip().splitlines()
    assert count == f"{len(SAMPLES)} logs checked: {len(SAMPLES)} valid, 0 invalid"
    # the chained samples (the score sheets declare their chain) say so, with their heads
    chained = [p for p in SAMPLES if b'"chain":"sha256"' in p.read_bytes().split(b"\n")[0]]
    assert len(chained) == 4
    assert [line.split(": chained, head ")[0] for line in heads] == [str(p) for p in chained]


def test_validate_one_good_file() -> None:
    out = invoke("validate", str(SAMPLES_DIR / "golf-tiebreak.jsonl"))
    assert out.exit_code == 0
    assert out.stdout.strip() == "1 log checked: 1 valid, 0 invalid"


def _console_script() -> str:
    local = Path(sys.executable).parent / "cabo-log"
    found = str(local) if local.exists() else shutil.which("cabo-log")
    if found is None:
        pytest.skip("the cabo-log console script is not installed")
    return found


def test_console_script_replays_and_validates() -> None:
    """The real entry point, in a subprocess: ``cabo-log`` as installed by pyproject.toml."""
    exe = _console_script()
    sample = "sample_games/edition2-exact-100.jsonl"
    done = subprocess.run([exe, "replay", sample, "--json"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    golden = json.loads((ROOT / "tests/golden/edition2-exact-100.json").read_text())
    assert json.loads(done.stdout) == golden
    done = subprocess.run([exe, "replay", "sample_games/invalid/illegal-second-cabo.jsonl"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1
    assert done.stderr.strip().endswith(
        "sample_games/invalid/illegal-second-cabo.jsonl:6: second_cabo: "
        "ana already called Cabo this round")
    assert "Traceback" not in done.stderr
    done = subprocess.run([exe, "validate", "sample_games"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 1
    assert done.stdout.splitlines()[-1].endswith(f"{len(INVALID)} invalid")
