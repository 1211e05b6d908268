"""Decode throughput: tfstream.payloads.decode against plain TensorBatch.FromString (what any
reader of the payloads must do at least), in MB/s of payload bytes. Not part of the tests.

  /usr/bin/python3 python/benchmarks/decode_bench.py [batches.tfrecord ...] [--seconds S]

Without files it measures synthetic payloads of 1024 rows: "numeric" (16 float32 [1024, 8]
dense features, 4 int64 VarLen, 2 int64 ragged), "strings" (8 string VarLen features of 1-5
values of 12 bytes) and "seed-001-like" (four scalar features, as `bin/tfstream local` makes).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "tests"))

from google.protobuf.internal import api_implementation  # noqa: E402

from encode import encode  # noqa: E402
from tfstream._vendor import tensor_batch_pb2  # noqa: E402
from tfstream.payloads import Batch, Ragged, Sparse, decode, records  # noqa: E402

ROWS = 1024


def _sparse(r, rows, dtype):
    counts = r.integers(0, 6, rows)
    n = int(counts.sum())
    indices = np.stack([np.repeat(np.arange(rows), counts),
                        np.concatenate([np.arange(c) for c in counts])], axis=1).astype(np.int64)
    values = (r.integers(0, 1 << 40, n).astype(np.int64) if dtype == "int" else
              np.array([bytes(r.integers(97, 123, 12, dtype=np.uint8)) for _ in range(n)],
                       dtype=object))
    return Sparse(indices, values, np.array([rows, int(counts.max())], dtype=np.int64))


def synthetic():
    r = np.random.default_rng(1)
    numeric = Batch(rows=ROWS)
    for i in range(16):
        numeric.features[f"f{i}"] = r.random((ROWS, 8), dtype=np.float32)
    for i in range(4):
        numeric.features[f"v{i}"] = _sparse(r, ROWS, "int")
    for i in range(2):
        lengths = r.integers(0, 6, ROWS)
        numeric.features[f"r{i}"] = Ragged(
            r.integers(0, 100, int(lengths.sum())).astype(np.int64),
            [np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)])
    strings = Batch(rows=ROWS)
    for i in range(8):
        strings.features[f"s{i}"] = _sparse(r, ROWS, "str")
    small = Batch(rows=ROWS)
    small.features = {"age": r.integers(0, 99, ROWS).astype(np.int64),
                      "score": r.random(ROWS, dtype=np.float32),
                      "id": r.integers(0, 1 << 60, ROWS).astype(np.int64),
                      "name": np.array([b"name-%d" % i for i in range(ROWS)], dtype=object)}
    return {"numeric": [encode(numeric)], "strings": [encode(strings)],
            "seed-001-like": [encode(small)]}


def rate(fn, data, seconds):
    total, n, start = 0, 0, time.perf_counter()
    while True:
        for d in data:
            fn(d)
            total += len(d)
        n += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return total / elapsed / 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="*")
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    sets = {f: [d for _, d in records(f)] for f in args.files} or synthetic()
    import google.protobuf
    print(f"# {platform.processor() or platform.machine()}, Python {platform.python_version()}, "
          f"numpy {np.__version__}, protobuf {google.protobuf.__version__} "
          f"({api_implementation.Type()})")
    print("| payloads | bytes each | FromString MB/s | decode MB/s | decode / FromString |")
    print("| --- | --- | --- | --- | --- |")
    for name, data in sets.items():
        base = rate(tensor_batch_pb2.TensorBatch.FromString, data, args.seconds)
        ours = rate(decode, data, args.seconds)
        size = sum(len(d) for d in data) // len(data)
        print(f"| {name} | {size} | {base:.0f} | {ours:.0f} | {ours / base:.2f} |")


if __name__ == "__main__":
    main()
