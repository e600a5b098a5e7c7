"""Where the load's writer stands, between its writing thread and ``Writer.abort``: one
``Phase`` at a time, changed only along ``ALLOWED`` and under one lock, so that a stop and a
COMMIT never race (a COMMIT interrupted could be written while the load reports it was not).

    IDLE --a batch begins--> WRITING --its COMMIT (or a reattach) begins--> COMMITTING
      ^                       |  |  ^                                         |
      +------written----------+  |  +--------------the COMMIT ended-----------+
                                 +--an error--> FAILED (the batches behind it are not written)
    abort: IDLE, FAILED -> STOPPED; WRITING (interrupted), COMMITTING (let finish) -> STOPPING,
           which becomes STOPPED once its batch ends.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum

import duckdb


class Phase(Enum):
    """What the writer is doing."""

    IDLE = "idle"                # no batch being written: the next may begin
    WRITING = "writing"          # a batch is being written: a stop interrupts it (rolled back)
    COMMITTING = "committing"    # its COMMIT, or the database attached again, runs: a stop
                                 # lets it finish
    FAILED = "failed"            # a batch failed: those queued behind it are not written
    STOPPING = "stopping"        # stopped while a batch was being written: it ends, no other
                                 # begins, no COMMIT starts
    STOPPED = "stopped"          # stopped, no batch being written: nothing more is written


ALLOWED: dict[Phase, frozenset[Phase]] = {
    Phase.IDLE: frozenset({Phase.WRITING, Phase.STOPPED}),
    Phase.WRITING: frozenset({Phase.IDLE, Phase.COMMITTING, Phase.FAILED, Phase.STOPPING}),
    Phase.COMMITTING: frozenset({Phase.WRITING, Phase.STOPPING}),
    Phase.FAILED: frozenset({Phase.STOPPED}),
    Phase.STOPPING: frozenset({Phase.STOPPED}),
    Phase.STOPPED: frozenset(),
}

STOPPED = frozenset({Phase.STOPPING, Phase.STOPPED})   # ``abort`` was called
BUSY = frozenset({Phase.WRITING, Phase.COMMITTING, Phase.STOPPING})   # a batch is being
                                                     # written (even one whose future a signal
                                                     # kept ``submit`` from recording)


class IllegalMove(RuntimeError):
    """A change of phase that ``ALLOWED`` does not list: a bug of the writer."""


class WriterState:
    """The writer's ``Phase``, changed by its writing thread (``begin``, ``end``,
    ``uninterrupted``) and by ``stop`` (``Writer.abort``), each under the lock."""

    def __init__(self) -> None:
        self.phase = Phase.IDLE
        self._lock = threading.Lock()

    def _move(self, to: Phase) -> None:
        if to not in ALLOWED[self.phase]:
            raise IllegalMove(f"the writer cannot go from {self.phase.value} to {to.value}")
        self.phase = to

    @property
    def stopped(self) -> bool:
        """``stop`` was called: the load is being stopped."""
        return self.phase in STOPPED

    @property
    def busy(self) -> bool:
        """A batch is being written."""
        return self.phase in BUSY

    def begin(self) -> bool:
        """A batch is about to be written: whether it may (not after a stop). After a batch
        that failed, raises: what is committed is always every batch up to some number."""
        with self._lock:
            if self.phase in STOPPED:
                return False
            if self.phase is Phase.FAILED:
                raise duckdb.InterruptException("an earlier batch of this load failed")
            self._move(Phase.WRITING)
            return True

    def end(self, failed: bool) -> None:
        """The batch that ``begin`` let through ended (``failed``: with an error)."""
        with self._lock:
            if self.phase is Phase.STOPPING:
                self._move(Phase.STOPPED)
            else:
                self._move(Phase.FAILED if failed else Phase.IDLE)

    @contextmanager
    def uninterrupted(self, what: str) -> Iterator[None]:
        """Run the block (a COMMIT, the database attached again) unless the load is stopping
        (then ``InterruptException``), and let a stop meanwhile wait for it instead of
        interrupting it."""
        with self._lock:
            if self.phase in STOPPED:
                raise duckdb.InterruptException(f"the load was stopped before {what}")
            self._move(Phase.COMMITTING)
        try:
            yield
        finally:
            with self._lock:
                if self.phase is Phase.COMMITTING:
                    self._move(Phase.WRITING)

    def stop(self) -> bool:
        """No batch may begin nor COMMIT start any more; whether the batch being written is to
        be interrupted (one that is committing is let finish)."""
        with self._lock:
            phase = self.phase
            if phase in STOPPED:
                return False
            self._move(Phase.STOPPING if phase in BUSY else Phase.STOPPED)
            return phase is Phase.WRITING


__all__ = ["ALLOWED", "IllegalMove", "Phase", "WriterState"]
