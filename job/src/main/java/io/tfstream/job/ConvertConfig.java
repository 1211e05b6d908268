package io.tfstream.job;

import io.tfstream.convert.AvroSchemaRejectedException;
import io.tfstream.convert.ConvertFeatures;
import io.tfstream.convert.ConvertOptions;
import io.tfstream.convert.InputFormat;
import io.tfstream.operators.convert.ConvertSettings;
import io.tfstream.operators.deadletter.DeadLetterGuard;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The {@code source.format} options ({@code source.avro.*}, {@code source.json.bytes}, {@code
 * source.convert.flatten}): checked at start, and built into the convert operator's settings
 * against the job's schema, which refuses an Avro writer schema that cannot convert (naming the
 * field) before the job runs.
 */
final class ConvertConfig {
    private final JobConfig c;
    private final String avroSchema;

    ConvertConfig(JobConfig c) {
        this.c = c;
        InputFormat format = c.get(JobOptions.SOURCE_FORMAT);
        if (format == InputFormat.AVRO) {
            if (!c.contains(JobOptions.SOURCE_AVRO_SCHEMA_PATH)) {
                throw new JobConfigException(
                        "source.format avro needs source.avro.schema-path (the writer schema,"
                                + " .avsc); no schema registry is asked");
            }
            avroSchema = read(c.get(JobOptions.SOURCE_AVRO_SCHEMA_PATH));
        } else {
            avroSchema = null;
            for (var o :
                    java.util.List.of(
                            JobOptions.SOURCE_AVRO_SCHEMA_PATH, JobOptions.SOURCE_AVRO_SCHEMA_ID)) {
                if (c.contains(o)) {
                    throw new JobConfigException(
                            o.key() + " is set but source.format is " + name(format));
                }
            }
        }
        if (format == InputFormat.EXAMPLE
                && (c.contains(JobOptions.SOURCE_JSON_BYTES)
                        || c.contains(JobOptions.SOURCE_CONVERT_FLATTEN))) {
            throw new JobConfigException(
                    "source.json.bytes and source.convert.flatten apply to source.format json or"
                            + " avro; source.format is example");
        }
    }

    private static String name(InputFormat f) {
        return f.name().toLowerCase(java.util.Locale.ROOT);
    }

    private static String read(String file) {
        Path path = Path.of(file);
        try {
            return Files.readString(path, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new JobConfigException("source.avro.schema-path: no such file: " + path, e);
        } catch (IOException e) {
            throw new JobConfigException(
                    "source.avro.schema-path: cannot read " + path + ": " + e, e);
        }
    }

    /** Whether records are converted (source.format json or avro). */
    boolean enabled() {
        return c.get(JobOptions.SOURCE_FORMAT) != InputFormat.EXAMPLE;
    }

    /** The convert operator's settings for {@code schema}; refuses what cannot convert. */
    ConvertSettings settings(JobSchema schema, DeadLetterGuard guard) {
        InputFormat format = c.get(JobOptions.SOURCE_FORMAT);
        ConvertFeatures features;
        try {
            features = ConvertFeatures.of(schema.spec());
        } catch (IllegalArgumentException e) {
            throw new JobSchemaRejectedException(
                    "source.format " + name(format) + ": " + e.getMessage(), e);
        }
        ConvertOptions options =
                new ConvertOptions(
                        c.get(JobOptions.SOURCE_JSON_BYTES) == JobOptions.JsonBytes.BASE64,
                        c.get(JobOptions.SOURCE_CONVERT_FLATTEN),
                        c.contains(JobOptions.SOURCE_AVRO_SCHEMA_ID)
                                ? c.get(JobOptions.SOURCE_AVRO_SCHEMA_ID)
                                : null);
        ConvertSettings s = new ConvertSettings(format, features, options, avroSchema, guard);
        try {
            s.converter(); // the Avro plan: refuses logical types and misfits by field
        } catch (AvroSchemaRejectedException e) {
            throw new JobSchemaRejectedException(
                    "source.avro.schema-path "
                            + c.get(JobOptions.SOURCE_AVRO_SCHEMA_PATH)
                            + " against "
                            + schema.fileName()
                            + ": "
                            + e.getMessage(),
                    e);
        }
        return s;
    }
}
