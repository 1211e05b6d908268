package io.tfstream.operators.shards;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** When an open shard is finished: size at once; age and bucket close at a checkpoint. */
class ShardRollsTest {
    private final ShardRolls rolls = new ShardRolls(1000, 60_000, 5_000);

    @Test
    void aShardIsFullAtTheTargetSize() {
        assertFalse(rolls.full(999));
        assertTrue(rolls.full(1000));
    }

    @Test
    void aShardIsDueOnceItIsMaxAgeOld() {
        assertFalse(rolls.dueAtCheckpoint(1_000, 60_999, Long.MAX_VALUE, Long.MIN_VALUE));
        assertTrue(rolls.dueAtCheckpoint(1_000, 61_000, Long.MAX_VALUE, Long.MIN_VALUE));
    }

    @Test
    void aShardIsDueOnceTheWatermarkPassedItsBucketEndPlusTheDelay() {
        assertFalse(rolls.dueAtCheckpoint(0, 0, 100_000, 104_999));
        assertTrue(rolls.dueAtCheckpoint(0, 0, 100_000, 105_000));
    }

    @Test
    void aBucketOfProcessingTimeOrAtTheEndOfTimeNeverClosesByTheWatermark() {
        assertFalse(rolls.bucketClosed(Long.MAX_VALUE, Long.MAX_VALUE));
        assertFalse(rolls.bucketClosed(Long.MAX_VALUE - 10, Long.MAX_VALUE));
    }
}
