package io.tfstream.job;

import io.tfstream.api.TfstreamConvert;
import io.tfstream.api.TfstreamConvertBuilder;
import io.tfstream.api.model.DeadLetterGuard;
import io.tfstream.api.options.SourceFormatOptions;
import io.tfstream.convert.AvroSchemaRejectedException;
import io.tfstream.convert.InputFormat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The {@code source.format} options ({@code source.avro.*}, {@code source.json.bytes}, {@code
 * source.convert.flatten}): checked at start, and mapped onto the library's {@link TfstreamConvert}
 * builder against the job's schema, which refuses an Avro writer schema that cannot convert (naming
 * the field) before the job runs.
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

    /**
     * The conversion step for {@code schema}, built through the library's builder with the job's
     * operator uid; refuses what cannot convert (an Avro field naming its type) before the job
     * runs.
     */
    TfstreamConvert convert(JobSchema schema, DeadLetterGuard guard) {
        InputFormat format = c.get(JobOptions.SOURCE_FORMAT);
        TfstreamConvertBuilder b =
                TfstreamConvert.builder()
                        .setSchema(schema.bytes(), schema.fileName())
                        .setFormat(format)
                        .setJsonBytesBase64(
                                c.get(JobOptions.SOURCE_JSON_BYTES)
                                        == SourceFormatOptions.JsonBytes.BASE64)
                        .setFlatten(c.get(JobOptions.SOURCE_CONVERT_FLATTEN))
                        .setDeadLetterGuard(guard)
                        .setUid(PipelineOperator.CONVERT.uid())
                        .setName(PipelineOperator.CONVERT.displayName());
        if (avroSchema != null) {
            b.setAvroSchema(avroSchema);
        }
        if (c.contains(JobOptions.SOURCE_AVRO_SCHEMA_ID)) {
            b.setAvroSchemaId(c.get(JobOptions.SOURCE_AVRO_SCHEMA_ID));
        }
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            // The options were checked above: what is left is a schema that cannot convert.
            Throwable why = e.getCause() != null ? e.getCause() : e;
            if (why instanceof AvroSchemaRejectedException) {
                throw new JobSchemaRejectedException(
                        "source.avro.schema-path "
                                + c.get(JobOptions.SOURCE_AVRO_SCHEMA_PATH)
                                + " against "
                                + schema.fileName()
                                + ": "
                                + why.getMessage(),
                        e);
            }
            throw new JobSchemaRejectedException(
                    "source.format " + name(format) + ": " + why.getMessage(), e);
        }
    }
}
