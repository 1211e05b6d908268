"""TFRecord framing: reading records with both CRCs checked, compression detected as
``tfstream`` and TensorFlow's readers do; writing (for tests and tools)."""

from __future__ import annotations

import gzip
import io
import os
import struct
import zlib
from typing import BinaryIO, Iterator, Optional, Tuple

from tfstream.payloads._crc32c import masked_crc32c
from tfstream.payloads._types import CorruptFileError

NONE, GZIP, ZLIB = "none", "gzip", "zlib"


def detect_compression(path: str) -> str:
    """``.gz`` gzip, ``.zlib``/``.zz`` zlib; otherwise gzip or zlib by their magic bytes only
    when the first record header's CRC does not validate as an uncompressed TFRecord."""
    name = os.fspath(path)
    if name.endswith(".gz"):
        return GZIP
    if name.endswith((".zlib", ".zz")):
        return ZLIB
    with open(name, "rb") as f:
        head = f.read(12)
    if len(head) == 12 and struct.unpack("<I", head[8:])[0] == masked_crc32c(head[:8]):
        return NONE
    if head[:2] == b"\x1f\x8b":
        return GZIP
    if len(head) >= 2 and head[0] & 0x0F == 8 and (head[0] << 8 | head[1]) % 31 == 0:
        return ZLIB
    return NONE


class _ZlibReader(io.RawIOBase):
    """A zlib stream decompressed as it is read."""

    def __init__(self, raw: BinaryIO):
        self._raw = raw
        self._z = zlib.decompressobj()
        self._buf = b""

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        while not self._buf:
            chunk = self._raw.read(1 << 16)
            if not chunk:
                self._buf = self._z.flush()
                if not self._buf:
                    return 0
                break
            self._buf = self._z.decompress(chunk)
        n = min(len(b), len(self._buf))
        b[:n] = self._buf[:n]
        self._buf = self._buf[n:]
        return n


def _open(path: str, compression: str) -> BinaryIO:
    raw = open(path, "rb")
    if compression == GZIP:
        return gzip.GzipFile(fileobj=raw, mode="rb")
    if compression == ZLIB:
        return io.BufferedReader(_ZlibReader(raw), 1 << 16)
    return raw


def records(
    path, compression: str = "auto", max_record_bytes: int = 1 << 30
) -> Iterator[Tuple[int, bytes]]:
    """``(byte offset, data)`` of every record of a TFRecord file, both CRCs checked.

    Offsets are in the decompressed stream for compressed files. A damaged or truncated record
    raises :class:`CorruptFileError` naming the file, the offset and the record index; a length
    over ``max_record_bytes`` is reported before anything is allocated.
    """
    path = os.fspath(path)
    if compression == "auto":
        compression = detect_compression(path)
    if compression not in (NONE, GZIP, ZLIB):
        raise ValueError(f"compression must be auto, none, gzip or zlib, got {compression!r}")
    where = path if compression == NONE else f"{path} ({compression}, decompressed offsets)"
    offset = 0
    index = 0
    with _open(path, compression) as f:
        while True:
            try:
                header = f.read(12)
            except (OSError, EOFError, zlib.error) as e:
                raise CorruptFileError(where, offset, index, f"cannot decompress: {e}") from e
            if not header:
                return
            if len(header) < 12:
                raise CorruptFileError(
                    where, offset, index, f"truncated header ({len(header)} of 12 bytes)"
                )
            length, length_crc = struct.unpack("<QI", header)
            if masked_crc32c(header[:8]) != length_crc:
                raise CorruptFileError(
                    where, offset, index, f"length CRC mismatch (stored 0x{length_crc:08x})"
                )
            if length > max_record_bytes:
                raise CorruptFileError(
                    where, offset, index,
                    f"record length {length} exceeds max_record_bytes ({max_record_bytes})",
                )
            try:
                body = f.read(length + 4)
            except (OSError, EOFError, zlib.error) as e:
                raise CorruptFileError(where, offset, index, f"cannot decompress: {e}") from e
            if len(body) < length + 4:
                raise CorruptFileError(
                    where, offset, index,
                    f"truncated record ({len(body)} of {length + 4} bytes after the header)",
                )
            data = body[:length]
            (data_crc,) = struct.unpack("<I", body[length:])
            actual = masked_crc32c(data)
            if actual != data_crc:
                raise CorruptFileError(
                    where, offset, index,
                    f"data CRC mismatch (stored 0x{data_crc:08x}, computed 0x{actual:08x})",
                )
            yield offset, data
            offset += 16 + length
            index += 1


def frame(data: bytes) -> bytes:
    """One TFRecord record: length, masked CRC of the length, data, masked CRC of the data."""
    length = struct.pack("<Q", len(data))
    return (
        length
        + struct.pack("<I", masked_crc32c(length))
        + data
        + struct.pack("<I", masked_crc32c(data))
    )


def write_records(path, datas, compression: Optional[str] = None) -> None:
    """Writes ``datas`` as a TFRecord file (``compression`` none, gzip or zlib)."""
    blob = b"".join(frame(d) for d in datas)
    if compression == GZIP:
        blob = gzip.compress(blob)
    elif compression == ZLIB:
        blob = zlib.compress(blob)
    with open(path, "wb") as f:
        f.write(blob)
