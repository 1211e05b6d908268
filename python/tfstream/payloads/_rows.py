"""Batches joined and cut by rows with tf.io.parse_example's results: concat and slice_rows."""

from __future__ import annotations

import math
from typing import Dict, List, Optional, Sequence

import numpy as np

from tfstream.payloads import _budget
from tfstream.payloads._spec import Spec
from tfstream.payloads._types import (
    SEQUENCE_EXAMPLE,
    Batch,
    Ragged,
    SourceRange,
    Sparse,
    Value,
)


def merge_sources(batches: Sequence[Batch]) -> List[SourceRange]:
    """Per topic partition, the lowest first and highest last offset of ``batches``."""
    ranges: Dict[tuple, SourceRange] = {}
    for b in batches:
        for s in b.sources:
            key = (s.topic, s.partition)
            old = ranges.get(key)
            ranges[key] = s if old is None else SourceRange(
                s.topic, s.partition, min(old.first_offset, s.first_offset),
                max(old.last_offset, s.last_offset))
    return [ranges[k] for k in sorted(ranges)]


def concat_values(
    batches: Sequence[Batch], spec: Optional[Spec], max_total_bytes: Optional[int] = None
) -> Batch:
    """The features of ``batches`` (one kind) joined in order into one Batch (metadata left to
    the caller): what parse_example gives for all their rows.

    Dense features padded to their widest row are sized first: together they may take at most
    ``max_total_bytes`` (None: :func:`default_max_total_bytes` of the batches' payload bytes),
    else :class:`PayloadError` before any padding is allocated."""
    if not batches:
        raise ValueError("concat needs at least one batch")
    kind = batches[0].kind
    for b in batches:
        if b.kind != kind:
            raise ValueError(f"cannot join a {b.kind} batch with a {kind} batch")
    _budget.limit(max_total_bytes, 0)
    out = Batch(rows=sum(b.rows for b in batches), kind=kind,
                payload_bytes=sum(b.payload_bytes for b in batches))
    for group in out.groups():
        names = list(batches[0].groups()[group])
        for b in batches[1:]:
            other = list(b.groups()[group])
            if sorted(other) != sorted(names):
                raise ValueError(
                    f"batches with different {group}: {sorted(names)} and {sorted(other)}")
    padded, widest = 0, None
    for group in out.groups():
        for name in batches[0].groups()[group]:
            size = _padded_bytes([b.groups()[group][name] for b in batches],
                                 [b.rows for b in batches])
            padded += size
            if size and (widest is None or size > widest[1]):
                widest = (name, size)
    if padded:
        source = sum(b.payload_bytes or _nbytes(b) for b in batches)
        _budget.check(padded, max_total_bytes, source,
                      f"the features padded to their widest row ('{widest[0]}': "
                      f"{widest[1]} bytes) in a join of {len(batches)} batches")
    for group, target in out.groups().items():
        names = list(batches[0].groups()[group])
        for name in names:
            parts = [b.groups()[group][name] for b in batches]
            rows = [b.rows for b in batches]
            target[name] = _concat(group, name, parts, rows, kind, spec)
    return out


def _dense_kept(parts, rows):
    """The dense parts that count in a join (those of batches with rows), or None when the
    parts are not all arrays."""
    if not all(isinstance(p, np.ndarray) for p in parts):
        return None
    return [p for p, r in zip(parts, rows) if r > 0] or [parts[0]]


def _padded_bytes(parts, rows) -> int:
    """The bytes of a dense feature padded to its widest row (0 when no padding is needed):
    each part's rows x the widest row x its inner size x item size, as allocated by _concat."""
    kept = _dense_kept(parts, rows)
    if kept is None or len({p.shape[1:] for p in kept}) == 1 or min(p.ndim for p in kept) < 2:
        return 0
    width = max(p.shape[1] for p in kept)
    return sum(p.shape[0] * width * math.prod(p.shape[2:]) * p.dtype.itemsize for p in kept)


