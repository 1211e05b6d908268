package io.tfstream.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.parse.RecordBatch;
import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.parse.example.ParsedBatch;
import io.tfstream.spec.schema.FeatureSpecFromSchema;
import io.tfstream.stats.ExampleStatistics;
import io.tfstream.stats.StatsOptions;
import io.tfstream.stats.StatsRole;
import io.tfstream.testkit.ProtoFeatures;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.FeatureList;
import org.tensorflow.example.FeatureLists;
import org.tensorflow.example.Features;
import org.tensorflow.example.SequenceExample;
import org.tensorflow.metadata.v0.DatasetFeatureStatistics;

/**
 * A window's TFDV statistics — kept by the validation's window state from the parser's columns or
 * from the records, split by feature path and assembled — equal {@code tfstream stats} over the
 * same records, for Examples and SequenceExamples.
 */
class WindowStatisticsTest {
    private static final StatsOptions STATS = StatsOptions.DEFAULTS.withSketchTopValues(true);

    private static final String SCHEMA =
            "feature { name: \"age\" type: INT }\n"
                    + "feature { name: \"emb\" type: FLOAT shape { dim { size: 2 } }"
                    + " presence { min_fraction: 1 } }\n"
                    + "feature { name: \"price\" type: FLOAT }\n"
                    + "feature { name: \"color\" type: BYTES"
                    + " string_domain { value: \"red\" value: \"green\" } }\n"
                    + "feature { name: \"cat\" type: INT int_domain { min: 0 max: 9"
                    + " is_categorical: true } }\n"
                    + "feature { name: \"tags\" type: BYTES }\n";

    private static Example example(Random r) {
        Features.Builder f = Features.newBuilder();
        if (r.nextInt(5) > 0) {
            long[] v = new long[r.nextInt(4)];
            for (int i = 0; i < v.length; i++) {
                v[i] = r.nextInt(200) - 50;
            }
            f.putFeature("age", ProtoFeatures.int64s(v));
        }
        f.putFeature(
                "emb",
                ProtoFeatures.floats(
                        r.nextFloat(), r.nextInt(20) == 0 ? Float.NaN : r.nextFloat()));
        if (r.nextInt(4) > 0) {
            int c = r.nextInt(30);
            f.putFeature(
                    "price",
                    ProtoFeatures.floats(
                            c == 0 ? Float.POSITIVE_INFINITY : c == 1 ? Float.NaN : c * 1.5f));
        }
        if (r.nextInt(3) > 0) {
            int c = r.nextInt(12);
            f.putFeature(
                    "color",
                    c == 0
                            ? ProtoFeatures.bytes(new byte[] {(byte) 0xff})
                            : ProtoFeatures.strings(c < 6 ? "red" : c < 10 ? "green" : "blue"));
        }
        if (r.nextInt(3) > 0) {
            f.putFeature("cat", ProtoFeatures.int64s(r.nextInt(10)));
        }
        if (r.nextInt(2) > 0) {
            String[] tags = new String[r.nextInt(3)];
            for (int i = 0; i < tags.length; i++) {
                tags[i] = "t" + r.nextInt(500);
            }
            f.putFeature("tags", ProtoFeatures.strings(tags));
        }
        return Example.newBuilder().setFeatures(f).build();
    }

    /**
     * Feeds {@code records} through the parser's columns in batches of 256 into {@code window},
     * record {@code i} of data split {@code split[i]}; returns the rows read from columns.
     */
    private static long fromColumns(
            ValidationSchema schema, List<byte[]> records, int[] split, WindowAccumulator window) {
        ExampleBatchParser parser =
                ExampleBatchParser.create(
                        FeatureSpecFromSchema.derive(schema.schema()).exampleSpecs());
        parser.trackRows();
        BatchValidator batch = new BatchValidator(schema, false);
        for (int from = 0; from < records.size(); from += 256) {
            int first = from;
            RecordBatch rb = new RecordBatch(256, 1 << 16);
            for (byte[] b : records.subList(from, Math.min(records.size(), from + 256))) {
                rb.add(b, 0, b.length);
            }
            ParsedBatch parsed = parser.parseLenient(rb, e -> {});
            batch.validate(
                    parser.rawColumns(),
                    rb,
                    parsed::recordIndex,
                    parsed.rows(),
                    new BatchValidator.Rows() {
                        @Override
                        public WindowAccumulator window(int row) {
                            return window;
                        }

                        @Override
                        public void ref(int row, RecordRef ref) {}

                        @Override
                        public void anomalous(int row, RecordResult res) {}

                        @Override
                        public int dataSplit(int row) {
                            return split[first + parsed.recordIndex(row)];
                        }
                    });
        }
        return batch.rowsFromColumns();
    }

