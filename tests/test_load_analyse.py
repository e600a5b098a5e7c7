"""``load PATH --analyse``: only the games of the paths given are analysed (``--all``: every
game in the database), with a line per game off a terminal."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import duckdb
import pytest
from analysis_logs import final_turn, must_fail_log
from typer.testing import CliRunner

from cabo_log import cli
from cabo_log.analysis.decisions import read_decisions

cli._register_all()


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli.app, list(args))
    return result.exit_code, result.stdout, result.stderr


def decisions_per_game(db: Path) -> dict[str, int]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        rows: list[Any] = con.execute(
            "SELECT game_id, count(*) FROM decisions GROUP BY game_id").fetchall()
    finally:
        con.close()
    return dict(rows)


def choices(log: Path) -> int:
    """The decisions of a log with a choice (forced moves are not analysed)."""
    return sum(1 for d in read_decisions(log.read_bytes()).decisions if not d.forced)


def two_folders(tmp_path: Path) -> tuple[Path, Path]:
    """Folder a holds game-1 (ana's failed replacement), folder b game-2 and game-3."""
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    must_fail_log().write(a / "one.jsonl")
    for n, (drawn, cards) in enumerate((("13", [0]), ("3", [2])), start=2):
        log = final_turn(["5", "4", "9", "9"], drawn).replace("ana", cards)
        log.lines[0]["game_id"] = f"game-{n}"
        log.write(b / f"g{n}.jsonl")
    return a, b


def test_analyse_takes_only_the_paths_games(tmp_path: Path) -> None:
    a, b = two_folders(tmp_path)
    db = tmp_path / "x.duckdb"
    assert run("load", str(a), "--db", str(db))[0] == 0
    code, out, err = run("load", str(b), "--db", str(db), "--analyse", "--rollouts", "2",
                         "-j", "1")
    assert code == 0, err
    n2, n3 = choices(b / "g2.jsonl"), choices(b / "g3.jsonl")
    assert n2 >= 2 and n3 >= 2   # bruno's Cabo call, ana's card (and her draw)
    assert decisions_per_game(db) == {"game-2": n2, "game-3": n3}   # not game-1
    assert out.splitlines()[-1] == f"{db}: analysed 2 games ({n2 + n3} decisions)"
    # off a terminal: one line per analysed game, in order, on stderr
    lines = [line for line in err.splitlines() if line.startswith("analysed ")]
    assert [line.split(":")[0] for line in lines] == ["analysed 1/2", "analysed 2/2"]
    assert f"game-2 ({b / 'g2.jsonl'}): {n2} decisions" in lines[0]
    assert f"game-3 ({b / 'g3.jsonl'}): {n3} decisions" in lines[1]
    # the same paths again: nothing left to analyse there
    code, out, err = run("load", str(b), "--db", str(db), "--analyse", "--rollouts", "2", "-j", "1")
    assert out.splitlines()[-1] == f"{db}: analysed 0 games (0 decisions)"
    assert "analysed 1/" not in err


def test_analyse_all_takes_every_game(tmp_path: Path) -> None:
    a, b = two_folders(tmp_path)
    db = tmp_path / "x.duckdb"
    assert run("load", str(a), "--db", str(db))[0] == 0
    code, out, err = run("load", str(b / "g2.jsonl"), "--db", str(db), "--analyse", "--all",
                         "--rollouts", "2", "-j", "1", "--quiet")
    assert code == 0, err
    # game-1, loaded before from another folder, too (game-3 was never loaded)
    counts = {"game-1": choices(a / "one.jsonl"), "game-2": choices(b / "g2.jsonl")}
    assert decisions_per_game(db) == counts
    assert out.splitlines()[-1] == f"{db}: analysed 2 games ({sum(counts.values())} decisions)"
    assert "analysed 1/" not in err   # --quiet: no line per game


def test_a_single_file_takes_its_game_only(tmp_path: Path) -> None:
    a, b = two_folders(tmp_path)
    db = tmp_path / "x.duckdb"
    assert run("load", str(a), str(b), "--db", str(db))[0] == 0
    code, _, err = run("load", str(b / "g3.jsonl"), "--db", str(db), "--analyse", "--rollouts", "2",
                       "-j", "1")
    assert code == 0, err
    assert decisions_per_game(db) == {"game-3": choices(b / "g3.jsonl")}


def test_all_and_rollouts_need_analyse(tmp_path: Path) -> None:
    a, _ = two_folders(tmp_path)
    db = tmp_path / "x.duckdb"
    code, _, err = run("load", str(a), "--db", str(db), "--all")
    assert (code, err.strip()) == (2, "cabo-log: --all needs --analyse")
    code, _, err = run("load", str(a), "--db", str(db), "--rollouts", "4")
    assert (code, err.strip()) == (2, "cabo-log: --rollouts needs --analyse")
    assert not db.exists()


def test_the_bar_counts_the_games_events_as_their_decisions_are_done(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from cabo_log import progress
    from cabo_log.analysis.evaluate import Settings
    from cabo_log.analysis.store import analyse_database
    from cabo_log.db.listing import listed_in
    from cabo_log.log.replay import replay_bytes

    monkeypatch.setattr(progress, "FIRST_DRAW", 0.0)   # draw at every update
    monkeypatch.setattr(progress, "REDRAW", 0.0)
    a, b = two_folders(tmp_path)
    db = tmp_path / "x.duckdb"
    assert run("load", str(a), str(b), "--db", str(db))[0] == 0
    stream = io.StringIO()
    analyse_database(db, Settings(rollouts=2), jobs=1, progress=stream,
                     games=listed_in([b]))
    events = 0
    for log in (b / "g2.jsonl", b / "g3.jsonl"):
        state = replay_bytes(log.read_bytes()).state
        assert state is not None
        events += state.events
    drawn = [re.search(r"(\d+)/(\d+) events", part) for part in stream.getvalue().split("\r")]
    counts = [(int(m[1]), int(m[2])) for m in drawn if m]
    assert stream.getvalue().lstrip("\r").startswith("analysing 2 games [")
    assert {total for _, total in counts} == {events}
    done = [d for d, _ in counts]
    assert done == sorted(done) and done[-1] == events
    assert len(set(done)) > 3   # it moved within the games, not only at their ends
