package io.tfstream.shards;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Objects;

/**
 * Event-time buckets of a {@link DateTimeFormatter} pattern in a zone: the bucket of an instant,
 * and when that bucket ends (the first later millisecond whose bucket differs). Works for any
 * pattern without knowing its fields, by probing forward in doubling steps and then bisecting; the
 * last bucket's interval is cached, so consecutive records of one bucket cost a comparison. Not
 * thread-safe.
 */
public final class BucketClock {
    /** Far enough to leave any calendar bucket (a year is about 2^35 ms). */
    private static final long MAX_PROBE = 1L << 41;

    private final DateTimeFormatter formatter;
    private long cachedStart = Long.MAX_VALUE;
    private long cachedEnd = Long.MIN_VALUE;
    private String cachedBucket;

    public BucketClock(String pattern, ZoneId zone) {
        this.formatter =
                DateTimeFormatter.ofPattern(Objects.requireNonNull(pattern, "pattern"))
                        .withZone(Objects.requireNonNull(zone, "zone"));
    }

    /** The bucket of epoch millisecond {@code t}. */
    public String bucketOf(long t) {
        return formatter.format(Instant.ofEpochMilli(t));
    }

    /**
     * The end (exclusive, epoch millis) of the bucket holding {@code t}: the first millisecond
     * after {@code t} in another bucket; {@link Long#MAX_VALUE} when none is within about 70 years.
     */
    public long endOf(long t) {
        if (t >= cachedStart && t < cachedEnd) {
            return cachedEnd;
        }
        String bucket = bucketOf(t);
        long inside = t;
        long step = 1;
        long outside = Long.MAX_VALUE;
        while (step <= MAX_PROBE) {
            long probe = saturatingAdd(t, step);
            if (!bucketOf(probe).equals(bucket)) {
                outside = probe;
                break;
            }
            inside = probe;
            step <<= 1;
        }
        if (outside == Long.MAX_VALUE) {
            return Long.MAX_VALUE;
        }
        while (outside - inside > 1) {
            long mid = inside + (outside - inside) / 2;
            if (bucketOf(mid).equals(bucket)) {
                inside = mid;
            } else {
                outside = mid;
            }
        }
        cachedStart = t;
        cachedEnd = outside;
        cachedBucket = bucket;
        return outside;
    }

    /** The bucket of {@code t} when it is the cached one, else computed. */
    public String cachedBucketOf(long t) {
        return t >= cachedStart && t < cachedEnd ? cachedBucket : bucketOf(t);
    }

    private static long saturatingAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
    }
}
