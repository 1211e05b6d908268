"""`tfstream parse` / `parse-seq` JSON lines (docs/cli.md#json-formats) as the package's values:
the reference the decoded payloads are compared with."""

from __future__ import annotations

import base64
import json
from typing import Dict, List

import numpy as np

from tfstream.payloads import Ragged, Sparse

_DTYPES = {"int64": np.int64, "float32": np.float32, "string": object}


def _values(values, dtype) -> np.ndarray:
    if dtype == "string":
        out = np.empty(len(values), dtype=object)
        out[:] = [base64.b64decode(v) for v in values]
        return out
    if dtype == "float32":
        return np.array([float(v.replace("Infinity", "inf")) if isinstance(v, str) else v
                         for v in values], dtype=np.float32)
    return np.array(values, dtype=np.int64)


def value(v: dict):
    """One JSON tensor VALUE as ndarray, Sparse or Ragged."""
    kind, dtype = v["kind"], v["dtype"]
    if kind == "dense":
        return _values(v["values"], dtype).reshape(v["shape"])
    if kind == "sparse":
        rank = len(v["dense_shape"])
        return Sparse(np.array(v["indices"], dtype=np.int64).reshape(-1, rank),
                      _values(v["values"], dtype), np.array(v["dense_shape"], dtype=np.int64))
    splits_dtype = np.int32 if v["row_splits_dtype"] == "int32" else np.int64
    return Ragged(_values(v["values"], dtype).reshape(v["values_shape"]),
                  [np.array(s, dtype=splits_dtype) for s in v["row_splits"]])


def batches(text: str) -> List[Dict[str, dict]]:
    """Per batch line: {"features": {...}} or {"context", "feature_lists",
    "feature_list_lengths"}, values converted; error lines raise."""
    out = []
    for line in text.splitlines():
        if not line.strip():
            continue
        b = json.loads(line)
        if "error" in b:
            raise AssertionError(f"tfstream parse rejected a batch: {line}")
        out.append({group: {n: value(v) for n, v in b[group].items()}
                    for group in ("features", "context", "feature_lists")
                    if group in b})
        if "feature_list_lengths" in b:
            out[-1]["feature_list_lengths"] = {
                n: np.array(v, dtype=np.int64) for n, v in b["feature_list_lengths"].items()}
    return out
