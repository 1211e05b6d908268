package io.tfstream.operators.deadletter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.DeadLetterReason;
import io.tfstream.api.model.SourceRecord;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

/** The dead-letter record written to Kafka: original bytes and the contract's headers. */
class DeadLetterSerializationSchemaTest {
    private static String header(ProducerRecord<byte[], byte[]> r, String name) {
        return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    @Test
    void keepsValueAndKeyAndWritesEveryHeader() {
        SourceRecord s =
                new SourceRecord(new byte[] {5, 6}, new byte[] {7}, null, null, "in", 2, 41, 1234);
        DeadLetterSerializationSchema schema =
                new DeadLetterSerializationSchema("dlq", "ab12", 1024);
        ProducerRecord<byte[], byte[]> r =
                schema.serialize(
                        new DeadLetter(s, DeadLetterReason.PARSE_ERROR, "Name: <unknown>"),
                        null,
                        null);
        assertEquals("dlq", r.topic());
        assertNull(r.partition());
        assertArrayEquals(new byte[] {5, 6}, r.value());
        assertArrayEquals(new byte[] {7}, r.key());
        assertEquals("parse_error", header(r, DeadLetterHeaders.REASON));
        assertEquals("Name: <unknown>", header(r, DeadLetterHeaders.ERROR));
        assertEquals("in", header(r, DeadLetterHeaders.SOURCE_TOPIC));
        assertEquals("2", header(r, DeadLetterHeaders.SOURCE_PARTITION));
        assertEquals("41", header(r, DeadLetterHeaders.SOURCE_OFFSET));
        assertEquals("1234", header(r, DeadLetterHeaders.SOURCE_TIMESTAMP));
        assertEquals("ab12", header(r, DeadLetterHeaders.SCHEMA_FINGERPRINT));
    }

    @Test
    void keepsTheOriginalHeadersInOrderBeforeItsOwn() {
        byte[] trace = {1, 2, 3};
        SourceRecord s =
                new SourceRecord(
                        new byte[] {5},
                        null,
                        new String[] {"trace-id", "tenant", "trace-id", DeadLetterHeaders.REASON},
                        new byte[][] {trace, {9}, {4}, "earlier".getBytes(StandardCharsets.UTF_8)},
                        "in",
                        0,
                        7,
                        1);
        ProducerRecord<byte[], byte[]> r =
                new DeadLetterSerializationSchema("dlq", "ab12", 1024)
                        .serialize(
                                new DeadLetter(s, DeadLetterReason.TOO_LARGE, "big"), null, null);
        Header[] all = r.headers().toArray();
        assertEquals("trace-id", all[0].key());
        assertArrayEquals(trace, all[0].value());
        assertEquals("tenant", all[1].key());
        assertArrayEquals(new byte[] {9}, all[1].value());
        assertEquals("trace-id", all[2].key());
        assertArrayEquals(new byte[] {4}, all[2].value());
        assertEquals(DeadLetterHeaders.REASON, all[3].key());
        assertEquals("earlier", new String(all[3].value(), StandardCharsets.UTF_8));
        // This dead letter's own headers follow: lastHeader finds them, not the replayed one.
        assertEquals(DeadLetterHeaders.REASON, all[4].key());
        assertEquals("too_large", header(r, DeadLetterHeaders.REASON));
        assertEquals(4 + 7, all.length);
    }

    @Test
    void aFileRecordNamesItsFileAndByteOffset() {
        SourceRecord s =
                SourceRecord.fromFile(
                        new byte[] {1, 2, 3}, null, null, "s3://b/shards/x.tfrecord", 4096, 99);
        ProducerRecord<byte[], byte[]> r =
                new DeadLetterSerializationSchema("dlq", "ab12", 1024)
                        .serialize(
                                new DeadLetter(s, DeadLetterReason.CORRUPT_INPUT, "damaged"),
                                null,
                                null);
        assertEquals("corrupt_input", header(r, DeadLetterHeaders.REASON));
        assertEquals("s3://b/shards/x.tfrecord", header(r, DeadLetterHeaders.SOURCE_FILE));
        assertEquals("4096", header(r, DeadLetterHeaders.SOURCE_BYTE_OFFSET));
        assertNull(r.headers().lastHeader(DeadLetterHeaders.SOURCE_TOPIC));
        assertNull(r.headers().lastHeader(DeadLetterHeaders.SOURCE_PARTITION));
        assertNull(r.key());
        assertArrayEquals(new byte[] {1, 2, 3}, r.value());
    }

    @Test
    void cutsTheMessageAtACharacterBoundary() {
        assertEquals(
                "abc",
                new String(DeadLetterSerializationSchema.cut("abcdef", 3), StandardCharsets.UTF_8));
        // "é" is two bytes: a cut inside it drops the whole character.
        assertEquals(
                "a",
                new String(DeadLetterSerializationSchema.cut("aé", 2), StandardCharsets.UTF_8));
        assertEquals(
                "aé",
                new String(DeadLetterSerializationSchema.cut("aé", 3), StandardCharsets.UTF_8));
        assertEquals(0, DeadLetterSerializationSchema.cut("€", 2).length);
        assertEquals(
                "", new String(DeadLetterSerializationSchema.cut("x", 0), StandardCharsets.UTF_8));
    }

    @Test
    void aDeadLetterJudgedUnderAnotherSchemaNamesThatSchema() throws Exception {
        SourceRecord s = SourceRecord.of(new byte[] {5}, "in", 0, 1, 2);
        DeadLetter judged = new DeadLetter(s, DeadLetterReason.PARSE_ERROR, "why", "cd34");
        DeadLetterSerializationSchema schema =
                new DeadLetterSerializationSchema("dlq", "ab12", 1024);
        assertEquals(
                "cd34",
                header(schema.serialize(judged, null, null), DeadLetterHeaders.SCHEMA_FINGERPRINT));
        // The fingerprint survives the trip between operators; without one the job's is written.
        for (DeadLetter d :
                new DeadLetter[] {judged, new DeadLetter(s, DeadLetterReason.LATE, "x")}) {
            org.apache.flink.core.memory.DataOutputSerializer out =
                    new org.apache.flink.core.memory.DataOutputSerializer(64);
            DeadLetterSerializer.INSTANCE.serialize(d, out);
            DeadLetter back =
                    DeadLetterSerializer.INSTANCE.deserialize(
                            new org.apache.flink.core.memory.DataInputDeserializer(
                                    out.getCopyOfBuffer()));
            assertEquals(d.schemaFingerprint(), back.schemaFingerprint());
            assertEquals(d.error(), back.error());
            assertEquals(
                    d.schemaFingerprint() == null ? "ab12" : "cd34",
                    header(
                            schema.serialize(back, null, null),
                            DeadLetterHeaders.SCHEMA_FINGERPRINT));
        }
    }
}
