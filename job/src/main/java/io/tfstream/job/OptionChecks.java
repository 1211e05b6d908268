package io.tfstream.job;

import java.time.Duration;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.MemorySize;

/**
 * The checks the stage configurations share, each failing with a {@link JobConfigException} that
 * names the key, the value and what is accepted.
 */
final class OptionChecks {
    private OptionChecks() {}

    /** The error for {@code value} of {@code key}: "invalid value 'v' for key: expected ...". */
    static JobConfigException invalid(Object value, String key, String expected) {
        return new JobConfigException(
                "invalid value '" + value + "' for " + key + ": expected " + expected);
    }

    static void require(JobConfig c, ConfigOption<?> o) {
        if (!c.contains(o)) {
            throw new JobConfigException(o.key() + " is required: " + JobOptionsHelp.text(o));
        }
    }

    static void positive(JobConfig c, ConfigOption<Duration> o) {
        Duration d = c.get(o);
        if (d.isNegative() || d.isZero()) {
            throw invalid(d, o.key(), "a positive duration");
        }
    }

    static void notNegative(JobConfig c, ConfigOption<Duration> o) {
        if (c.get(o).isNegative()) {
            throw invalid(c.get(o), o.key(), ">= 0");
        }
    }

    static void atLeast(JobConfig c, ConfigOption<Integer> o, int min) {
        if (c.get(o) < min) {
            throw invalid(c.get(o), o.key(), ">= " + min);
        }
    }

    static void atLeastOneByte(JobConfig c, ConfigOption<MemorySize> o) {
        if (c.get(o).getBytes() < 1) {
            throw new JobConfigException("invalid value for " + o.key() + ": expected >= 1 byte");
        }
    }

    /** A size that fits a Java array: 1 byte to 2 GiB. */
    static void intBytes(JobConfig c, ConfigOption<MemorySize> o) {
        long b = c.get(o).getBytes();
        if (b < 1 || b > Integer.MAX_VALUE - 8) {
            throw invalid(c.get(o), o.key(), "1 byte to 2 GiB");
        }
    }
}
