"""What a load ends with: its summary, or the exception that says why it stopped (the CLI turns
each into its message and exit code)."""

from __future__ import annotations

import signal
from dataclasses import dataclass, field
from typing import Any


class LoadError(Exception):
    """The load stopped (a worker died, a disk was full). One line for the user; ``committed``
    games were written by the batches completed before."""

    committed = 0

    @classmethod
    def of(cls, exc: BaseException, committed: int, *, database: bool = True
           ) -> LoadError | None:
        """``exc`` as a load error when it says why the load could not go on rather than a
        bug of cabo-log: a worker that died, a file that could not be written or read (an
        ``OSError``: the spool's or the database's disk full, ``ENOSPC``), DuckDB failing to
        write its file or write-ahead log (with ``database``). None for anything else."""
        from cabo_log.workers import WorkerDied

        if isinstance(exc, WorkerDied):
            text = str(exc)
        elif isinstance(exc, OSError):
            reason = exc.strerror or str(exc)
            text = f"{exc.filename}: {reason}" if exc.filename else reason
        elif database and _duckdb_write_error(exc):
            text = f"cannot write the database ({str(exc).splitlines()[0]})"
        else:
            return None
        error = cls(text)
        error.committed = committed
        return error


def _duckdb_write_error(exc: BaseException) -> bool:
    """DuckDB's errors for a file it could not write (a full disk: ``IOException``, or
    ``TransactionException`` when it is the COMMIT's write-ahead log), or the database it
    then gives up on (``FatalException``). Imported lazily: a load that failed before DuckDB
    was imported cannot have one."""
    import sys

    duckdb = sys.modules.get("duckdb")
    if duckdb is None:
        return False
    kinds = (duckdb.IOException, duckdb.TransactionException, duckdb.FatalException)
    return isinstance(exc, kinds)


class NoLogsFound(ValueError):
    """Nothing to load: the paths hold no ``*.jsonl``. Raised before the database is opened,
    so a mistyped folder does not leave an empty database behind."""


class LoadInterrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM (``signum``): the batch in progress was rolled back; ``committed``
    games were written by the batches completed before."""

    def __init__(self, committed: int, signum: int = signal.SIGINT) -> None:
        super().__init__(committed)
        self.committed = committed
        self.signum = signum


@dataclass
class LoadSummary:
    files: int = 0
    loaded: int = 0             # games written (new or replacing an earlier version)
    replaced: int = 0           # of which replaced an earlier version
    in_progress: int = 0        # of which are not finished
    skipped: int = 0            # unchanged files, not replayed
    replayed: int = 0           # files replayed in this load
    events: int = 0             # events of the loaded games
    seconds: float = 0.0
    rejected: list[dict[str, Any]] = field(default_factory=list)

    def exit_code(self, allow_errors: bool = False) -> int:
        return 1 if self.rejected and not allow_errors else 0

    def text(self) -> str:
        parts = [f"loaded {self.loaded} game{'s' if self.loaded != 1 else ''}"]
        details = []
        if self.replaced:
            details.append(f"{self.replaced} replacing an earlier version")
        if self.in_progress:
            details.append(f"{self.in_progress} in progress")
        if details:
            parts[0] += f" ({', '.join(details)})"
        parts.append(f"skipped {self.skipped} unchanged")
        parts.append(f"rejected {len(self.rejected)}")
        rate = f", {self.events / self.seconds:,.0f} events/s" if self.events else ""
        return (", ".join(parts) + f"; {self.events:,} events from {self.replayed} replayed "
                f"file{'s' if self.replayed != 1 else ''} in {self.seconds:.2f} s{rate}")
