package io.tfstream.job;

import io.tfstream.api.model.EventTimeSettings;
import io.tfstream.parse.LenientBatchParser;
import io.tfstream.parse.ParseLimits;
import io.tfstream.spec.MalformedSpecFileException;
import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.SchemaFingerprint;
import io.tfstream.spec.SpecRejectedException;
import io.tfstream.spec.SpecSource;
import io.tfstream.spec.schema.FixedLenDefaults;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The job's schema or spec file, read and checked once at start: its bytes (what the parse operator
 * carries), the derived spec, and the fingerprint. Refuses a file that cannot be read ({@link
 * JobConfigException}) or a schema that tfx-bsl/TFT or TensorFlow would reject, that does not match
 * {@code schema.kind}, or whose event-time feature is not an int64 feature ({@link
 * JobSchemaRejectedException}).
 */
public record JobSchema(byte[] bytes, String fileName, ParseSpec spec, String fingerprint) {

    /** Loads and checks the schema or spec {@code config} names. */
    public static JobSchema load(JobConfig config) {
        String key = config.schemaFileOption().key();
        Path path = Path.of(config.get(config.schemaFileOption()));
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            throw new JobConfigException(key + ": no such file: " + path, e);
        } catch (IOException e) {
            throw new JobConfigException(key + ": cannot read " + path + ": " + e, e);
        }
        String name = path.getFileName() == null ? path.toString() : path.getFileName().toString();
        ParseSpec spec;
        String fingerprint;
        try {
            spec =
                    SpecSource.parse(
                            bytes,
                            name,
                            config.parse().legacyDefaults()
                                    ? FixedLenDefaults.LEGACY
                                    : FixedLenDefaults.NONE);
            fingerprint = SchemaFingerprint.of(bytes, name);
        } catch (MalformedSpecFileException e) {
            throw new JobConfigException(
                    key + ": " + path + " is not readable: " + e.getMessage(), e);
        } catch (SpecRejectedException e) {
            throw new JobSchemaRejectedException(
                    key + ": " + path + " was rejected: " + e.getMessage(), e);
        }
        boolean sequence = config.parse().sequenceExamples();
        if (spec.isSequence() != sequence) {
            throw new JobSchemaRejectedException(
                    key
                            + ": "
                            + path
                            + " describes "
                            + (spec.isSequence() ? "SequenceExample" : "Example")
                            + " data but schema.kind is "
                            + (sequence ? "sequence_example" : "example"),
                    null);
        }
        try {
            LenientBatchParser.create(spec, ParseLimits.defaults());
        } catch (IllegalArgumentException e) {
            throw new JobSchemaRejectedException(
                    key + ": " + path + " was rejected: " + e.getMessage(), e);
        }
        if (!config.parse().kafkaTime()) {
            checkEventTimeFeature(config.parse().eventTimeFeature(), spec, key, path);
        }
        JobSchema schema = new JobSchema(bytes, name, spec, fingerprint);
        if (config.convert().enabled()) {
            config.convert().convert(schema); // refuses at start
        }
        if (config.parse().windows()) {
            // refuses a batch.key feature the schema lacks
            config.parse().build(config.parse().builder(schema));
        }
        return schema;
    }

    private static void checkEventTimeFeature(
            String feature, ParseSpec spec, String key, Path path) {
        String problem = EventTimeSettings.featureProblem(spec, feature);
        if (problem != null) {
            throw new JobSchemaRejectedException(
                    "event-time.feature '"
                            + feature
                            + "' must be an int64 "
                            + (spec.isSequence() ? "context " : "")
                            + "feature (FixedLen, VarLen or Ragged) of "
                            + key
                            + " "
                            + path
                            + "; "
                            + problem,
                    null);
        }
    }
}
