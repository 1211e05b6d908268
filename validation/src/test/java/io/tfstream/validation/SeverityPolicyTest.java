package io.tfstream.validation;

import static io.tfstream.testkit.ProtoFeatures.int64s;
import static io.tfstream.validation.Fixtures.compiled;
import static io.tfstream.validation.Fixtures.example;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tensorflow.metadata.v0.Anomalies;
import org.tensorflow.metadata.v0.AnomalyInfo;
import org.tensorflow.metadata.v0.AnomalyInfo.Severity;
import org.tensorflow.metadata.v0.AnomalyInfo.Type;

/**
 * TFDV's {@code severity_overrides}: the overridden types' alerts and {@code AnomalyInfo} take the
 * given severity (an info's severity is the highest of its reasons'), dataset-level anomalies stay
 * {@code ERROR}.
 */
class SeverityPolicyTest {
    private static final String SCHEMA =
            "feature { name: \"x\" type: INT int_domain { max: 10 } }\n"
                    + "feature { name: \"y\" type: INT int_domain { max: 10 } value_count { max: 1 } }\n"
                    + "dataset_constraints { min_examples_count: 5 }";

    @Test
    void parsesTypesAndSeveritiesInAnyCase() {
        SeverityPolicy p =
                SeverityPolicy.parse(
                        List.of("int_type_big_int=warning", " SCHEMA_NEW_COLUMN = Warning "));
        assertEquals(Severity.WARNING, p.severity(Type.INT_TYPE_BIG_INT));
        assertEquals(Severity.WARNING, p.severity(Type.SCHEMA_NEW_COLUMN));
        assertEquals(Severity.ERROR, p.severity(Type.INT_TYPE_SMALL_INT));
        assertEquals(
                Severity.ERROR, SeverityPolicy.parse(List.of()).severity(Type.INT_TYPE_BIG_INT));
    }

    @Test
    void badEntriesNameWhatIsWrong() {
        String noEq =
                assertThrows(
                                IllegalArgumentException.class,
                                () -> SeverityPolicy.parse(List.of("WARNING")))
                        .getMessage();
        assertTrue(noEq.contains("is not TYPE=SEVERITY"), noEq);
        String type =
                assertThrows(
                                IllegalArgumentException.class,
                                () -> SeverityPolicy.parse(List.of("BIG_INT=WARNING")))
                        .getMessage();
        assertTrue(type.contains("BIG_INT is not an anomaly type name"), type);
        String level =
                assertThrows(
                                IllegalArgumentException.class,
                                () -> SeverityPolicy.parse(List.of("INT_TYPE_BIG_INT=INFO")))
                        .getMessage();
        assertTrue(level.contains("severity must be ERROR or WARNING"), level);
    }

    @Test
    void overridesReachAlertsAndAnomaliesButNotDatasetAnomalies() {
        ValidationSchema s = compiled(SCHEMA);
        WindowAccumulator w =
                Windows.window(
                        s,
                        List.of(
                                example("x", int64s(11), "y", int64s(11)),
                                example("x", int64s(1), "y", int64s(1, 2))));
        List<WindowFinding> findings = WindowEvaluator.evaluate(w);
        SeverityPolicy p =
                SeverityPolicy.parse(
                        List.of("INT_TYPE_BIG_INT=WARNING", "DATASET_LOW_NUM_EXAMPLES=WARNING"));
        List<Alert> alerts =
                Alerts.of(new Alerts.Context("job", 0, 60_000, 1, 60_000, 0, -1), w, findings, p);
        int checked = 0;
        for (Alert a : alerts) {
            String want =
                    a.anomalyType().equals("INT_TYPE_BIG_INT") ? "WARNING" : "ERROR"; // dataset too
            assertEquals(want, a.severity(), a.toString());
            checked++;
        }
        assertEquals(4, checked, alerts.toString());
        List<Finding> plain = findings.stream().map(WindowFinding::finding).toList();
        Anomalies an = AnomaliesProtoBuilder.build(s, plain, List.of(), p, false);
        AnomalyInfo x = an.getAnomalyInfoOrThrow("x");
        assertEquals(Severity.WARNING, x.getSeverity());
        // y has a WARNING and an ERROR reason: the info is an ERROR
        assertEquals(Severity.ERROR, an.getAnomalyInfoOrThrow("y").getSeverity());
        assertEquals(Severity.ERROR, an.getDatasetAnomalyInfo().getSeverity());
        // A message over the limit drops its baseline schema, nothing else.
        assertEquals(an, AnomaliesProtoBuilder.fit(an, an.getSerializedSize()));
        Anomalies small = AnomaliesProtoBuilder.fit(an, an.getSerializedSize() - 1);
        assertTrue(an.hasBaseline());
        assertTrue(!small.hasBaseline());
        assertEquals(an.toBuilder().clearBaseline().build(), small);
    }
}
