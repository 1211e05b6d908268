package io.tfstream.operators.deadletter;

import io.tfstream.api.model.DeadLetterGuard;
import org.apache.flink.annotation.Internal;

/**
 * Counts records and dead letters over a sliding processing-time window (ten buckets) for the
 * {@link DeadLetterGuard}. Not thread-safe; one per subtask.
 */
@Internal
public final class DeadLetterRate {
    private static final int BUCKETS = 10;

    private final DeadLetterGuard guard;
    private final long bucketMillis;
    private final long[] records = new long[BUCKETS];
    private final long[] dead = new long[BUCKETS];
    private long currentBucket = Long.MIN_VALUE;

    public DeadLetterRate(DeadLetterGuard guard) {
        this.guard = guard;
        this.bucketMillis = Math.max(1, guard.window().toMillis() / BUCKETS);
    }

    /**
     * Adds a batch's counts at processing time {@code now}; returns a message naming the fraction
     * when the guard trips, else null.
     */
    public String add(long now, long in, long deadLettered) {
        long bucket = now / bucketMillis;
        if (currentBucket == Long.MIN_VALUE || bucket - currentBucket >= BUCKETS) {
            java.util.Arrays.fill(records, 0);
            java.util.Arrays.fill(dead, 0);
        } else {
            for (long b = currentBucket + 1; b <= bucket; b++) {
                int i = (int) Math.floorMod(b, (long) BUCKETS);
                records[i] = 0;
                dead[i] = 0;
            }
        }
        currentBucket = Math.max(currentBucket, bucket);
        int i = (int) Math.floorMod(currentBucket, (long) BUCKETS);
        records[i] += in;
        dead[i] += deadLettered;
        long totalIn = 0;
        long totalDead = 0;
        for (int j = 0; j < BUCKETS; j++) {
            totalIn += records[j];
            totalDead += dead[j];
        }
        if (totalIn < guard.minRecords()) {
            return null;
        }
        double fraction = (double) totalDead / totalIn;
        if (fraction <= guard.maxFraction()) {
            return null;
        }
        return String.format(
                java.util.Locale.ROOT,
                "%d of the last %d records (%.4f) went to the dead-letter output within %s,"
                        + " more than dlq.max-fraction (%s); stopping the job",
                totalDead,
                totalIn,
                fraction,
                guard.window(),
                guard.maxFraction());
    }
}
