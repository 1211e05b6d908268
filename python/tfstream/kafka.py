"""Consuming a payload topic (``output.batches.topic``) with ``read_committed``: whole batches,
parts and windows assembled, offsets committed only behind what was taken.

Requires ``confluent-kafka`` (the ``kafka`` extra; Debian: python3-confluent-kafka).
"""

from __future__ import annotations

import logging
from typing import Callable, Dict, Iterator, List, Optional, Set, Tuple

from tfstream.payloads import (
    DEFAULT_MAX_ELEMENTS,
    Assembler,
    Batch,
    IncompleteBatch,
    decode,
    load_spec,
)
from tfstream.payloads import _budget
from tfstream.payloads._types import PayloadError

_log = logging.getLogger(__name__)

# librdkafka's version number (libversion()[1]) from which SCRAM works with Kafka 4.x brokers.
_SCRAM_WITH_KAFKA_4 = 0x020601FF


def consume(
    topic,
    bootstrap_servers: str,
    group_id: str,
    spec=None,
    idle_timeout: Optional[float] = None,
    poll_timeout: float = 0.5,
    on_incomplete: Optional[Callable[[IncompleteBatch], None]] = None,
    config: Optional[Dict[str, object]] = None,
    max_elements: int = DEFAULT_MAX_ELEMENTS,
    max_total_bytes: Optional[int] = None,
    **settings,
) -> "PayloadConsumer":
    """Assembled batches (see :func:`tfstream.payloads.assemble`) from a payload topic (a name or
    a list), read with ``isolation.level=read_committed``: payloads of aborted transactions are
    never seen.

    Offsets: nothing is auto-committed. When the next batch is asked for, the one handed out
    before it counts as taken, and each partition's offset is committed up to its oldest payload
    that is held for a batch not yet assembled and taken (or to its end when none is). So after
    a restart (a crash included) the group re-reads the parts still waiting, and delivers again
    at most the batches taken but not committed: the last one handed out, and those after a
    payload held for a batch that was still incomplete. ``close()`` commits the last batch too.

    ``settings`` are consumer settings with ``_`` for ``.`` (``auto_offset_reset="latest"``);
    ``config`` takes them with their dotted names. Defaults: ``auto.offset.reset=earliest``,
    ``enable.auto.commit=false`` (fixed). ``idle_timeout`` (seconds): stop after that long
    without a message (None: never). Batches still incomplete at a stop are reported to
    ``on_incomplete`` (or logged) and their payloads stay uncommitted.

    A batch's payloads must all reach this consumer: use one consumer per group, or keys that
    keep a batch's payloads in one partition (``output.batches.key``).

    ``max_elements``: elements one tensor may declare at most, checked before allocating (see
    :func:`tfstream.payloads.decode`); a payload over it raises :class:`PayloadError`.
    ``max_total_bytes``: bytes all the tensors of one payload may declare together, and all the
    padded features of one assembled batch may take (None: ``max(64 MiB, 1024 x`` the payload
    bytes ``)``, see :func:`tfstream.payloads.default_max_total_bytes`), checked before
    allocating; over it raises :class:`PayloadError`.
    """
    conf = consumer_config(bootstrap_servers, group_id, config, settings)
    conf["enable.auto.offset.store"] = False
    topics = [topic] if isinstance(topic, str) else list(topic)
    return PayloadConsumer(topics, conf, load_spec(spec), idle_timeout, poll_timeout,
                           on_incomplete, max_elements, max_total_bytes)


def consumer_config(bootstrap_servers: str, group_id: str, config: Optional[Dict[str, object]],
                    settings: Dict[str, object]) -> Dict[str, object]:
    """A read_committed consumer's settings without auto-commit: ``settings`` with ``_`` for
    ``.``, then ``config`` with dotted names, over ``auto.offset.reset=earliest``."""
    conf: Dict[str, object] = {"auto.offset.reset": "earliest"}
    conf.update({k.replace("_", "."): v for k, v in settings.items()})
    conf.update(config or {})
    conf.update({
        "bootstrap.servers": bootstrap_servers,
        "group.id": group_id,
        "isolation.level": "read_committed",
        "enable.auto.commit": False,
    })
    return conf


