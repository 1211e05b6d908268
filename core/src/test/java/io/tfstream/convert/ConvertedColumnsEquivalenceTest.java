package io.tfstream.convert;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.tfstream.parse.ParseLimits;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.json.SpecJsonReader;
import io.tfstream.testing.ConvertedParseOracle;
import io.tfstream.testing.ExampleAvro;
import io.tfstream.testing.ExampleJson;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;

/**
 * JSON and Avro records parsed straight into the columns ({@link ConverterDecoder}) give what
 * converting each record to its Example and parsing those gives ({@link ConvertedParseOracle}: the
 * same tensors, rows, rejected records with the same messages, conversion errors included, row
 * states for validation, ignored field counts and the same Example bytes). Random records of every
 * feature kind, with wrong counts, missing required keys, composite mismatches (a batch-wide
 * error), values over small limits, type mismatches, invalid text, unknown fields; with and without
 * Examples written during the parse.
 */
class ConvertedColumnsEquivalenceTest {
    private static final String SPEC =
            """
            {"d": {"type": "fixed_len", "dtype": "int64", "shape": [], "default": 7},
             "req": {"type": "fixed_len", "dtype": "float32", "shape": [2]},
             "s": {"type": "fixed_len", "dtype": "string", "shape": [], "default": "x"},
             "seq": {"type": "fixed_len_seq", "dtype": "int64", "shape": [2],
                     "allow_missing": true, "default": 0},
             "v": {"type": "var_len", "dtype": "string"},
             "vf": {"type": "var_len", "dtype": "float32"},
             "sp": {"type": "sparse", "index_keys": ["ix"], "value_key": "sv",
                    "dtype": "float32", "size": [6], "already_sorted": false},
             "rg": {"type": "ragged", "dtype": "int64", "value_key": "rv",
                    "partitions": [{"row_lengths": "rl"}], "row_splits_dtype": "int64"}}
            """;

    private static final List<ParseLimits> LIMITS =
            List.of(
                    ParseLimits.defaults(),
                    new ParseLimits(120, 4, 8, 5),
                    new ParseLimits(60, 3, 5, 3),
                    new ParseLimits(1 << 20, 6, 11, 64, 3));

    private static final Map<String, Integer> FIXED = Map.of("d", 1, "req", 2, "s", 1);

    @Test
    void jsonIntoColumnsParsesAsItsExamples() throws Exception {
        check(InputFormat.JSON, 101);
    }

    @Test
    void avroIntoColumnsParsesAsItsExamples() throws Exception {
        check(InputFormat.AVRO, 202);
    }

