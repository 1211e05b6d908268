package io.tfstream.e2e.harness;

import io.tfstream.convert.ConvertFeatures;
import io.tfstream.spec.ParseSpec;
import io.tfstream.testing.ExampleAvro;
import io.tfstream.testing.ExampleJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The harness's JSON and Avro inputs ({@code harness.inputs}): a profile's Examples written as JSON
 * objects (each feature an array; the wide profile's random bytes as base64) or as Avro records
 * (each feature a nullable array), and the job settings that read them back ({@code source.format},
 * {@code source.json.bytes}, {@code source.avro.schema-path}). The same records as the Example
 * input, so the jobs' outputs are the same.
 */
final class ConvertedInputs {
    /** The formats {@code harness.inputs} may name. */
    static final List<String> FORMATS = List.of("json", "avro");

    private ConvertedInputs() {}

    /** The topic the {@code format} records of {@code profile} are loaded into. */
    static String topic(String profile, String format) {
        return profile + "-" + format + "-in";
    }

    /** {@code examples} (serialized Examples of {@code spec}) as {@code format} records. */
    static List<byte[]> pool(String format, String profile, ParseSpec spec, List<byte[]> examples) {
        List<byte[]> out = new ArrayList<>(examples.size());
        if (format.equals("json")) {
            boolean base64 = base64(profile);
            for (byte[] e : examples) {
                out.add(ExampleJson.of(e, base64));
            }
            return out;
        }
        ExampleAvro avro = avro(spec, format);
        for (byte[] e : examples) {
            out.add(avro.of(e));
        }
        return out;
    }

    /**
     * Puts the settings that read {@code format} records of {@code spec} into the job's {@code
     * settings}; an Avro writer schema is written into {@code work}.
     */
    static void configure(
            Map<String, Object> settings, String format, String profile, ParseSpec spec, Path work)
            throws IOException {
        settings.put("source.format", format);
        if (format.equals("json")) {
            settings.put("source.json.bytes", base64(profile) ? "base64" : "utf8");
            return;
        }
        Path schema = work.resolve(profile + ".avsc");
        Files.writeString(schema, avro(spec, format).schema().toString());
        settings.put("source.avro.schema-path", schema.toString());
    }

    /** The wide profile's bytes features are random bytes, not text. */
    private static boolean base64(String profile) {
        return profile.equals("wide");
    }

    private static ExampleAvro avro(ParseSpec spec, String format) {
        if (!format.equals("avro")) {
            throw new IllegalArgumentException(
                    "harness.inputs: unknown input format " + format + ", not one of " + FORMATS);
        }
        return new ExampleAvro(ConvertFeatures.of(spec).asMap());
    }
}
