"""Exact comparison of decoded values: same kind, dtype, shape and values (floats bit for bit)."""

from __future__ import annotations

import numpy as np

from tfstream.payloads import Batch, Ragged, Sparse


def _array_equal(a: np.ndarray, e: np.ndarray, where: str) -> None:
    assert a.dtype == e.dtype, f"{where}: dtype {a.dtype}, expected {e.dtype}"
    assert a.shape == e.shape, f"{where}: shape {a.shape}, expected {e.shape}"
    if a.dtype == np.float32:
        assert np.array_equal(a.view(np.int32), e.view(np.int32)), f"{where}: {a} != {e}"
    else:
        assert np.array_equal(a, e), f"{where}: {a} != {e}"


def assert_value_equal(actual, expected, where: str) -> None:
    assert type(actual) is type(expected) or (
        isinstance(actual, np.ndarray) and isinstance(expected, np.ndarray)), \
        f"{where}: {type(actual).__name__}, expected {type(expected).__name__}"
    if isinstance(expected, Sparse):
        for field in Sparse._fields:
            _array_equal(getattr(actual, field), getattr(expected, field), f"{where}.{field}")
    elif isinstance(expected, Ragged):
        _array_equal(actual.values, expected.values, f"{where}.values")
        assert len(actual.row_splits) == len(expected.row_splits), f"{where}: ragged levels"
        for k, (a, e) in enumerate(zip(actual.row_splits, expected.row_splits)):
            _array_equal(a, e, f"{where}.row_splits[{k}]")
    else:
        _array_equal(np.asarray(actual), np.asarray(expected), where)


def assert_batch_matches(batch: Batch, parsed: dict, where: str) -> None:
    """``batch``'s feature dicts equal ``parsed`` (a parse_json batch), name for name."""
    groups = batch.groups()
    assert sorted(groups) == sorted(parsed), f"{where}: groups {sorted(groups)}"
    for group, expected in parsed.items():
        actual = groups[group]
        assert sorted(actual) == sorted(expected), f"{where} {group}: names {sorted(actual)}"
        for name, e in expected.items():
            assert_value_equal(actual[name], e, f"{where} {group}['{name}']")
