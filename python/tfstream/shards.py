"""The finished shards of a tfstream shard directory, listed by their ``_SUCCESS`` markers.

A bucket's marker is written once every shard of the bucket is committed, and names them; so the
files listed here are exactly the complete buckets' shards, never a part in progress, a shard of a
bucket still open, or another job's file in the same directory. ``files`` needs only the standard
library for local paths; other URIs (``s3://``, ``gs://``, ``hdfs://``) are read through
``tf.io.gfile`` when TensorFlow is installed. ``dataset`` gives a ``tf.data`` pipeline over them.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import urllib.parse
from typing import Iterator, List, NamedTuple, Optional, Union

METADATA_DIR = "_tfstream"
MARKER = "_SUCCESS"
INDEX_SUFFIX = ".idx"

Since = Union[None, int, _dt.datetime]


class ShardFile(NamedTuple):
    """A finished shard: its path, bucket, data split (or None), record count and size, and its
    DALI index file when the job wrote one (``shards.index: dali``), else None."""

    path: str
    bucket: str
    split: Optional[str]
    records: int
    bytes: int
    index: Optional[str]


def files(path, since: Since = None, split: Optional[str] = None) -> List[ShardFile]:
    """The shards of every complete bucket under shard directory ``path`` (``shards.path``), sorted
    by path.

    ``since``: only buckets that end after this time (an aware ``datetime``, or epoch
    milliseconds), for a trainer that picks up what completed since its last run. ``split``: only
    the shards of data split ``Split-<split>``. Markers in the ``_tfstream/`` tree (the default
    layout) and beside the shards (``shards.metadata-layout: inline``, and versions before it) are
    both read.
    """
    fs, base = _open(path)
    out = []
    for marker_dir, bucket_dir, marker in _complete(fs, base, since):
        separate = marker_dir != bucket_dir
        for s in marker.get("shards", []):
            rel = s["shard"]
            shard_split = None
            head, _, name = rel.rpartition("/")
            if head.startswith("Split-"):
                shard_split = head[len("Split-"):]
            if split is not None and shard_split != split:
                continue
            # in the _tfstream tree every name starts with '_'
            index_rel = "/".join("_" + p for p in rel.split("/")) if separate else rel
            index_path = fs.join(marker_dir, index_rel + INDEX_SUFFIX)
            out.append(ShardFile(
                path=fs.join(bucket_dir, rel),
                bucket=marker.get("bucket", ""),
                split=shard_split,
                records=int(s.get("records", 0)),
                bytes=int(s.get("bytes", 0)),
                index=index_path if fs.exists(index_path) else None,
            ))
    out.sort(key=lambda f: f.path)
    return out


class StatisticsFile(NamedTuple):
    """A complete bucket's TFDV statistics (``shards.statistics``): the path of its
    ``FeatureStats.pb`` (a ``DatasetFeatureStatisticsList`` with one dataset, as TFX's
    ``ExampleStatistics`` artifact holds it), its bucket and data split (or None)."""

    path: str
    bucket: str
    split: Optional[str]


def statistics(path, since: Since = None, split: Optional[str] = None) -> List[StatisticsFile]:
    """The statistics files of every complete bucket under shard directory ``path`` whose marker
    names them, sorted by path; ``since`` and ``split`` as in :func:`files`. Load one with
    ``tfstream.stats.load(f.path)`` or ``tfdv.load_stats_binary(f.path)``; the directory above the
    ``Split-<name>`` ones is the ``ExampleStatistics`` artifact's URI."""
    fs, base = _open(path)
    out = []
    for marker_dir, _bucket_dir, marker in _complete(fs, base, since):
        for rel in marker.get("statistics", []):
            parent = rel.rsplit("/", 2)[-2] if rel.count("/") >= 2 else ""
            stats_split = parent[len("Split-"):] if parent.startswith("Split-") else None
            if split is not None and stats_split != split:
                continue
            out.append(StatisticsFile(
                path=fs.join(marker_dir, rel), bucket=marker.get("bucket", ""),
                split=stats_split))
    out.sort(key=lambda f: f.path)
    return out


