"""The tuning of a load, in one frozen value passed down from ``load.load_paths`` (and
``cluster.load_cluster``) to the loader, the writer, the workers and the load's DuckDB
connection: no module of the load keeps a tunable of its own, so a test or a benchmark that
wants small chunks or a commit every few rows says so in the call (``LoadSettings(...)``) and
never changes a module for every load that follows.

Each default says why it is what it is; ``dataclasses.replace(settings, name=value)`` makes a
variant.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LoadSettings:
    """Every tunable of a load, with the reason for its default in the attribute's docstring."""

    # --- the parent: how the files are planned and handed out ---------------------------------
    plan_block: int = 1024
    """Files stat'ed and looked up in the database at a time: one query per block instead of
    one per file, and the parent's memory bounded by a block, not by the number of files."""

    chunk_bytes: int = 2 << 20
    """About this much log text per task sent to a worker: big enough that a task's fixed cost
    is small beside its replay, small enough that the results come back steadily and the
    writer never waits long for rows. That cost is ~5 ms of a worker's CPU a task, whatever
    its size (each table's columns handed to Arrow, a spool file, a pickle, a result to map),
    beside ~35 ms of replay a megabyte: at 2 MB a load of 2,000 files took ~5-10 % less CPU
    than at 1 MB, for ~35 MB more peak memory (each task's rows, waiting for the writer, are
    twice as big)."""

    chunk_files: int = 256
    """And at most this many files per task: many tiny logs make a chunk of few bytes but much
    per-file work (a stat, a hash, a ``files`` row each)."""

    inline_bytes: int = 2 << 20
    """Below this much changed log text, replay in this process: starting the workers costs
    more than they would save on so little."""

    flush_rows: int = 20_000
    """Rows handed to the writer at a time (about a chunk's); once every chunk is handed out,
    every result is handed as it comes, and the writer appends them when it sees fit
    (``writer.Batch.to_come``)."""

    worker_nice: int = 10
    """The workers' niceness: the writer, the one serial stage, gets a core whenever it has
    rows; at niceness 0 it fell behind, with ~0.5-0.8 s of appends left after the last chunk
    (docs/workers.md)."""

    spool_buffer: int = 1 << 20
    """Bytes a worker gathers before each write to its spool file: few system calls, and a
    chunk's rows (about a megabyte of Arrow) written in one or two."""

    scan_games: int = 200_000
    """A database holding at most this many games has their ids read once into memory
    (``known.Known``); a bigger one is asked chunk by chunk, as reading it all would cost more
    than a load of a few files saves."""

    arrow_memory_pool: str = "system"
    """The allocator of Arrow's buffers in the load's processes (``ARROW_DEFAULT_MEMORY_POOL``,
    unless the environment names one: ``load._arrow_allocator``), one of
    ``pyarrow.supported_memory_backends()``; "" leaves Arrow's default. That default,
    mimalloc, gave each chunk's short-lived buffers freshly mapped memory (huge pages, zeroed
    whole when faulted in) and kept more of it: with the C library's allocator the process
    tree of a load of 2,000 files peaked ~65 MB lower (~300 MB instead of ~370 MB), its CPU
    time the same within the noise of a busy machine (0-3 % less)."""

    # --- the writer: what a transaction holds and when it commits -----------------------------
    commit_rows: int = 1_000_000
    """The writer commits once a transaction holds this many rows: enough for each ``events``
    table to get whole row groups, which DuckDB writes straight to the file (a smaller part
    goes through the write-ahead log and is written again by the checkpoint). What a
    transaction holds is also what the loader's memory grows by (its games remembered until
    committed), so it is no bigger than that. 0: every submitted batch commits at once."""

    checkpoint_rows: int = 1_000_000
    """Committed rows folded into the database file, and the file attached again, every this
    many (``Writer._checkpoint``): until then DuckDB keeps the metadata of every row group
    written, and a load's memory would grow with its games. 0: DuckDB decides."""

    defer_rows: int = 50_000
    """A table's rows fewer than this wait in the transaction for more (``Writer._holds_back``):
    each append costs DuckDB ~1-2 ms whatever its size, and a load submits a batch of about a
    dozen tables per chunk of files."""

    held_bytes: int = 4 << 20
    """And a table's rows held are appended once they are this big: a small table (a
    ``games`` row per game, ~300 bytes) would otherwise hold up to ``defer_rows`` rows, and a
    load's memory grow with its games."""

    held_mapped: int = 8
    """A table's held batches that may still be read from the spool (``Writer._own_held``):
    each keeps its whole spool file mapped, so more are copied out into one."""

    drop_rows: int = 250_000
    """Rows appended between two drops of DuckDB's block cache inside a transaction
    (``load_connection.drop_cache``): a table's blocks cached meanwhile stay around 3 MB."""

    queued: int = 8
    """Batches submitted and not yet written that ``Writer.submit`` lets wait behind the one
    being written before it waits itself: a loader blocked in ``submit`` hands the workers no
    new chunks, and those that finish meanwhile sit idle (eight batches of ``flush_rows`` are
    ~30 MB of mapped Arrow)."""

    # --- the load's DuckDB connection ---------------------------------------------------------
    duckdb_memory: str = "128MB"
    """DuckDB's cache of the tables it wrote: of no use to a load, whose batches are appended
    and never read back (what does not fit waits in a temporary file until its commit); at
    64MB its buffer pool gave pages back and faulted them in again all the time (~12 % more
    CPU for the append)."""

    wal_bytes: str = "4GB"
    """DuckDB's write-ahead log may grow this big before a checkpoint: no checkpoint inside a
    COMMIT, which a stop would have to wait for; the load folds the log in when it closes."""

    row_group_size: int = 16_384
    """Rows of a row group (DuckDB's default 122,880): a load's last COMMIT and the checkpoint
    at close compress each table's last partial row group on one core while the workers are
    done, so smaller groups leave less of that serial work (the file ~2 % bigger)."""

    write_buffer_row_groups: int = 1
    """Full row groups DuckDB keeps in memory before it writes them together (its default 5,
    for writing them in parallel, which a load with one DuckDB thread does not do): whatever
    is kept is compressed by the COMMIT, the last of which runs on one core at the end."""

    cache_slack: int = 1 << 20
    """Bytes over what DuckDB holds besides its cached table blocks that
    ``load_connection.drop_cache`` lets it keep for a moment."""


DEFAULTS = LoadSettings()   # what a load runs with unless its caller says otherwise (frozen:
                            # a default argument no call can change for the next)

__all__ = ["DEFAULTS", "LoadSettings"]