    /** Split {@code splits} ways, one part per split, assembled. */
    private static DatasetFeatureStatistics assembled(WindowAccumulator whole, int splits) {
        WindowAccumulatorSerializer ser = new WindowAccumulatorSerializer(whole.schema());
        List<DatasetFeatureStatistics> parts = new ArrayList<>();
        for (int s = 0; s < splits; s++) {
            try {
                WindowAccumulator copy =
                        ser.deserialize(WindowAccumulatorSerializer.VERSION, ser.serialize(whole));
                parts.add(
                        WindowStatistics.part(
                                WindowSplits.restrict(copy, s, splits), s, splits, ""));
            } catch (java.io.IOException e) {
                throw new AssertionError(e);
            }
        }
        return WindowStatistics.assemble(parts, "", STATS);
    }

    @Test
    void examplesFromColumnsAndRecordsEqualTheCommand() {
        ValidationSchema schema =
                Fixtures.compiled(SCHEMA, ValidationOptions.defaults().withStatistics(STATS));
        Random r = new Random(9);
        List<byte[]> records = new ArrayList<>();
        ExampleStatistics command =
                new ExampleStatistics(STATS, null, StatsRole.of(schema.schema()));
        for (int i = 0; i < 3000; i++) {
            Example e = example(r);
            command.add(e);
            records.add(e.toByteArray());
        }
        // the record path
        RecordValidator validator = new RecordValidator(schema);
        RecordResult result = new RecordResult();
        WindowAccumulator fromRecords = new WindowAccumulator(schema);
        for (byte[] b : records) {
            validator.validateExample(b, 0, b.length, result);
            fromRecords.add(validator, result, null);
        }
        // the parser's columns, batches of 256 in one window
        WindowAccumulator fromColumns = new WindowAccumulator(schema);
        long fromColumnRows = fromColumns(schema, records, new int[records.size()], fromColumns);
        assertTrue(fromColumnRows > 2000, "from columns " + fromColumnRows);
        DatasetFeatureStatistics want = command.build("");
        assertEquals(6, want.getFeaturesCount());
        // the schema's categorical int: string statistics of its values as text, as TFDV's
        var cat =
                want.getFeaturesList().stream()
                        .filter(f -> f.getPath().getStep(0).equals("cat"))
                        .findFirst()
                        .orElseThrow();
        assertEquals(org.tensorflow.metadata.v0.FeatureNameStatistics.Type.INT, cat.getType());
        assertTrue(cat.hasStringStats() && !cat.hasNumStats());
        assertEquals(want, assembled(fromRecords, 1));
        assertEquals(want, assembled(fromRecords, 3));
        assertEquals(want, assembled(fromColumns, 4));
    }

