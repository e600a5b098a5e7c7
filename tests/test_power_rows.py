"""The ``powers`` rows are written column by column into the chunk's builders
(``row_tables.PowersRows``), their strings coded into the chunk's names; the worker's
``powers`` batch is those rows with every code turned back into its string, and a row's parts
agree with each other: an unused power has no use columns, a peek or spy no swap columns, a
swap no peek columns."""

from __future__ import annotations

from typing import Any

from column_values import values

from cabo_log.db.chunk import Chunk
from cabo_log.db.rows import collect
from cabo_log.db.schema import COLUMNS
from cabo_log.log.logfile import dumps_event
from cabo_log.play.simulate import simulate_game

PEEK_COLUMNS = {"target_player", "target_position", "seen", "seen_value"}
# what a power did when it was used: NULL in an unused power's row
USE = ("target_player", "target_position", "seen", "seen_value", "swap_player_a",
       "swap_position_a", "swap_player_b", "swap_position_b", "user_involved", "given",
       "given_value", "received", "received_value", "knew_given", "knew_received", "gain")


def test_power_batch_is_the_buffered_rows_decoded_game_by_game() -> None:
    chunk = Chunk()
    want: list[dict[str, Any]] = []
    for ruleset, players, seed in (("edition1", 3, 5), ("edition2", 4, 6), ("golf", 2, 7)):
        events = simulate_game(ruleset, players=players, seed=seed, game_id=f"p-{seed}")
        data = b"".join(dumps_event(e) for e in events)
        result, rows = collect(data, f"{seed}.jsonl", chunk.sink)
        assert result.error is None and result.state is not None
        chunk.add(result.state, rows, f"{seed}.jsonl", "hash")
        columns = [values(c)[len(want):] for c in chunk.sink.powers.columns()]
        for row in zip(*columns, strict=True):
            want.append({"game_id": f"p-{seed}", "ruleset": ruleset,
                         **dict(zip(COLUMNS["powers"], row, strict=True))})
            assert want[-1]["player"] in result.state.players
    batch = chunk.batches()["powers"][0]
    got = batch.to_pylist()
    assert got == want
    assert {r["outcome"] for r in got} >= {"used", "skipped"}
    for row in got:
        assert row["used"] == (row["outcome"] == "used")
        use = {name for name in USE if row[name] is not None}
        if not row["used"]:
            assert not use
        elif row["target_player"] is not None:   # a peek or spy
            assert use <= PEEK_COLUMNS and row["target_position"] is not None
        else:   # a swap
            assert not use & PEEK_COLUMNS and row["swap_player_a"] is not None
    assert any(r["seen"] is not None for r in got)
    assert any(r["swap_player_b"] is not None for r in got)
