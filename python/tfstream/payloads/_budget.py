"""The byte budget of one decode or one join: what a payload's declared shapes (and the padding
of a join) may make the client allocate, checked before anything is allocated."""

from __future__ import annotations

import operator
from typing import Optional

from tfstream.payloads._types import PayloadError

#: The budget's floor: 64 MiB may always be decoded, however short the payload.
MIN_TOTAL_BYTES = 64 << 20
#: Decoded bytes allowed per byte of payload above the floor (TensorFlow's last-value fill lets
#: one value fill a whole tensor, so a payload's length alone does not bound what it decodes to).
TOTAL_BYTES_PER_PAYLOAD_BYTE = 1024


def default_max_total_bytes(payload_bytes: int) -> int:
    """The default ``max_total_bytes`` for ``payload_bytes`` bytes of payload(s):
    ``max(64 MiB, 1024 * payload_bytes)``."""
    return max(MIN_TOTAL_BYTES, TOTAL_BYTES_PER_PAYLOAD_BYTE * int(payload_bytes))


def limit(max_total_bytes: Optional[int], payload_bytes: int) -> int:
    """``max_total_bytes``, or the default for ``payload_bytes`` when it is None."""
    if max_total_bytes is None:
        return default_max_total_bytes(payload_bytes)
    try:
        value = None if isinstance(max_total_bytes, bool) else operator.index(max_total_bytes)
    except TypeError:
        value = None
    if value is None or value < 0:
        raise ValueError(
            f"max_total_bytes must be None or a non-negative int, got {max_total_bytes!r}")
    return value


def check(total: int, max_total_bytes: Optional[int], payload_bytes: int, what: str) -> None:
    """Raises :class:`PayloadError` when ``total`` bytes are over the budget (``what`` says what
    would have been allocated)."""
    allowed = limit(max_total_bytes, payload_bytes)
    if total > allowed:
        how = (f"max(64 MiB, {TOTAL_BYTES_PER_PAYLOAD_BYTE} x {payload_bytes} payload bytes)"
               if max_total_bytes is None else "given")
        raise PayloadError(
            f"{what} declare {total} bytes in total, more than max_total_bytes {allowed} "
            f"({how}); pass max_total_bytes= to allow more")