    /**
     * With statistics per data split, each split's dataset (named after it) equals {@code tfstream
     * stats} over the records of that split, from columns and from records, through state bytes and
     * a merge of two halves; a record in no split is in none of them.
     */
    @Test
    void eachDataSplitsStatisticsAreThoseOfItsRecords() throws Exception {
        ValidationOptions o =
                ValidationOptions.defaults()
                        .withStatistics(STATS)
                        .withStatisticsSplits(List.of("train", "eval"));
        ValidationSchema schema = Fixtures.compiled(SCHEMA, o);
        var roles = StatsRole.of(schema.schema());
        ExampleStatistics[] want = {
            new ExampleStatistics(STATS, null, roles), new ExampleStatistics(STATS, null, roles)
        };
        Random r = new Random(21);
        List<byte[]> records = new ArrayList<>();
        int[] split = new int[2000];
        for (int i = 0; i < split.length; i++) {
            Example e = example(r);
            records.add(e.toByteArray());
            split[i] = i % 7 == 6 ? -1 : r.nextInt(3) == 0 ? 1 : 0; // some rows in no split
            if (split[i] >= 0) {
                want[split[i]].add(e);
            }
        }
        // records: two halves, each through its state bytes, merged
        WindowAccumulatorSerializer ser = new WindowAccumulatorSerializer(schema);
        RecordValidator validator = new RecordValidator(schema);
        RecordResult result = new RecordResult();
        WindowAccumulator[] halves = {new WindowAccumulator(schema), new WindowAccumulator(schema)};
        for (int i = 0; i < records.size(); i++) {
            byte[] b = records.get(i);
            validator.validateExample(b, 0, b.length, result);
            halves[i < 1000 ? 0 : 1].add(validator, result, null, split[i]);
        }
        WindowAccumulator fromRecords =
                ser.deserialize(WindowAccumulatorSerializer.VERSION, ser.serialize(halves[0]));
        fromRecords.merge(
                ser.deserialize(WindowAccumulatorSerializer.VERSION, ser.serialize(halves[1])));
        // columns, batches of 256
        WindowAccumulator fromColumns = new WindowAccumulator(schema);
        long fromColumnRows = fromColumns(schema, records, split, fromColumns);
        assertTrue(fromColumnRows > 1500, "from columns " + fromColumnRows);
        for (WindowAccumulator a : List.of(fromRecords, fromColumns)) {
            for (int splits : new int[] {1, 3}) {
                List<DatasetFeatureStatistics> parts = new ArrayList<>();
                for (int s = 0; s < splits; s++) {
                    WindowAccumulator copy =
                            ser.deserialize(
                                    WindowAccumulatorSerializer.VERSION,
                                    ser.serialize(a, s, splits));
                    parts.addAll(WindowStatistics.parts(copy, s, splits));
                }
                for (int d = 0; d < 2; d++) {
                    String name = d == 0 ? "train" : "eval";
                    List<DatasetFeatureStatistics> mine =
                            parts.stream().filter(p -> p.getName().equals(name)).toList();
                    assertEquals(splits, mine.size());
                    io.tfstream.testing.StatisticsAssertions.assertSameStatistics(
                            want[d].build(name), WindowStatistics.assemble(mine, name, STATS));
                }
            }
        }
        assertEquals(2000, fromColumns.numExamples());
        assertEquals(
                want[0].numExamples() + want[1].numExamples(),
                fromColumns.examplesOf(0) + fromColumns.examplesOf(1));
    }

    /**
     * Weighted statistics (TFDV's weight_feature): from columns and from records, per data split,
     * equal {@code tfstream stats --weight-feature} over each split's records; a record without a
     * weight counts in the unweighted statistics and weighs 0.
     */
    @Test
    void weightedStatisticsAreTfdvsWithTheWeightFeature() throws Exception {
        String schemaText = SCHEMA + "feature { name: \"w\" type: FLOAT }\n";
        ValidationOptions o =
                ValidationOptions.defaults()
                        .withStatistics(STATS)
                        .withStatisticsSplits(List.of("train", "eval"))
                        .withStatisticsWeightFeature("w");
        ValidationSchema schema = Fixtures.compiled(schemaText, o);
        var roles = StatsRole.of(schema.schema());
        ExampleStatistics[] want = {
            new ExampleStatistics(STATS, "w", roles), new ExampleStatistics(STATS, "w", roles)
        };
        Random r = new Random(33);
        List<byte[]> records = new ArrayList<>();
        int[] split = new int[1500];
        for (int i = 0; i < split.length; i++) {
            Example e = example(r);
            float w = r.nextInt(4) * 0.75f;
            e =
                    e.toBuilder()
                            .setFeatures(
                                    e.getFeatures().toBuilder()
                                            .putFeature("w", ProtoFeatures.floats(w)))
                            .build();
            records.add(e.toByteArray());
            split[i] = r.nextInt(3) == 0 ? 1 : 0;
            want[split[i]].add(e);
        }
        RecordValidator validator = new RecordValidator(schema);
        RecordResult result = new RecordResult();
        WindowAccumulator fromRecords = new WindowAccumulator(schema);
        for (int i = 0; i < records.size(); i++) {
            byte[] b = records.get(i);
            validator.validateExample(b, 0, b.length, result);
            fromRecords.add(validator, result, null, split[i]);
        }
        WindowAccumulator fromColumns = new WindowAccumulator(schema);
        long fromColumnRows = fromColumns(schema, records, split, fromColumns);
        assertTrue(fromColumnRows > 1000, "from columns " + fromColumnRows);
        WindowAccumulatorSerializer ser = new WindowAccumulatorSerializer(schema);
        for (WindowAccumulator a : List.of(fromRecords, fromColumns)) {
            WindowAccumulator copy =
                    ser.deserialize(WindowAccumulatorSerializer.VERSION, ser.serialize(a));
            List<DatasetFeatureStatistics> parts = WindowStatistics.parts(copy, 0, 1);
            for (int d = 0; d < 2; d++) {
                DatasetFeatureStatistics wanted = want[d].build(parts.get(d).getName());
                assertTrue(wanted.getWeightedNumExamples() > 0);
                io.tfstream.testing.StatisticsAssertions.assertSameStatistics(
                        wanted,
                        WindowStatistics.assemble(
                                List.of(parts.get(d)), parts.get(d).getName(), STATS));
            }
        }
        // a record without its weight: counted, weighing nothing
        byte[] unweighted = example(r).toByteArray();
        validator.validateExample(unweighted, 0, unweighted.length, result);
        double before = fromRecords.weightOf(0);
        long examples = fromRecords.examplesOf(0);
        fromRecords.add(validator, result, null, 0);
        assertEquals(before, fromRecords.weightOf(0));
        assertEquals(examples + 1, fromRecords.examplesOf(0));
        // a weight feature the schema lacks is refused
        assertEquals(
                "the statistics' weight feature 'nope' is no INT or FLOAT feature of the schema"
                        + " (TFDV's weight_feature holds one number per record)",
                org.junit.jupiter.api.Assertions.assertThrows(
                                IllegalArgumentException.class,
                                () ->
                                        Fixtures.compiled(
                                                schemaText, o.withStatisticsWeightFeature("nope")))
                        .getMessage());
    }

