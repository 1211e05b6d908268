"""tfstream.shards: the finished shards of a shard directory, by their _SUCCESS markers, without
TensorFlow. A `tfstream local` run's listing is checked against its summary.json; the layouts,
data splits, `since` and index files against directories built here as the job writes them."""

import datetime as dt
import json
import os
from pathlib import Path

import pytest

from tfstream import shards
from tfstream.payloads import records, write_records


def test_the_shards_of_a_local_run_are_those_its_summary_names(example_corpus):
    out = example_corpus.payloads.parent
    summary = json.loads((out / "summary.json").read_text())
    listed = shards.files(out / "shards")
    assert [os.path.relpath(f.path, out) for f in listed] == sorted(summary["shards"])
    assert sum(f.records for f in listed) == summary["accepted"]
    for f in listed:
        assert sum(1 for _ in records(f.path)) == f.records
        assert os.path.getsize(f.path) == f.bytes
        assert f.split is None and f.index is None
    # file:// URIs name the same directory
    uri = (out / "shards").as_uri()
    assert [f.path for f in shards.files(uri)] == [f.path for f in listed]


def _bucket(base: Path, bucket: str, end_ms: int, names, layout="separate", index=False):
    """Shards of `bucket` (names relative to it, `Split-x/...` with splits) with their marker
    where `layout` puts it, and DALI index files when asked."""
    separate = layout == "separate"

    def hidden(rel):  # names in the _tfstream tree start with '_'
        return "/".join("_" + p for p in rel.split("/")) if separate else rel

    meta = base / "_tfstream" / hidden(bucket) if separate else base / bucket
    entries = []
    for i, name in enumerate(names):
        shard = base / bucket / name
        shard.parent.mkdir(parents=True, exist_ok=True)
        write_records(shard, [b"r%d" % k for k in range(i + 1)])
        entries.append({"shard": name, "records": i + 1, "bytes": shard.stat().st_size})
        if index:
            (meta / hidden(name)).parent.mkdir(parents=True, exist_ok=True)
            (meta / (hidden(name) + ".idx")).write_text("0 18\n")
    meta.mkdir(parents=True, exist_ok=True)
    (meta / "_SUCCESS").write_text(json.dumps(
        {"bucket": bucket, "end_ms": end_ms, "shards": entries}) + "\n")


HOUR_16 = int(dt.datetime(2026, 11, 24, 17, tzinfo=dt.timezone.utc).timestamp() * 1000)


def test_splits_since_index_files_and_both_layouts(tmp_path):
    base = tmp_path / "shards"
    _bucket(base, "dt=2026-11-24/hour=16", HOUR_16,
            ["Split-train/part-a-0.tfrecord", "Split-eval/part-a-1.tfrecord"], index=True)
    # a bucket written by an earlier version, its marker beside its shards
    _bucket(base, "dt=2026-11-24/hour=15", HOUR_16 - 3_600_000, ["part-b-0.tfrecord"],
            layout="inline")
    # a bucket still open: shards, no marker; and an in-progress part
    (base / "dt=2026-11-24/hour=17").mkdir(parents=True)
    write_records(base / "dt=2026-11-24/hour=17/part-c-0.tfrecord", [b"x"])
    (base / "dt=2026-11-24/hour=16/Split-train/.part-a-9.tfrecord.inprogress.1").write_bytes(b"1")

    listed = shards.files(base)
    assert [os.path.relpath(f.path, base) for f in listed] == [
        "dt=2026-11-24/hour=15/part-b-0.tfrecord",
        "dt=2026-11-24/hour=16/Split-eval/part-a-1.tfrecord",
        "dt=2026-11-24/hour=16/Split-train/part-a-0.tfrecord",
    ]
    by_name = {Path(f.path).name: f for f in listed}
    assert by_name["part-a-0.tfrecord"].split == "train"
    assert by_name["part-a-0.tfrecord"].bucket == "dt=2026-11-24/hour=16"
    assert by_name["part-a-0.tfrecord"].index == str(
        base / "_tfstream/_dt=2026-11-24/_hour=16/_Split-train/_part-a-0.tfrecord.idx")
    assert by_name["part-b-0.tfrecord"].index is None
    assert [Path(f.path).name for f in shards.files(base, split="eval")] == ["part-a-1.tfrecord"]
    # since: buckets ending after it
    after_15 = dt.datetime(2026, 11, 24, 16, 30, tzinfo=dt.timezone.utc)
    assert [f.bucket for f in shards.files(base, since=after_15)] == ["dt=2026-11-24/hour=16"] * 2
    assert shards.files(base, since=HOUR_16) == []
    with pytest.raises(ValueError, match="aware datetime"):
        shards.files(base, since=dt.datetime(2026, 11, 24))


