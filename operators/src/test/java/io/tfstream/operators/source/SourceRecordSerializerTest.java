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
