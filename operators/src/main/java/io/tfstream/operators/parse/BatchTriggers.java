package io.tfstream.operators.parse;

import java.io.Serializable;
import java.time.Duration;

/**
 * When the batch-and-parse operator closes a batch: at {@code maxRecords} records, at {@code
 * maxBytes} bytes of record values, or {@code maxDelay} (processing time) after its first record,
 * whichever comes first; and always before a checkpoint barrier and at the end of input.
 */
public record BatchTriggers(int maxRecords, long maxBytes, Duration maxDelay)
        implements Serializable {
    public static final int DEFAULT_MAX_RECORDS = 1024;
    public static final long DEFAULT_MAX_BYTES = 8L << 20;
    public static final Duration DEFAULT_MAX_DELAY = Duration.ofMillis(200);

    public BatchTriggers {
        if (maxRecords < 1) {
            throw new IllegalArgumentException("batch.max-records must be >= 1, got " + maxRecords);
        }
        if (maxBytes < 1) {
            throw new IllegalArgumentException("batch.max-bytes must be >= 1, got " + maxBytes);
        }
        if (maxDelay == null || maxDelay.isNegative() || maxDelay.isZero()) {
            throw new IllegalArgumentException("batch.max-delay must be positive, got " + maxDelay);
        }
    }

    public static BatchTriggers defaults() {
        return new BatchTriggers(DEFAULT_MAX_RECORDS, DEFAULT_MAX_BYTES, DEFAULT_MAX_DELAY);
    }
}
