"""``librt.strings``'s byte buffer and number writers, in plain Python: what the pure build
uses when mypyc's runtime library is not installed (``byte_buffers`` chooses)."""

from __future__ import annotations

import struct

_I16 = struct.Struct("<h")
_I32 = struct.Struct("<i")
_I64 = struct.Struct("<q")


class BytesWriter(bytearray):
    """A growable byte buffer with ``librt.strings.BytesWriter``'s methods (``append`` and
    ``len`` come from ``bytearray``)."""

    def write(self, b: bytes | bytearray, /) -> None:
        """Append the bytes ``b``."""
        self.extend(b)

    def getvalue(self) -> bytes:
        """The bytes written so far."""
        return bytes(self)

    def truncate(self, size: int, /) -> None:
        """Keep only the first ``size`` bytes."""
        del self[size:]


def write_i16_le(b: BytesWriter, n: int, /) -> None:
    """Append ``n`` as a little-endian signed 16-bit integer."""
    b.extend(_I16.pack(n))


def write_i32_le(b: BytesWriter, n: int, /) -> None:
    """Append ``n`` as a little-endian signed 32-bit integer."""
    b.extend(_I32.pack(n))


def write_i64_le(b: BytesWriter, n: int, /) -> None:
    """Append ``n`` as a little-endian signed 64-bit integer."""
    b.extend(_I64.pack(n))


def read_i64_le(b: bytes, index: int, /) -> int:
    """The little-endian signed 64-bit integer at ``index`` of ``b``."""
    value: int = _I64.unpack_from(b, index)[0]
    return value


def read_i32_le(b: bytes, index: int, /) -> int:
    """The little-endian signed 32-bit integer at ``index`` of ``b``."""
    value: int = _I32.unpack_from(b, index)[0]
    return value