    @Test
    void sequenceExamplesEqualTheCommand() {
        sequenceExamples(false);
        sequenceExamples(true); // weighted by the context feature user (TFDV's weight_feature)
    }

    private void sequenceExamples(boolean weighted) {
        String schemaText =
                "feature { name: \"user\" type: INT }\n"
                        + "feature { name: \"##SEQUENCE##\" type: STRUCT struct_domain {\n"
                        + "  feature { name: \"clicks\" type: INT }\n"
                        + "  feature { name: \"words\" type: BYTES }\n"
                        + "} }\n";
        ValidationOptions o = ValidationOptions.defaults().withStatistics(STATS);
        ValidationSchema schema =
                Fixtures.compiled(schemaText, weighted ? o.withStatisticsWeightFeature("user") : o);
        Random r = new Random(4);
        ExampleStatistics command =
                new ExampleStatistics(
                        STATS, weighted ? "user" : null, StatsRole.of(schema.schema()));
        RecordValidator validator = new RecordValidator(schema);
        RecordResult result = new RecordResult();
        WindowAccumulator window = new WindowAccumulator(schema);
        for (int i = 0; i < 800; i++) {
            FeatureLists.Builder lists = FeatureLists.newBuilder();
            FeatureList.Builder clicks = FeatureList.newBuilder();
            for (int k = r.nextInt(4); k > 0; k--) {
                clicks.addFeature(
                        r.nextInt(6) == 0
                                ? Feature.getDefaultInstance()
                                : ProtoFeatures.int64s(r.nextInt(9), k));
            }
            lists.putFeatureList("clicks", clicks.build());
            if (r.nextBoolean()) {
                FeatureList.Builder words = FeatureList.newBuilder();
                for (int k = r.nextInt(3); k > 0; k--) {
                    words.addFeature(ProtoFeatures.strings("w" + r.nextInt(7)));
                }
                lists.putFeatureList("words", words.build());
            }
            SequenceExample s =
                    SequenceExample.newBuilder()
                            .setContext(
                                    Features.newBuilder()
                                            .putFeature("user", ProtoFeatures.int64s(i % 17)))
                            .setFeatureLists(lists)
                            .build();
            command.add(s);
            byte[] b = s.toByteArray();
            validator.validateSequenceExample(b, 0, b.length, result);
            window.add(validator, result, null);
        }
        DatasetFeatureStatistics want = command.build("");
        assertEquals(4, want.getFeaturesCount());
        assertEquals(weighted, want.getWeightedNumExamples() > 0);
        io.tfstream.testing.StatisticsAssertions.assertSameStatistics(want, assembled(window, 1));
        io.tfstream.testing.StatisticsAssertions.assertSameStatistics(want, assembled(window, 2));
    }
}
