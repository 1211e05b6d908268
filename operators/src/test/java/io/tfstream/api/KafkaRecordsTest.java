package io.tfstream.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.DeadLetterReason;
import io.tfstream.api.model.PayloadKeyMode;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.deadletter.DeadLetterHeaders;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/**
 * The Kafka outputs' record serializers ({@link DeadLetterRecords}, {@link TensorBatchRecords},
 * {@link AcceptedRecords}, {@link ValidationRecords}): the record formats as documented, the
 * payloads' producer sized to their messages, bad arguments and options named, and each usable with
 * Flink's own {@code KafkaSink.builder()}.
 */
class KafkaRecordsTest {
    @Test
    void deadLettersKeepTheRecordAndCarryTheirHeaders() {
        SourceRecord r = SourceRecord.of(new byte[] {1, 2, 3}, "in", 2, 17, 1000L);
        ProducerRecord<byte[], byte[]> out =
                DeadLetterRecords.serializer("dlq", "fp", 4)
                        .serialize(
                                new DeadLetter(r, DeadLetterReason.PARSE_ERROR, "broken record"),
                                null,
                                null);
        assertEquals("dlq", out.topic());
        assertArrayEquals(new byte[] {1, 2, 3}, out.value());
        assertEquals("fp", header(out, DeadLetterHeaders.SCHEMA_FINGERPRINT));
        assertEquals("brok", header(out, DeadLetterHeaders.ERROR));
        assertEquals("17", header(out, DeadLetterHeaders.SOURCE_OFFSET));
    }

    @Test
    void theDeadLettersOfAConfigurationAreThoseOfTheirOptions() {
        ProducerRecord<byte[], byte[]> out =
                DeadLetterRecords.fromConfig(
                                Configuration.fromMap(
                                        Map.of("topic", "dead", "max-error-bytes", "2")),
                                "fp")
                        .serialize(
                                new DeadLetter(
                                        SourceRecord.of(new byte[] {9}, "in", 0, 1, 5L),
                                        DeadLetterReason.PARSE_ERROR,
                                        "broken"),
                                null,
                                null);
        assertEquals("dead", out.topic());
        assertEquals("br", header(out, DeadLetterHeaders.ERROR));
        assertEquals(
                "topic must be a non-empty topic name",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> DeadLetterRecords.fromConfig(new Configuration(), "fp"))
                        .getMessage());
    }

    @Test
    void thePayloadProducerHoldsItsLargestMessage() {
        Properties base = new Properties();
        base.setProperty("linger.ms", "5");
        Properties p = TensorBatchRecords.producerProperties(base, 1 << 20);
        assertEquals(Integer.toString(1 << 20), p.get("max.request.size"));
        assertNull(p.get("buffer.memory"), "32 MiB hold two");
        assertEquals("5", p.get("linger.ms"));
        assertEquals(1, base.size(), "the given properties are not changed");
        assertEquals((1 << 20) - 1024, TensorBatchRecords.maxPayloadBytes(1 << 20));
        Properties big = TensorBatchRecords.producerProperties(new Properties(), 20L << 20);
        assertEquals(Long.toString(40L << 20), big.get("buffer.memory"));
        BuilderErrors.assertNamed(
                assertThrows(
                                IllegalArgumentException.class,
                                () -> TensorBatchRecords.maxPayloadBytes(1000))
                        .getMessage(),
                "maxMessageBytes");
    }

    @Test
    void badArgumentsAreNamed() {
        BuilderErrors.assertNamed(
                assertThrows(
                                IllegalArgumentException.class,
                                () -> TensorBatchRecords.serializer(" ", PayloadKeyMode.NONE))
                        .getMessage(),
                "topic");
        BuilderErrors.assertNamed(
                assertThrows(
                                IllegalArgumentException.class,
                                () -> TensorBatchRecords.serializer("t", null))
                        .getMessage(),
                "key");
        BuilderErrors.assertNamed(
                assertThrows(
                                IllegalArgumentException.class,
                                () -> DeadLetterRecords.serializer("t", "fp", -1))
                        .getMessage(),
                "maxErrorBytes");
        BuilderErrors.assertNamed(
                assertThrows(
                                IllegalArgumentException.class,
                                () -> DeadLetterRecords.serializer("t", null))
                        .getMessage(),
                "schemaFingerprint");
        BuilderErrors.assertNamed(
                assertThrows(IllegalArgumentException.class, () -> AcceptedRecords.serializer(""))
                        .getMessage(),
                "topic");
        BuilderErrors.assertNamed(
                assertThrows(
                                IllegalArgumentException.class,
                                () -> ValidationRecords.serializer(null))
                        .getMessage(),
                "topic");
        String key =
                assertThrows(
                                IllegalArgumentException.class,
                                () ->
                                        TensorBatchRecords.fromConfig(
                                                Configuration.fromMap(
                                                        Map.of("topic", "t", "key", "x"))))
                        .getMessage();
        assertTrue(key.contains("'key'") || key.contains(" key"), key);
    }

    @Test
    void eachIsTheRecordSerializerOfFlinksKafkaSink() {
        KafkaSink<SourceRecord> sink =
                KafkaSink.<SourceRecord>builder()
                        .setBootstrapServers("b:9092")
                        .setRecordSerializer(
                                AcceptedRecords.fromConfig(
                                        Configuration.fromMap(Map.of("records.topic", "out"))))
                        .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                        .setTransactionalIdPrefix("job-records")
                        .build();
        assertEquals(KafkaSink.class, sink.getClass());
        ProducerRecord<byte[], byte[]> out =
                AcceptedRecords.serializer("out")
                        .serialize(SourceRecord.of(new byte[] {4}, "in", 0, 3, 7L), null, null);
        assertEquals("out", out.topic());
        assertArrayEquals(new byte[] {4}, out.value());
    }

    private static String header(ProducerRecord<byte[], byte[]> r, String name) {
        return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }
}