    private static void check(InputFormat format, long seed) throws Exception {
        FeatureSpecs spec = (FeatureSpecs) SpecJsonReader.read(SPEC, "test");
        Map<String, DType> types = ConvertFeatures.of(spec).asMap();
        ExampleAvro avro = new ExampleAvro(types);
        String avsc = avro.schema().toString();
        SplittableRandom rnd = new SplittableRandom(seed);
        int rows = 0;
        int conversionErrors = 0;
        int parseRejections = 0;
        for (ParseLimits limits : LIMITS) {
            for (boolean keep : new boolean[] {false, true}) {
                ConvertedParseOracle oracle =
                        new ConvertedParseOracle(
                                format, spec, limits, keep, ConvertOptions.defaults(), avsc);
                for (int round = 0; round < 60; round++) {
                    int n = 1 + rnd.nextInt(40);
                    List<byte[]> inputs = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        Example e = randomExample(rnd, types);
                        inputs.add(
                                format == InputFormat.JSON
                                        ? mutateJson(rnd, ExampleJson.of(e, false))
                                        : mutateAvro(rnd, avro.of(e)));
                    }
                    ConvertedParseOracle.Counts c;
                    try {
                        c = oracle.compare(inputs);
                    } catch (AssertionError e) {
                        throw new AssertionError(
                                format + " " + limits + " keep=" + keep + " round " + round, e);
                    }
                    rows += c.rows();
                    conversionErrors += c.conversionErrors();
                    parseRejections += c.parseRejections();
                }
            }
        }
        // The corpus reaches every path: accepted rows, conversion errors, parse errors.
        assertTrue(rows > 2000, "rows " + rows);
        assertTrue(conversionErrors > 100, "conversion errors " + conversionErrors);
        assertTrue(parseRejections > 500, "parse rejections " + parseRejections);
    }

    /** Each feature absent, empty, of the shape's count (often) or another one. */
    private static Example randomExample(SplittableRandom rnd, Map<String, DType> types) {
        Example.Builder b = Example.newBuilder();
        for (Map.Entry<String, DType> t : types.entrySet()) {
            String name = t.getKey();
            if (rnd.nextInt(name.equals("req") ? 12 : 4) == 0) {
                continue;
            }
            int count;
            Integer fixed = FIXED.get(name);
            if (fixed != null && rnd.nextInt(10) != 0) {
                count = fixed;
            } else if (name.equals("seq") && rnd.nextInt(3) != 0) {
                count = 2 * rnd.nextInt(3);
            } else {
                count = rnd.nextInt(6);
            }
            Feature.Builder f = Feature.newBuilder();
            for (int i = 0; i < count; i++) {
                switch (t.getValue()) {
                    case INT64 ->
                            f.getInt64ListBuilder()
                                    .addValue(
                                            name.equals("rl") || name.equals("ix")
                                                    ? rnd.nextInt(3)
                                                    : rnd.nextInt(8) == 0
                                                            ? rnd.nextLong()
                                                            : rnd.nextInt(-3, 400));
                    case FLOAT32 -> f.getFloatListBuilder().addValue((float) rnd.nextGaussian());
                    case STRING -> {
                        byte[] v = new byte[rnd.nextInt(7)];
                        for (int k = 0; k < v.length; k++) {
                            v[k] = (byte) rnd.nextInt('a', 'z' + 1);
                        }
                        f.getBytesListBuilder().addValue(ByteString.copyFrom(v));
                    }
                }
            }
            switch (t.getValue()) {
                case INT64 -> f.getInt64ListBuilder();
                case FLOAT32 -> f.getFloatListBuilder();
                case STRING -> f.getBytesListBuilder();
            }
            b.getFeaturesBuilder().putFeature(name, f.build());
        }
        if (rnd.nextInt(8) != 0) {
            consistentComposites(rnd, b);
        }
        return b.build();
    }

    /** The sparse indices as many as its values, the ragged row lengths adding up to its values. */
    private static void consistentComposites(SplittableRandom rnd, Example.Builder b) {
        Map<String, Feature> m = b.getFeaturesBuilder().getFeatureMap();
        Feature sv = m.get("sv");
        Feature.Builder ix = Feature.newBuilder();
        ix.getInt64ListBuilder();
        for (int i = 0; sv != null && i < sv.getFloatList().getValueCount(); i++) {
            ix.getInt64ListBuilder().addValue(rnd.nextInt(6));
        }
        if (sv == null) {
            b.getFeaturesBuilder().removeFeature("ix");
        } else {
            b.getFeaturesBuilder().putFeature("ix", ix.build());
        }
        Feature rv = m.get("rv");
        int left = rv == null ? 0 : rv.getInt64List().getValueCount();
        Feature.Builder rl = Feature.newBuilder();
        rl.getInt64ListBuilder();
        while (left > 0) {
            int k = 1 + rnd.nextInt(left);
            rl.getInt64ListBuilder().addValue(k);
            left -= k;
        }
        if (rv == null) {
            b.getFeaturesBuilder().removeFeature("rl");
        } else {
            b.getFeaturesBuilder().putFeature("rl", rl.build());
        }
    }

    /** Now and then: an unknown field, a value of the wrong type, invalid or trailing text. */
    private static byte[] mutateJson(SplittableRandom rnd, byte[] json) {
        String s = new String(json, StandardCharsets.UTF_8);
        switch (rnd.nextInt(20)) {
            case 0 -> s = "{\"unknown\": [1, 2], " + s.substring(1);
            case 1 -> s = s.replaceFirst("\"d\": *\\[", "\"d\": [\"seven\", ");
            case 2 -> s = s.substring(0, Math.max(1, s.length() - 2));
            case 3 -> s = s + " 1";
            case 4 -> s = s.replaceFirst("\"v\": *\\[", "\"v\": [1, ");
            default -> {}
        }
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Now and then a truncated record or one with bytes left over. */
    private static byte[] mutateAvro(SplittableRandom rnd, byte[] avro) {
        return switch (rnd.nextInt(20)) {
            case 0 -> java.util.Arrays.copyOf(avro, Math.max(0, avro.length - 1));
            case 1 -> java.util.Arrays.copyOf(avro, avro.length + 1);
            default -> avro;
        };
    }
}
