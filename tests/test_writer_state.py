"""The load writer's phases (``writer_state``): every change goes along ``ALLOWED``, a stop
interrupts a batch being written but lets a COMMIT finish and then refuses the next, and a
failed batch fails those behind it."""

from __future__ import annotations

import duckdb
import pytest

from cabo_log.db.writer_state import ALLOWED, IllegalMove, Phase, WriterState


def test_every_phase_has_its_moves_and_is_reachable_from_idle() -> None:
    assert set(ALLOWED) == set(Phase)
    reached, frontier = {Phase.IDLE}, [Phase.IDLE]
    while frontier:
        for to in ALLOWED[frontier.pop()]:
            if to not in reached:
                reached.add(to)
                frontier.append(to)
    assert reached == set(Phase)
    assert ALLOWED[Phase.STOPPED] == frozenset()   # the end: nothing more is written


def test_a_batch_written_then_another() -> None:
    state = WriterState()
    assert state.begin() and state.phase is Phase.WRITING and state.busy
    with state.uninterrupted("this commit"):
        assert state.phase is Phase.COMMITTING
    assert state.phase is Phase.WRITING
    state.end(failed=False)
    assert state.phase is Phase.IDLE and not state.busy and not state.stopped
    assert state.begin()


def test_a_failed_batch_fails_the_next_and_a_stop_then_ends_it() -> None:
    state = WriterState()
    state.begin()
    state.end(failed=True)
    assert state.phase is Phase.FAILED
    with pytest.raises(duckdb.InterruptException, match="an earlier batch"):
        state.begin()
    assert state.stop() is False and state.phase is Phase.STOPPED


def test_a_stop_interrupts_a_batch_being_written_and_no_commit_starts_after() -> None:
    state = WriterState()
    state.begin()
    assert state.stop() is True        # interrupt it
    assert state.phase is Phase.STOPPING and state.busy and state.stopped
    with pytest.raises(duckdb.InterruptException, match="stopped before this commit"):
        with state.uninterrupted("this commit"):
            pytest.fail("a COMMIT started after the stop")
    state.end(failed=True)
    assert state.phase is Phase.STOPPED and not state.busy
    assert state.begin() is False      # the batches queued behind it are not written
    assert state.stop() is False       # a second stop changes nothing


def test_a_stop_during_a_commit_lets_it_finish() -> None:
    state = WriterState()
    state.begin()
    with state.uninterrupted("this commit"):
        assert state.stop() is False   # not interrupted
        assert state.phase is Phase.STOPPING
    assert state.phase is Phase.STOPPING   # the batch goes on to its end, nothing else starts
    state.end(failed=False)
    assert state.phase is Phase.STOPPED


def test_a_stop_while_idle_stops_at_once() -> None:
    state = WriterState()
    assert state.stop() is False and state.phase is Phase.STOPPED


def test_a_move_not_listed_is_refused() -> None:
    state = WriterState()
    with pytest.raises(IllegalMove, match="from idle to committing"):
        with state.uninterrupted("this commit"):
            pass
    assert state.phase is Phase.IDLE
