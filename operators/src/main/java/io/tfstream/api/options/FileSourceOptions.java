package io.tfstream.api.options;

import static org.apache.flink.configuration.ConfigOptions.key;

import io.tfstream.api.model.OnCorruption;
import java.time.Duration;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;

/**
 * The file source's options (the job's {@code source.files.*}): TFRecord files read as the input,
 * e.g. for a backfill. Keys are relative to the stage; {@link #OPTIONS} lists them with their types
 * and checks.
 */
@PublicEvolving
public final class FileSourceOptions {
    private FileSourceOptions() {}

    public static final ConfigOption<List<String>> PATHS =
            key("paths")
                    .stringType()
                    .asList()
                    .noDefaultValue()
                    .withDescription(
                            "TFRecord files, directories (read recursively) or globs in the last"
                                    + " path segments (file:///data/*.tfrecord.gz,"
                                    + " s3://bucket/shards/dt=*/*); names starting with '.' or '_'"
                                    + " are skipped. Compression is detected per file.");

    public static final ConfigOption<Mode> MODE =
            key("mode")
                    .enumType(Mode.class)
                    .defaultValue(Mode.BOUNDED)
                    .withDescription(
                            "bounded: read the files there at start, then finish (a final"
                                    + " checkpoint commits every output); continuous: also pick up"
                                    + " new files every source.files.discovery-interval.");

    public static final ConfigOption<Duration> DISCOVERY_INTERVAL =
            key("discovery-interval")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription("How often a continuous file source looks for new files.");

    public static final ConfigOption<OnCorruption> ON_CORRUPTION =
            key("on-corruption")
                    .enumType(OnCorruption.class)
                    .defaultValue(OnCorruption.DEAD_LETTER)
                    .withDescription(
                            "A damaged region of a file (bad CRC, bad length, truncation):"
                                    + " dead_letter"
                                    + " (dead letter with reason corrupt_input, file and byte"
                                    + " offset; reading resumes at the next valid record) or fail"
                                    + " (the job stops without restarts).");

    /** Every option above, in order, with its type and check. */
    public static final OptionList OPTIONS =
            OptionList.builder()
                    .add(PATHS, List.class, null)
                    .add(MODE)
                    .add(DISCOVERY_INTERVAL, OptionCheck.positive())
                    .add(ON_CORRUPTION)
                    .build();

    /** {@link #MODE}. */
    public enum Mode {
        BOUNDED,
        CONTINUOUS
    }
}
