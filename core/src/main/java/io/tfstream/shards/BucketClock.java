package io.tfstream.shards;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Objects;

/**
 * Event-time buckets of a {@link DateTimeFormatter} pattern in a zone: the bucket of an instant,
 * and when that bucket ends (the first later millisecond whose bucket differs). Works for any
 * pattern without knowing its fields, by probing in doubling steps and then bisecting; the last
 * bucket's whole interval is cached, so records of one bucket, in any order, cost a comparison. Not
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
        long outside = firstOutside(t, bucket, 1);
        if (outside == Long.MAX_VALUE) {
            return Long.MAX_VALUE;
        }
        // The whole bucket is cached, not only from t on: records arriving out of order within a
        // bucket (several partitions, late records) then cost a comparison too.
        long before = firstOutside(t, bucket, -1);
        cachedStart = before == Long.MIN_VALUE ? Long.MIN_VALUE : before + 1;
        cachedEnd = outside;
        cachedBucket = bucket;
        return outside;
    }

    /**
     * The instant in another bucket than {@code bucket} nearest to {@code t} in {@code direction}
     * (1: later, -1: earlier), found by doubling steps then bisecting; {@link Long#MAX_VALUE} or
     * {@link Long#MIN_VALUE} when there is none within about 70 years.
     */
    private long firstOutside(long t, String bucket, int direction) {
        long inside = t;
        long step = 1;
        long outside = direction > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
        boolean found = false;
        while (step <= MAX_PROBE) {
            long probe = direction > 0 ? saturatingAdd(t, step) : saturatingAdd(t, -step);
            if (!bucketOf(probe).equals(bucket)) {
                outside = probe;
                found = true;
                break;
            }
            inside = probe;
            step <<= 1;
        }
        if (!found) {
            return outside;
        }
        while (Math.abs(outside - inside) > 1) {
            long mid = inside + (outside - inside) / 2;
            if (bucketOf(mid).equals(bucket)) {
                inside = mid;
            } else {
                outside = mid;
            }
        }
        return outside;
    }

    /** The first millisecond of the bucket holding {@code t} ({@link #endOf} caches both). */
    public long startOf(long t) {
        endOf(t);
        return t >= cachedStart && t < cachedEnd ? cachedStart : Long.MIN_VALUE;
    }

    /** The bucket of {@code t} when it is the cached one, else computed. */
    public String cachedBucketOf(long t) {
        return t >= cachedStart && t < cachedEnd ? cachedBucket : bucketOf(t);
    }

    private static long saturatingAdd(long a, long b) {
        long r = a + b;
        if (((a ^ r) & (b ^ r)) < 0) {
            return b > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
        return r;
    }
}
