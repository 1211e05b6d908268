package io.tfstream.local;

import io.tfstream.api.options.SourceFormatOptions;
import io.tfstream.convert.AvroContainer;
import io.tfstream.convert.ConversionException;
import io.tfstream.convert.ConvertFeatures;
import io.tfstream.convert.ConvertOptions;
import io.tfstream.convert.ExampleConverter;
import io.tfstream.convert.ExampleConverters;
import io.tfstream.convert.InputFormat;
import io.tfstream.convert.JsonLines;
import io.tfstream.job.JobConfig;
import io.tfstream.job.JobOptions;
import io.tfstream.job.JobSchema;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The records of {@code tfstream local --input-format json|avro --input FILE}: the lines of a JSON
 * Lines file or the records of an Avro container file (as Avro binary of the file's schema), and
 * broken versions of them that the job's converter refuses, so that {@code --corrupt-fraction}
 * breaks the input's own format.
 */
final class ConvertedInput {
    /** The longest JSON line read. */
    static final int MAX_LINE_BYTES = 64 << 20;

    private ConvertedInput() {}

    /** The writer schema of the Avro container file {@code file}, as {@code .avsc} text. */
    static String avroSchema(Path file) {
        try (AvroContainer c = new AvroContainer(file)) {
            return c.schema().toString();
        } catch (NoSuchFileException e) {
            throw new LocalRun.UsageException("--input: no such file: " + file, e);
        } catch (IOException | RuntimeException e) {
            throw new LocalRun.UsageException(
                    "--input " + file + " is not an Avro container file: " + e.getMessage(), e);
        }
    }

    /** At most {@code limit} records of {@code file}. */
    static List<byte[]> read(InputFormat format, Path file, int limit) {
        List<byte[]> out = new ArrayList<>();
        try {
            if (format == InputFormat.JSON) {
                try (JsonLines lines = new JsonLines(file, MAX_LINE_BYTES)) {
                    while (out.size() < limit && lines.next()) {
                        out.add(lines.line());
                    }
                }
            } else {
                try (AvroContainer c = new AvroContainer(file)) {
                    byte[] r;
                    while (out.size() < limit && (r = c.next()) != null) {
                        out.add(r);
                    }
                }
            }
        } catch (NoSuchFileException e) {
            throw new LocalRun.UsageException("--input: no such file: " + file, e);
        } catch (IOException | RuntimeException e) {
            throw new LocalRun.UsageException("--input " + file + ": " + e.getMessage(), e);
        }
        return out;
    }

    /** {@code records} with {@code fraction} of them broken so that the job's converter refuses. */
    static CorruptRecords.Result mix(
            List<byte[]> records,
            double fraction,
            long seed,
            InputFormat format,
            JobSchema schema,
            JobConfig config) {
        ConvertFeatures features = ConvertFeatures.of(schema.spec());
        String avsc = null;
        if (format == InputFormat.AVRO) {
            try {
                avsc = Files.readString(Path.of(config.get(JobOptions.SOURCE_AVRO_SCHEMA_PATH)));
            } catch (IOException e) {
                throw new LocalRun.UsageException("cannot read the input's Avro schema: " + e, e);
            }
        }
        ExampleConverter converter =
                ExampleConverters.create(
                        format,
                        features,
                        new ConvertOptions(
                                config.get(JobOptions.SOURCE_JSON_BYTES)
                                        == SourceFormatOptions.JsonBytes.BASE64,
                                config.get(JobOptions.SOURCE_CONVERT_FLATTEN),
                                config.contains(JobOptions.SOURCE_AVRO_SCHEMA_ID)
                                        ? config.get(JobOptions.SOURCE_AVRO_SCHEMA_ID)
                                        : null),
                        avsc);
        CorruptRecords.Retyper retyper =
                format == InputFormat.JSON && features.size() > 0
                        ? (r, rnd) -> jsonWrongType(r, features.name(rnd.nextInt(features.size())))
                        : (r, rnd) -> null;
        return CorruptRecords.mix(
                records,
                fraction,
                seed,
                r -> {
                    try {
                        converter.convert(r, 0, r.length);
                        return false;
                    } catch (ConversionException e) {
                        return true;
                    }
                },
                retyper);
    }

    /** The JSON object with feature {@code name} first, as an object: never a feature value. */
    private static byte[] jsonWrongType(byte[] r, String name) {
        String s = new String(r, StandardCharsets.UTF_8);
        int open = s.indexOf('{');
        if (open < 0) {
            return null;
        }
        String rest = s.substring(open + 1).strip();
        String field =
                "\""
                        + name.replace("\\", "\\\\").replace("\"", "\\\"")
                        + "\": {\"not\": \"a value\"}";
        String out = "{" + field + (rest.startsWith("}") ? "" : ", ") + rest;
        return out.getBytes(StandardCharsets.UTF_8);
    }
}
