"""CRC32C (Castagnoli) and TFRecord's masked CRC. Uses the ``crc32c`` or ``google_crc32c``
module when one is installed (C speed); otherwise a pure-Python table (about 10 MB/s)."""

from __future__ import annotations

_MASK_DELTA = 0xA282EAD8


def _table():
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_TABLE = _table()


def _crc32c_python(data: bytes) -> int:
    crc = 0xFFFFFFFF
    table = _TABLE
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def _pick():
    try:  # ICRAR's crc32c (Debian: python3-crc32c)
        import crc32c as _c

        return lambda data: _c.crc32c(data), "crc32c"
    except ImportError:
        pass
    try:
        import google_crc32c as _g

        return lambda data: _g.value(bytes(data)), "google_crc32c"
    except ImportError:
        pass
    return _crc32c_python, "python"


crc32c, IMPLEMENTATION = _pick()


def masked_crc32c(data: bytes) -> int:
    """TFRecord's masked CRC32C of ``data`` (tensorflow/core/lib/hash/crc32c.h ``Mask``)."""
    crc = crc32c(data)
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + _MASK_DELTA) & 0xFFFFFFFF
