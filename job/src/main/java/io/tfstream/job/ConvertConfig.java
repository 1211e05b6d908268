package io.tfstream.job;

import io.tfstream.api.TfstreamConvert;
import io.tfstream.api.TfstreamConvertBuilder;
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
    // source.* formats
    private final StageView v;
    private final String avroSchema;

    ConvertConfig(JobConfig c) {
        this.c = c;
        this.v = c.view(JobOptionStage.CONVERT);
        InputFormat format = v.get(SourceFormatOptions.FORMAT);
        if (format == InputFormat.AVRO) {
            if (!v.has(SourceFormatOptions.AVRO_SCHEMA_PATH)) {
                throw new JobConfigException(
                        "source.format avro needs source.avro.schema-path (the writer schema,"
                                + " .avsc); no schema registry is asked");
            }
            avroSchema = read(v.get(SourceFormatOptions.AVRO_SCHEMA_PATH));
        } else {
            avroSchema = null;
            for (var o :
                    java.util.List.of(
                            SourceFormatOptions.AVRO_SCHEMA_PATH,
                            SourceFormatOptions.AVRO_SCHEMA_ID)) {
                if (v.has(o)) {
                    throw new JobConfigException(
                            JobOptionStage.CONVERT.prefix()
                                    + o.key()
                                    + " is set but source.format is "
                                    + name(format));
                }
            }
        }
        if (format == InputFormat.EXAMPLE
                && (v.has(SourceFormatOptions.JSON_BYTES)
                        || v.has(SourceFormatOptions.CONVERT_FLATTEN))) {
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
        return v.get(SourceFormatOptions.FORMAT) != InputFormat.EXAMPLE;
    }

    /**
     * The conversion step for {@code schema}, built through the library's builder with the job's
     * operator uid; refuses what cannot convert (an Avro field naming its type) before the job
     * runs.
     */
    TfstreamConvert convert(JobSchema schema) {
        InputFormat format = v.get(SourceFormatOptions.FORMAT);
        TfstreamConvertBuilder b =
                TfstreamConvert.builder()
                        .fromConfig(v)
                        .setDeadLetterGuard(c.deadLetters().guard())
                        .setSchema(schema.bytes(), schema.fileName())
                        .setUid(PipelineOperator.CONVERT.uid())
                        .setName(PipelineOperator.CONVERT.displayName());
        if (avroSchema != null) {
            b.setAvroSchema(avroSchema);
        }
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            // The options were checked above: what is left is a schema that cannot convert.
            Throwable why = e.getCause() != null ? e.getCause() : e;
            if (why instanceof AvroSchemaRejectedException) {
                throw new JobSchemaRejectedException(
                        "source.avro.schema-path "
                                + v.get(SourceFormatOptions.AVRO_SCHEMA_PATH)
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
