package io.tfstream.validation;

import static io.tfstream.testkit.ProtoFeatures.floats;
import static io.tfstream.testkit.ProtoFeatures.int64s;
import static io.tfstream.testkit.ProtoFeatures.strings;
import static io.tfstream.validation.Fixtures.compiled;
import static io.tfstream.validation.Fixtures.example;
import static io.tfstream.validation.Fixtures.types;
import static io.tfstream.validation.Fixtures.validate;
import static io.tfstream.validation.Windows.findings;
import static io.tfstream.validation.Windows.window;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tensorflow.metadata.v0.AnomalyInfo.Type.*;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tensorflow.example.Example;
import org.tensorflow.metadata.v0.Anomalies;
import org.tensorflow.metadata.v0.AnomalyInfo;
import org.tensorflow.metadata.v0.DriftSkewInfo;

/** Golden cases G12–G15 (docs/validation.md#golden-cases): windows and drift between windows. */
class WindowGoldenTest {
    private static final String G12 =
            "feature { name: \"user_id\" type: BYTES presence { min_fraction: 0.9 min_count: 3 } }\n"
                    + "feature { name: \"x\" type: INT }\n";

    @Test
    void g12PresenceOverTheWindow() {
        ValidationSchema s = compiled(G12);
        List<Example> w =
                List.of(
                        example("x", int64s(1), "user_id", strings("u1")),
                        example("x", int64s(2)),
                        example("x", int64s(3), "user_id", strings("u3")),
                        example("x", int64s(4)));
        List<Finding> f = findings(window(s, w));
        assertEquals(
                List.of(FEATURE_TYPE_LOW_NUMBER_PRESENT, FEATURE_TYPE_LOW_FRACTION_PRESENT),
                types(f));
        Anomalies a =
                AnomaliesProtoBuilder.build(s, f, List.of(), SeverityPolicy.allErrors(), false);
        AnomalyInfo i = a.getAnomalyInfoOrThrow("user_id");
        assertEquals("Multiple errors", i.getShortDescription());
        assertEquals(
                "The feature was present in fewer examples than expected: minimum count = 3,"
                        + " actual = 2 The feature was present in fewer examples than expected:"
                        + " minimum fraction = 0.900000, actual = 0.500000",
                i.getDescription());
        assertEquals("Column dropped", i.getReason(0).getShortDescription());
        assertEquals(Anomalies.AnomalyNameFormat.SERIALIZED_PATH, a.getAnomalyNameFormat());
        // Per record (recommended): nothing; TFDV-faithful: the two records without user_id.
        assertEquals(List.of(), validate(s, w.get(1)));
        ValidationSchema tfdv =
                compiled(G12, ValidationOptions.defaults().withTfdvRecordPresence(true));
        assertEquals(List.of(SCHEMA_MISSING_COLUMN), types(validate(tfdv, w.get(1))));
        assertEquals(List.of(), validate(tfdv, w.get(0)));
    }

    @Test
    void g12NobodyHasTheFeature() {
        ValidationSchema s = compiled(G12);
        List<Finding> f =
                findings(window(s, List.of(example("x", int64s(1)), example("x", int64s(2)))));
        assertEquals(List.of(SCHEMA_MISSING_COLUMN), types(f));
        assertEquals("Column is completely missing", f.get(0).description());
    }

    private static final String G13 =
            "feature { name: \"color\" type: BYTES string_domain { value: \"red\" value: \"green\""
                    + " value: \"blue\" } distribution_constraints { min_domain_mass: 0.75 } }";

    @Test
    void g13MinDomainMass() {
        ValidationSchema s = compiled(G13);
        List<Finding> a =
                findings(
                        window(
                                s,
                                List.of(
                                        example("color", strings("red")),
                                        example("color", strings("green")),
                                        example("color", strings("pink")),
                                        example("color", strings("purple")))));
        assertEquals(List.of(ENUM_TYPE_UNEXPECTED_STRING_VALUES), types(a));
        assertEquals(
                "Examples contain values missing from the schema: pink (~25%), purple (~25%). ",
                a.get(0).description());
        List<Finding> b =
                findings(
                        window(
                                s,
                                List.of(
                                        example("color", strings("red")),
                                        example("color", strings("green")),
                                        example("color", strings("blue")),
                                        example("color", strings("purple")))));
        assertEquals(List.of(), b);
        // Per record the mass is a window property (golden case G13): nothing for "purple" alone.
        assertEquals(List.of(), validate(s, example("color", strings("purple"))));
    }

    @Test
    void g14DatasetExampleCounts() {
        ValidationSchema s1 =
                compiled(
                        "feature { name: \"x\" type: INT } dataset_constraints { min_examples_count: 5 }");
        List<Example> three =
                List.of(example("x", int64s(1)), example("x", int64s(2)), example("x", int64s(3)));
        List<Finding> f = findings(window(s1, three));
        assertEquals(List.of(DATASET_LOW_NUM_EXAMPLES), types(f));
        assertEquals(null, f.get(0).path());
        assertEquals("Low num examples in dataset.", f.get(0).shortDescription());
        assertEquals(
                "The dataset has 3 examples, which is fewer than expected.",
                f.get(0).description());
        Anomalies a =
                AnomaliesProtoBuilder.build(s1, f, List.of(), SeverityPolicy.allErrors(), false);
        assertEquals(0, a.getAnomalyInfoCount());
        assertEquals(AnomalyInfo.Severity.ERROR, a.getDatasetAnomalyInfo().getSeverity());
        assertEquals(List.of(), validate(s1, three.get(0)));
        List<Finding> empty = findings(window(s1, List.of()));
        assertEquals(
                "The dataset has 0 examples, which is fewer than expected.",
                empty.get(0).description());
        List<Example> six =
                List.of(
                        three.get(0),
                        three.get(1),
                        three.get(2),
                        three.get(0),
                        three.get(1),
                        three.get(2));
        ValidationSchema s2 =
                compiled(
                        "feature { name: \"x\" type: INT } dataset_constraints { min_examples_count: 1 max_examples_count: 4 }");
        List<Finding> high = findings(window(s2, six));
        assertEquals(List.of(DATASET_HIGH_NUM_EXAMPLES), types(high));
        assertEquals("High num examples in dataset.", high.get(0).shortDescription());
        assertEquals(
                "The dataset has 6 examples, which is more than expected.",
                high.get(0).description());
        ValidationSchema s3 =
                compiled(
                        "feature { name: \"x\" type: INT } dataset_constraints { max_examples_count: 4 }");
        assertEquals(List.of(DATASET_HIGH_NUM_EXAMPLES), types(findings(window(s3, six))));
    }