def _nbytes(batch: Batch) -> int:
    """The bytes of a batch's arrays (what stands in for its payload when that is not known)."""
    total = 0
    for values in batch.groups().values():
        for v in values.values():
            if isinstance(v, Sparse):
                total += v.indices.nbytes + v.values.nbytes + v.dense_shape.nbytes
            elif isinstance(v, Ragged):
                total += v.values.nbytes + sum(s.nbytes for s in v.row_splits)
            else:
                total += np.asarray(v).nbytes
    return total


def _concat(group, name, parts, rows, kind, spec) -> Value:
    first = parts[0]
    if isinstance(first, Sparse):
        return _concat_sparse(name, parts, rows)
    if isinstance(first, Ragged):
        return _concat_ragged(name, parts)
    kept = [p for p, r in zip(parts, rows) if r > 0] or [first]
    trailing = {p.shape[1:] for p in kept}
    if len(trailing) == 1:
        return np.concatenate(kept) if len(kept) > 1 else kept[0]
    if min(p.ndim for p in kept) < 2:
        raise ValueError(f"feature '{name}': shapes {sorted(p.shape for p in kept)} differ in rank")
    padding = _padding(group, name, kind, spec, trailing)
    if padding is None:
        padding = b"" if first.dtype == object else 0
    width = max(p.shape[1] for p in kept)
    padded = []
    for p in kept:
        if p.shape[1] < width:
            extra = np.full((p.shape[0], width - p.shape[1]) + p.shape[2:], padding,
                            dtype=p.dtype)
            p = np.concatenate([p, extra], axis=1)
        padded.append(p)
    if len({p.shape[1:] for p in padded}) != 1:
        raise ValueError(f"feature '{name}': inner shapes {sorted(trailing)} do not line up")
    return np.concatenate(padded)


def _padding(group, name, kind, spec, trailing):
    """What a padded dimension of a dense feature is filled with when widths differ."""
    if kind == SEQUENCE_EXAMPLE and group == "feature_lists":
        return None  # filled below by dtype: parse_sequence_example always pads with 0 / b''
    info = spec.group(group).get(name) if spec is not None else None
    if info is None:
        raise ValueError(
            f"feature '{name}' is padded to different widths {sorted(trailing)}: "
            "pass spec= (SPEC.json path or dict) so it is padded with the spec's default, "
            "as tf.io.parse_example does")
    if info.type != "fixed_len_seq":
        raise ValueError(
            f"feature '{name}' ({info.type} in the spec) has different inner shapes "
            f"{sorted(trailing)}")
    return info.padding


def _concat_sparse(name, parts: List[Sparse], rows: List[int]) -> Sparse:
    rank = {len(p.dense_shape) for p in parts}
    if len(rank) != 1:
        raise ValueError(f"feature '{name}': sparse ranks {sorted(rank)} differ")
    indices, offset = [], 0
    for p, r in zip(parts, rows):
        i = np.array(p.indices, dtype=np.int64, copy=True)
        i[:, 0] += offset
        indices.append(i)
        offset += r
    shape = np.max(np.stack([p.dense_shape for p in parts]), axis=0).astype(np.int64)
    shape[0] = offset
    return Sparse(np.concatenate(indices).reshape(-1, len(shape)),
                  np.concatenate([p.values for p in parts]), shape)


def _concat_ragged(name, parts: List[Ragged]) -> Ragged:
    levels = {len(p.row_splits) for p in parts}
    if len(levels) != 1:
        raise ValueError(f"feature '{name}': ragged levels {sorted(levels)} differ")
    splits = []
    for k in range(levels.pop()):
        pieces, offset = [parts[0].row_splits[k][:1]], 0
        for p in parts:
            s = p.row_splits[k]
            pieces.append(s[1:] + s.dtype.type(offset) - s[0])
            offset += int(s[-1] - s[0])
        splits.append(np.concatenate(pieces).astype(parts[0].row_splits[k].dtype))
    return Ragged(np.concatenate([p.values for p in parts]), splits)


