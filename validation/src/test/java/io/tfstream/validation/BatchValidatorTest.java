package io.tfstream.validation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.tfstream.parse.RecordBatch;
import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.parse.example.ParsedBatch;
import io.tfstream.parse.example.RawColumns;
import io.tfstream.spec.schema.FeatureSpecFromSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.tensorflow.example.BytesList;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.example.FloatList;
import org.tensorflow.example.Int64List;

/**
 * Differential: validating a parsed batch from the parser's columns ({@link BatchValidator}) gives
 * every row exactly the findings {@link RecordValidator} gives its record, and every window the
 * state {@link WindowAccumulator#add} builds record by record, byte for byte — on random batches
 * over several schemas, with values in and out of domains and counts, NaN and infinities, absent
 * and kind-less features, repeated keys, unknown keys, rows without a window and rows the parser
 * rejects.
 */
class BatchValidatorTest {
    private static final String[] SCHEMAS = {
        // domains, counts, presence, drift, unique values, deprecated (RandomExamples.SCHEMA's
        // features but "emb": a shape there needs presence for a parse spec, see the next schema)
        RandomExamples.SCHEMA.replace(
                        "feature { name: \"emb\" type: FLOAT shape { dim { size: 2 } } }",
                        "feature { name: \"emb\" type: FLOAT value_count { min: 2 max: 2 } }")
                + "feature { name: \"ratio\" type: FLOAT bool_domain { } }\n"
                + "feature { name: \"n\" type: INT int_domain { min: -5 }"
                + " drift_comparator { jensen_shannon_divergence { threshold: 0.1 } } }\n"
                + "feature { name: \"cat\" type: INT int_domain { max: 9 is_categorical: true }"
                + " drift_comparator { infinity_norm { threshold: 0.1 } } }\n",
        // fixed shapes (dense with and without defaults), environments, required presence
        "default_environment: \"TRAINING\" default_environment: \"SERVING\"\n"
                + "feature { name: \"x\" type: FLOAT shape { dim { size: 2 } }"
                + " presence { min_fraction: 1 } float_domain { min: -1 max: 1 } }\n"
                + "feature { name: \"label\" type: INT not_in_environment: \"SERVING\""
                + " presence { min_fraction: 1 } int_domain { min: 0 max: 1 } }\n"
                + "feature { name: \"s\" type: BYTES value_count { min: 1 max: 3 }"
                + " string_domain { value: \"p\" value: \"q\" } }\n"
                + "feature { name: \"w\" type: FLOAT value_counts { value_count { max: 4 } } }\n",
        // sparse and weighted features
        "feature { name: \"idx\" type: INT int_domain { min: 0 max: 9 } }\n"
                + "feature { name: \"val\" type: FLOAT }\n"
                + "feature { name: \"wv\" type: BYTES }\n"
                + "feature { name: \"wt\" type: FLOAT float_domain { min: 0 } }\n"
                + "sparse_feature { name: \"sp\" index_feature { name: \"idx\" }"
                + " value_feature { name: \"val\" } }\n"
                + "weighted_feature { name: \"wf\" feature { step: \"wv\" }"
                + " weight_feature { step: \"wt\" } }\n"
    };

    @Test
    void columnsGiveTheFindingsAndWindowsOfTheRecordPath() {
        int rowsChecked = 0;
        int flaggedRows = 0;
        long fromColumns = 0;
        long fromBytes = 0;
        for (int s = 0; s < SCHEMAS.length; s++) {
            for (String env : s == 1 ? new String[] {"SERVING", "TRAINING"} : new String[] {null}) {
                ValidationSchema schema =
                        Fixtures.compiled(
                                SCHEMAS[s], ValidationOptions.defaults().withEnvironment(env));
                ExampleBatchParser parser =
                        ExampleBatchParser.create(
                                FeatureSpecFromSchema.derive(schema.schema()).exampleSpecs());
                parser.trackRows();
                BatchValidator batch = new BatchValidator(schema, false);
                for (long seed = 0; seed < 60; seed++) {
                    int[] counts = compare(schema, parser, batch, seed * 31 + s);
                    rowsChecked += counts[0];
                    flaggedRows += counts[1];
                }
                fromColumns += batch.rowsFromColumns();
                fromBytes += batch.rowsFromBytes();
            }
        }
        System.out.println(
                "rows "
                        + rowsChecked
                        + ", with findings "
                        + flaggedRows
                        + ", from columns "
                        + fromColumns
                        + ", read again "
                        + fromBytes);
        assertTrue(rowsChecked > 5_000, "rows " + rowsChecked);
        // Most rows are decided from the columns alone.
        assertTrue(fromColumns > rowsChecked / 2, "from columns " + fromColumns);
        assertTrue(flaggedRows > 500, "rows with findings " + flaggedRows);
    }

