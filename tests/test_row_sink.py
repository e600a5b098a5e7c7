"""The rows a load worker writes in place into its chunk's builders (``row_sink.RowSink``):
each event's row holds what its log line says, a rejected log leaves nothing behind (the
chunk gives the same record batches as one that never saw it), and a game's rows go only into
the chunk whose sink they were collected in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from column_values import values

from cabo_log.db.chunk import Chunk
from cabo_log.db.event_tables import widen
from cabo_log.db.row_layout import LAYOUTS
from cabo_log.db.rows import collect
from cabo_log.play.simulate import write_games

SAMPLES = Path(__file__).resolve().parents[1] / "sample_games"
# the samples that record every event: a row per line (a score sheet's tallies make none)
VALID = [p for p in sorted(SAMPLES.glob("*.jsonl"))
         if b'"record":"tally"' not in p.read_bytes().split(b"\n")[0]]
INVALID = sorted((SAMPLES / "invalid").glob("*.jsonl"))


def _fill(chunk: Chunk, paths: list[Path]) -> list[Path]:
    """Collect every log in the chunk's sink, add the valid ones; the paths added."""
    added = []
    for path in paths:
        data = path.read_bytes()
        result, rows = collect(data, path.name, chunk.sink)
        if result.error is None and result.state is not None:
            chunk.add(result.state, rows, path.name, "hash")
            added.append(path)
    return added


def _lines(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """(line number, object) of each non-blank line of a log."""
    return [(n, orjson.loads(raw)) for n, raw in enumerate(path.read_bytes().split(b"\n"), 1)
            if raw.strip()]


def test_each_row_holds_its_lines_seq_line_player_and_auto() -> None:
    mixed = [p for pair in zip(VALID, INVALID, strict=False) for p in pair]
    chunk = Chunk()
    added = _fill(chunk, mixed)
    # a last log collected into the sink but never added (its game rejected late)
    collect(VALID[0].read_bytes(), "late.jsonl", chunk.sink)
    assert len(added) == len(VALID)
    chunk.sink.rollback()   # as `batches` does first
    expected: dict[str, list[tuple[int, int, int, str | None, bool]]] = {k: [] for k in LAYOUTS}
    for game, path in enumerate(added):
        for seq, (line, event) in enumerate(_lines(path)):
            expected[event["type"]].append(
                (game, seq, line, event.get("player"), bool(event.get("auto", False))))
    for kind in LAYOUTS:
        columns = chunk.columns[kind]
        games = chunk.owner[kind]
        assert {column.rows() for column in columns.values()} == {len(games)}, kind
        got = list(zip(games, values(columns["seq"]), values(columns["line"]),
                       values(columns["player"]), values(columns["auto"]), strict=True))
        assert got == expected[kind], kind


def test_rejected_logs_leave_no_rows() -> None:
    mixed, valid = Chunk(), Chunk()
    assert _fill(mixed, [*INVALID[:3], *VALID, *INVALID[3:6]]) == _fill(valid, VALID)
    ours, theirs = mixed.batches(), valid.batches()
    assert sorted(ours) == sorted(theirs)
    for table, batches in ours.items():
        assert len(batches) == len(theirs[table])
        for a, b in zip(batches, theirs[table], strict=True):
            assert a.equals(b), table


def test_a_game_collected_into_another_sink_is_refused() -> None:
    result, rows = collect(VALID[0].read_bytes(), VALID[0].name)   # a sink of its own
    assert result.state is not None
    with pytest.raises(ValueError, match="another chunk's sink"):
        Chunk().add(result.state, rows, VALID[0].name, "hash")


def test_the_buffered_columns_null_and_true_where_the_log_says(tmp_path: Path) -> None:
    """The nullable and True-or-NULL columns every event has, against the log's structure:
    ``round_ended`` on the one event that ended each round (the line before its
    ``round_end``, or that line itself), ``implicit_skip`` on an event (not a power or a skip)
    right after one that earned a power, ``value`` where there is a ``card``, ``deck_left``
    on every event but the header."""
    logs = [*VALID, *sorted(write_games(tmp_path, "edition2", games=4, seed=5, auto_rate=0.1,
                                        jobs=1).files)]
    chunk = Chunk()
    assert len(_fill(chunk, logs)) == len(logs)
    rows = sorted((row for batch in widen(chunk.batches())["events"]
                   for row in batch.to_pylist()), key=lambda r: (r["game_id"], r["seq"]))
    ended = skipped = 0
    for i, row in enumerate(rows):
        before = rows[i - 1] if i and rows[i - 1]["game_id"] == row["game_id"] else None
        after = rows[i + 1] if i + 1 < len(rows) else None
        if after is not None and after["game_id"] != row["game_id"]:
            after = None
        assert (row["value"] is None) == (row["card"] is None)
        assert (row["deck_left"] is None) == (row["type"] == "game")
        assert row["implicit_skip"] is (
            True if before is not None and before["earned"] is not None
            and row["type"] not in ("power", "skip") else None)
        assert row["round_ended"] in (True, None)
        if row["type"] == "round_end":   # the round ended here or on the line before
            assert before is not None
            assert [before["round_ended"], row["round_ended"]].count(True) == 1
        elif row["round_ended"]:
            assert after is not None and after["type"] == "round_end"
        ended += row["round_ended"] is True
        skipped += row["implicit_skip"] is True
    assert ended == sum(r["type"] == "round_end" for r in rows) > 20
    assert skipped > 5
