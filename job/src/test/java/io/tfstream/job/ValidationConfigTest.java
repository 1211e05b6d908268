package io.tfstream.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.model.ValidationAction;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tensorflow.metadata.v0.AnomalyInfo;

/** The validation.* options: defaults, required combinations and the actions' syntax. */
class ValidationConfigTest {
    private static Map<String, Object> enabled() {
        Map<String, Object> m = new HashMap<>();
        m.put("source.bootstrap-servers", "localhost:9092");
        m.put("source.topics", "in");
        m.put("schema.path", "schema.pbtxt");
        m.put("dlq.topic", "dlq");
        m.put("validation.enabled", "true");
        m.put("validation.alerts-topic", "alerts");
        return m;
    }

    private static String error(Map<String, Object> m) {
        return assertThrows(JobConfigException.class, () -> JobConfig.of(m)).getMessage();
    }

    @Test
    void defaults() {
        Map<String, Object> m = enabled();
        m.remove("validation.enabled");
        m.remove("validation.alerts-topic");
        JobConfig c = JobConfig.of(m);
        assertEquals(false, c.get(JobOptions.VALIDATION_ENABLED));
        assertEquals(Duration.ofMinutes(1), c.get(JobOptions.VALIDATION_WINDOW));
        assertEquals(-1, c.get(JobOptions.VALIDATION_SPLITS));
        assertEquals(100L, c.get(JobOptions.VALIDATION_MIN_DRIFT_EXAMPLES));
        assertTrue(c.validation().actions().allPass());
    }

    @Test
    void enabledNeedsAnAlertsTopicAndATfmdSchema() {
        Map<String, Object> m = enabled();
        m.remove("validation.alerts-topic");
        assertTrue(error(m).contains("validation.alerts-topic"), error(m));
        m = enabled();
        m.remove("schema.path");
        m.put("spec.path", "spec.json");
        assertTrue(error(m).contains("validation.enabled needs schema.path"), error(m));
    }

    @Test
    void statisticsNeedValidationAndATopic() {
        Map<String, Object> m = enabled();
        m.put("statistics.enabled", "true");
        assertTrue(error(m).contains("statistics.enabled needs statistics.topic"), error(m));
        m.put("statistics.topic", "stats");
        m.put("validation.enabled", "false");
        assertTrue(error(m).contains("statistics.enabled needs validation.enabled"), error(m));
        m.put("validation.enabled", "true");
        m.put("statistics.epsilon", "1.5");
        assertTrue(error(m).contains("statistics.epsilon"), error(m));
        m.remove("statistics.epsilon");
        m.put("statistics.weight-feature", "w");
        assertEquals("w", JobConfig.of(m).get(JobOptions.STATISTICS_WEIGHT_FEATURE));
    }

    @Test
    void actionsByTypeWinOverSeverity() {
        Map<String, Object> m = enabled();
        m.put("validation.actions", "ERROR=mark;int_type_big_int=divert");
        var a = JobConfig.of(m).validation().actions();
        var severity = io.tfstream.validation.SeverityPolicy.allErrors();
        assertEquals(
                ValidationAction.DIVERT,
                a.actionFor(
                        AnomalyInfo.Type.INT_TYPE_BIG_INT,
                        severity.severity(AnomalyInfo.Type.INT_TYPE_BIG_INT)));
        assertEquals(
                ValidationAction.MARK,
                a.actionFor(
                        AnomalyInfo.Type.INT_TYPE_SMALL_INT,
                        severity.severity(AnomalyInfo.Type.INT_TYPE_SMALL_INT)));
    }

    @Test
    void severityOverridesReachTheSettingsAndTheActionsBySeverity() {
        Map<String, Object> m = enabled();
        m.put("validation.severity-overrides", "schema_new_column=warning");
        m.put("validation.actions", "ERROR=divert;WARNING=mark");
        JobConfig c = JobConfig.of(m);
        var severity =
                io.tfstream.validation.SeverityPolicy.parse(c.validation().severityOverrides());
        assertEquals(
                AnomalyInfo.Severity.WARNING,
                severity.severity(AnomalyInfo.Type.SCHEMA_NEW_COLUMN));
        assertEquals(
                AnomalyInfo.Severity.ERROR, severity.severity(AnomalyInfo.Type.INT_TYPE_BIG_INT));
        var a = c.validation().actions();
        assertEquals(
                ValidationAction.MARK,
                a.actionFor(
                        AnomalyInfo.Type.SCHEMA_NEW_COLUMN,
                        severity.severity(AnomalyInfo.Type.SCHEMA_NEW_COLUMN)));
        assertEquals(
                ValidationAction.DIVERT,
                a.actionFor(
                        AnomalyInfo.Type.INT_TYPE_BIG_INT,
                        severity.severity(AnomalyInfo.Type.INT_TYPE_BIG_INT)));
    }

    @Test
    void badActionsAndSplitsNameTheSetting() {
        Map<String, Object> m = enabled();
        m.put("validation.actions", "NOT_A_TYPE=divert");
        assertTrue(error(m).contains("validation.actions"), error(m));
        assertTrue(error(m).contains("NOT_A_TYPE"), error(m));
        m.put("validation.actions", "INT_TYPE_BIG_INT=drop");
        assertTrue(error(m).contains("pass, mark, divert"), error(m));
        m = enabled();
        m.put("validation.severity-overrides", "SCHEMA_NEW_COLUMN=INFO");
        assertTrue(error(m).contains("validation.severity-overrides"), error(m));
        assertTrue(error(m).contains("ERROR or WARNING"), error(m));
        m = enabled();
        m.put("validation.splits", "0");
        assertTrue(error(m).contains("validation.splits"), error(m));
    }
}
