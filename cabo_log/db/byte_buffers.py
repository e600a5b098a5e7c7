"""The growable byte buffers the load's row stage writes fixed-width numbers into.

The compiled build uses mypyc's runtime library (``librt.strings``): there each write is a
direct call into C with no Python object made for the number. The pure build does not need
that library: without it, the same names are defined here on ``bytearray``, with the same
results byte for byte (tests/test_byte_buffers.py compares the two).
"""

from __future__ import annotations

try:
    from librt.strings import (
        BytesWriter,
        read_i32_le,
        read_i64_le,
        write_i16_le,
        write_i32_le,
        write_i64_le,
    )
except ImportError:  # pure Python without mypyc's runtime library
    from cabo_log.db.pure_buffers import (  # type: ignore[assignment]
        BytesWriter,
        read_i32_le,
        read_i64_le,
        write_i16_le,
        write_i32_le,
        write_i64_le,
    )

__all__ = ["BytesWriter", "read_i32_le", "read_i64_le", "write_i16_le", "write_i32_le",
           "write_i64_le"]
