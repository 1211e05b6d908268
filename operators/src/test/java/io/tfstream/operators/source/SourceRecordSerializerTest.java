package io.tfstream.operators.source;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.DeadLetterReason;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.deadletter.DeadLetterSerializer;
import io.tfstream.operators.parse.TensorBatchSerializer;
import io.tfstream.proto.v1.SourceRange;
import io.tfstream.proto.v1.TensorBatch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
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

    private static SourceRecord headered() {
        return new SourceRecord(
                new byte[] {0x0a, 0x7f},
                "k".getBytes(StandardCharsets.UTF_8),
                new String[] {"trace-id", "tenant", "trace-id"},
                new byte[][] {{1, 2}, {}, {3}},
                "in",
                1,
                42,
                1_700_000_000_000L);
    }

    @Test
    void convertedRecordsRoundTripWithTheirOriginalValue() throws IOException {
        byte[] json = "{\"f\": 1}".getBytes(StandardCharsets.UTF_8);
        SourceRecord arrived = FULL.withHeader("h3", new byte[] {4}).withValue(json);
        SourceRecord converted = arrived.withConvertedValue(new byte[] {0x0a, 0});
        assertArrayEquals(json, converted.original());
        assertArrayEquals(json, converted.withHeader("x", new byte[0]).original(), "kept");
        assertArrayEquals(json, converted.withValue(new byte[] {1}).original(), "kept");
        assertArrayEquals(
                json, converted.withConvertedValue(new byte[] {2}).original(), "the first one");
        SourceRecord back = roundTrip(SourceRecordSerializer.INSTANCE, converted);
        assertEquals(converted, back);
        assertArrayEquals(json, back.original());
        assertEquals(arrived, back.asArrived());
        assertNull(back.asArrived().original());
        assertSame(FULL, FULL.asArrived(), "a record never converted is as it arrived");
        assertTrue(!converted.equals(converted.withValue(json).asArrived()), "original counts");
    }

    @Test
    void deadLettersOfConvertedRecordsCarryTheOriginalBytes() throws IOException {
        byte[] avro = {2, 4, 6};
        SourceRecord converted = FULL.withValue(avro).withConvertedValue(new byte[] {0x0a, 0});
        DeadLetter d = new DeadLetter(converted, DeadLetterReason.PARSE_ERROR, "Name: <unknown>");
        assertArrayEquals(avro, d.source().value());
        assertNull(d.source().original());
        assertEquals(FULL.withValue(avro), d.source(), "key, headers and position kept");
        assertEquals(d, roundTrip(DeadLetterSerializer.INSTANCE, d));
    }

    /**
     * A source record in window state written by layout version 1 (before the original value): the
     * stored bytes are read by the serializer its snapshot restores, and the current snapshot asks
     * Flink to migrate them.
     */
    @Test
    void aStoredVersion1SourceRecordIsReadAndMigrated() throws IOException {
        byte[] stored = HexFormat.of().parseHex(STORED_SOURCE_RECORD_V1);
        TypeSerializerSnapshot<SourceRecord> old =
                readSnapshot(new SourceRecordSerializer.Snapshot(), 1);
        TypeSerializer<SourceRecord> restored = old.restoreSerializer();
        assertSame(SourceRecordSerializer.ofLayout(1), restored);
        DataInputDeserializer in = new DataInputDeserializer(stored);
        SourceRecord back = restored.deserialize(in);
        assertEquals(0, in.available(), "all bytes read");
        assertEquals(headered(), back);
        assertNull(back.original());
        assertTrue(
                SourceRecordSerializer.INSTANCE
                        .snapshotConfiguration()
                        .resolveSchemaCompatibility(old)
                        .isCompatibleAfterMigration());
        assertEquals(headered(), roundTrip(SourceRecordSerializer.INSTANCE, back), "rewritten");
        DataOutputSerializer out = new DataOutputSerializer(64);
        SourceRecordSerializer.ofLayout(1).serialize(headered(), out);
        assertEquals(
                STORED_SOURCE_RECORD_V1,
                HexFormat.of().formatHex(out.getCopyOfBuffer()),
                "layout 1 is still written as it was");
        assertThrows(
                IllegalStateException.class,
                () ->
                        SourceRecordSerializer.ofLayout(1)
                                .serialize(headered().withConvertedValue(new byte[0]), out));
    }

    /** The stored bytes of the current layout: a change of them must bump the version. */
    @Test
    void theVersion2LayoutIsStable() throws IOException {
        SourceRecord converted = headered().withConvertedValue(new byte[] {0x0a, 0});
        DeadLetter d = new DeadLetter(converted, DeadLetterReason.PARSE_ERROR, "bad");
        assertEquals(3, SourceRecordSerializer.Snapshot.VERSION);
        assertEquals(3, DeadLetterSerializer.Snapshot.VERSION);
        DataOutputSerializer out = new DataOutputSerializer(64);
        SourceRecordSerializer.ofLayout(2).serialize(converted, out);
        assertEquals(
                STORED_SOURCE_RECORD_V2,
                HexFormat.of().formatHex(out.getCopyOfBuffer()),
                "the layout of version 2 changed: bump SourceRecordSerializer's version");
        out.clear();
        DeadLetterSerializer.ofLayout(2).serialize(d, out);
        assertEquals(
                STORED_DEAD_LETTER_V2,
                HexFormat.of().formatHex(out.getCopyOfBuffer()),
                "the layout of version 2 changed: bump DeadLetterSerializer's version");
        // Layout 3: the same, then the schema fingerprint (absent: one 0 byte).
        out.clear();
        DeadLetterSerializer.INSTANCE.serialize(d, out);
        assertEquals(STORED_DEAD_LETTER_V2 + "00", HexFormat.of().formatHex(out.getCopyOfBuffer()));
        out.clear();
        DeadLetter judged = new DeadLetter(converted, DeadLetterReason.PARSE_ERROR, "bad", "ab");
        DeadLetterSerializer.INSTANCE.serialize(judged, out);
        assertEquals(
                STORED_DEAD_LETTER_V2 + "0100026162",
                HexFormat.of().formatHex(out.getCopyOfBuffer()),
                "the layout of version 3 changed: bump DeadLetterSerializer's version");
        assertEquals(
                judged,
                DeadLetterSerializer.INSTANCE.deserialize(
                        new DataInputDeserializer(out.getCopyOfBuffer())));
        assertEquals(
                converted,
                SourceRecordSerializer.ofLayout(2)
                        .deserialize(
                                new DataInputDeserializer(
                                        HexFormat.of().parseHex(STORED_SOURCE_RECORD_V2))));
        // Layout 3: the same, then the schema fingerprint (a flag, then UTF).
        out.clear();
        SourceRecordSerializer.INSTANCE.serialize(converted, out);
        assertEquals(
                STORED_SOURCE_RECORD_V2 + "00", HexFormat.of().formatHex(out.getCopyOfBuffer()));
        SourceRecord accepted = converted.withSchemaFingerprint("ab");
        out.clear();
        SourceRecordSerializer.INSTANCE.serialize(accepted, out);
        assertEquals(
                STORED_SOURCE_RECORD_V2 + "0100026162",
                HexFormat.of().formatHex(out.getCopyOfBuffer()),
                "the layout of version 3 changed: bump SourceRecordSerializer's version");
        assertEquals(
                accepted,
                SourceRecordSerializer.INSTANCE.deserialize(
                        new DataInputDeserializer(out.getCopyOfBuffer())));
    }

    /**
     * A dead letter in state keeps its record's headers (the dead-letter topic writes them): the
     * stored bytes of layout version 1, a record with a repeated and an empty header, read back by
     * the serializer a version-1 snapshot restores.
     */
    @Test
    void aStoredVersion1DeadLetterIsReadWithItsHeaders() throws IOException {
        SourceRecord source = headered();
        TypeSerializerSnapshot<DeadLetter> old =
                readSnapshot(new DeadLetterSerializer.Snapshot(), 1);
        byte[] stored = HexFormat.of().parseHex(STORED_DEAD_LETTER_V1);
        DeadLetter back = old.restoreSerializer().deserialize(new DataInputDeserializer(stored));
        assertEquals(source, back.source());
        assertEquals("tenant", back.source().headerKey(1));
        assertArrayEquals(new byte[] {3}, back.source().headerValue(2));
        assertEquals(DeadLetterReason.PARSE_ERROR, back.reason());
        assertEquals("bad", back.error());
        assertTrue(
                DeadLetterSerializer.INSTANCE
                        .snapshotConfiguration()
                        .resolveSchemaCompatibility(old)
                        .isCompatibleAfterMigration());
    }

    /** A stored layout-2 dead letter (before fingerprints) is read and migrated. */
    @Test
    void aStoredVersion2DeadLetterIsReadWithoutAFingerprint() throws IOException {
        TypeSerializerSnapshot<DeadLetter> old =
                readSnapshot(new DeadLetterSerializer.Snapshot(), 2);
        DeadLetter back =
                old.restoreSerializer()
                        .deserialize(
                                new DataInputDeserializer(
                                        HexFormat.of().parseHex(STORED_DEAD_LETTER_V2)));
        assertEquals("bad", back.error());
        assertEquals(null, back.schemaFingerprint());
        assertTrue(
                DeadLetterSerializer.INSTANCE
                        .snapshotConfiguration()
                        .resolveSchemaCompatibility(old)
                        .isCompatibleAfterMigration());
    }

    private static <T> TypeSerializerSnapshot<T> readSnapshot(
            TypeSerializerSnapshot<T> snapshot, int version) throws IOException {
        snapshot.readSnapshot(
                version,
                new DataInputDeserializer(new byte[0]),
                SourceRecordSerializerTest.class.getClassLoader());
        return snapshot;
    }

    /**
     * Written by layout version 1 (topic, partition, offset, timestamp, value, key, headers...).
     */
    private static final String STORED_SOURCE_RECORD_V1 =
            "0002696e00000001000000000000002a0000018bcfe56800000000020a7f0000"
                    + "00016b00000003000874726163652d6964000000020102000674656e616e7400"
                    + "000000000874726163652d69640000000103";

    /** Layout version 1 of the source record, then the reason and the message. */
    private static final String STORED_DEAD_LETTER_V1 =
            "0002696e00000001000000000000002a0000018bcfe56800000000020a7f0000"
                    + "00016b00000003000874726163652d6964000000020102000674656e616e7400"
                    + "000000000874726163652d69640000000103000b70617273655f6572726f7200"
                    + "000003626164";

    /** Layout version 2: layout 1 of a converted record, then its original value. */
    private static final String STORED_SOURCE_RECORD_V2 =
            "0002696e00000001000000000000002a0000018bcfe56800000000020a000000"
                    + "00016b00000003000874726163652d6964000000020102000674656e616e7400"
                    + "000000000874726163652d69640000000103000000020a7f";

    /** Layout version 2: the record as it arrived (no original), the reason and the message. */
    private static final String STORED_DEAD_LETTER_V2 =
            "0002696e00000001000000000000002a0000018bcfe56800000000020a7f0000"
                    + "00016b00000003000874726163652d6964000000020102000674656e616e7400"
                    + "000000000874726163652d69640000000103ffffffff000b70617273655f6572"
                    + "726f7200000003626164";

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
                                                4,
                                                new DataInputDeserializer(new byte[0]),
                                                getClass().getClassLoader()));
        assertTrue(
                e.getMessage().contains("layout version 4, this build reads versions 1 to 3"),
                e.getMessage());
    }
}
