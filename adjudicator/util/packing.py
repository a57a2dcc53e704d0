"""A file sent compressed: gzip, written the same way every time, read back with a limit.

The game's state travels in every report mail for ``maester check`` (ruling 316); compressed, it is a
quarter of its size. Written without a time stamp, so that the same state gives the same bytes (a
mail rebuilt from the reports is byte for byte the one sent), and read with a bound on what it may
grow to, so that a file made to expand without end is refused, not read.

>>> unpacked(packed(b'{"state": {}}'), limit=100)
b'{"state": {}}'
>>> unpacked(b'{"plain": true}', limit=100)  # not compressed: as it is
b'{"plain": true}'
"""

from __future__ import annotations

import gzip
import zlib

GZIP_MAGIC = b"\x1f\x8b"


class PackingError(ValueError):
    """A compressed file that cannot be read back: damaged, cut short, or larger than allowed."""


def packed(data: bytes) -> bytes:
    """``data`` compressed as a gzip file, with no time stamp or name in it."""
    return gzip.compress(data, compresslevel=9, mtime=0)


def unpacked(data: bytes, *, limit: int) -> bytes:
    """The bytes of a gzip file (``data`` itself when it is not one), at most ``limit`` of them.

    :raises PackingError: for a damaged or cut gzip file, or one that grows beyond ``limit``.
    """
    if data[:2] != GZIP_MAGIC:
        return data
    out, rest = bytearray(), data
    while rest[:2] == GZIP_MAGIC:  # a gzip file may hold several members, one after the other
        d = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
        try:
            out += d.decompress(rest, limit + 1 - len(out))
        except zlib.error as e:
            raise PackingError(f"the compressed file is damaged ({e})") from None
        if len(out) > limit:
            raise PackingError(f"it grows beyond {limit:,} bytes when uncompressed")
        if not d.eof:
            raise PackingError("the compressed file is cut short")
        rest = d.unused_data
    return bytes(out)
