"""Each line's ``t`` reaches the rows from the one reading of the line: the replay hands it to
its visitor (``ReplayVisitor.stamp``) on the whole-body path and on the line-by-line path, and
the ``events`` rows carry it as ``t_ms`` (a number) or ``t_iso`` (a string).

Expectations come from the log's JSON lines, read here with the standard library."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

import cabo_log.log.decode as decode_module
from cabo_log.db.chunk import Chunk
from cabo_log.db.event_tables import widen
from cabo_log.db.replay_files import Task, replay_tasks
from cabo_log.db.rows import RowCollector, collect
from cabo_log.log.logfile import dumps_event
from cabo_log.log.replay import replay_bytes
from cabo_log.play.simulate import simulate_game

BOM = b"\xef\xbb\xbf"


def stamped_lines() -> list[bytes]:
    """A simulated game whose lines carry every kind of ``t``: whole and fractional
    milliseconds, ISO strings, none; the header too."""
    events = simulate_game("edition1", players=3, seed=4, game_id="timed")
    out = []
    for i, event in enumerate(events):
        kinds: list[Any] = [1_700_000_000_000 + i, i * 1.25, f"2026-11-30T20:{i % 60:02d}:00Z"]
        line = dict(event)
        line.pop("t", None)
        if i % 4 != 3:
            line["t"] = kinds[i % 3]
        out.append(dumps_event(line))
    return out


def expected(lines: list[bytes]) -> dict[int, tuple[float | None, str | None]]:
    """line number -> (t_ms, t_iso) of every non-blank line."""
    out = {}
    for number, raw in enumerate(b"".join(lines).split(b"\n"), start=1):
        if raw.strip():
            t = json.loads(raw.removeprefix(BOM)).get("t")
            out[number] = (float(t) if isinstance(t, (int, float)) else None,
                           t if isinstance(t, str) else None)
    return out


def event_times(data: bytes) -> dict[int, tuple[float | None, str | None]]:
    """line -> (t_ms, t_iso) of the ``events`` rows the loader's worker builds."""
    chunk = Chunk()
    result, rows = collect(data, "timed.jsonl", chunk.sink)
    assert result.error is None and result.state is not None
    chunk.add(result.state, rows, "timed.jsonl", "hash")
    table = pa.Table.from_batches(widen(chunk.batches())["events"]).to_pydict()
    return {line: (ms, iso) for line, ms, iso in zip(
        table["line"], table["t_ms"], table["t_iso"], strict=True)}


@pytest.mark.parametrize("variant", ["whole body", "blank lines", "bom", "bom and blanks"])
def test_rows_carry_each_lines_t(variant: str) -> None:
    lines = stamped_lines()
    if "blank" in variant:   # the line-by-line path (and numbers that differ from seq + 1)
        lines = [raw + (b"\n" if i % 5 == 0 else b"") for i, raw in enumerate(lines)]
    if "bom" in variant:
        lines[0] = BOM + lines[0]
    want = expected(lines)
    got = event_times(b"".join(lines))
    assert got == want
    assert any(ms is not None for ms, _ in got.values())
    assert any(iso is not None for _, iso in got.values())
    assert any(ms is None and iso is None for ms, iso in got.values())


def test_a_log_without_t_has_no_times() -> None:
    lines = [dumps_event({k: v for k, v in e.items() if k != "t"})
             for e in simulate_game("golf", players=2, seed=1)]
    got = event_times(b"".join(lines))
    assert set(got.values()) == {(None, None)}


class Stamps(RowCollector):
    """A ``RowCollector`` that also lists every ``stamp`` it is given."""

    def __init__(self) -> None:
        super().__init__()
        self.given: list[tuple[int, Any]] = []

    def stamp(self, line: int, t: int | float | str) -> None:
        self.given.append((line, t))
        super().stamp(line, t)


@pytest.mark.parametrize("blank", [False, True])
def test_the_replay_hands_t_over_and_decodes_each_line_once(
        blank: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = stamped_lines()
    if blank:
        lines.insert(3, b"\n")
    data = b"".join(lines)
    calls: dict[str, int] = {}

    def counted(name: str) -> None:
        real = getattr(decode_module, name)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            calls[name] = calls.get(name, 0) + 1
            return real(*args, **kwargs)
        monkeypatch.setattr(decode_module, name, wrapper)

    for name in ("fast_body", "fast_decode", "decode_line"):
        counted(name)
    visitor = Stamps()   # given no bytes: every ``t`` it has came from the replay
    result = replay_bytes(data, visitor=visitor)
    assert result.error is None
    want = {n: json.loads(raw)["t"] for n, raw in enumerate(data.split(b"\n"), start=1)
            if raw.strip() and "t" in json.loads(raw)}
    assert dict(visitor.given) == want and len(visitor.given) == len(want)
    assert visitor.times == want
    if blank:   # line by line: the exact reader once for the header (before ``fast_body``
        # refused the body by its bytes alone), the fast one once per line after it
        assert calls["fast_decode"] == len(data.split(b"\n")) - 1
        assert calls["decode_line"] == 1
    else:       # the header by the exact reader, the body in one call
        assert calls == {"fast_body": 1, "decode_line": 1}


def test_a_t_of_the_wrong_type_is_bad_field_and_loads_nothing(tmp_path: Path) -> None:
    lines = stamped_lines()
    lines[6] = dumps_event({**json.loads(lines[6]), "t": {"ms": 5}})
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b"".join(lines))
    outcomes, chunk = replay_tasks([Task(str(path), path.stat().st_size, None)])
    assert outcomes[0].status == "rejected"
    error = outcomes[0].error
    assert error is not None
    assert (error["line"], error["code"]) == (7, "bad_field")
    assert len(chunk) == 0
