"""Decoding the tfstream job's tensor payloads (``tfstream.v1.TensorBatch``) with numpy.

- :func:`decode`: one payload -> :class:`Batch` (features by feature name).
- :func:`read_file`: every payload of a TFRecord file of payloads (``batches.tfrecord``).
- :func:`assemble`: the parts of a batch split by size, or the payloads of an event-time window,
  put back together.
- :func:`concat`, :func:`rebatch`: batches joined, or cut to a fixed size, with the tensors
  ``tf.io.parse_example`` gives for the same rows.

What a payload may make them allocate is bounded before anything is allocated: ``max_elements``
per tensor, and ``max_total_bytes`` for all the tensors of one payload, or all the padded
features of one join (default :func:`default_max_total_bytes`: ``max(64 MiB, 1024 x`` the
payload bytes``)``).
"""

from __future__ import annotations

from typing import Callable, Iterable, Iterator, Optional

from tfstream.payloads._assemble import Assembler, assemble as _assemble
from tfstream.payloads._budget import default_max_total_bytes
from tfstream.payloads._decode import DEFAULT_MAX_ELEMENTS, decode, from_message
from tfstream.payloads._rows import concat_values, merge_sources, slice_rows
from tfstream.payloads._spec import Spec, SpecLike, load_spec
from tfstream.payloads._tfrecord import detect_compression, records, write_records
from tfstream.payloads._types import (
    EXAMPLE,
    SEQUENCE_EXAMPLE,
    Batch,
    CorruptFileError,
    IncompleteBatch,
    IncompleteBatchError,
    PayloadError,
    Ragged,
    SourceRange,
    Sparse,
)

__all__ = [
    "DEFAULT_MAX_ELEMENTS", "Assembler", "Batch", "CorruptFileError", "EXAMPLE", "IncompleteBatch",
    "IncompleteBatchError", "PayloadError", "Ragged", "SEQUENCE_EXAMPLE", "SourceRange",
    "Sparse", "Spec", "assemble", "concat", "decode", "from_message", "load_spec", "read_file",
    "rebatch", "records", "detect_compression", "write_records", "default_max_total_bytes",
]


def read_file(
    path,
    compression: str = "auto",
    kind: Optional[str] = None,
    max_elements: int = DEFAULT_MAX_ELEMENTS,
    max_total_bytes: Optional[int] = None,
) -> Iterator[Batch]:
    """Every payload of a TFRecord file of payloads (what ``tfstream local`` leaves in
    ``batches.tfrecord``), decoded, in file order (``max_elements``, ``max_total_bytes``: the
    limits of :func:`decode`, for each payload).

    Compression (none, gzip, zlib) is detected as ``tfstream``'s readers do; both CRCs of every
    record are checked. A damaged file raises :class:`CorruptFileError` naming the byte offset
    (of the decompressed stream for compressed files) and the record index, after the payloads
    before it were yielded; a record that is not a payload raises :class:`PayloadError` naming
    its offset.
    """
    for offset, data in records(path, compression):
        try:
            yield decode(data, kind, max_elements, max_total_bytes)
        except PayloadError as e:
            raise PayloadError(f"{path}: record at byte {offset}: {e}") from e


def assemble(
    batches: Iterable[Batch],
    spec: SpecLike = None,
    on_incomplete: Optional[Callable[[IncompleteBatch], None]] = None,
    max_total_bytes: Optional[int] = None,
) -> Iterator[Batch]:
    """The batches of ``batches`` with their parts put back together, each as
    ``tf.io.parse_example`` over all its rows in row order (``part``/``parts`` 0, ``sources``
    merged per partition).

    Joins the payloads of one ``batch_id``: the parts of a batch split by size, and the payloads
    of an event-time window, early ones (``parts`` 0) included; parts may come in any order and
    from different partitions, and a part delivered twice is used once. A whole batch is yielded
    as it comes. ``spec`` (SPEC.json path or dict) is needed when a FixedLenSequence feature must
    be re-padded. Batches still incomplete at the end of ``batches`` are never merged: each is
    passed to ``on_incomplete``, or, without it, :class:`IncompleteBatchError` lists them.
    ``max_total_bytes`` bounds the re-padding of each batch as in :func:`concat`.
    """
    return _assemble(batches, spec, on_incomplete, max_total_bytes)


def concat(
    batches: Iterable[Batch], spec: SpecLike = None, max_total_bytes: Optional[int] = None
) -> Batch:
    """``batches`` (each whole, one kind) joined in order into one Batch: exactly what
    ``tf.io.parse_example`` (``parse_sequence_example``) gives for all their rows. Sparse
    indices are shifted and their dense shapes widened; FixedLenSequence features are padded to
    the longest row with the spec's default, so ``spec`` (a SPEC.json path or dict) is required
    when such a feature has different widths. ``sources`` are merged per partition;
    ``batch_id`` is the first batch's when all share it, else empty.

    The padded features (all rows x the widest row x item size, together) may take at most
    ``max_total_bytes``; None: :func:`default_max_total_bytes` of the batches' ``payload_bytes``
    (their arrays' bytes for a batch made by hand). Over it raises :class:`PayloadError` before
    any padding is allocated."""
    batches = list(batches)
    out = concat_values(batches, load_spec(spec), max_total_bytes)
    _meta(out, batches)
    return out


def _meta(out: Batch, batches) -> None:
    ids = {b.batch_id for b in batches}
    out.batch_id = ids.pop() if len(ids) == 1 else ""
    out.schema_fingerprint = batches[0].schema_fingerprint
    windows = {(b.window_start_ms, b.window_end_ms) for b in batches}
    if len(windows) == 1:
        out.window_start_ms, out.window_end_ms = windows.pop()
    out.sources = merge_sources(batches)


def rebatch(
    batches: Iterable[Batch],
    size: int,
    drop_remainder: bool = False,
    spec: SpecLike = None,
    max_total_bytes: Optional[int] = None,
) -> Iterator[Batch]:
    """Batches of exactly ``size`` rows from whole batches (for example :func:`assemble`'s
    output), in row order; the last one shorter unless ``drop_remainder``.

    Each is what ``tf.io.parse_example`` gives for its rows: a batch cut in two is sliced as
    parse_example would parse each side alone (sparse indices shifted, dense shapes and
    FixedLenSequence padding narrowed to the rows kept), which needs ``spec`` (SPEC.json path or
    dict) when the payload has Example features of rank 2 or more (FixedLen vs FixedLenSequence,
    VarLen vs SparseFeature). Two limits of what the padded tensors keep: a FixedLenSequence
    row whose last steps equal the padding value, and a SequenceExample var_len feature list
    whose last steps are empty, come out narrower than parse_example would make them.
    ``max_total_bytes`` bounds the padding of each batch yielded as in :func:`concat`.
    """
    if size <= 0:
        raise ValueError(f"size must be positive, got {size}")
    parsed = load_spec(spec)
    held, count = [], 0
    for b in batches:
        start = 0
        while b.rows - start > 0:
            take = min(size - count, b.rows - start)
            held.append(slice_rows(b, start, start + take, parsed))
            count += take
            start += take
            if count == size:
                yield _joined(held, parsed, max_total_bytes)
                held, count = [], 0
    if count and not drop_remainder:
        yield _joined(held, parsed, max_total_bytes)


def _joined(held, spec, max_total_bytes) -> Batch:
    out = concat_values(held, spec, max_total_bytes)
    _meta(out, held)
    return out
