"""Payload bytes -> Batch: the tensor names of io.tfstream.payload.TensorBatchCodec mapped back
to feature names (docs/streaming-job.md#tensor-payloads)."""

from __future__ import annotations

import math
from typing import Dict, Optional

import numpy as np
from google.protobuf.message import DecodeError

from tfstream._vendor import tensor_batch_entries_pb2, tensor_batch_pb2, types_pb2
from tfstream.payloads import _budget
from tfstream.payloads._types import (
    EXAMPLE,
    SEQUENCE_EXAMPLE,
    Batch,
    PayloadError,
    Ragged,
    SourceRange,
    Sparse,
    Value,
)

CONTEXT = "context/"
FEATURE_LIST = "feature_list/"
FEATURE_LIST_LENGTHS = "feature_list_lengths/"
_SEQUENCE_PREFIXES = (CONTEXT, FEATURE_LIST, FEATURE_LIST_LENGTHS)
_STRING = types_pb2.DT_STRING
_OBJECT_ITEMSIZE = np.dtype(object).itemsize
_MAX_ARRAY_BYTES = np.iinfo(np.intp).max

#: Elements one tensor may have at most unless the caller allows more (512 MiB of int64): a
#: payload's shape is checked against it before anything is allocated, since TensorFlow's
#: last-value fill lets a few bytes declare any number of elements.
DEFAULT_MAX_ELEMENTS = 1 << 26

# little-endian, as tf.io.serialize_tensor writes tensor_content
_NUMERIC = {
    types_pb2.DT_INT64: (np.dtype("<i8"), "int64_val"),
    types_pb2.DT_INT32: (np.dtype("<i4"), "int_val"),
    types_pb2.DT_FLOAT: (np.dtype("<f4"), "float_val"),
}


def decode(
    payload: bytes,
    kind: Optional[str] = None,
    max_elements: int = DEFAULT_MAX_ELEMENTS,
    max_total_bytes: Optional[int] = None,
) -> Batch:
    """Decodes one ``tfstream.v1.TensorBatch`` payload.

    ``kind`` is ``"example"`` or ``"sequence_example"``; by default a payload whose tensor names
    all start with ``context/``, ``feature_list/`` or ``feature_list_lengths/`` is a
    SequenceExample payload. Raises :class:`PayloadError` for bytes that are not a payload, a
    tensor whose content does not match its dtype and shape, one whose shape declares more
    than ``max_elements`` elements (default :data:`DEFAULT_MAX_ELEMENTS`), or tensors whose
    shapes declare more than ``max_total_bytes`` bytes together (elements x item size, strings
    counted as 8-byte references; None: :func:`default_max_total_bytes` of the payload's length,
    ``max(64 MiB, 1024 x len(payload))``). Both limits are checked on the declared shapes of all
    the tensors before anything is allocated.
    """
    _budget.limit(max_total_bytes, 0)  # a bad max_total_bytes is refused whatever the payload
    message = tensor_batch_entries_pb2.TensorBatchEntries()
    try:
        message.ParseFromString(payload)
    except DecodeError as e:
        raise PayloadError(f"not a tfstream.v1.TensorBatch ({len(payload)} bytes): {e}") from e
    return _from_message(message, kind, max_elements, max_total_bytes, len(payload))


def from_message(
    message,
    kind: Optional[str] = None,
    max_elements: int = DEFAULT_MAX_ELEMENTS,
    max_total_bytes: Optional[int] = None,
) -> Batch:
    """A Batch from a parsed ``TensorBatch`` (or ``TensorBatchEntries``) message (see
    :func:`decode`; the default ``max_total_bytes`` is that of the message's serialized
    length)."""
    return _from_message(message, kind, max_elements, max_total_bytes, message.ByteSize())


def _from_message(message, kind, max_elements, max_total_bytes, payload_bytes) -> Batch:
    if isinstance(message, tensor_batch_pb2.TensorBatch):
        tensors = dict(message.tensors.items())
    else:
        tensors = {e.key: e.value for e in message.tensors}
    names = list(tensors)
    if kind is None:
        sequence = bool(names) and all(n.startswith(_SEQUENCE_PREFIXES) for n in names)
        kind = SEQUENCE_EXAMPLE if sequence else EXAMPLE
    elif kind not in (EXAMPLE, SEQUENCE_EXAMPLE):
        raise ValueError(f"kind must be {EXAMPLE!r} or {SEQUENCE_EXAMPLE!r}, got {kind!r}")
    # Every tensor that will be decoded, sized from its declared shape before any is allocated.
    prefixes = ("",) if kind == EXAMPLE else _SEQUENCE_PREFIXES
    total = 0
    for name in sorted(tensors):
        if name.startswith(prefixes):
            _, n, itemsize = _declared(name, tensors[name], max_elements)
            total += n * itemsize
    _budget.check(total, max_total_bytes, payload_bytes,
                  f"the tensors of a payload of {payload_bytes} bytes")
    batch = Batch(
        rows=message.rows,
        batch_id=message.batch_id,
        part=message.part,
        parts=message.parts,
        schema_fingerprint=message.schema_fingerprint,
        window_start_ms=message.window_start_ms,
        window_end_ms=message.window_end_ms,
        sources=[
            SourceRange(s.topic, s.partition, s.first_offset, s.last_offset)
            for s in message.sources
        ],
        kind=kind,
        payload_bytes=payload_bytes,
    )
    if kind == EXAMPLE:
        batch.features = _features(tensors, "", max_elements)
    else:
        batch.context = _features(tensors, CONTEXT, max_elements)
        batch.feature_lists = _features(tensors, FEATURE_LIST, max_elements)
        batch.feature_list_lengths = _features(tensors, FEATURE_LIST_LENGTHS, max_elements)
    return batch


