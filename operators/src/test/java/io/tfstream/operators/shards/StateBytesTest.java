package io.tfstream.operators.shards;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.stats.ExampleStatistics;
import io.tfstream.testing.WideProfileCorpus;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.Random;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/**
 * What a checkpoint of an open shard with statistics allocates. The soak found TaskManagers out of
 * heap at 1 400 wide records a second: two writer subtasks serializing about 28 MB of statistics
 * each at the same checkpoint through doubling buffers and their copies.
 */
class StateBytesTest {
    private static final long MIB = 1 << 20;

    @Test
    void statisticsBytesAreBuiltWithAboutTwiceTheirSize() throws Exception {
        ShardFeatureStatistics settings = ShardFeatureStatistics.of(0.01, null, Map.of(), false);
        ExampleStatistics stats = settings.empty();
        Random rnd = new Random(7);
        for (long i = 0; i < 12_000; i++) {
            settings.add(stats, WideProfileCorpus.record(rnd, i));
        }
        settings.toBytes(stats); // classes loaded, code warm
        long before = allocated();
        byte[] bytes = settings.toBytes(stats);
        long used = allocated() - before;
        assertTrue(bytes.length > 8 * MIB, "statistics of " + bytes.length + " bytes");
        // the chunks and the result; a doubling buffer and its copy took 3 to 4 times
        assertTrue(
                used < 2.3 * bytes.length,
                "allocated " + used + " bytes for " + bytes.length + " bytes of statistics");
        // the same bytes as a plain serializer writes
        DataOutputSerializer plain = new DataOutputSerializer(64);
        plain.writeInt(ShardFeatureStatistics.FORMAT);
        plain.writeUTF(settings.key());
        stats.write(plain);
        byte[] expected = plain.getCopyOfBuffer();
        assertEquals(expected.length, bytes.length);
        assertArrayEquals(expected, bytes);
    }

    @Test
    void anOpenShardsStateIsBuiltInOneArrayOfItsSize() throws Exception {
        ShardWriterState.Open small = ShardWriterStateSerializerTest.open();
        ShardWriterState.Open large =
                new ShardWriterState.Open(
                        small.bucket(),
                        small.name(),
                        small.bucketEnd(),
                        new byte[(int) (5 * MIB)],
                        small.encoder(),
                        small.stats(),
                        small.openedAt(),
                        small.segments(),
                        "fingerprint",
                        new byte[(int) (24 * MIB)]);
        ShardWriterStateSerializer ser = new ShardWriterStateSerializer();
        ser.serialize(large);
        long before = allocated();
        byte[] bytes = ser.serialize(large);
        long used = allocated() - before;
        assertTrue(
                used < bytes.length + MIB,
                "allocated " + used + " bytes for a state of " + bytes.length + " bytes");
        assertEquals(large, ser.deserialize(ser.getVersion(), bytes));
    }

    private static long allocated() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
                .getCurrentThreadAllocatedBytes();
    }

    @Test
    void singleBytesLandInPlaceAndABodyThatChangesIsRefused() throws Exception {
        byte[] bytes =
                StateBytes.counted(
                        out -> {
                            out.writeByte(1);
                            out.writeShort(0x0203);
                            out.writeByte(4);
                        });
        assertArrayEquals(new byte[] {1, 2, 3, 4}, bytes);
        int[] calls = {0};
        // writes one byte more the second time, as a body whose state moved between the two would
        IOException more =
                assertThrows(
                        IOException.class,
                        () ->
                                StateBytes.counted(
                                        out -> {
                                            out.writeByte(1);
                                            if (calls[0]++ > 0) {
                                                out.writeByte(2);
                                            }
                                        }));
        assertEquals("the state wrote more bytes than it counted", more.getMessage());
    }
}
