"""tfstream.kafka.consume against a real broker (io.tfstream.local.EmbeddedKafkaMain): payloads
of a `tfstream local` run produced transactionally over 3 partitions with aborted transactions
between them; read_committed, assembly across partitions, and a consumer restart after a crash
that delivers again only what was taken but not committed."""

from __future__ import annotations

import random

import confluent_kafka

from tfstream import kafka, payloads
from tfstream.payloads import records
from encode import encode
from values import assert_batch_matches

PARTITIONS = 3


def _produce(broker, topic, raw, seed):
    """Every payload of `raw` committed on a random partition, in transactions of a few,
    with an aborted transaction of other payloads after each; (partition, offset) per batch."""
    r = random.Random(seed)
    producer = confluent_kafka.Producer({
        "bootstrap.servers": broker.bootstrap_servers, "transactional.id": f"{topic}-producer",
        "enable.idempotence": True})
    producer.init_transactions(30)
    where = {}

    def delivered(batch_id):
        def report(err, msg):
            assert err is None, err
            where.setdefault(batch_id, []).append((msg.partition(), msg.offset()))
        return report

    i = 0
    while i < len(raw):
        producer.begin_transaction()
        for data in raw[i:i + r.randint(1, 8)]:
            batch_id = payloads.decode(data).batch_id
            producer.produce(topic, data, partition=r.randrange(PARTITIONS),
                             on_delivery=delivered(batch_id))
            i += 1
        producer.commit_transaction(30)
        producer.begin_transaction()
        for k in range(r.randint(1, 3)):
            fake = payloads.decode(raw[r.randrange(len(raw))])
            fake.batch_id, fake.part, fake.parts = f"aborted-{i}-{k}", 0, 0
            producer.produce(topic, encode(fake), partition=r.randrange(PARTITIONS))
        producer.flush(30)
        producer.abort_transaction(30)
    return where


def _committed(broker, topic, group):
    c = confluent_kafka.Consumer({"bootstrap.servers": broker.bootstrap_servers,
                                  "group.id": group})
    try:
        tps = [confluent_kafka.TopicPartition(topic, p) for p in range(PARTITIONS)]
        return {tp.partition: tp.offset for tp in c.committed(tps, timeout=30)}
    finally:
        c.close()


def test_read_committed_assembly_across_partitions_and_a_restart(broker, example_corpus):
    topic, group = "payloads", "trainer"
    broker.create_topic(topic, PARTITIONS)
    raw = [data for _, data in records(example_corpus.payloads)]
    expected = {b.batch_id: b for b in payloads.assemble(
        payloads.read_file(example_corpus.payloads), spec=example_corpus.spec_path)}
    assert len(expected) >= 4
    where = _produce(broker, topic, raw, seed=5)
    spread = {bid for bid, locs in where.items() if len({p for p, _ in locs}) > 1}
    assert spread, "some batch should have parts in several partitions"

    first = kafka.consume(topic, broker.bootstrap_servers, group, spec=example_corpus.spec_path,
                          idle_timeout=10)
    taken = [next(first).batch_id for _ in range(len(expected) // 2)]
    first.close(commit=False)  # a crash: the last batch taken is not committed
    committed = _committed(broker, topic, group)

    with kafka.consume(topic, broker.bootstrap_servers, group, spec=example_corpus.spec_path,
                       idle_timeout=10) as second:
        again = list(second)
    ids = [b.batch_id for b in again]
    assert not any(i.startswith("aborted-") for i in taken + ids), "read_committed"
    assert len(ids) == len(set(ids))
    # Taken and committed: every payload of the batch is below its partition's commit.
    done = {bid for bid in taken
            if all(off < committed[p] for p, off in where[bid])}
    assert taken[-1] not in done, "the last batch taken was not committed"
    assert len(done) >= 1
    assert set(ids) == set(expected) - done, "redelivered: exactly the uncommitted ones"
    for b in again:
        e = expected[b.batch_id]
        assert (b.rows, b.sources) == (e.rows, e.sources)
        assert_batch_matches(b, e.groups(), f"batch {b.batch_id}")
    # After a clean close everything delivered is committed: each partition up to its last
    # committed payload.
    assert _committed(broker, topic, group) == {
        p: max(off for locs in where.values() for q, off in locs if q == p) + 1
        for p in range(PARTITIONS)}
