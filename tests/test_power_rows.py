"""The ``powers`` rows are machine values in byte buffers (``open_rows.PowerColumns``) with
their string columns coded into each game's names (``open_rows.Names``); the worker's
``powers`` batch is those rows with every code turned back into its game's string, and a
row's parts agree with each other: an unused power has no use columns, a peek or spy no swap
columns, a swap no peek columns."""

from __future__ import annotations

from typing import Any

from cabo_log.db.chunk import Chunk
from cabo_log.db.open_rows import POWER_LAYOUT, POWER_TYPES, POWER_USE, PowerColumns
from cabo_log.db.rows import collect
from cabo_log.log.logfile import dumps_event
from cabo_log.play.simulate import simulate_game

PEEK_COLUMNS = {"target_player", "target_position", "seen", "seen_value"}


def decoded(out: PowerColumns, names: list[str | None]) -> list[dict[str, Any]]:
    """One game's ``powers`` buffers -> a dict per row, the codes replaced by the names."""
    columns: dict[str, list[Any]] = {}
    for name, kind in POWER_TYPES.items():
        data = out.buffer(name).getvalue()
        if kind == "code":
            columns[name] = [names[c] for c in memoryview(data).cast("i").tolist()]
        elif kind in ("bool", "bool?"):
            columns[name] = [None if b == 2 else bool(b) for b in data]
        else:
            values = memoryview(data).cast("h" if kind.startswith("i16") else "i").tolist()
            has = out.buffer(f"has_{name}").getvalue() if kind.endswith("?") else None
            columns[name] = [v if has is None or has[i] else None for i, v in enumerate(values)]
    assert {len(values) for values in columns.values()} == {out.rows()}
    return [dict(zip(POWER_LAYOUT, row, strict=True))
            for row in zip(*(columns[name] for name in POWER_LAYOUT), strict=True)]


def test_power_batch_is_the_buffered_rows_decoded_game_by_game() -> None:
    chunk = Chunk()
    want: list[dict[str, Any]] = []
    for ruleset, players, seed in (("edition1", 3, 5), ("edition2", 4, 6), ("golf", 2, 7)):
        events = simulate_game(ruleset, players=players, seed=seed, game_id=f"p-{seed}")
        data = b"".join(dumps_event(e) for e in events)
        result, rows = collect(data, f"{seed}.jsonl")
        assert result.error is None and result.state is not None
        chunk.add(result.state, rows, f"{seed}.jsonl", "hash")
        for row in decoded(rows.rows.powers.out, rows.rows.names.values):
            want.append({"game_id": f"p-{seed}", "ruleset": ruleset, **row})
            assert row["player"] in result.state.players
    batch = chunk.batches()["powers"][0]
    got = batch.to_pylist()
    assert got == want
    assert {r["outcome"] for r in got} >= {"used", "skipped"}
    for row in got:
        assert row["used"] == (row["outcome"] == "used")
        use = {name for name in POWER_USE if row[name] is not None}
        if not row["used"]:
            assert not use
        elif row["target_player"] is not None:   # a peek or spy
            assert use <= PEEK_COLUMNS and row["target_position"] is not None
        else:   # a swap
            assert not use & PEEK_COLUMNS and row["swap_player_a"] is not None
    assert any(r["seen"] is not None for r in got)
    assert any(r["swap_player_b"] is not None for r in got)
