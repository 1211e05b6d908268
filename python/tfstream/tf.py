"""TensorFlow adapter: decoded batches as ``tf.Tensor`` / ``tf.SparseTensor`` /
``tf.RaggedTensor`` dicts and as a ``tf.data.Dataset``. Requires TensorFlow (the ``tf`` extra);
the rest of the package does not."""

from __future__ import annotations

from typing import Dict, Iterable

import numpy as np
import tensorflow as tf

from tfstream.payloads import EXAMPLE, Batch, Ragged, Sparse

_DTYPES = {np.dtype("int64"): tf.int64, np.dtype("int32"): tf.int32,
           np.dtype("float32"): tf.float32, np.dtype("object"): tf.string}


def _tensor(value):
    if isinstance(value, Sparse):
        return tf.SparseTensor(
            indices=tf.constant(value.indices, dtype=tf.int64),
            values=tf.constant(value.values, dtype=_DTYPES[value.values.dtype]),
            dense_shape=tf.constant(value.dense_shape, dtype=tf.int64),
        )
    if isinstance(value, Ragged):
        return tf.RaggedTensor.from_nested_row_splits(
            tf.constant(value.values, dtype=_DTYPES[value.values.dtype]),
            [tf.constant(s) for s in value.row_splits],
            validate=False,
        )
    return tf.constant(value, dtype=_DTYPES[value.dtype])


def to_tensors(batch: Batch) -> Dict[str, object]:
    """The batch's features as TensorFlow tensors keyed by feature name: what
    ``tf.io.parse_example`` returns. A SequenceExample batch gives ``{"context": {...},
    "feature_lists": {...}, "feature_list_lengths": {...}}``, the three outputs of
    ``tf.io.parse_sequence_example``."""
    if batch.kind == EXAMPLE:
        return {k: _tensor(v) for k, v in batch.features.items()}
    return {group: {k: _tensor(v) for k, v in values.items()}
            for group, values in batch.groups().items()}


def _spec_of(value):
    """The TypeSpec of one value, batch and padded dimensions left unknown."""
    if isinstance(value, Sparse):
        return tf.SparseTensorSpec(shape=[None] * len(value.dense_shape),
                                   dtype=_DTYPES[value.values.dtype])
    if isinstance(value, Ragged):
        levels = len(value.row_splits)
        shape = [None] * (levels + 1) + list(value.values.shape[1:])
        return tf.RaggedTensorSpec(shape=shape, dtype=_DTYPES[value.values.dtype],
                                   ragged_rank=levels,
                                   row_splits_dtype=_DTYPES[value.row_splits[0].dtype])
    return tf.TensorSpec(shape=[None] * value.ndim, dtype=_DTYPES[value.dtype])


def output_signature(batch: Batch):
    """The ``output_signature`` of :func:`dataset` for batches like ``batch``."""
    if batch.kind == EXAMPLE:
        return {k: _spec_of(v) for k, v in batch.features.items()}
    return {group: {k: _spec_of(v) for k, v in values.items()}
            for group, values in batch.groups().items()}


def dataset(batches: Iterable[Batch]) -> "tf.data.Dataset":
    """A ``tf.data.Dataset`` whose elements are :func:`to_tensors` of each batch of
    ``batches`` (any iterable, e.g. ``consume(...)`` or ``rebatch(...)``), for ``model.fit``.

    The first batch is read at once to fix the element signature (every dimension but the
    inner fixed ones unknown); the rest are read as the dataset is iterated, once.
    """
    it = iter(batches)
    try:
        first = next(it)
    except StopIteration:
        raise ValueError("dataset: no batches to take the signature from") from None
    signature = output_signature(first)

    def generate():
        yield to_tensors(first)
        for b in it:
            yield to_tensors(b)

    return tf.data.Dataset.from_generator(generate, output_signature=signature)
