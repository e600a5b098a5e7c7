"""What the database already holds about the files and games of a load, asked a block at a
time, so that the loader never keeps a copy of the ``files`` or ``games`` tables in memory.

The questions go to the loader's own connection, which sees what is committed: the loader
itself remembers the games of the batches it handed to the writer and that are not committed
yet (``load._Loader``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

FileRow = tuple[int, int, str, str | None, int]    # size, mtime_ns, hash, game_id, events
GameRow = tuple[str, str, bool, int | None, int | None, bool]


class Known:
    def __init__(self, con: Any, stamp: int) -> None:
        self.con = con
        self.stamp = stamp      # ``loaded_at`` (µs) of the ``files`` rows this load writes

    def files(self, paths: Sequence[str]) -> dict[str, FileRow]:
        """path -> its ``files`` row, for those of ``paths`` loaded before."""
        rows = self.con.execute(
            "SELECT path, size, mtime_ns, hash, game_id, events FROM files "
            "WHERE path IN (SELECT unnest($p))", {"p": list(paths)}).fetchall()
        return {row[0]: tuple(row[1:]) for row in rows}

    def with_errors(self, paths: Sequence[str]) -> set[str]:
        """Those of ``paths`` that have ``load_errors`` rows (replayed again, whatever their
        size and mtime say)."""
        return {row[0] for row in self.con.execute(
            "SELECT DISTINCT file FROM load_errors WHERE file IN (SELECT unnest($p))",
            {"p": list(paths)}).fetchall()}

    def games(self, game_ids: Sequence[str]) -> list[GameRow]:
        """For those of ``game_ids`` the database holds: (game_id, the file it came from,
        whether this load wrote that file's row, the file's size and mtime as loaded, whether
        the file has ``load_errors`` rows)."""
        if not game_ids:
            return []
        return [tuple(row) for row in self.con.execute(
            "SELECT g.game_id, g.source_file, coalesce(epoch_us(f.loaded_at) = $stamp, false), "
            "f.size, f.mtime_ns, "
            "EXISTS (SELECT 1 FROM load_errors e WHERE e.file = g.source_file) "
            "FROM games g LEFT JOIN files f ON f.path = g.source_file "
            "WHERE g.game_id IN (SELECT unnest($ids))",
            {"ids": list(game_ids), "stamp": self.stamp}).fetchall()]
