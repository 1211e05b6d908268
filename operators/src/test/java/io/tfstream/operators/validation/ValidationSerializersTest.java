package io.tfstream.operators.validation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.model.ValidationOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/**
 * The serializers of the validation stream elements and state round-trip, refuse lengths beyond
 * their limits before allocating, and their snapshots refuse other layout versions.
 */
class ValidationSerializersTest {
    @Test
    void windowPartialRoundTrips() throws IOException {
        WindowPartial p = new WindowPartial(3, 60_000, 120_000, 7, 1, new byte[] {1, 2, 3});
        DataOutputSerializer out = new DataOutputSerializer(64);
        WindowPartialSerializer.INSTANCE.serialize(p, out);
        WindowPartial back =
                WindowPartialSerializer.INSTANCE.deserialize(
                        new DataInputDeserializer(out.getCopyOfBuffer()));
        assertEquals(p.split(), back.split());
        assertEquals(p.windowStart(), back.windowStart());
        assertEquals(p.windowEnd(), back.windowEnd());
        assertEquals(p.lateCount(), back.lateCount());
        assertEquals(p.version(), back.version());
        assertArrayEquals(p.accumulator(), back.accumulator());
    }

    /** Layout version 1 of the partial, pinned by stored bytes: still read, fingerprint empty. */
    @Test
    void storedLayoutOneBytesAreReadWithAnEmptyFingerprint() throws IOException {
        byte[] partial =
                java.util.HexFormat.of()
                        .parseHex(
                                "00000003" // split
                                        + "000000000000ea60" // window start 60 000
                                        + "000000000001d4c0" // window end 120 000
                                        + "0000000000000007" // late count
                                        + "00000002" // accumulator version
                                        + "00000003" // accumulator length
                                        + "010203");
        var snapshot = new WindowPartialSerializer.Snapshot();
        snapshot.readSnapshot(1, new DataInputDeserializer(new byte[0]), null);
        assertTrue(
                new WindowPartialSerializer.Snapshot()
                        .resolveSchemaCompatibility(snapshot)
                        .isCompatibleAfterMigration());
        WindowPartial back =
                snapshot.restoreSerializer().deserialize(new DataInputDeserializer(partial));
        assertEquals(3, back.split());
        assertEquals(60_000, back.windowStart());
        assertEquals(120_000, back.windowEnd());
        assertEquals(7, back.lateCount());
        assertEquals(2, back.version());
        assertArrayEquals(new byte[] {1, 2, 3}, back.accumulator());
        assertEquals("", back.fingerprint());
        assertEquals(0, back.schema().length);
    }

    /** Layout version 2 of the partial and layout 1 of the output, pinned by stored bytes. */
    @Test
    void storedLayoutTwoBytesAreTheLayoutWrittenAndRead() throws IOException {
        byte[] partial =
                java.util.HexFormat.of()
                        .parseHex(
                                "00000003" // split
                                        + "000000000000ea60" // window start 60 000
                                        + "000000000001d4c0" // window end 120 000
                                        + "0000000000000007" // late count
                                        + "00000002" // accumulator version
                                        + "00000003" // accumulator length
                                        + "010203"
                                        + "0002" // fingerprint length (UTF)
                                        + "6162" // "ab"
                                        + "00000001" // schema length
                                        + "09");
        WindowPartial p =
                new WindowPartial(
                        3, 60_000, 120_000, 7, 2, new byte[] {1, 2, 3}, "ab", new byte[] {9});
        DataOutputSerializer out = new DataOutputSerializer(64);
        WindowPartialSerializer.INSTANCE.serialize(p, out);
        assertArrayEquals(partial, out.getCopyOfBuffer());
        WindowPartial back =
                WindowPartialSerializer.INSTANCE.deserialize(new DataInputDeserializer(partial));
        assertEquals(p.split(), back.split());
        assertEquals(p.windowStart(), back.windowStart());
        assertEquals(p.windowEnd(), back.windowEnd());
        assertEquals(p.lateCount(), back.lateCount());
        assertEquals(p.version(), back.version());
        assertArrayEquals(p.accumulator(), back.accumulator());
        assertEquals("ab", back.fingerprint());
        assertArrayEquals(new byte[] {9}, back.schema());

        byte[] output =
                java.util.HexFormat.of().parseHex("00000004" + "69642d31" + "00000002" + "7b7d");
        ValidationOutput o = new ValidationOutput("id-1", "{}".getBytes(StandardCharsets.UTF_8));
        DataOutputSerializer out2 = new DataOutputSerializer(64);
        ValidationOutputSerializer.INSTANCE.serialize(o, out2);
        assertArrayEquals(output, out2.getCopyOfBuffer());
        ValidationOutput o2 =
                ValidationOutputSerializer.INSTANCE.deserialize(new DataInputDeserializer(output));
        assertEquals("id-1", o2.key());
        assertArrayEquals(o.value(), o2.value());
        assertEquals(2, WindowPartialSerializer.Snapshot.VERSION);
        assertEquals(1, ValidationOutputSerializer.Snapshot.VERSION);
    }

    @Test
    void aCorruptPartialLengthIsRefusedBeforeAllocation() throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        out.writeInt(0);
        out.writeLong(0);
        out.writeLong(10);
        out.writeLong(0);
        out.writeInt(1);
        out.writeInt(Integer.MAX_VALUE);
        IOException e =
                assertThrows(
                        IOException.class,
                        () ->
                                WindowPartialSerializer.INSTANCE.deserialize(
                                        new DataInputDeserializer(out.getCopyOfBuffer())));
        assertTrue(e.getMessage().contains("accumulator length"), e.getMessage());
    }

    @Test
    void validationOutputRoundTrips() throws IOException {
        ValidationOutput o =
                new ValidationOutput("id-1", "{\"a\":1}".getBytes(StandardCharsets.UTF_8));
        DataOutputSerializer out = new DataOutputSerializer(64);
        ValidationOutputSerializer.INSTANCE.serialize(o, out);
        ValidationOutput back =
                ValidationOutputSerializer.INSTANCE.deserialize(
                        new DataInputDeserializer(out.getCopyOfBuffer()));
        assertEquals("id-1", back.key());
        assertArrayEquals(o.value(), back.value());
    }

    @Test
    void snapshotsOfOtherVersionsAreRefused() throws IOException {
        var snapshot = new WindowPartialSerializer.Snapshot();
        assertTrue(
                snapshot.resolveSchemaCompatibility(new WindowPartialSerializer.Snapshot())
                        .isCompatibleAsIs());
        DataInputDeserializer in = new DataInputDeserializer(new byte[0]);
        IOException e =
                assertThrows(
                        IOException.class,
                        () ->
                                snapshot.readSnapshot(
                                        WindowPartialSerializer.Snapshot.VERSION + 1,
                                        in,
                                        getClass().getClassLoader()));
        assertTrue(e.getMessage().contains("layout version"), e.getMessage());
        TypeSerializerSchemaCompatibility<ValidationOutput> c =
                new ValidationOutputSerializer.Snapshot()
                        .resolveSchemaCompatibility(new ValidationOutputSerializer.Snapshot());
        assertTrue(c.isCompatibleAsIs());
    }
}
