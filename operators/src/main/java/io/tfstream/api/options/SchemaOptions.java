package io.tfstream.api.options;

import static org.apache.flink.configuration.ConfigOptions.key;

import io.tfstream.api.model.SchemaCompatibility;
import java.time.Duration;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;

/**
 * How the schema is read and applied (the job's {@code schema.*}): the record kind, legacy
 * defaults, updates while the job runs. Keys are relative to the stage; {@link #OPTIONS} lists them
 * with their types and checks.
 */
@PublicEvolving
public final class SchemaOptions {
    private SchemaOptions() {}

    public static final ConfigOption<Kind> KIND =
            key("kind")
                    .enumType(Kind.class)
                    .defaultValue(Kind.EXAMPLE)
                    .withDescription(
                            "Record type: example (tf.train.Example, parse_example) or"
                                    + " sequence_example (parse_sequence_example); must match"
                                    + " the schema.");

    public static final ConfigOption<Boolean> LEGACY_DEFAULTS =
            key("legacy-defaults")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Fixed-shape schema features without a default get the legacy"
                                    + " defaults (b'', -1, -1.0) instead of being required.");

    public static final ConfigOption<Update> UPDATE =
            key("update")
                    .enumType(Update.class)
                    .defaultValue(Update.NONE)
                    .withDescription(
                            "none: the schema or spec file is read once at start. poll: every"
                                    + " parse subtask watches the file (any Flink file system)"
                                    + " and takes up a changed one at its next checkpoint"
                                    + " (docs/schema-changes.md); a file that does not convert to"
                                    + " a spec, or fails schema.compatibility, is refused with a"
                                    + " SCHEMA alert and the old schema stays.");

    public static final ConfigOption<Duration> POLL_INTERVAL =
            key("poll-interval")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(30))
                    .withDescription(
                            "With schema.update: poll, how often each parse subtask reads the"
                                    + " schema or spec file.");

    public static final ConfigOption<SchemaCompatibility> COMPATIBILITY =
            key("compatibility")
                    .enumType(SchemaCompatibility.class)
                    .defaultValue(SchemaCompatibility.ANY)
                    .withDescription(
                            "With schema.update: poll, which new schemas are taken up: any (every"
                                    + " one that converts to a spec) or backward (only one under"
                                    + " which every record the schema in force accepts stays"
                                    + " accepted, as tfstream schema diff decides).");

    /** Every option above, in order, with its type and check. */
    public static final OptionList OPTIONS =
            OptionList.builder()
                    .add(KIND)
                    .add(LEGACY_DEFAULTS)
                    .add(UPDATE)
                    .add(POLL_INTERVAL, OptionCheck.positive())
                    .add(COMPATIBILITY)
                    .build();

    /** {@link #KIND}. */
    public enum Kind {
        EXAMPLE,
        SEQUENCE_EXAMPLE
    }

    /** {@link #UPDATE}. */
    public enum Update {
        NONE,
        POLL
    }
}
