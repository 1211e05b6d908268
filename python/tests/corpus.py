"""Random tf.train.Example / SequenceExample records of every feature kind, with the SPEC.json /
SEQSPEC.json that parses them: the input of the tests' `tfstream local` and `tfstream parse` runs.

Records are encoded by hand (the wire format of tensorflow/core/example/*.proto) so the tests
need no Example protos. Values avoid the two cases rebatch documents as ambiguous: no
FixedLenSequence row ends with its padding value, no var_len feature list ends with an empty step.
"""

from __future__ import annotations

import random
import struct
from typing import Dict, List, Tuple

EXAMPLE_SPEC = {
    "fl_int": {"type": "fixed_len", "dtype": "int64", "shape": []},
    "fl_float2": {"type": "fixed_len", "dtype": "float32", "shape": [2], "default": [0.5, -1.0]},
    "fl_str": {"type": "fixed_len", "dtype": "string", "shape": [], "default": "none"},
    "fls_float": {"type": "fixed_len_seq", "dtype": "float32", "shape": [], "allow_missing": True,
                  "default": -1.0},
    "fls_int2": {"type": "fixed_len_seq", "dtype": "int64", "shape": [2], "allow_missing": True},
    "vl_int": {"type": "var_len", "dtype": "int64"},
    "vl_str": {"type": "var_len", "dtype": "string"},
    "sp1": {"type": "sparse", "index_keys": ["sp1_idx"], "value_key": "sp1_val",
            "dtype": "float32", "size": [10], "already_sorted": False},
    "sp2": {"type": "sparse", "index_keys": ["sp2_i", "sp2_j"], "value_key": "sp2_val",
            "dtype": "int64", "size": [4, 5], "already_sorted": False},
    "rg_plain": {"type": "ragged", "dtype": "int64", "partitions": [],
                 "row_splits_dtype": "int32"},
    "rg_splits": {"type": "ragged", "dtype": "float32", "value_key": "rs_v",
                  "partitions": [{"row_splits": "rs_s"}], "row_splits_dtype": "int64"},
    "rg_lengths": {"type": "ragged", "dtype": "string", "value_key": "rl_v",
                   "partitions": [{"row_lengths": "rl_l"}], "row_splits_dtype": "int32"},
    "rg_starts": {"type": "ragged", "dtype": "int64", "value_key": "rst_v",
                  "partitions": [{"row_starts": "rst_s"}], "row_splits_dtype": "int64"},
    "rg_limits": {"type": "ragged", "dtype": "int64", "value_key": "rli_v",
                  "partitions": [{"row_limits": "rli_l"}], "row_splits_dtype": "int64"},
    "rg_rowids": {"type": "ragged", "dtype": "float32", "value_key": "rid_v",
                  "partitions": [{"value_rowids": "rid_r"}], "row_splits_dtype": "int64"},
    "rg_uniform": {"type": "ragged", "dtype": "int64", "value_key": "ru_v",
                   "partitions": [{"uniform_row_length": 2}], "row_splits_dtype": "int32"},
    "rg_nested": {"type": "ragged", "dtype": "int64", "value_key": "rn_v",
                  "partitions": [{"row_lengths": "rn_l"}, {"uniform_row_length": 2}],
                  "row_splits_dtype": "int64"},
}

SEQUENCE_SPEC = {
    "context": {
        "c_int": {"type": "fixed_len", "dtype": "int64", "shape": []},
        "c_vl": {"type": "var_len", "dtype": "string"},
        "c_rg": {"type": "ragged", "dtype": "float32", "partitions": [],
                 "row_splits_dtype": "int64"},
    },
    "feature_lists": {
        "f_dense": {"type": "fixed_len_seq", "dtype": "float32", "shape": [2],
                    "allow_missing": True},
        "f_vl": {"type": "var_len", "dtype": "int64"},
        "f_rg": {"type": "ragged", "dtype": "string", "partitions": [],
                 "row_splits_dtype": "int32"},
    },
}


# --- protobuf wire encoding -------------------------------------------------------------------

def _varint(v: int) -> bytes:
    v &= (1 << 64) - 1
    out = bytearray()
    while v > 0x7F:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def ints(values) -> bytes:
    return _field(3, _field(1, b"".join(_varint(v) for v in values)) if values else b"")


def floats(values) -> bytes:
    return _field(2, _field(1, struct.pack(f"<{len(values)}f", *values)) if values else b"")


def strings(values) -> bytes:
    return _field(1, b"".join(_field(1, v) for v in values))


def _features(features: Dict[str, bytes]) -> bytes:
    return b"".join(_field(1, _field(1, k.encode()) + _field(2, v)) for k, v in features.items())


def example(features: Dict[str, bytes]) -> bytes:
    return _field(1, _features(features))


def sequence_example(context: Dict[str, bytes], lists: Dict[str, List[bytes]]) -> bytes:
    fl = b"".join(
        _field(1, _field(1, k.encode()) + _field(2, b"".join(_field(1, f) for f in steps)))
        for k, steps in lists.items())
    return _field(1, _features(context)) + _field(2, fl)


