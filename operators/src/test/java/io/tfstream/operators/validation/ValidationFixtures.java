package io.tfstream.operators.validation;

import io.tfstream.api.model.SourceRecord;
import io.tfstream.api.model.ValidationActions;
import io.tfstream.parse.ParseLimits;
import io.tfstream.testkit.ProtoFeatures;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.tensorflow.example.Example;
import org.tensorflow.example.Features;

/**
 * A TFMD schema with a per-record check (age in [0, 120]), a string domain with drift comparator
 * (country), a dataset constraint (at least one example per window), and Examples for it.
 */
final class ValidationFixtures {
    private ValidationFixtures() {}

    static final String SCHEMA =
            "feature { name: \"age\" type: INT int_domain { min: 0 max: 120 }"
                    + " presence { min_fraction: 1.0 } }\n"
                    + "feature { name: \"country\" type: BYTES domain: \"country\""
                    + " presence { min_count: 1 }"
                    + " drift_comparator { infinity_norm { threshold: 0.2 } } }\n"
                    + "string_domain { name: \"country\" value: \"US\" value: \"DE\""
                    + " value: \"FR\" value: \"XX\" }\n"
                    + "dataset_constraints { min_examples_count: 1 }\n";

    static final long WINDOW = 60_000;

    /**
     * Batch-and-parse settings over {@code v}'s schema with validation on: batches of {@code
     * maxRecords} (or until a checkpoint), tensor payloads, event time from Kafka timestamps.
     */
    static io.tfstream.operators.parse.ParseSettings parse(
            ValidationSettings v, String schema, int maxRecords, boolean sequence) {
        return parse(v, schema, maxRecords, io.tfstream.api.model.DeadLetterGuard.off());
    }

    /** As above, with the dead-letter circuit breaker {@code guard}. */
    static io.tfstream.operators.parse.ParseSettings parse(
            ValidationSettings v,
            String schema,
            int maxRecords,
            io.tfstream.api.model.DeadLetterGuard guard) {
        return new io.tfstream.operators.parse.ParseSettings(
                        schema.getBytes(StandardCharsets.UTF_8),
                        "schema.pbtxt",
                        false,
                        io.tfstream.parse.ParseLimits.defaults(),
                        new io.tfstream.operators.parse.BatchTriggers(
                                maxRecords, 1 << 20, java.time.Duration.ofHours(1)),
                        io.tfstream.api.model.EventTimeSettings.kafkaTimestamp(),
                        guard)
                .withTensorBatches("fp", 1 << 20)
                .withValidation(v, 0);
    }

    static ValidationSettings settings(int splits, List<String> actions) {
        return settings(SCHEMA, splits, actions);
    }

    static ValidationSettings settings(String schema, int splits, List<String> actions) {
        return new ValidationSettings(
                schema.getBytes(StandardCharsets.UTF_8),
                "schema.pbtxt",
                false,
                null,
                WINDOW,
                splits,
                5,
                ValidationActions.parse(actions),
                "test-job",
                ParseLimits.defaults());
    }

    static byte[] example(long age, String country) {
        Features f =
                Features.newBuilder()
                        .putFeature("age", ProtoFeatures.int64s(age))
                        .putFeature("country", ProtoFeatures.strings(country))
                        .build();
        return Example.newBuilder().setFeatures(f).build().toByteArray();
    }

    static SourceRecord record(long offset, long age, String country) {
        return SourceRecord.of(example(age, country), "in", 0, offset, offset);
    }

    /** The string value of a top-level field of an alert. */
    static String field(String json, String name) {
        Matcher m =
                Pattern.compile("\"" + Pattern.quote(name) + "\":(\"([^\"]*)\"|[-0-9.eE]+)")
                        .matcher(json);
        if (!m.find()) {
            throw new AssertionError("no field " + name + " in " + json);
        }
        return m.group(2) != null ? m.group(2) : m.group(1);
    }

    /** "<feature_path>/<anomaly_type>" of each alert. */
    static List<String> summary(List<String> alerts) {
        List<String> out = new ArrayList<>();
        for (String a : alerts) {
            out.add(field(a, "feature_path") + "/" + field(a, "anomaly_type"));
        }
        return out;
    }
}
