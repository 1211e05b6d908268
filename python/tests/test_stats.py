"""tfstream.stats: statistics files of `tfstream stats --out`, and the job's statistics topic read
with read_committed from a real broker (messages produced as the job writes them, with aborted
transactions between them), offsets committed behind what was taken."""

from __future__ import annotations

import confluent_kafka

from conftest import run_cli
from tfstream import stats

WINDOW = 60_000
T0 = 1_767_225_600_000  # 2026-01-01T00:00:00Z


def _iso(ms: int) -> str:
    from datetime import datetime, timezone

    return datetime.fromtimestamp(ms / 1000, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _window_message(data: bytes, w: int) -> bytes:
    """The statistics of a `tfstream stats` run as the job names a window's: one dataset named
    <start>/<end>."""
    s = stats.load(data)
    s.datasets[0].name = f"{_iso(T0 + w * WINDOW)}/{_iso(T0 + (w + 1) * WINDOW)}"
    return s.SerializeToString()


def test_load_reads_what_tfstream_stats_writes(example_corpus, tmp_path):
    out = tmp_path / "stats.pb"
    run_cli("stats", "--out", str(out), str(example_corpus.input))
    s = stats.load(out)
    assert s == stats.load(out.read_bytes())
    assert s.datasets[0].num_examples == len(example_corpus.records)
    names = [".".join(f.path.step) for f in s.datasets[0].features]
    assert names == sorted(names) and names
    assert stats.DatasetFeatureStatisticsList.DESCRIPTOR.full_name == \
        "tfstream.vendor.tfmd.DatasetFeatureStatisticsList"


def test_consume_reads_committed_windows_once(example_corpus, broker, tmp_path):
    out = tmp_path / "stats.pb"
    run_cli("stats", "--out", str(out), str(example_corpus.input))
    data = out.read_bytes()
    topic = "py-statistics"
    broker.create_topic(topic, 2)
    producer = confluent_kafka.Producer({
        "bootstrap.servers": broker.bootstrap_servers, "transactional.id": "py-statistics-tx",
        "enable.idempotence": True})
    producer.init_transactions(30)
    sent = {}
    for w in range(6):
        value = _window_message(data, w)
        producer.begin_transaction()
        producer.produce(topic, value, key=f"{T0 + w * WINDOW}/fp1".encode(), partition=w % 2)
        producer.commit_transaction(30)
        sent[w] = value
        producer.begin_transaction()
        producer.produce(topic, b"aborted", key=f"{T0 + w * WINDOW}/aborted".encode(),
                         partition=w % 2)
        producer.flush(30)
        producer.abort_transaction(30)

    got = list(stats.consume(topic, broker.bootstrap_servers, "py-stats", idle_timeout=5))
    assert sorted(g.window_start_ms for g in got) == [T0 + w * WINDOW for w in range(6)]
    for g in got:
        w = (g.window_start_ms - T0) // WINDOW
        assert g.fingerprint == "fp1"
        assert g.window_end_ms == g.window_start_ms + WINDOW
        assert g.data == sent[w]
        assert g.statistics == stats.load(sent[w])
        assert g.statistics.datasets[0].num_examples == len(example_corpus.records)
    # everything taken was committed: the group reads nothing again
    assert list(stats.consume(topic, broker.bootstrap_servers, "py-stats", idle_timeout=3)) == []


def test_a_key_that_is_no_window_is_refused():
    import pytest

    with pytest.raises(ValueError, match="not a statistics key"):
        stats.parse_message(b"no-window", b"")


def test_datasets_named_after_data_splits_take_the_window_end_from_the_timestamp():
    from tfstream._vendor import statistics_pb2

    lst = statistics_pb2.DatasetFeatureStatisticsList()
    lst.datasets.add(name="train", num_examples=3)
    lst.datasets.add(name="eval", num_examples=1)
    g = stats.parse_message(b"60000/abc", lst.SerializeToString(), timestamp_ms=119999)
    assert (g.window_start_ms, g.window_end_ms) == (60000, 120000)
    assert [d.name for d in g.statistics.datasets] == ["train", "eval"]