# --- random records ---------------------------------------------------------------------------

def _word(r: random.Random) -> bytes:
    return bytes(r.choice(b"abcxyz\x00\xff") for _ in range(r.randint(0, 4)))


def _float(r: random.Random) -> float:
    return struct.unpack("<f", struct.pack("<f", r.uniform(-1e3, 1e3)))[0] + 0.0 or 0.25


def _split(r: random.Random, n: int, rows: int) -> List[int]:
    cuts = sorted(r.randint(0, n) for _ in range(rows - 1))
    bounds = [0] + cuts + [n]
    return [bounds[i + 1] - bounds[i] for i in range(rows)]


def random_example(r: random.Random) -> bytes:
    f: Dict[str, bytes] = {"fl_int": ints([r.randint(-2**63, 2**63 - 1)])}
    if r.random() < 0.7:
        f["fl_float2"] = floats([_float(r), _float(r)])
    if r.random() < 0.7:
        f["fl_str"] = strings([_word(r)])
    n = r.randint(0, 4)
    if n or r.random() < 0.5:
        f["fls_float"] = floats([_float(r) for _ in range(n)])
    n = r.randint(0, 3)
    f["fls_int2"] = ints([r.randint(1, 99) for _ in range(2 * n)])
    if r.random() < 0.8:
        f["vl_int"] = ints([r.randint(-5, 5) for _ in range(r.randint(0, 5))])
    f["vl_str"] = strings([_word(r) for _ in range(r.randint(0, 3))])
    k = r.randint(0, 3)
    f["sp1_idx"] = ints(r.sample(range(10), k))  # distinct: duplicates have no defined order
    f["sp1_val"] = floats([_float(r) for _ in range(k)])
    k = r.randint(0, 3)
    cells = r.sample(range(20), k)
    f["sp2_i"] = ints([c // 5 for c in cells])
    f["sp2_j"] = ints([c % 5 for c in cells])
    f["sp2_val"] = ints([r.randint(-9, 9) for _ in range(k)])
    f["rg_plain"] = ints([r.randint(0, 9) for _ in range(r.randint(0, 4))])
    n, rows = r.randint(0, 6), r.randint(1, 3)
    f["rs_v"] = floats([_float(r) for _ in range(n)])
    lengths = _split(r, n, rows)
    f["rs_s"] = ints([sum(lengths[:i]) for i in range(rows + 1)])
    n, rows = r.randint(0, 6), r.randint(0, 3)
    n = n if rows else 0
    f["rl_v"] = strings([_word(r) for _ in range(n)])
    f["rl_l"] = ints(_split(r, n, rows) if rows else [])
    n, rows = r.randint(0, 6), r.randint(0, 3)
    n = n if rows else 0
    f["rst_v"] = ints(list(range(n)))
    lengths = _split(r, n, rows) if rows else []
    f["rst_s"] = ints([sum(lengths[:i]) for i in range(rows)])
    n, rows = r.randint(0, 6), r.randint(0, 3)
    n = n if rows else 0
    f["rli_v"] = ints(list(range(100, 100 + n)))
    lengths = _split(r, n, rows) if rows else []
    f["rli_l"] = ints([sum(lengths[:i + 1]) for i in range(rows)])
    n = r.randint(0, 6)
    f["rid_v"] = floats([_float(r) for _ in range(n)])
    f["rid_r"] = ints(sorted(r.randint(0, 3) for _ in range(n)))
    f["ru_v"] = ints([r.randint(0, 9) for _ in range(2 * r.randint(0, 3))])
    rows = r.randint(0, 3)
    pairs = r.randint(0, 4) if rows else 0
    f["rn_v"] = ints([r.randint(0, 9) for _ in range(2 * pairs)])
    f["rn_l"] = ints(_split(r, pairs, rows) if rows else [])
    return example(f)


def random_sequence_example(r: random.Random) -> bytes:
    context = {"c_int": ints([r.randint(-1000, 1000)]),
               "c_vl": strings([_word(r) for _ in range(r.randint(0, 3))]),
               "c_rg": floats([_float(r) for _ in range(r.randint(0, 3))])}
    lists: Dict[str, List[bytes]] = {}
    steps = r.randint(0, 3)
    if steps or r.random() < 0.5:
        lists["f_dense"] = [floats([_float(r), _float(r)]) for _ in range(steps)]
    steps = r.randint(0, 3)
    lists["f_vl"] = [ints([r.randint(0, 9) for _ in range(r.randint(0 if i < steps - 1 else 1, 3))])
                     for i in range(steps)]
    steps = r.randint(0, 3)
    lists["f_rg"] = [strings([_word(r) for _ in range(r.randint(0, 2))]) for _ in range(steps)]
    return sequence_example(context, lists)


def corpus(seed: int, count: int, sequence: bool = False) -> Tuple[dict, List[bytes]]:
    """The spec and ``count`` random records."""
    r = random.Random(seed)
    make = random_sequence_example if sequence else random_example
    return (SEQUENCE_SPEC if sequence else EXAMPLE_SPEC), [make(r) for _ in range(count)]
