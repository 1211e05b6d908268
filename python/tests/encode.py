"""A Batch as payload bytes with the tensor names of the contract (the tests' own encoder, to
build payloads split and numbered in ways a run does not show)."""

from __future__ import annotations

import numpy as np

from tfstream._vendor import tensor_batch_pb2, types_pb2
from tfstream.payloads import Batch, Ragged, Sparse

_PREFIX = {"features": "", "context": "context/", "feature_lists": "feature_list/",
           "feature_list_lengths": "feature_list_lengths/"}
_DT = {np.dtype("int64"): types_pb2.DT_INT64, np.dtype("int32"): types_pb2.DT_INT32,
       np.dtype("float32"): types_pb2.DT_FLOAT}


def _put(message, name: str, a: np.ndarray) -> None:
    t = message.tensors[name]
    for d in a.shape:
        t.tensor_shape.dim.add().size = d
    if a.dtype == object:
        t.dtype = types_pb2.DT_STRING
        t.string_val.extend(a.reshape(-1).tolist())
    else:
        t.dtype = _DT[a.dtype]
        t.tensor_content = np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("<")).tobytes()


def encode(b: Batch) -> bytes:
    m = tensor_batch_pb2.TensorBatch(
        rows=b.rows, batch_id=b.batch_id, part=b.part, parts=b.parts,
        schema_fingerprint=b.schema_fingerprint, window_start_ms=b.window_start_ms,
        window_end_ms=b.window_end_ms)
    for s in b.sources:
        m.sources.add(topic=s.topic, partition=s.partition, first_offset=s.first_offset,
                      last_offset=s.last_offset)
    for group, values in b.groups().items():
        for name, v in values.items():
            n = _PREFIX[group] + name
            if isinstance(v, Sparse):
                _put(m, n + "/indices", v.indices)
                _put(m, n + "/values", v.values)
                _put(m, n + "/dense_shape", v.dense_shape)
            elif isinstance(v, Ragged):
                _put(m, n + "/values", v.values)
                for k, s in enumerate(v.row_splits):
                    _put(m, n + "/row_splits" + (f"/{k}" if k else ""), s)
            else:
                _put(m, n, v)
    return m.SerializeToString()


_VALUE_FIELD = {types_pb2.DT_INT64: "int64_val", types_pb2.DT_INT32: "int_val",
                types_pb2.DT_FLOAT: "float_val", types_pb2.DT_STRING: "string_val"}


def put_filled(message, name: str, dtype, shape, values) -> None:
    """A tensor of ``shape`` written as the typed value field ``values`` (``dtype`` a numpy dtype
    or a types_pb2 DataType): TensorFlow's last-value fill repeats the last value to the shape's
    size, so a few bytes may declare any number of elements."""
    t = message.tensors[name]
    if isinstance(dtype, int):
        t.dtype = dtype
    else:
        t.dtype = types_pb2.DT_STRING if np.dtype(dtype) == object else _DT[np.dtype(dtype)]
    for d in shape:
        t.tensor_shape.dim.add().size = d
    field = _VALUE_FIELD.get(t.dtype)
    if field is not None and len(values):
        getattr(t, field).extend(values)


def encode_filled(rows: int, tensors: dict) -> bytes:
    """A payload of ``rows`` rows whose tensors are name -> ``(dtype, shape, values)``, each
    written with :func:`put_filled`."""
    m = tensor_batch_pb2.TensorBatch(rows=rows)
    for name, (dtype, shape, values) in tensors.items():
        put_filled(m, name, dtype, shape, values)
    return m.SerializeToString()


def batch_of(parsed: dict, rows: int, sequence: bool) -> Batch:
    """A parse_json batch as a Batch."""
    b = Batch(rows=rows, kind="sequence_example" if sequence else "example")
    for group, values in parsed.items():
        b.groups()[group].update(values)
    return b
