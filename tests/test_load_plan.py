"""The loader's bookkeeping, kept in the database instead of memory: the files are listed as a
stream (the same files, in the same order, as ``find_logs``), and duplicate or replaced games
are found by asking the database, or the batches not yet committed, chunk by chunk.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import duckdb
import pytest

from cabo_log.db import known as knownmod
from cabo_log.db import load as loadmod
from cabo_log.db import loader as loadermod
from cabo_log.db import writer as writermod
from cabo_log.db.listing import count_logs, iter_logs, listed_in
from cabo_log.db.load import load_paths
from cabo_log.log.logfile import dumps_event, find_logs
from cabo_log.play.simulate import simulate_game


def lines(events: list[dict[str, Any]]) -> bytes:
    return b"".join(dumps_event(e) for e in events)


def query(db: Path, sql: str) -> list[tuple[Any, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


@pytest.fixture(scope="module")
def game() -> list[dict[str, Any]]:
    return simulate_game("golf", players=2, seed=3, game_id="g")


# --- the listing -------------------------------------------------------------------------------

def test_the_listing_is_find_logs_as_a_stream(tmp_path: Path) -> None:
    """Same paths, same order (part by part: ``a/x`` before ``a-b/x``), no repeats when the
    arguments overlap, symbolic links to folders not followed."""
    for rel in ("a/x.jsonl", "a-b/x.jsonl", "a/b/y.jsonl", "a/b.jsonl", "a/z.txt",
                "c/.hidden.jsonl", "c/d.jsonl/e.jsonl", "A/q.jsonl"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x")
    os.symlink(tmp_path / "a", tmp_path / "c" / "link")
    os.symlink(tmp_path / "a" / "x.jsonl", tmp_path / "c" / "alias.jsonl")
    cases = [[tmp_path], [tmp_path / "a", tmp_path], [tmp_path / "a" / "x.jsonl", tmp_path / "a"],
             [tmp_path / "c", tmp_path / "c"], [tmp_path / "a-b", tmp_path / "a"],
             [tmp_path / "missing.jsonl"]]
    for args in cases:
        expected = [os.path.abspath(p) for p in find_logs(args)]
        assert list(iter_logs(args)) == expected, args
        assert count_logs(args) == len(expected)
        listed = listed_in(args)
        assert all(listed(p) for p in expected)
    assert not listed_in([tmp_path / "a"])(str(tmp_path / "a-b" / "x.jsonl"))
    assert not listed_in([tmp_path / "a"])(str(tmp_path / "a" / "z.txt"))


# --- duplicates and replacements across chunks, batches and loads --------------------------------

@pytest.fixture(params=[(1, True), (10**9, True), (1, False), (10**9, False)],
                ids=["every-chunk-committed", "one-transaction", "every-chunk-committed-asked",
                     "one-transaction-asked"])
def small_batches(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """One file per chunk, each chunk handed to DuckDB at once; committed at once (the database
    answers; checkpointed and attached again after each commit) or all in one transaction (the
    loader's memory of uncommitted batches answers).
    The database is asked only about the game ids its filter (``known.Seen``) may hold, or
    (``-asked``, a database too big to read into the filter) about every game id."""
    commit_rows, filtered = request.param
    monkeypatch.setattr(loadermod, "CHUNK_FILES", 1)
    monkeypatch.setattr(loadermod, "FLUSH_ROWS", 1)
    monkeypatch.setattr(loadmod, "COMMIT_ROWS", commit_rows)
    monkeypatch.setattr(loadmod, "CHECKPOINT_ROWS", commit_rows)   # and attached again
    monkeypatch.setattr(knownmod, "SCAN_GAMES", 10**6 if filtered else -1)


@pytest.mark.usefixtures("small_batches")
def test_a_game_in_two_files_is_loaded_once_whichever_batch_has_it(
        tmp_path: Path, game: list[dict[str, Any]]) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    for name in ("b", "d", "f"):
        (folder / f"{name}.jsonl").write_bytes(lines(game))
    db = tmp_path / "cabo.duckdb"
    summary = load_paths([folder], db, jobs=1)
    assert (summary.loaded, len(summary.rejected)) == (1, 2)
    assert query(db, "SELECT file, code, message FROM load_errors ORDER BY file") == [
        (str(folder / f"{n}.jsonl"), "duplicate_game",
         f"game 'g' is also in {folder / 'b.jsonl'}, loaded by this same command")
        for n in ("d", "f")]
    # again, with copies before and after the unchanged (skipped) file: still b's game
    for name in ("a", "c"):
        (folder / f"{name}.jsonl").write_bytes(lines(game))
    summary = load_paths([folder], db, jobs=1)
    assert (summary.loaded, summary.skipped) == (0, 1)
    assert sorted(e["file"] for e in summary.rejected) == [
        str(folder / f"{n}.jsonl") for n in ("a", "c", "d", "f")]
    assert query(db, "SELECT source_file FROM games") == [(str(folder / "b.jsonl"),)]
    assert query(db, "SELECT count(*) FROM events") == [(len(game),)]


@pytest.mark.usefixtures("small_batches")
def test_a_game_moved_to_a_file_listed_earlier_replaces_its_old_copy(
        tmp_path: Path, game: list[dict[str, Any]]) -> None:
    """b held the game; now a holds it and b holds another game: a's copy is no duplicate
    (b changed), b's new game loads, and every table holds each game once."""
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "b.jsonl").write_bytes(lines(game))
    db = tmp_path / "cabo.duckdb"
    load_paths([folder], db, jobs=1)
    other = simulate_game("edition1", players=3, seed=5, game_id="h")
    (folder / "a.jsonl").write_bytes(lines(game))
    (folder / "b.jsonl").write_bytes(lines(other))
    summary = load_paths([folder], db, jobs=1)
    assert (summary.loaded, summary.replaced, summary.rejected) == (2, 1, [])
    assert query(db, "SELECT game_id, source_file FROM games ORDER BY 1") == [
        ("g", str(folder / "a.jsonl")), ("h", str(folder / "b.jsonl"))]
    assert query(db, "SELECT game_id, count(*) FROM events GROUP BY 1 ORDER BY 1") == [
        ("g", len(game)), ("h", len(other))]
    assert query(db, "SELECT path, game_id FROM files ORDER BY 1") == [
        (str(folder / "a.jsonl"), "g"), (str(folder / "b.jsonl"), "h")]


