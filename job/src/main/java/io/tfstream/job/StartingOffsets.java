package io.tfstream.job;

import io.tfstream.api.TfstreamKafkaSource;
import io.tfstream.text.Quoted;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;

/**
 * {@code source.starting-offsets}: {@code committed} (falling back to earliest), {@code earliest},
 * {@code latest} or {@code timestamp:<epoch ms>}.
 */
final class StartingOffsets {
    private StartingOffsets() {}

    static final String ACCEPTED = "committed, earliest, latest or timestamp:<epoch ms>";

    static OffsetsInitializer parse(String value) {
        String v = value.trim();
        switch (v) {
            case "committed":
                return TfstreamKafkaSource.committedOrEarliest();
            case "earliest":
                return OffsetsInitializer.earliest();
            case "latest":
                return OffsetsInitializer.latest();
            default:
                long ms =
                        v.startsWith("timestamp:")
                                ? millis(v.substring("timestamp:".length()))
                                : -1;
                if (ms >= 0) {
                    return OffsetsInitializer.timestamp(ms);
                }
                throw new JobConfigException(
                        "invalid value '"
                                + Quoted.cut(value)
                                + "' for source.starting-offsets: expected "
                                + ACCEPTED);
        }
    }

    /** Non-negative epoch millis, or -1 when {@code s} is not one. */
    private static long millis(String s) {
        String t = s.trim();
        if (t.isEmpty() || t.length() > 18 || !t.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        return Long.parseLong(t);
    }
}
