package io.tfstream.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.DeadLetterReason;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.deadletter.DeadLetterHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Properties;
import java.util.function.Supplier;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/**
 * The Kafka sink builders ({@link TensorPayloadSink}, {@link DeadLetterSink}, {@link
 * AcceptedRecordSink}, {@link ValidationAlertSink}): exactly once by default with the transaction
 * timeout of {@code tfstream run}, the payloads' producer sized to their messages, the record
 * formats as documented, bad settings named at build.
 */
class KafkaSinksTest {
    private static String failure(TfstreamKafkaSinkBuilder<?, ?> b) {
        return assertThrows(IllegalArgumentException.class, b::build).getMessage();
    }

    @Test
    void exactlyOnceWithTheTransactionTimeoutByDefault() {
        for (Supplier<TfstreamKafkaSinkBuilder<?, ?>> sink :
                java.util.List.<Supplier<TfstreamKafkaSinkBuilder<?, ?>>>of(
                        () ->
                                TensorPayloadSink.builder()
                                        .setBootstrapServers("b:9092")
                                        .setTopic("t"),
                        () -> DeadLetterSink.builder().setBootstrapServers("b:9092").setTopic("t"),
                        () ->
                                AcceptedRecordSink.builder()
                                        .setBootstrapServers("b:9092")
                                        .setTopic("t"),
                        () ->
                                ValidationAlertSink.builder()
                                        .setBootstrapServers("b:9092")
                                        .setTopic("t"))) {
            String message = failure(sink.get());
            assertTrue(message.startsWith("transactionalIdPrefix is required"), message);
            TfstreamKafkaSinkBuilder<?, ?> b = sink.get().setTransactionalIdPrefix("job-out");
            assertNotNull(b.build());
            assertEquals("600000", b.producerProperties().get("transaction.timeout.ms"));
            // At least once needs no transactions.
            TfstreamKafkaSinkBuilder<?, ?> plain =
                    sink.get().setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE);
            assertNotNull(plain.build());
            assertNull(plain.producerProperties().get("transaction.timeout.ms"));
        }
    }

    @Test
    void propertiesAndTimeoutReachTheProducer() {
        Properties p = new Properties();
        p.setProperty("linger.ms", "5");
        DeadLetterSinkBuilder b =
                DeadLetterSink.builder()
                        .setBootstrapServers("b:9092")
                        .setTopic("t")
                        .setProperties(p)
                        .setTransactionalIdPrefix("x")
                        .setTransactionTimeout(Duration.ofMinutes(2));
        Properties out = b.producerProperties();
        assertEquals("5", out.get("linger.ms"));
        assertEquals("120000", out.get("transaction.timeout.ms"));
        assertEquals(1, p.size(), "the given properties are not changed");
    }

    @Test
    void payloadProducerHoldsItsLargestMessage() {
        TensorPayloadSinkBuilder b =
                TensorPayloadSink.builder()
                        .setBootstrapServers("b:9092")
                        .setTopic("t")
                        .setTransactionalIdPrefix("x");
        assertEquals((1 << 20) - 1024, b.maxPayloadBytes());
        assertEquals(Integer.toString(1 << 20), b.producerProperties().get("max.request.size"));
        assertNull(b.producerProperties().get("buffer.memory"), "32 MiB hold two");
        b.setMaxMessageBytes(20L << 20);
        assertEquals((20 << 20) - 1024, b.maxPayloadBytes());
        assertEquals(Long.toString(20L << 20), b.producerProperties().get("max.request.size"));
        assertEquals(Long.toString(40L << 20), b.producerProperties().get("buffer.memory"));
    }

    @Test
    void deadLettersKeepTheRecordAndCarryTheirHeaders() {
        DeadLetterSinkBuilder b =
                DeadLetterSink.builder()
                        .setBootstrapServers("b:9092")
                        .setTopic("dlq")
                        .setSchemaFingerprint("fp")
                        .setMaxErrorBytes(4);
        SourceRecord r = SourceRecord.of(new byte[] {1, 2, 3}, "in", 2, 17, 1000L);
        ProducerRecord<byte[], byte[]> out =
                b.serializationSchema("dlq")
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
    void badSettingsAreNamed() {
        BuilderErrors.assertNamed(
                failure(
                        TensorPayloadSink.builder()
                                .setBootstrapServers(" ")
                                .setTopic("t")
                                .setTransactionalIdPrefix("x")),
                "bootstrapServers");
        BuilderErrors.assertNamed(
                failure(
                        DeadLetterSink.builder()
                                .setBootstrapServers("b:1")
                                .setTopic("")
                                .setTransactionalIdPrefix("x")),
                "topic");
        BuilderErrors.assertNamed(
                failure(
                        AcceptedRecordSink.builder()
                                .setBootstrapServers("b:1")
                                .setTopic("t")
                                .setTransactionalIdPrefix("x")
                                .setTransactionTimeout(Duration.ZERO)),
                "transactionTimeout");
        BuilderErrors.assertNamed(
                failure(
                        ValidationAlertSink.builder()
                                .setBootstrapServers("b:1")
                                .setTopic("t")
                                .setTransactionalIdPrefix("x")
                                .setDeliveryGuarantee(null)),
                "deliveryGuarantee");
        BuilderErrors.assertNamed(
                failure(
                        TensorPayloadSink.builder()
                                .setBootstrapServers("b:1")
                                .setTopic("t")
                                .setTransactionalIdPrefix("x")
                                .setMaxMessageBytes(1000)),
                "maxMessageBytes");
        BuilderErrors.assertNamed(
                failure(
                        TensorPayloadSink.builder()
                                .setBootstrapServers("b:1")
                                .setTopic("t")
                                .setTransactionalIdPrefix("x")
                                .setKeyMode(null)),
                "keyMode");
        BuilderErrors.assertNamed(
                failure(
                        DeadLetterSink.builder()
                                .setBootstrapServers("b:1")
                                .setTopic("t")
                                .setTransactionalIdPrefix("x")
                                .setMaxErrorBytes(-1)),
                "maxErrorBytes");
        BuilderErrors.assertNamed(
                failure(
                        DeadLetterSink.builder()
                                .setBootstrapServers("b:1")
                                .setTopic("t")
                                .setTransactionalIdPrefix("x")
                                .setSchemaFingerprint(null)),
                "schemaFingerprint");
        BuilderErrors.assertNamed(
                failure(
                        AcceptedRecordSink.builder()
                                .setBootstrapServers("b:1")
                                .setTopic("t")
                                .setTransactionalIdPrefix("x")
                                .setProperties(null)),
                "properties");
    }

    private static String header(ProducerRecord<byte[], byte[]> r, String name) {
        return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }
}
