"""What the database already holds about the files and games of a load, asked a block at a
time, so that the loader never keeps a copy of the ``files`` or ``games`` tables in memory.

The questions go to the loader's own connection, which sees what is committed: the loader
itself remembers the games of the batches it handed to the writer and that are not committed
yet (``loader.Loader``). The rows the loader writes to its own tables (``files``,
``load_errors``) are built here too.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pyarrow as pa

    from cabo_log.db.replay_files import Outcome

FileRow = tuple[int, int, str, str | None, int]    # size, mtime_ns, hash, game_id, events
GameRow = tuple[str, str, bool, int | None, int | None, bool, str | None]
HEADER_BYTES = 1 << 20   # ``header_game_id`` reads at most this much for the first line


SCAN_GAMES = 200_000     # a database holding at most this many games is read into ``Seen``


class Seen:
    """The game ids the database may hold, as a Bloom filter of fixed size (``BITS``): a game
    id not in it is surely not in the database, so most chunks of a load need not ask.
    Asking costs a scan of ``games`` per chunk (~6 ms of CPU at 2,000 games, growing with the
    table), and blocks the loader meanwhile (the writer's append holds DuckDB's locks). Eight
    MiB whatever the games, so memory stays flat; wrong "maybe" answers only cost the question
    they would have cost anyway: about 1 in 10^7 at 300,000 games, 1 in 90,000 at 1,000,000
    (the 4 MiB and 3 hashes of before: 1 in 54,000 and 1 in 1,600, ~600 scans of a million
    games' table in a load of a million)."""

    BITS = 1 << 26
    HASHES = 4

    def __init__(self) -> None:
        self.bits = bytearray(self.BITS >> 3)

    def _positions(self, game_id: str) -> Iterator[int]:
        h = hash(game_id) & 0xFFFF_FFFF_FFFF_FFFF    # str hashes are fixed in a process
        first, step = h & 0xFFFF_FFFF, (h >> 32) | 1
        mask = self.BITS - 1
        return ((first + i * step) & mask for i in range(self.HASHES))

    def add(self, game_id: str) -> None:
        bits = self.bits
        for p in self._positions(game_id):
            bits[p >> 3] |= 1 << (p & 7)

    def __contains__(self, game_id: str) -> bool:
        bits = self.bits
        return all(bits[p >> 3] & (1 << (p & 7)) for p in self._positions(game_id))


class Known:
    def __init__(self, con: Any, stamp: int, *, new: bool = False) -> None:
        self.con = con          # (None until a new database is open: see ``new``)
        self.stamp = stamp      # ``loaded_at`` (µs) of the ``files`` rows this load writes
        self.new = new          # the database did not exist when the load began: it holds
                                # no file but those this load writes, each listed once, so
                                # ``files`` and ``with_errors`` need not ask it
        self.seen: Seen | None = None   # made on the first ``games`` question
        self.scanned = False
        self.lock: AbstractContextManager[Any] = nullcontext()   # held while asking: the
                                # writer may attach the database again meanwhile otherwise
                                # (``writer.Writer.reopening``)

    def _ask(self, sql: str, params: dict[str, Any] | None = None) -> list[Any]:
        with self.lock:
            return self.con.execute(sql, params).fetchall()  # type: ignore[no-any-return]

    def saw(self, game_id: str) -> None:
        """This load writes (or keeps) this game: the database may hold it from now on."""
        if self.seen is not None:
            self.seen.add(game_id)

    def files(self, paths: Sequence[str]) -> dict[str, FileRow]:
        """path -> its ``files`` row, for those of ``paths`` loaded before."""
        if self.new:
            return {}
        rows = self._ask(
            "SELECT path, size, mtime_ns, hash, game_id, events FROM files "
            "WHERE path IN (SELECT unnest($p))", {"p": list(paths)})
        return {row[0]: tuple(row[1:]) for row in rows}

    def with_errors(self, paths: Sequence[str]) -> set[str]:
        """Those of ``paths`` that have ``load_errors`` rows (replayed again, whatever their
        size and mtime say)."""
        if self.new:
            return set()
        return {row[0] for row in self._ask(
            "SELECT DISTINCT file FROM load_errors WHERE file IN (SELECT unnest($p))",
            {"p": list(paths)})}

    def games(self, game_ids: Sequence[str]) -> list[GameRow]:
        """For those of ``game_ids`` the database holds: (game_id, the file it came from,
        whether this load wrote that file's row, the file's size and mtime as loaded, whether
        the file has ``load_errors`` rows, the hash of the file the game was loaded from).
        Asked in two steps, each a scan that looks the few ids or paths up in a hash of its
        own: a single join of ``games`` and ``files`` had DuckDB hash one of the whole tables
        (33 MB of memory at 300,000 games, growing with them)."""
        game_ids = self._maybe_held(game_ids)
        if not game_ids:
            return []
        found = self._ask(
            "SELECT game_id, source_file, file_hash FROM games "
            "WHERE game_id IN (SELECT unnest($ids))", {"ids": list(game_ids)})
        paths = sorted({path for _, path, _ in found if path is not None})
        files: dict[str, tuple[bool, int | None, int | None]] = {}
        errors: set[str] = set()
        if paths:
            files = {path: (bool(this_run), size, mtime_ns) for path, this_run, size, mtime_ns
                     in self._ask(
                         "SELECT path, coalesce(epoch_us(loaded_at) = $stamp, false), size, "
                         "mtime_ns FROM files WHERE path IN (SELECT unnest($p))",
                         {"p": paths, "stamp": self.stamp})}
            errors = {row[0] for row in self._ask(
                "SELECT DISTINCT file FROM load_errors WHERE file IN (SELECT unnest($p))",
                {"p": paths})}
        rows: list[GameRow] = []
        for game_id, path, digest in found:
            this_run, size, mtime_ns = files.get(path, (False, None, None))
            rows.append((game_id, path, this_run, size, mtime_ns, path in errors, digest))
        return rows

    def _maybe_held(self, game_ids: Sequence[str]) -> Sequence[str]:
        """Those of ``game_ids`` the database may hold. The first time, the game ids of a
        database of at most ``SCAN_GAMES`` games are read into ``seen`` (a bigger one is
        asked every time, as reading it would cost more than a load of a few files saves);
        from then on the loader reports each game it writes (``saw``)."""
        if not self.scanned:
            self.scanned = True
            count = self._ask("SELECT count(*) FROM games")[0][0]
            if count <= SCAN_GAMES:
                self.seen = Seen()
                with self.lock:
                    cursor = self.con.execute("SELECT game_id FROM games")
                    while rows := cursor.fetchmany(10_000):
                        for (game_id,) in rows:
                            self.seen.add(game_id)
        seen = self.seen
        return game_ids if seen is None else [g for g in game_ids if g in seen]


# --- the loader's own rows ---------------------------------------------------------------------

def unchanged_on_disk(path: str, size: int | None, mtime_ns: int | None) -> bool:
    """The file is as it was loaded (same size and mtime): a load skips it."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    return st.st_size == size and st.st_mtime_ns == mtime_ns


def header_game_id(path: str) -> str | None:
    """The ``game_id`` of the header of the file at ``path`` as it is now, or None when there
    is no such file, it is not a regular file, or its first line is no header with a game id:
    whether a file loaded before still holds a game (``loader.Loader.handle``). Reads the
    first line only (at most ``HEADER_BYTES``), without waiting on a FIFO."""
    import orjson

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        head = b""
        while b"\n" not in head and len(head) < HEADER_BYTES:
            part = os.read(fd, 65536)
            if not part:
                break
            head += part
    except OSError:
        return None
    finally:
        os.close(fd)
    first = head.split(b"\n", 1)[0].removeprefix(b"\xef\xbb\xbf")
    try:
        header = orjson.loads(first)
    except orjson.JSONDecodeError:
        return None
    game_id = header.get("game_id") if isinstance(header, dict) else None
    return game_id if isinstance(game_id, str) else None


def without_games(batches: dict[str, list[pa.RecordBatch]], game_ids: list[str]
             ) -> dict[str, list[pa.RecordBatch]]:
    import pyarrow as pa
    import pyarrow.compute as pc

    drop = pa.array(game_ids, pa.string())
    return {table: [b.filter(pc.invert(pc.is_in(b.column("game_id"), value_set=drop)))
                    for b in items]
            for table, items in batches.items()}


def files_batch(files: list[Outcome], stamp: int | None = None) -> pa.RecordBatch:
    import pyarrow as pa

    from cabo_log.db.database import LOADER_SCHEMAS

    schema = LOADER_SCHEMAS["files"]
    now = pa.scalar(time.time_ns() // 1000 if stamp is None else stamp, schema.field(-1).type)
    # the columns but ``loaded_at`` as one struct array: one conversion of a tuple per file
    # (a ``pa.array`` per column cost the parent 7x as much, ~0.2 ms a chunk)
    columns = pa.array([(f.path, f.size, f.mtime_ns, f.hash, f.game_id, f.events)
                        for f in files], pa.struct(list(schema)[:-1])).flatten()
    return pa.RecordBatch.from_arrays([*columns, pa.repeat(now, len(files))], schema=schema)


def errors_batch(errors: list[dict[str, Any]]) -> pa.RecordBatch:
    import pyarrow as pa

    from cabo_log.db.database import LOADER_SCHEMAS

    schema = LOADER_SCHEMAS["load_errors"]
    return pa.RecordBatch.from_arrays(
        [pa.array([e.get(f.name) for e in errors], f.type) for f in schema], schema=schema)
