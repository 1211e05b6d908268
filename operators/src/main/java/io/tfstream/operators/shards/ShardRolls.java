package io.tfstream.operators.shards;

/**
 * When an open shard is finished: at once when it holds {@code targetSize} bytes as stored; at a
 * checkpoint when it is {@code maxAgeMillis} old (processing time since it was opened) or when its
 * bucket is closed (the writer's watermark has passed the bucket's end plus {@code
 * successDelayMillis}). Pure decisions, no state.
 */
record ShardRolls(long targetSize, long maxAgeMillis, long successDelayMillis) {

    static ShardRolls of(ShardSettings s) {
        return new ShardRolls(s.targetSize(), s.maxAge().toMillis(), s.successDelay().toMillis());
    }

    /** Whether a shard of {@code storedBytes} is full. */
    boolean full(long storedBytes) {
        return storedBytes >= targetSize;
    }

    /**
     * Whether a shard opened at {@code openedAt} in a bucket ending at {@code bucketEnd} ({@link
     * Long#MAX_VALUE}: never by the watermark) is finished at a checkpoint at {@code now} with the
     * writer's watermark at {@code watermark}.
     */
    boolean dueAtCheckpoint(long openedAt, long now, long bucketEnd, long watermark) {
        return now - openedAt >= maxAgeMillis || bucketClosed(bucketEnd, watermark);
    }

    boolean bucketClosed(long bucketEnd, long watermark) {
        if (bucketEnd == Long.MAX_VALUE) {
            return false;
        }
        long due = bucketEnd + successDelayMillis;
        return due >= bucketEnd && watermark >= due; // no overflow into the past
    }
}
