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
}
