"""tfstream.kafka.consume on a broker that authenticates (SASL over TLS, mutual TLS; the broker's
certificate checked against its CA and its host name) and authorizes with ACLs: the consumer
reads with exactly READ on the topic and the group; a wrong password or a CA that is not the
broker's ends the iteration with an error instead of silence.

SASL is SCRAM-SHA-512 where librdkafka can log in with it to a Kafka 4.x broker (2.6.1 and
later), PLAIN otherwise (Debian 12 ships librdkafka 2.0.2): the broker takes both."""

from __future__ import annotations

import configparser

import confluent_kafka
import pytest

from tfstream import kafka, payloads
from tfstream.payloads import records


def _secrets(broker) -> dict:
    parser = configparser.ConfigParser()
    with open(broker.info["secrets"], encoding="utf-8") as f:
        parser.read_string("[s]\n" + f.read())
    return dict(parser["s"])


SCRAM = confluent_kafka.libversion()[1] >= 0x020601FF


def _client(broker, password=None, ca=None) -> dict:
    return {
        "security.protocol": "SASL_SSL",
        "sasl.mechanisms": "SCRAM-SHA-512" if SCRAM else "PLAIN",
        "sasl.username": broker.info["scram.user"],
        "sasl.password": password or _secrets(broker)["scram.password"],
        "ssl.ca.location": ca or broker.info["ca.pem"],
    }


def _setup(broker, topic, group, raw):
    broker.create_topic(topic, 2)
    principal = "User:" + broker.info["scram.user"]
    broker.grant("TOPIC", topic, principal, "READ")
    broker.grant("GROUP", group, principal, "READ")
    producer = confluent_kafka.Producer({"bootstrap.servers": broker.bootstrap_servers})
    for i, data in enumerate(raw):
        producer.produce(topic, data, partition=i % 2)
    assert producer.flush(30) == 0


def test_consume_over_sasl_ssl_with_only_read_acls(secured_broker, example_corpus):
    topic, group = "secured-payloads", "secured-trainer"
    raw = [data for _, data in records(example_corpus.payloads)]
    expected = {b.batch_id: b for b in payloads.assemble(
        payloads.read_file(example_corpus.payloads), spec=example_corpus.spec_path)}
    _setup(secured_broker, topic, group, raw)
    with kafka.consume(topic, secured_broker.info["sasl_ssl.servers"], group,
                       spec=example_corpus.spec_path, idle_timeout=10,
                       config=_client(secured_broker)) as consumer:
        got = {b.batch_id: b for b in consumer}
    assert set(got) == set(expected)
    for bid, b in got.items():
        assert (b.rows, b.sources) == (expected[bid].rows, expected[bid].sources)


def test_consume_over_mutual_tls(secured_broker, example_corpus):
    topic, group = "mtls-payloads", "mtls-trainer"
    raw = [data for _, data in records(example_corpus.payloads)]
    secured_broker.create_topic(topic, 2)
    secured_broker.grant("TOPIC", topic, "User:tfstream-client", "READ")
    secured_broker.grant("GROUP", group, "User:tfstream-client", "READ")
    producer = confluent_kafka.Producer({"bootstrap.servers": secured_broker.bootstrap_servers})
    for i, data in enumerate(raw):
        producer.produce(topic, data, partition=i % 2)
    assert producer.flush(30) == 0
    tls = secured_broker.info["ca.pem"].rsplit("/", 1)[0]
    with kafka.consume(topic, secured_broker.info["ssl.servers"], group,
                       spec=example_corpus.spec_path, idle_timeout=10, config={
                           "security.protocol": "SSL",
                           "ssl.ca.location": secured_broker.info["ca.pem"],
                           "ssl.keystore.location": tls + "/client.p12",
                           "ssl.keystore.password": _secrets(secured_broker)["store.password"],
                       }) as consumer:
        got = [b.batch_id for b in consumer]
    assert len(got) == len(set(got)) >= 4


def test_a_wrong_password_fails_instead_of_waiting(secured_broker, example_corpus):
    consumer = kafka.consume("secured-payloads", secured_broker.info["sasl_ssl.servers"],
                             "wrong", spec=example_corpus.spec_path, idle_timeout=30,
                             config=_client(secured_broker, password="not-the-password"))
    with pytest.raises(confluent_kafka.KafkaException, match="(?i)authentication"):
        next(consumer)
    consumer.close(commit=False)


def test_an_untrusted_broker_certificate_fails_instead_of_waiting(secured_broker, example_corpus,
                                                                   tmp_path):
    # A CA file that holds a certificate, just not the broker's: the client's own.
    other = tmp_path / "other-ca.pem"
    other.write_text(open(secured_broker.info["ca.pem"].replace("broker.pem", "client.pem"),
                          encoding="ascii").read(), encoding="ascii")
    consumer = kafka.consume("secured-payloads", secured_broker.info["sasl_ssl.servers"],
                             "untrusted", spec=example_corpus.spec_path, idle_timeout=30,
                             config=_client(secured_broker, ca=str(other)))
    with pytest.raises(confluent_kafka.KafkaException, match="(?i)ssl|certificate"):
        next(consumer)
    consumer.close(commit=False)
