"""The ``powers`` rows are flat (``open_rows.POWER_LAYOUT``) with their string columns coded
into each game's names (``open_rows.Names``); the worker's ``powers`` batch is those rows with
every code turned back into its game's string, and a row's parts agree with each other: an
unused power has no use columns, a peek or spy no swap columns, a swap no peek columns."""

from __future__ import annotations

from typing import Any

from cabo_log.db.chunk import Chunk
from cabo_log.db.open_rows import POWER_CODED, POWER_LAYOUT, POWER_USE
from cabo_log.db.rows import collect
from cabo_log.log.logfile import dumps_event
from cabo_log.play.simulate import simulate_game

PEEK_COLUMNS = {"target_player", "target_position", "seen", "seen_value"}


def decoded(flat: list[Any], names: list[str | None]) -> list[dict[str, Any]]:
    """One game's flat ``powers`` rows -> a dict per row, the codes replaced by the names."""
    width = len(POWER_LAYOUT)
    return [{name: names[value] if name in POWER_CODED else value
             for name, value in zip(POWER_LAYOUT, flat[i:i + width], strict=True)}
            for i in range(0, len(flat), width)]


def test_power_batch_is_the_flat_rows_decoded_game_by_game() -> None:
    chunk = Chunk()
    want: list[dict[str, Any]] = []
    for ruleset, players, seed in (("edition1", 3, 5), ("edition2", 4, 6), ("golf", 2, 7)):
        events = simulate_game(ruleset, players=players, seed=seed, game_id=f"p-{seed}")
        data = b"".join(dumps_event(e) for e in events)
        result, rows = collect(data, f"{seed}.jsonl")
        assert result.error is None and result.state is not None
        chunk.add(result.state, rows, f"{seed}.jsonl", "hash")
        for row in decoded(rows.rows.powers.rows, rows.rows.names.values):
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
