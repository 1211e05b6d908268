package io.tfstream.operators.source;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.operators.deadletter.DeadLetter;
import io.tfstream.operators.deadletter.DeadLetterReason;
import io.tfstream.operators.deadletter.DeadLetterSerializer;
import io.tfstream.operators.parse.TensorBatchSerializer;
import io.tfstream.proto.v1.SourceRange;
import io.tfstream.proto.v1.TensorBatch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/** Round trips and versioned snapshots of the record serializers. */
class SourceRecordSerializerTest {
    private static final SourceRecord FULL =
            new SourceRecord(
                    new byte[] {1, 2, 3},
                    "k".getBytes(StandardCharsets.UTF_8),
                    new String[] {"h1", "h2"},
                    new byte[][] {{9}, null},
                    "topic-ä",
                    7,
                    123456789012L,
                    1_700_000_000_000L);

    private static <T> T roundTrip(TypeSerializer<T> s, T value) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        s.serialize(value, out);
        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        T back = s.deserialize(in);
        assertEquals(0, in.available(), "all bytes read");
        return back;
    }

    @Test
    void sourceRecordsRoundTripWithKeysHeadersAndNulls() throws IOException {
        assertEquals(FULL, roundTrip(SourceRecordSerializer.INSTANCE, FULL));
        SourceRecord bare = SourceRecord.of(new byte[0], "t", 0, 0, -1);
        assertEquals(bare, roundTrip(SourceRecordSerializer.INSTANCE, bare));
    }

    @Test
    void deadLettersRoundTripWithLongMessages() throws IOException {
        String longMessage = "é".repeat(70_000); // more than writeUTF can hold
        DeadLetter d = new DeadLetter(FULL, DeadLetterReason.LIMIT_EXCEEDED, longMessage);
        DeadLetter back = roundTrip(DeadLetterSerializer.INSTANCE, d);
        assertEquals(d.source(), back.source());
        assertEquals(d.reason(), back.reason());
        assertEquals(longMessage, back.error());
    }

    /**
     * A dead letter in state keeps its record's headers (the dead-letter topic writes them): the
     * stored bytes of layout version 1, a record with a repeated and an empty header, read back.
     */
    @Test
    void aStoredVersion1DeadLetterIsReadWithItsHeaders() throws IOException {
        SourceRecord source =
                new SourceRecord(
                        new byte[] {0x0a, 0x7f},
                        "k".getBytes(StandardCharsets.UTF_8),
                        new String[] {"trace-id", "tenant", "trace-id"},
                        new byte[][] {{1, 2}, {}, {3}},
                        "in",
                        1,
                        42,
                        1_700_000_000_000L);
        DeadLetter d = new DeadLetter(source, DeadLetterReason.PARSE_ERROR, "bad");
        assertEquals(1, DeadLetterSerializer.Snapshot.VERSION);
        DataOutputSerializer out = new DataOutputSerializer(64);
        DeadLetterSerializer.INSTANCE.serialize(d, out);
        assertEquals(
                STORED_DEAD_LETTER_V1,
                java.util.HexFormat.of().formatHex(out.getCopyOfBuffer()),
                "the layout of version 1 changed: bump DeadLetterSerializer's version");
        byte[] stored = java.util.HexFormat.of().parseHex(STORED_DEAD_LETTER_V1);
        DeadLetter back =
                DeadLetterSerializer.INSTANCE.deserialize(new DataInputDeserializer(stored));
        assertEquals(source, back.source());
        assertEquals("tenant", back.source().headerKey(1));
        assertArrayEquals(new byte[] {3}, back.source().headerValue(2));
        assertEquals(DeadLetterReason.PARSE_ERROR, back.reason());
        assertEquals("bad", back.error());
    }

    /**
     * Written by layout version 1 (topic, partition, offset, timestamp, value, key, headers...).
     */
    private static final String STORED_DEAD_LETTER_V1 =
            "0002696e00000001000000000000002a0000018bcfe56800000000020a7f0000"
                    + "00016b00000003000874726163652d6964000000020102000674656e616e7400"
                    + "000000000874726163652d69640000000103000b70617273655f6572726f7200"
                    + "000003626164";

    @Test
    void tensorBatchesRoundTrip() throws IOException {
        TensorBatch meta =
                TensorBatch.newBuilder()
                        .setRows(3)
                        .setBatchId("id")
                        .addSources(SourceRange.newBuilder().setTopic("t").setLastOffset(9))
                        .build();
        io.tfstream.payload.EncodedTensorBatch b =
                new io.tfstream.payload.EncodedTensorBatch(new byte[] {16, 3}, meta);
        assertEquals(b, roundTrip(TensorBatchSerializer.INSTANCE, b));
        var keyed = b.withKey(new byte[] {(byte) 0xfe, 0});
        assertArrayEquals(
                keyed.key(), roundTrip(TensorBatchSerializer.INSTANCE, keyed).key(), "key kept");
        var emptyKey = b.withKey(new byte[0]);
        assertArrayEquals(new byte[0], roundTrip(TensorBatchSerializer.INSTANCE, emptyKey).key());
        assertNull(roundTrip(TensorBatchSerializer.INSTANCE, b).key(), "no key stays none");
        var empty = TensorBatchSerializer.INSTANCE.createInstance();
        assertEquals(empty, roundTrip(TensorBatchSerializer.INSTANCE, empty));
    }

    @Test
    void snapshotsRestoreTheSerializerAndRefuseOtherLayoutVersions() throws IOException {
        TypeSerializerSnapshot<SourceRecord> snap =
                SourceRecordSerializer.INSTANCE.snapshotConfiguration();
        DataOutputSerializer out = new DataOutputSerializer(64);
        TypeSerializerSnapshot.writeVersionedSnapshot(out, snap);
        TypeSerializerSnapshot<SourceRecord> read =
                TypeSerializerSnapshot.readVersionedSnapshot(
                        new DataInputDeserializer(out.getCopyOfBuffer()),
                        getClass().getClassLoader());
        assertSame(SourceRecordSerializer.INSTANCE, read.restoreSerializer());
        assertTrue(read.resolveSchemaCompatibility(snap).isCompatibleAsIs());
        IOException e =
                assertThrows(
                        IOException.class,
                        () ->
                                new SourceRecordSerializer.Snapshot()
                                        .readSnapshot(
                                                2,
                                                new DataInputDeserializer(new byte[0]),
                                                getClass().getClassLoader()));
        assertTrue(e.getMessage().contains("layout version 2, this build reads version 1"));
    }
}