def dataset(path, spec=None, batch_size: int = 1024, since: Since = None,
            split: Optional[str] = None):
    """A ``tf.data`` pipeline over :func:`files`: the serialized records, or with ``spec`` (a
    feature spec dict as ``tf.io.parse_example`` takes it) batches of ``batch_size`` parsed
    records. Compression is that of the shards' names (``.gz`` gzip, ``.zz`` zlib).

    Not tested where tfstream is built (no TensorFlow for Python there); the listing it reads is.
    """
    import tensorflow as tf

    listed = [f.path for f in files(path, since=since, split=split)]
    kinds = {_compression(p) for p in listed}
    if len(kinds) > 1:
        raise ValueError(f"shards of several compressions under {path}: {sorted(kinds)}")
    ds = tf.data.TFRecordDataset(listed, compression_type=kinds.pop() if kinds else "")
    if spec is None:
        return ds
    return ds.batch(batch_size).map(lambda b: tf.io.parse_example(b, spec))


def _compression(p: str) -> str:
    if p.endswith(".gz"):
        return "GZIP"
    if p.endswith(".zz"):
        return "ZLIB"
    return ""


def _millis(since: Since) -> Optional[int]:
    if since is None:
        return None
    if isinstance(since, _dt.datetime):
        if since.tzinfo is None:
            raise ValueError("since: give an aware datetime (with tzinfo), or epoch milliseconds")
        return int(since.timestamp() * 1000)
    return int(since)


def _open(path):
    """(file system, base path without a trailing '/') of shard directory ``path``."""
    base = os.fspath(path)
    if base.startswith("file://"):
        base = urllib.parse.urlparse(base).path
    fs = _fs(base)
    return fs, base.rstrip("/") or "/"


def _complete(fs, base: str, since: Since) -> Iterator[tuple]:
    """(marker directory, bucket directory, marker) of every bucket that ends after ``since``."""
    since_ms = _millis(since)
    for marker_dir, bucket_dir in _markers(fs, base):
        marker = json.loads(fs.read(fs.join(marker_dir, MARKER)))
        if since_ms is not None and marker.get("end_ms", 0) <= since_ms:
            continue
        yield marker_dir, bucket_dir, marker


def _markers(fs, base: str) -> Iterator[tuple]:
    """(directory of a marker, directory of its bucket's shards) for every marker: those in the
    metadata tree and those beside shards."""
    for d, names in fs.walk(base):
        rel = d[len(base):].lstrip("/")
        first = rel.split("/", 1)[0] if rel else ""
        if MARKER not in names:
            continue
        if first == METADATA_DIR:
            # the tree mirrors the buckets, each level's name prefixed with '_'
            levels = [p[1:] for p in rel.split("/")[1:]]
            yield d, fs.join(base, *levels)
        elif not first.startswith((".", "_")):
            yield d, d  # the inline layout


class _LocalFs:
    @staticmethod
    def join(*parts: str) -> str:
        return os.path.join(*[p for p in parts if p])

    @staticmethod
    def read(p: str) -> str:
        with open(p, "r", encoding="utf-8") as f:
            return f.read()

    @staticmethod
    def exists(p: str) -> bool:
        return os.path.isfile(p)

    @staticmethod
    def walk(base: str):
        for d, dirs, names in os.walk(base):
            dirs.sort()
            yield d, names


class _GFile:
    def __init__(self):
        try:
            import tensorflow as tf
        except ImportError as e:
            raise ImportError(
                "listing shards on an object store reads it through tf.io.gfile: install"
                " TensorFlow, or copy the directory locally") from e
        self._gfile = tf.io.gfile

    @staticmethod
    def join(*parts: str) -> str:
        return "/".join(p.strip("/") if i else p.rstrip("/") for i, p in enumerate(parts) if p)

    def read(self, p: str) -> str:
        with self._gfile.GFile(p, "r") as f:
            return f.read()

    def exists(self, p: str) -> bool:
        return self._gfile.exists(p)

    def walk(self, base: str):
        for d, _dirs, names in self._gfile.walk(base):
            yield d.rstrip("/"), names


def _fs(path: str):
    return _GFile() if "://" in path else _LocalFs()
