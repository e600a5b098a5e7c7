"""The log files a load reads, listed as a stream: the same files in the same order as
``logfile.find_logs`` (files as given, folders searched recursively for ``*.jsonl``, sorted,
no repeats), without holding the whole list. ``recurse=False`` (``load --no-recurse``) takes
only the logs directly in each folder given, none of its subfolders'.

A load of 100,000 files must not keep 100,000 paths (and as many ``Path`` objects and resolved
keys) in memory to start: the folders are walked depth first with each folder's entries sorted
by name, which is exactly the order of sorting the full paths part by part. Only a folder's
own entries are held while it is walked. Repeats can only come from arguments that overlap
(the same folder twice, a folder inside another, a file inside a folder given too): only then
are the resolved paths of all files remembered. Otherwise only symbolic links to files can
repeat a file: a link to a file the listing holds under its own path is left out (whichever
comes first: ``find_logs`` keeps the first), and links to the same file count once.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence

SUFFIX = ".jsonl"


def iter_logs(paths: Iterable[str | os.PathLike[str]], recurse: bool = True) -> Iterator[str]:
    """The absolute path of every log, in ``find_logs`` order, one at a time."""
    return walk_logs([os.path.abspath(p) for p in paths], recurse)


def walk_logs(paths: Iterable[str | os.PathLike[str]], recurse: bool = True) -> Iterator[str]:
    """``iter_logs`` with each path under its argument as given (relative stays relative):
    the one listing of logs, for ``find_logs`` too.

    A link that leads nowhere (to itself or round a loop, to a missing file) is a log that
    cannot be read, never a repeat: it is listed, and its reader reports it ``unreadable``."""
    roots = [os.fspath(p) for p in paths]
    seen: set[str] | None = set() if _overlap(roots) else None
    real = listed_in([os.path.realpath(r) for r in roots], recurse)
    links: set[str] = set()
    for root in roots:
        for path, link in _walk(root, recurse) if os.path.isdir(root) else iter([(root, False)]):
            key = _resolved(path) if seen is not None or link else None
            if seen is not None:
                key = key or os.path.abspath(path)
                if key in seen:
                    continue
                seen.add(key)
            elif key is not None:
                if key in links or real(key):
                    continue
                links.add(key)
            yield path


def _resolved(path: str) -> str | None:
    """Where ``path`` leads, all links followed; None when it leads nowhere."""
    try:
        os.stat(path)
    except OSError:
        return None
    return os.path.realpath(path)


def count_logs(paths: Sequence[str | os.PathLike[str]], recurse: bool = True) -> int:
    """How many paths ``iter_logs`` gives (a walk of the folders, nothing kept)."""
    return sum(1 for _ in iter_logs(paths, recurse))


def survey_logs(paths: Sequence[str | os.PathLike[str]], enough: int,
                recurse: bool = True) -> tuple[int, bool]:
    """How many paths ``iter_logs`` gives, and whether their files hold at least ``enough``
    bytes (only the first files are stat'ed, until they do: a load decides from it, before
    it opens the database, whether to start its worker processes at once)."""
    count = size = 0
    for path in iter_logs(paths, recurse):
        count += 1
        if size < enough:
            try:
                size += os.stat(path).st_size
            except OSError:
                pass
    return count, size >= enough


def holds_at_least(paths: Sequence[str | os.PathLike[str]], enough: int) -> bool:
    """Whether the files ``iter_logs`` gives hold at least ``enough`` bytes: ``survey_logs``
    without the count, so without walking past the first files that do."""
    size = 0
    for path in iter_logs(paths):
        try:
            size += os.stat(path).st_size
        except OSError:
            continue
        if size >= enough:
            return True
    return False


def blocks(paths: Iterable[str], size: int) -> Iterator[list[str]]:
    """``paths`` in lists of ``size`` (the last one shorter), one list held at a time."""
    block: list[str] = []
    for path in paths:
        block.append(path)
        if len(block) >= size:
            yield block
            block = []
    if block:
        yield block


def listed_in(paths: Sequence[str | os.PathLike[str]],
              recurse: bool = True) -> Callable[[str], bool]:
    """A test: would ``iter_logs(paths, recurse)`` give this absolute path? (Without
    walking.)"""
    roots = [os.path.abspath(p) for p in paths]
    folders = tuple(r.rstrip(os.sep) + os.sep for r in roots if os.path.isdir(r))
    files = frozenset(r for r in roots if not os.path.isdir(r))

    def listed(path: str) -> bool:
        if path in files:
            return True
        if not (path.endswith(SUFFIX) and path.startswith(folders)):
            return False
        return recurse or os.path.dirname(path) + os.sep in folders

    return listed


def _walk(folder: str, recurse: bool = True) -> Iterator[tuple[str, bool]]:
    """(path, whether it is a symbolic link) of each ``*.jsonl`` under ``folder``, depth
    first, each folder's entries by name; links to folders are not followed (as
    ``Path.rglob``). Without ``recurse``, the folder's own logs only."""
    try:
        with os.scandir(folder) as it:
            entries = sorted((e.name, _is_folder(e), e.is_symlink()) for e in it)
    except OSError:
        return
    for name, is_folder, link in entries:
        path = os.path.join(folder, name)
        if name.endswith(SUFFIX):
            yield path, link
        if is_folder and recurse:
            yield from _walk(path)


def _is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir() and not entry.is_symlink()
    except OSError:
        return False


def _overlap(roots: list[str]) -> bool:
    """Can two arguments give the same file? (equal, or one inside the other, once resolved)"""
    real = [os.path.realpath(r).rstrip(os.sep) + os.sep for r in roots]
    return len(set(real)) < len(real) or any(
        a != b and b.startswith(a) for a in real for b in real)
