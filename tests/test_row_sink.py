"""The rows a load worker writes in place into its chunk's buffers and lists
(``row_layout.RowSink``): each event's row holds what its log line says, a rejected log leaves
nothing behind, and the chunk gives the same record batches as one filled with games collected
on their own."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import orjson
from librt.strings import BytesWriter

from cabo_log.db.chunk import Chunk
from cabo_log.db.event_tables import widen
from cabo_log.db.row_layout import FLAT, LAYOUTS
from cabo_log.db.rows import collect
from cabo_log.play.simulate import write_games

SAMPLES = Path(__file__).resolve().parents[1] / "sample_games"
# the samples that record every event: a row per line (a score sheet's tallies make none)
VALID = [p for p in sorted(SAMPLES.glob("*.jsonl"))
         if b'"record":"tally"' not in p.read_bytes().split(b"\n")[0]]
INVALID = sorted((SAMPLES / "invalid").glob("*.jsonl"))


def _fill(chunk: Chunk, paths: list[Path], in_place: bool) -> list[Path]:
    """Collect every log (in the chunk's sink, or on its own), add the valid ones; the paths
    added."""
    added = []
    for path in paths:
        data = path.read_bytes()
        result, rows = collect(data, path.name, chunk.sink if in_place else None)
        if result.error is None and result.state is not None:
            chunk.add(result.state, rows, path.name, "hash")
            added.append(path)
    return added


def _lines(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """(line number, object) of each non-blank line of a log."""
    return [(n, orjson.loads(raw)) for n, raw in enumerate(path.read_bytes().split(b"\n"), 1)
            if raw.strip()]


def _ints(buffer: BytesWriter, code: Literal["i", "q", "B"]) -> list[int]:
    """A ``row_layout.Common`` buffer's values (``code``: their ``struct`` format)."""
    return memoryview(buffer.getvalue()).cast(code).tolist()


def test_each_row_holds_its_lines_seq_line_player_and_auto() -> None:
    mixed = [p for pair in zip(VALID, INVALID, strict=False) for p in pair]
    chunk = Chunk()
    added = _fill(chunk, mixed, in_place=True)
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
        common, flat = chunk.common[kind], chunk.events[kind]
        games = chunk.owner[kind]
        assert common.rows() == len(games)
        assert len(flat) == len(FLAT[kind]) * len(games)   # its own columns (but the listed)
        seqs, lines = _ints(common.seq, "i"), _ints(common.line, "q")
        players, autos = _ints(common.player, "i"), _ints(common.auto, "B")
        got = []
        for row, game in enumerate(games):
            player = chunk.names[chunk.bases[game] + players[row]]
            got.append((game, seqs[row], lines[row], player, bool(autos[row])))
        assert got == expected[kind], kind


def test_rows_in_place_give_the_batches_of_rows_copied() -> None:
    in_place, copied = Chunk(), Chunk()
    mixed = [*INVALID[:3], *VALID, *INVALID[3:6]]
    assert _fill(in_place, mixed, in_place=True) == _fill(copied, mixed, in_place=False)
    ours, theirs = in_place.batches(), copied.batches()
    assert sorted(ours) == sorted(theirs)
    for table, batches in ours.items():
        assert len(batches) == len(theirs[table])
        for a, b in zip(batches, theirs[table], strict=True):
            assert a.equals(b), table


def test_the_buffered_columns_null_and_true_where_the_log_says(tmp_path: Path) -> None:
    """``row_layout.Common``'s nullable and True-or-NULL columns, against the log's structure:
    ``round_ended`` on the one event that ended each round (the line before its
    ``round_end``, or that line itself), ``implicit_skip`` on an event (not a power or a skip)
    right after one that earned a power, ``value`` where there is a ``card``, ``deck_left``
    on every event but the header."""
    logs = [*VALID, *sorted(write_games(tmp_path, "edition2", games=4, seed=5, auto_rate=0.1,
                                        jobs=1).files)]
    chunk = Chunk()
    assert len(_fill(chunk, logs, in_place=True)) == len(logs)
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
