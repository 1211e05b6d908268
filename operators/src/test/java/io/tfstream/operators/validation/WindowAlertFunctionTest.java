package io.tfstream.operators.validation;

import static io.tfstream.operators.validation.ValidationFixtures.WINDOW;
import static io.tfstream.operators.validation.ValidationFixtures.field;
import static io.tfstream.operators.validation.ValidationFixtures.settings;
import static io.tfstream.operators.validation.ValidationFixtures.summary;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.model.ValidationOutput;
import io.tfstream.validation.RecordRef;
import io.tfstream.validation.RecordResult;
import io.tfstream.validation.RecordValidator;
import io.tfstream.validation.ValidationSchema;
import io.tfstream.validation.WindowAccumulator;
import io.tfstream.validation.WindowAccumulatorSerializer;
import io.tfstream.validation.WindowSplits;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.Test;
import org.tensorflow.metadata.v0.Anomalies;

/**
 * {@link WindowAlertFunction} in Flink's keyed operator test harness: partials of several subtasks
 * merged, one alert per path × type when the watermark passes the window's end, an empty window
 * firing the no-data alert, keyed state through a snapshot and restore, drift only between windows
 * of different distributions, and each split reporting only its own paths.
 */
@SuppressWarnings("try") // the harness's close() may throw InterruptedException
class WindowAlertFunctionTest {
    private final ValidationSchema schema = settings(1, List.of()).buildSchema();
    private final WindowAccumulatorSerializer serializer = new WindowAccumulatorSerializer(schema);