    private static final String G15A =
            "feature { name: \"pay\" type: BYTES string_domain { value: \"cash\" value: \"card\""
                    + " value: \"voucher\" } drift_comparator { infinity_norm { threshold: %s } } }";

    private static ValidationOptions noMinimum() {
        return ValidationOptions.defaults().withMinDriftExamples(0);
    }

    @Test
    void g15LInfinityDrift() {
        ValidationSchema s = compiled(String.format(G15A, "0.3"), noMinimum());
        WindowAccumulator prev = window(s, pays("cash", "cash", "card", "card"));
        WindowAccumulator cur = window(s, pays("cash", "card", "voucher", "voucher"));
        DriftEvaluator.Result r = DriftEvaluator.compare(cur, prev);
        assertEquals(1, r.findings().size());
        Finding f = r.findings().get(0).finding();
        assertEquals(COMPARATOR_L_INFTY_HIGH, f.type());
        assertEquals("High Linfty distance between current and previous", f.shortDescription());
        assertEquals(
                "The Linfty distance between current and previous is 0.5 (up to six significant"
                        + " digits), above the threshold 0.3. The feature value with maximum"
                        + " difference is: voucher",
                f.description());
        DriftSkewInfo.Measurement m = r.driftSkewInfo().get(0).getDriftMeasurements(0);
        assertEquals(DriftSkewInfo.Measurement.Type.L_INFTY, m.getType());
        assertEquals(0.5, m.getValue(), 1e-12);
        assertEquals(0.3, m.getThreshold(), 1e-12);
        assertEquals("pay", r.driftSkewInfo().get(0).getPath().getStep(0));

        ValidationSchema s5 = compiled(String.format(G15A, "0.5"), noMinimum());
        DriftEvaluator.Result r5 =
                DriftEvaluator.compare(
                        window(s5, pays("cash", "card", "voucher", "voucher")),
                        window(s5, pays("cash", "cash", "card", "card")));
        assertEquals(List.of(), r5.findings());
        assertEquals(0.5, r5.driftSkewInfo().get(0).getDriftMeasurements(0).getValue(), 1e-12);
    }

    @Test
    void g15JensenShannonDrift() {
        ValidationSchema s =
                compiled(
                        "feature { name: \"latency_ms\" type: FLOAT drift_comparator {"
                                + " jensen_shannon_divergence { threshold: 0.1 } } }",
                        noMinimum());
        WindowAccumulator prev = window(s, latencies(1, 2, 3, 4));
        WindowAccumulator cur = window(s, latencies(101, 102, 103, 104));
        DriftEvaluator.Result r = DriftEvaluator.compare(cur, prev);
        Finding f = r.findings().get(0).finding();
        assertEquals(COMPARATOR_JENSEN_SHANNON_DIVERGENCE_HIGH, f.type());
        assertEquals(
                "High approximate Jensen-Shannon divergence between current and previous",
                f.shortDescription());
        assertEquals(
                "The approximate Jensen-Shannon divergence between current and previous is 1 (up"
                        + " to six significant digits), above the threshold 0.1.",
                f.description());
        assertEquals(1.0, r.driftSkewInfo().get(0).getDriftMeasurements(0).getValue(), 1e-12);

        ValidationSchema linf =
                compiled(
                        "feature { name: \"latency_ms\" type: FLOAT drift_comparator {"
                                + " infinity_norm { threshold: 0.1 } } }",
                        noMinimum());
        DriftEvaluator.Result l =
                DriftEvaluator.compare(
                        window(linf, latencies(101, 102, 103, 104)),
                        window(linf, latencies(1, 2, 3, 4)));
        assertEquals(List.of(), l.findings());
        assertEquals(0.0, l.driftSkewInfo().get(0).getDriftMeasurements(0).getValue(), 0);
    }

    @Test
    void driftIsSkippedBelowTheMinimumSampleSize() {
        ValidationSchema s = compiled(String.format(G15A, "0.3"));
        DriftEvaluator.Result r =
                DriftEvaluator.compare(
                        window(s, pays("cash", "card", "voucher", "voucher")),
                        window(s, pays("cash", "cash", "card", "card")));
        assertEquals(List.of(), r.findings());
        assertEquals(List.of(FeaturePath.of("pay")), r.skipped());
        assertTrue(r.driftSkewInfo().isEmpty());
    }

    private static List<Example> pays(String... v) {
        return java.util.Arrays.stream(v).map(x -> example("pay", strings(x))).toList();
    }

    private static List<Example> latencies(float... v) {
        List<Example> out = new java.util.ArrayList<>();
        for (float x : v) {
            out.add(example("latency_ms", floats(x)));
        }
        return out;
    }
}
