"""The rows a load worker writes in place into its chunk's lists (``row_layout.RowSink``): each
event's row holds what its log line says, a rejected log leaves nothing behind, and the chunk
gives the same record batches as one filled with games collected on their own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from cabo_log.db.chunk import Chunk
from cabo_log.db.row_layout import LAYOUTS
from cabo_log.db.rows import collect

SAMPLES = Path(__file__).resolve().parents[1] / "sample_games"
VALID = sorted(SAMPLES.glob("*.jsonl"))
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
    for kind, columns in LAYOUTS.items():
        flat, width = chunk.events[kind], len(columns)
        games = chunk.owner[kind]
        assert len(flat) == width * len(games)
        got = []
        for row, game in enumerate(games):
            values = dict(zip(columns, flat[row * width:(row + 1) * width], strict=True))
            player = chunk.names[chunk.bases[game] + values["player"]]
            got.append((game, values["seq"], values["line"], player, values["auto"]))
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
