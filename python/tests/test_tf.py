"""tfstream.tf: batches as TensorFlow tensors and a tf.data.Dataset (needs TensorFlow; skipped,
saying so, where it is not installed)."""

from __future__ import annotations

import numpy as np
import pytest

tf = pytest.importorskip(
    "tensorflow", reason="TensorFlow is not installed: the tfstream.tf adapter is not tested here")

from tfstream import payloads  # noqa: E402
from tfstream import tf as tfstream_tf  # noqa: E402


def test_to_tensors_gives_parse_examples_types(example_corpus):
    batch = next(payloads.assemble(payloads.read_file(example_corpus.payloads),
                                   spec=example_corpus.spec_path))
    t = tfstream_tf.to_tensors(batch)
    assert isinstance(t["vl_int"], tf.SparseTensor)
    assert isinstance(t["rg_nested"], tf.RaggedTensor) and t["rg_nested"].ragged_rank == 2
    assert t["fls_int2"].shape == batch.features["fls_int2"].shape
    assert t["fl_str"].dtype == tf.string
    np.testing.assert_array_equal(t["sp2"].indices.numpy(), batch.features["sp2"].indices)


def test_dataset_feeds_every_batch(any_corpus):
    batches = list(payloads.rebatch(payloads.read_file(any_corpus.payloads), 32,
                                    spec=any_corpus.spec_path))
    rows = 0
    for element in tfstream_tf.dataset(iter(batches)):
        dense = element["context"]["c_int"] if any_corpus.sequence else element["fl_int"]
        rows += int(dense.shape[0])
    assert rows == len(any_corpus.records)
