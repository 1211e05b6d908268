package io.tfstream.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.time.Instant;
import java.time.ZoneId;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BucketClockTest {
    @Test
    void anHourlyBucketEndsAtTheNextHour() {
        BucketClock c = new BucketClock("'dt='yyyy-MM-dd/'hour='HH", ZoneId.of("UTC"));
        long t = Instant.parse("2026-11-24T10:17:03.123Z").toEpochMilli();
        assertEquals("dt=2026-11-24/hour=10", c.bucketOf(t));
        assertEquals(Instant.parse("2026-11-24T11:00:00Z").toEpochMilli(), c.endOf(t));
        assertEquals(Instant.parse("2026-11-24T11:00:00Z").toEpochMilli(), c.endOf(t + 1000));
        assertEquals("dt=2026-11-24/hour=10", c.cachedBucketOf(t + 1000));
    }

    @Test
    void aDailyBucketInAZoneWithDaylightSavingEndsAtLocalMidnight() {
        BucketClock c = new BucketClock("yyyy-MM-dd", ZoneId.of("Europe/Berlin"));
        // 2026-10-25 has 25 hours in Berlin
        long t = Instant.parse("2026-10-25T01:00:00Z").toEpochMilli();
        assertEquals("2026-10-25", c.bucketOf(t));
        assertEquals(Instant.parse("2026-10-25T23:00:00Z").toEpochMilli(), c.endOf(t));
    }

    /** For any pattern, the end is the first millisecond in another bucket. */
    @Test
    void theEndIsTheFirstMillisecondOfAnotherBucket() {
        Random rnd = new Random(3);
        String[] patterns = {"yyyy/MM/dd/HH/mm", "yyyy-'W'ww", "yyyy-MM", "HH", "yyyy"};
        for (String pattern : patterns) {
            BucketClock c = new BucketClock(pattern, ZoneId.of("America/New_York"));
            for (int i = 0; i < 200; i++) {
                long t = 1_600_000_000_000L + (long) (rnd.nextDouble() * 400L * 86_400_000L);
                long end = c.endOf(t);
                assertEquals(c.bucketOf(t), c.bucketOf(end - 1), pattern + " at " + t);
                assertNotEquals(c.bucketOf(t), c.bucketOf(end), pattern + " at " + t);
            }
        }
    }

    /** The cached interval is the whole bucket: its start is the bucket's first millisecond. */
    @Test
    void theStartIsTheFirstMillisecondOfTheBucket() {
        Random rnd = new Random(5);
        String[] patterns = {"'dt='yyyy-MM-dd/'hour='HH", "yyyy/MM/dd/HH/mm", "yyyy-MM", "HH"};
        for (String pattern : patterns) {
            BucketClock c = new BucketClock(pattern, ZoneId.of("Europe/Berlin"));
            for (int i = 0; i < 200; i++) {
                long t = 1_600_000_000_000L + (long) (rnd.nextDouble() * 400L * 86_400_000L);
                long start = c.startOf(t);
                assertEquals(c.bucketOf(t), c.bucketOf(start), pattern + " at " + t);
                assertNotEquals(c.bucketOf(t), c.bucketOf(start - 1), pattern + " at " + t);
            }
        }
    }

    /** Records out of order within a bucket get the same end as in order (regression). */
    @Test
    void recordsOutOfOrderWithinABucketGetTheBucketsEnd() {
        BucketClock c = new BucketClock("'dt='yyyy-MM-dd/'hour='HH", ZoneId.of("UTC"));
        long hour = Instant.parse("2026-11-24T10:00:00Z").toEpochMilli();
        long end = hour + 3_600_000L;
        Random rnd = new Random(7);
        for (int i = 0; i < 1000; i++) {
            assertEquals(end, c.endOf(hour + (long) (rnd.nextDouble() * 3_600_000L)));
        }
        assertEquals(hour, c.startOf(hour + 1));
        assertEquals(end + 3_600_000L, c.endOf(end));
        assertEquals(end, c.endOf(end - 1));
    }
}