    /** Returns {accepted rows, rows with findings}. */
    private static int[] compare(
            ValidationSchema schema, ExampleBatchParser parser, BatchValidator batch, long seed) {
        Random r = new Random(seed);
        int n = 1 + r.nextInt(120);
        // Half the batches are mostly clean (the common case), half mostly dirty.
        double dirt = seed % 2 == 0 ? 0.01 : 0.3;
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            records.add(record(schema, r, dirt));
        }
        RecordBatch rb = new RecordBatch(n, 1 << 16);
        for (byte[] b : records) {
            rb.add(b, 0, b.length);
        }
        ParsedBatch parsed = parser.parseLenient(rb, e -> {});
        RawColumns columns = parser.rawColumns();
        int rows = parsed.rows();
        // Windows: runs of random length, some rows in none.
        long[] windowOfRow = new long[rows];
        long w = 0;
        for (int row = 0; row < rows; row++) {
            if (r.nextInt(8) == 0) {
                w++;
            }
            windowOfRow[row] = r.nextInt(15) == 0 ? -1 : w % 3;
        }
        // The record path.
        RecordValidator validator = new RecordValidator(schema);
        RecordResult result = new RecordResult();
        Map<Long, WindowAccumulator> expected = new HashMap<>();
        Map<Integer, String> expectedFindings = new HashMap<>();
        for (int row = 0; row < rows; row++) {
            byte[] b = records.get(parsed.recordIndex(row));
            validator.validateExample(b, 0, b.length, result);
            if (result.count() > 0) {
                expectedFindings.put(row, result.findings(schema).toString());
            }
            if (windowOfRow[row] >= 0) {
                expected.computeIfAbsent(windowOfRow[row], k -> new WindowAccumulator(schema))
                        .add(validator, result, ref(row));
            }
        }
        // The batch path.
        Map<Long, WindowAccumulator> actual = new HashMap<>();
        Map<Integer, String> actualFindings = new HashMap<>();
        Map<WindowAccumulator, Boolean> seen = new IdentityHashMap<>();
        batch.validate(
                columns,
                rb,
                parsed::recordIndex,
                rows,
                new BatchValidator.Rows() {
                    @Override
                    public WindowAccumulator window(int row) {
                        if (windowOfRow[row] < 0) {
                            return null;
                        }
                        WindowAccumulator a =
                                actual.computeIfAbsent(
                                        windowOfRow[row], k -> new WindowAccumulator(schema));
                        seen.put(a, true);
                        return a;
                    }

                    @Override
                    public void ref(int row, RecordRef ref) {
                        RecordRef want = BatchValidatorTest.ref(row);
                        ref.set(want.source, want.partition, want.offset, want.eventTime);
                    }

                    @Override
                    public void anomalous(int row, RecordResult res) {
                        actualFindings.put(row, res.findings(schema).toString());
                    }
                });
        assertEquals(expectedFindings, actualFindings, "seed " + seed);
        assertEquals(expected.keySet(), actual.keySet(), "seed " + seed);
        WindowAccumulatorSerializer ser = new WindowAccumulatorSerializer(schema);
        for (Long k : expected.keySet()) {
            assertArrayEquals(
                    ser.serialize(expected.get(k)),
                    ser.serialize(actual.get(k)),
                    "seed " + seed + " window " + k);
        }
        return new int[] {rows, expectedFindings.size()};
    }

    private static RecordRef ref(int row) {
        return new RecordRef().set("t", row % 3, 1000 + row, 77 * row);
    }

    /** A record over the schema's features (and sometimes others), mostly of the right kinds. */
    private static byte[] record(ValidationSchema schema, Random r, double dirt) {
        Features.Builder f = Features.newBuilder();
        for (FeatureRule rule : schema.rules()) {
            if (r.nextDouble() < dirt / 2 || (rule.skipped && r.nextDouble() > dirt)) {
                continue;
            }
            f.putFeature(rule.name(), r.nextDouble() < dirt ? feature(rule, r) : clean(rule, r));
        }
        if (r.nextDouble() < dirt / 3) {
            f.putFeature(
                    "unknown" + r.nextInt(3),
                    Feature.newBuilder().setInt64List(Int64List.newBuilder().addValue(1)).build());
        }
        byte[] b = Example.newBuilder().setFeatures(f).build().toByteArray();
        if (r.nextDouble() < dirt / 8) {
            // Concatenated Examples merge: repeated keys, the last one wins.
            Features.Builder g = Features.newBuilder();
            FeatureRule rule = schema.rules()[r.nextInt(schema.rules().length)];
            g.putFeature(
                    rule.name(), r.nextBoolean() ? Feature.getDefaultInstance() : feature(rule, r));
            byte[] more = Example.newBuilder().setFeatures(g).build().toByteArray();
            byte[] both = new byte[b.length + more.length];
            System.arraycopy(b, 0, both, 0, b.length);
            System.arraycopy(more, 0, both, b.length, more.length);
            b = both;
        }
        return b;
    }

    /** A feature no check objects to. */
    private static Feature clean(FeatureRule rule, Random r) {
        var p = rule.proto;
        int n = 1 + r.nextInt(2);
        if (p.hasShape()) {
            n = (int) rule.shapeProduct;
        } else if (p.hasValueCount() && p.getValueCount().getMin() > 1) {
            n = (int) p.getValueCount().getMin();
        }
        switch (rule.type.name()) {
            case "INT":
                Int64List.Builder ints = Int64List.newBuilder();
                for (int k = 0; k < n; k++) {
                    ints.addValue(r.nextInt(2));
                }
                return Feature.newBuilder().setInt64List(ints).build();
            case "FLOAT":
                FloatList.Builder fs = FloatList.newBuilder();
                for (int k = 0; k < n; k++) {
                    fs.addValue(
                            rule.domainKind == FeatureRule.DomainKind.BOOL
                                    ? r.nextInt(2)
                                    : r.nextFloat());
                }
                return Feature.newBuilder().setFloatList(fs).build();
            default:
                BytesList.Builder bs = BytesList.newBuilder();
                for (int k = 0; k < n; k++) {
                    String v =
                            rule.stringDomain == null
                                    ? "v" + r.nextInt(50)
                                    : rule.name().equals("s")
                                            ? (r.nextBoolean() ? "p" : "q")
                                            : rule.name().equals("tag")
                                                    ? (r.nextBoolean() ? "a" : "b")
                                                    : "red";
                    bs.addValue(ByteString.copyFromUtf8(v));
                }
                return Feature.newBuilder().setBytesList(bs).build();
        }
    }

    private static Feature feature(FeatureRule rule, Random r) {
        int roll = r.nextInt(40);
        if (roll == 0) {
            return Feature.getDefaultInstance(); // no kind
        }
        int n = roll == 1 ? 0 : r.nextInt(20) == 0 ? 3 + r.nextInt(3) : 1 + r.nextInt(2);
        String type = rule.type.name();
        if (roll == 2) {
            type = type.equals("INT") ? "BYTES" : "INT"; // the parser rejects the record
        }
        switch (type) {
            case "INT":
                Int64List.Builder ints = Int64List.newBuilder();
                for (int k = 0; k < n; k++) {
                    int c = r.nextInt(10);
                    ints.addValue(
                            c == 0
                                    ? -6 - r.nextInt(100)
                                    : c == 1 ? 120 + r.nextInt(5) : r.nextInt(c < 5 ? 2 : 10));
                }
                return Feature.newBuilder().setInt64List(ints).build();
            case "FLOAT":
                FloatList.Builder fs = FloatList.newBuilder();
                for (int k = 0; k < n; k++) {
                    int c = r.nextInt(30);
                    fs.addValue(
                            c == 0
                                    ? Float.NaN
                                    : c == 1
                                            ? Float.POSITIVE_INFINITY
                                            : c == 2
                                                    ? Float.NEGATIVE_INFINITY
                                                    : c < 8
                                                            ? r.nextInt(2)
                                                            : c < 10
                                                                    ? 0.5f
                                                                    : r.nextFloat() * 1.2f - 0.1f);
                }
                return Feature.newBuilder().setFloatList(fs).build();
            default:
                String[] words = {"red", "green", "blue", "a", "b", "p", "q", "purple", "zz"};
                BytesList.Builder bs = BytesList.newBuilder();
                for (int k = 0; k < n; k++) {
                    bs.addValue(
                            r.nextInt(40) == 0
                                    ? ByteString.copyFrom(new byte[] {(byte) 0xff, 'x'})
                                    : ByteString.copyFromUtf8(words[r.nextInt(words.length)]));
                }
                return Feature.newBuilder().setBytesList(bs).build();
        }
    }
}
