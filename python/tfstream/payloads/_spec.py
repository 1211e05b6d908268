"""What concat, rebatch and assemble need from a SPEC.json / SEQSPEC.json feature spec
(docs/cli.md#specjson): each feature's type and the padding value of FixedLenSequence features."""

from __future__ import annotations

import base64
import json
import os
from typing import Any, Dict, Mapping, Optional, Union

import numpy as np

_NUMPY = {"int64": np.int64, "float32": np.float32, "float": np.float32, "string": object,
          "bytes": object}


class FeatureInfo:
    """One feature of a spec: ``type`` (fixed_len, fixed_len_seq, var_len, sparse, ragged) and,
    for fixed_len_seq, the scalar ``padding`` of parse_example (its default, else 0 / b'')."""

    def __init__(self, name: str, entry: Mapping[str, Any]):
        if not isinstance(entry, Mapping) or "type" not in entry:
            raise ValueError(f"spec: feature '{name}' is not an object with a 'type'")
        self.name = name
        self.type = entry["type"]
        dtype = entry.get("dtype", "float32")
        if dtype not in _NUMPY:
            raise ValueError(f"spec: feature '{name}' has dtype {dtype!r}")
        self.dtype = _NUMPY[dtype]
        self.padding = None
        if self.type == "fixed_len_seq":
            default = entry.get("default")
            while isinstance(default, list):
                if len(default) != 1:
                    raise ValueError(
                        f"spec: fixed_len_seq feature '{name}' has a default of {len(default)} "
                        "values, parse_example pads with a scalar"
                    )
                default = default[0]
            self.padding = _value(name, default, self.dtype)


def _value(name: str, v: Any, dtype) -> Any:
    if dtype is object:
        if v is None:
            return b""
        if isinstance(v, Mapping) and "base64" in v:
            return base64.b64decode(v["base64"])
        if isinstance(v, str):
            return v.encode("utf-8")
        raise ValueError(f"spec: feature '{name}' has a string default {v!r}")
    if v is None:
        return dtype(0)
    if isinstance(v, str):  # "NaN", "Infinity", "-Infinity"
        return np.float32(float(v.replace("Infinity", "inf")))
    return dtype(v)


class Spec:
    """A parsed spec: ``features`` (SPEC.json) or ``context`` and ``feature_lists``
    (SEQSPEC.json), each name -> :class:`FeatureInfo`."""

    def __init__(self, tree: Mapping[str, Any]):
        self.sequence = set(tree.keys()) <= {"context", "feature_lists"} and bool(tree) and all(
            isinstance(v, Mapping) and all(isinstance(e, Mapping) for e in v.values())
            for v in tree.values()
        ) and not any("type" in v for v in tree.values())
        if self.sequence:
            self.features: Dict[str, FeatureInfo] = {}
            self.context = {n: FeatureInfo(n, e) for n, e in tree.get("context", {}).items()}
            self.feature_lists = {
                n: FeatureInfo(n, e) for n, e in tree.get("feature_lists", {}).items()
            }
        else:
            self.features = {n: FeatureInfo(n, e) for n, e in tree.items()}
            self.context, self.feature_lists = {}, {}

    def group(self, name: str) -> Dict[str, FeatureInfo]:
        """The features of a Batch group (``features``, ``context``, ``feature_lists``)."""
        return {"features": self.features, "context": self.context,
                "feature_lists": self.feature_lists}.get(name, {})


SpecLike = Union[None, str, os.PathLike, Mapping[str, Any], Spec]


def load_spec(spec: SpecLike) -> Optional[Spec]:
    """None, a Spec, a dict of SPEC.json / SEQSPEC.json, or the path of such a file."""
    if spec is None or isinstance(spec, Spec):
        return spec
    if isinstance(spec, Mapping):
        return Spec(spec)
    with open(os.fspath(spec), "rb") as f:
        return Spec(json.load(f))
