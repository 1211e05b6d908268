package io.tfstream.operators.parse;

import io.tfstream.api.options.BatchOptions;
import io.tfstream.api.options.OptionCheck;
import java.io.Serializable;
import java.time.Duration;
import org.apache.flink.annotation.Internal;

/**
 * When the batch-and-parse operator closes a batch: at {@code maxRecords} records, at {@code
 * maxBytes} bytes of record values, or {@code maxDelay} (processing time) after its first record,
 * whichever comes first; and always before a checkpoint barrier and at the end of input.
 */
@Internal
public record BatchTriggers(int maxRecords, long maxBytes, Duration maxDelay)
        implements Serializable {
    public static final int DEFAULT_MAX_RECORDS = BatchOptions.MAX_RECORDS.defaultValue();
    public static final long DEFAULT_MAX_BYTES = BatchOptions.MAX_BYTES.defaultValue().getBytes();
    public static final Duration DEFAULT_MAX_DELAY = BatchOptions.MAX_DELAY.defaultValue();

    /** Checked as the {@code batch.*} options are, named as the components. */
    public BatchTriggers {
        BatchOptions.OPTIONS.check(BatchOptions.MAX_RECORDS, maxRecords, "maxRecords");
        if (maxBytes < 1) {
            throw OptionCheck.invalid(maxBytes, "maxBytes", ">= 1");
        }
        if (maxDelay == null) {
            throw new IllegalArgumentException("maxDelay must be set");
        }
        BatchOptions.OPTIONS.check(BatchOptions.MAX_DELAY, maxDelay, "maxDelay");
    }

    public static BatchTriggers defaults() {
        return new BatchTriggers(DEFAULT_MAX_RECORDS, DEFAULT_MAX_BYTES, DEFAULT_MAX_DELAY);
    }
}