    private static KeyedOneInputStreamOperatorTestHarness<Integer, WindowPartial, ValidationOutput>
            harness(ValidationSettings s, OperatorSubtaskState restored) throws Exception {
        var h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new WindowAlertOperator(new WindowAlertFunction(s, true)),
                        new SplitKey(s.splits(), 128),
                        Types.INT);
        if (restored != null) {
            h.initializeState(restored);
        }
        h.open();
        return h;
    }

    /** A checkpoint as a task takes it: the operator's pre-barrier hook, then the snapshot. */
    private static OperatorSubtaskState checkpoint(
            KeyedOneInputStreamOperatorTestHarness<Integer, WindowPartial, ValidationOutput> h,
            long id)
            throws Exception {
        h.prepareSnapshotPreBarrier(id);
        return h.snapshot(id, id);
    }

    /**
     * A partial of window {@code start} fed records {@code (age, country)}, restricted to split.
     */
    private WindowPartial partial(long start, int split, int splits, Object... ageCountry) {
        WindowAccumulator a = new WindowAccumulator(schema);
        RecordValidator v = new RecordValidator(schema);
        RecordResult r = new RecordResult();
        RecordRef ref = new RecordRef();
        for (int i = 0; i < ageCountry.length; i += 2) {
            byte[] b =
                    ValidationFixtures.example(
                            ((Number) ageCountry[i]).longValue(), (String) ageCountry[i + 1]);
            v.validateExample(b, 0, b.length, r);
            a.add(v, r, ref.set("in", 0, i, start + i));
        }
        WindowSplits.restrict(a, split, splits);
        return new WindowPartial(
                split, start, start + WINDOW, 0, serializer.getVersion(), serializer.serialize(a));
    }

    private static List<String> alerts(
            KeyedOneInputStreamOperatorTestHarness<Integer, WindowPartial, ValidationOutput> h) {
        List<String> out = new ArrayList<>();
        for (ValidationOutput o : h.extractOutputValues()) {
            String json = new String(o.value(), StandardCharsets.UTF_8);
            assertEquals(o.key(), field(json, "alert_id"));
            out.add(json);
        }
        return out;
    }

    @Test
    void mergesPartialsAndAlertsOncePerPathAndTypeAtTheWindowEnd() throws Exception {
        try (var h = harness(settings(1, List.of()), null)) {
            h.processElement(new StreamRecord<>(partial(0, 0, 1, 30, "US", 500, "US"), WINDOW - 1));
            h.processElement(new StreamRecord<>(partial(0, 0, 1, 600, "DE", 31, "FR"), WINDOW - 1));
            h.processWatermark(new Watermark(WINDOW - 2));
            assertEquals(List.of(), alerts(h));
            h.processWatermark(new Watermark(WINDOW - 1));
            List<String> a = alerts(h);
            assertEquals(List.of("age/INT_TYPE_BIG_INT"), summary(a));
            assertEquals("4", field(a.get(0), "num_examples"));
            assertEquals("2", field(a.get(0), "num_affected_examples"));
            assertEquals("0", field(a.get(0), "window_start"));
            assertEquals(String.valueOf(WINDOW), field(a.get(0), "window_end"));
            var anomalies = h.getSideOutput(WindowAlertFunction.ANOMALIES);
            assertEquals(1, anomalies.size());
            Anomalies proto = Anomalies.parseFrom(anomalies.peek().getValue().value());
            assertTrue(proto.containsAnomalyInfo("age"), proto.toString());
        }
    }

    @Test
    void anEmptyWindowRaisesTheNoDataAlert() throws Exception {
        try (var h = harness(settings(1, List.of()), null)) {
            h.processElement(new StreamRecord<>(partial(0, 0, 1, 30, "US"), WINDOW - 1));
            h.processWatermark(new Watermark(WINDOW - 1));
            assertEquals(List.of(), alerts(h));
            h.processWatermark(new Watermark(2 * WINDOW - 1));
            List<String> a = alerts(h);
            assertEquals(List.of("/DATASET_LOW_NUM_EXAMPLES"), summary(a));
            assertEquals(String.valueOf(WINDOW), field(a.get(0), "window_start"));
            assertEquals("0", field(a.get(0), "num_examples"));
            assertEquals("DATASET", field(a.get(0), "scope"));
        }
    }

    /**
     * Seventy partials of one record each, merged into the live window with two checkpoints taken
     * on the way (each writes the live window to state before its barrier): restored from either
     * checkpoint and fed the partials after it, the window counts every record once, and its
     * statistics part equals {@code tfstream stats} over the records.
     */
    @Test
    void partialsMergedAcrossARestoreCountEveryRecordOnce() throws Exception {
        ValidationSettings s = settings(1, List.of()).withStatistics(0.01);
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < 70; i++) {
            records.add(ValidationFixtures.example(i % 90, i % 3 == 0 ? "US" : "DE"));
        }
        List<WindowPartial> partials = onePerRecord(s, records);
        OperatorSubtaskState first;
        OperatorSubtaskState second;
        try (var h = harness(s, null)) {
            for (WindowPartial p : partials.subList(0, 45)) {
                h.processElement(new StreamRecord<>(p, WINDOW - 1));
            }
            first = checkpoint(h, 1);
            for (WindowPartial p : partials.subList(45, 55)) {
                h.processElement(new StreamRecord<>(p, WINDOW - 1));
            }
            second = checkpoint(h, 2);
            for (WindowPartial p : partials.subList(55, 60)) {
                h.processElement(new StreamRecord<>(p, WINDOW - 1));
            }
        }
        assertWindowOf(s, records, first, partials.subList(45, 70));
        assertWindowOf(s, records, second, partials.subList(55, 70));
    }

    /**
     * Partials an earlier build left pending in state ({@code pending-partials}, folded every
     * {@value WindowAlertFunction#FOLD_EVERY}) are merged after a restore, once.
     */
    @Test
    void partialsPendingInAnEarlierBuildsStateAreMergedOnce() throws Exception {
        ValidationSettings s = settings(1, List.of()).withStatistics(0.01);
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            records.add(ValidationFixtures.example(20 + i, i % 2 == 0 ? "US" : "DE"));
        }
        List<WindowPartial> partials = onePerRecord(s, records);
        OperatorSubtaskState old;
        try (var h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new KeyedProcessOperator<>(new PendingWriter()),
                        new SplitKey(1, 128),
                        Types.INT)) {
            h.open();
            for (WindowPartial p : partials.subList(0, 5)) {
                h.processElement(new StreamRecord<>(p, WINDOW - 1));
            }
            old = checkpoint(h, 1);
        }
        assertWindowOf(s, records, old, partials.subList(5, 12));
    }

    /** Writes partials as earlier builds did between folds: listed, with their count. */
    private static final class PendingWriter
            extends org.apache.flink.streaming.api.functions.KeyedProcessFunction<
                    Integer, WindowPartial, ValidationOutput> {
        private static final long serialVersionUID = 1L;
        private transient org.apache.flink.api.common.state.ListState<WindowPartial> pending;
        private transient org.apache.flink.api.common.state.ValueState<Integer> count;

        @Override
        public void open(org.apache.flink.api.common.functions.OpenContext ctx) {
            pending =
                    getRuntimeContext()
                            .getListState(
                                    new org.apache.flink.api.common.state.ListStateDescriptor<>(
                                            "pending-partials",
                                            WindowPartialSerializer.typeInfo()));
            count =
                    getRuntimeContext()
                            .getState(
                                    new org.apache.flink.api.common.state.ValueStateDescriptor<>(
                                            "pending-count", Types.INT));
        }

        @Override
        public void processElement(WindowPartial p, Context ctx, Collector<ValidationOutput> out)
                throws Exception {
            pending.add(p);
            count.update(count.value() == null ? 1 : count.value() + 1);
            ctx.timerService().registerEventTimeTimer(p.windowEnd() - 1);
        }
    }

    /** One partial per record, each of its own batch. */
    private static List<WindowPartial> onePerRecord(ValidationSettings s, List<byte[]> records) {
        ValidationSchema stats = s.buildSchema();
        WindowAccumulatorSerializer ser = new WindowAccumulatorSerializer(stats);
        RecordValidator v = new RecordValidator(stats);
        RecordResult r = new RecordResult();
        List<WindowPartial> partials = new ArrayList<>();
        for (byte[] b : records) {
            WindowAccumulator a = new WindowAccumulator(stats);
            v.validateExample(b, 0, b.length, r);
            a.add(v, r, null);
            partials.add(new WindowPartial(0, 0, WINDOW, 0, ser.getVersion(), ser.serialize(a)));
        }
        return partials;
    }

    /**
     * Restores {@code state}, feeds {@code rest} and fires the window: it counts every one of
     * {@code records} and its statistics equal {@code tfstream stats} over them.
     */
    private static void assertWindowOf(
            ValidationSettings s,
            List<byte[]> records,
            OperatorSubtaskState state,
            List<WindowPartial> rest)
            throws Exception {
        io.tfstream.stats.ExampleStatistics want =
                new io.tfstream.stats.ExampleStatistics(s.statisticsOptions());
        for (byte[] b : records) {
            want.add(org.tensorflow.example.Example.parseFrom(b));
        }
        try (var h = harness(s, state)) {
            for (WindowPartial p : rest) {
                h.processElement(new StreamRecord<>(p, WINDOW - 1));
            }
            h.processWatermark(new Watermark(WINDOW - 1));
            var parts = h.getSideOutput(WindowAlertFunction.STATISTICS_PARTS);
            assertEquals(1, parts.size());
            var got =
                    org.tensorflow.metadata.v0.DatasetFeatureStatistics.parseFrom(
                            parts.peek().getValue().value());
            assertEquals(records.size(), got.getNumExamples());
            io.tfstream.testing.StatisticsAssertions.assertSameStatistics(want.build(""), got);
        }
    }

    @Test
    void openWindowsAndThePreviousWindowSurviveASnapshotAndRestore() throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = harness(settings(1, List.of()), null)) {
            h.processElement(new StreamRecord<>(us(0), WINDOW - 1));
            h.processWatermark(new Watermark(WINDOW - 1));
            h.processElement(new StreamRecord<>(partial(WINDOW, 0, 1, 500, "DE"), 2 * WINDOW - 1));
            snapshot = checkpoint(h, 1);
        }
        try (var h = harness(settings(1, List.of()), snapshot)) {
            h.processElement(new StreamRecord<>(de(WINDOW), 2 * WINDOW - 1));
            h.processWatermark(new Watermark(2 * WINDOW - 1));
            List<String> s = summary(alerts(h));
            assertTrue(s.contains("age/INT_TYPE_BIG_INT"), s.toString());
            // Drift against the window fired before the snapshot: previous-window state restored.
            assertTrue(s.contains("country/COMPARATOR_L_INFTY_HIGH"), s.toString());
        }
    }

    @Test
    void driftOnlyBetweenWindowsOfDifferentDistributions() throws Exception {
        try (var h = harness(settings(1, List.of()), null)) {
            h.processElement(new StreamRecord<>(us(0), WINDOW - 1));
            h.processElement(new StreamRecord<>(us(WINDOW), 2 * WINDOW - 1));
            h.processElement(new StreamRecord<>(de(2 * WINDOW), 3 * WINDOW - 1));
            h.processWatermark(new Watermark(2 * WINDOW - 1));
            assertEquals(List.of(), alerts(h));
            h.processWatermark(new Watermark(3 * WINDOW - 1));
            List<String> a = alerts(h);
            assertEquals(List.of("country/COMPARATOR_L_INFTY_HIGH"), summary(a));
            assertEquals("DRIFT", field(a.get(0), "scope"));
            assertEquals(String.valueOf(WINDOW), field(a.get(0), "control_window_start"));
        }
    }

    @Test
    void eachSplitReportsOnlyItsOwnPaths() throws Exception {
        int splits = 2;
        int ageSplit = WindowSplits.splitOf(io.tfstream.validation.FeaturePath.of("age"), splits);
        try (var h = harness(settings(splits, List.of()), null)) {
            for (int s = 0; s < splits; s++) {
                h.processElement(new StreamRecord<>(partial(0, s, splits, 500, "US"), WINDOW - 1));
            }
            h.processWatermark(new Watermark(WINDOW - 1));
            List<String> a = alerts(h);
            assertEquals(List.of("age/INT_TYPE_BIG_INT"), summary(a));
            // The alert came from the key of the age path's split, which alone kept its stats.
            assertEquals(1, a.size());
            assertTrue(ageSplit == 0 || ageSplit == 1);
        }
    }

    @Test
    void schemaLintFindingsAreReportedOnceWithTheFirstWindow() throws Exception {
        ValidationSettings s =
                settings(
                        "feature { name: \"d\" type: FLOAT"
                                + " unique_constraints { min: 1 max: 2 } }\n",
                        1,
                        List.of());
        ValidationSchema lint = s.buildSchema();
        assertTrue(!lint.lintFindings().isEmpty(), "the schema has lint findings");
        WindowAccumulatorSerializer ser = new WindowAccumulatorSerializer(lint);
        byte[] empty = ser.serialize(new WindowAccumulator(lint));
        try (var h = harness(s, null)) {
            h.processElement(
                    new StreamRecord<>(
                            new WindowPartial(0, 0, WINDOW, 0, ser.getVersion(), empty),
                            WINDOW - 1));
            h.processWatermark(new Watermark(3 * WINDOW - 1));
            List<String> a = alerts(h);
            List<String> schemaAlerts =
                    a.stream().filter(j -> field(j, "scope").equals("SCHEMA")).toList();
            assertEquals(lint.lintFindings().size(), schemaAlerts.size(), a.toString());
            assertEquals("0", field(schemaAlerts.get(0), "window_start"));
            assertEquals("d", field(schemaAlerts.get(0), "feature_path"));
        }
    }

    /**
     * A window spanning a schema change reports per fingerprint: the records of each schema
     * evaluated under that schema with their own counts (age 500 is out of the first schema's
     * domain, not of the second's), no drift across the change, and the second schema's statistics
     * kept through a snapshot (its bytes travelled only with its first partial).
     */
    @Test
    void aWindowSpanningASchemaChangeReportsPerFingerprint() throws Exception {
        ValidationSettings s = settings(1, List.of());
        ValidationSettings next =
                s.withSchema(
                        ValidationFixtures.SCHEMA
                                .replace("max: 120", "max: 1000")
                                .getBytes(StandardCharsets.UTF_8),
                        "schema.pbtxt");
        ValidationSchema second = next.buildSchema();
        WindowAccumulatorSerializer ser2 = new WindowAccumulatorSerializer(second);
        String fp1 = schema.fingerprint();
        String fp2 = second.fingerprint();
        assertTrue(!fp1.equals(fp2));
        OperatorSubtaskState snapshot;
        try (var h = harness(s, null)) {
            h.processElement(new StreamRecord<>(us(0), WINDOW - 1));
            h.processWatermark(new Watermark(WINDOW - 1));
            h.extractOutputValues().clear();
            h.getOutput().clear();
            h.processElement(
                    new StreamRecord<>(partial(WINDOW, 0, 1, 500, "DE", 30, "DE"), 2 * WINDOW - 1));
            h.processElement(
                    new StreamRecord<>(
                            partialOf(second, ser2, WINDOW, true, 500, "US", 40, "US", 5000, "US"),
                            2 * WINDOW - 1));
            snapshot = checkpoint(h, 1);
        }
        try (var h = harness(s, snapshot)) {
            h.processElement(
                    new StreamRecord<>(
                            partialOf(second, ser2, WINDOW, false, 600, "US"), 2 * WINDOW - 1));
            h.processWatermark(new Watermark(2 * WINDOW - 1));
            List<String> a = alerts(h);
            List<String> first =
                    a.stream().filter(j -> field(j, "schema_fingerprint").equals(fp1)).toList();
            List<String> other =
                    a.stream().filter(j -> field(j, "schema_fingerprint").equals(fp2)).toList();
            assertEquals(a.size(), first.size() + other.size(), a.toString());
            // The first schema: 2 records, 500 out of its domain.
            assertEquals(List.of("age/INT_TYPE_BIG_INT"), summary(first), a.toString());
            for (String j : first) {
                assertEquals("2", field(j, "num_examples"));
            }
            // The second: 4 records (3 before the snapshot, 1 after), only 5000 out of its
            // domain (500 and 600 are in it), no drift (no earlier window of that schema).
            assertEquals(List.of("age/INT_TYPE_BIG_INT"), summary(other), a.toString());
            assertEquals("4", field(other.get(0), "num_examples"));
            assertEquals("1", field(other.get(0), "num_affected_examples"));
            assertEquals("2", field(first.get(0), "num_examples"));
            assertEquals("1", field(first.get(0), "num_affected_examples"));
            var anomalies = h.getSideOutput(WindowAlertFunction.ANOMALIES);
            assertEquals(2, anomalies.size());
            List<String> keys = new ArrayList<>();
            for (var r : anomalies) {
                keys.add(r.getValue().key());
            }
            assertEquals(
                    java.util.Set.of(WINDOW + "/0", WINDOW + "/0/" + fp2),
                    java.util.Set.copyOf(keys));
            for (var r : anomalies) {
                Anomalies proto = Anomalies.parseFrom(r.getValue().value());
                boolean ofSecond = r.getValue().key().endsWith(fp2);
                // Its baseline is the schema of its fingerprint.
                String max = ofSecond ? "1000" : "120";
                assertTrue(
                        proto.getBaseline().getFeature(0).getIntDomain().getMax()
                                == Long.parseLong(max),
                        proto.toString());
            }
        }
    }

    /** A partial of window {@code start} under {@code s}, with its schema bytes when asked. */
    private static WindowPartial partialOf(
            ValidationSchema s,
            WindowAccumulatorSerializer ser,
            long start,
            boolean withSchema,
            Object... ageCountry) {
        WindowAccumulator a = new WindowAccumulator(s);
        RecordValidator v = new RecordValidator(s);
        RecordResult r = new RecordResult();
        RecordRef ref = new RecordRef();
        for (int i = 0; i < ageCountry.length; i += 2) {
            byte[] b =
                    ValidationFixtures.example(
                            ((Number) ageCountry[i]).longValue(), (String) ageCountry[i + 1]);
            v.validateExample(b, 0, b.length, r);
            a.add(v, r, ref.set("in", 0, i, start + i));
        }
        byte[] schemaBytes =
                withSchema
                        ? ValidationFixtures.SCHEMA
                                .replace("max: 120", "max: 1000")
                                .getBytes(StandardCharsets.UTF_8)
                        : new byte[0];
        return new WindowPartial(
                0,
                start,
                start + WINDOW,
                0,
                ser.getVersion(),
                ser.serialize(a),
                s.fingerprint(),
                schemaBytes);
    }

    /** Ten examples of mostly US. */
    private WindowPartial us(long start) {
        return partial(
                start, 0, 1, 1, "US", 2, "US", 3, "US", 4, "US", 5, "US", 6, "US", 7, "US", 8, "US",
                9, "DE", 10, "FR");
    }

    /** Ten examples of mostly DE. */
    private WindowPartial de(long start) {
        return partial(
                start, 0, 1, 1, "DE", 2, "DE", 3, "DE", 4, "DE", 5, "DE", 6, "DE", 7, "DE", 8, "DE",
                9, "US", 10, "FR");
    }
}