def _features(tensors, prefix: str, max_elements: int) -> Dict[str, Value]:
    """The tensors under ``prefix`` grouped by feature, with TensorBatchCodec.decode's rules: a
    name with ``/indices``, ``/values`` and ``/dense_shape`` siblings is sparse, one with
    ``/values`` and ``/row_splits`` ragged (``/row_splits/1``, ... inward), any other dense."""
    protos = {n[len(prefix):]: t for n, t in tensors.items() if n.startswith(prefix)}
    out: Dict[str, Value] = {}
    used = set()
    for name in sorted(protos):
        if name.endswith("/indices"):
            base = name[: -len("/indices")]
            values, shape = base + "/values", base + "/dense_shape"
            if values in protos and shape in protos:
                out[base] = Sparse(
                    _array(prefix + name, protos[name], max_elements),
                    _array(prefix + values, protos[values], max_elements),
                    _array(prefix + shape, protos[shape], max_elements),
                )
                used.update((name, values, shape))
        elif name.endswith("/row_splits"):
            base = name[: -len("/row_splits")]
            values = base + "/values"
            if values in protos:
                splits = [_array(prefix + name, protos[name], max_elements)]
                used.add(name)
                k = 1
                while f"{name}/{k}" in protos:
                    splits.append(
                        _array(f"{prefix}{name}/{k}", protos[f"{name}/{k}"], max_elements)
                    )
                    used.add(f"{name}/{k}")
                    k += 1
                out[base] = Ragged(_array(prefix + values, protos[values], max_elements), splits)
                used.add(values)
    for name in sorted(protos):
        if name not in used:
            out[name] = _array(prefix + name, protos[name], max_elements)
    return dict(sorted(out.items()))


def _declared(name: str, proto, max_elements: int):
    """``(shape, elements, item size)`` a TensorProto declares, refused when its shape has an
    unknown dimension or more than ``max_elements`` elements, or its dtype is not one of the
    contract's (strings: an 8-byte reference per element)."""
    shape = [d.size for d in proto.tensor_shape.dim]
    if shape and min(shape) < 0:
        raise PayloadError(f"tensor '{name}' has an unknown dimension in its shape {shape[:8]}")
    n = math.prod(shape)
    if n > max_elements:
        raise PayloadError(
            f"tensor '{name}' declares {n} elements (shape {shape[:8]}), more than max_elements "
            f"{max_elements}"
        )
    dt = proto.dtype
    numeric = _NUMERIC.get(dt)
    if numeric is not None:
        itemsize = numeric[0].itemsize
    elif dt == _STRING:
        itemsize = _OBJECT_ITEMSIZE
    else:
        name_of = types_pb2.DataType.Name(dt) if dt in types_pb2.DataType.values() else str(dt)
        raise PayloadError(
            f"tensor '{name}' has dtype {name_of}, not int64, int32, float or string"
        )
    # numpy refuses a shape whose non-zero dimensions overflow its sizes, even with 0 elements
    if n == 0 and math.prod(d for d in shape if d) * itemsize > _MAX_ARRAY_BYTES:
        raise PayloadError(f"tensor '{name}' has a shape {shape[:8]} too large for numpy")
    return shape, n, itemsize


def _array(name: str, proto, max_elements: int) -> np.ndarray:
    """A TensorProto as an ndarray: numbers viewed in ``tensor_content`` without a copy (or from
    the typed repeated field, TensorFlow's last-value fill included), strings as an object array
    of ``bytes``."""
    shape, n, _ = _declared(name, proto, max_elements)
    numeric = _NUMERIC.get(proto.dtype)
    if numeric is None:
        strings = proto.string_val
        if len(strings) != n:
            raise PayloadError(f"tensor '{name}' has {len(strings)} strings for {n} elements")
        out = np.empty(n, dtype=object)
        out[:] = list(strings)
        return out.reshape(shape)
    dtype, field = numeric
    content = proto.tensor_content
    if content or n == 0:
        if len(content) != n * dtype.itemsize:
            raise PayloadError(
                f"tensor '{name}' has {len(content)} content bytes, its shape needs "
                f"{n * dtype.itemsize}"
            )
        return np.frombuffer(content, dtype=dtype).reshape(shape)
    values = getattr(proto, field)
    if not values:
        raise PayloadError(f"tensor '{name}' of {n} elements has no values")
    if len(values) > n:
        raise PayloadError(f"tensor '{name}' has {len(values)} values for {n} elements")
    out = np.empty(n, dtype=dtype)
    out[: len(values)] = values
    out[len(values):] = values[-1]
    return out.reshape(shape)
