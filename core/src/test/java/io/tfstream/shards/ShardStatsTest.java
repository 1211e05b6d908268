package io.tfstream.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ShardStatsTest {
    @Test
    void countsRecordsBytesEventTimesAndOffsetRangesPerSource() {
        ShardStats s = new ShardStats();
        s.add("t", 1, 10, 5, 2000);
        s.add("t", 1, 12, 7, 1000);
        s.add("a", 0, 3, 1, 3000);
        s.add("t", 1, 11, 1, 1500);
        s.add("/data/x.tfrecord", ShardStats.FILE_PARTITION, 400, 9, 1200);
        assertEquals(5, s.records());
        assertEquals(23, s.recordBytes());
        assertEquals(1000L, s.minEventTime());
        assertEquals(3000L, s.maxEventTime());
        List<ShardStats.SourceRange> r = s.sources();
        assertEquals(3, r.size());
        assertEquals("/data/x.tfrecord", r.get(0).topic());
        assertEquals(true, r.get(0).isFile());
        assertEquals("a", r.get(1).topic());
        assertEquals("t", r.get(2).topic());
        assertEquals(10, r.get(2).first());
        assertEquals(12, r.get(2).last());
        assertEquals(3, r.get(2).records());
    }

    @Test
    void anEmptyShardHasNoEventTimes() {
        ShardStats s = new ShardStats();
        assertNull(s.minEventTime());
        assertNull(s.maxEventTime());
        assertEquals(List.of(), s.sources());
    }

    /** Merging the statistics of parts gives those of all their records counted at once. */
    @Test
    void mergingPartsEqualsCountingTheirRecordsTogether() throws IOException {
        Random rnd = new Random(7);
        for (int round = 0; round < 200; round++) {
            ShardStats all = new ShardStats();
            ShardStats merged = new ShardStats();
            int parts = 1 + rnd.nextInt(5);
            for (int p = 0; p < parts; p++) {
                ShardStats part = new ShardStats();
                int n = rnd.nextInt(20);
                for (int i = 0; i < n; i++) {
                    String topic = "t" + rnd.nextInt(3);
                    int partition = rnd.nextInt(4) - 1;
                    long offset = rnd.nextInt(1000);
                    long bytes = rnd.nextInt(100);
                    long time = rnd.nextLong() >> 8;
                    all.add(topic, partition, offset, bytes, time);
                    part.add(topic, partition, offset, bytes, time);
                }
                merged.merge(roundTrip(part));
            }
            assertEquals(all, merged, "round " + round);
            assertEquals(all, roundTrip(all));
        }
    }

    @Test
    void anUnknownFormatIsRejected() {
        byte[] bytes = {9, 0, 0};
        IOException e =
                assertThrows(
                        IOException.class,
                        () ->
                                ShardStats.readFrom(
                                        new DataInputStream(new ByteArrayInputStream(bytes))));
        assertEquals("unknown shard statistics format 9", e.getMessage());
    }

    private static ShardStats roundTrip(ShardStats s) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        s.writeTo(new DataOutputStream(b));
        return ShardStats.readFrom(new DataInputStream(new ByteArrayInputStream(b.toByteArray())));
    }
}
