package io.tfstream.job;

import io.tfstream.text.Quoted;
import org.apache.flink.configuration.ConfigOption;

/**
 * What the job's cross-stage checks share (each option's own check is declared with it), each
 * failing with a {@link JobConfigException} that names the key, the value and what is accepted.
 */
final class OptionChecks {
    private OptionChecks() {}

    /** The error for {@code value} of {@code key}: "invalid value 'v' for key: expected ...". */
    static JobConfigException invalid(Object value, String key, String expected) {
        return new JobConfigException(
                "invalid value '"
                        + Quoted.cut(String.valueOf(value))
                        + "' for "
                        + key
                        + ": expected "
                        + expected);
    }

    static void require(JobConfig c, ConfigOption<?> o) {
        if (!c.contains(o)) {
            throw new JobConfigException(o.key() + " is required: " + JobOptionsHelp.text(o));
        }
    }
}