def slice_rows(batch: Batch, lo: int, hi: int, spec: Optional[Spec]) -> Batch:
    """Rows [lo, hi) of ``batch`` as parse_example would give them alone (metadata kept but
    ``part``/``parts`` 0). Needs ``spec`` for Example features whose slice depends on their
    kind: dense features of rank >= 2 (FixedLen or FixedLenSequence) and sparse features of
    rank 2 (VarLen or SparseFeature)."""
    if not 0 <= lo <= hi <= batch.rows:
        raise ValueError(f"rows [{lo}, {hi}) are not within a batch of {batch.rows}")
    out = Batch(rows=hi - lo, batch_id=batch.batch_id, schema_fingerprint=batch.schema_fingerprint,
                window_start_ms=batch.window_start_ms, window_end_ms=batch.window_end_ms,
                sources=list(batch.sources), kind=batch.kind,
                # the payload shared out by rows, so the pieces of a cut batch add up to it
                payload_bytes=-(-batch.payload_bytes * (hi - lo) // batch.rows) if batch.rows
                else batch.payload_bytes)
    if lo == 0 and hi == batch.rows:
        for group, values in batch.groups().items():
            out.groups()[group].update(values)
        return out
    lengths = batch.feature_list_lengths
    for group, values in batch.groups().items():
        target = out.groups()[group]
        for name, v in values.items():
            target[name] = _slice(group, name, v, lo, hi, batch.kind, spec, lengths.get(name))
    return out


def _slice(group, name, v, lo, hi, kind, spec, lengths) -> Value:
    info = spec.group(group).get(name) if spec is not None else None
    sequence = kind == SEQUENCE_EXAMPLE
    if isinstance(v, Ragged):
        return _slice_ragged(v, lo, hi)
    if isinstance(v, Sparse):
        rank = len(v.dense_shape)
        keep = (v.indices[:, 0] >= lo) & (v.indices[:, 0] < hi)
        indices = np.array(v.indices[keep], dtype=np.int64)
        indices[:, 0] -= lo
        shape = np.array(v.dense_shape, dtype=np.int64)
        shape[0] = hi - lo
        if sequence or rank == 2:
            if not sequence and info is None:
                raise ValueError(
                    f"feature '{name}': a VarLen and a one-index SparseFeature cannot be told "
                    "apart when cutting a batch: pass spec= (SPEC.json path or dict)")
            if sequence or info.type == "var_len":
                # as parse_example: each inner dimension is the longest row's
                shape[1:] = indices[:, 1:].max(axis=0) + 1 if len(indices) else 0
        return Sparse(indices, v.values[keep], shape)
    rows = v[lo:hi]
    if v.ndim < 2 or group in ("context", "feature_list_lengths"):
        return rows
    if sequence:  # a fixed_len_seq feature list: as wide as its longest list
        width = int(lengths[lo:hi].max()) if hi > lo and lengths is not None else 0
        return rows[:, :width]
    if info is None:
        raise ValueError(
            f"feature '{name}': a FixedLen and a FixedLenSequence feature cannot be told apart "
            "when cutting a batch: pass spec= (SPEC.json path or dict)")
    if info.type != "fixed_len_seq":
        return rows
    # The padded width of these rows alone: up to the last step that is not all padding.
    steps = rows.reshape(rows.shape[0], rows.shape[1], int(np.prod(rows.shape[2:])))
    if rows.dtype == object:
        real = np.vectorize(lambda x: x != info.padding, otypes=[bool])(steps) if steps.size \
            else np.zeros(steps.shape, dtype=bool)
    else:
        pad = np.asarray(info.padding, dtype=rows.dtype)
        real = ~((steps == pad) | (np.isnan(steps) & np.isnan(pad)
                                    if rows.dtype.kind == "f" else False))
    used = np.nonzero(real.any(axis=(0, 2)))[0]
    width = int(used[-1]) + 1 if len(used) else 0
    return rows[:, :width]


def _slice_ragged(v: Ragged, lo: int, hi: int) -> Ragged:
    splits = []
    a, b = lo, hi
    for s in v.row_splits:
        piece = s[a:b + 1]
        splits.append((piece - piece[0]).astype(s.dtype))
        a, b = int(s[a]), int(s[b])
    return Ragged(v.values[a:b], splits)
