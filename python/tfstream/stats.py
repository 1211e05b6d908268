"""TFDV's feature statistics from tfstream: the job's ``statistics.topic`` (one
``DatasetFeatureStatisticsList`` per validation window and schema fingerprint) and the files
``tfstream stats --out`` and ``tfstream local`` write.

The messages are TensorFlow Metadata's ``DatasetFeatureStatisticsList`` on the wire; they decode
here into a vendored copy of its proto (package ``tfstream.vendor.tfmd``, so that it never clashes
with ``tensorflow_metadata``), and ``WindowStatistics.data`` keeps the bytes for TFDV itself:
``tfdv.load_stats_binary`` reads a file of them, and
``statistics_pb2.DatasetFeatureStatisticsList.FromString(data)`` of ``tensorflow_metadata`` parses
them. Consuming a topic requires ``confluent-kafka`` (the ``kafka`` extra).
"""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path
from typing import Dict, Iterator, Optional

from tfstream._vendor import statistics_pb2

_log = logging.getLogger(__name__)

DatasetFeatureStatisticsList = statistics_pb2.DatasetFeatureStatisticsList


def load(source) -> statistics_pb2.DatasetFeatureStatisticsList:
    """The statistics in ``source``: the bytes of a ``DatasetFeatureStatisticsList`` or the path of
    a file of them (``stats.pb``)."""
    data = source if isinstance(source, (bytes, bytearray, memoryview)) else Path(source).read_bytes()
    return statistics_pb2.DatasetFeatureStatisticsList.FromString(bytes(data))


@dataclasses.dataclass(frozen=True)
class WindowStatistics:
    """One window's statistics from the job: ``[window_start_ms, window_end_ms)`` under the schema
    of ``fingerprint``; ``data`` the message's bytes, ``statistics`` them decoded."""

    window_start_ms: int
    window_end_ms: int
    fingerprint: str
    data: bytes
    statistics: statistics_pb2.DatasetFeatureStatisticsList
    topic: str
    partition: int
    offset: int


def parse_message(key: bytes, value: bytes, topic: str = "", partition: int = -1,
                  offset: int = -1, timestamp_ms: Optional[int] = None) -> WindowStatistics:
    """A message of ``statistics.topic``: key ``<window start ms>/<fingerprint>``, value the
    serialized statistics: one dataset named ``<start>/<end>`` in ISO-8601, or, with data
    splits (``shards.splits``), one per split named after it; the message's timestamp is the
    window's end - 1 ms."""
    text = key.decode("utf-8")
    start, sep, fingerprint = text.partition("/")
    if not sep or not start.lstrip("-").isdigit():
        raise ValueError(f"not a statistics key (<window start>/<fingerprint>): {text[:64]!r}")
    stats = statistics_pb2.DatasetFeatureStatisticsList.FromString(value)
    end = int(start)
    if stats.datasets and "/" in stats.datasets[0].name:
        end = _window_end(stats.datasets[0].name, int(start))
    elif timestamp_ms is not None and timestamp_ms >= 0:
        end = timestamp_ms + 1
    return WindowStatistics(int(start), end, fingerprint, bytes(value), stats, topic, partition,
                            offset)


def _window_end(name: str, start: int) -> int:
    """The end of the window a dataset name ``<start>/<end>`` (ISO-8601 instants) names."""
    from datetime import datetime

    _, sep, end = name.partition("/")
    if not sep:
        return start
    return int(round(datetime.fromisoformat(end.replace("Z", "+00:00")).timestamp() * 1000))


def consume(
    topic,
    bootstrap_servers: str,
    group_id: str,
    idle_timeout: Optional[float] = None,
    poll_timeout: float = 0.5,
    config: Optional[Dict[str, object]] = None,
    **settings,
) -> Iterator[WindowStatistics]:
    """The window statistics of ``topic`` (a name or a list), read with
    ``isolation.level=read_committed``: statistics of aborted transactions are never seen, and
    each window's appear once. Offsets are committed behind what was taken: a message counts as
    taken when the next one is asked for (or at the end), so after a crash at most the last one
    is delivered again.

    ``settings`` are consumer settings with ``_`` for ``.`` (``auto_offset_reset="latest"``);
    ``config`` takes them with their dotted names (security settings too, as for
    :func:`tfstream.kafka.consume`). ``idle_timeout`` (seconds): stop after that long without a
    message (None: never)."""
    from confluent_kafka import Consumer, KafkaError, KafkaException, TopicPartition

    from tfstream.kafka import consumer_config

    conf = consumer_config(bootstrap_servers, group_id, config, settings)
    failure = []

    def on_error(err):
        if err.fatal() or err.code() in (KafkaError._AUTHENTICATION, KafkaError._SSL):
            failure.append(err)
        else:
            _log.warning("Kafka consumer: %s", err)

    conf.setdefault("error_cb", on_error)
    consumer = Consumer(conf)
    consumer.subscribe([topic] if isinstance(topic, str) else list(topic))
    taken = None
    idle = 0.0
    try:
        while True:
            if taken is not None:
                consumer.commit(offsets=[taken], asynchronous=False)
                taken = None
            msg = consumer.poll(poll_timeout)
            if failure:
                raise KafkaException(failure[0])
            if msg is None:
                idle += poll_timeout
                if idle_timeout is not None and idle >= idle_timeout:
                    return
                continue
            idle = 0.0
            if msg.error():
                if msg.error().code() == KafkaError._PARTITION_EOF:
                    continue
                raise KafkaException(msg.error())
            kind, ts = msg.timestamp()
            item = parse_message(msg.key() or b"", msg.value() or b"", msg.topic(),
                                 msg.partition(), msg.offset(), ts if kind else None)
            taken = TopicPartition(msg.topic(), msg.partition(), msg.offset() + 1)
            yield item
    finally:
        try:
            if taken is not None:
                consumer.commit(offsets=[taken], asynchronous=False)
        finally:
            consumer.close()