def test_after_a_rollback_only_the_restored_lineage_is_listed(tmp_path):
    """A rollback as the job leaves it: history `a` committed shards before and after savepoint S
    (checkpoint 5), history `b` restored from S wrote the records after S again. The marker lists
    the lineage `a` through 5 and `b`; the files of `a` committed after S stay in the directory
    (a glob sees them) but are not listed, so every record is read once."""
    base = tmp_path / "shards"
    bucket = "dt=2026-11-24/hour=16"
    meta = base / "_tfstream" / "_dt=2026-11-24" / "_hour=16"
    meta.mkdir(parents=True)
    shards_of = {
        "part-j-a-0-0.tfrecord": ("a", 3, [b"r0", b"r1"]),  # before S
        "part-j-a-0-1.tfrecord": ("a", 6, [b"r2", b"r3"]),  # after S: abandoned
        "part-j-b-0-0.tfrecord": ("b", 6, [b"r2", b"r3"]),  # the restored history again
    }
    entries = []
    for name, (history, checkpoint, recs) in shards_of.items():
        shard = base / bucket / name
        shard.parent.mkdir(parents=True, exist_ok=True)
        write_records(shard, recs)
        (meta / ("_" + name + ".manifest.json")).write_text(json.dumps(
            {"shard": name, "bucket": bucket, "records": len(recs),
             "history": {"id": history, "checkpoint": checkpoint}}) + "\n")
        if history == "b" or checkpoint <= 5:
            entries.append({"shard": name, "records": len(recs),
                            "bytes": shard.stat().st_size})
    (meta / "_SUCCESS").write_text(json.dumps(
        {"bucket": bucket, "end_ms": HOUR_16, "jobs": ["j"],
         "histories": [{"id": "a", "through": 5}, {"id": "b"}], "shards": entries}) + "\n")

    listed = shards.files(base)
    assert [Path(f.path).name for f in listed] == ["part-j-a-0-0.tfrecord", "part-j-b-0-0.tfrecord"]
    read = [r for f in listed for _, r in records(f.path)]
    assert sorted(read) == [b"r0", b"r1", b"r2", b"r3"]
    assert len(list((base / bucket).glob("*.tfrecord"))) == 3


def test_an_empty_or_missing_directory_lists_nothing(tmp_path):
    assert shards.files(tmp_path) == []
    assert shards.files(tmp_path / "absent") == []


def test_the_statistics_of_complete_buckets_by_their_markers(tmp_path):
    from tfstream import stats

    base = tmp_path / "shards"
    _bucket(base, "dt=2026-11-24/hour=16", HOUR_16,
            ["Split-train/part-a-0.tfrecord", "Split-eval/part-a-1.tfrecord"])
    meta = base / "_tfstream/_dt=2026-11-24/_hour=16"
    marker = json.loads((meta / "_SUCCESS").read_text())
    names = ["_statistics/Split-train/FeatureStats.pb", "_statistics/Split-eval/FeatureStats.pb"]
    for n, name in enumerate(names):
        listed = stats.DatasetFeatureStatisticsList()
        listed.datasets.add(name="", num_examples=n + 1)
        (meta / name).parent.mkdir(parents=True)
        (meta / name).write_bytes(listed.SerializeToString())
    marker["statistics"] = names
    (meta / "_SUCCESS").write_text(json.dumps(marker) + "\n")
    # a bucket without statistics (written before shards.statistics)
    _bucket(base, "dt=2026-11-24/hour=15", HOUR_16 - 3_600_000, ["part-b-0.tfrecord"])

    found = shards.statistics(base)
    assert [(os.path.relpath(f.path, base), f.bucket, f.split) for f in found] == [
        ("_tfstream/_dt=2026-11-24/_hour=16/_statistics/Split-eval/FeatureStats.pb",
         "dt=2026-11-24/hour=16", "eval"),
        ("_tfstream/_dt=2026-11-24/_hour=16/_statistics/Split-train/FeatureStats.pb",
         "dt=2026-11-24/hour=16", "train"),
    ]
    assert [stats.load(f.path).datasets[0].num_examples for f in found] == [2, 1]
    assert [f.split for f in shards.statistics(base, split="train")] == ["train"]
    assert shards.statistics(base, since=HOUR_16) == []