def test_small_batches_and_checkpoints_load_the_same_rows(
        tmp_path: Path, game: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    """A transaction per chunk and a checkpoint after each commit give row for row the tables
    of one transaction for the whole load."""
    folder = tmp_path / "logs"
    folder.mkdir()
    for i in range(4):
        (folder / f"{i}.jsonl").write_bytes(lines([{**game[0], "game_id": f"g{i}"}, *game[1:]]))
    tables = ("games", "events", "rounds", "round_scores", "game_players")

    def rows(db: Path) -> dict[str, list[tuple[Any, ...]]]:
        return {t: sorted(query(db, f"SELECT * FROM {t}"), key=repr) for t in tables}

    load_paths([folder], tmp_path / "one.duckdb", jobs=1)
    monkeypatch.setattr(loadermod, "CHUNK_FILES", 1)
    monkeypatch.setattr(loadermod, "FLUSH_ROWS", 1)
    monkeypatch.setattr(loadmod, "COMMIT_ROWS", 1)
    monkeypatch.setattr(loadmod, "CHECKPOINT_ROWS", 1)
    summary = load_paths([folder], tmp_path / "many.duckdb", jobs=1)
    assert summary.loaded == 4
    assert rows(tmp_path / "many.duckdb") == rows(tmp_path / "one.duckdb")
    assert query(tmp_path / "many.duckdb", "SELECT count(*) FROM games") == [(4,)]


def test_the_last_results_are_written_while_the_workers_finish(
        tmp_path: Path, game: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    """Once every chunk is handed out, each result goes to the writer as it comes, with the
    share of files still to come (``Batch.to_come``), 0 with the last: the writer then holds
    nothing back, and the last rows are not written in one big batch after the workers. One
    transaction, committed by the final flush; the same rows as a load in one process."""
    folder = tmp_path / "logs"
    folder.mkdir()
    for i in range(8):
        (folder / f"{i}.jsonl").write_bytes(lines([{**game[0], "game_id": f"g{i}"}, *game[1:]]))
    tables = ("games", "events", "rounds", "round_scores", "game_players", "files")

    def rows(db: Path) -> dict[str, list[tuple[Any, ...]]]:   # ``loaded_at``: the load's time
        return {t: sorted(query(db, f"SELECT * {'EXCLUDE (loaded_at)' if t == 'files' else ''} "
                                    f"FROM {t}"), key=repr)
                for t in tables}

    load_paths([folder], tmp_path / "one.duckdb", jobs=1)
    submitted: list[int] = []   # rows (without the loader's own) of each batch handed over
    to_come: list[float] = []   # and the share of files still to come said with it
    submit = loadermod.Loader.submit

    def spy(self: Any, share: float) -> None:
        pending = self.writer.pending.tables
        submitted.append(sum(b.num_rows for t, items in pending.items()
                             if t not in ("files", "load_errors") for b in items))
        to_come.append(share)
        submit(self, share)

    commits: list[int] = []
    write = writermod.Writer._write_batch

    def count_commits(self: Any, batch: Any) -> None:
        write(self, batch)
        commits.append(self.batches)

    monkeypatch.setattr(loadermod.Loader, "submit", spy)
    monkeypatch.setattr(writermod.Writer, "_write_batch", count_commits)
    monkeypatch.setattr(loadermod, "CHUNK_FILES", 1)
    monkeypatch.setattr(loadermod, "INLINE_BYTES", 0)
    monkeypatch.setattr(loadermod, "FLUSH_ROWS", 10**9)   # never full: only the end decides
    summary = load_paths([folder], tmp_path / "two.duckdb", jobs=2)
    assert summary.loaded == 8
    per_game = sum(submitted) // 8    # the files are one game under eight ids
    assert per_game and sum(submitted) == 8 * per_game
    assert len(submitted) >= 2 and submitted[1:] == [per_game] * (len(submitted) - 1), submitted
    assert submitted[0] < 8 * per_game, submitted
    assert to_come == sorted(to_come, reverse=True) and to_come[-1] == 0.0, to_come
    assert 0.0 < to_come[0] < 1.0, to_come
    assert commits[-1] == 1 and commits.count(1) == 1, commits   # the flush's, the only one
    assert rows(tmp_path / "two.duckdb") == rows(tmp_path / "one.duckdb")


def test_the_filter_of_held_games_never_forgets_one() -> None:
    """No game id added is ever said absent; of as many never added, almost none is said
    present (the filter's wrong "maybe", which only costs a question to the database)."""
    seen = knownmod.Seen()
    added = [f"game-{i}" for i in range(20_000)]
    for game_id in added:
        seen.add(game_id)
    assert all(game_id in seen for game_id in added)
    assert sum(f"other-{i}" in seen for i in range(20_000)) <= 2


# --- the same game id in files of different loads ------------------------------------------------

def _snapshot(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    return {t: sorted(query(db, f"SELECT * FROM {t}"), key=repr)
            for t in ("games", "events", "rounds", "round_scores", "game_players")}


@pytest.mark.usefixtures("small_batches")
def test_another_file_of_a_game_loaded_before_is_a_duplicate_in_a_later_load(
        tmp_path: Path, game: list[dict[str, Any]]) -> None:
    """``load a/`` (game g), then ``load b/`` with another file of game g (here the same match
    under the same id, cut short: a different file): rejected with ``duplicate_game``, as
    within one load, a's game left as it was, b's file listed in ``load_errors``; again on
    the next load of b/. Also when a's file changed since (it grew) but still holds g."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = tmp_path / "a" / "x.jsonl"
    other = tmp_path / "b" / "y.jsonl"
    first.write_bytes(lines(game[:-5]))
    other.write_bytes(lines(game[:-9]))
    db = tmp_path / "cabo.duckdb"
    assert load_paths([tmp_path / "a"], db, jobs=1).loaded == 1
    before = _snapshot(db)
    message = (f"game 'g' is also in {first}, loaded by an earlier command (a different file: "
               "remove one of the two, or give one another game_id)")
    for _ in range(2):
        summary = load_paths([tmp_path / "b"], db, jobs=1)
        assert (summary.loaded, summary.replaced, summary.exit_code()) == (0, 0, 1)
        assert [(e["file"], e["code"], e["message"]) for e in summary.rejected] == [
            (str(other), "duplicate_game", message)]
        assert _snapshot(db) == before
        assert query(db, "SELECT file, code, game_id FROM load_errors") == [
            (str(other), "duplicate_game", "g")]
        assert query(db, "SELECT path FROM files") == [(str(first),)]
    with first.open("ab") as f:     # a's file grew: not as loaded, but still game g's
        f.write(lines(game[-5:]))
    summary = load_paths([tmp_path / "b"], db, jobs=1)
    assert summary.loaded == 0 and [e["code"] for e in summary.rejected] == ["duplicate_game"]
    assert _snapshot(db) == before
    # loading a/ again brings its grown game in: a's file, its own game
    assert load_paths([tmp_path / "a"], db, jobs=1).replaced == 1
    assert query(db, "SELECT source_file, events FROM games") == [(str(first), len(game))]


@pytest.mark.usefixtures("small_batches")
def test_a_file_moved_or_copied_with_its_bytes_is_no_duplicate_across_loads(
        tmp_path: Path, game: list[dict[str, Any]]) -> None:
    """The same bytes under another path are the same game: moved (the old path gone) or
    copied (both there), the later load takes the new path as the game's file, rejecting
    nothing; the game's rows are the same."""
    (tmp_path / "a").mkdir()
    first = tmp_path / "a" / "x.jsonl"
    first.write_bytes(lines(game))
    db = tmp_path / "cabo.duckdb"
    load_paths([tmp_path / "a"], db, jobs=1)
    rows = {t: v for t, v in _snapshot(db).items() if t != "games"}
    (tmp_path / "copy").mkdir()
    copy = tmp_path / "copy" / "x.jsonl"
    copy.write_bytes(first.read_bytes())
    summary = load_paths([tmp_path / "copy"], db, jobs=1)
    assert (summary.loaded, summary.replaced, summary.rejected) == (1, 1, [])
    assert query(db, "SELECT source_file FROM games") == [(str(copy),)]
    first.rename(tmp_path / "moved.jsonl")
    summary = load_paths([tmp_path / "moved.jsonl"], db, jobs=1)
    assert (summary.loaded, summary.replaced, summary.rejected) == (1, 1, [])
    assert query(db, "SELECT source_file FROM games") == [(str(tmp_path / "moved.jsonl"),)]
    assert {t: v for t, v in _snapshot(db).items() if t != "games"} == rows
    assert query(db, "SELECT path FROM files") == [(str(tmp_path / "moved.jsonl"),)]


@pytest.mark.usefixtures("small_batches")
def test_a_game_whose_earlier_file_is_gone_or_holds_another_game_is_replaced(
        tmp_path: Path, game: list[dict[str, Any]]) -> None:
    """Another file of game g is no duplicate when the file g was loaded from no longer holds
    it: removed (g's file moved and changed on the way), or now another game's. The new file
    replaces g; a changed file at the same path replaces its earlier version as ever."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = tmp_path / "a" / "x.jsonl"
    first.write_bytes(lines(game[:-9]))
    db = tmp_path / "cabo.duckdb"
    load_paths([first], db, jobs=1)
    first.write_bytes(lines(simulate_game("edition1", players=3, seed=5, game_id="h")))
    (tmp_path / "b" / "y.jsonl").write_bytes(lines(game[:-5]))
    summary = load_paths([tmp_path / "b"], db, jobs=1)
    assert (summary.loaded, summary.replaced, summary.rejected) == (1, 1, [])
    assert query(db, "SELECT game_id, source_file, events FROM games") == [
        ("g", str(tmp_path / "b" / "y.jsonl"), len(game) - 5)]
    (tmp_path / "b" / "y.jsonl").rename(tmp_path / "z.jsonl")
    with (tmp_path / "z.jsonl").open("ab") as f:   # moved, and grown on the way
        f.write(lines(game[-5:]))
    summary = load_paths([tmp_path / "z.jsonl"], db, jobs=1)
    assert (summary.loaded, summary.replaced, summary.rejected) == (1, 1, [])
    assert query(db, "SELECT game_id, source_file, events FROM games") == [
        ("g", str(tmp_path / "z.jsonl"), len(game))]
    assert query(db, "SELECT count(*) FROM events") == [(len(game),)]
