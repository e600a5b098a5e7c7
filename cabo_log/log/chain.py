"""The optional hash chain of a log (FORMAT.md, "Tamper evidence"): ``h`` on every line after the
header is the SHA-256 of the previous line's bytes exactly as stored, without its ``\\n``.

A header that declares ``"chain": "sha256"`` (format 1.1) makes the log chained from line 2
on. Otherwise line 2 decides whether a log is chained: with ``h`` there, every later line must
carry the right ``h``; without it, no later line may carry one. Readers check a line's link
before anything else on it (even ``seq``), so an edited, removed, inserted or reordered line is
reported where the chain first breaks. The head of a chained log is the SHA-256 of its last
line: whoever keeps a copy of it can later prove the log up to there unchanged.
"""

from __future__ import annotations

import hashlib
from typing import Any

import orjson

from engine import InconsistentLogError, LogSyntaxError

CHAIN_FIELD = "h"
DECLARED_FIELD = "chain"   # the header's declaration of its chain (format 1.1)
SHA256 = "sha256"          # the one kind of chain defined
BOM = b"\xef\xbb\xbf"   # a UTF-8 byte-order mark, which FORMAT.md allows at the start of a file


def line_hash(raw: bytes) -> str:
    """The lowercase hex SHA-256 of one stored line (without its newline)."""
    return hashlib.sha256(raw).hexdigest()


def as_stored(data: bytes, number: int, raw: bytes) -> bytes:
    """Line ``number`` of the file ``data`` exactly as stored, given its bytes ``raw`` as a
    reader sees them (a leading BOM skipped). The chain hashes lines as stored, so the first
    line of a file that starts with a BOM keeps it, as ``sha256sum`` of that line would."""
    if number == 1 and data[:3] == BOM and raw[:3] != BOM:
        return BOM + raw
    return raw


def declared(header: dict[str, Any]) -> bool:
    """Whether a header object declares its chain (``"chain": "sha256"``, format 1.1). A
    declared chain makes every later line carry ``h``, so a log that holds only its header
    already says it is chained, and every writer continues the chain without being told."""
    value = header.get(DECLARED_FIELD)
    if value is None:
        return False
    if value != SHA256:
        shown = repr(value) if not isinstance(value, (dict, list)) else type(value).__name__
        raise LogSyntaxError("bad_field", f"game: field 'chain' must be {SHA256!r} (the only "
                             f"chain defined), not {shown[:40]}")
    return True


def declares_chain(raw: bytes) -> bool:
    """``declared`` on a header line's bytes; cheap for the common header that has no
    ``chain`` key (spelled plainly, or escaped, which needs a backslash). A line that is not a
    JSON object declares nothing (the reader reports it)."""
    if b'"chain"' not in raw and b"\\" not in raw:
        return False
    try:
        obj = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return False
    return type(obj) is dict and declared(obj)


def check_link(previous: bytes, obj: dict[str, Any], chained: bool | None) -> bool:
    """Check the ``h`` of one line after the header; returns whether the log is chained.

    ``chained`` is None on line 2 (which decides), then what line 2 decided; True from the
    start when the header declares its chain. Raises
    ``chain_broken`` (an ``InconsistentLogError``) when the line breaks the chain.
    """
    h = obj.get(CHAIN_FIELD)
    if chained is None:
        chained = h is not None
    if not chained:
        if h is not None:
            raise InconsistentLogError(
                "chain_broken", "this line has a hash 'h' but the log is not chained (line 2 "
                "has none): a line was inserted, or the chain was removed above")
        return False
    if h is None:
        raise InconsistentLogError(
            "chain_broken", "this line has no hash 'h', but the log is chained: every line "
            "after the header must carry one")
    if h != line_hash(previous):
        raise InconsistentLogError(
            "chain_broken", "the hash 'h' does not match the line before: that line was "
            "edited or removed, or this line was inserted or moved")
    return True


def may_have_link(raw: bytes) -> bool:
    """Whether a line may hold the key ``h``, decided on its bytes with the verdict its decoded
    keys would give: a key ``h`` is spelled ``"h"`` unless it is written with an escape
    (``"\\u0068"``), which needs a backslash. A line with neither has no ``h``."""
    return b'"h"' in raw or b"\\" in raw


def check_line(previous: bytes, raw: bytes, chained: bool | None) -> bool | None:
    """``check_link`` on a line's bytes, for readers that decode lines their own way. A line
    that is not a JSON object is left to the reader's syntax errors (it has no ``h``); a blank
    line decides nothing."""
    try:
        obj = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return chained
    if type(obj) is not dict:
        return chained
    return check_link(previous, obj, chained)


def link(obj: dict[str, Any], previous: bytes) -> dict[str, Any]:
    """``obj`` with the ``h`` that chains it to ``previous`` (a new dict; ``h`` last)."""
    out = {k: v for k, v in obj.items() if k != CHAIN_FIELD}
    out[CHAIN_FIELD] = line_hash(previous)
    return out