class PayloadConsumer:
    """An iterator of assembled batches over a Kafka consumer (see :func:`consume`)."""

    def __init__(self, topics, conf, spec, idle_timeout, poll_timeout, on_incomplete,
                 max_elements=DEFAULT_MAX_ELEMENTS, max_total_bytes=None):
        from confluent_kafka import Consumer  # the optional dependency, only here

        _budget.limit(max_total_bytes, 0)  # a bad limit fails here, not at a message

        self._failure = None
        self._mechanism = str(conf.get("sasl.mechanisms", conf.get("sasl.mechanism", "")))
        if "error_cb" not in conf:
            conf = dict(conf, error_cb=self._on_error)
        self._consumer = Consumer(conf)
        self._spec = spec
        self._idle = idle_timeout
        self._poll = poll_timeout
        self._on_incomplete = on_incomplete
        self._max_elements = max_elements
        self._max_total_bytes = max_total_bytes
        self._reset()
        self._closed = False
        self._commit_on_revoke = True
        self._consumer.subscribe(topics, on_revoke=self._revoked)

    def _on_error(self, err) -> None:
        """Errors of the client itself (not of a message): a failed login or TLS handshake is
        final, where the client alone would retry forever and the consumer see only silence."""
        from confluent_kafka import KafkaError

        if err.fatal() or err.code() in (KafkaError._AUTHENTICATION, KafkaError._SSL):
            self._failure = err
        else:
            _log.warning("Kafka consumer: %s", err)

    def _failed(self):
        from confluent_kafka import KafkaError, KafkaException, libversion

        err = self._failure
        if (err.code() == KafkaError._AUTHENTICATION and self._mechanism.upper().startswith("SCRAM")
                and libversion()[1] < _SCRAM_WITH_KAFKA_4):
            # librdkafka before 2.6.1 repeats the client nonce in its SCRAM proof, which Kafka 4.x
            # brokers refuse (confluentinc/librdkafka#4895).
            err = KafkaError(err.code(), f"{err.str()}; librdkafka {libversion()[0]} cannot log in"
                             " with SCRAM to Kafka 4.x brokers (2.6.1 or later can): upgrade"
                             " confluent-kafka, or use PLAIN over TLS or mutual TLS", fatal=True)
        return KafkaException(err)

    def _reset(self) -> None:
        self._assembler = Assembler(self._spec, max_total_bytes=self._max_total_bytes)
        # (topic, partition) -> next offset to read; the held payloads' offsets per partition
        self._next: Dict[Tuple[str, int], int] = {}
        self._held: Dict[Tuple[str, int], Set[int]] = {}
        self._held_by_batch: Dict[str, List[Tuple[Tuple[str, int], int]]] = {}
        self._taken: Optional[List[Tuple[Tuple[str, int], int]]] = None
        self._committed: Dict[Tuple[str, int], int] = {}

    def __iter__(self) -> Iterator[Batch]:
        return self

    def __next__(self) -> Batch:
        if self._closed:
            raise StopIteration
        self._release_taken()
        self.commit()
        idle = 0.0
        while True:
            msg = self._consumer.poll(self._poll)
            if self._failure is not None:
                raise self._failed()
            if msg is None:
                idle += self._poll
                if self._idle is not None and idle >= self._idle:
                    self._report_incomplete()
                    raise StopIteration
                continue
            if msg.error():
                from confluent_kafka import KafkaError, KafkaException

                if msg.error().code() == KafkaError._PARTITION_EOF:
                    continue
                raise KafkaException(msg.error())
            idle = 0.0
            tp = (msg.topic(), msg.partition())
            self._next[tp] = msg.offset() + 1
            try:
                batch = decode(msg.value(), max_elements=self._max_elements,
                               max_total_bytes=self._max_total_bytes)
            except PayloadError as e:
                raise PayloadError(
                    f"{tp[0]}-{tp[1]} offset {msg.offset()}: {e}") from e
            entry = (tp, msg.offset())
            try:
                whole = self._assembler.add(batch)
            except PayloadError as e:
                raise PayloadError(
                    f"batch {batch.batch_id!r} completed by {tp[0]}-{tp[1]} offset "
                    f"{msg.offset()}: {e}") from e
            if whole is None:
                if not self._assembler.is_pending(batch.batch_id):
                    continue  # a redelivery of a batch handed out already
                self._held.setdefault(tp, set()).add(msg.offset())
                self._held_by_batch.setdefault(batch.batch_id, []).append(entry)
                continue
            self._taken = self._held_by_batch.pop(whole.batch_id, []) if (
                batch.parts or batch.is_window) else []
            return whole

    def _release_taken(self) -> None:
        """The batch handed out before is taken: its payloads no longer hold offsets back."""
        if self._taken is not None:
            for tp, offset in self._taken:
                self._held.get(tp, set()).discard(offset)
            self._taken = None

    def commit(self) -> None:
        """Commits, per partition, up to its oldest payload held for a batch not yet taken."""
        from confluent_kafka import TopicPartition

        offsets = []
        for tp, nxt in self._next.items():
            held = self._held.get(tp)
            pos = min(held) if held else nxt
            if self._committed.get(tp) != pos:
                offsets.append(TopicPartition(tp[0], tp[1], pos))
                self._committed[tp] = pos
        if offsets:
            self._consumer.commit(offsets=offsets, asynchronous=False)

    def _revoked(self, consumer, partitions) -> None:
        # Eager rebalance: commit what was taken, forget the rest; the next owner of each
        # partition re-reads from the committed offsets (held parts included).
        if self._commit_on_revoke:
            self._release_taken()
            self.commit()
        self._reset()

    def _report_incomplete(self) -> None:
        for i in self._assembler.pending():
            if self._on_incomplete is not None:
                self._on_incomplete(i)
            else:
                _log.warning("incomplete, not committed: %s", i)

    def close(self, commit: bool = True) -> None:
        """Commits the last batch handed out (unless ``commit`` is false, as after a crash) and
        closes the consumer."""
        if self._closed:
            return
        if commit:
            self._release_taken()
            self.commit()
        self._commit_on_revoke = commit
        self._closed = True
        self._consumer.close()

    def __enter__(self) -> "PayloadConsumer":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        self.close(commit=exc_type is None)
