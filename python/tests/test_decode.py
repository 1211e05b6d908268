"""decode / read_file against `tfstream parse` of the same rows: every tensor kind, by feature
name, for Example and SequenceExample payloads written by a `tfstream local` run."""

from __future__ import annotations

import numpy as np
import pytest

from tfstream import payloads
from tfstream._vendor import tensor_batch_pb2, types_pb2
from values import assert_batch_matches


def rows_of(batch):
    """The input rows of a payload of a one-partition run: records first..last_offset."""
    (s,) = batch.sources
    return list(range(s.first_offset, s.last_offset + 1))


def test_every_payload_is_parse_example_of_its_rows(any_corpus):
    batches = list(payloads.read_file(any_corpus.payloads))
    assert sum(b.rows for b in batches) == len(any_corpus.records)
    assert any(b.parts > 1 for b in batches), "the run should have split batches into parts"
    expected = any_corpus.parse([rows_of(b) for b in batches])
    kind = payloads.SEQUENCE_EXAMPLE if any_corpus.sequence else payloads.EXAMPLE
    for i, (b, e) in enumerate(zip(batches, expected)):
        assert b.kind == kind
        assert b.rows == len(rows_of(b))
        assert b.schema_fingerprint
        assert_batch_matches(b, e, f"payload {i} (batch {b.batch_id} part {b.part}/{b.parts})")


def test_every_feature_kind_is_present(example_corpus, sequence_corpus):
    ex = next(payloads.read_file(example_corpus.payloads))
    assert set(ex.features) == set(example_corpus.spec)
    kinds = {n: type(v).__name__ for n, v in ex.features.items()}
    assert kinds["fls_int2"] == "ndarray" and ex.features["fls_int2"].ndim == 3
    assert kinds["sp2"] == "Sparse" and kinds["vl_str"] == "Sparse"
    assert kinds["rg_nested"] == "Ragged" and ex.features["rg_nested"].values.ndim == 2
    assert ex.features["rg_uniform"].row_splits[0].dtype == np.int32
    assert ex.features["fl_str"].dtype == object
    seq = next(payloads.read_file(sequence_corpus.payloads))
    assert set(seq.context) == set(sequence_corpus.spec["context"])
    assert set(seq.feature_lists) == set(sequence_corpus.spec["feature_lists"])
    assert set(seq.feature_list_lengths) == {"f_dense"}
    assert len(seq.feature_lists["f_rg"].row_splits) == 2


def test_numbers_are_views_of_the_payload_bytes(example_corpus):
    b = next(payloads.read_file(example_corpus.payloads))
    v = b.features["fl_int"]
    assert not v.flags.writeable and not v.flags.owndata, "tensor_content was copied"


def _tensor(dtype, shape, content=b""):
    t = tensor_batch_pb2.TensorBatch().tensors["x"]
    t.dtype = dtype
    for d in shape:
        t.tensor_shape.dim.add().size = d
    t.tensor_content = content
    return t


def test_content_that_does_not_match_its_shape_names_the_tensor():
    m = tensor_batch_pb2.TensorBatch(rows=2)
    m.tensors["x"].CopyFrom(_tensor(types_pb2.DT_INT64, [2], b"\x01" * 8))
    with pytest.raises(payloads.PayloadError,
                       match="tensor 'x' has 8 content bytes, its shape needs 16"):
        payloads.decode(m.SerializeToString())
    m.tensors["x"].CopyFrom(_tensor(types_pb2.DT_DOUBLE, [1], b"\x00" * 8))
    with pytest.raises(payloads.PayloadError, match="tensor 'x' has dtype DT_DOUBLE"):
        payloads.decode(m.SerializeToString())
    with pytest.raises(payloads.PayloadError, match="not a tfstream.v1.TensorBatch"):
        payloads.decode(b"\xff\xff\xff")


def test_typed_value_fields_are_read_with_tensorflows_last_value_fill():
    m = tensor_batch_pb2.TensorBatch(rows=3)
    t = _tensor(types_pb2.DT_FLOAT, [3])
    t.float_val.extend([1.5, 2.5])
    m.tensors["x"].CopyFrom(t)
    assert payloads.decode(m.SerializeToString()).features["x"].tolist() == [1.5, 2.5, 2.5]


def test_a_huge_declared_shape_is_refused_before_anything_is_allocated():
    m = tensor_batch_pb2.TensorBatch(rows=1)
    t = _tensor(types_pb2.DT_INT64, [1 << 20, 1 << 20])  # 2^40 elements from one value
    t.int64_val.append(7)
    m.tensors["x"].CopyFrom(t)
    payload = m.SerializeToString()
    assert len(payload) < 40
    with pytest.raises(payloads.PayloadError,
                       match=r"tensor 'x' declares 1099511627776 elements .* max_elements 67108864"):
        payloads.decode(payload)
    small = _tensor(types_pb2.DT_INT64, [4])
    small.int64_val.append(7)
    m.tensors["x"].CopyFrom(small)
    with pytest.raises(payloads.PayloadError, match="more than max_elements 3"):
        payloads.decode(m.SerializeToString(), max_elements=3)
    assert payloads.decode(m.SerializeToString(), max_elements=4).features["x"].tolist() == [7] * 4


def test_sequence_prefixes_decide_the_kind_unless_told():
    m = tensor_batch_pb2.TensorBatch(rows=1)
    m.tensors["context/a"].CopyFrom(_tensor(types_pb2.DT_INT64, [1], b"\x07" + b"\x00" * 7))
    assert payloads.decode(m.SerializeToString()).context["a"].tolist() == [7]
    as_example = payloads.decode(m.SerializeToString(), kind="example")
    assert as_example.features["context/a"].tolist() == [7]
